// conv2d: inputs x [N, C, H, W] (or NHWC), weight [Cout, C/groups, kh, kw], optional bias [Cout].
// attrs [sh, sw, dh, dw, groups, padAlgo (0 explicit, 1 SAME, 2 VALID), pt, pb, pl, pr, channelLast, hasBias].
//
// Per image and group: im2col gathers the receptive fields into cols [K = Cg*kh*kw, P = OH*OW]
// (in row blocks so cols stays a few MB), then one GEMM: out_g [Og, P] = W_g [Og, K] * cols.
// NHWC gathers cols as [P, K] with K ordered (kh, kw, Cg) so every tap copies a run of
// channels, reorders the weights to match, and writes out [P, Cout] directly (the GEMM takes
// any operand strides). 1x1 / stride 1 / no padding convolutions skip im2col: the input plane
// already is cols. Depthwise convolutions (one input channel per group) run a direct loop;
// float32 NCHW 3x3 ones with stride 1/2 and no dilation take nn_conv_dw.cc instead.
// Batches that split evenly over the threads run whole images per thread with single-threaded
// GEMMs; otherwise images run in turn and the gather and each GEMM use the whole pool.
// float16/bfloat16 gather into float32 cols, multiply in float32 and round on store.
// float32 NCHW without groups takes conv_f32_implicit instead (blocks of output rows as tasks,
// the weight packed once, cols gathered per block in L2; see there). The rest is the general path.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "../gemm/gemm.h"
#include "../gemm/gemm_panel.h"
#include "const_cache.h"
#include "conv_tasks.h"
#include "kernel.h"
#include "nn_common.h"
#include "nn_conv_dw.h"
#include "nn_conv_1x1.h"
#include "nn_conv_winograd.h"
#include "threadpool_tasks.h"

namespace skiff {
namespace {

using nn::S;

struct Conv {
  int64_t N, C, H, W, Cout, Cg, Og, kh, kw, OH, OW, K, P;
  int64_t sh, sw, dh, dw, pt, pl, groups;
  bool channel_last;
  int act;  // fused_conv2d_add_act's epilogue activation (ConvAct); plain conv2d: kNone
};

// Activations fused_conv2d_add_act applies in the output epilogue (codes from
// src/ops/defs/fused_conv.ts). Same formulas, in the same order, as the eager unary kernels, so
// the fused op is bit-identical to conv2d followed by the activation.
enum ConvAct { kNone = 0, kRelu = 1, kRelu6 = 2, kHardswish = 3 };

template <typename A>
inline A conv_act(A v, int act) {
  switch (act) {
    case kRelu: return std::max(v, A(0));
    case kRelu6: return std::min(std::max(v, A(0)), A(6));
    case kHardswish: return v * std::min(std::max(v + A(3), A(0)), A(6)) / A(6);
    default: return v;
  }
}

// r[i] = act(r[i] + b) over one output row still in cache; the switch is outside the loops so
// each case vectorizes.
template <typename A>
inline void bias_act_row(A* __restrict r, int64_t n, A b, int act) {
  switch (act) {
    case kRelu: for (int64_t i = 0; i < n; i++) r[i] = std::max(r[i] + b, A(0)); break;
    case kRelu6: for (int64_t i = 0; i < n; i++) r[i] = std::min(std::max(r[i] + b, A(0)), A(6)); break;
    case kHardswish: for (int64_t i = 0; i < n; i++) r[i] = conv_act(r[i] + b, kHardswish); break;
    default: for (int64_t i = 0; i < n; i++) r[i] += b;
  }
}

// r[i] = act(r[i] + res[i]): fused_conv2d_add_act's residual, added to the conv's output (bias
// included) as add(conv, residual) and then the activation compute it, so the fusion is
// bit-identical to the unfused ops.
template <typename A>
inline void res_act_row(A* __restrict r, const A* __restrict res, int64_t n, int act) {
  switch (act) {
    case kRelu: for (int64_t i = 0; i < n; i++) r[i] = std::max(r[i] + res[i], A(0)); break;
    case kRelu6: for (int64_t i = 0; i < n; i++) r[i] = std::min(std::max(r[i] + res[i], A(0)), A(6)); break;
    case kHardswish: for (int64_t i = 0; i < n; i++) r[i] = conv_act(r[i] + res[i], kHardswish); break;
    default: for (int64_t i = 0; i < n; i++) r[i] += res[i];
  }
}

// [lo, hi): the output columns ow whose input column ow * sw + wofs lies in [0, W).
inline void valid_cols(const Conv& a, int64_t wofs, int64_t& lo, int64_t& hi) {
  lo = wofs >= 0 ? 0 : std::min(a.OW, (-wofs + a.sw - 1) / a.sw);
  hi = std::max(lo, std::min(a.OW, a.W - 1 - wofs >= 0 ? (a.W - 1 - wofs) / a.sw + 1 : 0));
}

// NCHW layout: cols[k][p], k = (ci, i, j), p over output rows [oh0, oh1); xg is the group's first channel.
template <typename T, typename A>
void im2col(const Conv& a, const T* xg, const nn::Strides4& xs, int64_t oh0, int64_t oh1, A* cols, int64_t ci0, int64_t ci1) {
  const int64_t pc = (oh1 - oh0) * a.OW;
  for (int64_t ci = ci0; ci < ci1; ci++) {
    const T* xc = xg + ci * xs.c;
    for (int64_t i = 0; i < a.kh; i++) {
      for (int64_t j = 0; j < a.kw; j++) {
        A* row = cols + ((ci * a.kh + i) * a.kw + j) * pc;
        const int64_t wofs = j * a.dw - a.pl;
        int64_t lo, hi;
        valid_cols(a, wofs, lo, hi);
        for (int64_t oh = oh0; oh < oh1; oh++) {
          A* r = row + (oh - oh0) * a.OW;
          const int64_t ih = oh * a.sh - a.pt + i * a.dh;
          if (ih < 0 || ih >= a.H) { std::memset((void*)r, 0, sizeof(A) * a.OW); continue; }
          const T* xr = xc + ih * xs.h;
          for (int64_t ow = 0; ow < lo; ow++) r[ow] = A(0);
          if (a.sw == 1 && xs.w == 1) {
            const T* src = xr + wofs;
            for (int64_t ow = lo; ow < hi; ow++) r[ow] = Compute<T>::load(src[ow]);
          } else {
            for (int64_t ow = lo; ow < hi; ow++) r[ow] = Compute<T>::load(xr[(ow * a.sw + wofs) * xs.w]);
          }
          for (int64_t ow = hi; ow < a.OW; ow++) r[ow] = A(0);
        }
      }
    }
  }
}

// NHWC layout: cols[p][k], k = (i, j, ci), so each tap copies a run of channels (contiguous in NHWC).
template <typename T, typename A>
void im2col_nhwc(const Conv& a, const T* xg, const nn::Strides4& xs, int64_t oh0, int64_t oh1, A* cols) {
  for (int64_t oh = oh0; oh < oh1; oh++)
    for (int64_t ow = 0; ow < a.OW; ow++) {
      A* dst = cols + ((oh - oh0) * a.OW + ow) * a.K;
      for (int64_t i = 0; i < a.kh; i++) {
        const int64_t ih = oh * a.sh - a.pt + i * a.dh;
        for (int64_t j = 0; j < a.kw; j++, dst += a.Cg) {
          const int64_t iw = ow * a.sw - a.pl + j * a.dw;
          if (ih < 0 || ih >= a.H || iw < 0 || iw >= a.W) { std::memset((void*)dst, 0, sizeof(A) * a.Cg); continue; }
          const T* src = xg + ih * xs.h + iw * xs.w;
          if (xs.c == 1) for (int64_t ci = 0; ci < a.Cg; ci++) dst[ci] = Compute<T>::load(src[ci]);
          else for (int64_t ci = 0; ci < a.Cg; ci++) dst[ci] = Compute<T>::load(src[ci * xs.c]);
        }
      }
    }
}

// Depthwise (one input channel per output channel): a direct sliding window per output plane;
// as GEMMs these would be Og x K = 1 x 9 products that cannot use the packed kernel.
// Each task copies its input plane once into a zero-padded compute-type buffer, so the window
// loop has no bounds tests; then every output row is one loop over ow with the taps inside it.
// For the common 3x3 and 5x5 kernels the tap count is a template constant, so the taps unroll
// and the ow loop vectorizes (SIMD over the output width, one fma per tap).
template <int KH, int KW, typename A>
inline void dw_row(const A* __restrict pp, int64_t wp, const A* __restrict w, A b, int64_t sw, int64_t dh, int64_t dw, int64_t ow_n,
                   A* __restrict out) {
  if (sw == 1) {
    for (int64_t ow = 0; ow < ow_n; ow++) {
      A s = b;
      for (int i = 0; i < KH; i++)
        for (int j = 0; j < KW; j++) s = std::fma(w[i * KW + j], pp[i * dh * wp + ow + j * dw], s);
      out[ow] = s;
    }
  } else {
    for (int64_t ow = 0; ow < ow_n; ow++) {
      A s = b;
      for (int i = 0; i < KH; i++)
        for (int j = 0; j < KW; j++) s = std::fma(w[i * KW + j], pp[i * dh * wp + ow * sw + j * dw], s);
      out[ow] = s;
    }
  }
}

template <typename A>
inline void dw_row_any(const A* __restrict pp, int64_t wp, const A* __restrict w, A b, int64_t kh, int64_t kw, int64_t sw, int64_t dh,
                       int64_t dw, int64_t ow_n, A* __restrict out) {
  for (int64_t ow = 0; ow < ow_n; ow++) out[ow] = b;
  for (int64_t i = 0; i < kh; i++)
    for (int64_t j = 0; j < kw; j++) {
      const A wv = w[i * kw + j];
      const A* src = pp + i * dh * wp + j * dw;
      if (sw == 1) for (int64_t ow = 0; ow < ow_n; ow++) out[ow] = std::fma(wv, src[ow], out[ow]);
      else for (int64_t ow = 0; ow < ow_n; ow++) out[ow] = std::fma(wv, src[ow * sw], out[ow]);
    }
}

template <typename T, typename A>
void depthwise(const Conv& a, const T* X, const nn::Strides4& xs, const A* Wt, const A* bias, T* O) {
  const int64_t taps = a.kh * a.kw;
  // Padded plane: every window of every output position lies inside it.
  const int64_t hp = std::max(a.H + a.pt, (a.OH - 1) * a.sh + (a.kh - 1) * a.dh + 1);
  const int64_t wp = std::max(a.W + a.pl, (a.OW - 1) * a.sw + (a.kw - 1) * a.dw + 1);
  constexpr bool direct = std::is_same_v<T, A>;
  parallel_for(a.N * a.Cout, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, a.P * taps)), [&](int64_t b, int64_t e) {
    A* pp = nn::scratch<A>(2, (size_t)(hp * wp));
    // Stride 1: the output plane is one flat sweep p = oh * wp + ow over the padded plane (the
    // wp - OW columns between rows are computed and dropped), so small widths still fill whole
    // vectors; the sweep stops at the last valid column, so reads stay inside the plane.
    const bool flat = a.sh == 1 && a.sw == 1;
    A* rowbuf = nn::scratch<A>(3, (size_t)(flat ? a.OH * wp : a.OW));
    int64_t loaded = -1;  // the (n, input channel) now in pp: channel multipliers reuse it
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / a.Cout, co = nc % a.Cout, ci = co / a.Og;
      if (loaded != n * a.C + ci) {
        loaded = n * a.C + ci;
        const T* xp = X + n * xs.n + ci * xs.c;
        for (int64_t r = 0; r < hp; r++) {
          A* dst = pp + r * wp;
          const int64_t ih = r - a.pt;
          if (ih < 0 || ih >= a.H) { for (int64_t q = 0; q < wp; q++) dst[q] = A(0); continue; }
          const T* xr = xp + ih * xs.h;
          const int64_t w1 = std::min(wp, a.pl + a.W);
          for (int64_t q = 0; q < a.pl; q++) dst[q] = A(0);
          if (xs.w == 1) for (int64_t q = a.pl; q < w1; q++) dst[q] = Compute<T>::load(xr[q - a.pl]);
          else for (int64_t q = a.pl; q < w1; q++) dst[q] = Compute<T>::load(xr[(q - a.pl) * xs.w]);
          for (int64_t q = w1; q < wp; q++) dst[q] = A(0);
        }
      }
      const A* w = Wt + co * taps;
      const A bv = bias ? bias[co] : A(0);
      if (flat) {
        const int64_t n_flat = (a.OH - 1) * wp + a.OW;
        if (a.kh == 3 && a.kw == 3) dw_row<3, 3, A>(pp, wp, w, bv, 1, a.dh, a.dw, n_flat, rowbuf);
        else if (a.kh == 5 && a.kw == 5) dw_row<5, 5, A>(pp, wp, w, bv, 1, a.dh, a.dw, n_flat, rowbuf);
        else dw_row_any<A>(pp, wp, w, bv, a.kh, a.kw, 1, a.dh, a.dw, n_flat, rowbuf);
        if (a.act != kNone) bias_act_row<A>(rowbuf, n_flat, A(0), a.act);
        for (int64_t oh = 0; oh < a.OH; oh++) {
          const A* src = rowbuf + oh * wp;
          if (a.channel_last) for (int64_t ow = 0; ow < a.OW; ow++) O[((n * a.OH + oh) * a.OW + ow) * a.Cout + co] = Compute<T>::store(src[ow]);
          else {
            T* dst = O + ((n * a.Cout + co) * a.OH + oh) * a.OW;
            for (int64_t ow = 0; ow < a.OW; ow++) dst[ow] = Compute<T>::store(src[ow]);
          }
        }
        continue;
      }
      for (int64_t oh = 0; oh < a.OH; oh++) {
        const A* prow = pp + oh * a.sh * wp;
        A* out = rowbuf;
        if constexpr (direct) if (!a.channel_last) out = O + ((n * a.Cout + co) * a.OH + oh) * a.OW;
        if (a.kh == 3 && a.kw == 3) dw_row<3, 3, A>(prow, wp, w, bv, a.sw, a.dh, a.dw, a.OW, out);
        else if (a.kh == 5 && a.kw == 5) dw_row<5, 5, A>(prow, wp, w, bv, a.sw, a.dh, a.dw, a.OW, out);
        else dw_row_any<A>(prow, wp, w, bv, a.kh, a.kw, a.sw, a.dh, a.dw, a.OW, out);
        if (a.act != kNone) bias_act_row<A>(out, a.OW, A(0), a.act);
        if (out != rowbuf) continue;
        if (a.channel_last) for (int64_t ow = 0; ow < a.OW; ow++) O[((n * a.OH + oh) * a.OW + ow) * a.Cout + co] = Compute<T>::store(rowbuf[ow]);
        else for (int64_t ow = 0; ow < a.OW; ow++) O[((n * a.Cout + co) * a.OH + oh) * a.OW + ow] = Compute<T>::store(rowbuf[ow]);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------
// float32 NCHW, groups == 1: out[n] [Cout, P] = W [Cout, K] * cols [K, P] as a blocked GEMM
// whose tasks are (image, block of output rows, part of the output channels). Why not im2col +
// gemm(): that writes cols for up to 1M elements at once (4 MB: it leaves L2 and is read back
// from memory to be packed), packs the weight again on every call, and at batch 1 splits only
// inside each GEMM, where a 64-row weight leaves a thread waiting. Here each task gathers the
// cols block of its rows into L2-sized scratch (or reads the input in place for 1x1, or - stride
// 1 - reads shifted windows of a padded copy of its input rows instead of im2col's kh*kw copies),
// packs B panels from it with the GEMM's own layout and micro-kernel (gemm_panel.h), and applies
// bias and activation while the block is in cache. The weight is packed once per call, or once
// per process for a constant weight of an inference program (const_cache.h). Same KC blocking,
// k order and micro-kernel as gemm(), so the same sums in the same order.
// ---------------------------------------------------------------------------------------

// A weight packed for gemm_f32_panel: k blocks of KC rows, each ceil(Cout / MR) panels.
struct PackedConvW {
  int64_t cout = 0, k = 0, mp = 0;
  std::vector<float> a;
};

void pack_conv_w(const float* W, int64_t cout, int64_t k, PackedConvW& pw) {
  const GemmTiles t = gemm_f32_tiles();
  pw.cout = cout; pw.k = k; pw.mp = (cout + t.mr - 1) / t.mr * t.mr;
  pw.a.resize((size_t)(pw.mp * k));
  float* dst = pw.a.data();
  const int64_t nkb = (k + t.kc - 1) / t.kc;
  parallel_for(nkb, std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(1, cout * t.kc)), [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      const int64_t pc = q * t.kc;
      gemm_f32_pack_a(cout, std::min<int64_t>(t.kc, k - pc), W + pc, k, 1, dst + pc * pw.mp);
    }
  });
}

// How a task gets its B operand (the cols matrix of its output rows).
enum class ColsMode {
  kInPlace,  // 1x1 / stride 1 / unpadded: the input plane is cols
  kShifted,  // stride 1: cols rows are shifted windows of a zero-padded copy of the input rows
  kIm2col,   // anything else: im2col into scratch
};

struct ConvPlan {
  ColsMode mode;
  int64_t rows;               // output rows per task
  int64_t wp, prow;           // kShifted: padded row width, padded rows per task
  std::vector<int64_t> koff;  // kShifted: offset of cols row k in the padded block
};

// kShifted: output position (oh, ow) of the task is column (oh - oh0) * wp + ow of a wrapped
// grid as wide as the padded rows, so cols row k = (ci, i, j) is the padded block read from
// koff[k] = ci * plane + i * dh * wp + j * dw on: each B panel row is one contiguous copy, and the
// block is ~1.5x the input rows instead of im2col's kh*kw copies. The wp - OW wrapped columns per
// row are computed and dropped (only used where that is at most 1/8 of the work).
void pad_rows(const Conv& a, const float* xn, const nn::Strides4& xs, const ConvPlan& cp, int64_t oh0, int64_t oh1, float* xp) {
  const int64_t nrows = (oh1 - oh0) + (a.kh - 1) * a.dh, plane = cp.prow * cp.wp;
  const int64_t w1 = std::min(cp.wp, a.pl + a.W);
  for (int64_t ci = 0; ci < a.C; ci++)
    for (int64_t r = 0; r < nrows; r++) {
      float* d = xp + ci * plane + r * cp.wp;
      const int64_t ih = oh0 + r - a.pt;
      if (ih < 0 || ih >= a.H) { std::memset((void*)d, 0, sizeof(float) * (size_t)cp.wp); continue; }
      const float* xr = xn + ci * xs.c + ih * xs.h;
      for (int64_t q = 0; q < std::min(a.pl, cp.wp); q++) d[q] = 0.f;
      if (xs.w == 1) std::memcpy(d + a.pl, xr, sizeof(float) * (size_t)std::max<int64_t>(0, w1 - a.pl));
      else for (int64_t q = a.pl; q < w1; q++) d[q] = xr[(q - a.pl) * xs.w];
      for (int64_t q = std::max(a.pl, w1); q < cp.wp; q++) d[q] = 0.f;
    }
}

// One task: image n, output rows [oh0, oh1), output channels [m0, m1). Its cols block comes
// from this thread's scratch (sized to stay in L2; kept for the thread's next task of the same
// rows, another channel part: conv_tasks.h) or is the input plane itself; each B panel is packed
// from it and meets every output channel of the task while it is in L1. resn: the image's
// residual (fused_conv2d_add_act), added with activation res_act to each output row while it is
// in cache, as the separate pass did (same operations: same bits).
void conv_f32_block(const Conv& a, const float* xn, const nn::Strides4& xs, const ConvPlan& cp, const PackedConvW& pw,
                    int64_t oh0, int64_t oh1, int64_t m0, int64_t m1, const float* bias, float* Cn, const float* resn, int res_act,
                    uint64_t stamp) {
  thread_local GatherMemo memo;
  const bool have = memo.holds(stamp, (int64_t)(intptr_t)xn, oh0, oh1);
  memo.set(stamp, (int64_t)(intptr_t)xn, oh0, oh1);
  const GemmTiles t = gemm_f32_tiles();
  const int64_t p0 = oh0 * a.OW, pc = (oh1 - oh0) * a.OW;
  const float* B = nullptr;
  int64_t rsb = 0, csb = 1;
  // Columns of the GEMM, and where its result goes (row stride ldc).
  int64_t ncol = pc, ldc = a.P;
  float* C = Cn + m0 * a.P + p0;
  if (cp.mode == ColsMode::kInPlace) {
    B = xn + p0 * xs.w; rsb = xs.c; csb = xs.w;
  } else if (cp.mode == ColsMode::kIm2col) {
    float* cols = nn::scratch<float>(0, (size_t)(a.K * pc));
    if (!have) im2col<float, float>(a, xn, xs, oh0, oh1, cols, 0, a.Cg);
    B = cols; rsb = pc;
  } else {
    float* xp = nn::scratch<float>(0, (size_t)(a.C * cp.prow * cp.wp));
    if (!have) pad_rows(a, xn, xs, cp, oh0, oh1, xp);
    B = xp;
    ncol = (oh1 - oh0 - 1) * cp.wp + a.OW;  // stops at the last valid column: reads stay in the block
    ldc = ncol;
    C = nn::scratch<float>(2, (size_t)((m1 - m0) * ncol));
  }
  // Goto's order: the k block's B panels are packed once, then each MC-row block of the weight
  // (in L2) meets every panel (in L1).
  const int64_t npan = (ncol + t.nr - 1) / t.nr;
  float* bp = nn::scratch<float>(1, (size_t)(t.kc * npan * t.nr));
  for (int64_t k0 = 0; k0 < a.K; k0 += t.kc) {
    const int64_t kc = std::min<int64_t>(t.kc, a.K - k0);
    for (int64_t jp = 0; jp < npan; jp++) {
      const int64_t nr = std::min<int64_t>(t.nr, ncol - jp * t.nr);
      float* dst = bp + jp * kc * t.nr;
      if (cp.mode != ColsMode::kShifted) {
        gemm_f32_pack_b(kc, nr, B + k0 * rsb + jp * t.nr * csb, rsb, csb, dst);
        continue;
      }
      for (int64_t kk = 0; kk < kc; kk++, dst += t.nr) {
        std::memcpy(dst, B + cp.koff[(size_t)(k0 + kk)] + jp * t.nr, sizeof(float) * (size_t)nr);
        for (int64_t q = nr; q < t.nr; q++) dst[q] = 0.f;
      }
    }
    for (int64_t i0 = m0; i0 < m1; i0 += t.mc) {
      const int64_t mc = std::min<int64_t>(t.mc, m1 - i0);
      const float* ablk = pw.a.data() + k0 * pw.mp + i0 * kc;
      for (int64_t jp = 0; jp < npan; jp++)
        gemm_f32_panel(mc, kc, ablk, bp + jp * kc * t.nr, std::min<int64_t>(t.nr, ncol - jp * t.nr), k0 == 0 ? 0.f : 1.f,
                       C + (i0 - m0) * ldc + jp * t.nr, ldc);
    }
  }
  const bool epi = bias || a.act != kNone;
  if (cp.mode == ColsMode::kShifted) {  // keep the valid columns of each wrapped row
    for (int64_t o = m0; o < m1; o++)
      for (int64_t r = 0; r < oh1 - oh0; r++) {
        float* d = Cn + o * a.P + (oh0 + r) * a.OW;
        std::memcpy(d, C + (o - m0) * ldc + r * cp.wp, sizeof(float) * (size_t)a.OW);
        if (epi) bias_act_row<float>(d, a.OW, bias ? bias[o] : 0.f, a.act);
        if (resn) res_act_row<float>(d, resn + o * a.P + (oh0 + r) * a.OW, a.OW, res_act);
      }
  } else if (epi || resn) {
    for (int64_t o = m0; o < m1; o++) {
      if (epi) bias_act_row<float>(Cn + o * a.P + p0, pc, bias ? bias[o] : 0.f, a.act);
      if (resn) res_act_row<float>(Cn + o * a.P + p0, resn + o * a.P + p0, pc, res_act);
    }
  }
}

void conv_f32_implicit(const Conv& a, const float* X, const nn::Strides4& xs, const PackedConvW& pw, const float* bias, float* O,
                       const float* res, int res_act) {
  const GemmTiles t = gemm_f32_tiles();
  ConvPlan cp;
  cp.mode = ColsMode::kIm2col;
  cp.wp = a.OW + (a.kw - 1) * a.dw;
  if (a.kh == 1 && a.kw == 1 && a.sh == 1 && a.sw == 1 && a.pt == 0 && a.pl == 0 && a.OH == a.H && a.OW == a.W && xs.h == a.W * xs.w)
    cp.mode = ColsMode::kInPlace;
  else if (a.sh == 1 && a.sw == 1 && (a.kw - 1) * a.dw * 8 <= cp.wp)
    cp.mode = ColsMode::kShifted;
  // Output rows per task: the task's blocks (im2col K x rows*OW; for the shifted form the packed
  // panels and the result, (kc + Cout) x rows*wp; for 1x1 the C block Cout x rows*OW) within
  // ~512 KB of L2, but at least two panels wide so the register tiles are not mostly padding.
  const int64_t budget = (int64_t(512) << 10) / (int64_t)sizeof(float);
  const int64_t per_row = cp.mode == ColsMode::kInPlace ? a.Cout * a.OW : cp.mode == ColsMode::kShifted ? (t.kc + a.Cout) * cp.wp : a.K * a.OW;
  int64_t rows = std::max<int64_t>(budget / std::max<int64_t>(1, per_row), (2 * t.nr + a.OW - 1) / a.OW);
  rows = std::max<int64_t>(1, std::min(rows, a.OH));
  int64_t nrb = (a.OH + rows - 1) / rows;
  // Equal blocks (28 rows as 14 + 14, not 24 + 4) while they stay two panels wide.
  if (const int64_t even = (a.OH + nrb - 1) / nrb; even * a.OW >= 2 * t.nr) rows = even;
  const int nt = num_threads();
  // Batches that do not split evenly over the threads (batch 1): at least two tasks per thread,
  // claimed dynamically (parallel_tasks), so uneven tasks or a thread that lost its core do not
  // leave the other idle. More tasks come from splitting the output channels (each part packs
  // the same B panels again: for 1x1 a copy that is small next to the part's GEMM, parts keep
  // >= 64 rows) and from more row blocks while each keeps >= two panels of columns (narrower
  // blocks are mostly padding; 7x7 layers never split rows). The gathering modes gather cols once
  // per thread and row block (a thread's next part of the block reuses them), so for them rows
  // are split first.
  const int64_t mpan = pw.mp / t.mr;
  int64_t mb = 1;
  const bool split = nt > 1 && a.N % nt != 0;
  // The weight outweighs the image's cols (K x P; the 14x14 and 7x7 stages' 3x3 and stride-2
  // layers at batch 1): channel parts in one group per thread, so each core streams its own slice
  // of the weight, and a thread's parts of one row block share its gathered cols (conv_tasks.h).
  const bool heavy = a.Cout * a.K > a.N * a.P * (a.K + a.Cout) && cp.mode != ColsMode::kInPlace;
  if (split && heavy && mpan >= 2 * nt) {
    const int64_t per = (2 * nt + a.N * nrb - 1) / (a.N * nrb);
    mb = std::min<int64_t>(mpan / nt, (per + nt - 1) / nt) * nt;
  } else if (split) {
    const int64_t target = 2 * (int64_t)nt;
    const int64_t min_rows = std::max<int64_t>(1, (2 * t.nr + a.OW - 1) / a.OW);
    auto more_rows = [&] {
      const int64_t want = std::min(std::max<int64_t>(1, a.OH / min_rows), (target + a.N * mb - 1) / (a.N * mb));
      if (want > nrb) { rows = (a.OH + want - 1) / want; nrb = (a.OH + rows - 1) / rows; }
    };
    auto more_parts = [&] {
      const int64_t want = (target + a.N * nrb - 1) / (a.N * nrb);
      mb = std::max(mb, std::min({want, std::max<int64_t>(1, a.Cout / 64), mpan}));
    };
    if (cp.mode == ColsMode::kInPlace) { more_parts(); more_rows(); }
    else { more_rows(); more_parts(); }
    // Still fewer tasks than threads (narrow layers): channel parts of any size.
    if (a.N * nrb * mb < nt) mb = std::min<int64_t>(mpan, (nt + a.N * nrb - 1) / (a.N * nrb));
  }
  if (cp.mode == ColsMode::kShifted) {
    cp.prow = rows + (a.kh - 1) * a.dh;
    cp.koff.resize((size_t)a.K);
    for (int64_t k = 0; k < a.K; k++) {
      const int64_t ci = k / (a.kh * a.kw), i = (k / a.kw) % a.kh, j = k % a.kw;
      cp.koff[(size_t)k] = ci * cp.prow * cp.wp + i * a.dh * cp.wp + j * a.dw;
    }
  }
  const int64_t mrows = (mpan + mb - 1) / mb * t.mr;
  mb = (a.Cout + mrows - 1) / mrows;
  const int64_t units = a.N * mb * nrb;
  const ConvTaskOrder order{a.N * nrb, mb, split ? conv_task_groups(heavy, mb, nt) : 1};
  const uint64_t stamp = conv_call_stamp();
  auto task = [&](int64_t u) {
    int64_t blk, mi;
    order.at(u, blk, mi);
    const int64_t n = blk / nrb, rb = blk % nrb;
    const int64_t oh0 = rb * rows, oh1 = std::min(a.OH, oh0 + rows), m0 = mi * mrows, m1 = std::min(a.Cout, m0 + mrows);
    conv_f32_block(a, X + n * xs.n, xs, cp, pw, oh0, oh1, m0, m1, bias, O + n * a.Cout * a.P, res ? res + n * a.Cout * a.P : nullptr,
                   res_act, stamp);
  };
  // Below 2^20 multiply-adds (~15 us on one core) waking a second thread costs more than it
  // saves; MobileNetV2's 28x28 and 14x14 layers (3.6-4.8M) are above it and do use both.
  const double work = (double)a.N * (double)a.Cout * (double)a.P * (double)a.K;
  if (work < double(1 << 20)) { for (int64_t u = 0; u < units; u++) task(u); return; }
  parallel_tasks(units, task);
}

// The packed weight for the implicit path: from the constant cache when input 1 is a constant of
// the running program (built on first use), else packed into `local`.
const PackedConvW& conv_packed_weight(const Tensor& w, const float* W, int64_t cout, int64_t k, PackedConvW& local) {
  constexpr int kTag = 16;  // const_cache tag: conv2d's packed A (matmul uses 1 and 2)
  if (ConstCacheEntry* e = const_cache_for(1, w, kTag)) {
    if (!e->value) e->value = shared_const_value(*e, [&] {
      auto p = std::make_shared<PackedConvW>();
      pack_conv_w(W, cout, k, *p);
      return std::static_pointer_cast<void>(p);
    });
    const auto* p = static_cast<const PackedConvW*>(e->value.get());
    if (p->cout == cout && p->k == k) return *p;
  }
  pack_conv_w(W, cout, k, local);
  return local;
}

template <typename T>
void conv_impl(const Conv& a, const Tensor& x, const Tensor& wd, const Tensor* bias, Tensor& out) {
  using A = compute_t<T>;
  constexpr bool direct = std::is_same_v<T, A>;  // float32/float64: GEMM writes the output itself
  const nn::Strides4 xs = nn::nchw_strides(x, a.channel_last);
  const T* X = x.data<T>();
  T* O = out.data<T>();

  // Weights in compute type, [Cout, K] with K ordered like the cols rows.
  std::vector<A> wbuf, bbuf;
  const A* Wt;
  if constexpr (direct) Wt = wd.data<T>();
  else {
    wbuf.resize((size_t)(a.Cout * a.K));
    const T* w = wd.data<T>();
    for (size_t i = 0; i < wbuf.size(); i++) wbuf[i] = Compute<T>::load(w[i]);
    Wt = wbuf.data();
  }
  if (bias) {
    bbuf.resize((size_t)a.Cout);
    const T* b = bias->data<T>();
    for (int64_t i = 0; i < a.Cout; i++) bbuf[i] = Compute<T>::load(b[i * bias->strides[0]]);
  }
  if (a.Cg == 1 && a.groups > 1) return depthwise<T, A>(a, X, xs, Wt, bias ? bbuf.data() : nullptr, O);

  const bool one_by_one = direct && a.kh == 1 && a.kw == 1 && a.sh == 1 && a.sw == 1 && a.pt == 0 && a.pl == 0 &&
                          a.OH == a.H && a.OW == a.W && xs.h == a.W * xs.w;
  const bool nhwc_cols = a.channel_last && !one_by_one;
  std::vector<A> wr;
  if (nhwc_cols) {  // (ci, i, j) -> (i, j, ci)
    wr.resize((size_t)(a.Cout * a.K));
    for (int64_t co = 0; co < a.Cout; co++)
      for (int64_t ci = 0; ci < a.Cg; ci++)
        for (int64_t t = 0; t < a.kh * a.kw; t++) wr[co * a.K + t * a.Cg + ci] = Wt[co * a.K + ci * a.kh * a.kw + t];
    Wt = wr.data();
  }
  // Output rows per block: keep cols near 1M elements but at least one row.
  const int64_t rows = std::max<int64_t>(1, std::min<int64_t>(a.OH, (int64_t(1) << 20) / std::max<int64_t>(1, a.K * a.OW)));

  auto image = [&](int64_t n, int threads) {
    for (int64_t g = 0; g < a.groups; g++) {
      const T* xg = X + n * xs.n + g * a.Cg * xs.c;
      const A* Wg = Wt + g * a.Og * a.K;
      for (int64_t oh0 = 0; oh0 < a.OH; oh0 += rows) {
        const int64_t oh1 = std::min(a.OH, oh0 + rows), p0 = oh0 * a.OW, pc = (oh1 - oh0) * a.OW;
        const A* B = nullptr;  // cols as a K x pc operand with row/column strides rsb/csb
        int64_t rsb, csb;
        if (one_by_one) {
          if constexpr (direct) B = xg + p0 * xs.w;
          rsb = xs.c; csb = xs.w;
        } else {
          A* cols = nn::scratch<A>(0, (size_t)(a.K * pc));
          // A lone image spreads the gather over the pool too (inside a batch split it runs serially).
          const int64_t grain = threads == 1 ? INT64_MAX : 1;
          if (nhwc_cols) {
            parallel_for(oh1 - oh0, grain, [&](int64_t b, int64_t e) {
              im2col_nhwc<T, A>(a, xg, xs, oh0 + b, oh0 + e, cols + b * a.OW * a.K);
            });
            rsb = 1; csb = a.K;
          } else {
            parallel_for(a.Cg, grain, [&](int64_t b, int64_t e) { im2col<T, A>(a, xg, xs, oh0, oh1, cols, b, e); });
            rsb = pc; csb = 1;
          }
          B = cols;
        }
        if constexpr (direct) {
          if (!a.channel_last) {
            T* C = O + (n * a.Cout + g * a.Og) * a.P + p0;
            gemm(a.Og, pc, a.K, A(1), Wg, a.K, 1, B, rsb, csb, A(0), C, a.P, threads);
            if (bias || a.act != kNone)
              for (int64_t o = 0; o < a.Og; o++) bias_act_row<A>(C + o * a.P, pc, bias ? bbuf[g * a.Og + o] : A(0), a.act);
          } else {  // out[p][co] = sum_k cols[p][k] * W[co][k]
            T* C = O + (n * a.P + p0) * a.Cout + g * a.Og;
            gemm(pc, a.Og, a.K, A(1), B, csb, rsb, Wg, 1, a.K, A(0), C, a.Cout, threads);
            if (bias || a.act != kNone)
              for (int64_t p = 0; p < pc; p++)
                for (int64_t o = 0; o < a.Og; o++) C[p * a.Cout + o] = conv_act(C[p * a.Cout + o] + (bias ? bbuf[g * a.Og + o] : A(0)), a.act);
          }
        } else {
          A* tmp = nn::scratch<A>(1, (size_t)(a.Og * pc));
          gemm(a.Og, pc, a.K, A(1), Wg, a.K, 1, B, rsb, csb, A(0), tmp, pc, threads);
          for (int64_t o = 0; o < a.Og; o++) {
            const int64_t co = g * a.Og + o;
            const A bv = bias ? bbuf[co] : A(0);
            for (int64_t p = 0; p < pc; p++) {
              const int64_t oi = a.channel_last ? (n * a.P + p0 + p) * a.Cout + co : (n * a.Cout + co) * a.P + p0 + p;
              O[oi] = Compute<T>::store(conv_act(tmp[o * pc + p] + bv, a.act));
            }
          }
        }
      }
    }
  };
  // Whole images per thread when they divide evenly (or are many); else each GEMM uses the pool.
  const int nt = num_threads();
  if (nt > 1 && a.N >= nt && (a.N % nt == 0 || a.N >= 4 * nt)) {
    parallel_for(a.N, 1, [&](int64_t b, int64_t e) { for (int64_t n = b; n < e; n++) image(n, 1); });
  } else {
    for (int64_t n = 0; n < a.N; n++) image(n, 0);
  }
}

// out = act(out + res) over the whole output in one streaming pass, after the convolution ran
// with its bias and no activation: fused_conv2d_add_act's residual on the paths that do not add
// it per task (float64, NHWC, groups; the float32 paths do, see run_conv2d). Measured on ResNet-50's
// block ends (bench/resnet_residual_ab.ts, CPU time, 1 thread): 3-14% faster than conv + add +
// relu; adding the residual inside the GEMM epilogue instead was slower at batch 8 (a tile's
// residual rows are short runs a channel plane apart, which the hardware prefetcher misses).
template <typename T>
void add_residual_act(T* o, const T* res, int64_t n, int act) {
  parallel_for(n, 1 << 15, [&](int64_t b, int64_t e) { res_act_row<T>(o + b, res + b, e - b, act); });
}

// conv2d and fused_conv2d_add_act share the attribute layout; the fused op appends the
// activation code (attr 12) and whether a residual input follows the bias (attr 13).
void run_conv2d(KernelCall& c, int act, bool has_res) {
  c.expect_outputs(1);
  const bool has_bias = c.iattr(11) != 0;
  c.expect_inputs(2 + (has_bias ? 1 : 0) + (has_res ? 1 : 0));
  Tensor &x = c.input(0), &w = c.input(1), &o = c.output(0);
  const Tensor* bias = has_bias ? &c.input(2) : nullptr;
  const Tensor* res = has_res ? &c.input(has_bias ? 3 : 2) : nullptr;
  if (x.ndim() != 4) throw SkiffError("conv2d: Input x should be 4D tensor, but received x with the shape of " + shape_str(x.shape));
  if (w.ndim() != 4) throw SkiffError("conv2d: weight should be a 4D tensor, got shape " + shape_str(w.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("conv2d: expected a floating dtype, got ") + dtype_name(x.dtype));
  if (w.dtype != x.dtype) throw SkiffError(std::string("conv2d: x and weight have different dtypes ") + dtype_name(x.dtype) + " and " + dtype_name(w.dtype));
  Conv a{};
  a.sh = c.iattr(0); a.sw = c.iattr(1); a.dh = c.iattr(2); a.dw = c.iattr(3); a.groups = c.iattr(4);
  const int64_t algo = c.iattr(5);
  int64_t pt = c.iattr(6), pb = c.iattr(7), pl = c.iattr(8), pr = c.iattr(9);
  a.channel_last = c.iattr(10) != 0;
  a.act = act;
  if (a.sh <= 0 || a.sw <= 0) throw SkiffError("conv2d: stride must be positive, got [" + S(a.sh) + ", " + S(a.sw) + "]");
  if (a.dh <= 0 || a.dw <= 0) throw SkiffError("conv2d: dilation must be positive, got [" + S(a.dh) + ", " + S(a.dw) + "]");
  if (a.groups <= 0) throw SkiffError("conv2d: The groups of conv2d should be greater than 0. Received groups: " + S(a.groups));
  if (algo < 0 || algo > 2) throw SkiffError("conv2d: invalid padding algorithm code " + S(algo));
  if (pt < 0 || pb < 0 || pl < 0 || pr < 0) throw SkiffError("conv2d: padding must be non-negative");
  a.N = x.shape[0];
  a.C = a.channel_last ? x.shape[3] : x.shape[1];
  a.H = a.channel_last ? x.shape[1] : x.shape[2];
  a.W = a.channel_last ? x.shape[2] : x.shape[3];
  a.Cout = w.shape[0]; a.Cg = w.shape[1]; a.kh = w.shape[2]; a.kw = w.shape[3];
  if (a.kh <= 0 || a.kw <= 0) throw SkiffError("conv2d: weight spatial size must be positive, got weight " + shape_str(w.shape));
  if (a.C % a.groups) throw SkiffError("conv2d: the channel of input must be divisible by groups, received: the channel of input is " + S(a.C) + ", the shape of input is " + shape_str(x.shape) + ", the groups is " + S(a.groups));
  if (a.Cg * a.groups != a.C) throw SkiffError("conv2d: input channels " + S(a.C) + " do not match weight " + shape_str(w.shape) + " with groups " + S(a.groups));
  if (a.Cout % a.groups) throw SkiffError("conv2d: the number of filters must be divisible by groups, received: the number of filters is " + S(a.Cout) + ", the groups is " + S(a.groups));
  if (bias) {
    if (bias->ndim() != 1 || bias->shape[0] != a.Cout) throw SkiffError("conv2d: bias must have shape [" + S(a.Cout) + "], got " + shape_str(bias->shape));
    if (bias->dtype != x.dtype) throw SkiffError(std::string("conv2d: bias dtype ") + dtype_name(bias->dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  if (algo == 1) {  // SAME: Paddle recomputes the padding and drops dilation
    nn::same_pads(a.H, a.kh, a.sh, pt, pb);
    nn::same_pads(a.W, a.kw, a.sw, pl, pr);
    a.dh = a.dw = 1;
  } else if (algo == 2) {
    pt = pb = pl = pr = 0;
  }
  a.pt = pt; a.pl = pl;
  a.OH = nn::window_out("conv2d", "height", a.H, a.kh, a.sh, a.dh, pt, pb, false);
  a.OW = nn::window_out("conv2d", "width", a.W, a.kw, a.sw, a.dw, pl, pr, false);
  a.Og = a.Cout / a.groups;
  a.K = a.Cg * a.kh * a.kw;
  a.P = a.OH * a.OW;
  c.expect_out_shape(0, a.channel_last ? std::vector<int64_t>{a.N, a.OH, a.OW, a.Cout} : std::vector<int64_t>{a.N, a.Cout, a.OH, a.OW});
  c.expect_out_dtype(0, x.dtype);
  if (res) {
    if (res->dtype != x.dtype) throw SkiffError(std::string("fused_conv2d_add_act: residual_data dtype ") + dtype_name(res->dtype) + " differs from input dtype " + dtype_name(x.dtype));
    if (res->shape != o.shape) throw SkiffError("fused_conv2d_add_act: residual_data shape " + shape_str(res->shape) + " does not match the output " + shape_str(o.shape));
    if (x.dtype != DType::F32 && x.dtype != DType::F64) throw SkiffError(std::string("fused_conv2d_add_act: residual_data needs float32 or float64, got ") + dtype_name(x.dtype));
  }
  if (o.numel() == 0) return;
  const Tensor* rd = res ? &c.dense(has_bias ? 3 : 2) : nullptr;
  // With a residual every path convolves with the bias only, then one pass adds it and activates.
  auto finish_residual = [&] {
    if (!rd) return;
    if (x.dtype == DType::F32) add_residual_act<float>(o.data<float>(), rd->data<float>(), o.numel(), act);
    else add_residual_act<double>(o.data<double>(), rd->data<double>(), o.numel(), act);
  };
  if (rd) a.act = kNone;
  // The float32 paths below add it per task while the output block is in cache (the same
  // operations as the pass, so the same bits): the pass after the conv read the block back from
  // memory, on 2 threads half of it from the other core's cache (conv_tasks.h).
  const float* rf = rd && x.dtype == DType::F32 ? rd->data<float>() : nullptr;
  const Tensor& wd = c.dense(1);
  // The float32 paths read the bias as one dense vector (it may be a strided view).
  auto dense_bias = [&] {
    std::vector<float> bv;
    if (bias) {
      bv.resize((size_t)a.Cout);
      const float* b = bias->data<float>();
      for (int64_t i = 0; i < a.Cout; i++) bv[(size_t)i] = b[i * bias->strides[0]];
    }
    return bv;
  };
  // float32 NCHW 3x3 stride 1 without groups, where it pays: Winograd F(4x4, 3x3)
  // (nn_conv_winograd.cc; SKIFF_CONV_WINOGRAD=0 turns it off). The epilogue stays here.
  if (x.dtype == DType::F32 && a.groups == 1 && !a.channel_last && a.kh == 3 && a.kw == 3 && a.sh == 1 && a.sw == 1 && a.dh == 1 && a.dw == 1) {
    const nn::Strides4 xs = nn::nchw_strides(x, false);
    const WinoConv wc{a.N, a.C, a.H, a.W, a.Cout, a.OH, a.OW, a.pt, a.pl, xs.n, xs.c, xs.h, xs.w};
    if (winograd3x3_applies(wc, const_input(1))) {
      const std::vector<float> bv = dense_bias();
      float* O = o.data<float>();
      WinoEpilogue epi;
      if (bias || a.act != kNone || rf)
        epi = [&](int64_t n, int64_t co0, int64_t co1, int64_t oh0, int64_t oh1, int64_t ow0, int64_t ow1) {
          for (int64_t co = co0; co < co1; co++)
            for (int64_t oh = oh0; oh < oh1; oh++) {
              const int64_t i = ((n * a.Cout + co) * a.OH + oh) * a.OW + ow0;
              if (bias || a.act != kNone) bias_act_row<float>(O + i, ow1 - ow0, bias ? bv[(size_t)co] : 0.f, a.act);
              if (rf) res_act_row<float>(O + i, rf + i, ow1 - ow0, act);
            }
        };
      winograd3x3_f32(wc, c.input(1), wd.data<float>(), x.data<float>(), O, epi);
      return;
    }
  }
  // float32 NCHW unpadded 1x1 with few pixels per image (ResNet's 14x14 / 7x7 stages and their
  // stride-2 shortcuts): the transposed GEMM, pixels as the tile's rows (nn_conv_1x1.cc).
  if (x.dtype == DType::F32 && a.groups == 1 && !a.channel_last && a.kh == 1 && a.kw == 1 && pt == 0 && pb == 0 && pl == 0 && pr == 0) {
    const nn::Strides4 xs = nn::nchw_strides(x, false);
    const Conv1x1 cc{a.N, a.C, a.Cout, a.OH, a.OW, a.sh, a.sw, xs.n, xs.c, xs.h, xs.w};
    if (conv1x1t_applies(cc, const_input(1))) {
      const std::vector<float> bv = dense_bias();
      float* O = o.data<float>();
      Conv1x1Epilogue epi;
      if (bias || a.act != kNone || rf)
        epi = [&](int64_t n, int64_t co0, int64_t co1, int64_t p0, int64_t p1) {
          for (int64_t co = co0; co < co1; co++) {
            const int64_t i = (n * a.Cout + co) * a.P + p0;
            if (bias || a.act != kNone) bias_act_row<float>(O + i, p1 - p0, bias ? bv[(size_t)co] : 0.f, a.act);
            if (rf) res_act_row<float>(O + i, rf + i, p1 - p0, act);
          }
        };
      conv1x1t_f32(cc, c.input(1), wd.data<float>(), x.data<float>(), O, epi);
      return;
    }
  }
  // float32 NCHW without groups and above gemm()'s small-problem size: the implicit GEMM.
  if (x.dtype == DType::F32 && a.groups == 1 && !a.channel_last && (double)a.Cout * a.P * a.K >= 32.0 * 32 * 32 && a.OW > 0) {
    const std::vector<float> bv = dense_bias();
    const float* bp = bias ? bv.data() : nullptr;
    PackedConvW local;
    const PackedConvW& pw = conv_packed_weight(c.input(1), wd.data<float>(), a.Cout, a.K, local);
    conv_f32_implicit(a, x.data<float>(), nn::nchw_strides(x, false), pw, bp, o.data<float>(), rf, act);
    return;
  }
  // float32 NCHW depthwise 3x3 (MobileNet): unit-stride taps, fused epilogue (nn_conv_dw.cc).
  if (x.dtype == DType::F32 && !a.channel_last && a.Cg == 1 && a.Og == 1 && dw3_applies(a.kh, a.kw, a.dh, a.dw, a.sh, a.sw)) {
    const std::vector<float> bv = dense_bias();
    const nn::Strides4 xs = nn::nchw_strides(x, false);
    const DwConv3 d{a.N, a.C, a.H, a.W, a.OH, a.OW, a.sh, a.sw, a.pt, a.pl, xs.n, xs.c, xs.h, xs.w, a.act};
    depthwise3x3_f32(d, x.data<float>(), wd.data<float>(), bias ? bv.data() : nullptr, o.data<float>());
    return finish_residual();
  }
  dispatch_float(x.dtype, c.op, [&](auto tag) { conv_impl<decltype(tag)>(a, x, wd, bias, o); });
  finish_residual();
}

void k_conv2d(KernelCall& c) { run_conv2d(c, kNone, false); }

void k_fused_conv2d_add_act(KernelCall& c) {
  const int64_t act = c.iattr(12);
  if (act < kNone || act > kHardswish) throw SkiffError("fused_conv2d_add_act: invalid activation code " + S(act));
  const int64_t has_res = c.iattr(13);
  if (has_res != 0 && has_res != 1) throw SkiffError("fused_conv2d_add_act: invalid residual flag " + S(has_res));
  run_conv2d(c, (int)act, has_res != 0);
}

}  // namespace
SKIFF_KERNEL("conv2d", k_conv2d);
SKIFF_KERNEL("fused_conv2d_add_act", k_fused_conv2d_add_act);
}  // namespace skiff
