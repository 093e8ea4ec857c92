// More float elementwise unary ops (definitions, attributes and dtype rules:
// src/ops/defs/unary_special.ts). Each op is a pair of block routines run by unary_block.h.
// Attribute layouts: the op's float attributes in declaration order, except
// logit [eps (0 = no clamp)] and nan_to_num [nan, posinf, neginf] (defaults resolved in TS).
//
// float32 uses the float std:: functions (within a few ulp) or vmath.h's vectorizable exp (expm1,
// the ELU family, mish); the special functions without a float std:: version (erfinv, digamma,
// i0, sinc) compute in double for every dtype.
#pragma GCC optimize("no-trapping-math")
#include <cmath>
#include <cstring>
#include <limits>
#include "special_math.h"
#include "unary_block.h"
#include "vmath.h"

namespace skiff {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

// erfinv: Winitzki's closed-form estimate (relative error ~2e-3), then Halley steps on
// erf(x) = y (erfc(x) = 1 - y for |y| > 0.5, where 1 - y is exact). Halley triples the correct
// digits per step: two steps suffice for float results, three reach double precision.
double erfinv_d(double y, int iters) {
  if (y != y || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return kInf;
  if (y == -1) return -kInf;
  if (y == 0) return y;
  const double a = std::fabs(y);
  const double l = std::log((1 - a) * (1 + a));
  const double k = 2 / (kPi * 0.147) + l / 2;
  double x = std::sqrt(std::sqrt(k * k - l / 0.147) - k);
  const double c = 2 / std::sqrt(kPi);
  for (int it = 0; it < iters; it++) {
    const double f = a > 0.5 ? (1 - a) - std::erfc(x) : std::erf(x) - a;
    const double d = c * std::exp(-x * x);
    if (d == 0) break;
    x -= f / (d + x * f);
  }
  return y < 0 ? -x : x;
}

// I0(x): the power series sum ((x/2)^k / k!)^2 (positive terms) up to |x| = 30, beyond that the
// asymptotic expansion e^x / sqrt(2 pi x) sum prod_j (2j-1)^2 / (8 j x), with e^x split in two
// factors so results near the overflow threshold are not lost.
double i0_d(double x) {
  if (x != x) return x;
  const double ax = std::fabs(x);
  if (ax == kInf) return kInf;
  if (ax <= 30) {
    const double q = ax * ax / 4;
    double term = 1, sum = 1;
    for (int k = 1; k < 200; k++) {
      term *= q / ((double)k * k);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return sum;
  }
  double s = 1, t = 1;
  for (int k = 1; k < 60; k++) {
    t *= (2.0 * k - 1) * (2.0 * k - 1) / (8.0 * k * ax);
    s += t;
    if (t < s * 1e-17) break;
  }
  const double e = std::exp(ax / 2);
  return e * (e * s / std::sqrt(2 * kPi * ax));
}

double sinc_d(double x) {
  if (x == 0) return 1;
  const double px = kPi * x;
  return std::sin(px) / px;
}

// expm1 that vectorizes for float: the Taylor polynomial (degree 9, truncation < 1e-9 relative)
// below |x| = 0.5, where exp(x) - 1 would cancel, and the vectorized exp minus 1 above it, where
// the subtraction loses at most one bit. Both sides are computed and selected without branches.
// NaN, +-inf and -0 come out as from std::expm1; double uses std::expm1.
inline float expm1_v(float x) {
  float p = 1.0f / 362880;
  p = std::fma(p, x, 1.0f / 40320);
  p = std::fma(p, x, 1.0f / 5040);
  p = std::fma(p, x, 1.0f / 720);
  p = std::fma(p, x, 1.0f / 120);
  p = std::fma(p, x, 1.0f / 24);
  p = std::fma(p, x, 1.0f / 6);
  p = std::fma(p, x, 0.5f);
  p = std::fma(p, x, 1.0f);
  const float small = x * p;
  const float big = vm::exp_(x) - 1.0f;
  return std::fabs(x) < 0.5f ? small : big;
}
inline double expm1_v(double x) { return std::expm1(x); }

// A block routine per op: `x` is the input element, p0..p2 the attributes as V.
#define SK_UNARY(NAME, ...)                                                                              \
  template <typename V>                                                                                 \
  void NAME##_blk(const V* __restrict a, V* __restrict r, int64_t n, const double* p) {                 \
    [[maybe_unused]] const V p0 = (V)p[0], p1 = (V)p[1], p2 = (V)p[2];                                  \
    for (int64_t i = 0; i < n; i++) {                                                                   \
      const V x = a[i];                                                                                 \
      r[i] = (V)(__VA_ARGS__);                                                                          \
    }                                                                                                   \
  }

SK_UNARY(expm1, expm1_v(x))
SK_UNARY(log1p, std::log1p(x))
SK_UNARY(log2, std::log2(x))
SK_UNARY(log10, std::log10(x))
SK_UNARY(reciprocal, V(1) / x)
SK_UNARY(tan, std::tan(x))
SK_UNARY(asin, std::asin(x))
SK_UNARY(acos, std::acos(x))
SK_UNARY(atan, std::atan(x))
SK_UNARY(sinh, std::sinh(x))
SK_UNARY(cosh, std::cosh(x))
SK_UNARY(asinh, std::asinh(x))
SK_UNARY(acosh, std::acosh(x))
SK_UNARY(atanh, std::atanh(x))
SK_UNARY(erfinv, erfinv_d((double)x, sizeof(V) == sizeof(double) ? 3 : 2))
SK_UNARY(lgamma, std::lgamma(x))
SK_UNARY(digamma, special::digamma((double)x))
SK_UNARY(trunc, std::trunc(x))
SK_UNARY(frac, x - std::trunc(x))
SK_UNARY(sinc, sinc_d((double)x))
SK_UNARY(i0, i0_d((double)x))
// Without eps, log(x / (1 - x)) is already NaN outside [0, 1]; a NaN input stays NaN through the clamp.
SK_UNARY(logit, std::log((p0 != 0 ? (x < p0 ? p0 : (x > V(1) - p0 ? V(1) - p0 : x)) : x) /
                         (V(1) - (p0 != 0 ? (x < p0 ? p0 : (x > V(1) - p0 ? V(1) - p0 : x)) : x))))
SK_UNARY(nan_to_num, x != x ? p0 : (x == V(kInf) ? p1 : (x == V(-kInf) ? p2 : x)))
// Activations. Comparisons are arranged so a NaN input falls through to an expression of x.
SK_UNARY(relu6, x <= V(0) ? V(0) : (x > V(6) ? V(6) : x))
SK_UNARY(leaky_relu, x > V(0) ? x : x * p0)
SK_UNARY(elu, x > V(0) ? x : p0 * expm1_v(x))
SK_UNARY(selu, p0 * (x > V(0) ? x : p1 * expm1_v(x)))
SK_UNARY(celu, x > V(0) ? x : p0 * expm1_v(x / p0))
// tanh(log(1 + e)) = n / (n + 2) with n = e (e + 2), e = exp(x): one (vectorized) exp per element.
SK_UNARY(mish, x > V(20) ? x : x * (vm::exp_(x) * (vm::exp_(x) + V(2))) / (vm::exp_(x) * (vm::exp_(x) + V(2)) + V(2)))
SK_UNARY(softplus, x * p0 > p1 ? x : std::log1p(std::exp(x * p0)) / p0)
SK_UNARY(softsign, x / (V(1) + std::fabs(x)))
SK_UNARY(hardswish, x * std::min(std::max(x + V(3), V(0)), V(6)) / V(6))
SK_UNARY(hardsigmoid, x * p0 + p1 < V(0) ? V(0) : (x * p0 + p1 > V(1) ? V(1) : x * p0 + p1))
SK_UNARY(hardtanh, x < p0 ? p0 : (x > p1 ? p1 : x))
SK_UNARY(thresholded_relu, x <= p0 ? V(0) : x)
#undef SK_UNARY

// Copies the op's attributes (checking their count) into a zero-padded array for the block routines.
struct Params {
  double v[4] = {0, 0, 0, 0};
  Params(const KernelCall& c, size_t n) {
    if (c.attrs.size() != n)
      throw SkiffError(std::string(c.op) + ": expected " + std::to_string(n) + " attributes, got " + std::to_string(c.attrs.size()));
    for (size_t i = 0; i < n; i++) {
      v[i] = c.attr(i);
      if (v[i] != v[i] && std::strcmp(c.op, "nan_to_num") != 0)
        throw SkiffError(std::string(c.op) + ": attribute " + std::to_string(i) + " is NaN");
    }
  }
};

template <UnaryBlock<float> F32, UnaryBlock<double> F64, size_t NAttrs = 0>
void run(KernelCall& c) {
  Params p(c, NAttrs);
  run_unary_blocks(c, UnaryBlocks{F32, F64}, p.v);
}

#define SK_RUN(NAME, N) (run<NAME##_blk<float>, NAME##_blk<double>, N>)

// trunc and frac also take int32/int64: trunc copies, frac is zero.
void trunc_frac(KernelCall& c, bool frac) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  if (x.dtype == DType::I32 || x.dtype == DType::I64) {
    c.expect_out_shape(0, x.shape);
    c.expect_out_dtype(0, x.dtype);
    if (frac) std::memset(o.raw(), 0, (size_t)o.numel() * o.itemsize());
    else strided_copy(x, o);
    return;
  }
  if (!is_floating(x.dtype))
    throw SkiffError(std::string(c.op) + ": expected a float16, bfloat16, float32, float64, int32 or int64 input, got " + dtype_name(x.dtype));
  Params p(c, 0);
  if (frac) run_unary_blocks(c, UnaryBlocks{frac_blk<float>, frac_blk<double>}, p.v);
  else run_unary_blocks(c, UnaryBlocks{trunc_blk<float>, trunc_blk<double>}, p.v);
}
void k_trunc(KernelCall& c) { trunc_frac(c, false); }
void k_frac(KernelCall& c) { trunc_frac(c, true); }

void k_selu(KernelCall& c) {
  Params p(c, 2);
  if (!(p.v[0] > 1)) throw SkiffError("selu: scale must be greater than 1.0, got " + std::to_string(p.v[0]));
  if (!(p.v[1] >= 0)) throw SkiffError("selu: alpha must be no less than zero, got " + std::to_string(p.v[1]));
  run_unary_blocks(c, UnaryBlocks{selu_blk<float>, selu_blk<double>}, p.v);
}
void k_celu(KernelCall& c) {
  Params p(c, 1);
  if (p.v[0] == 0) throw SkiffError("celu: alpha cannot be 0");
  run_unary_blocks(c, UnaryBlocks{celu_blk<float>, celu_blk<double>}, p.v);
}
void k_softplus(KernelCall& c) {
  Params p(c, 2);
  if (p.v[0] == 0) throw SkiffError("softplus: beta cannot be 0");
  run_unary_blocks(c, UnaryBlocks{softplus_blk<float>, softplus_blk<double>}, p.v);
}
void k_logit(KernelCall& c) {
  Params p(c, 1);
  if (!(p.v[0] >= 0 && p.v[0] < 0.5)) throw SkiffError("logit: eps must be in [0, 0.5), got " + std::to_string(p.v[0]));
  run_unary_blocks(c, UnaryBlocks{logit_blk<float>, logit_blk<double>}, p.v);
}

}  // namespace
SKIFF_KERNEL("expm1", SK_RUN(expm1, 0));
SKIFF_KERNEL("log1p", SK_RUN(log1p, 0));
SKIFF_KERNEL("log2", SK_RUN(log2, 0));
SKIFF_KERNEL("log10", SK_RUN(log10, 0));
SKIFF_KERNEL("reciprocal", SK_RUN(reciprocal, 0));
SKIFF_KERNEL("tan", SK_RUN(tan, 0));
SKIFF_KERNEL("asin", SK_RUN(asin, 0));
SKIFF_KERNEL("acos", SK_RUN(acos, 0));
SKIFF_KERNEL("atan", SK_RUN(atan, 0));
SKIFF_KERNEL("sinh", SK_RUN(sinh, 0));
SKIFF_KERNEL("cosh", SK_RUN(cosh, 0));
SKIFF_KERNEL("asinh", SK_RUN(asinh, 0));
SKIFF_KERNEL("acosh", SK_RUN(acosh, 0));
SKIFF_KERNEL("atanh", SK_RUN(atanh, 0));
SKIFF_KERNEL("erfinv", SK_RUN(erfinv, 0));
SKIFF_KERNEL("lgamma", SK_RUN(lgamma, 0));
SKIFF_KERNEL("digamma", SK_RUN(digamma, 0));
SKIFF_KERNEL("trunc", k_trunc);
SKIFF_KERNEL("frac", k_frac);
SKIFF_KERNEL("sinc", SK_RUN(sinc, 0));
SKIFF_KERNEL("i0", SK_RUN(i0, 0));
SKIFF_KERNEL("logit", k_logit);
SKIFF_KERNEL("nan_to_num", SK_RUN(nan_to_num, 3));
SKIFF_KERNEL("relu6", SK_RUN(relu6, 0));
SKIFF_KERNEL("leaky_relu", SK_RUN(leaky_relu, 1));
SKIFF_KERNEL("elu", SK_RUN(elu, 1));
SKIFF_KERNEL("selu", k_selu);
SKIFF_KERNEL("celu", k_celu);
SKIFF_KERNEL("mish", SK_RUN(mish, 0));
SKIFF_KERNEL("softplus", k_softplus);
SKIFF_KERNEL("softsign", SK_RUN(softsign, 0));
SKIFF_KERNEL("hardswish", SK_RUN(hardswish, 0));
SKIFF_KERNEL("hardsigmoid", SK_RUN(hardsigmoid, 2));
SKIFF_KERNEL("hardtanh", SK_RUN(hardtanh, 2));
SKIFF_KERNEL("thresholded_relu", SK_RUN(thresholded_relu, 1));
}  // namespace skiff
