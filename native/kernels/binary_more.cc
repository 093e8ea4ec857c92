// More broadcasting elementwise ops (definitions and dtype rules: src/ops/defs/binary_more.ts):
// atan2, hypot, fmax, fmin, copysign, heaviside (binary_block.h drivers over one input dtype), isclose /
// allclose (attrs [rtol, atol, equal_nan]), ldexp (float x, integer y), lerp (three inputs)
// and masked_fill (x, bool mask, one-element value).
#include <cmath>
#include <cstring>
#include <type_traits>
#include "binary_block.h"

namespace skiff {
namespace {

template <typename V> constexpr bool is_fp = std::is_floating_point_v<V>;

std::string dt_error(KernelCall& c, const char* what) {
  return std::string(c.op) + ": expected " + what + " inputs, got " + dtype_name(c.input(0).dtype);
}

// Float-only binary: out dtype = input dtype.
template <typename F>
void float_binary(KernelCall& c, const F& f) {
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  if (!is_floating(a.dtype)) throw SkiffError(dt_error(c, "floating-point"));
  auto shape = check_binary(c, a.dtype);
  dispatch_float(a.dtype, c.op, [&](auto tag) { using T = decltype(tag); map_binary_blocks<T, T>(a, b, o, shape, c.op, f); });
}

// Every dtype but bool: out dtype = input dtype.
template <typename F>
void numeric_binary(KernelCall& c, const F& f) {
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  auto shape = check_binary(c, a.dtype);
  dispatch_nonbool(a.dtype, c.op, [&](auto tag) { using T = decltype(tag); map_binary_blocks<T, T>(a, b, o, shape, c.op, f); });
}

void k_atan2(KernelCall& c) {
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  auto f = [](auto x, auto y) { return std::atan2(x, y); };
  if (a.dtype == DType::I32 || a.dtype == DType::I64) {
    auto shape = check_binary(c, DType::F64);
    auto g = [](auto x, auto y) { return std::atan2((double)x, (double)y); };
    if (a.dtype == DType::I32) map_binary_blocks<int32_t, double>(a, b, o, shape, c.op, g);
    else map_binary_blocks<int64_t, double>(a, b, o, shape, c.op, g);
    return;
  }
  if (!is_floating(a.dtype)) throw SkiffError(dt_error(c, "float or int32/int64"));
  float_binary(c, f);
}

void k_hypot(KernelCall& c) { float_binary(c, [](auto x, auto y) { return std::hypot(x, y); }); }

// A NaN operand is ignored; NaN only when both are.
template <bool Max>
void fmax_fmin(KernelCall& c) {
  numeric_binary(c, [](auto x, auto y) -> decltype(x) {
    if constexpr (is_fp<decltype(x)>) { if (x != x) return y; if (y != y) return x; }
    return Max ? (x > y ? x : y) : (x < y ? x : y);
  });
}

void k_copysign(KernelCall& c) {
  numeric_binary(c, [](auto x, auto y) -> decltype(x) {
    using V = decltype(x);
    if constexpr (is_fp<V>) return std::copysign(x, y);
    else if constexpr (std::is_unsigned_v<V>) return x;
    else { V m = x < 0 ? wrap_neg(x) : x; return y < 0 ? wrap_neg(m) : m; }
  });
}

void k_heaviside(KernelCall& c) {
  numeric_binary(c, [](auto x, auto y) -> decltype(x) { using V = decltype(x); return x == V(0) ? y : (x > V(0) ? V(1) : V(0)); });
}

// numpy/Paddle closeness in double: |x - y| <= atol + rtol |y|, equal values (infinities
// included) are close, NaNs are close to each other only with equal_nan.
struct Close {
  double rtol, atol;
  bool equal_nan;
  bool operator()(double x, double y) const {
    if (x == y) return true;
    if (x != x || y != y) return equal_nan && x != x && y != y;
    if (std::isinf(x) || std::isinf(y)) return false;
    return std::fabs(x - y) <= atol + rtol * std::fabs(y);
  }
};

Close parse_close(KernelCall& c) {
  if (c.attrs.size() != 3) throw SkiffError(std::string(c.op) + ": expected attributes [rtol, atol, equal_nan], got " + std::to_string(c.attrs.size()));
  Close cl{c.attr(0), c.attr(1), c.attr(2) != 0};
  if (!(cl.rtol >= 0) || !(cl.atol >= 0)) throw SkiffError(std::string(c.op) + ": rtol and atol must be non-negative, got " + std::to_string(cl.rtol) + " and " + std::to_string(cl.atol));
  return cl;
}

void k_isclose(KernelCall& c) {
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  if (!is_floating(a.dtype)) throw SkiffError(dt_error(c, "floating-point"));
  auto shape = check_binary(c, DType::Bool);
  const Close cl = parse_close(c);
  dispatch_float(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_binary_blocks<T, bool>(a, b, o, shape, c.op, [cl](auto x, auto y) { return cl((double)x, (double)y); });
  });
}

void k_allclose(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  c.expect_same_dtype(0, 1);
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  if (!is_floating(a.dtype)) throw SkiffError(dt_error(c, "floating-point"));
  auto shape = broadcast_shapes(a.shape, b.shape, c.op);
  c.expect_out_shape(0, {});
  c.expect_out_dtype(0, DType::Bool);
  const Close cl = parse_close(c);
  ErrorFlag differs;  // raised by any element that is not close
  auto sa = broadcast_strides(a, shape, c.op), sb = broadcast_strides(b, shape, c.op);
  const int64_t es = (int64_t)a.itemsize();
  dispatch_float(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    strided_loop<2>(shape, {(char*)a.raw(), (char*)b.raw()}, {sa, sb}, {es, es},
                    [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                      if (differs) return;
                      for (int64_t i = 0; i < n; i++) {
                        if (!cl((double)Compute<T>::load(*(const T*)(p[0] + i * s[0])), (double)Compute<T>::load(*(const T*)(p[1] + i * s[1])))) {
                          differs.raise();
                          return;
                        }
                      }
                    });
  });
  *o.data<bool>() = !differs;
}

// ldexp: out (float) = x * 2^y; x float or int32/int64 (then out float32), y int32/int64.
void k_ldexp(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  if (b.dtype != DType::I32 && b.dtype != DType::I64) throw SkiffError(std::string("ldexp: y must be an int32 or int64 tensor, got ") + dtype_name(b.dtype));
  const bool int_x = a.dtype == DType::I32 || a.dtype == DType::I64;
  if (!int_x && !is_floating(a.dtype)) throw SkiffError(std::string("ldexp: x must be a float, int32 or int64 tensor, got ") + dtype_name(a.dtype));
  auto shape = broadcast_shapes(a.shape, b.shape, c.op);
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, int_x ? DType::F32 : a.dtype);
  auto sa = broadcast_strides(a, shape, c.op), sb = broadcast_strides(b, shape, c.op);
  const bool y32 = b.dtype == DType::I32;
  const int64_t ey = y32 ? 4 : 8;
  auto run = [&](auto xtag, auto otag) {
    using TX = decltype(xtag);
    using TO = decltype(otag);
    const int64_t ex = sizeof(TX), eo = sizeof(TO);
    strided_loop<3>(shape, {(char*)o.raw(), (char*)a.raw(), (char*)b.raw()}, {o.strides, sa, sb}, {eo, ex, ey},
                    [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& s, int64_t n) {
                      for (int64_t i = 0; i < n; i++) {
                        using C = compute_t<TO>;
                        const C x = (C)Compute<TX>::load(*(const TX*)(p[1] + i * s[1]));
                        const char* py = p[2] + i * s[2];
                        int64_t e = y32 ? (int64_t)*(const int32_t*)py : *(const int64_t*)py;  // one y dtype per call: predictable
                        e = e < -100000 ? -100000 : (e > 100000 ? 100000 : e);  // beyond any float's range either way
                        *(TO*)(p[0] + i * s[0]) = Compute<TO>::store(std::ldexp(x, (int)e));
                      }
                    });
  };
  switch (a.dtype) {
    case DType::I32: return run(int32_t{}, float{});
    case DType::I64: return run(int64_t{}, float{});
    default: dispatch_float(a.dtype, c.op, [&](auto tag) { run(tag, tag); });
  }
}

// lerp: out = x + w (y - x), all three broadcast; floats only.
void k_lerp(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  c.expect_same_dtype(0, 1);
  c.expect_same_dtype(0, 2);
  Tensor &x = c.input(0), &y = c.input(1), &w = c.input(2), &o = c.output(0);
  if (!is_floating(x.dtype)) throw SkiffError(dt_error(c, "floating-point"));
  std::vector<int64_t> shape;
  try {
    shape = broadcast_shapes(broadcast_shapes(x.shape, y.shape, c.op), w.shape, c.op);
  } catch (const SkiffError&) {
    throw SkiffError("lerp: shapes " + shape_str(x.shape) + ", " + shape_str(y.shape) + " and " + shape_str(w.shape) + " cannot be broadcast");
  }
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, x.dtype);
  auto sx = broadcast_strides(x, shape, c.op), sy = broadcast_strides(y, shape, c.op), sw = broadcast_strides(w, shape, c.op);
  const int64_t es = (int64_t)x.itemsize();
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    strided_loop<4>(shape, {(char*)o.raw(), (char*)x.raw(), (char*)y.raw(), (char*)w.raw()}, {o.strides, sx, sy, sw}, {es, es, es, es},
                    [&](const std::array<char*, 4>& p, const std::array<int64_t, 4>& s, int64_t n) {
                      if (s[0] == es && s[1] == es && s[2] == es && s[3] == es) {
                        const T* __restrict px = (const T*)p[1];
                        const T* __restrict py = (const T*)p[2];
                        const T* __restrict pw = (const T*)p[3];
                        T* __restrict po = (T*)p[0];
                        for (int64_t i = 0; i < n; i++) {
                          auto a = Compute<T>::load(px[i]);
                          po[i] = Compute<T>::store(a + Compute<T>::load(pw[i]) * (Compute<T>::load(py[i]) - a));
                        }
                        return;
                      }
                      for (int64_t i = 0; i < n; i++) {
                        auto a = Compute<T>::load(*(const T*)(p[1] + i * s[1]));
                        auto b = Compute<T>::load(*(const T*)(p[2] + i * s[2]));
                        auto t = Compute<T>::load(*(const T*)(p[3] + i * s[3]));
                        *(T*)(p[0] + i * s[0]) = Compute<T>::store(a + t * (b - a));
                      }
                    });
  });
}

// masked_fill: out = mask ? value : x; value (one element, any dtype) converted to x's dtype.
void k_masked_fill(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &m = c.input(1), &v = c.input(2), &o = c.output(0);
  if (m.dtype != DType::Bool) throw SkiffError(std::string("masked_fill: mask must have dtype bool, got ") + dtype_name(m.dtype));
  if (v.numel() != 1) throw SkiffError("masked_fill: value must have one element, got shape " + shape_str(v.shape));
  auto shape = broadcast_shapes(x.shape, m.shape, c.op);
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, x.dtype);
  const double val = dispatch_all(v.dtype, c.op, [&](auto tag) -> double {
    using T = decltype(tag);
    return (double)Compute<T>::load(*(const T*)v.raw());
  });
  auto sx = broadcast_strides(x, shape, c.op), sm = broadcast_strides(m, shape, c.op);
  // The fill value in x's dtype, then a byte-pattern select per element size (4 loops, not 9).
  uint64_t fill_bits = 0;
  dispatch_all(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = compute_t<T>;
    C cv;
    if constexpr (std::is_same_v<C, bool>) cv = val != 0;
    else if constexpr (std::is_integral_v<C>) cv = val != val ? C(0) : (C)(int64_t)val;
    else cv = (C)val;
    const T fill = Compute<T>::store(cv);
    std::memcpy(&fill_bits, &fill, sizeof(T));
  });
  auto select = [&](auto utag) {
    using U = decltype(utag);
    U fill;
    std::memcpy(&fill, &fill_bits, sizeof(U));
    const int64_t es = sizeof(U);
    strided_loop<3>(shape, {(char*)o.raw(), (char*)x.raw(), (char*)m.raw()}, {o.strides, sx, sm}, {es, es, 1},
                    [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& s, int64_t n) {
                      for (int64_t i = 0; i < n; i++)
                        *(U*)(p[0] + i * s[0]) = *(const bool*)(p[2] + i * s[2]) ? fill : *(const U*)(p[1] + i * s[1]);
                    });
  };
  switch (x.itemsize()) {
    case 1: return select(uint8_t{});
    case 2: return select(uint16_t{});
    case 4: return select(uint32_t{});
    default: return select(uint64_t{});
  }
}

}  // namespace
SKIFF_KERNEL("atan2", k_atan2);
SKIFF_KERNEL("hypot", k_hypot);
SKIFF_KERNEL("fmax", fmax_fmin<true>);
SKIFF_KERNEL("fmin", fmax_fmin<false>);
SKIFF_KERNEL("copysign", k_copysign);
SKIFF_KERNEL("heaviside", k_heaviside);
SKIFF_KERNEL("isclose", k_isclose);
SKIFF_KERNEL("allclose", k_allclose);
SKIFF_KERNEL("ldexp", k_ldexp);
SKIFF_KERNEL("lerp", k_lerp);
SKIFF_KERNEL("masked_fill", k_masked_fill);
}  // namespace skiff
