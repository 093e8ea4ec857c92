// A float32 B operand packed once for the GEMM's micro-kernel and reused by later calls, for
// constant weights (const_cache.h): gemm() packs B on every call, which for a wide weight (a
// language model's [vocab, hidden] head) costs as much as the multiplication. Only the packed
// path uses it; calls that gemm() would run as a matrix-vector product or a small direct loop
// read B as given, so the caller passes both.
#pragma once
#include <cstdint>
#include <memory>

namespace skiff {

struct PackedB;

// op(B) is k x n with strides (rsb, csb), as in gemm(). The result does not point into B.
std::shared_ptr<PackedB> gemm_pack_b(int64_t k, int64_t n, const float* B, int64_t rsb, int64_t csb);

// Whether pb was packed from a k x n operand with these strides (a kernel checks before use).
bool packed_b_matches(const PackedB& pb, int64_t k, int64_t n, int64_t rsb, int64_t csb);

// gemm() with B's packed form: identical results to gemm(m, n, k, alpha, A, rsa, csa, B, rsb,
// csb, beta, C, ldc, max_threads) (same blocking, same summation order).
void gemm_prepacked(int64_t m, int64_t n, int64_t k, float alpha, const float* A, int64_t rsa, int64_t csa, const float* B,
                    int64_t rsb, int64_t csb, const PackedB& pb, float beta, float* C, int64_t ldc, int max_threads = 0);

}  // namespace skiff
