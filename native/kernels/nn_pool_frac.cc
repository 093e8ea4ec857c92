// fractional_max_pool2d / fractional_max_pool3d (Graham, "Fractional Max-Pooling"), Paddle 2.6's
// index rule. x [N, C, (D,) H, W] -> out [N, C, (OD,) OH, OW] and mask (int32, each maximum's flat
// index within its input plane). attrs [od, oh, ow, kd, kh, kw, u] (kernel 0: disjoint windows);
// the 2-D op runs as 3-D with depth 1, od = 1, kd = 0 (one window [0, 1)). Per dim, in float32 as Paddle:
//   alpha = (in - k) / (out - (k > 0)),  u' = k > 0 ? u : u * min((in/out + 2) / alpha - 1,
//   (in + 1 - in/out) / alpha - (out - 1)),  start_i = ceil(alpha * (i + u') - 1),
//   end_i = k > 0 ? start_i + k : ceil(alpha * (i + 1 + u') - 1), clamped to [0, in).
// The window tables are built once; planes run in parallel. The first maximum in a window wins
// (NaN propagates when it comes first). A window the clamping would leave empty keeps its
// start element, so every mask index is valid.
#include <cmath>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct Win { std::vector<int64_t> lo, hi; };

Win windows(int64_t in, int64_t out, int64_t k, float u) {
  Win w;
  w.lo.resize((size_t)out);
  w.hi.resize((size_t)out);
  const float alpha = (out - (k > 0 ? 1 : 0)) == 0 ? 0.0f : static_cast<float>(in - k) / static_cast<float>(out - (k > 0 ? 1 : 0));
  float uu = u;
  if (k <= 0) {
    const int64_t base = in / out;
    const float m1 = static_cast<float>(base + 2) / alpha - 1.0f;
    const float m2 = static_cast<float>(in + 1 - base) / alpha - static_cast<float>(out - 1);
    uu = u * std::min(m1, m2);
  }
  for (int64_t i = 0; i < out; i++) {
    int64_t s = (int64_t)std::ceil(alpha * (static_cast<float>(i) + uu) - 1.0f);
    int64_t e = k > 0 ? s + k : (int64_t)std::ceil(alpha * (static_cast<float>(i) + 1.0f + uu) - 1.0f);
    s = std::min(std::max<int64_t>(s, 0), in - 1);
    e = std::max(std::min(e, in), s + 1);
    w.lo[i] = s;
    w.hi[i] = e;
  }
  return w;
}

template <typename T>
void frac_impl(const Tensor& x, Tensor& o, Tensor& m, int64_t D, int64_t H, int64_t W, const Win& wd, const Win& wh, const Win& ww) {
  const int64_t N = x.shape[0], C = x.shape[1];
  const int64_t OD = (int64_t)wd.lo.size(), OH = (int64_t)wh.lo.size(), OW = (int64_t)ww.lo.size();
  const int64_t nd = x.ndim();
  const auto& xs = x.strides;
  const int64_t sd = nd == 5 ? xs[2] : 0, sh = xs[nd - 2], sw = xs[nd - 1];
  const T* X = x.data<T>();
  T* O = o.data<T>();
  int32_t* M = m.data<int32_t>();
  const int64_t plane = OD * OH * OW;
  parallel_for(N * C, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, D * H * W)), [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; nc++) {
      const T* xp = X + (nc / C) * xs[0] + (nc % C) * xs[1];
      for (int64_t pd = 0; pd < OD; pd++)
        for (int64_t ph = 0; ph < OH; ph++)
          for (int64_t pw = 0; pw < OW; pw++) {
            const int64_t d0 = wd.lo[pd], h0 = wh.lo[ph], w0 = ww.lo[pw];
            auto best = Compute<T>::load(xp[d0 * sd + h0 * sh + w0 * sw]);
            int64_t bi = (d0 * H + h0) * W + w0;
            for (int64_t d = d0; d < wd.hi[pd]; d++)
              for (int64_t h = h0; h < wh.hi[ph]; h++)
                for (int64_t w = w0; w < ww.hi[pw]; w++) {
                  const auto v = Compute<T>::load(xp[d * sd + h * sh + w * sw]);
                  if (v > best) { best = v; bi = (d * H + h) * W + w; }
                }
            const int64_t oi = nc * plane + (pd * OH + ph) * OW + pw;
            O[oi] = Compute<T>::store(best);
            M[oi] = (int32_t)bi;
          }
    }
  });
}

void k_fractional_max_pool(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(2);
  const Tensor& x = c.input(0);
  const bool three = std::string(op) == "fractional_max_pool3d";
  const int64_t nd = three ? 5 : 4;
  if (x.ndim() != nd) throw SkiffError(std::string(op) + ": input should be a " + S(nd) + "-D tensor, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  const int64_t od = c.iattr(0), oh = c.iattr(1), ow = c.iattr(2), kd = c.iattr(3), kh = c.iattr(4), kw = c.iattr(5);
  const double u = c.attr(6);
  if (!(u > 0 && u < 1)) throw SkiffError(std::string(op) + ": random_u must be in (0, 1), got " + nn::D(u));
  const int64_t D = three ? x.shape[2] : 1, H = x.shape[nd - 2], W = x.shape[nd - 1];
  const int64_t ins[3] = {D, H, W}, outs[3] = {od, oh, ow}, ks[3] = {kd, kh, kw};
  const char* names[3] = {"depth", "height", "width"};
  for (int i = three ? 0 : 1; i < 3; i++) {
    if (outs[i] <= 0) throw SkiffError(std::string(op) + ": output " + names[i] + " must be positive, got " + S(outs[i]));
    if (ks[i] < 0) throw SkiffError(std::string(op) + ": kernel " + names[i] + " must be positive, got " + S(ks[i]));
    if (ks[i] > 0 ? ins[i] < outs[i] - 1 + ks[i] : ins[i] < outs[i])
      throw SkiffError(std::string(op) + ": input " + names[i] + " " + S(ins[i]) + " is less than the valid size " +
                       S(ks[i] > 0 ? outs[i] - 1 + ks[i] : outs[i]) + " for output " + S(outs[i]) + (ks[i] > 0 ? " with kernel " + S(ks[i]) : ""));
  }
  if (!three && (od != 1 || kd != 0)) throw SkiffError(std::string(op) + ": invalid depth attributes");
  std::vector<int64_t> oshape{x.shape[0], x.shape[1]};
  if (three) oshape.push_back(od);
  oshape.push_back(oh);
  oshape.push_back(ow);
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(1, oshape);
  c.expect_out_dtype(1, DType::I32);
  if (D * H * W > INT32_MAX) throw SkiffError(std::string(op) + ": input planes of " + S(D * H * W) + " elements overflow the int32 mask");
  if (c.output(0).numel() == 0) return;
  const Win wd = windows(D, od, kd, (float)u), wh = windows(H, oh, kh, (float)u), ww = windows(W, ow, kw, (float)u);
  dispatch_float(x.dtype, op, [&](auto tag) { frac_impl<decltype(tag)>(x, c.output(0), c.output(1), D, H, W, wd, wh, ww); });
}

}  // namespace
SKIFF_KERNEL("fractional_max_pool2d", k_fractional_max_pool);
SKIFF_KERNEL("fractional_max_pool3d", k_fractional_max_pool);
}  // namespace skiff
