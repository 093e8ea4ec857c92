// Shared pieces of the dense linear-algebra kernels: operand checks, batch broadcasting, a
// batch driver that reports per-matrix failures without throwing on pool threads, and the LU
// factorization with partial pivoting. Owned by linalg_lu.cc; other linalg kernel files may
// include it read-only.
//
// Conventions: matrices are row-major and contiguous (kernels call c.dense(i) first), computed
// in the input dtype (float32 or float64). The thread pool does not carry exceptions across
// threads, so batch work records a status per matrix and the caller throws after the loop,
// naming the first failing matrix.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>
#include "kernel.h"

namespace skiff {
namespace linalg {

inline std::string opname(const KernelCall& c) { return std::string(c.op); }

// The one dtype rule of the family: float32 or float64 only.
inline void expect_float(const KernelCall& c, size_t i, const char* what) {
  const DType dt = c.input(i).dtype;
  if (dt != DType::F32 && dt != DType::F64)
    throw SkiffError(opname(c) + ": expected " + what + " of dtype float32 or float64, got " + dtype_name(dt));
}

// Rank >= 2 (and square when asked); returns the batch shape (all dims but the last two).
inline std::vector<int64_t> matrix_batch(const KernelCall& c, size_t i, const char* what, bool square) {
  const Tensor& t = c.input(i);
  if (t.ndim() < 2)
    throw SkiffError(opname(c) + ": " + what + " must have at least 2 dimensions [*, M, N], got shape " + shape_str(t.shape));
  const int64_t r = t.shape[t.ndim() - 2], k = t.shape[t.ndim() - 1];
  if (square && r != k)
    throw SkiffError(opname(c) + ": " + what + " must be a square matrix or a batch of square matrices, got shape " +
                     shape_str(t.shape));
  return std::vector<int64_t>(t.shape.begin(), t.shape.end() - 2);
}

// Numpy broadcast of two batch shapes; the error names the op and both operand shapes.
inline std::vector<int64_t> broadcast_batch(const KernelCall& c, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t nd = std::max(a.size(), b.size());
  std::vector<int64_t> out(nd, 1);
  for (size_t i = 0; i < nd; i++) {
    const int64_t da = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const int64_t db = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (da != db && da != 1 && db != 1)
      throw SkiffError(opname(c) + ": batch dimensions " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast (" +
                       std::to_string(da) + " vs " + std::to_string(db) + ") for input shapes " + shape_str(c.input(0).shape) +
                       " and " + shape_str(c.input(1).shape));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Element offset of each matrix of a contiguous tensor with batch shape `tb` (matrices of
// `mat` elements) for every index of the broadcast batch shape `out` (0 stride where broadcast).
inline std::vector<int64_t> batch_offsets(const std::vector<int64_t>& tb, const std::vector<int64_t>& out, int64_t mat) {
  const size_t nd = out.size(), off = nd - tb.size();
  std::vector<int64_t> st(nd, 0);
  int64_t s = mat;
  for (size_t i = tb.size(); i-- > 0;) {
    st[off + i] = tb[i] == 1 ? 0 : s;
    s *= tb[i];
  }
  int64_t n = 1;
  for (auto d : out) n *= d;
  std::vector<int64_t> res((size_t)n);
  std::vector<int64_t> idx(nd, 0);
  int64_t o = 0;
  for (int64_t b = 0; b < n; b++) {  // odometer over the batch dims
    res[(size_t)b] = o;
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < out[d]) { o += st[d]; break; }
      o -= st[d] * (out[d] - 1);
      idx[d] = 0;
    }
  }
  return res;
}

// Runs f(b) for every matrix b < nbatch, threaded over the batch; f returns 0 for success or a
// nonzero code, and the first failing (lowest) index is returned with its code (-1 if none).
// `work` is the rough cost of one matrix (flops), which sets the grain.
template <typename F>
std::pair<int64_t, int64_t> for_each_matrix(int64_t nbatch, int64_t work, const F& f) {
  std::vector<int64_t> status((size_t)std::max<int64_t>(nbatch, 0), 0);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(work, 1));
  parallel_for(nbatch, grain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; b++) status[(size_t)b] = f(b);
  });
  for (int64_t b = 0; b < nbatch; b++)
    if (status[(size_t)b] != 0) return {b, status[(size_t)b]};
  return {-1, 0};
}

// The matrix `b` of a batch, for error messages: "matrix 3 of the batch [2, 2]" or "the matrix".
inline std::string which_matrix(int64_t b, const std::vector<int64_t>& batch) {
  if (batch.empty()) return "the matrix";
  return "matrix " + std::to_string(b) + " of the batch " + shape_str(batch);
}

// In-place LU of the m x n row-major matrix a (row stride lda): P A = L U with unit-lower L
// below the diagonal and U on and above it (LAPACK getrf layout). piv[i] (0-based) is the row
// swapped with row i at step i, i < min(m, n). With pivot=false no rows are swapped (piv[i] =
// i). Returns 0, or the 1-based index of the first exactly-zero pivot (the factorization still
// completes, as LAPACK does, so det is 0 and lu reports it in infos).
template <typename T>
int64_t lu_factor(T* a, int64_t m, int64_t n, int64_t lda, int32_t* piv, bool pivot) {
  const int64_t k = std::min(m, n);
  int64_t info = 0;
  for (int64_t j = 0; j < k; j++) {
    int64_t p = j;
    if (pivot) {
      T best = std::abs(a[j * lda + j]);
      for (int64_t i = j + 1; i < m; i++) {
        const T v = std::abs(a[i * lda + j]);
        if (v > best) { best = v; p = i; }
      }
    }
    piv[j] = (int32_t)p;
    if (p != j) std::swap_ranges(a + j * lda, a + j * lda + n, a + p * lda);
    const T d = a[j * lda + j];
    if (d == T(0)) {
      if (info == 0) info = j + 1;
      continue;  // nothing to eliminate with; the column below stays as it is
    }
    const T inv = T(1) / d;
    const T* rj = a + j * lda;
    for (int64_t i = j + 1; i < m; i++) {
      T* ri = a + i * lda;
      const T l = ri[j] * inv;
      ri[j] = l;
      // Row update over contiguous memory: the loop the compiler vectorizes.
      for (int64_t q = j + 1; q < n; q++) ri[q] -= l * rj[q];
    }
  }
  return info;
}

// Solves L U X = P B in place in b (n x k, row stride ldb) from lu_factor's output of a square
// n x n matrix (unit-lower L, upper U, 0-based row swaps piv).
template <typename T>
void lu_solve(const T* lu, int64_t n, const int32_t* piv, T* b, int64_t k, int64_t ldb) {
  for (int64_t i = 0; i < n; i++)
    if (piv[i] != i) std::swap_ranges(b + i * ldb, b + i * ldb + k, b + (int64_t)piv[i] * ldb);
  for (int64_t i = 1; i < n; i++) {  // forward: L (unit diagonal)
    T* bi = b + i * ldb;
    for (int64_t j = 0; j < i; j++) {
      const T l = lu[i * n + j];
      if (l == T(0)) continue;
      const T* bj = b + j * ldb;
      for (int64_t q = 0; q < k; q++) bi[q] -= l * bj[q];
    }
  }
  for (int64_t i = n; i-- > 0;) {  // backward: U
    T* bi = b + i * ldb;
    for (int64_t j = i + 1; j < n; j++) {
      const T u = lu[i * n + j];
      if (u == T(0)) continue;
      const T* bj = b + j * ldb;
      for (int64_t q = 0; q < k; q++) bi[q] -= u * bj[q];
    }
    const T inv = T(1) / lu[i * n + i];
    for (int64_t q = 0; q < k; q++) bi[q] *= inv;
  }
}

}  // namespace linalg
}  // namespace skiff
