// max_pool2d / avg_pool2d on 4-D inputs of any strides (NCHW or NHWC).
// attrs [kh, kw, sh, sw, padAlgo (0 explicit, 1 SAME, 2 VALID), pt, pb, pl, pr, ceil, channelLast,
//        exclusive, divisor (NaN: none), returnMask]
// Outputs: out (contiguous, same data format), and for max_pool2d with returnMask an int32 mask
// holding h * W + w of each maximum in its input plane.
// As in Paddle's Pool2dFunctor, a window covers rows [max(hs, 0), min(hs + kh, H)) with
// hs = oh * sh - pt (padding is never read); avg divides by that clipped area when exclusive,
// otherwise by kh * kw; divisor_override then scales by kh * kw / divisor.
#include <cmath>
#include <limits>
#include <type_traits>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct Pool {
  int64_t N, C, H, W, OH, OW, kh, kw, sh, sw, pt, pl;
  bool channel_last, exclusive, mask;
  double divisor;  // NaN: none
};

template <typename T, bool IsMax>
void pool_impl(const Pool& a, const Tensor& x, Tensor& out, Tensor* mask) {
  using A = compute_t<T>;
  const nn::Strides4 xs = nn::nchw_strides(x, a.channel_last);
  const T* X = x.data<T>();
  T* O = out.data<T>();
  int32_t* M = mask ? mask->data<int32_t>() : nullptr;
  // Output element strides in logical (n, c, h, w) order.
  const int64_t on = a.C * a.OH * a.OW;
  const int64_t oc = a.channel_last ? 1 : a.OH * a.OW, oh_s = a.channel_last ? a.OW * a.C : a.OW, ow_s = a.channel_last ? a.C : 1;
  const int64_t per_plane = a.OH * a.OW * a.kh * a.kw;
  // 2x2 / stride 2 max pool with every window inside the plane (LeNet, VGG, U-Nets), without
  // a mask: one straight loop per output row. The same fold in the same order as below
  // (a NaN wins and stays), so results are identical; the generic loop's bounds, index and
  // mask bookkeeping cost several times the four loads on these small windows.
  if constexpr (IsMax) {
    if (!M && !a.channel_last && xs.w == 1 && a.kh == 2 && a.kw == 2 && a.sh == 2 && a.sw == 2 && a.pt == 0 && a.pl == 0 &&
        2 * a.OH <= a.H && 2 * a.OW <= a.W) {
      auto upd = [](A m, A v) { return (v > m || (v != v && m == m)) ? v : m; };
      parallel_for(a.N * a.C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, per_plane)), [&](int64_t b, int64_t e) {
        for (int64_t nc = b; nc < e; nc++) {
          const T* xp = X + (nc / a.C) * xs.n + (nc % a.C) * xs.c;
          T* op = O + nc * a.OH * a.OW;
          for (int64_t oh = 0; oh < a.OH; oh++) {
            const T* r0 = xp + 2 * oh * xs.h;
            const T* r1 = r0 + xs.h;
            T* dst = op + oh * a.OW;
            for (int64_t ow = 0; ow < a.OW; ow++) {
              A m = Compute<T>::load(r0[2 * ow]);
              m = upd(m, Compute<T>::load(r0[2 * ow + 1]));
              m = upd(m, Compute<T>::load(r1[2 * ow]));
              dst[ow] = Compute<T>::store(upd(m, Compute<T>::load(r1[2 * ow + 1])));
            }
          }
        }
      });
      return;
    }
  }
  // Any other max pool without a mask on NCHW planes (ResNet's 3x3 / stride 2 / pad 1): a whole
  // output row at a time, tap by tap, over the output columns whose window holds that tap, so the
  // inner loop has no bounds tests. Each window first takes its first valid element, then folds
  // its taps in row-major order with the generic loop's update, so results (NaN, -0 vs 0, and the
  // lowest() of an empty window) are identical to it. float32 only: other dtypes keep the generic
  // loop rather than another instantiation each (compile time).
  if constexpr (IsMax && std::is_same_v<T, float>) {
      if (!M && !a.channel_last) {
      auto upd = [](A m, A v) { return (v > m || (v != v && m == m)) ? v : m; };
      parallel_for(a.N * a.C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, per_plane)), [&](int64_t b, int64_t e) {
        A* acc = nn::scratch<A>(0, (size_t)a.OW);
        for (int64_t nc = b; nc < e; nc++) {
          const T* xp = X + (nc / a.C) * xs.n + (nc % a.C) * xs.c;
          T* op = O + nc * a.OH * a.OW;
          for (int64_t oh = 0; oh < a.OH; oh++) {
            const int64_t hs = std::max<int64_t>(oh * a.sh - a.pt, 0), he = std::min(oh * a.sh - a.pt + a.kh, a.H);
            for (int64_t ow = 0; ow < a.OW; ow++) {
              const int64_t ws = std::max<int64_t>(ow * a.sw - a.pl, 0), we = std::min(ow * a.sw - a.pl + a.kw, a.W);
              acc[ow] = hs < he && ws < we ? Compute<T>::load(xp[hs * xs.h + ws * xs.w]) : std::numeric_limits<A>::lowest();
            }
            for (int64_t h = hs; h < he; h++) {
              const T* xr = xp + h * xs.h;
              for (int64_t j = 0; j < a.kw; j++) {
                // Output columns ow with 0 <= ow * sw - pl + j < W.
                const int64_t wofs = j - a.pl;
                const int64_t lo = wofs >= 0 ? 0 : std::min(a.OW, (-wofs + a.sw - 1) / a.sw);
                const int64_t hi = std::max(lo, std::min(a.OW, a.W - 1 - wofs >= 0 ? (a.W - 1 - wofs) / a.sw + 1 : 0));
                if (xs.w == 1 && a.sw == 1) for (int64_t ow = lo; ow < hi; ow++) acc[ow] = upd(acc[ow], Compute<T>::load(xr[ow + wofs]));
                else for (int64_t ow = lo; ow < hi; ow++) acc[ow] = upd(acc[ow], Compute<T>::load(xr[(ow * a.sw + wofs) * xs.w]));
              }
            }
            T* dst = op + oh * a.OW;
            for (int64_t ow = 0; ow < a.OW; ow++) dst[ow] = Compute<T>::store(acc[ow]);
          }
        }
      });
      return;
    }
  }
  parallel_for(a.N * a.C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, per_plane)), [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / a.C, ch = nc % a.C;
      const T* xp = X + n * xs.n + ch * xs.c;
      for (int64_t oh = 0; oh < a.OH; oh++) {
        int64_t hs = oh * a.sh - a.pt;
        const int64_t he = std::min(hs + a.kh, a.H);
        hs = std::max<int64_t>(hs, 0);
        for (int64_t ow = 0; ow < a.OW; ow++) {
          int64_t ws = ow * a.sw - a.pl;
          const int64_t we = std::min(ws + a.kw, a.W);
          ws = std::max<int64_t>(ws, 0);
          const int64_t oi = n * on + ch * oc + oh * oh_s + ow * ow_s;
          if constexpr (IsMax) {
            // Paddle starts from -FLT_MAX with index -1, so a window with no input reports those.
            A m = std::numeric_limits<A>::lowest();
            int64_t idx = -1;
            for (int64_t h = hs; h < he; h++)
              for (int64_t w = ws; w < we; w++) {
                const A v = Compute<T>::load(xp[h * xs.h + w * xs.w]);
                if (v > m || (v != v && m == m) || idx < 0) { m = v; idx = h * a.W + w; }
              }
            O[oi] = Compute<T>::store(m);
            if (M) M[oi] = (int32_t)idx;
          } else {
            A s = 0;
            for (int64_t h = hs; h < he; h++)
              for (int64_t w = ws; w < we; w++) s += Compute<T>::load(xp[h * xs.h + w * xs.w]);
            const int64_t area = std::max<int64_t>(0, he - hs) * std::max<int64_t>(0, we - ws);
            A r = s / (A)(a.exclusive ? area : a.kh * a.kw);
            if (!std::isnan(a.divisor)) r = r * (A)(a.kh * a.kw) / (A)a.divisor;
            O[oi] = Compute<T>::store(r);
          }
        }
      }
    }
  });
}

void pool2d(KernelCall& c, bool is_max) {
  const char* op = c.op;
  c.expect_inputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  Pool a{};
  a.kh = c.iattr(0); a.kw = c.iattr(1); a.sh = c.iattr(2); a.sw = c.iattr(3);
  const int64_t algo = c.iattr(4);
  int64_t pt = c.iattr(5), pb = c.iattr(6), pl = c.iattr(7), pr = c.iattr(8);
  const bool ceil = c.iattr(9) != 0;
  a.channel_last = c.iattr(10) != 0;
  a.exclusive = c.iattr(11) != 0;
  a.divisor = c.attr(12);
  a.mask = c.iattr(13) != 0;
  c.expect_outputs(a.mask ? 2 : 1);
  if (a.mask && !is_max) throw SkiffError(std::string(op) + ": only max_pool2d returns a mask");
  if (a.mask && a.channel_last) throw SkiffError(std::string(op) + ": return_mask needs data_format NCHW");
  if (x.ndim() != 4) throw SkiffError(std::string(op) + ": input should be a 4D tensor, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (a.kh <= 0 || a.kw <= 0) throw SkiffError(std::string(op) + ": kernel_size must be positive, got [" + S(a.kh) + ", " + S(a.kw) + "]");
  if (a.sh <= 0 || a.sw <= 0) throw SkiffError(std::string(op) + ": stride must be positive, got [" + S(a.sh) + ", " + S(a.sw) + "]");
  if (algo < 0 || algo > 2) throw SkiffError(std::string(op) + ": invalid padding algorithm code " + S(algo));
  if (pt < 0 || pb < 0 || pl < 0 || pr < 0) throw SkiffError(std::string(op) + ": padding must be non-negative");
  if (!std::isnan(a.divisor) && (a.divisor == 0 || !std::isfinite(a.divisor))) throw SkiffError(std::string(op) + ": divisor_override must be a nonzero number");
  a.N = x.shape[0];
  a.C = a.channel_last ? x.shape[3] : x.shape[1];
  a.H = a.channel_last ? x.shape[1] : x.shape[2];
  a.W = a.channel_last ? x.shape[2] : x.shape[3];
  if (algo == 1) { nn::same_pads(a.H, a.kh, a.sh, pt, pb); nn::same_pads(a.W, a.kw, a.sw, pl, pr); }
  else if (algo == 2) pt = pb = pl = pr = 0;
  a.pt = pt; a.pl = pl;
  a.OH = nn::window_out(op, "height", a.H, a.kh, a.sh, 1, pt, pb, ceil);
  a.OW = nn::window_out(op, "width", a.W, a.kw, a.sw, 1, pl, pr, ceil);
  const std::vector<int64_t> oshape = a.channel_last ? std::vector<int64_t>{a.N, a.OH, a.OW, a.C} : std::vector<int64_t>{a.N, a.C, a.OH, a.OW};
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, x.dtype);
  Tensor* mask = nullptr;
  if (a.mask) {
    c.expect_out_shape(1, oshape);
    c.expect_out_dtype(1, DType::I32);
    if (a.H * a.W > INT32_MAX) throw SkiffError(std::string(op) + ": input plane too large for an int32 mask");
    mask = &c.output(1);
  }
  if (o.numel() == 0) return;
  dispatch_float(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    if (is_max) pool_impl<T, true>(a, x, o, mask);
    else pool_impl<T, false>(a, x, o, nullptr);
  });
}

void k_max_pool2d(KernelCall& c) { pool2d(c, true); }
void k_avg_pool2d(KernelCall& c) { pool2d(c, false); }

}  // namespace
SKIFF_KERNEL("max_pool2d", k_max_pool2d);
SKIFF_KERNEL("avg_pool2d", k_avg_pool2d);
}  // namespace skiff
