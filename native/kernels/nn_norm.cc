// softmax / log_softmax (attrs [axis]; the output dtype may differ from the input's: F.softmax's
// dtype argument), layer_norm (attrs [epsilon, begin_norm_axis, hasScale, hasBias]) and
// batch_norm (attrs [momentum, epsilon, channelAxis, useGlobalStats, hasWeight, hasBias]).
// Inputs may be strided (read through dense copies); outputs are contiguous.
// Sums run in double so float32 statistics do not drift on long rows.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>
#include "kernel.h"
#include "nn_common.h"
#include "vmath.h"

namespace skiff {
namespace {

using nn::S;

// x viewed as [outer, n, inner] around `axis`.
struct Axis3 { int64_t outer = 1, n = 1, inner = 1; };
Axis3 split_axis(const std::vector<int64_t>& shape, int64_t axis) {
  Axis3 r;
  for (int64_t d = 0; d < (int64_t)shape.size(); d++) {
    if (d < axis) r.outer *= shape[d];
    else if (d == axis) r.n = shape[d];
    else r.inner *= shape[d];
  }
  return r;
}

template <typename TI, typename TO, bool Log>
void softmax_impl(const Axis3& s, const TI* x, TO* o) {
  using A = std::conditional_t<std::is_same_v<compute_t<TI>, double> || std::is_same_v<compute_t<TO>, double>, double, float>;
  constexpr int64_t IB = 64;  // inner columns handled together (strided softmax along a middle axis)
  const int64_t iblocks = (s.inner + IB - 1) / IB;
  const int64_t tasks = s.outer * iblocks;
  const int64_t work = std::max<int64_t>(1, s.n * std::min(s.inner, IB));
  parallel_for(tasks, std::max<int64_t>(1, 16384 / work), [&](int64_t b, int64_t e) {
    A mx[IB], sum[IB];
    for (int64_t t = b; t < e; t++) {
      const int64_t o0 = t / iblocks, i0 = (t % iblocks) * IB, ib = std::min(IB, s.inner - i0);
      const TI* xb = x + o0 * s.n * s.inner + i0;
      TO* ob = o + o0 * s.n * s.inner + i0;
      for (int64_t i = 0; i < ib; i++) { mx[i] = -std::numeric_limits<A>::infinity(); sum[i] = 0; }
      for (int64_t k = 0; k < s.n; k++)
        for (int64_t i = 0; i < ib; i++) {
          const A v = (A)Compute<TI>::load(xb[k * s.inner + i]);
          mx[i] = v > mx[i] || v != v ? v : mx[i];  // NaN wins so it reaches every output
        }
      for (int64_t k = 0; k < s.n; k++)
        for (int64_t i = 0; i < ib; i++) sum[i] += std::exp((A)Compute<TI>::load(xb[k * s.inner + i]) - mx[i]);
      for (int64_t i = 0; i < ib; i++) sum[i] = Log ? std::log(sum[i]) : A(1) / sum[i];
      for (int64_t k = 0; k < s.n; k++)
        for (int64_t i = 0; i < ib; i++) {
          const A d = (A)Compute<TI>::load(xb[k * s.inner + i]) - mx[i];
          ob[k * s.inner + i] = Compute<TO>::store((compute_t<TO>)(Log ? d - sum[i] : std::exp(d) * sum[i]));
        }
    }
  });
}

// Softmax along the last axis (inner == 1, the common case): each row is contiguous, so every
// pass is a straight loop the compiler vectorizes, using vmath.h's vectorizable float exp; the
// sum is a separate loop (a reduction would stop the exp loop from vectorizing without fast-math).
template <typename TI, typename TO, bool Log>
void softmax_rows(const Axis3& s, const TI* x, TO* o) {
  using A = std::conditional_t<std::is_same_v<compute_t<TI>, double> || std::is_same_v<compute_t<TO>, double>, double, float>;
  const int64_t n = s.n;
  parallel_for(s.outer, std::max<int64_t>(1, 16384 / n), [&](int64_t b, int64_t e) {
    std::vector<A> buf((size_t)n);
    A* d = buf.data();
    for (int64_t r = b; r < e; r++) {
      const TI* xr = x + r * n;
      TO* orow = o + r * n;
      A mx = -std::numeric_limits<A>::infinity();
      bool nan = false;
      for (int64_t i = 0; i < n; i++) { const A v = (A)Compute<TI>::load(xr[i]); d[i] = v; mx = v > mx ? v : mx; nan |= v != v; }
      if (nan) mx = std::numeric_limits<A>::quiet_NaN();   // NaN reaches every output, as the general path
      for (int64_t i = 0; i < n; i++) d[i] -= mx;
      A sum = 0;
      if (Log) {
        for (int64_t i = 0; i < n; i++) sum += vm::exp_(d[i]);
        const A ls = std::log(sum);
        for (int64_t i = 0; i < n; i++) orow[i] = Compute<TO>::store((compute_t<TO>)(d[i] - ls));
      } else {
        for (int64_t i = 0; i < n; i++) d[i] = vm::exp_(d[i]);
        for (int64_t i = 0; i < n; i++) sum += d[i];
        const A inv = A(1) / sum;
        for (int64_t i = 0; i < n; i++) orow[i] = Compute<TO>::store((compute_t<TO>)(d[i] * inv));
      }
    }
  });
}

template <bool Log>
void k_softmax_like(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  const int64_t rank = x.ndim(), axis = c.iattr(0);
  if (axis < 0 || axis >= std::max<int64_t>(rank, 1)) throw SkiffError(std::string(c.op) + ": axis " + S(axis) + " is out of range for a tensor of rank " + S(rank));
  if (!is_floating(x.dtype) || !is_floating(o.dtype)) throw SkiffError(std::string(c.op) + ": expected floating dtypes, got " + dtype_name(x.dtype) + " -> " + dtype_name(o.dtype));
  c.expect_out_shape(0, x.shape);
  if (x.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const Axis3 s = split_axis(x.shape, rank == 0 ? 0 : axis);
  dispatch_float(x.dtype, c.op, [&](auto ti) {
    dispatch_float(o.dtype, c.op, [&](auto to) {
      if (s.inner == 1) softmax_rows<decltype(ti), decltype(to), Log>(s, xd.data<decltype(ti)>(), o.data<decltype(to)>());
      else softmax_impl<decltype(ti), decltype(to), Log>(s, xd.data<decltype(ti)>(), o.data<decltype(to)>());
    });
  });
}

// Reads a 1-D parameter (any stride) in compute type; absent -> fill.
template <typename T, typename A>
std::vector<A> load_param(const Tensor* t, int64_t n, A fill) {
  std::vector<A> v((size_t)n, fill);
  if (!t) return v;
  const T* p = t->data<T>();
  if (t->is_contiguous()) for (int64_t i = 0; i < n; i++) v[i] = (A)Compute<T>::load(p[i]);
  else {  // any rank with numel n: walk it densely through a contiguous copy
    auto d = contiguous(std::make_shared<Tensor>(*t));
    const T* q = d->data<T>();
    for (int64_t i = 0; i < n; i++) v[i] = (A)Compute<T>::load(q[i]);
  }
  return v;
}

void k_layer_norm(KernelCall& c) {
  c.expect_outputs(3);
  const double eps = c.attr(0);
  const int64_t begin = c.iattr(1);
  const bool has_s = c.iattr(2) != 0, has_b = c.iattr(3) != 0;
  c.expect_inputs(1 + has_s + has_b);
  Tensor& x = c.input(0);
  const Tensor* sc = has_s ? &c.input(1) : nullptr;
  const Tensor* bi = has_b ? &c.input(1 + has_s) : nullptr;
  const int64_t rank = x.ndim();
  if (!is_floating(x.dtype)) throw SkiffError(std::string("layer_norm: expected a floating dtype, got ") + dtype_name(x.dtype));
  if (rank == 0 || begin < 0 || begin >= rank) throw SkiffError("layer_norm: begin_norm_axis " + S(begin) + " is out of range for input of shape " + shape_str(x.shape));
  int64_t left = 1, right = 1;
  for (int64_t d = 0; d < rank; d++) (d < begin ? left : right) *= x.shape[d];
  for (const Tensor* p : {sc, bi}) {
    if (!p) continue;
    if (p->numel() != right) throw SkiffError("layer_norm: " + std::string(p == sc ? "weight" : "bias") + " of shape " + shape_str(p->shape) + " does not match the normalized size " + S(right) + " of input " + shape_str(x.shape));
    if (p->dtype != x.dtype) throw SkiffError("layer_norm: parameter dtype " + std::string(dtype_name(p->dtype)) + " differs from input dtype " + dtype_name(x.dtype));
  }
  const DType stat = x.dtype == DType::F64 ? DType::F64 : DType::F32;
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  for (int i = 1; i < 3; i++) { c.expect_out_shape(i, {left}); c.expect_out_dtype(i, stat); }
  if (x.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    using St = std::conditional_t<std::is_same_v<A, double>, double, float>;
    const auto g = load_param<T, A>(sc, right, A(1));
    const auto b = load_param<T, A>(bi, right, A(0));
    const T* X = xd.data<T>();
    T* O = c.output(0).data<T>();
    St* M = c.output(1).data<St>();
    St* V = c.output(2).data<St>();
    parallel_for(left, std::max<int64_t>(1, 16384 / right), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) {
        const T* xr = X + r * right;
        // Eight partial sums per reduction: a single running sum is one dependent add per
        // element (latency-bound, never vectorized without fast-math); eight vectorize.
        double s8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
        int64_t i8 = 0;
        for (; i8 + 8 <= right; i8 += 8)
          for (int u = 0; u < 8; u++) s8[u] += (double)Compute<T>::load(xr[i8 + u]);
        for (int64_t i = i8; i < right; i++) s += (double)Compute<T>::load(xr[i]);
        for (int u = 0; u < 8; u++) s += s8[u];
        const double mean = s / (double)right;
        double q8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, q = 0;
        for (int64_t i = 0; i < i8; i += 8)
          for (int u = 0; u < 8; u++) { const double d = (double)Compute<T>::load(xr[i + u]) - mean; q8[u] += d * d; }
        for (int64_t i = i8; i < right; i++) { const double d = (double)Compute<T>::load(xr[i]) - mean; q += d * d; }
        for (int u = 0; u < 8; u++) q += q8[u];
        const double var = q / (double)right;
        const A m = (A)mean, inv = (A)(1.0 / std::sqrt(var + eps));
        T* orow = O + r * right;
        for (int64_t i = 0; i < right; i++) orow[i] = Compute<T>::store((Compute<T>::load(xr[i]) - m) * inv * g[i] + b[i]);
        M[r] = (St)mean;
        V[r] = (St)var;
      }
    });
  });
}

void k_batch_norm(KernelCall& c) {
  c.expect_outputs(3);
  const double momentum = c.attr(0), eps = c.attr(1);
  const int64_t cax = c.iattr(2);
  const bool global = c.iattr(3) != 0, has_w = c.iattr(4) != 0, has_b = c.iattr(5) != 0;
  c.expect_inputs(3 + has_w + has_b);
  Tensor &x = c.input(0), &rm = c.input(1), &rv = c.input(2);
  const Tensor* wt = has_w ? &c.input(3) : nullptr;
  const Tensor* bs = has_b ? &c.input(3 + has_w) : nullptr;
  const int64_t rank = x.ndim();
  if (rank < 2 || rank > 5) throw SkiffError("batch_norm: input must have rank 2 to 5, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("batch_norm: expected a floating dtype, got ") + dtype_name(x.dtype));
  if (cax != 1 && cax != rank - 1) throw SkiffError("batch_norm: invalid channel axis " + S(cax));
  const int64_t C = x.shape[cax];
  const char* names[] = {"running_mean", "running_var", "weight", "bias"};
  const Tensor* params[] = {&rm, &rv, wt, bs};
  for (int i = 0; i < 4; i++) {
    const Tensor* p = params[i];
    if (!p) continue;
    if (p->ndim() != 1 || p->shape[0] != C) throw SkiffError(std::string("batch_norm: ") + names[i] + " must have shape [" + S(C) + "] (the channels of x " + shape_str(x.shape) + "), got " + shape_str(p->shape));
    if (p->dtype != x.dtype) throw SkiffError(std::string("batch_norm: ") + names[i] + " dtype " + dtype_name(p->dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  for (int i = 1; i < 3; i++) { c.expect_out_shape(i, {C}); c.expect_out_dtype(i, x.dtype); }
  const Axis3 s = split_axis(x.shape, cax);  // [outer, C, inner]
  const int64_t count = s.outer * s.inner;
  if (!global && count == 0) throw SkiffError("batch_norm: cannot compute batch statistics of an empty input " + shape_str(x.shape));
  const Tensor& xd = c.dense(0);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const auto mean0 = load_param<T, double>(&rm, C, 0.0), var0 = load_param<T, double>(&rv, C, 0.0);
    const auto g = load_param<T, A>(wt, C, A(1)), b = load_param<T, A>(bs, C, A(0));
    const T* X = xd.data<T>();
    std::vector<double> mean(mean0), var(var0);
    if (!global) {  // batch statistics: mean and biased variance over every axis but the channel
      parallel_for(C, 1, [&](int64_t c0, int64_t c1) {
        for (int64_t ch = c0; ch < c1; ch++) {
          double sm = 0, q = 0;
          for (int64_t o = 0; o < s.outer; o++)
            for (int64_t i = 0; i < s.inner; i++) sm += (double)Compute<T>::load(X[(o * C + ch) * s.inner + i]);
          const double mu = sm / (double)count;
          for (int64_t o = 0; o < s.outer; o++)
            for (int64_t i = 0; i < s.inner; i++) { const double d = (double)Compute<T>::load(X[(o * C + ch) * s.inner + i]) - mu; q += d * d; }
          mean[ch] = mu;
          var[ch] = q / (double)count;
        }
      });
    }
    T* MO = c.output(1).data<T>();
    T* VO = c.output(2).data<T>();
    for (int64_t ch = 0; ch < C; ch++) {
      MO[ch] = Compute<T>::store((A)(global ? mean0[ch] : mean0[ch] * momentum + mean[ch] * (1 - momentum)));
      VO[ch] = Compute<T>::store((A)(global ? var0[ch] : var0[ch] * momentum + var[ch] * (1 - momentum)));
    }
    // y = x * (g / sqrt(var + eps)) + (b - mean * g / sqrt(var + eps)), per channel
    std::vector<A> mul((size_t)C), add((size_t)C);
    for (int64_t ch = 0; ch < C; ch++) {
      const double k = (double)g[ch] / std::sqrt(var[ch] + eps);
      mul[ch] = (A)k;
      add[ch] = (A)((double)b[ch] - mean[ch] * k);
    }
    T* O = c.output(0).data<T>();
    parallel_for(s.outer * C, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, s.inner)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) {
        const int64_t ch = r % C;
        const T* xr = X + r * s.inner;
        T* orow = O + r * s.inner;
        for (int64_t i = 0; i < s.inner; i++) orow[i] = Compute<T>::store(Compute<T>::load(xr[i]) * mul[ch] + add[ch]);
      }
    });
  });
}

}  // namespace
SKIFF_KERNEL("softmax", k_softmax_like<false>);
SKIFF_KERNEL("log_softmax", k_softmax_like<true>);
SKIFF_KERNEL("layer_norm", k_layer_norm);
SKIFF_KERNEL("batch_norm", k_batch_norm);
}  // namespace skiff
