// group_norm and instance_norm (instance_norm is group_norm with one channel per group).
// Inputs x [N, C, *] (or [N, *, C] channel-last), optional scale [C] and bias [C].
// attrs [epsilon, groups, channelLast]. Outputs y (x's shape), mean and variance [N, groups]
// (float32 for half inputs), the biased variance as Paddle saves it. Two passes per group in
// the compute type (mean, then centred squares), parallel over (n, group).
// local_response_norm: attrs [size, alpha, beta, k, channelLast]; as Paddle composes it (square,
// zero-pad the channels by size/2 before and (size-1)/2 after, average over `size` channels):
// out = x / (k + alpha * sum(window of x^2) / size) ^ beta.
#include <cmath>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

template <typename T>
void group_impl(const Tensor& x, const Tensor* sc, const Tensor* bi, Tensor& y, Tensor& mo, Tensor& vo, int64_t G, double eps, bool cl) {
  using A = compute_t<T>;
  const int64_t N = x.shape[0], C = cl ? x.shape[x.ndim() - 1] : x.shape[1];
  const int64_t P = N == 0 || C == 0 ? 0 : x.numel() / (N * C), Cg = C / G;
  const T* X = x.data<T>();
  T* Y = y.data<T>();
  std::vector<A> s((size_t)C, A(1)), b((size_t)C, A(0));
  if (sc) for (int64_t i = 0; i < C; i++) s[i] = Compute<T>::load(sc->data<T>()[i * sc->strides[0]]);
  if (bi) for (int64_t i = 0; i < C; i++) b[i] = Compute<T>::load(bi->data<T>()[i * bi->strides[0]]);
  auto at = [&](int64_t n, int64_t ch, int64_t p) { return cl ? (n * P + p) * C + ch : (n * C + ch) * P + p; };
  parallel_for(N * G, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, Cg * P)), [&](int64_t lo, int64_t hi) {
    for (int64_t ng = lo; ng < hi; ng++) {
      const int64_t n = ng / G, g = ng % G;
      const int64_t cnt = Cg * P;
      A sum = 0;
      for (int64_t ch = g * Cg; ch < (g + 1) * Cg; ch++)
        for (int64_t p = 0; p < P; p++) sum += Compute<T>::load(X[at(n, ch, p)]);
      const A mean = cnt ? sum / (A)cnt : A(0);
      A sq = 0;
      for (int64_t ch = g * Cg; ch < (g + 1) * Cg; ch++)
        for (int64_t p = 0; p < P; p++) { const A d = Compute<T>::load(X[at(n, ch, p)]) - mean; sq += d * d; }
      const A var = cnt ? sq / (A)cnt : A(0);
      const A rstd = A(1) / std::sqrt(var + (A)eps);
      for (int64_t ch = g * Cg; ch < (g + 1) * Cg; ch++) {
        const A k = rstd * s[ch], off = b[ch] - mean * k;
        for (int64_t p = 0; p < P; p++) { const int64_t i = at(n, ch, p); Y[i] = Compute<T>::store(Compute<T>::load(X[i]) * k + off); }
      }
      if (mo.dtype == DType::F64) { mo.data<double>()[ng] = (double)mean; vo.data<double>()[ng] = (double)var; }
      else { mo.data<float>()[ng] = (float)mean; vo.data<float>()[ng] = (float)var; }
    }
  });
}

void k_group_norm(KernelCall& c) {
  const char* op = c.op;
  const double eps = c.attr(0);
  const int64_t G0 = c.iattr(1);
  const bool cl = c.iattr(2) != 0;
  const bool has_s = c.iattr(3) != 0, has_b = c.iattr(4) != 0;
  c.expect_inputs(1 + (has_s ? 1 : 0) + (has_b ? 1 : 0));
  c.expect_outputs(3);
  const Tensor& x0 = c.input(0);
  if (x0.ndim() < 2) throw SkiffError(std::string(op) + ": input should have at least 2 dims [N, C, ...], got shape " + shape_str(x0.shape));
  if (!is_floating(x0.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x0.dtype));
  const int64_t C = cl ? x0.shape[x0.ndim() - 1] : x0.shape[1];
  const int64_t G = G0 == 0 ? C : G0;  // 0: one group per channel (instance_norm)
  if (G <= 0 || (C > 0 && C % G)) throw SkiffError(std::string(op) + ": the number of channels " + S(C) + " of input " + shape_str(x0.shape) + " must be divisible by num_groups " + S(G));
  const Tensor* sc = has_s ? &c.input(1) : nullptr;
  const Tensor* bi = has_b ? &c.input(has_s ? 2 : 1) : nullptr;
  for (const Tensor* p : {sc, bi}) {
    if (!p) continue;
    if (p->ndim() != 1 || p->shape[0] != C) throw SkiffError(std::string(op) + ": weight and bias must have shape [" + S(C) + "], got " + shape_str(p->shape));
    if (p->dtype != x0.dtype) throw SkiffError(std::string(op) + ": weight/bias dtype " + dtype_name(p->dtype) + " differs from input dtype " + dtype_name(x0.dtype));
  }
  const DType sdt = x0.dtype == DType::F64 ? DType::F64 : DType::F32;
  c.expect_out_shape(0, x0.shape);
  c.expect_out_dtype(0, x0.dtype);
  c.expect_out_shape(1, {x0.shape[0], G});
  c.expect_out_shape(2, {x0.shape[0], G});
  c.expect_out_dtype(1, sdt);
  c.expect_out_dtype(2, sdt);
  if (c.output(0).numel() == 0 && c.output(1).numel() == 0) return;
  const Tensor& x = c.dense(0);
  dispatch_float(x.dtype, op, [&](auto tag) { group_impl<decltype(tag)>(x, sc, bi, c.output(0), c.output(1), c.output(2), G, eps, cl); });
}

template <typename T>
void lrn_impl(const Tensor& x, Tensor& y, int64_t size, double alpha, double beta, double k, bool cl) {
  using A = compute_t<T>;
  const int64_t N = x.shape[0], C = cl ? x.shape[x.ndim() - 1] : x.shape[1];
  const int64_t P = x.numel() / (N * C);
  const T* X = x.data<T>();
  T* Y = y.data<T>();
  const int64_t before = size / 2, after = (size - 1) / 2;
  const int64_t cs = cl ? 1 : P, ps = cl ? C : 1;  // element strides of channel and position
  parallel_for(N * P, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, C * size)), [&](int64_t lo, int64_t hi) {
    for (int64_t np = lo; np < hi; np++) {
      const int64_t n = np / P, p = np % P;
      const T* xb = X + n * C * P + p * ps;
      T* yb = Y + n * C * P + p * ps;
      for (int64_t c = 0; c < C; c++) {
        A sq = 0;
        for (int64_t j = std::max<int64_t>(0, c - before); j <= std::min(C - 1, c + after); j++) {
          const A v = Compute<T>::load(xb[j * cs]);
          sq += v * v;
        }
        const A div = std::pow((A)k + (A)alpha * sq / (A)size, (A)beta);
        yb[c * cs] = Compute<T>::store(Compute<T>::load(xb[c * cs]) / div);
      }
    }
  });
}

void k_lrn(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(1);
  const int64_t size = c.iattr(0);
  const double alpha = c.attr(1), beta = c.attr(2), k = c.attr(3);
  const bool cl = c.iattr(4) != 0;
  const Tensor& x0 = c.input(0);
  if (x0.ndim() < 3 || x0.ndim() > 5) throw SkiffError(std::string(op) + ": input should be a 3-D, 4-D or 5-D tensor, got shape " + shape_str(x0.shape));
  if (!is_floating(x0.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x0.dtype));
  if (size <= 0) throw SkiffError(std::string(op) + ": size must be positive, got " + S(size));
  c.expect_out_shape(0, x0.shape);
  c.expect_out_dtype(0, x0.dtype);
  if (c.output(0).numel() == 0) return;
  const Tensor& x = c.dense(0);
  dispatch_float(x.dtype, op, [&](auto tag) { lrn_impl<decltype(tag)>(x, c.output(0), size, alpha, beta, k, cl); });
}

}  // namespace
SKIFF_KERNEL("local_response_norm", k_lrn);
SKIFF_KERNEL("group_norm", k_group_norm);
SKIFF_KERNEL("instance_norm", k_group_norm);
}  // namespace skiff
