// Derived forms of constant kernel inputs, built once and reused across runs: a GEMM weight
// packed for the micro-kernel (matmul, fused_gemm_epilogue; conv2d and fused_conv2d_add_act
// keep their float32 weight packed as the GEMM's A operand, tag 16, nn_conv.cc).
//
// Who decides what is constant: the caller of the static program runner. An inference model's
// parameters (paddle.jit.load, the predictor) are never written after loading, so its Executable
// marks its parameter slots constant (slot flag bit 1, Executable option constantParams); views
// of a constant slot are constant too. Only while such a program runs a kernel does
// const_cache_for() return an entry; in eager dispatch and in programs whose parameters may change
// (training, paddle.static) it returns null and kernels compute as before.
//
// An entry is keyed by the tensor's storage (held, so its address cannot be reused while cached),
// offset, shape, strides and a kernel-chosen tag; a different tensor bound to the same
// instruction replaces it. The value is shared between programs (an Executable keeps one program
// per input signature) through shared_const_value, so a weight is packed once per process.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>
#include "tensor.h"

namespace skiff {

struct ConstCacheEntry {
  std::shared_ptr<Storage> storage;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
  int tag = 0;
  std::shared_ptr<void> value;  // null until the kernel builds it
};

// Set by the program runner around one kernel call (null otherwise).
struct ConstInputs {
  uint32_t mask = 0;                        // bit i: input i is constant
  std::vector<ConstCacheEntry>* entries = nullptr;  // the instruction's entries, one per input
};
void set_current_const_inputs(const ConstInputs* c);

// The running kernel's cache entry for input i holding tensor t, reset when it described another
// tensor or tag; null when input i is not constant (then compute without caching).
ConstCacheEntry* const_cache_for(size_t i, const Tensor& t, int tag);

// Whether input i of the running kernel is constant, without touching its entry (a kernel choosing
// between paths that cache different forms asks this first, so the entry does not flip).
bool const_input(size_t i);

// The value for entry e's key shared by every program in the process: an existing one, or
// make()'s result registered for the others. Lives as long as some entry holds it.
std::shared_ptr<void> shared_const_value(const ConstCacheEntry& e, const std::function<std::shared_ptr<void>()>& make);

// Number of shared values built so far (tests: a second program or run must not build again).
int64_t const_values_built();

}  // namespace skiff
