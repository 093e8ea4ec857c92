// Winograd F(4x4, 3x3) convolution, float32 NCHW, stride 1 (see nn_conv_winograd.h).
//
// With five interpolation points and infinity (Lavin & Gray's construction), a 6x6 input tile d
// gives a 4x4 output tile
//   Y = A^T [ (G g G^T) (.) (B^T d B) ] A
// where (.) is the elementwise product over the 36 positions xi. Summed over input channels that
// product is, for each xi, a matrix product: M_xi [tiles, Cout] = V_xi [tiles, C] x U_xi [C, Cout].
// So the work is: the weight transform U (once per process for a constant weight: const_cache.h,
// tag 17), an input transform per (tile, channel), 36 GEMMs on the packed micro-kernel
// (gemm_panel.h), and an output transform per (tile, output channel). The GEMMs do 36 multiply-
// adds per tile and channel pair where the direct conv does 144 (16 outputs x 9 taps).
//
// Layout. Tiles are the GEMM's rows (A operand) and output channels its columns (B): a layer
// with few tiles (14x14 at batch 1: 16) still fills the register tile, which has mr = 8 rows and
// nr = 32 columns. Each task (an image's block of tiles, or whole images when maps are small;
// and a part of the output channels) writes V straight into the micro-kernel's A-panel layout
// while transforming (no separate pack), runs the 36 GEMMs with each B panel of U in L1 across
// the task's tile panels, and transforms M back into the output, whose rectangles then get the
// caller's epilogue (bias, residual, activation) while in cache. The tile block is sized so V and
// M (36 x tiles x (C + Cout) floats) stay near L2.
// Every output's sums are the same whatever the task grid, so results do not depend on the
// thread count.
//
// Accuracy: V and M hold sums of terms up to several times the inputs' size that cancel in the
// output transform, so the float32 error is ~1e-5 of the output's RMS where the direct conv's is
// ~1e-6 (ResNet-like layers against float64; test/ops/conv_winograd.test.ts bounds it). The
// points 0, 1, -1, 1/2, -2 halve it against the usual 0, +-1, +-2. The weight transform runs in
// float64. SKIFF_CONV_WINOGRAD=0 gives the direct conv's accuracy back.
#include "nn_conv_winograd.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>
#include "../gemm/gemm_panel.h"
#include "const_cache.h"
#include "conv_tasks.h"
#include "nn_common.h"
#include "threadpool_tasks.h"

namespace skiff {
namespace {

constexpr int kTaps = 36;  // 6x6 transformed positions
constexpr int64_t kEagerMinTiles = 64;  // see winograd3x3_applies

int wino_mode() {
  const char* s = std::getenv("SKIFF_CONV_WINOGRAD");
  if (!s || !*s) return 1;
  return s[0] == '0' ? 0 : s[0] == '2' ? 2 : 1;
}

// U_xi^T [C, Cout] for each xi, packed as the GEMM's B panels: xi's block starts at xi * C * npad,
// its k block k0 (a multiple of kc) at + k0 * npad, panel jp of it at + jp * kcb * nr.
// A cached one owns its storage; a per-call one borrows the calling thread's scratch (slot 3),
// since fresh pages for U (9 MB for 256 channels) cost more in faults on this VM than the
// transform itself.
struct WinoWeights {
  int64_t C = 0, Cout = 0, npad = 0;
  float* u = nullptr;
  bool owned = false;
  WinoWeights() = default;
  WinoWeights(const WinoWeights&) = delete;
  WinoWeights& operator=(const WinoWeights&) = delete;
  ~WinoWeights() { if (owned) std::free(u); }
};

void prepare_weights(const float* W, int64_t C, int64_t Cout, WinoWeights& ww, bool owned) {
  const GemmTiles t = gemm_f32_tiles();
  ww.C = C; ww.Cout = Cout; ww.npad = (Cout + t.nr - 1) / t.nr * t.nr;
  const size_t n = (size_t)(kTaps * C * ww.npad);
  if (owned) {
    ww.u = static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) & ~size_t(63)));
    if (!ww.u) throw std::bad_alloc();
    ww.owned = true;
  } else {
    ww.u = nn::scratch<float>(3, n);
  }
  // G (6x3) for the points 0, 1, -1, 1/2, -2 (row i: [1, p, p^2] / prod_{j != i} (p - p_j); the
  // point at infinity's row last); U[i][j] = sum_rs G[i][r] g[r][s] G[j][s], in float64.
  static const double G[6][3] = {{1, 0, 0},
                                 {1.0 / 3, 1.0 / 3, 1.0 / 3},
                                 {-1.0 / 3, 1.0 / 3, -1.0 / 3},
                                 {-16.0 / 15, -8.0 / 15, -4.0 / 15},
                                 {1.0 / 15, -2.0 / 15, 4.0 / 15},
                                 {0, 0, 1}};
  // Each B panel (nr output channels) is written directly, one position xi at a time so the
  // stores run through one contiguous panel (the 36 panels of a row lie C * npad apart, a
  // multiple of 4 KB: interleaving them thrashed one cache set, 100 ms for a 512-channel layer).
  // U_xi = sum_q coef_xi[q] g[q] with coef = G[i][r] G[j][s], lanes over the panel's channels.
  constexpr int kLanes = 32;
  const int64_t npan = ww.npad / t.nr;
  parallel_for(npan, 1, [&](int64_t b, int64_t e) {
    std::vector<float> gt((size_t)(C * 9 * kLanes));  // the panel's weights, [ci][q][lane]
    for (int64_t jp = b; jp < e; jp++) {
      const int64_t c0 = jp * t.nr, nc = std::min<int64_t>(t.nr, Cout - c0);
      for (int64_t ci = 0; ci < C; ci++)
        for (int q = 0; q < 9; q++)
          for (int j = 0; j < kLanes; j++) gt[(size_t)((ci * 9 + q) * kLanes + j)] = j < nc ? W[((c0 + j) * C + ci) * 9 + q] : 0.f;
      for (int xi = 0; xi < kTaps; xi++) {
        double coef[9];
        for (int r = 0; r < 3; r++)
          for (int s = 0; s < 3; s++) coef[r * 3 + s] = G[xi / 6][r] * G[xi % 6][s];
        for (int64_t ci = 0; ci < C; ci++) {
          const int64_t k0 = ci / t.kc * t.kc, kcb = std::min<int64_t>(t.kc, C - k0);
          float* dst = ww.u + xi * C * ww.npad + k0 * ww.npad + jp * kcb * t.nr + (ci - k0) * t.nr;
          const float* g = gt.data() + ci * 9 * kLanes;
          double acc[kLanes];
          for (int j = 0; j < kLanes; j++) acc[j] = coef[0] * (double)g[j];
          for (int q = 1; q < 9; q++)
            for (int j = 0; j < kLanes; j++) acc[j] += coef[q] * (double)g[q * kLanes + j];
          for (int j = 0; j < t.nr; j++) dst[j] = (float)acc[j];
        }
      }
    }
  });
}

// The transformed weight: from the constant cache when input 1 is a constant of the running
// program (built on first use, shared by every plan of the process), else built into `local`.
const WinoWeights& wino_weights(const Tensor& w_in, const float* W, int64_t C, int64_t Cout, WinoWeights& local) {
  constexpr int kTag = 17;  // const_cache tag: conv2d's Winograd U (16 is its packed GEMM weight)
  if (ConstCacheEntry* e = const_cache_for(1, w_in, kTag)) {
    if (!e->value) e->value = shared_const_value(*e, [&] {
      auto p = std::make_shared<WinoWeights>();
      prepare_weights(W, C, Cout, *p, true);
      return std::static_pointer_cast<void>(p);
    });
    const auto* p = static_cast<const WinoWeights*>(e->value.get());
    if (p->C == C && p->Cout == Cout) return *p;
  }
  prepare_weights(W, C, Cout, local, false);
  return local;
}

// v = B^T z for six lanes-wide values (one column or row of a tile per lane). Row i of B^T holds
// the coefficients of prod_{j != i} (x - p_j) (the last row: of prod_j (x - p_j)). The points
// 0, 1, -1, 1/2, -2 instead of the usual 0, +-1, +-2 halve the worst error (a float32
// simulation on ResNet-like layers: 3.8e-6 vs 7.6e-6 of the output's RMS); all coefficients are
// exact in float32.
template <int L>
inline void bt6(const float (&z)[6][L], float (&v)[6][L]) {
  for (int l = 0; l < L; l++) {
    const float z0 = z[0][l], z1 = z[1][l], z2 = z[2][l], z3 = z[3][l], z4 = z[4][l], z5 = z[5][l];
    v[0][l] = (z0 + z4) + 1.5f * (z3 - z1) - 2.f * z2;
    v[1][l] = (z4 - z1) + 0.5f * z2 + 2.5f * z3;
    v[2][l] = (z1 + z4) - 2.5f * z2 + 0.5f * z3;
    v[3][l] = 2.f * (z3 - z1) + (z4 - z2);
    v[4][l] = 0.5f * (z1 - z3) + (z4 - z2);
    v[5][l] = (z1 + z5) + 1.5f * (z4 - z2) - 2.f * z3;
  }
}

// y = A^T z (four outputs from six): row r holds p_j^r (the last column: 1 in the last row).
template <int L>
inline void at6(const float (&z)[6][L], float (&y)[4][L]) {
  for (int l = 0; l < L; l++) {
    const float z0 = z[0][l], z1 = z[1][l], z2 = z[2][l], z3 = z[3][l], z4 = z[4][l], z5 = z[5][l];
    const float p12 = z1 + z2, m12 = z1 - z2;
    y[0][l] = z0 + p12 + (z3 + z4);
    y[1][l] = m12 + 0.5f * z3 - 2.f * z4;
    y[2][l] = p12 + 0.25f * z3 + 4.f * z4;
    y[3][l] = m12 + 0.125f * z3 - 8.f * z4 + z5;
  }
}

struct Grid {
  int64_t TH, TW, TT;  // tile rows, tile columns, tiles per image
};

// Input transform of one channel for a tile panel of MR tiles: off[l] is lane l's window in pb
// (the channel's zero-padded input rows, wp floats wide). dst: the panel's first value for this
// channel of position 0; position xi's is dst + xi * vstride, and lane l's is + l.
template <int MR>
inline void input_panel(const float* pb, int64_t wp, const int64_t* off, float* dst, int64_t vstride) {
  float d[6][6][MR], tmp[6][6][MR];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int l = 0; l < MR; l++) d[j][i][l] = pb[off[l] + i * wp + j];  // d[col][row]
  // Columns: tmp[j][k] = (B^T d)[k][j]; then rows: V[k][q] = sum_j tmp[j][k] B[j][q].
  for (int j = 0; j < 6; j++) bt6<MR>(d[j], tmp[j]);
  for (int k = 0; k < 6; k++) {
    float z[6][MR], v[6][MR];
    for (int j = 0; j < 6; j++)
      for (int l = 0; l < MR; l++) z[j][l] = tmp[j][k][l];
    bt6<MR>(z, v);
    for (int q = 0; q < 6; q++) {
      float* o = dst + (k * 6 + q) * vstride;
      for (int l = 0; l < MR; l++) o[l] = v[q][l];
    }
  }
}

// One task: images [n0, n1), tiles [t0, t1) of each (row-major over the tile grid; several
// images only with all their tiles: small maps at a batch), output channels [m0, m1). The task's
// tile q is image n0 + q / (t1 - t0), tile t0 + q % (t1 - t0).
template <int MR>
void wino_task(const WinoConv& a, const WinoWeights& ww, const Grid& g, int64_t n0, int64_t n1, int64_t t0, int64_t t1, int64_t m0,
               int64_t m1, const float* X, float* O, const WinoEpilogue& epi, uint64_t stamp) {
  const GemmTiles tl = gemm_f32_tiles();
  const int64_t per = t1 - t0, nt = (n1 - n0) * per, ntp = (nt + MR - 1) / MR * MR, C = a.C;
  const int64_t ty0 = t0 / g.TW, ty1 = (t1 - 1) / g.TW + 1;
  // pb: for each image, the rows its tiles read, wp floats wide.
  const int64_t rows = 4 * (ty1 - ty0) + 2, wp = 4 * g.TW + 2, imrows = (n1 - n0) * rows;
  // Floats per position xi in V and M, plus one cache line: the input transform writes (and the
  // output transform reads) all 36 positions in turn, and at a multiple of 4 KB apart (64
  // channels x 32 tiles) they would all fall in one L1 set.
  const int64_t vstride = ntp * C + 16;
  float* V = nn::scratch<float>(0, (size_t)(kTaps * vstride));
  const int64_t ldm = m1 - m0, mstride = nt * ldm + 16;
  float* M = nn::scratch<float>(1, (size_t)(kTaps * mstride));
  float* pb = nn::scratch<float>(2, (size_t)(imrows * wp));
  // Each lane's window in pb (lanes past the task's tiles repeat its last tile; never stored).
  // Not in scratch slot 3: a per-call U lives there.
  std::vector<int64_t> offs((size_t)ntp);
  int64_t* off = offs.data();
  for (int64_t q = 0; q < ntp; q++) {
    const int64_t qq = std::min(q, nt - 1), t = t0 + qq % per;
    off[q] = ((qq / per) * rows + 4 * (t / g.TW - ty0)) * wp + 4 * (t % g.TW);
  }
  // 1. Input transform, channel by channel: pad the channel's rows, then transform each panel.
  // Skipped when this thread's previous task of the call built V for the same tiles (another
  // part of the output channels; conv_tasks.h).
  thread_local GatherMemo memo;
  const bool have_v = memo.holds(stamp, n0, n1, t0 * (g.TT + 1) + t1);
  memo.set(stamp, n0, n1, t0 * (g.TT + 1) + t1);
  const int64_t ih0 = 4 * ty0 - a.pt, w1 = std::min(wp, a.pl + a.W);
  for (int64_t c = 0; c < (have_v ? 0 : C); c++) {
    for (int64_t r = 0; r < imrows; r++) {
      float* d = pb + r * wp;
      const int64_t ih = ih0 + r % rows;
      if (ih < 0 || ih >= a.H) { std::memset(d, 0, sizeof(float) * (size_t)wp); continue; }
      const float* xr = X + (n0 + r / rows) * a.xn + c * a.xc + ih * a.xh;
      for (int64_t q = 0; q < std::min(a.pl, wp); q++) d[q] = 0.f;
      if (a.xw == 1) std::memcpy(d + a.pl, xr, sizeof(float) * (size_t)std::max<int64_t>(0, w1 - a.pl));
      else for (int64_t q = a.pl; q < w1; q++) d[q] = xr[(q - a.pl) * a.xw];
      for (int64_t q = std::max(a.pl, w1); q < wp; q++) d[q] = 0.f;
    }
    const int64_t k0 = c / tl.kc * tl.kc, kcb = std::min<int64_t>(tl.kc, C - k0);
    for (int64_t p = 0; p < ntp; p += MR) input_panel<MR>(pb, wp, off + p, V + k0 * ntp + p * kcb + (c - k0) * MR, vstride);
  }
  // 2. The 36 GEMMs M_xi [nt, m1 - m0] = V_xi [nt, C] x U_xi [C, m0:m1].
  for (int xi = 0; xi < kTaps; xi++) {
    const float* vx = V + xi * vstride;
    const float* ux = ww.u + xi * C * ww.npad;
    float* mx = M + xi * mstride;
    for (int64_t k0 = 0; k0 < C; k0 += tl.kc) {
      const int64_t kcb = std::min<int64_t>(tl.kc, C - k0);
      for (int64_t j0 = m0; j0 < m1; j0 += tl.nr)
        gemm_f32_panel(nt, kcb, vx + k0 * ntp, ux + k0 * ww.npad + (j0 / tl.nr) * kcb * tl.nr, std::min<int64_t>(tl.nr, m1 - j0),
                       k0 == 0 ? 0.f : 1.f, mx + (j0 - m0), ldm);
    }
  }
  // 3. Output transform, 16 output channels at a time, straight into the output planes.
  constexpr int L = 16;
  const int64_t plane = a.OH * a.OW;
  for (int64_t q = 0; q < nt; q++) {
    const int64_t t = t0 + q % per;
    float* on = O + (n0 + q / per) * a.Cout * plane;
    const int64_t oh = 4 * (t / g.TW), ow = 4 * (t % g.TW);
    const int64_t nh = std::min<int64_t>(4, a.OH - oh), nw = std::min<int64_t>(4, a.OW - ow);
    const float* mt = M + q * ldm;
    for (int64_t c0 = m0; c0 < m1; c0 += L) {
      const int nl = (int)std::min<int64_t>(L, m1 - c0);
      float m[6][6][L], tmp[6][4][L];  // m[col][row], tmp[col][out row]
      // Whole lane groups and interior tiles (nearly all) take loops of constant trip counts:
      // per-value bound tests were most of this stage's time.
      const bool full = nl == L;
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          const float* src = mt + (i * 6 + j) * mstride + (c0 - m0);
          if (full) for (int l = 0; l < L; l++) m[j][i][l] = src[l];
          else for (int l = 0; l < L; l++) m[j][i][l] = l < nl ? src[l] : 0.f;
        }
      for (int j = 0; j < 6; j++) at6<L>(m[j], tmp[j]);
      for (int r = 0; r < nh; r++) {
        float z[6][L], y[4][L];
        for (int j = 0; j < 6; j++)
          for (int l = 0; l < L; l++) z[j][l] = tmp[j][r][l];
        at6<L>(z, y);
        float* dst = on + c0 * plane + (oh + r) * a.OW + ow;
        if (full && nw == 4) {
          for (int l = 0; l < L; l++, dst += plane)
            for (int q = 0; q < 4; q++) dst[q] = y[q][l];
        } else {
          for (int l = 0; l < nl; l++, dst += plane)
            for (int q = 0; q < nw; q++) dst[q] = y[q][l];
        }
      }
    }
  }
  // 4. The caller's epilogue on each tile row's output rectangle.
  if (!epi) return;
  for (int64_t n = n0; n < n1; n++)
    for (int64_t ty = ty0; ty < ty1; ty++) {
      const int64_t txa = std::max(t0, ty * g.TW) - ty * g.TW, txb = std::min(t1, (ty + 1) * g.TW) - ty * g.TW;
      const int64_t oh0 = 4 * ty, ow0 = 4 * txa;
      if (oh0 < a.OH && ow0 < a.OW) epi(n, m0, m1, oh0, std::min(a.OH, oh0 + 4), ow0, std::min(a.OW, 4 * txb));
    }
}

template <int MR>
void wino_run(const WinoConv& a, const WinoWeights& ww, const float* X, float* O, const WinoEpilogue& epi) {
  const GemmTiles tl = gemm_f32_tiles();
  Grid g;
  g.TH = (a.OH + 3) / 4; g.TW = (a.OW + 3) / 4; g.TT = g.TH * g.TW;
  // Tiles per task: V and M of a tile take 36 x (C + Cout) floats; keep a task's near 768 KB
  // (L2 is 1 MB), but at least two register panels, and more (up to 64) for wide layers, where
  // each task streams all of U (36 x C x Cout) and fewer tiles would make that the bottleneck;
  // never more than 16 MB of scratch per thread (2048-channel layers).
  const int64_t per_tile = kTaps * (a.C + a.Cout);
  int64_t nt = std::max<int64_t>((int64_t(768) << 10) / 4 / per_tile, std::max<int64_t>(2 * MR, std::min<int64_t>(a.C / 4, 64)));
  nt = std::min(nt, std::max<int64_t>(MR, (int64_t(16) << 20) / 4 / per_tile));
  const int nth = num_threads();
  const int64_t npan = (a.Cout + tl.nr - 1) / tl.nr;
  const uint64_t stamp = conv_call_stamp();
  if (nt > g.TT && a.N > 1) {
    // Small maps (7x7: 4 tiles) at a batch: tasks of whole images, enough of them that U, which
    // every task streams, meets as many tiles; threads split the output channels instead (each
    // part streams only its slice of U and repeats the input transform, small here).
    int64_t G = std::min(a.N, std::max<int64_t>(1, nt / g.TT));
    const int64_t ng = (a.N + G - 1) / G;
    G = (a.N + ng - 1) / ng;
    int64_t mb = 1;
    if (nth > 1 && ng < 2 * (int64_t)nth) mb = std::min<int64_t>(npan, (2 * (int64_t)nth + ng - 1) / ng);
    const int64_t ppart = (npan + mb - 1) / mb;
    mb = (npan + ppart - 1) / ppart;
    parallel_tasks(ng * mb, [&](int64_t u) {
      const int64_t n0 = (u / mb) * G, m0 = (u % mb) * ppart * tl.nr;
      wino_task<MR>(a, ww, g, n0, std::min(a.N, n0 + G), 0, g.TT, m0, std::min(a.Cout, m0 + ppart * tl.nr), X, O, epi, stamp);
    });
    return;
  }
  nt = std::min(nt, g.TT);
  int64_t nb = (g.TT + nt - 1) / nt;
  // Batch not split evenly over the threads: at least two tasks per thread. Where U is more than
  // twice the tiles' data (36 C Cout against 36 tiles x (C + Cout) floats: the 14x14 stage at
  // batch 1, 4x), from output-channel parts in one group per thread, so each core streams its own
  // slice of U (conv_tasks.h; parts of one tile block reuse the thread's V). Elsewhere from more
  // tile blocks (down to one panel each; each block streams U again) and then from parts: at
  // 28x28 (1.3x) that measured 400-440 us on 2 threads against 485 us by channel groups.
  int64_t mb = 1, groups = 1;
  const bool heavy = a.C * a.Cout > 2 * a.N * g.TT * (a.C + a.Cout);
  const bool split = nth > 1 && a.N % nth != 0;
  if (split && heavy && npan >= 2 * (int64_t)nth) {
    const int64_t target = 2 * (int64_t)nth, per = (target + a.N * nb - 1) / (a.N * nb);
    mb = std::min<int64_t>(npan / nth, (per + nth - 1) / nth) * nth;
  } else if (split) {
    const int64_t target = 2 * (int64_t)nth;
    const int64_t want_b = std::min<int64_t>(std::max<int64_t>(1, g.TT / MR), (target + a.N - 1) / a.N);
    if (want_b > nb) nb = want_b;
    if (a.N * nb < target) mb = std::min<int64_t>(npan, (target + a.N * nb - 1) / (a.N * nb));
    // An equal share per thread (56x56 at batch 1: 6 blocks, not 5) while blocks keep a panel.
    while ((a.N * nb * mb) % nth != 0 && g.TT / (nb + 1) >= MR) nb++;
  }
  nt = (g.TT + nb - 1) / nb;
  nb = (g.TT + nt - 1) / nt;
  const int64_t ppart = (npan + mb - 1) / mb;
  mb = (npan + ppart - 1) / ppart;
  if (split) groups = conv_task_groups(heavy, mb, nth);
  const ConvTaskOrder order{a.N * nb, mb, groups};
  const int64_t units = a.N * nb * mb;
  parallel_tasks(units, [&](int64_t u) {
    int64_t blk, mi;
    order.at(u, blk, mi);
    const int64_t n = blk / nb, bi = blk % nb;
    const int64_t t0 = bi * nt, t1 = std::min(g.TT, t0 + nt);
    const int64_t m0 = mi * ppart * tl.nr, m1 = std::min(a.Cout, m0 + ppart * tl.nr);
    wino_task<MR>(a, ww, g, n, n + 1, t0, t1, m0, m1, X, O, epi, stamp);
  });
}

}  // namespace

bool winograd3x3_applies(const WinoConv& a, bool const_weight) {
  const int mode = wino_mode();
  if (mode == 0 || a.N <= 0 || a.C <= 0 || a.Cout <= 0 || a.OH <= 0 || a.OW <= 0) return false;
  const GemmTiles t = gemm_f32_tiles();
  if ((t.mr != 8 && t.mr != 6 && t.mr != 4) || t.nr > 32) return false;
  if (mode == 2) return true;
  // By measurement (bench/conv_spatial.ts): enough channels that the GEMM stage dominates the
  // transforms, enough tiles in the batch that streaming U is not the bottleneck (a 7x7 map has
  // 4: not at batch 1, where U is 4x the weight's bytes for 4 tiles), little of the 4x4 tiles'
  // work wasted past the output's edge, and - when the weight is transformed on every call
  // (eager, training) - enough tiles to pay for that.
  const int64_t th = (a.OH + 3) / 4, tw = (a.OW + 3) / 4;
  const double waste = (double)(16 * th * tw) / (double)(a.OH * a.OW);
  if (a.C < 32 || a.Cout < 32 || a.N * th * tw < 16 || waste > 1.35) return false;
  return const_weight || a.N * th * tw >= kEagerMinTiles;
}

void winograd3x3_f32(const WinoConv& a, const Tensor& w_in, const float* W, const float* X, float* O, const WinoEpilogue& epi) {
  WinoWeights local;
  const WinoWeights& ww = wino_weights(w_in, W, a.C, a.Cout, local);
  switch (gemm_f32_tiles().mr) {
    case 8: return wino_run<8>(a, ww, X, O, epi);
    case 6: return wino_run<6>(a, ww, X, O, epi);
    default: return wino_run<4>(a, ww, X, O, epi);
  }
}

}  // namespace skiff
