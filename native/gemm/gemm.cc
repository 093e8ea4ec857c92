// Blocked, packed GEMM (the Goto/BLIS loop nest) for float32 and float64. See gemm.h for the
// contract. Layout of the work:
//
//   for pc in K by KC:                 B block (KC x n) is packed once, shared by all threads
//     for ic in my rows by MC:         A block (MC x KC) packed into a thread-local buffer (L2)
//       for jr in my columns by NR:    B micro-panel (KC x NR) stays in L1 across the ir loop
//         for ir in block by MR:       micro-kernel: MR x NR tile of C kept in registers
//
// Threads split C into a tm x tn grid (rows first, so B is shared and nobody packs A twice).
// B is packed cooperatively: each KC x NR panel has a flag (free / being packed / ready);
// a thread first claims and packs free panels of its column range, then waits only for
// panels other threads have already claimed. A claimed panel is always being packed by a
// running thread, so this needs no barrier and cannot deadlock even if the pool runs the
// per-thread bodies one after another on a single thread. Because panels are never reused
// within a call, the whole packed B (k x n, rounded to NR) lives in one buffer that the
// calling thread keeps between calls (grown, never freed per call).
#include "gemm.h"
#include "gemm_packed.h"
#include "gemm_panel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <thread>
#include <type_traits>

#include "threadpool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SKIFF_PAUSE() _mm_pause()
#else
#define SKIFF_PAUSE() ((void)0)
#endif

namespace skiff {
namespace {

// ---------------------------------------------------------------------------------------
// Configuration. MR x NR is the register tile; NR is a whole number of vectors.
// KC: the B micro-panel (KC*NR elements) must fit L1 (48 KB on Zen 4/5, 32-48 KB on Intel).
// MC: the packed A block (MC*KC) must fit L2 comfortably next to the B block's traffic.
// Measured on the 2-core AVX-512 VM (Zen 5): two 512-bit FMAs per cycle give ~225 GF/s per
// core, and every tile from 6x32 to 14x32 (or 8x48, 4x64) reaches that in L1, so the choice
// is about edges: MR = 8 divides the power-of-two sizes common in models (6 leaves a sliver).
// KC 192-384 and MC 96-128 were within noise of each other.
// ---------------------------------------------------------------------------------------
#if defined(__GNUC__) && defined(__AVX512F__)
#define SKIFF_GEMM_VECTOR 1
constexpr int kVecBytes = 64;
constexpr const char* kInfo = "avx512 f32 8x32 f64 8x16";
template <typename T> struct Cfg;
template <> struct Cfg<float> { static constexpr int MR = 8, NR = 32, KC = 256, MC = 128; };
template <> struct Cfg<double> { static constexpr int MR = 8, NR = 16, KC = 256, MC = 96; };
#elif defined(__GNUC__) && defined(__AVX2__)
#define SKIFF_GEMM_VECTOR 1
constexpr int kVecBytes = 32;
constexpr const char* kInfo = "avx2 f32 6x16 f64 6x8";
template <typename T> struct Cfg;
template <> struct Cfg<float> { static constexpr int MR = 6, NR = 16, KC = 256, MC = 120; };
template <> struct Cfg<double> { static constexpr int MR = 6, NR = 8, KC = 256, MC = 120; };
#else
#define SKIFF_GEMM_VECTOR 0
constexpr const char* kInfo = "scalar f32 4x4 f64 4x4";
template <typename T> struct Cfg { static constexpr int MR = 4, NR = 4, KC = 256, MC = 128; };
#endif

// Problems with m*n*k below this run a direct loop without packing (16^3: 0.08 us direct
// vs 0.26 us packed; from 32^3 on the packed path is faster).
constexpr double kSmallWork = 32.0 * 32 * 32;
// Minimum m*n*k per thread before another thread is woken: waking a pool thread costs
// ~10-20 us, so on the 2-core machine 2 threads only pay off from about 180^3.
constexpr double kWorkPerThread = 144.0 * 144 * 144;
// Largest packed-B buffer kept per calling thread (it is reused, never freed per call);
// bigger problems are split into column/k chunks so memory stays bounded.
constexpr size_t kMaxPackB = size_t(32) << 20;

// 64-byte aligned scratch that only grows. Thread-local instances are reused by every call.
struct AlignedBuf {
  void* p = nullptr;
  size_t cap = 0;
  void* get(size_t bytes) {  // nullptr on allocation failure (callers report it)
    if (bytes > cap) {
      std::free(p);
      size_t b = (bytes + 63) & ~size_t(63);
      p = std::aligned_alloc(64, b);
      cap = p ? b : 0;
    }
    return p;
  }
  ~AlignedBuf() { std::free(p); }
};

// Packed B and its per-panel flags: owned by the thread that calls gemm, shared with helpers.
struct SharedPack {
  AlignedBuf buf;
  std::unique_ptr<std::atomic<uint8_t>[]> flags;
  size_t nflags = 0;
  std::atomic<uint8_t>* get_flags(size_t n) {
    if (n > nflags) {
      flags.reset(new std::atomic<uint8_t>[n]);
      nflags = n;
    }
    for (size_t i = 0; i < n; i++) flags[i].store(0, std::memory_order_relaxed);
    return flags.get();
  }
};
thread_local SharedPack tl_shared;
thread_local AlignedBuf tl_apack;

enum : uint8_t { kFree = 0, kPacking = 1, kReady = 2 };

inline void wait_ready(const std::atomic<uint8_t>& f) {
  for (int spins = 0; f.load(std::memory_order_acquire) != kReady; spins++) {
    if (spins < 2048) SKIFF_PAUSE();
    else std::this_thread::yield();  // the packer may have been descheduled
  }
}

// ---------------------------------------------------------------------------------------
// Micro-kernels: C[MR x NR] (row stride ldc) = Apanel * Bpanel (+ beta * C).
// Apanel is kc x MR (MR values per k step), Bpanel is kc x NR, both packed and contiguous.
// ---------------------------------------------------------------------------------------
#if SKIFF_GEMM_VECTOR
template <typename T, int MR, int NR>
struct Micro {
  typedef T V __attribute__((vector_size(kVecBytes)));
  static constexpr int W = kVecBytes / (int)sizeof(T);
  static constexpr int NV = NR / W;
  static_assert(NR % W == 0, "NR must be a whole number of vectors");

  static void run(int64_t kc, const T* __restrict a, const T* __restrict b, T* __restrict c, int64_t ldc, T beta) {
    V acc[MR][NV];
    for (int i = 0; i < MR; i++)
      for (int j = 0; j < NV; j++) acc[i][j] = V{};
    // The C tile is touched only after the k loop; start pulling it in now.
    for (int i = 0; i < MR; i++) {
      __builtin_prefetch(c + i * ldc, 1);
      __builtin_prefetch(c + i * ldc + NR - 1, 1);
    }
#pragma GCC unroll 4
    for (int64_t p = 0; p < kc; p++) {
      V bv[NV];
      for (int j = 0; j < NV; j++) bv[j] = *reinterpret_cast<const V*>(b + j * W);  // packed: aligned
      for (int i = 0; i < MR; i++) {
        const T ai = a[i];  // broadcast from memory
        for (int j = 0; j < NV; j++) acc[i][j] += ai * bv[j];
      }
      a += MR;
      b += NR;
    }
    for (int i = 0; i < MR; i++) {
      T* ci = c + i * ldc;
      for (int j = 0; j < NV; j++) {
        V r = acc[i][j];
        if (beta != T(0)) {
          V old;
          std::memcpy(&old, ci + j * W, sizeof(V));  // C rows need not be vector aligned
          r += beta * old;
        }
        std::memcpy(ci + j * W, &r, sizeof(V));
      }
    }
  }
};
#else
template <typename T, int MR, int NR>
struct Micro {
  static void run(int64_t kc, const T* __restrict a, const T* __restrict b, T* __restrict c, int64_t ldc, T beta) {
    T acc[MR][NR] = {};
    for (int64_t p = 0; p < kc; p++) {
      for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) acc[i][j] += a[i] * b[j];
      a += MR;
      b += NR;
    }
    for (int i = 0; i < MR; i++)
      for (int j = 0; j < NR; j++) c[i * ldc + j] = beta != T(0) ? acc[i][j] + beta * c[i * ldc + j] : acc[i][j];
  }
};
#endif

// ---------------------------------------------------------------------------------------
// Packing. Fast paths for the two unit-stride layouts; anything else is a plain gather.
// Rows/columns beyond the matrix edge are zero so the micro-kernel can always run full tiles.
// ---------------------------------------------------------------------------------------

// A block rows [0, mc) x cols [0, kc) of A (already offset) -> MR-row panels, scaled by alpha.
template <typename T, int MR>
void pack_a(const T* A, int64_t rsa, int64_t csa, int64_t mc, int64_t kc, T alpha, T* dst) {
  if (rsa == 1 && csa != 1) {
    // Transposed A: the mc values of one k step are contiguous. Walk k in the outer loop and
    // read each whole row segment once; going panel by panel instead revisits the same lines
    // 4 KB apart (csa a power of two), which all fall in one L1 set and thrash (8x slower).
    const int64_t full = mc / MR * MR;
    for (int64_t p = 0; p < kc; p++) {
      const T* src = A + p * csa;
      T* d = dst + p * MR;
      for (int64_t ir = 0; ir < full; ir += MR, d += MR * kc)
        for (int i = 0; i < MR; i++) d[i] = alpha * src[ir + i];
      if (full < mc)
        for (int i = 0; i < MR; i++) d[i] = i < mc - full ? alpha * src[full + i] : T(0);
    }
    return;
  }
  for (int64_t ir = 0; ir < mc; ir += MR) {
    const int64_t mr = std::min<int64_t>(MR, mc - ir);
    const T* a = A + ir * rsa;
    if (mr == MR && csa == 1) {  // row-major A: MR streams along k
      const T* rows[MR];
      for (int i = 0; i < MR; i++) rows[i] = a + i * rsa;
      for (int64_t p = 0; p < kc; p++)
        for (int i = 0; i < MR; i++) dst[p * MR + i] = alpha * rows[i][p];
    } else {
      for (int64_t p = 0; p < kc; p++)
        for (int i = 0; i < MR; i++) dst[p * MR + i] = i < mr ? alpha * a[i * rsa + p * csa] : T(0);
    }
    dst += MR * kc;
  }
}

// One B panel: rows [0, kc) x cols [0, nr) of B (already offset) -> kc x NR, zero padded.
template <typename T, int NR>
void pack_b(const T* B, int64_t rsb, int64_t csb, int64_t kc, int64_t nr, T* dst) {
  if (nr == NR && csb == 1) {  // row-major B: each k step is one contiguous copy
    for (int64_t p = 0; p < kc; p++) std::memcpy(dst + p * NR, B + p * rsb, NR * sizeof(T));
  } else if (nr == NR && rsb == 1) {  // transposed B: read each column contiguously
    for (int j = 0; j < NR; j++) {
      const T* col = B + j * csb;
      for (int64_t p = 0; p < kc; p++) dst[p * NR + j] = col[p];
    }
  } else {
    for (int64_t p = 0; p < kc; p++)
      for (int j = 0; j < NR; j++) dst[p * NR + j] = j < nr ? B[p * rsb + j * csb] : T(0);
  }
}

// ---------------------------------------------------------------------------------------
// Packed, threaded driver.
// ---------------------------------------------------------------------------------------
template <typename T>
struct Job {
  int64_t m, n, k;
  T alpha, beta;
  const T* A; int64_t rsa, csa;
  const T* B; int64_t rsb, csb;
  T* C; int64_t ldc;
  int tm, tn;          // thread grid: tm row groups x tn column groups
  int64_t np;          // number of NR panels over n
  T* bpack;            // k x (np*NR), block pcb at pcb*KC*np*NR, panel jp at + jp*kc*NR
  std::atomic<uint8_t>* flags;  // (k blocks) x np
  std::atomic<bool> failed{false};
};

template <typename T>
void run_thread(Job<T>& J, int v) {
  constexpr int MR = Cfg<T>::MR, NR = Cfg<T>::NR, KC = Cfg<T>::KC, MC = Cfg<T>::MC;
  using K = Micro<T, MR, NR>;
  const int ri = v % J.tm, ci = v / J.tm;
  const int64_t mp = (J.m + MR - 1) / MR;
  const int64_t m0 = std::min(J.m, mp * ri / J.tm * MR), m1 = std::min(J.m, mp * (ri + 1) / J.tm * MR);
  const int64_t jp0 = J.np * ci / J.tn, jp1 = J.np * (ci + 1) / J.tn, cnt = jp1 - jp0;
  // Allocate before claiming any panel: if this fails nobody waits on us.
  T* ap = static_cast<T*>(tl_apack.get(sizeof(double) * Cfg<double>::MC * Cfg<double>::KC +
                                       sizeof(float) * Cfg<float>::MC * Cfg<float>::KC));
  if (!ap) { J.failed.store(true); return; }
  if (cnt == 0) return;
  // Row blocks of even size (a multiple of MR, at most MC) so no thread ends with a sliver.
  const int64_t rows = m1 - m0;
  const int64_t nblk = std::max<int64_t>(1, (rows + MC - 1) / MC);
  const int64_t mcb = ((rows + nblk - 1) / nblk + MR - 1) / MR * MR;
  alignas(64) T tmp[MR * NR];

  for (int64_t pc = 0, pcb = 0; pc < J.k; pc += KC, pcb++) {
    const int64_t kc = std::min<int64_t>(KC, J.k - pc);
    T* bblock = J.bpack + pc * J.np * NR;
    std::atomic<uint8_t>* fl = J.flags + pcb * J.np;
    // Pack free panels of our column range, starting at a different point per row group so
    // threads sharing the range split the packing instead of queueing on the same panel.
    const int64_t start = cnt * ri / J.tm;
    for (int64_t q = 0; q < cnt; q++) {
      const int64_t jp = jp0 + (start + q) % cnt;
      uint8_t expect = kFree;
      if (fl[jp].load(std::memory_order_relaxed) != kFree ||
          !fl[jp].compare_exchange_strong(expect, kPacking, std::memory_order_acq_rel))
        continue;
      pack_b<T, NR>(J.B + pc * J.rsb + jp * NR * J.csb, J.rsb, J.csb, kc, std::min<int64_t>(NR, J.n - jp * NR),
                    bblock + jp * kc * NR);
      fl[jp].store(kReady, std::memory_order_release);
    }
    if (rows <= 0) continue;  // we still helped pack
    const T beta = pc == 0 ? J.beta : T(1);  // later k blocks accumulate
    for (int64_t ic = m0; ic < m1; ic += mcb) {
      const int64_t mc = std::min(mcb, m1 - ic);
      pack_a<T, MR>(J.A + ic * J.rsa + pc * J.csa, J.rsa, J.csa, mc, kc, J.alpha, ap);
      for (int64_t jp = jp0; jp < jp1; jp++) {
        wait_ready(fl[jp]);
        const T* bp = bblock + jp * kc * NR;
        const int64_t nr = std::min<int64_t>(NR, J.n - jp * NR);
        for (int64_t ir = 0; ir < mc; ir += MR) {
          const int64_t mr = std::min<int64_t>(MR, mc - ir);
          T* c = J.C + (ic + ir) * J.ldc + jp * NR;
          if (mr == MR && nr == NR) {
            K::run(kc, ap + ir * kc, bp, c, J.ldc, beta);
          } else {  // edge tile: compute the full tile aside, write back only what exists
            K::run(kc, ap + ir * kc, bp, tmp, NR, T(0));
            for (int64_t i = 0; i < mr; i++)
              for (int64_t j = 0; j < nr; j++)
                c[i * J.ldc + j] = beta != T(0) ? tmp[i * NR + j] + beta * c[i * J.ldc + j] : tmp[i * NR + j];
          }
        }
      }
    }
  }
}

// Picks the thread grid minimising the largest per-thread tile (rounded to whole tiles);
// ties go to more row groups, which share B and never duplicate A packing.
/** Runs the job's tm x tn grid of thread indices (inline when there is one) and reports a failed one. */
template <typename T>
void run_grid(Job<T>& J) {
  const int nt = J.tm * J.tn;
  if (nt == 1) {
    run_thread(J, 0);
  } else {
    // One index per thread; if the pool runs several on one thread, the flags still work.
    parallel_for(nt, 1, [&J](int64_t b, int64_t e) {
      for (int64_t v = b; v < e; v++) {
        try { run_thread(J, (int)v); } catch (...) { J.failed.store(true); }
      }
    });
  }
  if (J.failed.load()) throw std::bad_alloc();
}

template <typename T>
void choose_grid(int64_t m, int64_t n, int t, int& tm, int& tn) {
  constexpr int MR = Cfg<T>::MR, NR = Cfg<T>::NR;
  const int64_t mp = (m + MR - 1) / MR, np = (n + NR - 1) / NR;
  int64_t best = -1;
  for (int a = t; a >= 1; a--) {
    if (t % a) continue;
    const int b = t / a;
    const int64_t cost = (mp + a - 1) / a * MR * ((np + b - 1) / b * NR);
    if (best < 0 || cost < best) { best = cost; tm = a; tn = b; }
  }
}

template <typename T>
void gemm_packed(int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t rsa, int64_t csa, const T* B,
                 int64_t rsb, int64_t csb, T beta, T* C, int64_t ldc, int threads) {
  constexpr int NR = Cfg<T>::NR, KC = Cfg<T>::KC;
  // Bound the packed-B buffer: split n (whole panels) and then k (whole KC blocks) into chunks.
  const size_t panel_col_bytes = sizeof(T) * NR;  // bytes per k row of one panel
  int64_t np_all = (n + NR - 1) / NR;
  int64_t kchunk = k;
  if (panel_col_bytes * (size_t)k > kMaxPackB) kchunk = std::max<int64_t>(KC, (int64_t)(kMaxPackB / panel_col_bytes) / KC * KC);
  const int64_t pchunk = std::max<int64_t>(1, (int64_t)(kMaxPackB / (panel_col_bytes * (size_t)kchunk)));
  for (int64_t p0 = 0; p0 < k; p0 += kchunk) {
    const int64_t kk = std::min(kchunk, k - p0);
    const T b_eff = p0 == 0 ? beta : T(1);
    for (int64_t q0 = 0; q0 < np_all; q0 += pchunk) {
      const int64_t j0 = q0 * NR, nn = std::min(n - j0, pchunk * NR);
      Job<T> J;
      J.m = m; J.n = nn; J.k = kk; J.alpha = alpha; J.beta = b_eff;
      J.A = A + p0 * csa; J.rsa = rsa; J.csa = csa;
      J.B = B + p0 * rsb + j0 * csb; J.rsb = rsb; J.csb = csb;
      J.C = C + j0; J.ldc = ldc;
      J.np = (nn + NR - 1) / NR;
      choose_grid<T>(m, nn, threads, J.tm, J.tn);
      J.bpack = static_cast<T*>(tl_shared.buf.get(sizeof(T) * (size_t)kk * (size_t)J.np * NR));
      if (!J.bpack) throw std::bad_alloc();
      J.flags = tl_shared.get_flags((size_t)((kk + KC - 1) / KC) * (size_t)J.np);
      run_grid(J);
    }
  }
}

// B packed ahead of time (gemm_packed.h): the whole k x n in the layout gemm_packed builds per
// call (KC blocks, each np panels of kc x NR), with every panel flag already "ready", so
// run_thread skips its packing step and only reads.
struct PackedBData {
  int64_t k = 0, n = 0, rsb = 0, csb = 0, np = 0;
  AlignedBuf buf;
  std::unique_ptr<std::atomic<uint8_t>[]> flags;
};

// ---------------------------------------------------------------------------------------
// Direct paths for small and vector-shaped problems (no packing, no thread wake-ups).
// ---------------------------------------------------------------------------------------
template <typename T>
inline T blend(T acc, T alpha, T beta, const T* c) { return beta != T(0) ? alpha * acc + beta * *c : alpha * acc; }

#if SKIFF_GEMM_VECTOR
// R rows x one vector of C, with A and B read in place (B rows contiguous). R independent
// accumulators hide the FMA latency; nothing is packed, so this wins for tiny problems.
template <typename T, int R>
inline void direct_tile(int64_t k, const T* A, int64_t rsa, int64_t csa, const T* B, int64_t rsb, T* C, int64_t ldc,
                        T alpha, T beta) {
  typedef T V __attribute__((vector_size(kVecBytes)));
  V acc[R];
  for (int r = 0; r < R; r++) acc[r] = V{};
  for (int64_t p = 0; p < k; p++) {
    V b;
    std::memcpy(&b, B + p * rsb, sizeof(V));
    for (int r = 0; r < R; r++) acc[r] += A[r * rsa + p * csa] * b;
  }
  for (int r = 0; r < R; r++) {
    V out = alpha * acc[r];
    if (beta != T(0)) {
      V old;
      std::memcpy(&old, C + r * ldc, sizeof(V));
      out += beta * old;
    }
    std::memcpy(C + r * ldc, &out, sizeof(V));
  }
}
#endif

template <typename T>
void gemm_small(int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t rsa, int64_t csa, const T* B,
                int64_t rsb, int64_t csb, T beta, T* C, int64_t ldc) {
  int64_t n_done = 0;  // columns [0, n_done) handled by the vector tiles
#if SKIFF_GEMM_VECTOR
  constexpr int W = kVecBytes / (int)sizeof(T);
  constexpr int64_t kStrip = 4096 / sizeof(T) * sizeof(float);  // elements of a copied B strip (16 KB)
  alignas(64) T strip[kStrip];  // B columns that are strided or fewer than W, copied and zero padded
  alignas(64) T ctmp[8 * W];
  const bool can_copy = k * W <= kStrip;
  for (int64_t j = 0; j < n; j += W) {
    const int64_t nr = std::min<int64_t>(W, n - j);
    const bool in_place = nr == W && csb == 1;
    if (!in_place && !can_copy) break;  // the scalar loop below takes the rest
    const T* b = B + j * csb;
    int64_t ldb = rsb;
    if (!in_place) {
      for (int64_t p = 0; p < k; p++)
        for (int64_t q = 0; q < W; q++) strip[p * W + q] = q < nr ? B[p * rsb + (j + q) * csb] : T(0);
      b = strip;
      ldb = W;
    }
    auto tile = [&](auto rows_tag, int64_t i) {
      constexpr int R = decltype(rows_tag)::value;
      if (nr == W) return direct_tile<T, R>(k, A + i * rsa, rsa, csa, b, ldb, C + i * ldc + j, ldc, alpha, beta);
      direct_tile<T, R>(k, A + i * rsa, rsa, csa, b, ldb, ctmp, W, alpha, T(0));
      for (int r = 0; r < R; r++)
        for (int64_t q = 0; q < nr; q++) {
          T* c = C + (i + r) * ldc + j + q;
          *c = beta != T(0) ? ctmp[r * W + q] + beta * *c : ctmp[r * W + q];
        }
    };
    int64_t i = 0;
    for (; i + 8 <= m; i += 8) tile(std::integral_constant<int, 8>{}, i);
    for (; i + 4 <= m; i += 4) tile(std::integral_constant<int, 4>{}, i);
    for (; i < m; i++) tile(std::integral_constant<int, 1>{}, i);
    n_done = j + nr;
  }
#endif
  // Remaining columns (or everything without vectors / with strided B): scalar loops.
  const bool dot = csa == 1 && rsb == 1;  // both operands contiguous along k
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = n_done; j < n; j++) {
      T s = 0;
      if (dot) {
        const T* a = A + i * rsa;
        const T* b = B + j * csb;
        for (int64_t p = 0; p < k; p++) s += a[p] * b[p];
      } else {
        for (int64_t p = 0; p < k; p++) s += A[i * rsa + p * csa] * B[p * rsb + j * csb];
      }
      C[i * ldc + j] = blend(s, alpha, beta, C + i * ldc + j);
    }
}

// y[i*incy] = alpha * sum_p M[i*rs + p*cs] * x[p*incx] + beta * y[i*incy]  (matrix-vector).
template <typename T>
void gemv(int64_t rows, int64_t cols, T alpha, const T* M, int64_t rs, int64_t cs, const T* x, int64_t incx, T beta,
          T* y, int64_t incy, int threads) {
  const double work = (double)rows * (double)cols;
  if (work < 65536.0) threads = 1;  // memory bound: only large ones gain from a second thread
  auto run = [&](auto&& fn, int64_t grain) {
    if (threads <= 1) fn(0, rows);
    else parallel_for(rows, std::max<int64_t>(grain, (rows + threads - 1) / threads), fn);
  };
  if (cs == 1 || rs != 1) {  // rows are contiguous (or nothing is): one dot product per output
    run([&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; i++) {
        const T* r = M + i * rs;
        T s = 0;
        if (cs == 1 && incx == 1) for (int64_t p = 0; p < cols; p++) s += r[p] * x[p];
        else for (int64_t p = 0; p < cols; p++) s += r[p * cs] * x[p * incx];
        y[i * incy] = blend(s, alpha, beta, y + i * incy);
      }
    }, 16);
  } else {  // columns are contiguous: accumulate x[p] * column p over a strip of outputs
    run([&](int64_t b, int64_t e) {
      // A strip of IB outputs small enough that its accumulators stay in vector registers for
      // the whole pass over x (a 256-wide strip lived on the stack: a load and a store per FMA).
      constexpr int64_t IB = 64 / sizeof(T) * 4;   // 4 AVX-512 registers
      T acc[IB];
      for (int64_t i0 = b; i0 < e; i0 += IB) {
        const int64_t ib = std::min(IB, e - i0);
        if (ib == IB) {
          for (int64_t i = 0; i < IB; i++) acc[i] = 0;
          for (int64_t p = 0; p < cols; p++) {
            const T xp = x[p * incx];
            const T* col = M + p * cs + i0;
            for (int64_t i = 0; i < IB; i++) acc[i] += xp * col[i];   // constant trip count: kept in registers
          }
        } else {
          for (int64_t i = 0; i < ib; i++) acc[i] = 0;
          for (int64_t p = 0; p < cols; p++) {
            const T xp = x[p * incx];
            const T* col = M + p * cs + i0;
            for (int64_t i = 0; i < ib; i++) acc[i] += xp * col[i];
          }
        }
        for (int64_t i = 0; i < ib; i++) y[(i0 + i) * incy] = blend(acc[i], alpha, beta, y + (i0 + i) * incy);
      }
    }, 64);
  }
}

template <typename T>
void gemm_any(int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t rsa, int64_t csa, const T* B,
              int64_t rsb, int64_t csb, T beta, T* C, int64_t ldc, int max_threads) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == T(0)) {  // C = beta*C without reading C when beta == 0
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) C[i * ldc + j] = beta != T(0) ? beta * C[i * ldc + j] : T(0);
    return;
  }
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  const double work = (double)m * (double)n * (double)k;
  if (n == 1) return gemv(m, k, alpha, A, rsa, csa, B, rsb, beta, C, ldc, threads);
  if (m == 1) return gemv(n, k, alpha, B, csb, rsb, A, csa, beta, C, 1, threads);  // C^T = B^T A^T
  if (work < kSmallWork) return gemm_small(m, n, k, alpha, A, rsa, csa, B, rsb, csb, beta, C, ldc);
  threads = std::max(1, std::min<int>(threads, (int)(work / kWorkPerThread)));
  gemm_packed(m, n, k, alpha, A, rsa, csa, B, rsb, csb, beta, C, ldc, threads);
}

}  // namespace

void gemm(int64_t m, int64_t n, int64_t k, float alpha, const float* A, int64_t rsa, int64_t csa, const float* B,
          int64_t rsb, int64_t csb, float beta, float* C, int64_t ldc, int max_threads) {
  gemm_any<float>(m, n, k, alpha, A, rsa, csa, B, rsb, csb, beta, C, ldc, max_threads);
}
void gemm(int64_t m, int64_t n, int64_t k, double alpha, const double* A, int64_t rsa, int64_t csa, const double* B,
          int64_t rsb, int64_t csb, double beta, double* C, int64_t ldc, int max_threads) {
  gemm_any<double>(m, n, k, alpha, A, rsa, csa, B, rsb, csb, beta, C, ldc, max_threads);
}
const char* gemm_kernel_info() { return kInfo; }

struct PackedB : PackedBData {};

std::shared_ptr<PackedB> gemm_pack_b(int64_t k, int64_t n, const float* B, int64_t rsb, int64_t csb) {
  constexpr int NR = Cfg<float>::NR, KC = Cfg<float>::KC;
  auto pb = std::make_shared<PackedB>();
  pb->k = k; pb->n = n; pb->rsb = rsb; pb->csb = csb;
  pb->np = (n + NR - 1) / NR;
  const int64_t nkb = (k + KC - 1) / KC;
  float* dst = static_cast<float*>(pb->buf.get(sizeof(float) * (size_t)std::max<int64_t>(1, k) * (size_t)pb->np * NR));
  if (!dst) throw std::bad_alloc();
  pb->flags.reset(new std::atomic<uint8_t>[(size_t)std::max<int64_t>(1, nkb * pb->np)]);
  for (int64_t i = 0; i < nkb * pb->np; i++) pb->flags[(size_t)i].store(kReady, std::memory_order_relaxed);
  const int64_t np = pb->np;
  // One task per (k block, panel); packing a big weight once is worth both threads.
  parallel_for(nkb * np, 64, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; t++) {
      const int64_t pcb = t / np, jp = t % np, pc = pcb * KC, kc = std::min<int64_t>(KC, k - pc);
      pack_b<float, NR>(B + pc * rsb + jp * NR * csb, rsb, csb, kc, std::min<int64_t>(NR, n - jp * NR), dst + pc * np * NR + jp * kc * NR);
    }
  });
  return pb;
}

bool packed_b_matches(const PackedB& pb, int64_t k, int64_t n, int64_t rsb, int64_t csb) {
  return pb.k == k && pb.n == n && pb.rsb == rsb && pb.csb == csb;
}

void gemm_prepacked(int64_t m, int64_t n, int64_t k, float alpha, const float* A, int64_t rsa, int64_t csa, const float* B,
                    int64_t rsb, int64_t csb, const PackedB& pb, float beta, float* C, int64_t ldc, int max_threads) {
  // Everything gemm_any would not send to the packed path reads B itself.
  const double work = (double)m * (double)n * (double)k;
  if (m <= 1 || n <= 1 || k <= 0 || alpha == 0.f || work < kSmallWork || !packed_b_matches(pb, k, n, rsb, csb))
    return gemm(m, n, k, alpha, A, rsa, csa, B, rsb, csb, beta, C, ldc, max_threads);
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  threads = std::max(1, std::min<int>(threads, (int)(work / kWorkPerThread)));
  Job<float> J;
  J.m = m; J.n = n; J.k = k; J.alpha = alpha; J.beta = beta;
  J.A = A; J.rsa = rsa; J.csa = csa;
  J.B = B; J.rsb = rsb; J.csb = csb;
  J.C = C; J.ldc = ldc;
  J.np = pb.np;
  // With B already packed, splitting rows only makes every thread stream all of B (the big
  // operand when m < n: a language model head's 38 MB weight against 64 rows); splitting columns
  // halves that and duplicates only the packing of A, which is small.
  if (m < n && J.np >= threads) { J.tm = 1; J.tn = threads; }
  else choose_grid<float>(m, n, threads, J.tm, J.tn);
  J.bpack = static_cast<float*>(pb.buf.p);
  J.flags = pb.flags.get();
  run_grid(J);
}

}  // namespace skiff

// ---------------------------------------------------------------------------------------
// Pieces for callers that pack B themselves (gemm_panel.h).
// ---------------------------------------------------------------------------------------
namespace skiff {

GemmTiles gemm_f32_tiles() { return {Cfg<float>::MR, Cfg<float>::NR, Cfg<float>::KC, Cfg<float>::MC}; }

void gemm_f32_pack_a(int64_t m, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* dst) {
  pack_a<float, Cfg<float>::MR>(A, rsa, csa, m, kc, 1.f, dst);
}

void gemm_f32_pack_b(int64_t kc, int64_t nr, const float* B, int64_t rsb, int64_t csb, float* dst) {
  pack_b<float, Cfg<float>::NR>(B, rsb, csb, kc, nr, dst);
}

void gemm_f32_panel(int64_t mc, int64_t kc, const float* ap, const float* bp, int64_t nr, float beta, float* C, int64_t ldc) {
  constexpr int MR = Cfg<float>::MR, NR = Cfg<float>::NR;
  using K = Micro<float, MR, NR>;
  alignas(64) float tmp[MR * NR];
  for (int64_t ir = 0; ir < mc; ir += MR) {
    const int64_t mr = std::min<int64_t>(MR, mc - ir);
    float* c = C + ir * ldc;
    if (mr == MR && nr == NR) {
      K::run(kc, ap + ir * kc, bp, c, ldc, beta);
    } else {  // edge tile: as run_thread does, compute aside and write back what exists
      K::run(kc, ap + ir * kc, bp, tmp, NR, 0.f);
      for (int64_t i = 0; i < mr; i++)
        for (int64_t j = 0; j < nr; j++) c[i * ldc + j] = beta != 0.f ? tmp[i * NR + j] + beta * c[i * ldc + j] : tmp[i * NR + j];
    }
  }
}

}  // namespace skiff
