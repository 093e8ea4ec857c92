// unfold (im2col) and fold (col2im), Paddle's F.unfold / F.fold on NCHW images.
// unfold: x [N, C, H, W] -> [N, C*kh*kw, L], L = OH*OW; row (c*kh + i)*kw + j holds, for every
// output position (oh, ow), x[n, c, oh*sh - pt + i*dh, ow*sw - pl + j*dw] (0 in the padding).
// attrs [kh, kw, sh, sw, pt, pl, pb, pr, dh, dw].
// fold: the adjoint, x [N, C*kh*kw, L] -> [N, C, H, W], every column element added into the image
// pixel it was gathered from (overlapping windows accumulate). attrs [H, W, kh, kw, sh, sw, pt,
// pl, pb, pr, dh, dw].
// Both run one task per (n, c) plane, so fold's accumulation needs no atomics; fold sums into a
// compute-type plane (float32 for half types) and rounds once. Inputs may be strided.
#include <cstring>
#include <type_traits>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct Geo {
  int64_t N, C, H, W, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw, OH, OW;
};

// [lo, hi): output columns whose input column ow*sw + wofs lies in [0, W).
inline void valid_range(const Geo& g, int64_t wofs, int64_t& lo, int64_t& hi) {
  lo = wofs >= 0 ? 0 : std::min(g.OW, (-wofs + g.sw - 1) / g.sw);
  hi = std::max(lo, std::min(g.OW, g.W - 1 - wofs >= 0 ? (g.W - 1 - wofs) / g.sw + 1 : 0));
}

// Reads the common attribute tail [kh, kw, sh, sw, pt, pl, pb, pr, dh, dw] starting at `at`.
void read_geo(const KernelCall& c, size_t at, Geo& g) {
  const char* op = c.op;
  g.kh = c.iattr(at); g.kw = c.iattr(at + 1); g.sh = c.iattr(at + 2); g.sw = c.iattr(at + 3);
  g.pt = c.iattr(at + 4); g.pl = c.iattr(at + 5); g.pb = c.iattr(at + 6); g.pr = c.iattr(at + 7);
  g.dh = c.iattr(at + 8); g.dw = c.iattr(at + 9);
  if (g.kh <= 0 || g.kw <= 0) throw SkiffError(std::string(op) + ": kernel_sizes must be positive, got [" + S(g.kh) + ", " + S(g.kw) + "]");
  if (g.sh <= 0 || g.sw <= 0) throw SkiffError(std::string(op) + ": strides must be positive, got [" + S(g.sh) + ", " + S(g.sw) + "]");
  if (g.dh <= 0 || g.dw <= 0) throw SkiffError(std::string(op) + ": dilations must be positive, got [" + S(g.dh) + ", " + S(g.dw) + "]");
  if (g.pt < 0 || g.pl < 0 || g.pb < 0 || g.pr < 0) throw SkiffError(std::string(op) + ": paddings must be non-negative");
}

void out_size(const char* op, Geo& g) {
  g.OH = nn::window_out(op, "height", g.H, g.kh, g.sh, g.dh, g.pt, g.pb, false);
  g.OW = nn::window_out(op, "width", g.W, g.kw, g.sw, g.dw, g.pl, g.pr, false);
}

template <typename T>
void unfold_impl(const Geo& g, const Tensor& x, Tensor& o) {
  const T* X = x.data<T>();
  T* O = o.data<T>();
  const auto& xs = x.strides;
  const int64_t L = g.OH * g.OW, taps = g.kh * g.kw;
  parallel_for(g.N * g.C, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, L * taps)), [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / g.C, ch = nc % g.C;
      const T* xp = X + n * xs[0] + ch * xs[1];
      T* op = O + nc * taps * L;  // rows of this plane are contiguous in [N, C*kh*kw, L]
      for (int64_t i = 0; i < g.kh; i++)
        for (int64_t j = 0; j < g.kw; j++) {
          T* row = op + (i * g.kw + j) * L;
          const int64_t wofs = j * g.dw - g.pl;
          int64_t lo, hi;
          valid_range(g, wofs, lo, hi);
          for (int64_t oh = 0; oh < g.OH; oh++) {
            T* r = row + oh * g.OW;
            const int64_t ih = oh * g.sh - g.pt + i * g.dh;
            if (ih < 0 || ih >= g.H) { std::memset((void*)r, 0, sizeof(T) * g.OW); continue; }
            const T* xr = xp + ih * xs[2];
            if (lo > 0) std::memset((void*)r, 0, sizeof(T) * lo);
            for (int64_t ow = lo; ow < hi; ow++) r[ow] = xr[(ow * g.sw + wofs) * xs[3]];
            if (hi < g.OW) std::memset((void*)(r + hi), 0, sizeof(T) * (g.OW - hi));
          }
        }
    }
  });
}

template <typename T>
void fold_impl(const Geo& g, const Tensor& x, Tensor& o) {
  using A = compute_t<T>;
  const T* X = x.data<T>();
  T* O = o.data<T>();
  const auto& xs = x.strides;
  const int64_t taps = g.kh * g.kw, plane = g.H * g.W;
  parallel_for(g.N * g.C, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, g.OH * g.OW * taps)), [&](int64_t b, int64_t e) {
    A* acc = nn::scratch<A>(0, (size_t)plane);
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / g.C, ch = nc % g.C;
      for (int64_t p = 0; p < plane; p++) acc[p] = A(0);
      for (int64_t i = 0; i < g.kh; i++)
        for (int64_t j = 0; j < g.kw; j++) {
          const T* row = X + n * xs[0] + ((ch * g.kh + i) * g.kw + j) * xs[1];
          const int64_t wofs = j * g.dw - g.pl;
          int64_t lo, hi;
          valid_range(g, wofs, lo, hi);
          for (int64_t oh = 0; oh < g.OH; oh++) {
            const int64_t ih = oh * g.sh - g.pt + i * g.dh;
            if (ih < 0 || ih >= g.H) continue;
            A* ar = acc + ih * g.W;
            const T* src = row + oh * g.OW * xs[2];
            for (int64_t ow = lo; ow < hi; ow++) ar[ow * g.sw + wofs] += Compute<T>::load(src[ow * xs[2]]);
          }
        }
      T* op = O + nc * plane;
      for (int64_t p = 0; p < plane; p++) op[p] = Compute<T>::store(acc[p]);
    }
  });
}

void k_unfold(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Tensor& x = c.input(0);
  if (x.ndim() != 4) throw SkiffError("unfold: input should be a 4-D tensor [N, C, H, W], got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("unfold: expected a floating dtype, got ") + dtype_name(x.dtype));
  Geo g{};
  read_geo(c, 0, g);
  g.N = x.shape[0]; g.C = x.shape[1]; g.H = x.shape[2]; g.W = x.shape[3];
  out_size("unfold", g);
  c.expect_out_shape(0, {g.N, g.C * g.kh * g.kw, g.OH * g.OW});
  c.expect_out_dtype(0, x.dtype);
  if (c.output(0).numel() == 0) return;
  dispatch_float(x.dtype, c.op, [&](auto tag) { unfold_impl<decltype(tag)>(g, x, c.output(0)); });
}

void k_fold(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Tensor& x = c.input(0);
  if (x.ndim() != 3) throw SkiffError("fold: input should be a 3-D tensor [N, C*kh*kw, L], got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("fold: expected a floating dtype, got ") + dtype_name(x.dtype));
  Geo g{};
  g.H = c.iattr(0); g.W = c.iattr(1);
  if (g.H <= 0 || g.W <= 0) throw SkiffError("fold: output_sizes must be positive, got [" + S(g.H) + ", " + S(g.W) + "]");
  read_geo(c, 2, g);
  const int64_t taps = g.kh * g.kw;
  if (x.shape[1] % taps) throw SkiffError("fold: the second dim " + S(x.shape[1]) + " of input " + shape_str(x.shape) + " must be divisible by kernel_sizes[0] * kernel_sizes[1] = " + S(taps));
  g.N = x.shape[0]; g.C = x.shape[1] / taps;
  out_size("fold", g);
  if (x.shape[2] != g.OH * g.OW)
    throw SkiffError("fold: the last dim " + S(x.shape[2]) + " of input " + shape_str(x.shape) + " must equal the number of sliding blocks " + S(g.OH) + " * " + S(g.OW) + " = " + S(g.OH * g.OW));
  c.expect_out_shape(0, {g.N, g.C, g.H, g.W});
  c.expect_out_dtype(0, x.dtype);
  if (c.output(0).numel() == 0) return;
  dispatch_float(x.dtype, c.op, [&](auto tag) { fold_impl<decltype(tag)>(g, x, c.output(0)); });
}

}  // namespace
SKIFF_KERNEL("unfold", k_unfold);
SKIFF_KERNEL("fold", k_fold);
}  // namespace skiff
