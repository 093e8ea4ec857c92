// Elementwise unary ops (definitions and dtype rules: src/ops/defs/unary.ts). No attributes
// except gelu: [approximate (0/1)]. Float ops run float16/bfloat16 in float32; float32 uses the
// vectorizable math of vmath.h, float64 the std:: functions.
//
// no-trapping-math lets floor/ceil/round/trunc loops use vector rounding instructions; it only
// concerns floating-point exception flags, never values (NaN/inf behave as without it).
#pragma GCC optimize("no-trapping-math")
#include <cmath>
#include <type_traits>
#include "elementwise_loops.h"
#include "vmath.h"

namespace skiff {
namespace {

template <typename F>
void float_unary(KernelCall& c, const F& f) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, x.dtype);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_unary<T, T>(x, o, f);
  });
}

// Ops Paddle also runs on integers: every dtype but bool.
template <typename F>
void numeric_unary(KernelCall& c, const F& f) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, x.dtype);
  dispatch_nonbool(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_unary<T, T>(x, o, f);
  });
}

// Any input dtype, bool output.
template <typename F>
void predicate_unary(KernelCall& c, const F& f) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, DType::Bool);
  dispatch_all(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_unary<T, bool>(x, o, f);
  });
}

template <typename V> constexpr bool is_fp = std::is_floating_point_v<V>;

void k_abs(KernelCall& c) {
  numeric_unary(c, [](auto v) -> decltype(v) {
    using V = decltype(v);
    if constexpr (is_fp<V>) return std::fabs(v);
    else if constexpr (std::is_unsigned_v<V>) return v;
    else return v < 0 ? wrap_neg(v) : v;
  });
}
void k_neg(KernelCall& c) { numeric_unary(c, [](auto v) -> decltype(v) { return wrap_neg(v); }); }
void k_square(KernelCall& c) { numeric_unary(c, [](auto v) -> decltype(v) { return wrap_mul(v, v); }); }
// sign keeps NaN (and the sign of zero) rather than mapping NaN to 0.
void k_sign(KernelCall& c) {
  numeric_unary(c, [](auto v) -> decltype(v) {
    using V = decltype(v);
    if constexpr (is_fp<V>) return v > 0 ? V(1) : (v < 0 ? V(-1) : v);
    else return (V)((v > 0) - (v < 0));
  });
}

void k_exp(KernelCall& c) { float_unary(c, [](auto v) { return vm::exp_(v); }); }
void k_log(KernelCall& c) { float_unary(c, [](auto v) { return std::log(v); }); }
void k_sin(KernelCall& c) { float_unary(c, [](auto v) { return std::sin(v); }); }
void k_cos(KernelCall& c) { float_unary(c, [](auto v) { return std::cos(v); }); }
void k_tanh(KernelCall& c) { float_unary(c, [](auto v) { return vm::tanh_(v); }); }
void k_sigmoid(KernelCall& c) { float_unary(c, [](auto v) { return vm::sigmoid_(v); }); }
void k_silu(KernelCall& c) { float_unary(c, [](auto v) { return vm::silu_(v); }); }
void k_erf(KernelCall& c) { float_unary(c, [](auto v) { return vm::erf_(v); }); }
void k_floor(KernelCall& c) { float_unary(c, [](auto v) { return std::floor(v); }); }
void k_ceil(KernelCall& c) { float_unary(c, [](auto v) { return std::ceil(v); }); }
// Half away from zero, as std::round and Paddle's round.
void k_round(KernelCall& c) { float_unary(c, [](auto v) { return std::round(v); }); }
// NaN stays NaN; -0 becomes +0.
void k_relu(KernelCall& c) { float_unary(c, [](auto v) { return v <= 0 ? decltype(v)(0) : v; }); }

void k_gelu(KernelCall& c) {
  double approximate = c.attr(0);
  SKIFF_CHECK(approximate == 0 || approximate == 1, std::string("gelu: attribute approximate must be a bool, got ") + std::to_string(approximate));
  if (approximate) float_unary(c, [](auto v) { return vm::gelu_tanh_(v); });
  else float_unary(c, [](auto v) { return vm::gelu_(v); });
}

template <bool Reciprocal>
void sqrt_kernel(KernelCall& c) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, x.dtype);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    auto f = [](auto v) { using V = decltype(v); return Reciprocal ? V(1) / std::sqrt(v) : std::sqrt(v); };
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      map_unary_block<T, T>(x, o, f, [](const T* a, T* r, int64_t n) {
        if constexpr (Reciprocal) vm::rsqrt_block(a, r, n); else vm::sqrt_block(a, r, n);
      });
    } else {
      map_unary<T, T>(x, o, f);
    }
  });
}

void k_logical_not(KernelCall& c) { predicate_unary(c, [](auto v) { return v == 0; }); }
void k_isnan(KernelCall& c) {
  predicate_unary(c, [](auto v) { if constexpr (is_fp<decltype(v)>) return v != v; else return false; });
}
void k_isinf(KernelCall& c) {
  predicate_unary(c, [](auto v) { if constexpr (is_fp<decltype(v)>) return std::fabs(v) == std::numeric_limits<decltype(v)>::infinity(); else return false; });
}
void k_isfinite(KernelCall& c) {
  predicate_unary(c, [](auto v) { if constexpr (is_fp<decltype(v)>) return std::fabs(v) < std::numeric_limits<decltype(v)>::infinity(); else return true; });
}

}  // namespace
SKIFF_KERNEL("abs", k_abs);
SKIFF_KERNEL("neg", k_neg);
SKIFF_KERNEL("square", k_square);
SKIFF_KERNEL("sign", k_sign);
SKIFF_KERNEL("exp", k_exp);
SKIFF_KERNEL("log", k_log);
SKIFF_KERNEL("sqrt", sqrt_kernel<false>);
SKIFF_KERNEL("rsqrt", sqrt_kernel<true>);
SKIFF_KERNEL("sin", k_sin);
SKIFF_KERNEL("cos", k_cos);
SKIFF_KERNEL("tanh", k_tanh);
SKIFF_KERNEL("sigmoid", k_sigmoid);
SKIFF_KERNEL("silu", k_silu);
SKIFF_KERNEL("gelu", k_gelu);
SKIFF_KERNEL("erf", k_erf);
SKIFF_KERNEL("floor", k_floor);
SKIFF_KERNEL("ceil", k_ceil);
SKIFF_KERNEL("round", k_round);
SKIFF_KERNEL("relu", k_relu);
SKIFF_KERNEL("logical_not", k_logical_not);
SKIFF_KERNEL("isnan", k_isnan);
SKIFF_KERNEL("isinf", k_isinf);
SKIFF_KERNEL("isfinite", k_isfinite);
}  // namespace skiff
