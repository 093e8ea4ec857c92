// Data types held natively. Numbering is shared with src/tensor/dtype.ts (DTYPE_CODE).
// float16 and bfloat16 are stored natively and computed in float32.
#pragma once
#include <cstdint>
#include <cstring>
#include <cmath>
#include <string>

namespace skiff {

enum class DType : int32_t { F32 = 0, F64 = 1, I32 = 2, I64 = 3, Bool = 4, I8 = 5, U8 = 6, F16 = 7, BF16 = 8 };
constexpr int kNumDTypes = 9;

inline size_t dtype_size(DType d) {
  switch (d) {
    case DType::F32: case DType::I32: return 4;
    case DType::F64: case DType::I64: return 8;
    case DType::Bool: case DType::I8: case DType::U8: return 1;
    case DType::F16: case DType::BF16: return 2;
  }
  return 0;
}

inline const char* dtype_name(DType d) {
  switch (d) {
    case DType::F32: return "float32"; case DType::F64: return "float64";
    case DType::I32: return "int32"; case DType::I64: return "int64";
    case DType::Bool: return "bool"; case DType::I8: return "int8"; case DType::U8: return "uint8";
    case DType::F16: return "float16"; case DType::BF16: return "bfloat16";
  }
  return "?";
}

inline bool dtype_valid(int32_t code) { return code >= 0 && code < kNumDTypes; }
inline bool is_floating(DType d) { return d == DType::F32 || d == DType::F64 || d == DType::F16 || d == DType::BF16; }

// Half types: plain 16-bit storage; arithmetic goes through float.
struct f16 { uint16_t bits; };
struct bf16 { uint16_t bits; };

inline float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t f;
  if (exp == 0) {
    if (mant == 0) f = sign;
    else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) { mant <<= 1; exp--; }
      mant &= 0x3ff;
      f = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) f = sign | 0x7f800000u | (mant << 13);
  else f = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  float out; std::memcpy(&out, &f, 4); return out;
}

inline uint16_t f32_to_f16(float x) {
  uint32_t f; std::memcpy(&f, &x, 4);
  uint32_t sign = (f >> 16) & 0x8000;
  int32_t exp = (int32_t)((f >> 23) & 0xff);
  uint32_t mant = f & 0x7fffff;
  if (exp == 255) return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
  int32_t e = exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;
    mant |= 0x800000;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) half++;  // round to nearest even; may carry into exp
  return (uint16_t)half;
}

inline float bf16_to_f32(uint16_t h) { uint32_t f = (uint32_t)h << 16; float o; std::memcpy(&o, &f, 4); return o; }
inline uint16_t f32_to_bf16(float x) {
  uint32_t f; std::memcpy(&f, &x, 4);
  if ((f & 0x7fffffff) > 0x7f800000) return (uint16_t)((f >> 16) | 0x40);  // quiet NaN
  uint32_t rounding = 0x7fff + ((f >> 16) & 1);
  return (uint16_t)((f + rounding) >> 16);
}

// Compute<T>: the type arithmetic is done in. load/store convert storage <-> compute.
template <typename T> struct Compute { using type = T; static T load(T v) { return v; } static T store(T v) { return v; } };
template <> struct Compute<f16> { using type = float; static float load(f16 v) { return f16_to_f32(v.bits); } static f16 store(float v) { return f16{f32_to_f16(v)}; } };
template <> struct Compute<bf16> { using type = float; static float load(bf16 v) { return bf16_to_f32(v.bits); } static bf16 store(float v) { return bf16{f32_to_bf16(v)}; } };
template <> struct Compute<bool> { using type = bool; static bool load(bool v) { return v; } static bool store(bool v) { return v; } };

template <typename T> using compute_t = typename Compute<T>::type;

// Dispatch a generic lambda over the storage type of a dtype:
//   SKIFF_DISPATCH(dt, "op", [&](auto tag) { using T = decltype(tag); ... });
template <typename F> auto dispatch_all(DType d, const char* op, F&& f);

}  // namespace skiff

#include "error.h"

namespace skiff {
template <typename F> auto dispatch_all(DType d, const char* op, F&& f) {
  switch (d) {
    case DType::F32: return f(float{});
    case DType::F64: return f(double{});
    case DType::I32: return f(int32_t{});
    case DType::I64: return f(int64_t{});
    case DType::Bool: return f(bool{});
    case DType::I8: return f(int8_t{});
    case DType::U8: return f(uint8_t{});
    case DType::F16: return f(f16{});
    case DType::BF16: return f(bf16{});
  }
  throw SkiffError(std::string(op) + ": unsupported dtype code " + std::to_string((int)d));
}
// Floating types only (float32, float64, float16, bfloat16); others raise naming the op.
template <typename F> auto dispatch_float(DType d, const char* op, F&& f) {
  switch (d) {
    case DType::F32: return f(float{});
    case DType::F64: return f(double{});
    case DType::F16: return f(f16{});
    case DType::BF16: return f(bf16{});
    default: throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(d));
  }
}
// The floating types and int32/int64 (sorting, searching, products, unique): the others raise
// naming the op and `what` (e.g. "x").
template <typename F> void dispatch_float_i32_i64(DType d, const char* op, const char* what, F&& f) {
  switch (d) {
    case DType::F32: f(float{}); return;
    case DType::F64: f(double{}); return;
    case DType::I32: f(int32_t{}); return;
    case DType::I64: f(int64_t{}); return;
    case DType::F16: f(f16{}); return;
    case DType::BF16: f(bf16{}); return;
    default:
      throw SkiffError(std::string(op) + ": " + what + " must be float16, bfloat16, float32, float64, int32 or int64, got " + dtype_name(d));
  }
}
// Numeric types (everything but bool).
template <typename F> auto dispatch_numeric(DType d, const char* op, F&& f) {
  if (d == DType::Bool) throw SkiffError(std::string(op) + ": bool input is not supported");
  return dispatch_all(d, op, std::forward<F>(f));
}
}  // namespace skiff
