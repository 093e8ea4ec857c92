// Matrix decompositions (definitions and attribute layouts: src/ops/defs/linalg_decomp.ts):
// qr, svd, eigh, eigvalsh, and matrix_rank, pinv, lstsq built on the same routines.
//
// Inputs are [..., M, N] (float32/float64); the batch is spread over threads, one matrix per task.
// Values are stored in the input dtype; dot products and rotation scalars go through double.
//  - qr: Householder reflections. The matrix is held transposed (one row per column) so every
//    reflector update is a contiguous dot/axpy; a large single matrix splits the column updates
//    over threads. R's diagonal has LAPACK's sign convention (opposite to the pivot's sign).
//  - svd: one-sided Jacobi (Hestenes) on the rows of A (M < N) or of A^T (M >= N), so the long
//    side is always contiguous. It converges for rank-deficient inputs (zero columns stay zero);
//    singular vectors with no defined direction (sigma ~ 0, or the extra ones of full_matrices)
//    are completed to an orthonormal basis. Singular values descend.
//  - eigh/eigvalsh: cyclic two-sided Jacobi on the symmetric matrix read from the UPLO triangle;
//    eigenvalues ascend, eigenvectors are the columns of out_v.
// Both Jacobi methods sweep in round-robin order, whose rounds are disjoint pairs: a single
// large matrix spreads each round over threads (nested inside the batch loop it runs serially).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "kernel.h"

namespace skiff {
namespace {

struct Mat {
  std::vector<int64_t> lead;  // batch dims
  int64_t batch = 1, m = 0, n = 0;
};

Mat mat_of(const char* op, const Tensor& x, const char* what = "input") {
  if (x.dtype != DType::F32 && x.dtype != DType::F64)
    throw SkiffError(std::string(op) + ": expected a float32 or float64 " + what + ", got " + dtype_name(x.dtype));
  if (x.ndim() < 2)
    throw SkiffError(std::string(op) + ": expected the " + what + " to have rank >= 2 ([..., M, N]), got shape " + shape_str(x.shape));
  Mat s;
  s.lead.assign(x.shape.begin(), x.shape.end() - 2);
  for (auto d : s.lead) s.batch *= d;
  s.m = x.shape[x.shape.size() - 2];
  s.n = x.shape[x.shape.size() - 1];
  return s;
}

std::vector<int64_t> with(std::vector<int64_t> a, std::initializer_list<int64_t> b) { a.insert(a.end(), b); return a; }

// One matrix per task unless the matrices are tiny.
int64_t grain_for(int64_t work) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work)); }

template <typename T> constexpr double eps_of() { return (double)std::numeric_limits<T>::epsilon(); }

template <typename T>
double dot(const T* a, const T* b, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += (double)a[i] * (double)b[i];
  return s;
}

// Applies the plane rotation [c -s; s c] to the pair of rows (x, y).
template <typename T>
void rotate(T* x, T* y, int64_t n, double c, double s) {
  for (int64_t i = 0; i < n; i++) {
    const double a = x[i], b = y[i];
    x[i] = (T)(c * a - s * b);
    y[i] = (T)(s * a + c * b);
  }
}

// ---- Householder QR -------------------------------------------------------------------------

// at: the matrix transposed (n rows of length m). On return its row c holds column c of R in
// entries [0, min(c, k-1)] and the reflectors' tails below; v/beta hold reflector j in
// v[j*m + j ..] and beta[j] (H_j = I - beta v v^T; beta 0 means H_j = I).
template <typename T>
void householder(int64_t m, int64_t n, T* at, std::vector<T>& v, std::vector<double>& beta) {
  const int64_t k = std::min(m, n);
  v.assign((size_t)(k * m), T(0));
  beta.assign((size_t)k, 0.0);
  for (int64_t j = 0; j < k; j++) {
    T* col = at + j * m;
    const double norm = std::sqrt(dot(col + j, col + j, m - j));
    if (norm == 0) continue;
    const double x0 = col[j];
    const double alpha = x0 >= 0 ? -norm : norm;
    T* vj = v.data() + j * m;
    for (int64_t i = j; i < m; i++) vj[i] = col[i];
    vj[j] = (T)(x0 - alpha);
    const double vv = dot(vj + j, vj + j, m - j);
    if (vv == 0) continue;
    const double b = 2.0 / vv;
    beta[(size_t)j] = b;
    col[j] = (T)alpha;
    for (int64_t i = j + 1; i < m; i++) col[i] = T(0);
    // Reflect the remaining columns; split over threads when the update is large.
    auto apply = [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; c++) {
        T* cc = at + c * m;
        const double f = b * dot(vj + j, cc + j, m - j);
        if (f != 0) for (int64_t i = j; i < m; i++) cc[i] = (T)(cc[i] - f * vj[i]);
      }
    };
    const int64_t cols = n - j - 1;
    parallel_for(cols, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, m - j)), [&](int64_t b0, int64_t b1) { apply(j + 1 + b0, j + 1 + b1); });
  }
}

// qt (qc rows of length m): the first qc columns of H_0 ... H_{k-1}, as rows.
template <typename T>
void form_q(int64_t m, int64_t k, int64_t qc, const std::vector<T>& v, const std::vector<double>& beta, T* qt) {
  std::fill(qt, qt + qc * m, T(0));
  for (int64_t i = 0; i < qc; i++) qt[i * m + i] = T(1);
  for (int64_t j = k - 1; j >= 0; j--) {
    const double b = beta[(size_t)j];
    if (b == 0) continue;
    const T* vj = v.data() + j * m;
    parallel_for(qc, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, m - j)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) {
        T* q = qt + r * m;
        const double f = b * dot(vj + j, q + j, m - j);
        if (f != 0) for (int64_t i = j; i < m; i++) q[i] = (T)(q[i] - f * vj[i]);
      }
    });
  }
}

// qr attrs: [mode (0 reduced, 1 complete, 2 r)]. Outputs: q, r (mode r: r only).
void k_qr(KernelCall& c) {
  c.expect_inputs(1);
  const Mat s = mat_of("qr", c.input(0));
  const int64_t mode = c.iattr(0);
  if (mode < 0 || mode > 2) throw SkiffError("qr: mode code must be 0 (reduced), 1 (complete) or 2 (r), got " + std::to_string(mode));
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  const int64_t qc = mode == 1 ? m : k;    // columns of Q
  const int64_t rr = mode == 1 ? m : k;    // rows of R
  const bool want_q = mode != 2;
  c.expect_outputs(want_q ? 2 : 1);
  const size_t ri = want_q ? 1 : 0;
  if (want_q) { c.expect_out_shape(0, with(s.lead, {m, qc})); c.expect_out_dtype(0, c.input(0).dtype); }
  c.expect_out_shape(ri, with(s.lead, {rr, n}));
  c.expect_out_dtype(ri, c.input(0).dtype);
  const Tensor& x = c.dense(0);
  dispatch_float(x.dtype, "qr", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* px = x.data<T>();
      T* pq = want_q ? c.output(0).data<T>() : nullptr;
      T* pr = c.output(ri).data<T>();
      parallel_for(s.batch, grain_for(m * n * std::max<int64_t>(k, 1)), [&](int64_t b0, int64_t b1) {
        std::vector<T> at((size_t)(m * n)), v, qt;
        std::vector<double> beta;
        for (int64_t b = b0; b < b1; b++) {
          const T* a = px + b * m * n;
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) at[(size_t)(j * m + i)] = a[i * n + j];
          householder(m, n, at.data(), v, beta);
          T* r = pr + b * rr * n;
          for (int64_t i = 0; i < rr; i++)
            for (int64_t j = 0; j < n; j++) r[i * n + j] = j >= i ? at[(size_t)(j * m + i)] : T(0);
          if (!want_q) continue;
          qt.resize((size_t)(qc * m));
          form_q(m, k, qc, v, beta, qt.data());
          T* q = pq + b * m * qc;
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < qc; j++) q[i * qc + j] = qt[(size_t)(j * m + i)];
        }
      });
    }
  });
}

// ---- one-sided Jacobi SVD -------------------------------------------------------------------

// The pairs of round r of a round-robin sweep over p indices: every pair once in P - 1 rounds
// (P = p rounded up to even), and the pairs of a round are disjoint, so their rotations commute
// and run on different threads.
void round_pairs(int64_t p, int64_t r, std::vector<std::pair<int64_t, int64_t>>& out) {
  const int64_t P = p + (p & 1), M = P - 1;
  out.clear();
  auto add = [&](int64_t a, int64_t b) { if (a < p && b < p) out.emplace_back(std::min(a, b), std::max(a, b)); };
  add(M, r);
  for (int64_t k = 1; k < P / 2; k++) add((r + k) % M, (r - k + M) % M);
}
int64_t rounds_of(int64_t p) { return p + (p & 1) - 1; }

// Orthogonalizes the p rows (length len) of w by plane rotations, applied to the rows of vt
// (p x p, may be null) too. Afterwards w_i = sigma_i * u_i. Converged when every pair is
// orthogonal to working precision relative to its norms (high relative accuracy).
template <typename T>
void jacobi_rows(int64_t p, int64_t len, T* w, T* vt) {
  // A few ulps of slack: the rotated rows are stored rounded, so a stricter test re-rotates noise.
  const double tol = 4 * eps_of<T>() * std::max<double>(1.0, std::sqrt((double)len));
  std::vector<double> nrm((size_t)p);
  for (int64_t i = 0; i < p; i++) nrm[(size_t)i] = dot(w + i * len, w + i * len, len);
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int sweep = 0; sweep < 60; sweep++) {
    std::atomic<bool> rotated{false};
    for (int64_t r = 0; r < rounds_of(p); r++) {
      round_pairs(p, r, pairs);
      parallel_for((int64_t)pairs.size(), std::max<int64_t>(1, 8192 / std::max<int64_t>(1, len)), [&](int64_t b0, int64_t b1) {
        for (int64_t t = b0; t < b1; t++) {
          const int64_t i = pairs[(size_t)t].first, j = pairs[(size_t)t].second;
          T* wi = w + i * len;
          T* wj = w + j * len;
          const double a = nrm[(size_t)i], bb = nrm[(size_t)j];
          if (a == 0 || bb == 0) continue;
          const double g = dot(wi, wj, len);
          if (!(std::abs(g) > tol * std::sqrt(a * bb))) continue;
          rotated.store(true, std::memory_order_relaxed);
          const double zeta = (bb - a) / (2 * g);
          const double tt = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
          const double cs = 1 / std::sqrt(1 + tt * tt), sn = cs * tt;
          rotate(wi, wj, len, cs, sn);
          if (vt) rotate(vt + i * p, vt + j * p, p, cs, sn);
          // Recomputed rather than updated: updates drift for nearly parallel rows.
          nrm[(size_t)i] = dot(wi, wi, len);
          nrm[(size_t)j] = dot(wj, wj, len);
        }
      });
    }
    if (!rotated.load()) break;
  }
}

// Extends the `have` orthonormal rows of q (length len) to `want` rows: each new row is the
// standard basis vector with the largest component outside the current span, orthogonalized twice.
template <typename T>
void complete_basis(T* q, int64_t have, int64_t want, int64_t len) {
  std::vector<double> r((size_t)len);
  for (int64_t h = have; h < want; h++) {
    int64_t best = 0;
    double best_norm = -1;
    for (int64_t t = 0; t < len; t++) {
      double s = 1;
      for (int64_t i = 0; i < h; i++) { const double e = q[i * len + t]; s -= e * e; }
      if (s > best_norm) { best_norm = s; best = t; }
    }
    std::fill(r.begin(), r.end(), 0.0);
    r[(size_t)best] = 1;
    for (int pass = 0; pass < 2; pass++)
      for (int64_t i = 0; i < h; i++) {
        const T* qi = q + i * len;
        double d = 0;
        for (int64_t t = 0; t < len; t++) d += qi[t] * r[(size_t)t];
        for (int64_t t = 0; t < len; t++) r[(size_t)t] -= d * qi[t];
      }
    double nn = 0;
    for (double e : r) nn += e * e;
    nn = std::sqrt(nn);
    for (int64_t t = 0; t < len; t++) q[h * len + t] = (T)(r[(size_t)t] / nn);
  }
}

// The SVD of one m x n matrix a (row-major). s gets min(m, n) descending values. With
// `vectors`, ul (rows: the left singular vectors, lrows of them, length m) and vr (rows: the
// right ones, vrows of them, length n) are filled; lrows/vrows are k or, for full matrices, m/n.
template <typename T>
struct SvdWork {
  std::vector<T> w, vt, lw;
  std::vector<int64_t> order;
};

template <typename T>
void svd_one(const T* a, int64_t m, int64_t n, bool vectors, bool full, T* s, T* ul, T* vr, SvdWork<T>& ws) {
  const int64_t k = std::min(m, n), len = std::max(m, n);
  const bool tall = m >= n;  // rows of w are columns of a (tall) or rows of a (wide)
  ws.w.resize((size_t)(k * len));
  T* w = ws.w.data();
  if (tall) { for (int64_t i = 0; i < m; i++) for (int64_t j = 0; j < n; j++) w[j * len + i] = a[i * n + j]; }
  else std::memcpy(w, a, sizeof(T) * (size_t)(m * n));
  T* vt = nullptr;
  if (vectors) {
    ws.vt.assign((size_t)(k * k), T(0));
    vt = ws.vt.data();
    for (int64_t i = 0; i < k; i++) vt[i * k + i] = T(1);
  }
  jacobi_rows(k, len, w, vt);
  std::vector<double> sig((size_t)k);
  for (int64_t i = 0; i < k; i++) sig[(size_t)i] = std::sqrt(dot(w + i * len, w + i * len, len));
  ws.order.resize((size_t)k);
  std::iota(ws.order.begin(), ws.order.end(), 0);
  std::stable_sort(ws.order.begin(), ws.order.end(), [&](int64_t x, int64_t y) { return sig[(size_t)x] > sig[(size_t)y]; });
  for (int64_t i = 0; i < k; i++) s[i] = (T)sig[(size_t)ws.order[(size_t)i]];
  if (!vectors) return;
  // Long-side unit vectors (lw, rows of length len): w_i / sigma_i for well-defined directions.
  const int64_t lcount = full ? len : k;
  ws.lw.assign((size_t)(lcount * len), T(0));
  T* lw = ws.lw.data();
  const double smax = k ? sig[(size_t)ws.order[0]] : 0;
  const double cut = smax * (double)len * eps_of<T>();
  int64_t good = 0;
  for (int64_t i = 0; i < k; i++) {
    const double sg = sig[(size_t)ws.order[(size_t)i]];
    if (!(sg > cut) || sg == 0) break;  // descending: the rest are (numerically) zero too
    const T* src = w + ws.order[(size_t)i] * len;
    for (int64_t t = 0; t < len; t++) lw[i * len + t] = (T)(src[t] / sg);
    good++;
  }
  complete_basis(lw, good, lcount, len);
  // Short-side vectors: rows of vt in sorted order (an orthonormal basis already).
  auto short_row = [&](int64_t i) { return vt + ws.order[(size_t)i] * k; };
  const int64_t lrows = full ? m : k, vrows = full ? n : k;
  if (tall) {  // a = sum sigma_i lw_i vt_i^T: U columns from lw (length m), Vh rows from vt (length n = k)
    for (int64_t i = 0; i < lrows; i++) std::memcpy(ul + i * m, lw + i * len, sizeof(T) * (size_t)m);
    for (int64_t i = 0; i < vrows; i++) std::memcpy(vr + i * n, short_row(i), sizeof(T) * (size_t)n);
  } else {     // a^T = sum sigma_i lw_i vt_i^T: U columns from vt (length m = k), Vh rows from lw
    for (int64_t i = 0; i < lrows; i++) std::memcpy(ul + i * m, short_row(i), sizeof(T) * (size_t)m);
    for (int64_t i = 0; i < vrows; i++) std::memcpy(vr + i * n, lw + i * len, sizeof(T) * (size_t)n);
  }
}

// svd attrs: [full_matrices]. Outputs u [..., M, K'], s [..., K], vh [..., K'', N].
void k_svd(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(3);
  const Mat s = mat_of("svd", c.input(0));
  const double fm = c.attr(0);
  if (fm != 0 && fm != 1) throw SkiffError("svd: full_matrices must be 0 or 1, got " + std::to_string(fm));
  const bool full = fm == 1;
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  const int64_t uc = full ? m : k, vr = full ? n : k;
  const DType dt = c.input(0).dtype;
  c.expect_out_shape(0, with(s.lead, {m, uc}));
  c.expect_out_shape(1, with(s.lead, {k}));
  c.expect_out_shape(2, with(s.lead, {vr, n}));
  for (size_t i = 0; i < 3; i++) c.expect_out_dtype(i, dt);
  const Tensor& x = c.dense(0);
  dispatch_float(dt, "svd", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* px = x.data<T>();
      T* pu = c.output(0).data<T>();
      T* ps = c.output(1).data<T>();
      T* pv = c.output(2).data<T>();
      parallel_for(s.batch, grain_for(m * n * std::max<int64_t>(k, 1) * 8), [&](int64_t b0, int64_t b1) {
        SvdWork<T> ws;
        std::vector<T> ut((size_t)(uc * m));
        for (int64_t b = b0; b < b1; b++) {
          svd_one(px + b * m * n, m, n, true, full, ps + b * k, ut.data(), pv + b * vr * n, ws);
          T* u = pu + b * m * uc;  // ut holds U's columns as rows
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < uc; j++) u[i * uc + j] = ut[(size_t)(j * m + i)];
        }
      });
    }
  });
}

// ---- symmetric Jacobi eigensolver -----------------------------------------------------------

// a: n x n symmetric (full storage, overwritten). w gets ascending eigenvalues; vt (if not null)
// gets the matching eigenvectors as rows. Cyclic Jacobi in round-robin order: the rotations of
// a round touch disjoint index pairs, so J^T A J is applied as all row updates (threaded over
// pairs, contiguous rows) then all column updates (threaded over rows, so also contiguous).
// A pair is rotated while |a_pq| > eps sqrt(|a_pp a_qq|), the relative test that stops at
// rounding level instead of chasing noise.
template <typename T>
void sym_eig(int64_t n, T* a, T* w, T* vt, std::vector<T>& ev, std::vector<int64_t>& order) {
  const bool vectors = vt != nullptr;
  if (vectors) { std::fill(vt, vt + n * n, T(0)); for (int64_t i = 0; i < n; i++) vt[i * n + i] = T(1); }
  double fro = 0;
  for (int64_t i = 0; i < n * n; i++) fro += (double)a[i] * a[i];
  const double eps = eps_of<T>();
  const double floor = 1e-3 * eps * std::sqrt(fro) / (double)std::max<int64_t>(1, n);
  struct Rot { int64_t p, q; double c, s; };
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::vector<Rot> rots;
  const int64_t grain = std::max<int64_t>(1, 8192 / std::max<int64_t>(1, n));
  for (int sweep = 0; sweep < 60 && fro > 0; sweep++) {
    bool any = false;
    for (int64_t r = 0; r < rounds_of(n); r++) {
      round_pairs(n, r, pairs);
      rots.clear();
      for (auto [p, q] : pairs) {
        const double apq = a[p * n + q], app = a[p * n + p], aqq = a[q * n + q];
        if (!(std::abs(apq) > floor && std::abs(apq) > eps * std::sqrt(std::abs(app * aqq)))) continue;
        const double theta = (aqq - app) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double cs = 1 / std::sqrt(t * t + 1);
        rots.push_back({p, q, cs, t * cs});
      }
      if (rots.empty()) continue;
      any = true;
      const int64_t nr = (int64_t)rots.size();
      parallel_for(nr, grain, [&](int64_t b0, int64_t b1) {  // rows p, q: J^T A
        for (int64_t k = b0; k < b1; k++) {
          const Rot& o = rots[(size_t)k];
          rotate(a + o.p * n, a + o.q * n, n, o.c, o.s);
          if (vectors) rotate(vt + o.p * n, vt + o.q * n, n, o.c, o.s);
        }
      });
      parallel_for(n, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, 4 * nr)), [&](int64_t r0, int64_t r1) {  // columns: (J^T A) J
        for (int64_t row = r0; row < r1; row++) {
          T* ar = a + row * n;
          for (const Rot& o : rots) {
            const double x = ar[o.p], y = ar[o.q];
            ar[o.p] = (T)(o.c * x - o.s * y);
            ar[o.q] = (T)(o.s * x + o.c * y);
          }
        }
      });
      for (const Rot& o : rots) a[o.p * n + o.q] = a[o.q * n + o.p] = T(0);
    }
    if (!any) break;
  }
  order.resize((size_t)n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return a[x * n + x] < a[y * n + y]; });
  for (int64_t i = 0; i < n; i++) w[i] = a[order[(size_t)i] * n + order[(size_t)i]];
  if (!vectors) return;
  ev.assign(vt, vt + n * n);
  for (int64_t i = 0; i < n; i++) std::memcpy(vt + i * n, ev.data() + order[(size_t)i] * n, sizeof(T) * (size_t)n);
}

// Fills the full symmetric matrix from the lower (upper = false) or upper triangle of x.
template <typename T>
void symmetric_from(const T* x, int64_t n, bool upper, T* a) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      const bool lower_ij = i >= j;
      a[i * n + j] = (lower_ij != upper || i == j) ? x[i * n + j] : x[j * n + i];
    }
}

Mat square_of(const char* op, const Tensor& x) {
  Mat s = mat_of(op, x);
  if (s.m != s.n) throw SkiffError(std::string(op) + ": expected square matrices, got shape " + shape_str(x.shape));
  return s;
}

// eigh / eigvalsh attrs: [upper (0 'L', 1 'U')]. Outputs eigenvalues [..., N], eigenvectors [..., N, N].
void eig_kernel(KernelCall& c, const char* op) {
  c.expect_inputs(1);
  c.expect_outputs(2);
  const Mat s = square_of(op, c.input(0));
  const int64_t up = c.iattr(0);
  if (up != 0 && up != 1) throw SkiffError(std::string(op) + ": UPLO code must be 0 ('L') or 1 ('U'), got " + std::to_string(up));
  const int64_t n = s.n;
  const DType dt = c.input(0).dtype;
  c.expect_out_shape(0, with(s.lead, {n}));
  c.expect_out_shape(1, with(s.lead, {n, n}));
  c.expect_out_dtype(0, dt);
  c.expect_out_dtype(1, dt);
  const Tensor& x = c.dense(0);
  dispatch_float(dt, op, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* px = x.data<T>();
      T* pw = c.output(0).data<T>();
      T* pv = c.output(1).data<T>();
      parallel_for(s.batch, grain_for(n * n * n * 8), [&](int64_t b0, int64_t b1) {
        std::vector<T> a((size_t)(n * n)), vt((size_t)(n * n)), ev;
        std::vector<int64_t> order;
        for (int64_t b = b0; b < b1; b++) {
          symmetric_from(px + b * n * n, n, up == 1, a.data());
          sym_eig(n, a.data(), pw + b * n, vt.data(), ev, order);
          T* v = pv + b * n * n;  // eigenvectors are the columns
          for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) v[i * n + j] = vt[(size_t)(j * n + i)];
        }
      });
    }
  });
}
void k_eigh(KernelCall& c) { eig_kernel(c, "eigh"); }
void k_eigvalsh(KernelCall& c) { eig_kernel(c, "eigvalsh"); }

// ---- composites on the decompositions --------------------------------------------------------

// matrix_rank attrs: [has_tol, tol, hermitian]. Output int64 [...]: the number of singular
// values (|eigenvalues| when hermitian) above tol, or above max * max(M, N) * eps without tol.
void k_matrix_rank(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Mat s = mat_of("matrix_rank", c.input(0));
  const int64_t has_tol = c.iattr(0), herm = c.iattr(2);
  const double tol = c.attr(1);
  if (has_tol != 0 && has_tol != 1) throw SkiffError("matrix_rank: has_tol must be 0 or 1");
  if (herm != 0 && herm != 1) throw SkiffError("matrix_rank: hermitian must be 0 or 1");
  if (has_tol && std::isnan(tol)) throw SkiffError("matrix_rank: tol must be a number, got NaN");
  if (herm && s.m != s.n) throw SkiffError("matrix_rank: hermitian=True needs square matrices, got shape " + shape_str(c.input(0).shape));
  c.expect_out_shape(0, s.lead);
  c.expect_out_dtype(0, DType::I64);
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  const Tensor& x = c.dense(0);
  int64_t* out = c.output(0).data<int64_t>();
  dispatch_float(x.dtype, "matrix_rank", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* px = x.data<T>();
      parallel_for(s.batch, grain_for(m * n * std::max<int64_t>(k, 1) * 4), [&](int64_t b0, int64_t b1) {
        SvdWork<T> ws;
        std::vector<T> sv((size_t)k), a, ev;
        std::vector<int64_t> order;
        for (int64_t b = b0; b < b1; b++) {
          const T* xb = px + b * m * n;
          if (herm) {
            a.resize((size_t)(n * n));
            symmetric_from(xb, n, false, a.data());
            sym_eig(n, a.data(), sv.data(), (T*)nullptr, ev, order);
            for (auto& e : sv) e = std::abs(e);
          } else {
            svd_one(xb, m, n, false, false, sv.data(), (T*)nullptr, (T*)nullptr, ws);
          }
          double mx = 0;
          for (T e : sv) mx = std::max(mx, (double)e);
          const double cut = has_tol ? tol : mx * (double)std::max(m, n) * eps_of<T>();
          int64_t r = 0;
          for (T e : sv) r += (double)e > cut;
          out[b] = r;
        }
      });
    }
  });
}

// Pseudo-inverse pieces of one matrix: inv_s[i] = 1/s_i above the cutoff, else 0.
template <typename T>
int64_t inverted(const T* sv, int64_t k, double rcond, std::vector<double>& inv_s, bool absval) {
  double mx = 0;
  for (int64_t i = 0; i < k; i++) mx = std::max(mx, absval ? std::abs((double)sv[i]) : (double)sv[i]);
  const double cut = rcond * mx;
  inv_s.assign((size_t)k, 0.0);
  int64_t rank = 0;
  for (int64_t i = 0; i < k; i++) {
    const double e = sv[i];
    if ((absval ? std::abs(e) : e) > cut && e != 0) { inv_s[(size_t)i] = 1 / e; rank++; }
  }
  return rank;
}

// pinv attrs: [rcond, hermitian]. Output [..., N, M] = V diag(1/s) U^T over s > rcond * max(s).
void k_pinv(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Mat s = mat_of("pinv", c.input(0));
  const double rcond = c.attr(0);
  const int64_t herm = c.iattr(1);
  if (!(rcond >= 0)) throw SkiffError("pinv: rcond must be a number >= 0, got " + std::to_string(rcond));
  if (herm != 0 && herm != 1) throw SkiffError("pinv: hermitian must be 0 or 1");
  if (herm && s.m != s.n) throw SkiffError("pinv: hermitian=True needs square matrices, got shape " + shape_str(c.input(0).shape));
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  c.expect_out_shape(0, with(s.lead, {n, m}));
  c.expect_out_dtype(0, c.input(0).dtype);
  const Tensor& x = c.dense(0);
  dispatch_float(x.dtype, "pinv", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* px = x.data<T>();
      T* po = c.output(0).data<T>();
      parallel_for(s.batch, grain_for(m * n * std::max<int64_t>(k, 1) * 8), [&](int64_t b0, int64_t b1) {
        SvdWork<T> ws;
        std::vector<T> sv((size_t)k), ut((size_t)(k * m)), vr((size_t)(k * n)), a, ev;
        std::vector<int64_t> order;
        std::vector<double> inv_s;
        for (int64_t b = b0; b < b1; b++) {
          const T* xb = px + b * m * n;
          if (herm) {  // x = V diag(w) V^T: ut and vr both hold V's columns as rows
            a.resize((size_t)(n * n));
            symmetric_from(xb, n, false, a.data());
            sym_eig(n, a.data(), sv.data(), ut.data(), ev, order);
            vr = ut;
          } else {
            svd_one(xb, m, n, true, false, sv.data(), ut.data(), vr.data(), ws);
          }
          inverted(sv.data(), k, rcond, inv_s, herm != 0);
          T* o = po + b * n * m;
          for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++) {
              double acc = 0;
              for (int64_t t = 0; t < k; t++) if (inv_s[(size_t)t] != 0) acc += (double)vr[(size_t)(t * n + i)] * inv_s[(size_t)t] * ut[(size_t)(t * m + j)];
              o[i * m + j] = (T)acc;
            }
        }
      });
    }
  });
}

// lstsq attrs: [rcond (NaN: max(M, N) * eps), driver (0 gels, 1 gelsy, 2 gelsd, 3 gelss)].
// Outputs: solution [..., N, K]; residuals [..., K] when M > N (else [0]); rank int32 [...]
// (driver gels: [0]); singular_values [..., min(M, N)] (gelsd/gelss; else [0]). Every driver
// computes the minimum-norm solution through the SVD.
void k_lstsq(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(4);
  const Mat sx = mat_of("lstsq", c.input(0), "x");
  const Mat sy = mat_of("lstsq", c.input(1), "y");
  if (c.input(0).dtype != c.input(1).dtype)
    throw SkiffError(std::string("lstsq: x and y must have the same dtype, got ") + dtype_name(c.input(0).dtype) + " and " + dtype_name(c.input(1).dtype));
  if (sx.lead != sy.lead || sx.m != sy.m)
    throw SkiffError("lstsq: y must be [..., M, K] with x's batch dims and M, got x " + shape_str(c.input(0).shape) + " and y " + shape_str(c.input(1).shape));
  const double rc = c.attr(0);
  const int64_t driver = c.iattr(1);
  if (driver < 0 || driver > 3) throw SkiffError("lstsq: driver code must be 0..3, got " + std::to_string(driver));
  const int64_t m = sx.m, n = sx.n, kk = sy.n, k = std::min(m, n);
  const DType dt = c.input(0).dtype;
  const bool want_res = m > n, want_rank = driver != 0, want_sv = driver >= 2;
  c.expect_out_shape(0, with(sx.lead, {n, kk}));
  c.expect_out_shape(1, want_res ? with(sx.lead, {kk}) : std::vector<int64_t>{0});
  c.expect_out_shape(2, want_rank ? sx.lead : std::vector<int64_t>{0});
  c.expect_out_shape(3, want_sv ? with(sx.lead, {k}) : std::vector<int64_t>{0});
  c.expect_out_dtype(0, dt);
  c.expect_out_dtype(1, dt);
  c.expect_out_dtype(2, DType::I32);
  c.expect_out_dtype(3, dt);
  const Tensor& x = c.dense(0);
  const Tensor& y = c.dense(1);
  dispatch_float(dt, "lstsq", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const double rcond = std::isnan(rc) ? (double)std::max(m, n) * eps_of<T>() : rc;
      const T* px = x.data<T>();
      const T* py = y.data<T>();
      T* psol = c.output(0).data<T>();
      T* pres = want_res ? c.output(1).data<T>() : nullptr;
      int32_t* prank = want_rank ? c.output(2).data<int32_t>() : nullptr;
      T* psv = want_sv ? c.output(3).data<T>() : nullptr;
      parallel_for(sx.batch, grain_for(m * n * std::max<int64_t>(k, 1) * 8 + m * kk * k), [&](int64_t b0, int64_t b1) {
        SvdWork<T> ws;
        std::vector<T> sv((size_t)k), ut((size_t)(k * m)), vr((size_t)(k * n));
        std::vector<double> inv_s, uty((size_t)(k * kk));
        for (int64_t b = b0; b < b1; b++) {
          const T* xb = px + b * m * n;
          const T* yb = py + b * m * kk;
          svd_one(xb, m, n, true, false, sv.data(), ut.data(), vr.data(), ws);
          const int64_t rank = inverted(sv.data(), k, rcond, inv_s, false);
          // solution = V diag(inv_s) (U^T y)
          for (int64_t t = 0; t < k; t++)
            for (int64_t j = 0; j < kk; j++) {
              double acc = 0;
              if (inv_s[(size_t)t] != 0) for (int64_t i = 0; i < m; i++) acc += (double)ut[(size_t)(t * m + i)] * yb[i * kk + j];
              uty[(size_t)(t * kk + j)] = acc * inv_s[(size_t)t];
            }
          T* sol = psol + b * n * kk;
          for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < kk; j++) {
              double acc = 0;
              for (int64_t t = 0; t < k; t++) acc += (double)vr[(size_t)(t * n + i)] * uty[(size_t)(t * kk + j)];
              sol[i * kk + j] = (T)acc;
            }
          if (pres) {
            for (int64_t j = 0; j < kk; j++) {
              double r2 = 0;
              for (int64_t i = 0; i < m; i++) {
                double e = -(double)yb[i * kk + j];
                for (int64_t t = 0; t < n; t++) e += (double)xb[i * n + t] * sol[t * kk + j];
                r2 += e * e;
              }
              pres[b * kk + j] = (T)r2;
            }
          }
          if (prank) prank[b] = (int32_t)rank;
          if (psv) std::memcpy(psv + b * k, sv.data(), sizeof(T) * (size_t)k);
        }
      });
    }
  });
}

}  // namespace

SKIFF_KERNEL("qr", k_qr);
SKIFF_KERNEL("svd", k_svd);
SKIFF_KERNEL("eigh", k_eigh);
SKIFF_KERNEL("eigvalsh", k_eigvalsh);
SKIFF_KERNEL("matrix_rank", k_matrix_rank);
SKIFF_KERNEL("pinv", k_pinv);
SKIFF_KERNEL("lstsq", k_lstsq);

}  // namespace skiff
