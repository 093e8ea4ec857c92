// Simple products: dot, outer, kron, cross; defs in src/ops/defs/linalg_products.ts.
//   dot(x, y):    []      x, y [N] -> [] or [B, N] -> [B]
//   outer(x, y):  []      flattened x [M] and y [N] -> [M, N]
//   kron(x, y):   []      ranks aligned at the right (missing dims are 1), out dim = x dim * y dim
//   cross(x, y):  [axis]  axis resolved in TS (Paddle's axis=9: first dim of size 3)
// Inputs are made dense once; every kernel checks dtypes and shapes before reading them.
// float16/bfloat16 compute in float32 (Compute<T>); integer products wrap like Paddle's.
#include <algorithm>
#include <cstring>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

void check_pair(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &y = c.input(1);
  if (x.dtype != y.dtype)
    throw SkiffError(std::string(c.op) + ": x and y must have the same dtype, got " + dtype_name(x.dtype) + " and " + dtype_name(y.dtype));
  if (x.dtype == DType::Bool || x.dtype == DType::I8 || x.dtype == DType::U8)
    throw SkiffError(std::string(c.op) + ": expected float16, bfloat16, float32, float64, int32 or int64 inputs, got " + dtype_name(x.dtype));
  c.expect_out_dtype(0, x.dtype);
}


// sum_i a[i] b[i] in A, with 8 independent partial sums so the loop vectorizes without
// reassociation flags (and rounds better than one running sum).
template <typename T, typename A>
A dot_row(const T* a, const T* b, int64_t n) {
  A acc[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++) acc[k] += Compute<T>::load(a[i + k]) * Compute<T>::load(b[i + k]);
  for (; i < n; i++) acc[0] += Compute<T>::load(a[i]) * Compute<T>::load(b[i]);
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

void k_dot(KernelCall& c) {
  check_pair(c);
  Tensor &xi = c.input(0), &yi = c.input(1);
  if (xi.ndim() < 1 || xi.ndim() > 2 || xi.shape != yi.shape)
    throw SkiffError("dot: x and y must be 1-D or 2-D tensors of the same shape, got " + shape_str(xi.shape) + " and " + shape_str(yi.shape));
  const bool batched = xi.ndim() == 2;
  const int64_t rows = batched ? xi.shape[0] : 1, n = xi.shape.back();
  c.expect_out_shape(0, batched ? std::vector<int64_t>{rows} : std::vector<int64_t>{});
  const Tensor &x = c.dense(0), &y = c.dense(1);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const T *px = x.data<T>(), *py = y.data<T>();
    T* po = c.output(0).data<T>();
    parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) po[r] = Compute<T>::store(dot_row<T, A>(px + r * n, py + r * n, n));
    });
  });
}

void k_outer(KernelCall& c) {
  check_pair(c);
  const int64_t m = c.input(0).numel(), n = c.input(1).numel();
  c.expect_out_shape(0, {m, n});
  const Tensor &x = c.dense(0), &y = c.dense(1);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const T *px = x.data<T>(), *py = y.data<T>();
    T* po = c.output(0).data<T>();
    parallel_for(m, std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1)), [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; i++) {
        const A a = Compute<T>::load(px[i]);
        T* row = po + i * n;
        for (int64_t j = 0; j < n; j++) row[j] = Compute<T>::store(a * Compute<T>::load(py[j]));
      }
    });
  });
}

void k_kron(KernelCall& c) {
  check_pair(c);
  const Tensor &xi = c.input(0), &yi = c.input(1);
  const size_t r = std::max(xi.shape.size(), yi.shape.size());
  // Shapes padded with leading 1s to a common rank.
  std::vector<int64_t> xs(r, 1), ys(r, 1), os(r);
  std::copy(xi.shape.begin(), xi.shape.end(), xs.begin() + (r - xi.shape.size()));
  std::copy(yi.shape.begin(), yi.shape.end(), ys.begin() + (r - yi.shape.size()));
  for (size_t d = 0; d < r; d++) os[d] = xs[d] * ys[d];
  c.expect_out_shape(0, os);
  const int64_t nx = xi.numel(), ny = yi.numel();
  if (nx == 0 || ny == 0) return;
  // out[(a_d * ys_d + b_d)_d] = x[a] y[b]: the output offset splits into a part from x's index
  // and a part from y's, so both are tabulated once and the loop is a plain double loop.
  std::vector<int64_t> ostr(r);
  int64_t acc = 1;
  for (size_t d = r; d-- > 0;) { ostr[d] = acc; acc *= os[d]; }
  auto offsets = [&](const std::vector<int64_t>& shape, bool is_x, int64_t count) {
    std::vector<int64_t> off((size_t)count), idx(r, 0);
    for (int64_t e = 0; e < count; e++) {
      int64_t o = 0;
      for (size_t d = 0; d < r; d++) o += (is_x ? idx[d] * ys[d] : idx[d]) * ostr[d];
      off[e] = o;
      for (size_t d = r; d-- > 0;) { if (++idx[d] < shape[d]) break; idx[d] = 0; }
    }
    return off;
  };
  const std::vector<int64_t> ox = offsets(xs, true, nx), oy = offsets(ys, false, ny);
  const Tensor &x = c.dense(0), &y = c.dense(1);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const T *px = x.data<T>(), *py = y.data<T>();
    T* po = c.output(0).data<T>();
    parallel_for(nx, std::max<int64_t>(1, 32768 / ny), [&](int64_t a0, int64_t a1) {
      for (int64_t a = a0; a < a1; a++) {
        const A va = Compute<T>::load(px[a]);
        T* base = po + ox[a];
        for (int64_t b = 0; b < ny; b++) base[oy[b]] = Compute<T>::store(va * Compute<T>::load(py[b]));
      }
    });
  });
}

void k_cross(KernelCall& c) {
  check_pair(c);
  const Tensor &xi = c.input(0), &yi = c.input(1);
  if (xi.shape != yi.shape) throw SkiffError("cross: x and y must have the same shape, got " + shape_str(xi.shape) + " and " + shape_str(yi.shape));
  const int64_t axis = c.iattr(0);
  if (axis < 0 || axis >= xi.ndim()) throw SkiffError("cross: axis " + S(axis) + " is out of range for shape " + shape_str(xi.shape));
  if (xi.shape[axis] != 3) throw SkiffError("cross: the size of axis " + S(axis) + " must be 3, got shape " + shape_str(xi.shape));
  c.expect_out_shape(0, xi.shape);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; d++) outer *= xi.shape[d];
  for (int64_t d = axis + 1; d < xi.ndim(); d++) inner *= xi.shape[d];
  if (outer * inner == 0) return;
  const Tensor &x = c.dense(0), &y = c.dense(1);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const T *px = x.data<T>(), *py = y.data<T>();
    T* po = c.output(0).data<T>();
    parallel_for(outer * inner, 8192, [&](int64_t e0, int64_t e1) {
      for (int64_t e = e0; e < e1; e++) {
        const int64_t base = (e / inner) * 3 * inner + e % inner;
        const A x0 = Compute<T>::load(px[base]), x1 = Compute<T>::load(px[base + inner]), x2 = Compute<T>::load(px[base + 2 * inner]);
        const A y0 = Compute<T>::load(py[base]), y1 = Compute<T>::load(py[base + inner]), y2 = Compute<T>::load(py[base + 2 * inner]);
        po[base] = Compute<T>::store(x1 * y2 - x2 * y1);
        po[base + inner] = Compute<T>::store(x2 * y0 - x0 * y2);
        po[base + 2 * inner] = Compute<T>::store(x0 * y1 - x1 * y0);
      }
    });
  });
}

}  // namespace
SKIFF_KERNEL("dot", k_dot);
SKIFF_KERNEL("outer", k_outer);
SKIFF_KERNEL("kron", k_kron);
SKIFF_KERNEL("cross", k_cross);
}  // namespace skiff
