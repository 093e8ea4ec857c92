// The loss family beyond cross_entropy (defs: src/ops/defs/nn_loss_more.ts).
//
// Pointwise losses (mse_loss, l1_loss, smooth_l1_loss, kl_div, margin_ranking_loss,
// hinge_embedding_loss, binary_cross_entropy, binary_cross_entropy_with_logits) share one driver:
// every tensor input is broadcast to the output shape, the per-element loss is evaluated in double
// into a scratch buffer by strided_loop (threaded), then either stored ('none') or summed in fixed
// blocks (so 'mean'/'sum' do not depend on the thread count). Attribute layout of these ops:
//   [reduction (0 none, 1 mean, 2 sum, 3 batchmean), p0, p1, flag0, flag1]
// nll_loss and cosine_embedding_loss work per sample (row), threaded over samples.
#include <cmath>
#include <vector>
#include "iter.h"
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::D;
using nn::S;

constexpr int64_t kBlock = 8192;

// Sum of v in fixed blocks, partials added in order: the same bits whatever the pool size.
double block_sum(const std::vector<double>& v) {
  const int64_t n = (int64_t)v.size(), nb = (n + kBlock - 1) / kBlock;
  std::vector<double> part((size_t)nb, 0.0);
  parallel_for(nb, 1, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; k++) {
      double s = 0;
      const int64_t hi = std::min(n, (k + 1) * kBlock);
      for (int64_t i = k * kBlock; i < hi; i++) s += v[(size_t)i];
      part[(size_t)k] = s;
    }
  });
  double s = 0;
  for (double p : part) s += p;
  return s;
}

void check_reduction(const char* op, int64_t red, bool batchmean_ok) {
  if (red < 0 || red > (batchmean_ok ? 3 : 2)) throw SkiffError(std::string(op) + ": invalid reduction code " + S(red));
}

// Validates K float inputs of one dtype that broadcast together, then evaluates f(values) per
// element of the broadcast shape and applies the reduction into output 0.
template <size_t K, typename F>
void pointwise_loss(KernelCall& c, const char* op, const std::array<size_t, K>& which, int64_t red, F f) {
  c.expect_outputs(1);
  const Tensor& x = c.input(which[0]);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating-point input, got " + dtype_name(x.dtype));
  std::vector<int64_t> shape = x.shape;
  for (size_t k = 1; k < K; k++) {
    const Tensor& t = c.input(which[k]);
    if (t.dtype != x.dtype)
      throw SkiffError(std::string(op) + ": all inputs must have dtype " + dtype_name(x.dtype) + ", got " + dtype_name(t.dtype) + " for input " + S((int64_t)which[k]));
    shape = broadcast_shapes(shape, t.shape, op);
  }
  const int64_t batch = x.shape.empty() ? 1 : x.shape[0];
  c.expect_out_shape(0, red == 0 ? shape : std::vector<int64_t>{});
  c.expect_out_dtype(0, x.dtype);
  const int64_t total = checked_numel(shape, op);
  std::vector<double> loss((size_t)total);
  dispatch_float(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    std::array<char*, K + 1> base;
    std::array<std::vector<int64_t>, K + 1> st;
    std::array<int64_t, K + 1> isz;
    base[0] = (char*)loss.data();
    st[0] = contiguous_strides(shape);
    isz[0] = sizeof(double);
    for (size_t k = 0; k < K; k++) {
      const Tensor& t = c.input(which[k]);
      base[k + 1] = (char*)t.raw();
      st[k + 1] = broadcast_strides(t, shape, op);
      isz[k + 1] = sizeof(T);
    }
    strided_loop<K + 1>(shape, base, st, isz, [&](const std::array<char*, K + 1>& p, const std::array<int64_t, K + 1>& s, int64_t n) {
      std::array<double, K> v;
      for (int64_t i = 0; i < n; i++) {
        for (size_t k = 0; k < K; k++) v[k] = (double)Compute<T>::load(*(const T*)(p[k + 1] + i * s[k + 1]));
        *(double*)(p[0] + i * s[0]) = f(v);
      }
    });
    T* O = c.output(0).data<T>();
    if (red == 0) {
      parallel_for(total, 32768, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; i++) O[i] = Compute<T>::store((compute_t<T>)loss[(size_t)i]);
      });
      return;
    }
    const double sum = block_sum(loss);
    // mean over no elements is 0/0 = NaN, as paddle.mean gives
    const double v = red == 2 ? sum : red == 3 ? sum / (double)batch : sum / (double)total;
    O[0] = Compute<T>::store((compute_t<T>)v);
  });
}

void expect_same_shape(KernelCall& c, const char* op, size_t a, size_t b, const char* an, const char* bn) {
  if (c.input(a).shape != c.input(b).shape)
    throw SkiffError(std::string(op) + ": " + an + " shape " + shape_str(c.input(a).shape) + " must equal " + bn + " shape " + shape_str(c.input(b).shape));
}

void k_mse_loss(KernelCall& c) {
  c.expect_inputs(2);
  const int64_t red = c.iattr(0);
  check_reduction("mse_loss", red, false);
  pointwise_loss<2>(c, "mse_loss", {0, 1}, red, [](const std::array<double, 2>& v) { const double d = v[0] - v[1]; return d * d; });
}

void k_l1_loss(KernelCall& c) {
  c.expect_inputs(2);
  const int64_t red = c.iattr(0);
  check_reduction("l1_loss", red, false);
  pointwise_loss<2>(c, "l1_loss", {0, 1}, red, [](const std::array<double, 2>& v) { return std::fabs(v[0] - v[1]); });
}

// Paddle's huber form: 0.5 r^2 inside |r| < delta, delta * (|r| - 0.5 delta) outside.
void k_smooth_l1_loss(KernelCall& c) {
  c.expect_inputs(2);
  const int64_t red = c.iattr(0);
  const double delta = c.attr(1);
  check_reduction("smooth_l1_loss", red, false);
  expect_same_shape(c, "smooth_l1_loss", 0, 1, "input", "label");
  pointwise_loss<2>(c, "smooth_l1_loss", {0, 1}, red, [delta](const std::array<double, 2>& v) {
    const double a = std::fabs(v[0] - v[1]);
    return a < delta ? 0.5 * a * a : delta * (a - 0.5 * delta);
  });
}

// label * (log(label) - input), 0 where label <= 0; with log_target exp(label) * (label - input).
void k_kl_div(KernelCall& c) {
  c.expect_inputs(2);
  const int64_t red = c.iattr(0);
  const bool log_target = c.iattr(1) != 0;
  check_reduction("kl_div", red, true);
  expect_same_shape(c, "kl_div", 0, 1, "input", "label");
  pointwise_loss<2>(c, "kl_div", {0, 1}, red, [log_target](const std::array<double, 2>& v) {
    if (log_target) return std::exp(v[1]) * (v[1] - v[0]);
    return v[1] > 0 ? v[1] * (std::log(v[1]) - v[0]) : 0.0;
  });
}

void k_margin_ranking_loss(KernelCall& c) {
  c.expect_inputs(3);
  const int64_t red = c.iattr(0);
  const double margin = c.attr(1);
  check_reduction("margin_ranking_loss", red, false);
  pointwise_loss<3>(c, "margin_ranking_loss", {0, 1, 2}, red, [margin](const std::array<double, 3>& v) {
    const double z = -v[2] * (v[0] - v[1]) + margin;
    return z > 0 ? z : 0.0;
  });
}

// input where label == 1, max(0, margin - input) where label == -1, 0 for any other label.
void k_hinge_embedding_loss(KernelCall& c) {
  c.expect_inputs(2);
  const int64_t red = c.iattr(0);
  const double margin = c.attr(1);
  check_reduction("hinge_embedding_loss", red, false);
  pointwise_loss<2>(c, "hinge_embedding_loss", {0, 1}, red, [margin](const std::array<double, 2>& v) {
    if (v[1] == 1.0) return v[0];
    if (v[1] == -1.0) return v[0] < margin ? margin - v[0] : 0.0;
    return 0.0;
  });
}

// Paddle clips each log at -100 so a saturated probability gives a finite loss.
inline double clog(double p) { return std::max(std::log(p), -100.0); }

void k_binary_cross_entropy(KernelCall& c) {
  const int64_t red = c.iattr(0);
  const bool has_w = c.iattr(3) != 0;
  c.expect_inputs(has_w ? 3 : 2);
  check_reduction("binary_cross_entropy", red, false);
  expect_same_shape(c, "binary_cross_entropy", 0, 1, "input", "label");
  {
    const Tensor& x = c.input(0);
    if (!is_floating(x.dtype)) throw SkiffError(std::string("binary_cross_entropy: expected a floating-point input, got ") + dtype_name(x.dtype));
    const Tensor& xd = c.dense(0);
    dispatch_float(x.dtype, "binary_cross_entropy", [&](auto tag) {
      using T = decltype(tag);
      const T* p = xd.data<T>();
      for (int64_t i = 0, n = xd.numel(); i < n; i++) {
        const double v = (double)Compute<T>::load(p[i]);
        if (!(v >= 0 && v <= 1))
          throw SkiffError("binary_cross_entropy: input is expected to be within the interval [0, 1], but received " + D(v) + " at flat index " + S(i));
      }
    });
  }
  auto f = [](double x, double y) { return -(y * clog(x) + (1 - y) * clog(1 - x)); };
  if (has_w) pointwise_loss<3>(c, "binary_cross_entropy", {0, 1, 2}, red, [f](const std::array<double, 3>& v) { return f(v[0], v[1]) * v[2]; });
  else pointwise_loss<2>(c, "binary_cross_entropy", {0, 1}, red, [f](const std::array<double, 2>& v) { return f(v[0], v[1]); });
}

// Stable form: (1 - y) x + lw * (log1p(exp(-|x|)) + max(-x, 0)), lw = 1 + (pos_weight - 1) y.
inline double softplus_neg(double x) { return std::log1p(std::exp(-std::fabs(x))) + std::max(-x, 0.0); }

void k_binary_cross_entropy_with_logits(KernelCall& c) {
  const char* op = "binary_cross_entropy_with_logits";
  const int64_t red = c.iattr(0);
  const bool has_w = c.iattr(3) != 0, has_pw = c.iattr(4) != 0;
  c.expect_inputs(2 + (has_w ? 1 : 0) + (has_pw ? 1 : 0));
  check_reduction(op, red, false);
  expect_same_shape(c, op, 0, 1, "logit", "label");
  const size_t iw = 2, ipw = has_w ? 3 : 2;
  auto f = [](double x, double y, double pw) { return (1 - y) * x + (1 + (pw - 1) * y) * softplus_neg(x); };
  if (has_w && has_pw)
    pointwise_loss<4>(c, op, {0, 1, iw, ipw}, red, [f](const std::array<double, 4>& v) { return f(v[0], v[1], v[3]) * v[2]; });
  else if (has_w)
    pointwise_loss<3>(c, op, {0, 1, iw}, red, [f](const std::array<double, 3>& v) { return f(v[0], v[1], 1.0) * v[2]; });
  else if (has_pw)
    pointwise_loss<3>(c, op, {0, 1, ipw}, red, [f](const std::array<double, 3>& v) { return f(v[0], v[1], v[2]); });
  else
    pointwise_loss<2>(c, op, {0, 1}, red, [f](const std::array<double, 2>& v) { return f(v[0], v[1], 1.0); });
}

// nll_loss: input [N, C, d...], label [N, d...] (int32/int64), optional weight [C].
// attrs [ignore_index, reduction (0 none, 1 mean, 2 sum), hasWeight]. 'mean' divides by the sum of
// the weights of the non-ignored labels (0 stays 0, as Paddle's kernel leaves it).
void k_nll_loss(KernelCall& c) {
  c.expect_outputs(1);
  const int64_t ii = c.iattr(0), red = c.iattr(1);
  const bool has_w = c.iattr(2) != 0;
  c.expect_inputs(has_w ? 3 : 2);
  check_reduction("nll_loss", red, false);
  const Tensor &x = c.input(0), &lab = c.input(1);
  if (x.ndim() < 2) throw SkiffError("nll_loss: input should have at least 2 dims [N, C, ...], got " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("nll_loss: expected a floating-point input, got ") + dtype_name(x.dtype));
  if (lab.dtype != DType::I32 && lab.dtype != DType::I64) throw SkiffError(std::string("nll_loss: label must be int32 or int64, got ") + dtype_name(lab.dtype));
  std::vector<int64_t> want = x.shape;
  want.erase(want.begin() + 1);
  if (lab.shape != want) throw SkiffError("nll_loss: label shape " + shape_str(lab.shape) + " does not match input " + shape_str(x.shape) + "; expected " + shape_str(want));
  const int64_t N = x.shape[0], C = x.shape[1], inner = x.numel() / std::max<int64_t>(1, N * C);
  if (has_w) {
    const Tensor& w = c.input(2);
    if (w.ndim() != 1 || w.shape[0] != C) throw SkiffError("nll_loss: weight must have shape [" + S(C) + "] (the classes of input " + shape_str(x.shape) + "), got " + shape_str(w.shape));
    if (w.dtype != x.dtype) throw SkiffError(std::string("nll_loss: weight dtype ") + dtype_name(w.dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  c.expect_out_shape(0, red == 0 ? lab.shape : std::vector<int64_t>{});
  c.expect_out_dtype(0, x.dtype);
  const int64_t ns = N * inner;
  const Tensor& ld = c.dense(1);
  std::vector<int64_t> y((size_t)ns);
  for (int64_t i = 0; i < ns; i++) {
    const int64_t v = ld.dtype == DType::I32 ? (int64_t)ld.data<int32_t>()[i] : ld.data<int64_t>()[i];
    if (v != ii && (v < 0 || v >= C))
      throw SkiffError("nll_loss: label " + S(v) + " (at flat index " + S(i) + ") is out of range [0, " + S(C) + "); labels must be class indices or ignore_index (" + S(ii) + ")");
    y[(size_t)i] = v;
  }
  const Tensor& xd = c.dense(0);
  dispatch_float(x.dtype, "nll_loss", [&](auto tag) {
    using T = decltype(tag);
    const T* X = xd.data<T>();
    std::vector<double> wv((size_t)C, 1.0);
    if (has_w) {
      const Tensor& wd = c.dense(2);
      for (int64_t k = 0; k < C; k++) wv[(size_t)k] = (double)Compute<T>::load(wd.data<T>()[k]);
    }
    std::vector<double> loss((size_t)ns), w((size_t)ns);
    parallel_for(ns, 16384, [&](int64_t b, int64_t e) {
      for (int64_t s = b; s < e; s++) {
        const int64_t v = y[(size_t)s], n = s / inner, i = s % inner;
        if (v == ii) { loss[(size_t)s] = 0; w[(size_t)s] = 0; continue; }
        w[(size_t)s] = wv[(size_t)v];
        loss[(size_t)s] = -w[(size_t)s] * (double)Compute<T>::load(X[(n * C + v) * inner + i]);
      }
    });
    T* O = c.output(0).data<T>();
    if (red == 0) {
      for (int64_t s = 0; s < ns; s++) O[s] = Compute<T>::store((compute_t<T>)loss[(size_t)s]);
      return;
    }
    double total = block_sum(loss);
    if (red == 1) {
      const double tw = block_sum(w);
      if (tw != 0) total /= tw;
    }
    O[0] = Compute<T>::store((compute_t<T>)total);
  });
}

// cosine_embedding_loss: input1, input2 [N, M] or [M], label [N] (int or float); attrs
// [reduction, margin]. cos uses |a|^2 + 1e-11 and |b|^2 + 1e-11 as Paddle's composition does;
// label 1 gives 1 - cos, label -1 max(0, cos - margin), any other label 0.
void k_cosine_embedding_loss(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  const int64_t red = c.iattr(0);
  const double margin = c.attr(1);
  check_reduction("cosine_embedding_loss", red, false);
  const Tensor &a = c.input(0), &b = c.input(1), &lab = c.input(2);
  if (a.shape != b.shape) throw SkiffError("cosine_embedding_loss: the shape of input1 " + shape_str(a.shape) + " should be equal to input2 " + shape_str(b.shape));
  if (a.ndim() < 1 || a.ndim() > 2) throw SkiffError("cosine_embedding_loss: inputs must be 1-D or 2-D, got " + shape_str(a.shape));
  if (!is_floating(a.dtype) || a.dtype != b.dtype) throw SkiffError(std::string("cosine_embedding_loss: inputs must be float tensors of one dtype, got ") + dtype_name(a.dtype) + " and " + dtype_name(b.dtype));
  const int64_t N = a.ndim() == 2 ? a.shape[0] : 1, M = a.shape.back();
  if (lab.ndim() != 1 || lab.shape[0] != N) throw SkiffError("cosine_embedding_loss: label must have shape [" + S(N) + "], got " + shape_str(lab.shape));
  c.expect_out_shape(0, red == 0 ? std::vector<int64_t>{N} : std::vector<int64_t>{});
  c.expect_out_dtype(0, a.dtype);
  const Tensor &ad = c.dense(0), &bd = c.dense(1), &ld = c.dense(2);
  std::vector<double> L((size_t)N);
  for (int64_t n = 0; n < N; n++) {
    switch (ld.dtype) {
      case DType::I32: L[(size_t)n] = ld.data<int32_t>()[n]; break;
      case DType::I64: L[(size_t)n] = (double)ld.data<int64_t>()[n]; break;
      case DType::F32: L[(size_t)n] = ld.data<float>()[n]; break;
      case DType::F64: L[(size_t)n] = ld.data<double>()[n]; break;
      default: throw SkiffError(std::string("cosine_embedding_loss: label must be int32, int64, float32 or float64, got ") + dtype_name(ld.dtype));
    }
  }
  dispatch_float(a.dtype, "cosine_embedding_loss", [&](auto tag) {
    using T = decltype(tag);
    const T *A = ad.data<T>(), *B = bd.data<T>();
    std::vector<double> loss((size_t)N);
    parallel_for(N, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, M)), [&](int64_t s, int64_t e) {
      for (int64_t n = s; n < e; n++) {
        double p = 0, ma = 1e-11, mb = 1e-11;
        for (int64_t k = 0; k < M; k++) {
          const double u = (double)Compute<T>::load(A[n * M + k]), v = (double)Compute<T>::load(B[n * M + k]);
          p += u * v; ma += u * u; mb += v * v;
        }
        const double cs = p / std::sqrt(ma * mb), l = L[(size_t)n];
        loss[(size_t)n] = l == 1.0 ? 1 - cs : l == -1.0 ? std::max(cs - margin, 0.0) : 0.0;
      }
    });
    T* O = c.output(0).data<T>();
    if (red == 0) { for (int64_t n = 0; n < N; n++) O[n] = Compute<T>::store((compute_t<T>)loss[(size_t)n]); return; }
    const double s = block_sum(loss);
    O[0] = Compute<T>::store((compute_t<T>)(red == 2 ? s : s / (double)N));
  });
}

}  // namespace
SKIFF_KERNEL("mse_loss", k_mse_loss);
SKIFF_KERNEL("l1_loss", k_l1_loss);
SKIFF_KERNEL("smooth_l1_loss", k_smooth_l1_loss);
SKIFF_KERNEL("kl_div", k_kl_div);
SKIFF_KERNEL("margin_ranking_loss", k_margin_ranking_loss);
SKIFF_KERNEL("hinge_embedding_loss", k_hinge_embedding_loss);
SKIFF_KERNEL("binary_cross_entropy", k_binary_cross_entropy);
SKIFF_KERNEL("binary_cross_entropy_with_logits", k_binary_cross_entropy_with_logits);
SKIFF_KERNEL("nll_loss", k_nll_loss);
SKIFF_KERNEL("cosine_embedding_loss", k_cosine_embedding_loss);
}  // namespace skiff
