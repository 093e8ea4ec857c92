// float32 depthwise 3x3 (see nn_conv_dw.h). The generic depthwise loop of nn_conv.cc gathers
// stride-2 windows element by element (no SIMD) and runs the bias/activation and the copy out as
// separate passes; in MobileNetV2 these layers were ~40% of a batch-1 run. Here each task
// (a run of channels) first lays the padded input plane out so that every tap of every output
// column is a unit-stride read:
//   stride 1 (width): one padded plane, tap (i, j) of output column ow is row i, column ow + j;
//   stride 2 (width): the padded rows split into even and odd columns (E, D), so taps j = 0, 1, 2
//                     are E[ow], D[ow], E[ow + 1].
// Then every output row is one loop over ow with the 9 taps unrolled and bias + activation
// applied before the single store (same order of operations as the generic loop: bias, then the
// taps row-major by fma, then the activation). Outputs narrower than 32 sweep the padded plane
// flat (the columns between output rows, and at height stride 2 the skipped rows, are computed
// and dropped) so 7- and 14-wide rows still fill vectors. Threads take blocks of the N*C channels.
#include "nn_conv_dw.h"
#include <algorithm>
#include "kernel.h"
#include "nn_common.h"
#include "threadpool_tasks.h"

namespace skiff {
namespace {

template <int ACT>
inline float dw3_act(float v) {
  if constexpr (ACT == 1) return std::max(v, 0.f);
  else if constexpr (ACT == 2) return std::min(std::max(v, 0.f), 6.f);
  else if constexpr (ACT == 3) return v * std::min(std::max(v + 3.f, 0.f), 6.f) / 6.f;
  else return v;
}

// out[ow] = act(b + sum_k w[k] * tk[ow]) for ow < n; the taps are separate restrict pointers so
// the loop vectorizes over ow.
template <int ACT>
inline void dw3_line(const float* __restrict t0, const float* __restrict t1, const float* __restrict t2, const float* __restrict t3,
                     const float* __restrict t4, const float* __restrict t5, const float* __restrict t6, const float* __restrict t7,
                     const float* __restrict t8, const float* __restrict w, float b, int64_t n, float* __restrict out) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7], w8 = w[8];
  for (int64_t i = 0; i < n; i++) {
    float s = b;
    s = std::fma(w0, t0[i], s);
    s = std::fma(w1, t1[i], s);
    s = std::fma(w2, t2[i], s);
    s = std::fma(w3, t3[i], s);
    s = std::fma(w4, t4[i], s);
    s = std::fma(w5, t5[i], s);
    s = std::fma(w6, t6[i], s);
    s = std::fma(w7, t7[i], s);
    s = std::fma(w8, t8[i], s);
    out[i] = dw3_act<ACT>(s);
  }
}

// Short rows are copied by loops the compiler keeps inline: as memset/memcpy calls, the 7- and
// 14-wide rows of MobileNet's last stages cost more in calls than in data.
#pragma GCC push_options
#pragma GCC optimize("no-tree-loop-distribute-patterns")
// Padded input row r (r - pt is the input row) into dst[0, len): zeros outside the input.
static void padded_row(const DwConv3& a, const float* xp, int64_t r, int64_t len, float* __restrict dst) {
  const int64_t ih = r - a.pt;
  if (ih < 0 || ih >= a.H) { for (int64_t q = 0; q < len; q++) dst[q] = 0.f; return; }
  const float* __restrict xr = xp + ih * a.xh;
  const int64_t c0 = std::min(a.pl, len), c1 = std::min(len, a.pl + a.W);
  for (int64_t q = 0; q < c0; q++) dst[q] = 0.f;
  if (a.xw == 1) for (int64_t q = c0; q < c1; q++) dst[q] = xr[q - a.pl];
  else for (int64_t q = c0; q < c1; q++) dst[q] = xr[(q - a.pl) * a.xw];
  for (int64_t q = std::max(c0, c1); q < len; q++) dst[q] = 0.f;
}

static void copy_row(const float* __restrict src, int64_t n, float* __restrict dst) {
  for (int64_t i = 0; i < n; i++) dst[i] = src[i];
}
#pragma GCC pop_options

template <int ACT>
void run(const DwConv3& a, const float* X, const float* Wt, const float* bias, float* O) {
  const int64_t hp = (a.OH - 1) * a.sh + 3;           // padded rows the windows touch
  const bool s2 = a.sw == 2;
  const int64_t pitch = s2 ? a.OW + 1 : a.OW + 2;      // one plane row (E and D rows for stride 2)
  // Narrow outputs: one flat sweep, output row oh at flat offset oh * sh * pitch.
  const bool flat = a.OW < 32;
  const int64_t rstep = a.sh * pitch;
  const int64_t n_flat = (a.OH - 1) * rstep + a.OW;
  const size_t plane = (size_t)(hp * pitch);
  const size_t need = (s2 ? 2 * plane + 2 * (size_t)pitch : plane) + (flat ? (size_t)n_flat : 0);
  const int64_t P = a.OH * a.OW;
  // Channel blocks of >= 64K multiply-adds (less does not pay for a wake-up), at most 8 per
  // thread, claimed dynamically (threadpool_tasks.h) so a thread that ran late does not hold
  // the layer up; each channel's result does not depend on its block.
  const int64_t nc_all = a.N * a.C, grain = std::max<int64_t>(1, 65536 / std::max<int64_t>(1, P * 9));
  const int64_t nblk = std::min<int64_t>((nc_all + grain - 1) / grain, 8 * (int64_t)num_threads());
  const int64_t per = (nc_all + nblk - 1) / nblk;
  auto channels = [&](int64_t b, int64_t e) {
    float* buf = nn::scratch<float>(2, need);
    float* E = buf;                                    // stride 1: the padded plane
    float* D = s2 ? buf + plane : nullptr;
    float* tmp = s2 ? buf + 2 * plane : nullptr;       // one padded row before the even/odd split
    float* rowbuf = flat ? buf + (s2 ? 2 * plane + 2 * (size_t)pitch : plane) : nullptr;
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / a.C, ch = nc % a.C;
      const float* xp = X + n * a.xn + ch * a.xc;
      if (!s2) {
        for (int64_t r = 0; r < hp; r++) padded_row(a, xp, r, pitch, E + r * pitch);
      } else {
        for (int64_t r = 0; r < hp; r++) {
          padded_row(a, xp, r, 2 * pitch, tmp);
          float* er = E + r * pitch;
          float* dr = D + r * pitch;
          for (int64_t q = 0; q < pitch; q++) { er[q] = tmp[2 * q]; dr[q] = tmp[2 * q + 1]; }
        }
      }
      const float* w = Wt + ch * 9;
      const float bv = bias ? bias[ch] : 0.f;
      float* on = O + nc * P;
      if (flat) {
        const int64_t p = pitch;
        if (!s2) dw3_line<ACT>(E, E + 1, E + 2, E + p, E + p + 1, E + p + 2, E + 2 * p, E + 2 * p + 1, E + 2 * p + 2, w, bv, n_flat, rowbuf);
        else dw3_line<ACT>(E, D, E + 1, E + p, D + p, E + p + 1, E + 2 * p, D + 2 * p, E + 2 * p + 1, w, bv, n_flat, rowbuf);
        for (int64_t oh = 0; oh < a.OH; oh++) copy_row(rowbuf + oh * rstep, a.OW, on + oh * a.OW);
        continue;
      }
      for (int64_t oh = 0; oh < a.OH; oh++) {
        const int64_t r = oh * a.sh;
        float* out = on + oh * a.OW;
        if (!s2) {
          const float* p0 = E + r * pitch;
          const float* p1 = p0 + pitch;
          const float* p2 = p1 + pitch;
          dw3_line<ACT>(p0, p0 + 1, p0 + 2, p1, p1 + 1, p1 + 2, p2, p2 + 1, p2 + 2, w, bv, a.OW, out);
        } else {
          const float* e0 = E + r * pitch;
          const float* d0 = D + r * pitch;
          dw3_line<ACT>(e0, d0, e0 + 1, e0 + pitch, d0 + pitch, e0 + pitch + 1, e0 + 2 * pitch, d0 + 2 * pitch, e0 + 2 * pitch + 1, w, bv,
                        a.OW, out);
        }
      }
    }
  };
  parallel_tasks(nblk, [&](int64_t i) { channels(i * per, std::min(nc_all, (i + 1) * per)); });
}

}  // namespace

void depthwise3x3_f32(const DwConv3& a, const float* X, const float* Wt, const float* bias, float* O) {
  if (a.N * a.C * a.OH * a.OW == 0) return;
  switch (a.act) {
    case 1: return run<1>(a, X, Wt, bias, O);
    case 2: return run<2>(a, X, Wt, bias, O);
    case 3: return run<3>(a, X, Wt, bias, O);
    default: return run<0>(a, X, Wt, bias, O);
  }
}

}  // namespace skiff
