// fused_bias_residual_layernorm (Paddle's op; src/ops/defs/fused_ops.ts), made by the
// residual + layer_norm fusion (src/passes/fuse_layer_norm.ts):
//   residual_out = x + bias + residual_alpha * residual     (bias [right], residual x's shape)
//   out = layer_norm(residual_out) over dims [begin_norm_axis, rank) * norm_weight + norm_bias
// inputs x, [bias], [residual], [norm_weight], [norm_bias];
// attrs [epsilon, residual_alpha, begin_norm_axis, has_bias, has_residual, has_weight, has_norm_bias];
// outputs out, residual_out (x's dtype), mean, variance ([left], float32 or float64 as layer_norm).
//
// Faster than add + layer_norm: one pass per row writes the sum and accumulates its mean while
// the row is in cache (the add kernel would stream the whole tensor out and layer_norm read it
// back), and one output allocation fewer. The statistics are taken over the sum as stored
// (rounded to x's dtype), in double, so out equals layer_norm(add(x, residual)).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::D;
using nn::S;

template <typename T, typename A>
std::vector<A> load_row_param(const Tensor* t, int64_t n, A fill) {
  std::vector<A> v((size_t)n, fill);
  if (!t) return v;
  auto d = t->is_contiguous() ? std::make_shared<Tensor>(*t) : contiguous(std::make_shared<Tensor>(*t));
  const T* p = d->template data<T>();
  for (int64_t i = 0; i < n; i++) v[i] = (A)Compute<T>::load(p[i]);
  return v;
}

void k_fused_bias_residual_layernorm(KernelCall& c) {
  c.expect_outputs(4);
  if (c.attrs.size() != 7)
    throw SkiffError(std::string(c.op) + ": expected attrs [epsilon, residual_alpha, begin_norm_axis, has_bias, has_residual, has_weight, has_norm_bias], got " + S((int64_t)c.attrs.size()));
  const double eps = c.attr(0), alpha = c.attr(1);
  const int64_t begin = c.iattr(2);
  bool has[4];
  for (int i = 0; i < 4; i++) {
    const int64_t f = c.iattr(3 + i);
    if (f != 0 && f != 1) throw SkiffError(std::string(c.op) + ": presence flags must be 0 or 1");
    has[i] = f == 1;
  }
  c.expect_inputs((size_t)(1 + has[0] + has[1] + has[2] + has[3]));
  size_t next = 1;
  const Tensor* opt[4];
  for (int i = 0; i < 4; i++) opt[i] = has[i] ? &c.input(next++) : nullptr;
  const Tensor *bias = opt[0], *res = opt[1], *w = opt[2], *nb = opt[3];
  Tensor& x = c.input(0);
  const int64_t rank = x.ndim();
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (!std::isfinite(eps) || eps < 0) throw SkiffError(std::string(c.op) + ": epsilon must be finite and >= 0, got " + D(eps));
  if (!std::isfinite(alpha)) throw SkiffError(std::string(c.op) + ": residual_alpha must be finite, got " + D(alpha));
  if (rank == 0 || begin < 0 || begin >= rank) throw SkiffError(std::string(c.op) + ": begin_norm_axis " + S(begin) + " is out of range for x of shape " + shape_str(x.shape));
  int64_t left = 1, right = 1;
  for (int64_t d = 0; d < rank; d++) (d < begin ? left : right) *= x.shape[d];
  const char* names[4] = {"bias", "residual", "norm_weight", "norm_bias"};
  for (int i = 0; i < 4; i++) {
    const Tensor* p = opt[i];
    if (!p) continue;
    if (p->dtype != x.dtype) throw SkiffError(std::string(c.op) + ": " + names[i] + " dtype " + dtype_name(p->dtype) + " differs from x dtype " + dtype_name(x.dtype));
    if (i == 1 ? p->shape != x.shape : p->numel() != right)
      throw SkiffError(std::string(c.op) + ": " + names[i] + " of shape " + shape_str(p->shape) + " does not match x " + shape_str(x.shape) +
                       (i == 1 ? "" : " (normalized size " + S(right) + ")"));
  }
  const DType stat = x.dtype == DType::F64 ? DType::F64 : DType::F32;
  for (int i = 0; i < 2; i++) { c.expect_out_shape(i, x.shape); c.expect_out_dtype(i, x.dtype); }
  for (int i = 2; i < 4; i++) { c.expect_out_shape(i, {left}); c.expect_out_dtype(i, stat); }
  if (x.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const Tensor* rd = res ? &c.dense(1 + has[0]) : nullptr;
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    using St = std::conditional_t<std::is_same_v<A, double>, double, float>;
    const auto bv = load_row_param<T, A>(bias, right, A(0));
    const auto g = load_row_param<T, A>(w, right, A(1));
    const auto b = load_row_param<T, A>(nb, right, A(0));
    const A al = (A)alpha;
    const T* X = xd.data<T>();
    const T* R = rd ? rd->data<T>() : nullptr;
    T* O = c.output(0).data<T>();
    T* RO = c.output(1).data<T>();
    St* M = c.output(2).data<St>();
    St* V = c.output(3).data<St>();
    parallel_for(left, std::max<int64_t>(1, 16384 / right), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) {
        const T* xr = X + r * right;
        T* sr = RO + r * right;
        // The sum, rounded to T as the add kernel would store it (x + bias first, as add(add(x, bias), r)).
        if (R) {
          const T* rr = R + r * right;
          for (int64_t i = 0; i < right; i++) {
            const T xb = bias ? Compute<T>::store(Compute<T>::load(xr[i]) + bv[i]) : xr[i];
            sr[i] = Compute<T>::store(Compute<T>::load(xb) + al * Compute<T>::load(rr[i]));
          }
        } else {
          for (int64_t i = 0; i < right; i++) sr[i] = Compute<T>::store(Compute<T>::load(xr[i]) + bv[i]);
        }
        // Eight partial sums in double: vectorizes, and float32 statistics do not drift.
        double s8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
        const int64_t i8 = right - right % 8;
        for (int64_t i = 0; i < i8; i += 8)
          for (int u = 0; u < 8; u++) s8[u] += (double)Compute<T>::load(sr[i + u]);
        for (int64_t i = i8; i < right; i++) s += (double)Compute<T>::load(sr[i]);
        for (int u = 0; u < 8; u++) s += s8[u];
        const double mean = s / (double)right;
        double q8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, q = 0;
        for (int64_t i = 0; i < i8; i += 8)
          for (int u = 0; u < 8; u++) { const double d = (double)Compute<T>::load(sr[i + u]) - mean; q8[u] += d * d; }
        for (int64_t i = i8; i < right; i++) { const double d = (double)Compute<T>::load(sr[i]) - mean; q += d * d; }
        for (int u = 0; u < 8; u++) q += q8[u];
        const double var = q / (double)right;
        const A m = (A)mean, inv = (A)(1.0 / std::sqrt(var + eps));
        T* orow = O + r * right;
        for (int64_t i = 0; i < right; i++) orow[i] = Compute<T>::store((Compute<T>::load(sr[i]) - m) * inv * g[i] + b[i]);
        M[r] = (St)mean;
        V[r] = (St)var;
      }
    });
  });
}

}  // namespace
SKIFF_KERNEL("fused_bias_residual_layernorm", k_fused_bias_residual_layernorm);
}  // namespace skiff
