// The float32 GEMM's packed layout and micro-kernel, for callers that pack B themselves: the
// implicit-GEMM convolution (nn_conv.cc) gathers each B panel straight from the image, so the
// im2col matrix is never written out and read back, and packs the weight (A) once.
//
// Packed A (gemm_f32_pack_a): m x kc values of A as ceil(m / mr) panels of kc x mr (mr values per
// k step), zero-padded past m. A whole m x k operand is stored as k blocks of at most kc_max
// rows; block pc (a multiple of kc_max) starts at pc * round_up(m, mr) and panel rows [r, r + mr)
// of it at + r * kc (r a multiple of mr).
// B panel: kc x nr_max values (nr_max per k step), 64-byte aligned, zero past the real columns.
#pragma once
#include <cstdint>

namespace skiff {

struct GemmTiles { int mr, nr, kc, mc; };  // register tile, k block, L2 row block of A
GemmTiles gemm_f32_tiles();

// Packs rows [0, m) x columns [0, kc) of A (element strides rsa, csa; already offset to the block).
void gemm_f32_pack_a(int64_t m, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* dst);

// Packs rows [0, kc) x columns [0, nr) of B (strides rsb, csb; already offset) as one panel
// (kc x nr_max, zero past nr) into dst, 64-byte aligned.
void gemm_f32_pack_b(int64_t kc, int64_t nr, const float* B, int64_t rsb, int64_t csb, float* dst);

// C[mc x nr] (row stride ldc) = Apacked (mc rows, kc deep) * Bpanel + beta * C; beta == 0 only
// writes C. nr <= nr_max; the same blocking and summation order as gemm().
void gemm_f32_panel(int64_t mc, int64_t kc, const float* ap, const float* bp, int64_t nr, float beta, float* C, int64_t ldc);

}  // namespace skiff
