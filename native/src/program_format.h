// The static program runner's data: a lowered instruction list plus a buffer plan, built once
// by programCreate from compact typed arrays (src/executor/program.ts writes them) and run many
// times by programRun, each run executing the whole list in one N-API call.
//
// Wire format (all indices 0-based):
//   slots   Int32Array, 7 per slot: [kind, index, dtype, ndim, dimsStart, layout, flags]
//             kind   SlotKind below; index: input #, param #, buffer id, or param slot (ParamAlias)
//             dims   shape at dims[dimsStart .. +ndim]; layout Exact: strides follow the shape
//             layout Input/Param: 0 any, 1 contiguous, 2 exact strides; others 0
//             flags  bit 0: mutable persistable (Param slots only)
//                    bit 1: constant (Param slots only): its contents never change between runs,
//                           so kernels may cache derived forms of it (const_cache.h)
//   dims    Float64Array
//   instrs  Int32Array, 10 per instruction: [opcode, fn, inStart, nIn, outStart, nOut, attrStart, nAttr, freeStart, nFree]
//             fn: kernel id (Kernel), host function # (Host), unused otherwise
//   args    Int32Array: in/out slot lists; free lists: s >= 0 clears slot s, -(b+1) releases buffer b
//   attrs   Float64Array: kernel attributes; View: [ndim, shape.., strides.., offsetDelta]
//   buffers Float64Array: byte size of each buffer
//   outputs Int32Array: slots handed back as new handles when the run completes
//   names   string[] per instruction (op names for errors); labels string[] per slot
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "const_cache.h"
#include "kernel.h"
#include "tensor.h"

namespace skiff {

enum class SlotKind : int32_t {
  Input = 0,       // bound per run from inputHandles[index]
  Param = 1,       // bound per run from paramHandles[index]
  Buffer = 2,      // a kernel/copy output: contiguous, offset 0, in plan buffer `index`
  View = 3,        // made by a View instruction from another slot's storage
  Host = 4,        // returned by a host call (made contiguous if it is not)
  ParamAlias = 5,  // a kernel output written straight into mutable param slot `index`
};
enum class Opcode : int32_t { Kernel = 0, View = 1, Host = 2, Copy = 3 };
enum class Layout : int32_t { Any = 0, Contiguous = 1, Exact = 2 };

struct SlotSpec {
  SlotKind kind = SlotKind::Buffer;
  int32_t index = -1;
  DType dtype = DType::F32;
  std::vector<int64_t> shape, strides;  // strides: contiguous, or the exact ones to check
  Layout layout = Layout::Any;
  bool is_mutable = false;
  bool is_constant = false;  // a constant parameter or a view of one
  size_t nbytes = 0;
  std::string label;
};

struct Instr {
  Opcode op = Opcode::Kernel;
  int32_t fn = -1;
  KernelFn kernel = nullptr;
  std::vector<int32_t> in, out;
  std::vector<double> attrs;
  std::vector<int64_t> vshape, vstrides;  // View
  int64_t voffset = 0;                    // View: added to the base's offset
  std::vector<int32_t> clear;             // slots dropped after this instruction
  std::vector<int32_t> release;           // buffers released after this instruction
  std::string name;
  uint32_t const_mask = 0;                // Kernel: bit i set when input i is a constant slot
  bool out_uninit = false;                // Kernel: writes every output element, so fresh plan buffers skip the clear
  mutable std::vector<ConstCacheEntry> const_cache;  // Kernel with const_mask: one entry per input
};

struct Program {
  int32_t id = 0;
  int32_t n_host = 0;
  std::vector<SlotSpec> slots;
  std::vector<Instr> instrs;
  std::vector<int64_t> buf_bytes;
  std::vector<int32_t> outputs;
  std::vector<int32_t> input_slot, param_slot;  // slot of input i / param j
  int64_t runs = 0, last_peak = 0, last_instructions = 0;
  // SKIFF_POISON_PLAN_BUFFERS=1 at programCreate: buffers that skip the clear are filled with
  // 0xFF bytes (NaN) instead, so a kernel wrongly listed as overwriting shows up in tests.
  bool poison = false;
  // Per-instruction wall time (ns, summed over runs) while profiling is on (programProfile).
  bool profiling = false;
  std::vector<double> prof_ns;
  int64_t prof_runs = 0;
  // A finished run's state, kept for the next run (its vectors keep their capacity). Holds no
  // reference to the program or to tensors while parked.
  std::unique_ptr<struct RunState> spare;
};

// One execution in flight. Lives on the C++ stack during a run and moves to the state table
// while suspended at a host call, so host functions may run programs (even this one) re-entrantly.
struct RunState {
  std::shared_ptr<Program> prog;
  std::vector<std::shared_ptr<Tensor>> slots;
  std::vector<std::shared_ptr<Storage>> bufs;
  size_t pc = 0;
  int64_t live = 0, peak = 0, executed = 0;
};

struct ProgramCounters {
  int64_t created = 0, freed = 0, runs = 0, resumes = 0, instructions = 0;
  int64_t kernels = 0, views = 0, host_calls = 0, copies = 0, buffers_allocated = 0;
  int64_t last_peak = 0, max_peak = 0;
};
ProgramCounters& program_counters();

// Binds inputs/params (validated against the plan) into a fresh state; throws naming the input.
std::unique_ptr<RunState> bind_run(const std::shared_ptr<Program>& p, const int32_t* inputs, size_t n_inputs, const int32_t* params, size_t n_params);
// Parks a finished state on its program for reuse by the next run.
void recycle_run(std::unique_ptr<RunState> st);
// Executes from st.pc until the end (returns true) or a Host instruction (returns false, st.pc at it).
bool execute(RunState& st);
// Installs host results for the Host instruction at st.pc (validated), runs its frees, advances pc.
void accept_host_results(RunState& st, const std::vector<int64_t>& results);
// Finishes a completed run: output handles, counters.
std::vector<int32_t> finish_run(RunState& st);

}  // namespace skiff
