// index_add (attrs [axis]): out = x, then out[o, index[k], i] += value[o, k, i], with x read
// densely as [outer, D, inner] and value as [outer, n, inner]. It is the scatter-add behind the
// gradients of gather, index_select and embedding (src/ops/defs/index_add.ts). Indices are all
// validated before the output is touched; negative ones are errors, as for gather. Repeated
// indices accumulate. Work is split over (outer, inner) positions, each of which runs through
// every k, so no two threads add into the same element; half types add in float32.
#include <cstring>
#include "kernel.h"

namespace skiff {
namespace {

void k_index_add(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &index = c.input(1), &value = c.input(2);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  const int64_t axis = c.iattr(0);
  const int64_t rank = (int64_t)x.shape.size();
  if (rank == 0 || axis < 0 || axis >= rank)
    throw SkiffError("index_add: axis " + std::to_string(axis) + " is out of range for x " + shape_str(x.shape));
  if (value.dtype != x.dtype)
    throw SkiffError(std::string("index_add: value dtype ") + dtype_name(value.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  size_t ir = index.shape.size();
  if (ir < 1 || ir > 2 || (ir == 2 && index.shape[1] != 1))
    throw SkiffError("index_add: index must be 1-D or [N, 1], got " + shape_str(index.shape));
  const int64_t n = index.shape[0], dim = x.shape[axis];
  auto vshape = x.shape;
  vshape[axis] = n;
  if (value.shape != vshape)
    throw SkiffError("index_add: value shape " + shape_str(value.shape) + " must be x's " + shape_str(x.shape) + " with axis " +
                     std::to_string(axis) + " of size " + std::to_string(n));
  std::vector<int64_t> idx((size_t)n);
  const Tensor& id = c.dense(1);
  if (id.dtype == DType::I64) std::memcpy(idx.data(), id.raw(), (size_t)n * 8);
  else if (id.dtype == DType::I32) { const int32_t* p = id.data<int32_t>(); for (int64_t k = 0; k < n; k++) idx[k] = p[k]; }
  else throw SkiffError(std::string("index_add: index must be int32 or int64, got ") + dtype_name(id.dtype));
  for (int64_t k = 0; k < n; k++)
    if (idx[k] < 0 || idx[k] >= dim)
      throw SkiffError("index_add: index " + std::to_string(idx[k]) + " (position " + std::to_string(k) + ") is out of range for axis " +
                       std::to_string(axis) + " of size " + std::to_string(dim) + " of x " + shape_str(x.shape) +
                       (idx[k] < 0 ? "; negative indices are not supported" : ""));
  Tensor& out = c.output(0);
  if (out.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  std::memcpy(out.raw(), xd.raw(), (size_t)out.numel() * x.itemsize());
  if (n == 0) return;
  const Tensor& vd = c.dense(2);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; d++) outer *= x.shape[d];
  for (int64_t d = axis + 1; d < rank; d++) inner *= x.shape[d];
  dispatch_numeric(x.dtype, "index_add", [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* o = out.data<T>();
    const T* v = vd.data<T>();
    parallel_for(outer * inner, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, n)), [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; t++) {
        const int64_t oo = t / inner, i = t % inner;
        for (int64_t k = 0; k < n; k++) {
          T& dst = o[(oo * dim + idx[k]) * inner + i];
          dst = C::store(C::load(dst) + C::load(v[(oo * n + k) * inner + i]));
        }
      }
    });
  });
}

}  // namespace

SKIFF_KERNEL("index_add", k_index_add);

}  // namespace skiff
