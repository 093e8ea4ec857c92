// Broadcasting binary arithmetic. Inputs share a dtype (the TS side casts to the promoted
// dtype first); the output has that dtype and the broadcast shape. Integer arithmetic wraps;
// integer division/remainder by zero raises after the loop (workers never throw), and
// INT_MIN / -1 is computed as a wrapping negation instead of trapping.
#include <cmath>
#include <type_traits>
#include "elementwise_loops.h"

namespace skiff {
namespace {

template <typename F>
void arith(KernelCall& c, bool allow_bool, const F& f) {
  auto shape = check_binary(c, c.input(0).dtype);
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  if (!allow_bool && a.dtype == DType::Bool) throw SkiffError(std::string(c.op) + ": bool inputs are not supported (dtype bool)");
  dispatch_all(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_binary<T, T>(a, b, o, shape, c.op, f);
  });
}

template <typename V> constexpr bool is_int = std::is_integral_v<V> && !std::is_same_v<V, bool>;

void zero_division(KernelCall& c) {
  throw SkiffError(std::string(c.op) + ": integer division by zero (" + dtype_name(c.input(0).dtype) + " inputs " +
                   shape_str(c.input(0).shape) + " and " + shape_str(c.input(1).shape) + ")");
}

void k_add(KernelCall& c) { arith(c, true, [](auto x, auto y) -> decltype(x) { return wrap_add(x, y); }); }
void k_subtract(KernelCall& c) { arith(c, false, [](auto x, auto y) -> decltype(x) { return wrap_sub(x, y); }); }
// bool * bool is logical and, as in Paddle.
void k_multiply(KernelCall& c) { arith(c, true, [](auto x, auto y) -> decltype(x) { return wrap_mul(x, y); }); }

// Integer divide truncates toward zero (C semantics, as Paddle's divide kernel on ints).
void k_divide(KernelCall& c) {
  ErrorFlag err;
  arith(c, false, [&err](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    if constexpr (is_int<V>) {
      if (y == 0) { err.raise(); return 0; }
      if constexpr (std::is_signed_v<V>) if (y == -1) return wrap_neg(x);
      return (V)(x / y);
    } else return (V)(x / y);
  });
  if (err) zero_division(c);
}

// Python floor division: the quotient rounded toward -inf.
template <typename V> inline V floor_div(V x, V y, ErrorFlag& err) {
  if constexpr (is_int<V>) {
    if (y == 0) { err.raise(); return 0; }
    if constexpr (std::is_signed_v<V>) {
      if (y == -1) return wrap_neg(x);
      V q = (V)(x / y);
      return ((V)(x % y) != 0 && ((x < 0) != (y < 0))) ? (V)(q - 1) : q;
    } else return (V)(x / y);
  } else if constexpr (std::is_same_v<V, bool>) {
    return x;
  } else {
    if (y == 0) return x / y;  // IEEE: +-inf or NaN
    // Exact remainder first, so a quotient that rounds up to an integer is not floored wrongly.
    V mod = std::fmod(x, y);
    V div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1;
    if (div == 0) return std::copysign(V(0), x / y);
    V fl = std::floor(div);
    return div - fl > V(0.5) ? fl + 1 : fl;
  }
}

void k_floor_divide(KernelCall& c) {
  ErrorFlag err;
  arith(c, false, [&err](auto x, auto y) -> decltype(x) { return floor_div(x, y, err); });
  if (err) zero_division(c);
}

// The result takes the sign of the divisor (Python's %, Paddle's remainder/mod/floor_mod).
void k_remainder(KernelCall& c) {
  ErrorFlag err;
  arith(c, false, [&err](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    if constexpr (is_int<V>) {
      if (y == 0) { err.raise(); return 0; }
      if constexpr (std::is_signed_v<V>) {
        if (y == -1) return 0;
        V r = (V)(x % y);
        return (r != 0 && ((r < 0) != (y < 0))) ? (V)(r + y) : r;
      } else return (V)(x % y);
    } else if constexpr (std::is_same_v<V, bool>) {
      return x;
    } else {
      V r = std::fmod(x, y);
      return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
    }
  });
  if (err) zero_division(c);
}

// Integer powers are exact (wrapping); a negative exponent gives trunc(x^y) as C++'s
// double pow-then-cast does: 1, +-1 for x = -1, else 0; 0 to a negative power raises.
void k_elementwise_pow(KernelCall& c) {
  ErrorFlag err;
  arith(c, false, [&err](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    if constexpr (is_int<V>) {
      if constexpr (std::is_signed_v<V>) {
        if (y < 0) {
          if (x == 0) { err.raise(); return 0; }
          if (x == 1) return 1;
          if (x == -1) return (y & 1) ? V(-1) : V(1);
          return 0;
        }
      }
      V r = 1, base = x;
      for (auto e = y; e != 0; e = (decltype(e))(e >> 1)) {
        if (e & 1) r = wrap_mul(r, base);
        base = wrap_mul(base, base);
      }
      return r;
    } else if constexpr (std::is_same_v<V, bool>) {
      return x;
    } else return std::pow(x, y);
  });
  if (err) throw SkiffError(std::string(c.op) + ": 0 cannot be raised to a negative integer power (" + dtype_name(c.input(0).dtype) + " inputs)");
}

// NaN in either input gives NaN (Paddle documents that the NaN element is returned).
void k_maximum(KernelCall& c) {
  arith(c, false, [](auto x, auto y) -> decltype(x) {
    if constexpr (std::is_floating_point_v<decltype(x)>) { if (x != x) return x; if (y != y) return y; }
    return x > y ? x : y;
  });
}
void k_minimum(KernelCall& c) {
  arith(c, false, [](auto x, auto y) -> decltype(x) {
    if constexpr (std::is_floating_point_v<decltype(x)>) { if (x != x) return x; if (y != y) return y; }
    return x < y ? x : y;
  });
}

}  // namespace
SKIFF_KERNEL("add", k_add);
SKIFF_KERNEL("subtract", k_subtract);
SKIFF_KERNEL("multiply", k_multiply);
SKIFF_KERNEL("divide", k_divide);
SKIFF_KERNEL("floor_divide", k_floor_divide);
SKIFF_KERNEL("remainder", k_remainder);
SKIFF_KERNEL("elementwise_pow", k_elementwise_pow);
SKIFF_KERNEL("maximum", k_maximum);
SKIFF_KERNEL("minimum", k_minimum);
}  // namespace skiff
