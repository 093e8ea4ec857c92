// Dense linear algebra built on LU and Cholesky (definitions: src/ops/defs/linalg_lu.ts):
// lu, lu_unpack, determinant, slogdeterminant, inverse, solve, triangular_solve, cholesky,
// cholesky_solve, matrix_power. float32/float64, computed in the input dtype, batched over the
// leading dims and threaded over the batch (one matrix per task; see linalg_common.h).
//
// Attribute layouts (flat numbers, in the defs' declaration order):
//   lu [pivot]                    outputs out, pivots (int32, 1-based), and infos when asked
//   lu_unpack [unpack_ludata, unpack_pivots]
//   triangular_solve [upper, transpose, unitriangular]
//   cholesky [upper], cholesky_solve [upper], matrix_power [n]
//   determinant, slogdeterminant, inverse, solve: none
//
// Singular input is an error for inverse, solve, triangular_solve, cholesky_solve and a
// negative matrix_power (naming the matrix in the batch); cholesky raises on a matrix that is
// not positive definite. determinant/slogdeterminant return 0 / (0, -inf) and lu reports it in
// infos, as LAPACK-backed Paddle does.
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "../gemm/gemm.h"
#include "linalg_common.h"

namespace skiff {
namespace {

using linalg::batch_offsets;
using linalg::broadcast_batch;
using linalg::expect_float;
using linalg::for_each_matrix;
using linalg::matrix_batch;
using linalg::opname;
using linalg::which_matrix;

int64_t prod(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::vector<int64_t> cat(std::vector<int64_t> a, std::initializer_list<int64_t> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void expect_attrs(const KernelCall& c, size_t n, const char* layout) {
  if (c.attrs.size() != n) throw SkiffError(opname(c) + ": expected attributes " + layout + ", got " + std::to_string(c.attrs.size()) + " values");
}

void expect_same_dtype(const KernelCall& c) {
  if (c.input(0).dtype != c.input(1).dtype)
    throw SkiffError(opname(c) + ": x and y must have the same dtype, got " + dtype_name(c.input(0).dtype) + " and " + dtype_name(c.input(1).dtype));
}

[[noreturn]] void singular(const KernelCall& c, int64_t b, int64_t code, const std::vector<int64_t>& batch, const Tensor& x, const char* what) {
  throw SkiffError(opname(c) + ": " + which_matrix(b, batch) + " is singular (" + what + " " + std::to_string(code - 1) +
                   " is zero), input shape " + shape_str(x.shape));
}

// Flops of an n x n factorization, for the batch grain.
int64_t cube(int64_t n) { return std::max<int64_t>(1, n * n * n); }

// The head of the one-square-matrix ops (determinant, slogdeterminant, inverse, cholesky,
// matrix_power): arity, attribute count, dtype and a square [*, n, n] x, all checked before any
// memory is read. Returns the batch shape.
std::vector<int64_t> square_input(KernelCall& c, size_t nattrs, const char* layout) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  expect_attrs(c, nattrs, layout);
  expect_float(c, 0, "x");
  return matrix_batch(c, 0, "x", true);
}

// Writes the rows x cols identity (ones where i == j) into a.
template <typename T>
void set_identity(T* a, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) a[i * cols + j] = i == j ? T(1) : T(0);
}

// Partial-pivot LU of a copy of the n x n matrix at a (the input stays untouched): what
// determinant, solve/inverse and negative matrix_power all start from.
template <typename T>
struct SquareLu {
  std::vector<T> lu;
  std::vector<int32_t> piv;
  int64_t info;
  SquareLu(const T* a, int64_t n) : lu(a, a + n * n), piv((size_t)n), info(linalg::lu_factor(lu.data(), n, n, n, piv.data(), true)) {}
};

// ---- lu -------------------------------------------------------------------------------------

template <typename T>
void lu_run(KernelCall& c, const Tensor& x, int64_t nb, int64_t m, int64_t n, bool pivot) {
  const int64_t k = std::min(m, n), mn = m * n;
  T* out = c.output(0).data<T>();
  int32_t* piv = c.output(1).data<int32_t>();
  int32_t* infos = c.out.size() == 3 ? c.output(2).data<int32_t>() : nullptr;
  const T* src = x.data<T>();
  std::copy(src, src + nb * mn, out);
  for_each_matrix(nb, cube(k) + mn, [&](int64_t b) {
    int32_t* p = piv + b * k;
    const int64_t info = linalg::lu_factor(out + b * mn, m, n, n, p, pivot);
    for (int64_t i = 0; i < k; i++) p[i] += 1;  // Paddle's pivots are 1-based
    if (infos) infos[b] = (int32_t)info;
    return int64_t(0);
  });
}

void k_lu(KernelCall& c) {
  c.expect_inputs(1);
  if (c.out.size() != 2 && c.out.size() != 3) throw SkiffError("lu: expected 2 or 3 outputs (out, pivots[, infos])");
  expect_attrs(c, 1, "[pivot]");
  expect_float(c, 0, "x");
  const auto batch = matrix_batch(c, 0, "x", false);
  const Tensor& x = c.dense(0);
  const int64_t m = x.shape[x.ndim() - 2], n = x.shape[x.ndim() - 1];
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(1, cat(batch, {std::min(m, n)}));
  c.expect_out_dtype(1, DType::I32);
  if (c.out.size() == 3) {
    c.expect_out_shape(2, batch.empty() ? std::vector<int64_t>{1} : batch);
    c.expect_out_dtype(2, DType::I32);
  }
  const bool pivot = c.attr(0) != 0;
  if (x.dtype == DType::F32) lu_run<float>(c, x, prod(batch), m, n, pivot);
  else lu_run<double>(c, x, prod(batch), m, n, pivot);
}

// ---- lu_unpack ------------------------------------------------------------------------------

template <typename T, typename I>
void lu_unpack_run(KernelCall& c, const Tensor& x, const Tensor& y, int64_t nb, int64_t m, int64_t n, bool ludata, bool pivots) {
  const int64_t k = std::min(m, n);
  const T* lu = x.data<T>();
  const I* piv = y.data<I>();
  if (pivots) {  // every pivot is checked before anything is written
    for (int64_t b = 0; b < nb; b++)
      for (int64_t i = 0; i < k; i++) {
        const int64_t p = (int64_t)piv[b * k + i];
        if (p < 1 || p > m)
          throw SkiffError("lu_unpack: pivot " + std::to_string(p) + " at position " + std::to_string(i) + " of matrix " + std::to_string(b) +
                           " is out of range [1, " + std::to_string(m) + "] (pivots shape " + shape_str(y.shape) + ")");
      }
  }
  T* P = c.output(0).data<T>();
  T* L = c.output(1).data<T>();
  T* U = c.output(2).data<T>();
  for_each_matrix(nb, m * m + m * n, [&](int64_t b) {
    const T* a = lu + b * m * n;
    if (ludata) {
      T* l = L + b * m * k;
      T* u = U + b * k * n;
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < k; j++) l[i * k + j] = j < i ? a[i * n + j] : j == i ? T(1) : T(0);
      for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < n; j++) u[i * n + j] = j >= i ? a[i * n + j] : T(0);
    } else {
      std::fill(L + b * m * k, L + (b + 1) * m * k, T(0));
      std::fill(U + b * k * n, U + (b + 1) * k * n, T(0));
    }
    T* pm = P + b * m * m;
    std::fill(pm, pm + m * m, T(0));
    if (pivots) {
      // perm[r] = the row of A that row r of P^T A holds; then A = P L U with P[perm[r], r] = 1.
      std::vector<int64_t> perm((size_t)m);
      for (int64_t i = 0; i < m; i++) perm[(size_t)i] = i;
      for (int64_t i = 0; i < k; i++) std::swap(perm[(size_t)i], perm[(size_t)(piv[b * k + i] - 1)]);
      for (int64_t r = 0; r < m; r++) pm[perm[(size_t)r] * m + r] = T(1);
    }
    return int64_t(0);
  });
}

void k_lu_unpack(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(3);
  expect_attrs(c, 2, "[unpack_ludata, unpack_pivots]");
  expect_float(c, 0, "x (the packed LU)");
  const auto batch = matrix_batch(c, 0, "x (the packed LU)", false);
  const Tensor& x0 = c.input(0);
  const int64_t m = x0.shape[x0.ndim() - 2], n = x0.shape[x0.ndim() - 1], k = std::min(m, n);
  const DType pd = c.input(1).dtype;
  if (pd != DType::I32 && pd != DType::I64) throw SkiffError(std::string("lu_unpack: pivots y must be int32 or int64, got ") + dtype_name(pd));
  if (c.input(1).shape != cat(batch, {k}))
    throw SkiffError("lu_unpack: pivots y must have shape " + shape_str(cat(batch, {k})) + " for LU of shape " + shape_str(x0.shape) + ", got " +
                     shape_str(c.input(1).shape));
  c.expect_out_shape(0, cat(batch, {m, m}));
  c.expect_out_shape(1, cat(batch, {m, k}));
  c.expect_out_shape(2, cat(batch, {k, n}));
  for (size_t i = 0; i < 3; i++) c.expect_out_dtype(i, x0.dtype);
  const Tensor& x = c.dense(0);
  const Tensor& y = c.dense(1);
  const bool ludata = c.attr(0) != 0, pivots = c.attr(1) != 0;
  const int64_t nb = prod(batch);
  if (x.dtype == DType::F32) {
    if (pd == DType::I32) lu_unpack_run<float, int32_t>(c, x, y, nb, m, n, ludata, pivots);
    else lu_unpack_run<float, int64_t>(c, x, y, nb, m, n, ludata, pivots);
  } else {
    if (pd == DType::I32) lu_unpack_run<double, int32_t>(c, x, y, nb, m, n, ludata, pivots);
    else lu_unpack_run<double, int64_t>(c, x, y, nb, m, n, ludata, pivots);
  }
}

// ---- determinant, slogdeterminant ----------------------------------------------------------

// sign and log|det| of each matrix (sign 0, log -inf when singular); `logs` false gives det in out0.
template <typename T>
void det_run(const Tensor& x, int64_t nb, int64_t n, T* out, bool logs) {
  const T* src = x.data<T>();
  for_each_matrix(nb, cube(n), [&](int64_t b) {
    const SquareLu<T> f(src + b * n * n, n);
    const std::vector<T>& a = f.lu;
    const std::vector<int32_t>& piv = f.piv;
    const int64_t info = f.info;
    // det = (-1)^swaps * prod(diag U); log|det| is summed separately so it never overflows.
    T sign = T(1), logabs = T(0), det = T(1);
    for (int64_t i = 0; i < n; i++) {
      const T d = a[(size_t)(i * n + i)];
      if (piv[(size_t)i] != i) { sign = -sign; det = -det; }
      if (d < T(0)) sign = -sign;
      det *= d;
      logabs += std::log(std::abs(d));
    }
    if (info != 0) { sign = T(0); logabs = -std::numeric_limits<T>::infinity(); det = T(0); }
    if (logs) { out[b] = sign; out[nb + b] = logabs; }
    else out[b] = det;
    return int64_t(0);
  });
}

void det_common(KernelCall& c, bool logs) {
  const auto batch = square_input(c, 0, "[]");
  const Tensor& x = c.dense(0);
  const int64_t n = x.shape[x.ndim() - 1];
  std::vector<int64_t> shape = batch;
  if (logs) shape.insert(shape.begin(), 2);  // [sign, log|det|] stacked in front, as Paddle 2.6
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, x.dtype);
  if (x.dtype == DType::F32) det_run<float>(x, prod(batch), n, c.output(0).data<float>(), logs);
  else det_run<double>(x, prod(batch), n, c.output(0).data<double>(), logs);
}

void k_determinant(KernelCall& c) { det_common(c, false); }
void k_slogdeterminant(KernelCall& c) { det_common(c, true); }

// ---- inverse, solve -------------------------------------------------------------------------

// X = A^-1 B for every broadcast batch index: A from `a` at aoff[b] (n x n), B from `rhs` at
// boff[b] (n x k), X into out + b * n * k. Returns the first singular matrix, if any.
template <typename T>
std::pair<int64_t, int64_t> lu_solve_batch(const T* a, const std::vector<int64_t>& aoff, const T* rhs, const std::vector<int64_t>& boff,
                                           T* out, int64_t nb, int64_t n, int64_t k) {
  return for_each_matrix(nb, cube(n) + n * n * k, [&](int64_t b) {
    const SquareLu<T> f(a + aoff[(size_t)b], n);
    if (f.info != 0) return f.info;
    T* x = out + b * n * k;
    if (rhs) std::copy(rhs + boff[(size_t)b], rhs + boff[(size_t)b] + n * k, x);
    else set_identity(x, n, k);
    linalg::lu_solve(f.lu.data(), n, f.piv.data(), x, k, k);
    return int64_t(0);
  });
}

void k_inverse(KernelCall& c) {
  const auto batch = square_input(c, 0, "[]");
  const Tensor& x = c.dense(0);
  const int64_t n = x.shape[x.ndim() - 1], nb = prod(batch);
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  std::vector<int64_t> off((size_t)nb);
  for (int64_t b = 0; b < nb; b++) off[(size_t)b] = b * n * n;
  const auto r = x.dtype == DType::F32
      ? lu_solve_batch<float>(x.data<float>(), off, nullptr, off, c.output(0).data<float>(), nb, n, n)
      : lu_solve_batch<double>(x.data<double>(), off, nullptr, off, c.output(0).data<double>(), nb, n, n);
  if (r.first >= 0) singular(c, r.first, r.second, batch, x, "U's diagonal entry");
}

// solve(x, y): y is a vector right-hand side when it is 1-D, or when its shape is x's without
// the last dim (Paddle's rule); otherwise a [*, M, K] matrix. Batch dims broadcast.
void k_solve(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  expect_attrs(c, 0, "[]");
  expect_float(c, 0, "x");
  expect_same_dtype(c);
  const auto xb = matrix_batch(c, 0, "x", true);
  const Tensor& x0 = c.input(0);
  const Tensor& y0 = c.input(1);
  const int64_t n = x0.shape[x0.ndim() - 1];
  const bool vec = y0.ndim() == 1 || (y0.ndim() == x0.ndim() - 1 && std::equal(y0.shape.begin(), y0.shape.end(), x0.shape.begin()));
  if (y0.ndim() == 0) throw SkiffError("solve: y must have at least 1 dimension, got shape " + shape_str(y0.shape));
  const int64_t rows = vec ? y0.shape[y0.ndim() - 1] : y0.shape[y0.ndim() - 2];
  if (rows != n)
    throw SkiffError("solve: x of shape " + shape_str(x0.shape) + " needs y with " + std::to_string(n) + " rows, got shape " + shape_str(y0.shape));
  const std::vector<int64_t> yb(y0.shape.begin(), y0.shape.end() - (vec ? 1 : 2));
  const int64_t k = vec ? 1 : y0.shape[y0.ndim() - 1];
  const auto batch = broadcast_batch(c, xb, yb);
  c.expect_out_shape(0, vec ? cat(batch, {n}) : cat(batch, {n, k}));
  c.expect_out_dtype(0, x0.dtype);
  const Tensor& x = c.dense(0);
  const Tensor& y = c.dense(1);
  const int64_t nb = prod(batch);
  const auto xo = batch_offsets(xb, batch, n * n), yo = batch_offsets(yb, batch, n * k);
  const auto r = x.dtype == DType::F32
      ? lu_solve_batch<float>(x.data<float>(), xo, y.data<float>(), yo, c.output(0).data<float>(), nb, n, k)
      : lu_solve_batch<double>(x.data<double>(), xo, y.data<double>(), yo, c.output(0).data<double>(), nb, n, k);
  if (r.first >= 0) singular(c, r.first, r.second, batch, x0, "U's diagonal entry");
}

// ---- triangular solves ----------------------------------------------------------------------

// Solves op(A) X = B in place in x (n x k): A is n x n row-major; only its `lower` or upper
// triangle is read; op = transpose when `trans`; `unit` takes the diagonal as ones. Returns 0 or
// 1 + the index of a zero diagonal entry.
template <typename T>
int64_t tri_solve(const T* a, int64_t n, bool lower, bool trans, bool unit, T* x, int64_t k) {
  // op(A) is lower triangular when A is lower and not transposed, or upper and transposed.
  const bool eff_lower = lower != trans;
  auto at = [&](int64_t i, int64_t j) { return trans ? a[j * n + i] : a[i * n + j]; };
  if (!unit)
    for (int64_t i = 0; i < n; i++)
      if (a[i * n + i] == T(0)) return i + 1;
  for (int64_t s = 0; s < n; s++) {
    const int64_t i = eff_lower ? s : n - 1 - s;
    T* xi = x + i * k;
    const int64_t j0 = eff_lower ? 0 : i + 1, j1 = eff_lower ? i : n;
    for (int64_t j = j0; j < j1; j++) {
      const T v = at(i, j);
      if (v == T(0)) continue;
      const T* xj = x + j * k;
      for (int64_t q = 0; q < k; q++) xi[q] -= v * xj[q];
    }
    if (!unit) {
      const T inv = T(1) / a[i * n + i];
      for (int64_t q = 0; q < k; q++) xi[q] *= inv;
    }
  }
  return 0;
}

// Geometry shared by triangular_solve and cholesky_solve: A [*, n, n] (input ai) and
// B [*, n, k] (input bi), broadcast batch.
struct TriGeom { std::vector<int64_t> batch, aoff, boff; int64_t n, k; };

TriGeom tri_geom(KernelCall& c, size_t ai, size_t bi, const char* aname, const char* bname) {
  expect_float(c, 0, "x");
  expect_same_dtype(c);
  const auto ab = matrix_batch(c, ai, aname, true);
  const auto bb = matrix_batch(c, bi, bname, false);
  const Tensor& A = c.input(ai);
  const Tensor& B = c.input(bi);
  TriGeom g;
  g.n = A.shape[A.ndim() - 1];
  g.k = B.shape[B.ndim() - 1];
  if (B.shape[B.ndim() - 2] != g.n)
    throw SkiffError(opname(c) + ": " + aname + " of shape " + shape_str(A.shape) + " needs " + bname + " with " + std::to_string(g.n) +
                     " rows, got shape " + shape_str(B.shape));
  g.batch = broadcast_batch(c, ai == 0 ? ab : bb, ai == 0 ? bb : ab);
  c.expect_out_shape(0, cat(g.batch, {g.n, g.k}));
  c.expect_out_dtype(0, A.dtype);
  g.aoff = batch_offsets(ab, g.batch, g.n * g.n);
  g.boff = batch_offsets(bb, g.batch, g.n * g.k);
  return g;
}

template <typename T>
std::pair<int64_t, int64_t> tri_run(const TriGeom& g, const T* a, const T* b, T* out, bool lower, bool trans, bool unit, bool chol) {
  const int64_t nb = prod(g.batch), n = g.n, k = g.k;
  return for_each_matrix(nb, n * n * std::max<int64_t>(k, 1), [&](int64_t i) {
    T* x = out + i * n * k;
    std::copy(b + g.boff[(size_t)i], b + g.boff[(size_t)i] + n * k, x);
    const T* A = a + g.aoff[(size_t)i];
    if (!chol) return tri_solve(A, n, lower, trans, unit, x, k);
    // A = L L^T: L Z = B, then L^T X = Z (upper U = L^T: U^T Z = B, then U X = Z).
    const int64_t r = tri_solve(A, n, lower, !lower, false, x, k);
    return r ? r : tri_solve(A, n, lower, lower, false, x, k);
  });
}

void k_triangular_solve(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  expect_attrs(c, 3, "[upper, transpose, unitriangular]");
  const TriGeom g = tri_geom(c, 0, 1, "x", "y");
  const Tensor& a = c.dense(0);
  const Tensor& b = c.dense(1);
  const bool upper = c.attr(0) != 0, trans = c.attr(1) != 0, unit = c.attr(2) != 0;
  const auto r = a.dtype == DType::F32
      ? tri_run<float>(g, a.data<float>(), b.data<float>(), c.output(0).data<float>(), !upper, trans, unit, false)
      : tri_run<double>(g, a.data<double>(), b.data<double>(), c.output(0).data<double>(), !upper, trans, unit, false);
  if (r.first >= 0) singular(c, r.first, r.second, g.batch, c.input(0), "the diagonal entry");
}

// cholesky_solve(x, y, upper): x is the right-hand side B, y the Cholesky factor (Paddle's order).
void k_cholesky_solve(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  expect_attrs(c, 1, "[upper]");
  const TriGeom g = tri_geom(c, 1, 0, "y (the Cholesky factor)", "x");
  const Tensor& b = c.dense(0);
  const Tensor& a = c.dense(1);
  const bool upper = c.attr(0) != 0;
  const auto r = a.dtype == DType::F32
      ? tri_run<float>(g, a.data<float>(), b.data<float>(), c.output(0).data<float>(), !upper, false, false, true)
      : tri_run<double>(g, a.data<double>(), b.data<double>(), c.output(0).data<double>(), !upper, false, false, true);
  if (r.first >= 0) singular(c, r.first, r.second, g.batch, c.input(1), "the factor's diagonal entry");
}

// ---- cholesky -------------------------------------------------------------------------------

// Lower L with A = L L^T from A's lower triangle (row-oriented, so the inner products run over
// contiguous rows). Returns 0 or the order of the first leading minor that is not positive.
template <typename T>
int64_t chol_lower(const T* a, T* l, int64_t n) {
  std::fill(l, l + n * n, T(0));
  for (int64_t i = 0; i < n; i++) {
    T* li = l + i * n;
    for (int64_t j = 0; j <= i; j++) {
      const T* lj = l + j * n;
      T s = a[i * n + j];
      for (int64_t p = 0; p < j; p++) s -= li[p] * lj[p];
      if (j < i) li[j] = s / lj[j];
      else {
        if (!(s > T(0))) return i + 1;  // also catches NaN
        li[i] = std::sqrt(s);
      }
    }
  }
  return 0;
}

void k_cholesky(KernelCall& c) {
  const auto batch = square_input(c, 1, "[upper]");
  const Tensor& x = c.dense(0);
  const int64_t n = x.shape[x.ndim() - 1], nb = prod(batch);
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  const bool upper = c.attr(0) != 0;
  auto run = [&](auto* out, const auto* src) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(src)>>;
    return for_each_matrix(nb, cube(n), [&](int64_t b) {
      T* l = out + b * n * n;
      const int64_t r = chol_lower(src + b * n * n, l, n);
      if (r == 0 && upper)
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = i + 1; j < n; j++) std::swap(l[i * n + j], l[j * n + i]);
      return r;
    });
  };
  const auto r = x.dtype == DType::F32 ? run(c.output(0).data<float>(), x.data<float>()) : run(c.output(0).data<double>(), x.data<double>());
  if (r.first >= 0)
    throw SkiffError("cholesky: " + which_matrix(r.first, batch) + " is not positive definite (its leading minor of order " +
                     std::to_string(r.second) + " is not positive), input shape " + shape_str(x.shape));
}

// ---- matrix_power ---------------------------------------------------------------------------

template <typename T>
std::pair<int64_t, int64_t> power_run(const T* src, T* out, int64_t nb, int64_t n, int64_t e) {
  const int threads = nb > 1 ? 1 : 0;  // batched: one matrix per task, each GEMM single-threaded
  uint64_t m = e < 0 ? (uint64_t)(-(e + 1)) + 1 : (uint64_t)e;
  int64_t steps = 0;
  for (uint64_t t = m; t; t >>= 1) steps++;
  return for_each_matrix(nb, cube(n) * std::max<int64_t>(steps, 1) * 2, [&](int64_t b) {
    const T* a = src + b * n * n;
    T* r = out + b * n * n;
    std::vector<T> base(a, a + n * n), tmp((size_t)(n * n));
    if (e < 0) {
      const SquareLu<T> f(a, n);
      if (f.info) return f.info;
      set_identity(base.data(), n, n);
      linalg::lu_solve(f.lu.data(), n, f.piv.data(), base.data(), n, n);
    }
    set_identity(r, n, n);
    bool first = true;
    for (uint64_t t = m; t; t >>= 1) {  // binary exponentiation: r *= base for each set bit
      if (t & 1) {
        if (first) std::copy(base.begin(), base.end(), r);
        else {
          gemm(n, n, n, T(1), r, n, 1, base.data(), n, 1, T(0), tmp.data(), n, threads);
          std::copy(tmp.begin(), tmp.end(), r);
        }
        first = false;
      }
      if (t > 1) {
        gemm(n, n, n, T(1), base.data(), n, 1, base.data(), n, 1, T(0), tmp.data(), n, threads);
        base.swap(tmp);
      }
    }
    return int64_t(0);
  });
}

void k_matrix_power(KernelCall& c) {
  const auto batch = square_input(c, 1, "[n]");
  const Tensor& x = c.dense(0);
  const int64_t n = x.shape[x.ndim() - 1], nb = prod(batch), e = c.iattr(0);
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  const auto r = x.dtype == DType::F32 ? power_run<float>(x.data<float>(), c.output(0).data<float>(), nb, n, e)
                                       : power_run<double>(x.data<double>(), c.output(0).data<double>(), nb, n, e);
  if (r.first >= 0)
    throw SkiffError("matrix_power: " + which_matrix(r.first, batch) + " is singular and cannot be raised to the negative power " +
                     std::to_string(e) + " (U's diagonal entry " + std::to_string(r.second - 1) + " is zero), input shape " + shape_str(x.shape));
}

SKIFF_KERNEL("lu", k_lu);
SKIFF_KERNEL("lu_unpack", k_lu_unpack);
SKIFF_KERNEL("determinant", k_determinant);
SKIFF_KERNEL("slogdeterminant", k_slogdeterminant);
SKIFF_KERNEL("inverse", k_inverse);
SKIFF_KERNEL("solve", k_solve);
SKIFF_KERNEL("triangular_solve", k_triangular_solve);
SKIFF_KERNEL("cholesky", k_cholesky);
SKIFF_KERNEL("cholesky_solve", k_cholesky_solve);
SKIFF_KERNEL("matrix_power", k_matrix_power);

}  // namespace
}  // namespace skiff
