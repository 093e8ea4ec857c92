// gather / index_select (attrs [axis]): out[o, k, i] = x[o, index[k], i] with x read densely as
// [outer, D, inner]. Every index is validated before the output is touched; negative indices
// are errors as in Paddle's CPU kernels. A 0-D index (gather only) drops the axis.
#include <cstring>
#include "kernel.h"

namespace skiff {
namespace {

std::vector<int64_t> read_indices(KernelCall& c, const Tensor& x, int64_t axis) {
  const Tensor& idx = c.dense(1);
  int64_t n = idx.numel(), dim = x.shape[axis];
  std::vector<int64_t> out((size_t)n);
  if (idx.dtype == DType::I64) std::memcpy(out.data(), idx.raw(), (size_t)n * 8);
  else if (idx.dtype == DType::I32) { const int32_t* p = idx.data<int32_t>(); for (int64_t i = 0; i < n; i++) out[i] = p[i]; }
  else throw SkiffError(std::string(c.op) + ": index must be int32 or int64, got " + dtype_name(idx.dtype));
  for (int64_t i = 0; i < n; i++)
    if (out[i] < 0 || out[i] >= dim)
      throw SkiffError(std::string(c.op) + ": index " + std::to_string(out[i]) + " (position " + std::to_string(i) + ") is out of range for axis " +
                       std::to_string(axis) + " of size " + std::to_string(dim) + " of x " + shape_str(x.shape) +
                       (out[i] < 0 ? "; negative indices are not supported" : ""));
  return out;
}

void k_gather(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &index = c.input(1);
  c.expect_out_dtype(0, x.dtype);
  int64_t axis = c.iattr(0);
  if (x.shape.empty() || axis < 0 || axis >= (int64_t)x.shape.size())
    throw SkiffError(std::string(c.op) + ": axis " + std::to_string(axis) + " is out of range for x " + shape_str(x.shape));
  size_t ir = index.shape.size();
  if (ir > 2 || (ir == 2 && index.shape[1] != 1)) throw SkiffError(std::string(c.op) + ": index must be 0-D, 1-D or [N, 1], got " + shape_str(index.shape));
  int64_t n = index.numel();
  auto expect = x.shape;
  if (ir == 0) expect.erase(expect.begin() + axis); else expect[axis] = n;
  c.expect_out_shape(0, expect);
  auto idx = read_indices(c, x, axis);
  if (c.output(0).numel() == 0) return;
  const Tensor& xd = c.dense(0);
  int64_t outer = 1, inner = 1, dim = x.shape[axis], es = (int64_t)x.itemsize();
  for (int64_t d = 0; d < axis; d++) outer *= x.shape[d];
  for (size_t d = axis + 1; d < x.shape.size(); d++) inner *= x.shape[d];
  const char* src = (const char*)xd.raw();
  char* dst = (char*)c.output(0).raw();
  size_t row = (size_t)(inner * es);
  parallel_for(outer * n, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, inner)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; t++) {
      int64_t o = t / n, k = t % n;
      std::memcpy(dst + (size_t)t * row, src + (size_t)(o * dim + idx[k]) * row, row);
    }
  });
}

}  // namespace

SKIFF_KERNEL("gather", k_gather);
SKIFF_KERNEL("index_select", k_gather);

}  // namespace skiff
