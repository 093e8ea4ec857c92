// Blocked, packed GEMM for float32 and float64 (row-major), built in its own static library
// because it alone is compiled with -ffast-math (see binding.gyp).
//
// Every operand is described by a pointer plus a row stride and a column stride (in
// elements), so transposed operands, strided views and broadcast (stride-0) views are all
// handled by the packing routines without copying:
//
//   C[i*ldc + j] = alpha * sum_p A[i*rsa + p*csa] * B[p*rsb + j*csb] + beta * C[i*ldc + j]
//
// for 0 <= i < m, 0 <= j < n, 0 <= p < k. As in BLAS, beta == 0 means C is only written,
// never read (it may hold garbage or NaN), and alpha == 0 or k == 0 reduce to C = beta*C.
// C must not overlap A or B.
//
// max_threads: 0 = use the whole pool (skiff::num_threads()), 1 = run on the caller only
// (used when the caller already parallelises, e.g. over a batch), n = at most n threads.
// The routine itself decides to use fewer threads for small problems.
#pragma once
#include <cstdint>

namespace skiff {

void gemm(int64_t m, int64_t n, int64_t k, float alpha, const float* A, int64_t rsa, int64_t csa,
          const float* B, int64_t rsb, int64_t csb, float beta, float* C, int64_t ldc, int max_threads = 0);
void gemm(int64_t m, int64_t n, int64_t k, double alpha, const double* A, int64_t rsa, int64_t csa,
          const double* B, int64_t rsb, int64_t csb, double beta, double* C, int64_t ldc, int max_threads = 0);

// BLAS-style entry: op(A) is m x k, op(B) is k x n; lda/ldb are the row strides of A and B
// as stored (so a transposed A is stored k x m with row stride lda).
template <typename T>
inline void gemm_blas(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* A, int64_t lda,
                      const T* B, int64_t ldb, T beta, T* C, int64_t ldc, int max_threads = 0) {
  gemm(m, n, k, alpha, A, trans_a ? 1 : lda, trans_a ? lda : 1, B, trans_b ? 1 : ldb, trans_b ? ldb : 1, beta, C, ldc,
       max_threads);
}

// Describes the compiled micro-kernels, e.g. "avx512 f32 6x32 f64 6x16" (for benchmarks and logs).
const char* gemm_kernel_info();

}  // namespace skiff
