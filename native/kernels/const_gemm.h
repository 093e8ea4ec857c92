// GEMM kernels' use of const_cache.h: B packed once when it is a constant input (a weight of an
// inference model), see gemm_packed.h.
#pragma once
#include <new>
#include "../gemm/gemm_packed.h"
#include "const_cache.h"

namespace skiff {

// The packed form of op(B) (k x n, strides rsb/csb) when B is input i of the running kernel and
// constant, else null. Null too where gemm() would not pack B (matrix-vector, tiny problems):
// there is nothing to save. tag: 1 + transpose flag (matmul and fused_gemm_epilogue share entries).
inline const PackedB* constant_packed_b(size_t i, const Tensor& t, int tag, int64_t m, int64_t n, int64_t k, const float* B,
                                        int64_t rsb, int64_t csb) {
  if (m <= 1 || n <= 1 || k <= 0 || (double)m * (double)n * (double)k < 32.0 * 32 * 32) return nullptr;
  ConstCacheEntry* e = const_cache_for(i, t, tag);
  if (!e) return nullptr;
  if (!e->value) {
    try {
      e->value = shared_const_value(*e, [&] { return std::static_pointer_cast<void>(gemm_pack_b(k, n, B, rsb, csb)); });
    } catch (const std::bad_alloc&) {
      return nullptr;  // no memory for a second copy of the weight: pack per call as before
    }
  }
  const auto* pb = static_cast<const PackedB*>(e->value.get());
  return packed_b_matches(*pb, k, n, rsb, csb) ? pb : nullptr;
}

}  // namespace skiff
