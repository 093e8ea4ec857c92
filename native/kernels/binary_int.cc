// Integer elementwise ops (definitions: src/ops/defs/binary_more.ts): gcd, lcm, bitwise
// and/or/xor/not (also on bool) and the shifts (attrs [is_arithmetic]). Integer dtypes here:
// int8, uint8, int32, int64.
#include <type_traits>
#include "binary_block.h"

namespace skiff {
namespace {

template <bool WithBool, typename F> void dispatch_int(DType d, const char* op, F&& f) {
  switch (d) {
    case DType::I32: f(int32_t{}); return;
    case DType::I64: f(int64_t{}); return;
    case DType::I8: f(int8_t{}); return;
    case DType::U8: f(uint8_t{}); return;
    case DType::Bool: if constexpr (WithBool) { f(bool{}); return; } break;
    default: break;
  }
  throw SkiffError(std::string(op) + ": expected integer" + (WithBool ? " or bool" : "") + " inputs, got " + dtype_name(d));
}

template <bool WithBool, typename F>
void int_binary(KernelCall& c, const F& f) {
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  auto shape = check_binary(c, a.dtype);
  dispatch_int<WithBool>(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) map_binary_blocks<T, T>(a, b, o, shape, c.op, [&f](bool x, bool y) -> bool { return (bool)f(x, y); });
    else map_binary_blocks<T, T>(a, b, o, shape, c.op, f);
  });
}

// |v| as the unsigned type (exact even for the most negative value).
template <typename V> inline std::make_unsigned_t<V> uabs(V v) {
  using U = std::make_unsigned_t<V>;
  if constexpr (std::is_signed_v<V>) return v < 0 ? (U)(U(0) - (U)v) : (U)v;
  else return v;
}
template <typename U> inline U ugcd(U a, U b) {
  while (b != 0) { U t = (U)(a % b); a = b; b = t; }
  return a;
}

void k_gcd(KernelCall& c) {
  int_binary<false>(c, [](auto x, auto y) -> decltype(x) { return (decltype(x))ugcd(uabs(x), uabs(y)); });
}
void k_lcm(KernelCall& c) {
  int_binary<false>(c, [](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    auto ax = uabs(x), ay = uabs(y);
    auto g = ugcd(ax, ay);
    if (g == 0) return 0;
    using U = decltype(ax);
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;  // no promotion to signed int
    return (V)(U)((W)(ax / g) * (W)ay);
  });
}

void k_bitwise_and(KernelCall& c) { int_binary<true>(c, [](auto x, auto y) -> decltype(x) { return (decltype(x))(x & y); }); }
void k_bitwise_or(KernelCall& c) { int_binary<true>(c, [](auto x, auto y) -> decltype(x) { return (decltype(x))(x | y); }); }
void k_bitwise_xor(KernelCall& c) { int_binary<true>(c, [](auto x, auto y) -> decltype(x) { return (decltype(x))(x ^ y); }); }

void k_bitwise_not(KernelCall& c) {
  check_unary(c, c.input(0).dtype);
  Tensor &x = c.input(0), &o = c.output(0);
  dispatch_int<true>(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) map_unary<T, T>(x, o, [](bool v) { return !v; });
    else map_unary<T, T>(x, o, [](T v) { return (T)~v; });
  });
}

// Shift counts outside [0, bits) give 0, except an arithmetic right shift of a negative value
// (sign fill, -1). Logical shifts work on the unsigned bit pattern.
template <bool Left>
void k_shift(KernelCall& c) {
  if (c.attrs.size() != 1) throw SkiffError(std::string(c.op) + ": expected attribute [is_arithmetic]");
  const bool arith = c.attr(0) != 0;
  int_binary<false>(c, [arith](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    using U = std::make_unsigned_t<V>;
    constexpr int bits = 8 * sizeof(V);
    const bool out_of_range = y < 0 || (int64_t)y >= bits;
    if (Left) return out_of_range ? V(0) : (V)(U)((std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>)(U)x << (int)y);
    if (arith && std::is_signed_v<V>) {
      if (out_of_range) return x < 0 ? V(-1) : V(0);
      return (V)(x >> (int)y);  // arithmetic on signed values (C++20; GCC does so before too)
    }
    return out_of_range ? V(0) : (V)(U)((U)x >> (int)y);
  });
}

}  // namespace
SKIFF_KERNEL("gcd", k_gcd);
SKIFF_KERNEL("lcm", k_lcm);
SKIFF_KERNEL("bitwise_and", k_bitwise_and);
SKIFF_KERNEL("bitwise_or", k_bitwise_or);
SKIFF_KERNEL("bitwise_xor", k_bitwise_xor);
SKIFF_KERNEL("bitwise_not", k_bitwise_not);
SKIFF_KERNEL("bitwise_left_shift", k_shift<true>);
SKIFF_KERNEL("bitwise_right_shift", k_shift<false>);
}  // namespace skiff
