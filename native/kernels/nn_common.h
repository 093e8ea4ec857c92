// Helpers shared by the nn_* kernels: window geometry (Paddle's conv/pool output-size rules)
// and per-thread scratch buffers.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include "kernel.h"

namespace skiff {
namespace nn {

inline std::string S(int64_t v) { return std::to_string(v); }
inline std::string D(double v) {  // shortest readable form for messages: 0.5, 1e-05, 2
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// Paddle's SAME padding for one dim: out = ceil(in / s), the total padding split low-first.
inline void same_pads(int64_t in, int64_t k, int64_t s, int64_t& p0, int64_t& p1) {
  const int64_t out = (in + s - 1) / s;
  const int64_t sum = std::max<int64_t>((out - 1) * s + k - in, 0);
  p0 = sum / 2;
  p1 = sum - p0;
}

inline int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Output size of a window sweep; throws naming the op when no window fits.
inline int64_t window_out(const char* op, const char* what, int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0,
                          int64_t p1, bool ceil) {
  const int64_t eff = d * (k - 1) + 1;
  const int64_t out = floor_div(in + p0 + p1 - eff + (ceil ? s - 1 : 0), s) + 1;
  if (out <= 0)
    throw SkiffError(std::string(op) + ": output " + what + " would be " + S(out) + ": input size " + S(in) + " with padding " +
                     S(p0 + p1) + " is smaller than the " + (d > 1 ? "dilated " : "") + "kernel size " + S(eff) + " (stride " + S(s) + ")");
  return out;
}

// Element strides of a 4-D tensor in logical (n, c, h, w) order, whatever its data format.
struct Strides4 { int64_t n, c, h, w; };
inline Strides4 nchw_strides(const Tensor& t, bool channel_last) {
  const auto& s = t.strides;
  return channel_last ? Strides4{s[0], s[3], s[1], s[2]} : Strides4{s[0], s[1], s[2], s[3]};
}

// A 64-byte aligned buffer owned by the calling thread (slot 0..3); grows, never shrinks, so
// kernels called repeatedly (a training loop) do not fault in fresh pages every call.
template <typename T>
T* scratch(int slot, size_t n) {
  struct Buf { void* p = nullptr; size_t cap = 0; ~Buf() { std::free(p); } };
  thread_local Buf bufs[4];
  Buf& b = bufs[slot];
  const size_t bytes = std::max<size_t>(64, (n * sizeof(T) + 63) & ~size_t(63));
  if (bytes > b.cap) {
    std::free(b.p);
    b.p = std::aligned_alloc(64, bytes);
    b.cap = b.p ? bytes : 0;
    if (!b.p) throw std::bad_alloc();
  }
  return static_cast<T*>(b.p);
}

}  // namespace nn
}  // namespace skiff
