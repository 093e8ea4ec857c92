// More random ops on the Philox generator (native/src/generator.h); defs in
// src/ops/defs/random_more.ts. Attribute layouts:
//   bernoulli(x):                         []            x holds probabilities in [0, 1]
//   bernoulli_inplace(x):                 [p]           fills x's shape with Bernoulli(p), x's dtype
//   exponential(x):                       [lam]         fills x's shape with Exp(lam) (paddle.exponential_)
//   uniform_inplace(x):                   [min, max, seed]
//   gaussian_inplace(x):                  [mean, std, seed]
//   poisson(x):                           []            x holds rates >= 0
//   standard_gamma(x):                    []            x holds shapes (alpha) > 0
//   multinomial(x):                       [num_samples, replacement]  x is [C] or [R, C]
//   randperm():                           [n]
//   truncated_gaussian_random():          [mean, std, seed, a, b]   a, b absolute cutoffs
// Fixed-count draws read Philox block (start + e / lanes) as random.cc does. Samplers that use
// a variable number of uniforms per element (rejection, Poisson, gamma) give element e its own
// stream: block (start + e) under key seed ^ mix(attempt), so results never depend on the
// thread count and each element reserves exactly one block of the global offset.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>
#include "generator.h"
#include "iter.h"
#include "kernel.h"
#include "nn_common.h"
#include "random_common.h"

namespace skiff {
namespace {

using nn::D;
using nn::S;
using rng::for_blocks;
using rng::lanes_for;
using rng::seed_attr;

// Per-element stream for samplers with a data-dependent number of draws.
struct ElemStream {
  uint64_t key, ctr;
  uint64_t attempt = 0;
  uint32_t buf[4];
  int pos = 4;
  ElemStream(const GeneratorState& s, int64_t e) : key(s.seed), ctr(s.offset + (uint64_t)e) {}
  uint32_t next32() {
    if (pos == 4) {
      // A golden-ratio multiple keeps the keys of successive refills far apart.
      Philox4x32::block(key ^ (attempt * 0x9E3779B97F4A7C15ull), ctr, buf);
      attempt++;
      pos = 0;
    }
    return buf[pos++];
  }
  double u01() { const uint32_t lo = next32(); return u01_d(lo, next32()); }   // [0, 1)
  double u01_open() { return 1.0 - u01(); }                                    // (0, 1]
  double normal() {  // Box-Muller, one value per call (the partner is dropped: simpler, same law)
    const double u1 = u01_open(), u2 = u01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

// One uniform in [0, 1) per lane: 4 lanes of 24 bits for float-like outputs, 2 of 53 for float64.
template <typename A>
inline A lane_u01(const uint32_t* r, int64_t l) {
  if constexpr (std::is_same_v<A, double>) return u01_d(r[2 * l], r[2 * l + 1]);
  else return u01_f(r[l]);
}

// Validates input 0 (float, same shape/dtype as the output).
void check_float_like(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor& x = c.input(0);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating-point input, got " + dtype_name(x.dtype));
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  if (!c.output(0).is_contiguous()) throw SkiffError(std::string(c.op) + ": output must be contiguous");
}
// The same, for ops that read x's values: x dense.
const Tensor& float_like_output(KernelCall& c) {
  check_float_like(c);
  return c.dense(0);
}

// Every value of x must satisfy ok(v); otherwise "<op>: <what>, got <v> at index <i>".
template <typename Ok>
void check_values(KernelCall& c, const Tensor& x, const char* what, Ok ok) {
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<T>();
    const int64_t n = x.numel();
    for (int64_t i = 0; i < n; i++) {
      const double v = (double)Compute<T>::load(p[i]);
      if (!ok(v)) throw SkiffError(std::string(c.op) + ": " + what + ", got " + D(v) + " (element " + S(i) + " of x)");
    }
  });
}

// Fills the output (x's shape) with f(u) of one uniform per element.
template <typename F>
void fill_uniform_map(KernelCall& c, uint64_t seed, F f) {
  Tensor& o = c.output(0);
  const int64_t n = o.numel();
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    T* p = o.data<T>();
    const int lanes = lanes_for(o.dtype);
    const GeneratorState s = draw_stream(seed, (uint64_t)((n + lanes - 1) / lanes));
    for_blocks(n, lanes, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      for (int64_t l = 0; l < cnt; l++) p[e + l] = Compute<T>::store((A)f((double)lane_u01<A>(r, l)));
    });
  });
}

void k_bernoulli(KernelCall& c) {
  const Tensor& x = float_like_output(c);
  check_values(c, x, "every probability must be in [0, 1]", [](double v) { return v >= 0 && v <= 1; });
  Tensor& o = c.output(0);
  const int64_t n = o.numel();
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const T* px = x.data<T>();
    T* p = o.data<T>();
    const int lanes = lanes_for(o.dtype);
    const GeneratorState s = draw_stream(0, (uint64_t)((n + lanes - 1) / lanes));
    for_blocks(n, lanes, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      for (int64_t l = 0; l < cnt; l++) p[e + l] = Compute<T>::store(lane_u01<A>(r, l) < Compute<T>::load(px[e + l]) ? (A)1 : (A)0);
    });
  });
}

void k_bernoulli_inplace(KernelCall& c) {
  check_float_like(c);
  const double pr = c.attr(0);
  if (!(pr >= 0 && pr <= 1)) throw SkiffError(std::string(c.op) + ": p must be in [0, 1], got " + D(pr));
  fill_uniform_map(c, 0, [pr](double u) { return u < pr ? 1.0 : 0.0; });
}

void k_exponential(KernelCall& c) {
  check_float_like(c);
  const double lam = c.attr(0);
  if (!(lam > 0) || !std::isfinite(lam)) throw SkiffError(std::string(c.op) + ": lam must be a positive finite number, got " + D(lam));
  // Inverse CDF on (0, 1]: -log(1 - u) / lam is finite for u in [0, 1).
  fill_uniform_map(c, 0, [lam](double u) { return -std::log1p(-u) / lam; });
}

void k_uniform_inplace(KernelCall& c) {
  check_float_like(c);
  const double lo = c.attr(0), hi = c.attr(1);
  const uint64_t seed = seed_attr(c, 2);
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi)) throw SkiffError(std::string(c.op) + ": min must be less than max (both finite), got min=" + D(lo) + " max=" + D(hi));
  fill_uniform_map(c, seed, [lo, hi](double u) { return lo + (hi - lo) * u; });
}

void k_gaussian_inplace(KernelCall& c) {
  check_float_like(c);
  const double mean = c.attr(0), sd = c.attr(1);
  const uint64_t seed = seed_attr(c, 2);
  if (!(sd >= 0) || !std::isfinite(sd) || !std::isfinite(mean)) throw SkiffError(std::string(c.op) + ": std must be a finite number >= 0 and mean finite, got mean=" + D(mean) + " std=" + D(sd));
  Tensor& o = c.output(0);
  const int64_t n = o.numel();
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    T* p = o.data<T>();
    // Two 53-bit uniforms per pair of outputs: one block gives two normals.
    const GeneratorState s = draw_stream(seed, (uint64_t)((n + 1) / 2));
    for_blocks(n, 2, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      const double u1 = 1.0 - u01_d(r[0], r[1]), u2 = u01_d(r[2], r[3]);
      const double rad = std::sqrt(-2.0 * std::log(u1)), th = 6.283185307179586 * u2;
      const double z[2] = {rad * std::cos(th), rad * std::sin(th)};
      for (int64_t l = 0; l < cnt; l++) p[e + l] = Compute<T>::store((compute_t<T>)(mean + sd * z[l]));
    });
  });
}

// Poisson(lam): multiplication of uniforms below 10, Hormann's transformed rejection (PTRS) above.
double poisson_one(ElemStream& st, double lam) {
  if (lam == 0) return 0;
  if (lam < 10) {
    const double lim = std::exp(-lam);
    double prod = st.u01_open();
    double k = 0;
    while (prod > lim) { k++; prod *= st.u01_open(); }
    return k;
  }
  const double slam = std::sqrt(lam), loglam = std::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double U = st.u01() - 0.5, V = st.u01();
    const double us = 0.5 - std::fabs(U);
    const double k = std::floor((2 * a / us + b) * U + lam + 0.43);
    if (us >= 0.07 && V <= vr) return k;
    if (k < 0 || (us < 0.013 && V > us)) continue;
    if (std::log(V) + std::log(inv_alpha) - std::log(a / (us * us) + b) <= -lam + k * loglam - std::lgamma(k + 1)) return k;
  }
}

// Gamma(alpha, 1): Marsaglia and Tsang's squeeze method; alpha < 1 through Gamma(alpha + 1) U^(1/alpha).
double gamma_one(ElemStream& st, double alpha) {
  double boost = 1;
  if (alpha < 1) { boost = std::pow(st.u01_open(), 1.0 / alpha); alpha += 1; }
  const double d = alpha - 1.0 / 3.0, cc = 1.0 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do { x = st.normal(); v = 1 + cc * x; } while (v <= 0);
    v = v * v * v;
    const double u = st.u01_open();
    if (u < 1 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return boost * d * v;
  }
}

template <typename Sample>
void per_element(KernelCall& c, const Tensor& x, Sample sample) {
  Tensor& o = c.output(0);
  const int64_t n = o.numel();
  const GeneratorState s = draw_stream(0, (uint64_t)n);
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* p = o.data<T>();
    parallel_for(n, 256, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; i++) {
        ElemStream st(s, i);
        p[i] = Compute<T>::store((compute_t<T>)sample(st, (double)Compute<T>::load(px[i])));
      }
    });
  });
}

void k_poisson(KernelCall& c) {
  const Tensor& x = float_like_output(c);
  check_values(c, x, "every rate must be a finite number >= 0", [](double v) { return v >= 0 && std::isfinite(v); });
  per_element(c, x, poisson_one);
}

void k_standard_gamma(KernelCall& c) {
  const Tensor& x = float_like_output(c);
  check_values(c, x, "every alpha must be a finite number > 0", [](double v) { return v > 0 && std::isfinite(v); });
  per_element(c, x, gamma_one);
}

void k_multinomial(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor& xin = c.input(0);
  const int64_t k = c.iattr(0);
  const bool replacement = c.attr(1) != 0;
  if (!is_floating(xin.dtype)) throw SkiffError(std::string("multinomial: expected a floating-point input, got ") + dtype_name(xin.dtype));
  if (xin.ndim() != 1 && xin.ndim() != 2) throw SkiffError("multinomial: x must be 1-D or 2-D, got shape " + shape_str(xin.shape));
  const int64_t cats = xin.shape.back(), rows = xin.ndim() == 2 ? xin.shape[0] : 1;
  if (k <= 0) throw SkiffError("multinomial: num_samples must be positive, got " + S(k));
  if (cats == 0) throw SkiffError("multinomial: x has no categories (shape " + shape_str(xin.shape) + ")");
  std::vector<int64_t> oshape = xin.ndim() == 2 ? std::vector<int64_t>{rows, k} : std::vector<int64_t>{k};
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, DType::I64);
  const Tensor& x = c.dense(0);
  // Weights as doubles, validated row by row before anything is drawn.
  std::vector<double> w((size_t)(rows * cats));
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<T>();
    for (int64_t i = 0; i < rows * cats; i++) w[i] = (double)Compute<T>::load(p[i]);
  });
  for (int64_t r = 0; r < rows; r++) {
    int64_t nonzero = 0;
    double sum = 0;
    for (int64_t j = 0; j < cats; j++) {
      const double v = w[r * cats + j];
      if (!(v >= 0) || !std::isfinite(v)) throw SkiffError("multinomial: every probability must be a finite number >= 0, got " + D(v) + " in row " + S(r) + " at category " + S(j));
      nonzero += v > 0;
      sum += v;
    }
    if (sum <= 0) throw SkiffError("multinomial: the probabilities of row " + S(r) + " sum to 0");
    if (!replacement && k > nonzero)
      throw SkiffError("multinomial: when replacement is False, num_samples (" + S(k) + ") must be at most the number of non-zero categories (" + S(nonzero) + ") of row " + S(r));
  }
  int64_t* out = c.output(0).data<int64_t>();
  // Each draw (r, j) with replacement, or each category (r, c) without, has its own element stream,
  // so results never depend on how the work is split.
  const GeneratorState s = draw_stream(0, (uint64_t)(rows * (replacement ? k : cats)));
  if (replacement) {
    // Cumulative weights per row, then every draw is independent: split all rows * k of them.
    std::vector<double> cdf((size_t)(rows * cats));
    for (int64_t r = 0; r < rows; r++) {
      double acc = 0;
      for (int64_t j = 0; j < cats; j++) cdf[r * cats + j] = (acc += w[r * cats + j]);
    }
    parallel_for(rows * k, 2048, [&](int64_t e0, int64_t e1) {
      for (int64_t e = e0; e < e1; e++) {
        const int64_t r = e / k;
        const double* cr = cdf.data() + r * cats;
        const double* wr = w.data() + r * cats;
        ElemStream st(s, e);
        const double u = st.u01() * cr[cats - 1];
        // First category whose cumulative weight exceeds u (zero-weight ones can never be picked).
        int64_t idx = std::upper_bound(cr, cr + cats, u) - cr;
        if (idx >= cats) idx = cats - 1;
        while (wr[idx] == 0 && idx > 0) idx--;
        out[e] = idx;
      }
    });
    return;
  }
  parallel_for(rows, 1, [&](int64_t r0, int64_t r1) {
    std::vector<std::pair<double, int64_t>> keys;
    for (int64_t r = r0; r < r1; r++) {
      const double* wr = w.data() + r * cats;
      // Exponential race: key_j = E_j / w_j; the k smallest keys are a weighted sample without
      // replacement, in draw order.
      keys.clear();
      for (int64_t j = 0; j < cats; j++) {
        if (wr[j] == 0) continue;
        ElemStream st(s, r * cats + j);
        keys.emplace_back(-std::log(st.u01_open()) / wr[j], j);
      }
      std::partial_sort(keys.begin(), keys.begin() + k, keys.end());
      for (int64_t j = 0; j < k; j++) out[r * k + j] = keys[j].second;
    }
  });
}

void k_randperm(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  const int64_t n = c.iattr(0);
  if (n < 0) throw SkiffError("randperm: n must be non-negative, got " + S(n));
  c.expect_out_shape(0, {n});
  Tensor& o = c.output(0);
  const DType dt = o.dtype;
  if (dt != DType::I32 && dt != DType::I64 && dt != DType::F32 && dt != DType::F64)
    throw SkiffError(std::string("randperm: dtype must be int32, int64, float32 or float64, got ") + dtype_name(dt));
  if (dt == DType::I32 && n > INT32_MAX) throw SkiffError("randperm: n=" + S(n) + " does not fit int32");
  std::vector<int64_t> perm((size_t)n);
  std::iota(perm.begin(), perm.end(), (int64_t)0);
  // Fisher-Yates, serial; swap i reads Philox block (start + i / 2), 64 bits per swap.
  const GeneratorState s = draw_stream(0, (uint64_t)((n + 1) / 2));
  uint32_t r[4];
  for (int64_t i = n - 1, t = 0; i > 0; i--, t++) {
    if ((t & 1) == 0) Philox4x32::block(s.seed, s.offset + (uint64_t)(t / 2), r);
    const int64_t l = (t & 1) * 2;
    const uint64_t u = ((uint64_t)r[l + 1] << 32) | r[l];
    std::swap(perm[i], perm[(int64_t)(u % (uint64_t)(i + 1))]);
  }
  dispatch_all(dt, c.op, [&](auto tag) {
    using T = decltype(tag);
    T* p = o.data<T>();
    for (int64_t i = 0; i < n; i++) p[i] = Compute<T>::store((compute_t<T>)perm[i]);
  });
}

// Standard normal CDF and its inverse. The inverse starts from Abramowitz-Stegun 26.2.23 (error
// < 4.5e-4) on the lower tail and polishes with Halley steps against erfc, which keeps full
// relative precision far into the tail.
inline double ncdf(double x) { return 0.5 * std::erfc(-x * 0.7071067811865476); }
double ndtri_lower(double q) {  // q in (0, 0.5]
  const double t = std::sqrt(-2.0 * std::log(q));
  double x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  for (int it = 0; it < 3; it++) {
    const double e = ncdf(x) - q;
    const double u = e * 2.5066282746310002 * std::exp(0.5 * x * x);
    x -= u / (1 + 0.5 * x * u);
  }
  return x;
}
double ndtri(double p) {
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  return p <= 0.5 ? ndtri_lower(p) : -ndtri_lower(1 - p);
}

void k_truncated_gaussian_random(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  if (!o.is_contiguous()) throw SkiffError("truncated_gaussian_random: output must be contiguous");
  const double mean = c.attr(0), sd = c.attr(1);
  const uint64_t seed = seed_attr(c, 2);
  const double a = c.attr(3), b = c.attr(4);
  if (!(sd > 0) || !std::isfinite(sd) || !std::isfinite(mean)) throw SkiffError("truncated_gaussian_random: std must be a positive finite number and mean finite, got mean=" + D(mean) + " std=" + D(sd));
  if (!(a < b)) throw SkiffError("truncated_gaussian_random: a must be less than b, got a=" + D(a) + " b=" + D(b));
  // a and b are absolute cutoffs (Paddle's op): sample the standard normal on
  // [(a - mean) / std, (b - mean) / std] by the inverse CDF. Taking the tail nearer zero (flipping
  // an interval right of 0) keeps precision when the interval lies far out (5 to 6 std).
  const double za = (a - mean) / sd, zb = (b - mean) / sd;
  const bool flip = za > 0;
  const double lo = flip ? -zb : za, hi = flip ? -za : zb;
  const double plo = ncdf(lo), phi = ncdf(hi);
  fill_uniform_map(c, seed, [&](double u) {
    double z = ndtri(plo + (phi - plo) * u);
    z = std::min(std::max(z, lo), hi);  // rounding at the ends never leaves [lo, hi]
    return std::min(std::max(mean + sd * (flip ? -z : z), a), b);
  });
}

}  // namespace
SKIFF_KERNEL("bernoulli", k_bernoulli);
SKIFF_KERNEL("bernoulli_inplace", k_bernoulli_inplace);
SKIFF_KERNEL("exponential", k_exponential);
SKIFF_KERNEL("uniform_inplace", k_uniform_inplace);
SKIFF_KERNEL("gaussian_inplace", k_gaussian_inplace);
SKIFF_KERNEL("poisson", k_poisson);
SKIFF_KERNEL("standard_gamma", k_standard_gamma);
SKIFF_KERNEL("multinomial", k_multinomial);
SKIFF_KERNEL("randperm", k_randperm);
SKIFF_KERNEL("truncated_gaussian_random", k_truncated_gaussian_random);
}  // namespace skiff
