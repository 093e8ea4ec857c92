// The transposed 1x1 convolution (see nn_conv_1x1.h): out^T [M = N*P, Cout] = X^T [M, C] * W^T.
//
// B = W^T is packed once into the GEMM's 32-wide panels (per call, or once per process for a
// constant weight of an inference program: const_cache tag 18). Tasks are (block of <= MC rows of
// M, part of the output channels): a task gathers its rows of X^T into packed A panels per k block
// (rows are pixels, possibly of several images; a stride-2 shortcut reads every other pixel), runs
// the micro-kernel over its B panels into a small scratch T [rows, part], then writes T transposed
// into NCHW and lets the caller's epilogue (bias, activation) run on each channel's run while it
// is in L1. Same KC blocking, k order and micro-kernel as the implicit GEMM and gemm(): each
// output is the same sum in the same order, so results are bit-identical to the other paths.
#include "nn_conv_1x1.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>
#include "../gemm/gemm_panel.h"
#include "const_cache.h"
#include "conv_tasks.h"
#include "nn_common.h"
#include "threadpool.h"
#include "threadpool_tasks.h"

namespace skiff {
namespace {

int t_mode() {
  const char* s = std::getenv("SKIFF_CONV_1X1T");
  if (!s || !*s) return 1;
  return s[0] == '0' ? 0 : s[0] == '2' ? 2 : 1;
}

// W^T [C, Cout] as B panels: k block k0 (a multiple of kc) starts at k0 * npad (npad = Cout
// rounded up to nr), panel jp of it at + jp * kcb * nr (kcb rows of nr values, zero past Cout).
// 64-byte aligned: the micro-kernel loads B panels with aligned vector loads.
struct PackedWT {
  int64_t C = 0, Cout = 0, npad = 0;
  std::unique_ptr<float, decltype(&std::free)> mem{nullptr, &std::free};
  float* b = nullptr;
  void alloc(size_t n) {
    mem.reset(static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) & ~size_t(63))));
    if (!mem) throw std::bad_alloc();
    b = mem.get();
  }
};

void pack_wt(const float* W, int64_t C, int64_t Cout, PackedWT& pw) {
  const GemmTiles t = gemm_f32_tiles();
  pw.C = C; pw.Cout = Cout; pw.npad = (Cout + t.nr - 1) / t.nr * t.nr;
  pw.alloc((size_t)(pw.npad * C));
  const int64_t nkb = (C + t.kc - 1) / t.kc, npan = pw.npad / t.nr;
  parallel_for(nkb * npan, 4, [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      const int64_t k0 = q / npan * t.kc, jp = q % npan, kcb = std::min<int64_t>(t.kc, C - k0);
      // B(k, j) = W[(jp * nr + j) * C + k0 + k]: row stride 1, column stride C.
      gemm_f32_pack_b(kcb, std::min<int64_t>(t.nr, Cout - jp * t.nr), W + jp * t.nr * C + k0, 1, C, pw.b + k0 * pw.npad + jp * kcb * t.nr);
    }
  });
}

// From the constant cache when input 1 is a constant of the running program, else into `local`.
const PackedWT& packed_wt(const Tensor& w_in, const float* W, int64_t C, int64_t Cout, PackedWT& local) {
  constexpr int kTag = 18;  // const_cache tag: conv2d's W^T panels (16: packed A, 17: Winograd U)
  if (ConstCacheEntry* e = const_cache_for(1, w_in, kTag)) {
    if (!e->value) e->value = shared_const_value(*e, [&] {
      auto p = std::make_shared<PackedWT>();
      pack_wt(W, C, Cout, *p);
      return std::static_pointer_cast<void>(p);
    });
    const auto* p = static_cast<const PackedWT*>(e->value.get());
    if (p->C == C && p->Cout == Cout) return *p;
  }
  pack_wt(W, C, Cout, local);
  return local;
}

std::vector<char>& run_flags() {
  thread_local std::vector<char> v;
  return v;
}

// One task: rows [m0, m1) of M (m = n * P + p), output channels [c0, c1) (c0 a multiple of nr).
void run_block(const Conv1x1& a, const PackedWT& pw, const float* X, float* O, int64_t m0, int64_t m1, int64_t c0, int64_t c1,
               const Conv1x1Epilogue& epi) {
  const GemmTiles t = gemm_f32_tiles();
  // T's row stride is padded off a multiple of 256 B: the transposing read walks down a column,
  // and rows 2 KB apart would all land in two L1 sets (512-channel parts thrashed there).
  const int64_t P = a.OH * a.OW, rows = m1 - m0, rpad = (rows + t.mr - 1) / t.mr * t.mr, ldc = c1 - c0 + 16;
  int64_t* off = nn::scratch<int64_t>(3, (size_t)rpad);
  for (int64_t r = 0; r < rows; r++) {
    const int64_t m = m0 + r, n = m / P, p = m % P;
    off[r] = n * a.xn + (p / a.OW) * a.sh * a.xh + (p % a.OW) * a.sw * a.xw;
  }
  float* ap = nn::scratch<float>(0, (size_t)(rpad * t.kc));
  float* T = nn::scratch<float>(1, (size_t)(rows * ldc));
  // Panels whose mr pixels are adjacent in memory (stride 1, one image): copied as runs.
  std::vector<char>& runs = run_flags();
  runs.assign((size_t)(rpad / t.mr), 0);
  for (int64_t ip = 0; ip < rpad / t.mr; ip++) {
    const int64_t r0 = ip * t.mr;
    bool adj = r0 + t.mr <= rows;
    for (int64_t i = 1; adj && i < t.mr; i++) adj = off[r0 + i] == off[r0] + i;
    runs[(size_t)ip] = adj;
  }
  for (int64_t k0 = 0; k0 < a.C; k0 += t.kc) {
    const int64_t kcb = std::min<int64_t>(t.kc, a.C - k0);
    // Packed A: panel ip holds rows [ip * mr, ip * mr + mr) as kcb steps of mr values (the
    // layout gemm_f32_pack_a writes). The kcb channel planes' lines a panel reads stay in L1 for
    // the next panel, which reads the following pixels.
    const float* xk = X + k0 * a.xc;
    for (int64_t ip = 0; ip < rpad / t.mr; ip++) {
      const int64_t r0 = ip * t.mr;
      float* dst = ap + ip * kcb * t.mr;
      if (runs[(size_t)ip] && t.mr == 8) {
        const float* src = xk + off[r0];
        for (int64_t kk = 0; kk < kcb; kk++)
          for (int i = 0; i < 8; i++) dst[kk * 8 + i] = src[kk * a.xc + i];
      } else if (r0 + t.mr <= rows && t.mr == 8) {  // a whole panel of scattered pixels (stride 2)
        const int64_t* o8 = off + r0;
        for (int64_t kk = 0; kk < kcb; kk++) {
          const float* s = xk + kk * a.xc;
          for (int i = 0; i < 8; i++) dst[kk * 8 + i] = s[o8[i]];
        }
      } else {
        for (int64_t kk = 0; kk < kcb; kk++)
          for (int64_t i = 0; i < t.mr; i++) dst[kk * t.mr + i] = r0 + i < rows ? xk[kk * a.xc + off[r0 + i]] : 0.f;
      }
    }
    const float* bk = pw.b + k0 * pw.npad;
    for (int64_t j = c0; j < c1; j += t.nr)
      gemm_f32_panel(rows, kcb, ap, bk + (j / t.nr) * kcb * t.nr, std::min<int64_t>(t.nr, c1 - j), k0 == 0 ? 0.f : 1.f, T + (j - c0), ldc);
  }
  // T [rows, part] -> NCHW, one image's run of pixels at a time; the epilogue runs on each
  // channel's run right after it is written (still in L1).
  for (int64_t m = m0; m < m1;) {
    const int64_t n = m / P, p0 = m % P, p1 = std::min(P, p0 + (m1 - m));
    const float* src = T + (m - m0) * ldc;
    for (int64_t co = c0; co < c1; co++) {
      float* dst = O + (n * a.Cout + co) * P;
      const float* s = src + (co - c0);
      for (int64_t p = p0; p < p1; p++) dst[p] = s[(p - p0) * ldc];
      if (epi) epi(n, co, co + 1, p0, p1);
    }
    m += p1 - p0;
  }
}

}  // namespace

bool conv1x1t_applies(const Conv1x1& a, bool const_weight) {
  const int mode = t_mode();
  if (mode == 0 || a.N <= 0 || a.C <= 0 || a.Cout <= 0 || a.OH <= 0 || a.OW <= 0) return false;
  if (mode == 2) return true;
  // By tile use, decided on the per-image P only (not the batch), so one instruction keeps one
  // cached weight form whatever batch a plan is rebound to: pixel panels of the implicit path
  // (ceil(P / nr) * nr columns) against pixel rows here (ceil(P / mr) * mr). P = 49, 196 (ResNet's
  // 7x7 and 14x14 stages) qualify, 784 and 3136 do not. Enough channels on both sides that
  // packing A per task is small next to its GEMM, and whole output panels.
  const GemmTiles t = gemm_f32_tiles();
  const int64_t P = a.OH * a.OW;
  const double cols = (double)((P + t.nr - 1) / t.nr * t.nr) / (double)P, rows = (double)((P + t.mr - 1) / t.mr * t.mr) / (double)P;
  // Packing W^T (a strided gather) costs about a 32nd of the GEMM per pixel row: a weight that is
  // not a cached constant (eager calls, training) takes this path only for enough rows.
  // A strided conv (a downsample shortcut) gathers its A rows pixel by pixel, where the implicit
  // path's im2col blocks are already whole images: only P = 49 (stage 5) gained by measurement.
  const double need = a.sh == 1 && a.sw == 1 ? 0.06 : 0.15;
  return a.C >= 64 && a.Cout >= 64 && a.Cout % t.nr == 0 && cols - rows > need && (const_weight || a.N * P >= 512);
}

void conv1x1t_f32(const Conv1x1& a, const Tensor& w_in, const float* W, const float* X, float* O, const Conv1x1Epilogue& epi) {
  const GemmTiles t = gemm_f32_tiles();
  PackedWT local;
  const PackedWT& pw = packed_wt(w_in, W, a.C, a.Cout, local);
  const int64_t M = a.N * a.OH * a.OW;
  // Row blocks of at most mc rows (the packed A block stays in L2), equal and whole panels;
  // channel parts of at most 512 (T [rows, part] within 256 KB; packing A costs 1/part).
  int64_t nrb = (M + t.mc - 1) / t.mc;
  int64_t rows = ((M + nrb - 1) / nrb + t.mr - 1) / t.mr * t.mr;
  nrb = (M + rows - 1) / rows;
  const int64_t npan = (a.Cout + t.nr - 1) / t.nr;
  int64_t ppart = std::min<int64_t>(npan, std::max<int64_t>(1, 512 / t.nr));
  // At least two tasks per thread (claimed dynamically): narrower channel parts first (each only
  // re-packs A, 1/part of its GEMM), then smaller row blocks.
  const int nt = num_threads();
  const int64_t target = nt > 1 ? 2 * (int64_t)nt : 1;
  while (nrb * ((npan + ppart - 1) / ppart) < target && ppart > 2) ppart = (ppart + 1) / 2;
  while (nrb * ((npan + ppart - 1) / ppart) < target && rows > 2 * t.mr) {
    rows = (rows / 2 + t.mr - 1) / t.mr * t.mr;
    nrb = (M + rows - 1) / rows;
  }
  const int64_t nparts = (npan + ppart - 1) / ppart, units = nrb * nparts;
  // W^T outweighs the pixels' data (ResNet's 14x14 and 7x7 stages at batch 1): one group of
  // channel parts per thread, so each core streams its own slice of W^T (conv_tasks.h); else
  // row-block-major, a band of pixels per core.
  const bool heavy = a.C * a.Cout > M * (a.C + a.Cout);
  const ConvTaskOrder order{nrb, nparts, conv_task_groups(heavy, nparts, nt)};
  auto task = [&](int64_t u) {
    int64_t rb, pi;
    order.at(u, rb, pi);
    const int64_t m0 = rb * rows, c0 = pi * ppart * t.nr;
    run_block(a, pw, X, O, m0, std::min(M, m0 + rows), c0, std::min(a.Cout, c0 + ppart * t.nr), epi);
  };
  // Below 2^20 multiply-adds a second thread costs more than it saves (as in the implicit GEMM).
  if ((double)M * (double)a.Cout * (double)a.C < double(1 << 20)) { for (int64_t u = 0; u < units; u++) task(u); return; }
  parallel_tasks(units, task);
}

}  // namespace skiff
