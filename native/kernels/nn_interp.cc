// interpolate / upsample over 1-3 spatial dims, as Paddle's {nearest,linear,bilinear,trilinear,
// bicubic}_interp kernels compute it (plus 'area', which is adaptive average pooling).
// attrs [nd, mode (0 nearest, 1 linear, 2 cubic, 3 area), align_corners, align_mode, channelLast,
//        scale0, scale1, scale2] (scales right-aligned; <= 0: none). The output size comes from
// the allocated output (infer resolved size / scale_factor).
//
// Every mode is separable, so each output dim gets a table of taps (input index, weight); an
// output value is the sum over the tap grid of w0 * w1 * w2 * x. Ratios follow Paddle: float32,
// 0 for an output of size 1, (in - 1) / (out - 1) with align_corners, else 1 / scale when a
// scale was given, else in / out.
//
// interpolate_grad (the backward): input out_grad, output x_grad with the forward input's shape,
// the same attrs. Every output gradient is scattered to the taps its value was read from, with
// the same weights; one [N, C] plane per task, accumulated in the compute type (no write races).
#include <algorithm>
#include <cmath>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct Taps {
  int64_t n = 1;             // taps per output position
  std::vector<int64_t> idx;  // [out * n]
  std::vector<double> w;
};

float ratio_of(int64_t in, int64_t out, bool align_corners, float scale) {
  if (out <= 1) return 0.f;
  if (align_corners) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return scale > 0 ? static_cast<float>(1. / scale) : static_cast<float>(in) / static_cast<float>(out);
}

double cubic1(double x, double A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
double cubic2(double x, double A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }

Taps make_taps(int mode, int64_t in, int64_t out, bool align_corners, int align_mode, float scale) {
  Taps t;
  const float ratio = ratio_of(in, out, align_corners, scale);
  // Source positions must stay representable (a tiny scale_factor gives a huge ratio).
  if (!std::isfinite(ratio) || (double)ratio * (double)out > 1e15)
    throw SkiffError("interpolate: scale ratio " + nn::D(ratio) + " is out of range for input size " + S(in) + " and output size " + S(out));
  if (mode == 0) {
    t.n = 1;
    for (int64_t o = 0; o < out; o++) {
      const int64_t i = align_corners ? static_cast<int64_t>(ratio * o + 0.5) : static_cast<int64_t>(ratio * o);
      t.idx.push_back(std::max<int64_t>(0, std::min(i, in - 1)));
      t.w.push_back(1);
    }
  } else if (mode == 1) {
    t.n = 2;
    const bool align_flag = align_mode == 0 && !align_corners;
    for (int64_t o = 0; o < out; o++) {
      int64_t i = align_flag ? static_cast<int64_t>(ratio * (o + 0.5) - 0.5) : static_cast<int64_t>(ratio * o);
      i = std::min(std::max<int64_t>(i, 0), in - 1);
      const int64_t e = i < in - 1 ? 1 : 0;
      float src = static_cast<float>(ratio * (o + 0.5) - 0.5);
      src = src > 0 ? src : 0;
      const float d = align_flag ? src - i : static_cast<float>(ratio * o - i);
      t.idx.push_back(i); t.w.push_back(1.0 - d);
      t.idx.push_back(i + e); t.w.push_back(d);
    }
  } else if (mode == 2) {
    t.n = 4;
    const double A = -0.75;
    for (int64_t o = 0; o < out; o++) {
      const double src = align_corners ? (double)ratio * o : (double)ratio * (o + 0.5) - 0.5;
      const int64_t i = (int64_t)std::floor(src);
      const double x = src - i;
      const double c[4] = {cubic2(x + 1.0, A), cubic1(x, A), cubic1(1.0 - x, A), cubic2(2.0 - x, A)};
      for (int k = 0; k < 4; k++) {
        t.idx.push_back(std::max<int64_t>(std::min<int64_t>(i - 1 + k, in - 1), 0));
        t.w.push_back(c[k]);
      }
    }
  } else {  // area: adaptive average windows, padded with zero-weight taps
    int64_t mx = 1;
    for (int64_t o = 0; o < out; o++) mx = std::max(mx, ((o + 1) * in + out - 1) / out - (o * in) / out);
    t.n = mx;
    for (int64_t o = 0; o < out; o++) {
      const int64_t lo = (o * in) / out, hi = ((o + 1) * in + out - 1) / out;
      for (int64_t k = 0; k < mx; k++) {
        t.idx.push_back(lo + k < hi ? lo + k : lo);
        t.w.push_back(lo + k < hi ? 1.0 / (double)(hi - lo) : 0.0);
      }
    }
  }
  return t;
}

template <typename T>
void interp_impl(int64_t N, int64_t C, const int64_t* out, const Taps* tp, const Tensor& x, int64_t xs_n, int64_t xs_c,
                 const int64_t* xs, bool channel_last, Tensor& o) {
  using A = compute_t<T>;
  const T* X = x.data<T>();
  T* O = o.data<T>();
  const int64_t P = out[0] * out[1] * out[2];
  const int64_t n0 = tp[0].n, n1 = tp[1].n, n2 = tp[2].n, taps = n0 * n1 * n2;
  // Element offsets (index * stride) and weights in the compute type, once per call.
  std::vector<int64_t> off[3];
  std::vector<A> w[3];
  for (int i = 0; i < 3; i++) {
    off[i].resize(tp[i].idx.size());
    w[i].resize(tp[i].w.size());
    for (size_t k = 0; k < off[i].size(); k++) { off[i][k] = tp[i].idx[k] * xs[i]; w[i][k] = (A)tp[i].w[k]; }
  }
  parallel_for(N * C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, P * taps)), [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / C, ch = nc % C;
      const T* xp = X + n * xs_n + ch * xs_c;
      int64_t p = 0;
      for (int64_t o0 = 0; o0 < out[0]; o0++)
        for (int64_t o1 = 0; o1 < out[1]; o1++) {
          const int64_t* f0 = off[0].data() + o0 * n0;
          const int64_t* f1 = off[1].data() + o1 * n1;
          const A* g0 = w[0].data() + o0 * n0;
          const A* g1 = w[1].data() + o1 * n1;
          for (int64_t o2 = 0; o2 < out[2]; o2++, p++) {
            const int64_t* f2 = off[2].data() + o2 * n2;
            const A* g2 = w[2].data() + o2 * n2;
            A acc = 0;
            for (int64_t a0 = 0; a0 < n0; a0++)
              for (int64_t a1 = 0; a1 < n1; a1++) {
                const T* row = xp + f0[a0] + f1[a1];
                A r = 0;
                for (int64_t a2 = 0; a2 < n2; a2++) r += g2[a2] * Compute<T>::load(row[f2[a2]]);
                acc += g0[a0] * g1[a1] * r;
              }
            O[channel_last ? (n * P + p) * C + ch : nc * P + p] = Compute<T>::store(acc);
          }
        }
    }
  });
}

// The attribute head both directions share (forward and interpolate_grad must decode and
// check it identically, or a gradient would be taken with different taps than the forward).
struct InterpAttrs {
  int nd, mode, align_mode;
  bool align_corners, cl;
};

InterpAttrs interp_attrs(const KernelCall& c) {
  InterpAttrs a;
  a.nd = (int)c.iattr(0);
  a.mode = (int)c.iattr(1);
  a.align_corners = c.iattr(2) != 0;
  a.align_mode = (int)c.iattr(3);
  a.cl = c.iattr(4) != 0;
  const std::string op = c.op;
  if (a.nd < 1 || a.nd > 3) throw SkiffError(op + ": invalid spatial rank " + S(a.nd));
  if (a.mode < 0 || a.mode > 3) throw SkiffError(op + ": invalid mode code " + S(a.mode));
  if (a.align_mode != 0 && a.align_mode != 1) throw SkiffError(op + ": align_mode can only be 0 or 1, got " + S(a.align_mode));
  return a;
}

// Tap tables of the 3 right-aligned spatial dims (the unused leading ones are a single tap).
void all_taps(const KernelCall& c, const InterpAttrs& a, const int64_t in[3], const int64_t out[3], Taps tp[3]) {
  for (int i = 3 - a.nd; i < 3; i++) tp[i] = make_taps(a.mode, in[i], out[i], a.align_corners, a.align_mode, (float)c.attr(5 + i));
  for (int i = 0; i < 3 - a.nd; i++) { tp[i].idx = {0}; tp[i].w = {1}; }
}

void k_interp(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(1);
  const InterpAttrs a = interp_attrs(c);
  const int nd = a.nd;
  const bool cl = a.cl;
  const Tensor& x = c.input(0);
  Tensor& o = c.output(0);
  if (x.ndim() != nd + 2) throw SkiffError(std::string(op) + ": input should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (o.ndim() != nd + 2) throw SkiffError(std::string(op) + ": output rank " + S(o.ndim()) + " does not match input " + shape_str(x.shape));
  const int64_t N = x.shape[0], C = cl ? x.shape[nd + 1] : x.shape[1];
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, xs[3] = {0, 0, 0};
  std::vector<int64_t> oshape{N};
  if (!cl) oshape.push_back(C);
  for (int j = 0; j < nd; j++) {
    const int i = 3 - nd + j, xd = cl ? 1 + j : 2 + j;
    in[i] = x.shape[xd]; xs[i] = x.strides[xd]; out[i] = o.shape[xd];
    if (out[i] <= 0) throw SkiffError(std::string(op) + ": output size must be positive, got output " + shape_str(o.shape));
    oshape.push_back(out[i]);
  }
  if (cl) oshape.push_back(C);
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, x.dtype);
  if (o.numel() == 0) return;
  for (int i = 0; i < 3; i++)
    if (in[i] <= 0) throw SkiffError(std::string(op) + ": input spatial size must be positive, got " + shape_str(x.shape));
  Taps tp[3];
  all_taps(c, a, in, out, tp);
  const int64_t xs_n = x.strides[0], xs_c = cl ? x.strides[nd + 1] : x.strides[1];
  dispatch_float(x.dtype, op, [&](auto tag) { interp_impl<decltype(tag)>(N, C, out, tp, x, xs_n, xs_c, xs, cl, o); });
}

template <typename T>
void interp_grad_impl(int64_t N, int64_t C, const int64_t* in, const int64_t* out, const Taps* tp, const Tensor& gd, bool channel_last, Tensor& dx) {
  using A = compute_t<T>;
  const T* G = gd.data<T>();
  T* DX = dx.data<T>();
  const int64_t P = out[0] * out[1] * out[2], Q = in[0] * in[1] * in[2];
  const int64_t n0 = tp[0].n, n1 = tp[1].n, n2 = tp[2].n, taps = n0 * n1 * n2;
  // Plane offsets (index * row size) and weights in the compute type, once per call.
  const int64_t plane_stride[3] = {in[1] * in[2], in[2], 1};
  std::vector<int64_t> off[3];
  std::vector<A> w[3];
  for (int i = 0; i < 3; i++) {
    off[i].resize(tp[i].idx.size());
    w[i].resize(tp[i].w.size());
    for (size_t k = 0; k < off[i].size(); k++) { off[i][k] = tp[i].idx[k] * plane_stride[i]; w[i][k] = (A)tp[i].w[k]; }
  }
  parallel_for(N * C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, P * taps + Q)), [&](int64_t b, int64_t e) {
    A* acc = nn::scratch<A>(0, (size_t)Q);
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / C, ch = nc % C;
      for (int64_t q = 0; q < Q; q++) acc[q] = 0;
      int64_t p = 0;
      for (int64_t o0 = 0; o0 < out[0]; o0++)
        for (int64_t o1 = 0; o1 < out[1]; o1++) {
          const int64_t* f0 = off[0].data() + o0 * n0;
          const int64_t* f1 = off[1].data() + o1 * n1;
          const A* g0 = w[0].data() + o0 * n0;
          const A* g1 = w[1].data() + o1 * n1;
          for (int64_t o2 = 0; o2 < out[2]; o2++, p++) {
            const int64_t* f2 = off[2].data() + o2 * n2;
            const A* g2 = w[2].data() + o2 * n2;
            const A gv = Compute<T>::load(G[channel_last ? (n * P + p) * C + ch : nc * P + p]);
            for (int64_t a0 = 0; a0 < n0; a0++)
              for (int64_t a1 = 0; a1 < n1; a1++) {
                A* row = acc + f0[a0] + f1[a1];
                const A s = gv * g0[a0] * g1[a1];
                for (int64_t a2 = 0; a2 < n2; a2++) row[f2[a2]] += s * g2[a2];
              }
          }
        }
      if (channel_last) for (int64_t q = 0; q < Q; q++) DX[(n * Q + q) * C + ch] = Compute<T>::store(acc[q]);
      else for (int64_t q = 0; q < Q; q++) DX[nc * Q + q] = Compute<T>::store(acc[q]);
    }
  });
}

void k_interp_grad(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(1);
  const InterpAttrs a = interp_attrs(c);
  const int nd = a.nd;
  const bool cl = a.cl;
  const Tensor& g = c.input(0);
  Tensor& dx = c.output(0);
  if (g.ndim() != nd + 2) throw SkiffError(std::string(op) + ": out_grad should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(g.shape));
  if (dx.ndim() != nd + 2) throw SkiffError(std::string(op) + ": x_grad should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(dx.shape));
  if (!is_floating(g.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(g.dtype));
  c.expect_out_dtype(0, g.dtype);
  const int64_t N = dx.shape[0], C = cl ? dx.shape[nd + 1] : dx.shape[1];
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  std::vector<int64_t> gshape{N};
  if (!cl) gshape.push_back(C);
  for (int j = 0; j < nd; j++) {
    const int i = 3 - nd + j, xd = cl ? 1 + j : 2 + j;
    in[i] = dx.shape[xd]; out[i] = g.shape[xd];
    if (out[i] <= 0) throw SkiffError(std::string(op) + ": output size must be positive, got out_grad " + shape_str(g.shape));
    gshape.push_back(out[i]);
  }
  if (cl) gshape.push_back(C);
  if (gshape != g.shape) throw SkiffError(std::string(op) + ": out_grad shape " + shape_str(g.shape) + " does not match x_grad " + shape_str(dx.shape));
  if (dx.numel() == 0) return;
  for (int i = 0; i < 3; i++)
    if (in[i] <= 0) throw SkiffError(std::string(op) + ": input spatial size must be positive, got x_grad " + shape_str(dx.shape));
  Taps tp[3];
  all_taps(c, a, in, out, tp);
  const Tensor& gd = c.dense(0);
  dispatch_float(g.dtype, op, [&](auto tag) { interp_grad_impl<decltype(tag)>(N, C, in, out, tp, gd, cl, dx); });
}

}  // namespace
SKIFF_KERNEL("interpolate", k_interp);
SKIFF_KERNEL("interpolate_grad", k_interp_grad);
}  // namespace skiff
