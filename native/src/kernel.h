// The uniform kernel interface. Every native kernel is `void fn(KernelCall&)`, registered by
// name with SKIFF_KERNEL; eager dispatch (addon.cc) and the static program runner both call
// kernels through this one interface.
//
// Contract:
//  - `in` may have any strides (views); kernels that need dense data call `dense(i)`.
//  - `out` tensors are allocated by the caller from the op's infer-meta (TS side), contiguous.
//    Kernels must validate input/output shapes and dtypes *before* touching memory and throw
//    SkiffError naming the op and shapes.
//  - `attrs` is a flat list of numbers whose layout each op documents in its TS definition
//    (src/ops/defs/<op>.ts) and its kernel file, e.g. conv2d: [sh, sw, ph, pw, dh, dw, groups].
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "tensor.h"
#include "threadpool.h"

namespace skiff {

struct KernelCall {
  const char* op = "";
  std::vector<std::shared_ptr<Tensor>> in;
  std::vector<std::shared_ptr<Tensor>> out;
  std::vector<double> attrs;

  Tensor& input(size_t i) const;
  Tensor& output(size_t i) const;
  // Input i as a contiguous tensor (copied once if it is a strided view).
  const Tensor& dense(size_t i);
  double attr(size_t i) const;
  int64_t iattr(size_t i) const;  // checked integral attribute
  // Input i, an int32 or int64 index tensor, as int64 values in row-major order; any other
  // dtype raises naming the op and `what` ("index").
  std::vector<int64_t> int64_values(size_t i, const char* what);

  void expect_inputs(size_t n) const;
  void expect_outputs(size_t n) const;
  void expect_out_shape(size_t i, const std::vector<int64_t>& shape) const;
  void expect_out_dtype(size_t i, DType dt) const;
  void expect_same_dtype(size_t a, size_t b) const;  // inputs a and b
  // Data-dependent output shapes (OpDef.dynamicShape: masked_select, nonzero, unique, ...).
  // Eager dispatch passes such an output as a placeholder: dtype set, unknown dims -1, no
  // storage. The kernel computes the real shape from the input values (validating first) and
  // calls alloc_output once; known dims must match. The caller reads the shape back after the
  // call, and a placeholder left unallocated is an error. One pass, no upper-bound buffer.
  Tensor& alloc_output(size_t i, const std::vector<int64_t>& shape);
  bool is_placeholder(size_t i) const { return i < out.size() && out[i] && !out[i]->storage; }
  // Empties the call for reuse (vectors keep their capacity).
  void reset() { in.clear(); out.clear(); attrs.clear(); dense_cache_.clear(); }

 private:
  std::vector<std::shared_ptr<Tensor>> dense_cache_;
};

using KernelFn = void (*)(KernelCall&);

int register_kernel(const char* name, KernelFn fn);
int kernel_id(const std::string& name);  // -1 if unknown
KernelFn kernel_fn(int id);              // throws on a bad id
const char* kernel_name(int id);
std::vector<std::string> kernel_names();

#define SKIFF_KERNEL_CAT2(a, b) a##b
#define SKIFF_KERNEL_CAT(a, b) SKIFF_KERNEL_CAT2(a, b)
#define SKIFF_KERNEL(name, fn) \
  static const int SKIFF_KERNEL_CAT(skiff_kernel_reg_, __COUNTER__) = ::skiff::register_kernel(name, fn)

}  // namespace skiff
