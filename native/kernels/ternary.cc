// where(condition, x, y): all three broadcast; condition bool, x and y one dtype.
// clip(x): attrs [has_min, min, has_max, max]; scale(x): attrs [scale, bias, bias_after_scale].
// clip and scale cast their attributes to the compute type first, as Paddle's kernels do
// (scale(int_x, 2.5) multiplies by 2).
#include <cmath>
#include <limits>
#include <type_traits>
#include "elementwise_loops.h"

namespace skiff {
namespace {

// where only moves values, so it runs on unsigned words of the element size (one instantiation
// per size, and plain integer types the vectorizer handles, unlike the f16/bf16 structs).
template <typename W>
inline void where_contig(const uint8_t* __restrict c, const W* __restrict x, const W* __restrict y, W* __restrict o, int64_t n) {
  // Both values are loaded unconditionally so the select becomes a vector blend.
  for (int64_t i = 0; i < n; i++) {
    W xv = x[i], yv = y[i];
    o[i] = c[i] != 0 ? xv : yv;
  }
}

template <typename W>
void where_words(const std::vector<int64_t>& shape, Tensor& o, const Tensor& cond, const Tensor& x, const Tensor& y,
                 const std::array<std::vector<int64_t>, 4>& strides) {
  const int64_t e = sizeof(W);
  if (o.is_contiguous() && cond.is_contiguous() && x.is_contiguous() && y.is_contiguous() && cond.shape == shape &&
      x.shape == shape && y.shape == shape) {
    const uint8_t* pc = (const uint8_t*)cond.raw();
    const W *px = (const W*)x.raw(), *py = (const W*)y.raw();
    W* po = (W*)o.raw();
    return parallel_for(o.numel(), kEwGrain, [&](int64_t b, int64_t en) { where_contig(pc + b, px + b, py + b, po + b, en - b); });
  }
  strided_loop<4>(shape, {(char*)o.raw(), (char*)cond.raw(), (char*)x.raw(), (char*)y.raw()}, strides, {e, 1, e, e},
                  [&](const std::array<char*, 4>& p, const std::array<int64_t, 4>& s, int64_t n) {
                    if (s[0] == e && s[1] == 1 && s[2] == e && s[3] == e)
                      return where_contig((const uint8_t*)p[1], (const W*)p[2], (const W*)p[3], (W*)p[0], n);
                    for (int64_t i = 0; i < n; i++)
                      *(W*)(p[0] + i * s[0]) = *(const uint8_t*)(p[1] + i * s[1]) ? *(const W*)(p[2] + i * s[2]) : *(const W*)(p[3] + i * s[3]);
                  });
}

void k_where(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &cond = c.input(0), &x = c.input(1), &y = c.input(2), &o = c.output(0);
  if (cond.dtype != DType::Bool) throw SkiffError(std::string("where: condition must have dtype bool, got ") + dtype_name(cond.dtype));
  c.expect_same_dtype(1, 2);
  auto shape = broadcast_shapes(broadcast_shapes(cond.shape, x.shape, c.op), y.shape, c.op);
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, x.dtype);
  std::array<std::vector<int64_t>, 4> st{o.strides, broadcast_strides(cond, shape, c.op), broadcast_strides(x, shape, c.op),
                                         broadcast_strides(y, shape, c.op)};
  switch (x.itemsize()) {
    case 1: where_words<uint8_t>(shape, o, cond, x, y, st); break;
    case 2: where_words<uint16_t>(shape, o, cond, x, y, st); break;
    case 4: where_words<uint32_t>(shape, o, cond, x, y, st); break;
    case 8: where_words<uint64_t>(shape, o, cond, x, y, st); break;
    default: throw SkiffError(std::string("where: unsupported element size for dtype ") + dtype_name(x.dtype));
  }
}

// A double attribute as compute type V; integers saturate instead of overflowing the conversion.
template <typename V> V attr_as(double v) {
  if constexpr (std::is_integral_v<V>) {
    if (v != v) return 0;
    if (v <= (double)std::numeric_limits<V>::lowest()) return std::numeric_limits<V>::lowest();
    if (v >= (double)std::numeric_limits<V>::max()) return std::numeric_limits<V>::max();
    return (V)v;
  } else return (V)v;
}

void k_clip(KernelCall& c) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, x.dtype);
  bool has_min = c.attr(0) != 0, has_max = c.attr(2) != 0;
  double mn = c.attr(1), mx = c.attr(3);
  dispatch_nonbool(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using V = compute_t<T>;
    constexpr bool fp = std::is_floating_point_v<V>;
    V lo = has_min ? attr_as<V>(mn) : (fp ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::lowest());
    V hi = has_max ? attr_as<V>(mx) : (fp ? std::numeric_limits<V>::infinity() : std::numeric_limits<V>::max());
    // Paddle's order of tests: below min gives min even when min > max. NaN passes through.
    map_unary<T, T>(x, o, [lo, hi](V v) -> V { return v < lo ? lo : (v > hi ? hi : v); });
  });
}

void k_scale(KernelCall& c) {
  Tensor &x = c.input(0), &o = c.output(0);
  check_unary(c, x.dtype);
  double s = c.attr(0), b = c.attr(1);
  bool after = c.attr(2) != 0;
  dispatch_nonbool(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using V = compute_t<T>;
    V sv = attr_as<V>(s), bv = attr_as<V>(b);
    if (after) map_unary<T, T>(x, o, [sv, bv](V v) -> V { return wrap_add(wrap_mul(v, sv), bv); });
    else map_unary<T, T>(x, o, [sv, bv](V v) -> V { return wrap_mul(wrap_add(v, bv), sv); });
  });
}

}  // namespace
SKIFF_KERNEL("where", k_where);
SKIFF_KERNEL("clip", k_clip);
SKIFF_KERNEL("scale", k_scale);
}  // namespace skiff
