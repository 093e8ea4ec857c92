// A light driver for float elementwise unary kernels written as contiguous block routines.
//
// Each op provides just two functions, `void(const float*, float*, n, const double* params)` and
// the double version; the driver (compiled once) handles strided inputs (through a small stack
// buffer), float16/bfloat16 (converted to float32 in chunks) and threading. Compared with a
// templated map_unary per op and dtype this keeps each op to two tight loops, so a family of
// dozens of ops compiles quickly.
#pragma once
#include <cstring>
#include "elementwise_loops.h"

namespace skiff {

template <typename V> using UnaryBlock = void (*)(const V* __restrict, V* __restrict, int64_t, const double*);

struct UnaryBlocks {
  UnaryBlock<float> f32;
  UnaryBlock<double> f64;
};

// Work per task: these ops cost tens of cycles per element, so split earlier than plain arithmetic.
constexpr int64_t kUnaryBlockGrain = 8192;
constexpr int64_t kUnaryChunk = 256;

// Runs out = f(x) for a floating x (output preallocated, same shape and dtype). `params` are the
// op's attributes, validated by the caller.
inline void run_unary_blocks(KernelCall& c, const UnaryBlocks& f, const double* params) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating-point input, got " + dtype_name(x.dtype));
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  if (x.numel() == 0) return;
  const int64_t es = (int64_t)x.itemsize();
  auto typed = [&](auto tag, auto fn) {
    using T = decltype(tag);
    if (x.is_contiguous() && o.is_contiguous()) {
      const T* a = x.data<T>();
      T* r = o.data<T>();
      parallel_for(x.numel(), kUnaryBlockGrain, [&](int64_t b, int64_t e) { fn(a + b, r + b, e - b, params); });
      return;
    }
    strided_loop<2>(x.shape, {(char*)o.raw(), (char*)x.raw()}, {o.strides, x.strides}, {es, es},
                    [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                      if (s[0] == es && s[1] == es) { fn((const T*)p[1], (T*)p[0], n, params); return; }
                      T in[kUnaryChunk], out[kUnaryChunk];
                      for (int64_t i0 = 0; i0 < n; i0 += kUnaryChunk) {
                        const int64_t m = std::min(kUnaryChunk, n - i0);
                        for (int64_t i = 0; i < m; i++) in[i] = *(const T*)(p[1] + (i0 + i) * s[1]);
                        fn(in, out, m, params);
                        for (int64_t i = 0; i < m; i++) *(T*)(p[0] + (i0 + i) * s[0]) = out[i];
                      }
                    }, kUnaryBlockGrain);
  };
  auto half = [&](auto tag) {
    using T = decltype(tag);
    strided_loop<2>(x.shape, {(char*)o.raw(), (char*)x.raw()}, {o.strides, x.strides}, {es, es},
                    [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                      float in[kUnaryChunk], out[kUnaryChunk];
                      for (int64_t i0 = 0; i0 < n; i0 += kUnaryChunk) {
                        const int64_t m = std::min(kUnaryChunk, n - i0);
                        for (int64_t i = 0; i < m; i++) in[i] = Compute<T>::load(*(const T*)(p[1] + (i0 + i) * s[1]));
                        f.f32(in, out, m, params);
                        for (int64_t i = 0; i < m; i++) *(T*)(p[0] + (i0 + i) * s[0]) = Compute<T>::store(out[i]);
                      }
                    }, kUnaryBlockGrain);
  };
  switch (x.dtype) {
    case DType::F32: return typed(float{}, f.f32);
    case DType::F64: return typed(double{}, f.f64);
    case DType::F16: return half(f16{});
    case DType::BF16: return half(bf16{});
    default: break;
  }
}

}  // namespace skiff
