// The interpreter loop of the static program runner: binds inputs, walks the instruction list,
// allocates plan buffers lazily and releases them where the plan says, and stops at host calls.
// Everything that can be checked once was checked by programCreate (program.cc); what is checked
// here depends on the run: the bound handles, view bounds against real storages, host results.
#include <chrono>
#include <cstring>
#include "program_format.h"
#include "storage_uninit.h"
#include "threadpool_hint.h"

namespace skiff {

ProgramCounters& program_counters() { static ProgramCounters c; return c; }

namespace {

std::string where(const Program& p, size_t pc) {
  const Instr& I = p.instrs[pc];
  return I.name + ": instruction " + std::to_string(pc) + " of program " + std::to_string(p.id);
}

// Kernel messages start with the op name already; keep one copy of it.
std::string strip_op(const std::string& msg, const std::string& op) {
  if (msg.compare(0, op.size() + 2, op + ": ") == 0) return msg.substr(op.size() + 2);
  return msg;
}

std::string slot_str(const Program& p, int32_t s) {
  const auto& l = p.slots[(size_t)s].label;
  return l.empty() ? "slot " + std::to_string(s) : l;
}

void check_bound(const Program& p, const SlotSpec& s, const Tensor& t, const std::string& what) {
  if (t.dtype != s.dtype)
    throw SkiffError(what + ": dtype " + dtype_name(t.dtype) + " does not match the program's " + dtype_name(s.dtype));
  if (t.shape != s.shape)
    throw SkiffError(what + ": shape " + shape_str(t.shape) + " does not match the program's " + shape_str(s.shape));
  if (s.layout == Layout::Contiguous && !t.is_contiguous())
    throw SkiffError(what + ": the program was built for a contiguous tensor, got strides " + shape_str(t.strides));
  if (s.layout == Layout::Exact) {
    for (size_t d = 0; d < s.shape.size(); d++)
      if (s.shape[d] != 1 && t.strides[d] != s.strides[d])
        throw SkiffError(what + ": strides " + shape_str(t.strides) + " do not match the program's " + shape_str(s.strides));
  }
  (void)p;
}

// The common case of check_bound without building any message (runs on every bind).
bool bound_ok(const SlotSpec& s, const Tensor& t) {
  if (t.dtype != s.dtype || t.shape != s.shape) return false;
  if (s.layout == Layout::Contiguous) return t.is_contiguous();
  if (s.layout == Layout::Exact) {
    for (size_t d = 0; d < s.shape.size(); d++)
      if (s.shape[d] != 1 && t.strides[d] != s.strides[d]) return false;
  }
  return true;
}

void account(RunState& st, int64_t bytes) {
  st.live += bytes;
  if (st.live > st.peak) st.peak = st.live;
}

// uninit: the writing kernel assigns every output element (Instr::out_uninit), so a fresh buffer
// is not cleared first. Buffers reused within a run are never cleared either way.
std::shared_ptr<Tensor> make_out(RunState& st, int32_t slot, bool uninit = false) {
  const Program& p = *st.prog;
  const SlotSpec& s = p.slots[(size_t)slot];
  auto t = std::make_shared<Tensor>();
  t->dtype = s.dtype;
  t->shape = s.shape;
  t->strides = s.strides;
  if (s.kind == SlotKind::ParamAlias) {
    const auto& par = st.slots[(size_t)s.index];
    if (!par) throw SkiffError("mutable parameter " + slot_str(p, s.index) + " is not bound");
    t->storage = par->storage;
    t->offset = par->offset;
    return t;
  }
  auto& b = st.bufs[(size_t)s.index];
  if (!b) {
    int64_t bytes = p.buf_bytes[(size_t)s.index];
    if (!uninit) b = std::make_shared<Storage>((size_t)bytes);
    else {
      b = make_storage_uninit((size_t)bytes);
      if (p.poison) std::memset(b->data, 0xFF, b->bytes);
    }
    account(st, bytes);
    program_counters().buffers_allocated++;
  }
  t->storage = b;
  return t;
}

const std::shared_ptr<Tensor>& read(const RunState& st, int32_t slot) {
  const auto& t = st.slots[(size_t)slot];
  if (!t) throw SkiffError("reads " + slot_str(*st.prog, slot) + ", which holds no tensor");
  return t;
}

void run_view(RunState& st, const Instr& I) {
  const auto& base = read(st, I.in[0]);
  int64_t offset = base->offset + I.voffset;
  int64_t cap = (int64_t)(base->storage->bytes / base->itemsize());
  if (offset < 0) throw SkiffError("view offset " + std::to_string(offset) + " is negative");
  int64_t last = offset;
  bool empty = false;
  for (size_t d = 0; d < I.vshape.size(); d++) {
    if (I.vshape[d] == 0) empty = true;
    else last += (I.vshape[d] - 1) * I.vstrides[d];
  }
  if (!empty && last >= cap)
    throw SkiffError("view of shape " + shape_str(I.vshape) + " strides " + shape_str(I.vstrides) + " offset " + std::to_string(offset) +
                     " exceeds its base storage of " + std::to_string(cap) + " elements");
  auto t = std::make_shared<Tensor>();
  t->storage = base->storage;
  t->dtype = base->dtype;
  t->shape = I.vshape;
  t->strides = I.vstrides;
  t->offset = offset;
  st.slots[(size_t)I.out[0]] = std::move(t);
}

void run_copy(RunState& st, const Instr& I) {
  const auto& src = read(st, I.in[0]);
  int32_t o = I.out[0];
  // strided_copy assigns every element of dst: a fresh buffer needs no clear.
  std::shared_ptr<Tensor> dst = st.prog->slots[(size_t)o].kind == SlotKind::Param ? read(st, o) : make_out(st, o, true);
  if (dst->storage == src->storage) throw SkiffError("copy source and destination share storage");
  strided_copy(*src, *dst);
  st.slots[(size_t)o] = std::move(dst);
}

void finish_instr(RunState& st, const Instr& I) {
  for (int32_t s : I.clear) st.slots[(size_t)s].reset();
  for (int32_t b : I.release) {
    auto& buf = st.bufs[(size_t)b];
    if (buf) { st.live -= st.prog->buf_bytes[(size_t)b]; buf.reset(); }
  }
  st.executed++;
}

}  // namespace

std::unique_ptr<RunState> bind_run(const std::shared_ptr<Program>& p, const int32_t* inputs, size_t n_inputs, const int32_t* params, size_t n_params) {
  if (n_inputs != p->input_slot.size())
    throw SkiffError("program " + std::to_string(p->id) + ": expected " + std::to_string(p->input_slot.size()) + " inputs, got " + std::to_string(n_inputs));
  if (n_params != p->param_slot.size())
    throw SkiffError("program " + std::to_string(p->id) + ": expected " + std::to_string(p->param_slot.size()) + " parameters, got " + std::to_string(n_params));
  std::unique_ptr<RunState> st = p->spare ? std::move(p->spare) : std::make_unique<RunState>();
  st->prog = p;
  st->pc = 0;
  st->live = st->peak = st->executed = 0;
  st->slots.assign(p->slots.size(), nullptr);
  st->bufs.assign(p->buf_bytes.size(), nullptr);
  // Messages are only built on failure: binding runs on every call of a program.
  auto bind = [&](int32_t slot, int64_t h, const char* kind, size_t i) {
    auto what = [&] { return "program " + std::to_string(p->id) + ": " + kind + " " + std::to_string(i) + " (" + slot_str(*p, slot) + ")"; };
    const std::shared_ptr<Tensor>* t;
    try {
      t = &handles().get(h, "program");
    } catch (const SkiffError&) {
      throw SkiffError(what() + ": invalid or freed tensor handle " + std::to_string(h));
    }
    const SlotSpec& spec = p->slots[(size_t)slot];
    if (!bound_ok(spec, **t)) check_bound(*p, spec, **t, what());
    st->slots[(size_t)slot] = *t;
  };
  for (size_t i = 0; i < n_inputs; i++) bind(p->input_slot[i], inputs[i], "input", i);
  for (size_t i = 0; i < n_params; i++) bind(p->param_slot[i], params[i], "parameter", i);
  for (size_t i = 0; i < n_params; i++) {
    if (!p->slots[(size_t)p->param_slot[i]].is_mutable) continue;
    // A written parameter must not share storage with any other bound tensor: the write would show through it.
    const auto& mine = st->slots[(size_t)p->param_slot[i]]->storage;
    auto clash = [&](int32_t j, const char* kind, size_t n) {
      if (j != p->param_slot[i] && st->slots[(size_t)j]->storage == mine)
        throw SkiffError("program " + std::to_string(p->id) + ": mutable parameter " + std::to_string(i) + " (" + slot_str(*p, p->param_slot[i]) +
                         ") shares storage with " + kind + " " + std::to_string(n) + " (" + slot_str(*p, j) + "); writing it would change that tensor");
    };
    for (size_t j = 0; j < p->input_slot.size(); j++) clash(p->input_slot[j], "input", j);
    for (size_t j = 0; j < p->param_slot.size(); j++) clash(p->param_slot[j], "parameter", j);
  }
  return st;
}

void recycle_run(std::unique_ptr<RunState> st) {
  std::shared_ptr<Program> p = std::move(st->prog);
  for (auto& t : st->slots) t.reset();
  for (auto& b : st->bufs) b.reset();
  p->spare = std::move(st);
}

// Clears the current constant inputs however the kernel call ends.
struct ConstScope {
  explicit ConstScope(const ConstInputs* c) { set_current_const_inputs(c); }
  ~ConstScope() { set_current_const_inputs(nullptr); }
};

bool execute(RunState& st) {
  Program& p = *st.prog;
  auto& c = program_counters();
  KernelCall call;  // one per run: its vectors keep their capacity from instruction to instruction
  HotRegion hot;    // back-to-back parallel regions: the pool may poll instead of sleeping
  const bool prof = p.profiling && p.prof_ns.size() == p.instrs.size();
  if (prof && st.pc == 0) p.prof_runs++;
  for (; st.pc < p.instrs.size(); st.pc++) {
    const Instr& I = p.instrs[st.pc];
    const auto t0 = prof ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    try {
      switch (I.op) {
        case Opcode::Kernel: {
          call.reset();
          call.op = I.name.c_str();
          for (int32_t s : I.in) call.in.push_back(read(st, s));
          for (int32_t s : I.out) {
            auto t = make_out(st, s, I.out_uninit);
            call.out.push_back(t);
            st.slots[(size_t)s] = std::move(t);
          }
          call.attrs.assign(I.attrs.begin(), I.attrs.end());
          if (I.const_mask) {
            const ConstInputs ci{I.const_mask, &I.const_cache};
            ConstScope scope(&ci);
            I.kernel(call);
          } else {
            I.kernel(call);
          }
          c.kernels++;
          call.reset();  // drop references now: the frees below must see the real use counts
          break;
        }
        case Opcode::View: run_view(st, I); c.views++; break;
        case Opcode::Copy: run_copy(st, I); c.copies++; break;
        case Opcode::Host: return false;
      }
    } catch (const std::bad_alloc&) {
      throw SkiffError(where(p, st.pc) + ": out of memory");
    } catch (const std::exception& e) {
      throw SkiffError(where(p, st.pc) + ": " + strip_op(e.what(), I.name));
    }
    finish_instr(st, I);
    if (prof) p.prof_ns[st.pc] += (double)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  }
  return true;
}

void accept_host_results(RunState& st, const std::vector<int64_t>& results) {
  const Program& p = *st.prog;
  if (st.pc >= p.instrs.size() || p.instrs[st.pc].op != Opcode::Host) throw SkiffError("program " + std::to_string(p.id) + ": run is not at a host call");
  const Instr& I = p.instrs[st.pc];
  std::string w = where(p, st.pc);
  if (results.size() != I.out.size())
    throw SkiffError(w + ": host call returned " + std::to_string(results.size()) + " tensors, expected " + std::to_string(I.out.size()));
  std::vector<std::shared_ptr<Tensor>> got(results.size());
  for (size_t i = 0; i < results.size(); i++) {
    std::string what = w + ": host result " + std::to_string(i) + " (" + slot_str(p, I.out[i]) + ")";
    const std::shared_ptr<Tensor>* t;
    try {
      t = &handles().get(results[i], "program");
    } catch (const SkiffError&) {
      throw SkiffError(what + ": invalid or freed tensor handle " + std::to_string(results[i]));
    }
    check_bound(p, p.slots[(size_t)I.out[i]], **t, what);
    // Later view instructions were planned for a dense, offset-0 layout.
    if ((*t)->is_contiguous() && (*t)->offset == 0) got[i] = *t;
    else {
      got[i] = make_tensor((*t)->dtype, (*t)->shape, I.name.c_str());
      strided_copy(**t, *got[i]);
    }
  }
  for (size_t i = 0; i < got.size(); i++) st.slots[(size_t)I.out[i]] = std::move(got[i]);
  program_counters().host_calls++;
  finish_instr(st, I);
  st.pc++;
}

std::vector<int32_t> finish_run(RunState& st) {
  Program& p = *st.prog;
  std::vector<int32_t> out(p.outputs.size());
  for (size_t i = 0; i < out.size(); i++) out[i] = handles().add(read(st, p.outputs[i]));
  auto& c = program_counters();
  c.runs++;
  c.instructions += st.executed;
  c.last_peak = st.peak;
  if (st.peak > c.max_peak) c.max_peak = st.peak;
  p.runs++;
  p.last_peak = st.peak;
  p.last_instructions = st.executed;
  return out;
}

}  // namespace skiff
