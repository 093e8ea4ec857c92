// Fused ops of training programs (src/ops/defs/fused_ops.ts), made by the training pipeline's
// fusion passes (src/passes/fuse_training.ts):
//
//   fused_dropout_add(x, y) -> out, seed_offset   attrs [p, training, mode (0 upscale_in_train, 1 downscale_in_infer)]
//     out = dropout(x) + y, y broadcasting to x. The keep mask is drawn inside the loop from
//     the same Philox stream, at the same offsets, as the dropout kernel (random.cc): element
//     e of x reads lane e % 4 of block (offset + e / 4) and is kept when u01 >= p. So under one
//     seed the fused op equals dropout followed by add, bit for bit. seed_offset = the stream's
//     (key, first block) as int64 [2], which the backward uses to regenerate the mask.
//     Faster than the two ops: no u8 mask tensor, no intermediate dropout output written and
//     read back by add, one pass over x and y.
//   fused_dropout_add_grad(seed_offset, out_grad) -> x_grad   same attrs
//     x_grad = out_grad masked and scaled as the forward did (the mask regenerated).
//   fused_linear_param_grad_add(x, dout, [dweight], [dbias]) -> dweight_out, dbias_out
//     attrs [has_dweight, has_dbias, has_bias]; Paddle's op: dweight_out = dweight + x2^T @ dout2
//     and dbias_out = dbias + colsum(dout2), x2 / dout2 being x / dout with leading dims folded
//     into rows. The GEMM accumulates into a copy of dweight (beta = 1) instead of writing a
//     product that add then reads back.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "../gemm/gemm.h"
#include "generator.h"
#include "iter.h"
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::D;
using nn::S;

struct DropoutAttrs {
  double p;
  bool training, upscale;
  // Whether the forward drew random numbers (dropout draws only in training with p > 0).
  bool draws() const { return training && p > 0; }
};

DropoutAttrs dropout_attrs(KernelCall& c) {
  if (c.attrs.size() != 3) throw SkiffError(std::string(c.op) + ": expected attrs [p, training, mode], got " + S((int64_t)c.attrs.size()));
  const double p = c.attr(0);
  const int64_t training = c.iattr(1), mode = c.iattr(2);
  if (!(p >= 0 && p <= 1)) throw SkiffError(std::string(c.op) + ": p must be in [0, 1], got " + D(p));
  if (training != 0 && training != 1) throw SkiffError(std::string(c.op) + ": training must be 0 or 1, got " + S(training));
  if (mode != 0 && mode != 1) throw SkiffError(std::string(c.op) + ": invalid mode code " + S(mode) + " (0 upscale_in_train, 1 downscale_in_infer)");
  return {p, training == 1, mode == 0};
}

// The kept-value transform of dropout in compute type A (the same expression as random.cc).
template <typename A>
struct Keep {
  A scale, keep_prob;
  bool divide;
  explicit Keep(const DropoutAttrs& a)
      : scale(a.training ? (a.upscale ? (A)(1.0 / (1.0 - a.p)) : (A)1) : (a.upscale ? (A)1 : (A)(1.0 - a.p))),
        keep_prob((A)(1.0 - a.p)),
        divide(a.training && a.upscale) {}
  A operator()(bool k, A v) const { return !k ? (A)0 : divide ? v / keep_prob : v * scale; }
};

// Philox4x32-10 of blocks ctr0 .. ctr0 + L - 1 at once: generator.h's Philox4x32::block, the
// same arithmetic lane by lane, eight lanes per AVX2 register (vpmuludq gives the 32x32->64-bit
// products of the even lanes; the odd lanes go through a 32-bit shift). Several times faster
// than one block at a time, which is how dropout draws. The scalar loop is the fallback.
template <int L>
inline void philox_lanes(uint64_t key, uint64_t ctr0, uint32_t (&out)[4][L]) {
  const uint32_t key0 = (uint32_t)key, key1 = (uint32_t)(key >> 32);
#if defined(__AVX2__)
  static_assert(L % 8 == 0, "lanes come in registers of 8");
  constexpr int V = L / 8;
  __m256i c0[V], c1[V], c2[V], c3[V];
  for (int v = 0; v < V; v++) {
    alignas(32) uint32_t lo[8], hi[8];
    for (int l = 0; l < 8; l++) { const uint64_t ctr = ctr0 + (uint64_t)(v * 8 + l); lo[l] = (uint32_t)ctr; hi[l] = (uint32_t)(ctr >> 32); }
    c0[v] = _mm256_load_si256((const __m256i*)lo);
    c1[v] = _mm256_load_si256((const __m256i*)hi);
    c2[v] = _mm256_setzero_si256();
    c3[v] = _mm256_setzero_si256();
  }
  const __m256i m0 = _mm256_set1_epi32((int)0xD2511F53u), m1 = _mm256_set1_epi32((int)0xCD9E8D57u);
  // (hi, lo) 32-bit halves of a * m per lane.
  auto mulhilo = [](__m256i a, __m256i m, __m256i& hi, __m256i& lo) {
    const __m256i pe = _mm256_mul_epu32(a, m), po = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
    lo = _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
  };
  uint32_t k0 = key0, k1 = key1;
  for (int r = 0; r < 10; r++) {
    if (r) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    const __m256i vk0 = _mm256_set1_epi32((int)k0), vk1 = _mm256_set1_epi32((int)k1);
    for (int v = 0; v < V; v++) {
      __m256i hi0, lo0, hi1, lo1;
      mulhilo(c0[v], m0, hi0, lo0);
      mulhilo(c2[v], m1, hi1, lo1);
      c0[v] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[v]), vk0);
      c1[v] = lo1;
      c2[v] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[v]), vk1);
      c3[v] = lo0;
    }
  }
  for (int v = 0; v < V; v++) {
    _mm256_storeu_si256((__m256i*)&out[0][v * 8], c0[v]);
    _mm256_storeu_si256((__m256i*)&out[1][v * 8], c1[v]);
    _mm256_storeu_si256((__m256i*)&out[2][v * 8], c2[v]);
    _mm256_storeu_si256((__m256i*)&out[3][v * 8], c3[v]);
  }
#else
  for (int l = 0; l < L; l++) {
    uint32_t r4[4];
    Philox4x32::block(key, ctr0 + (uint64_t)l, r4);
    for (int w = 0; w < 4; w++) out[w][l] = r4[w];
  }
  (void)key0; (void)key1;
#endif
}

constexpr int kLanes = 16;                 // Philox blocks per group
constexpr int64_t kGroup = 4 * kLanes;     // elements per group

// fn(first_element, count, keep[kGroup]) for each group of kGroup elements of n: the kept flags
// of the dropout stream (key, offset) (element e: lane e % 4 of block offset + e / 4, kept when
// u01 >= p, as random.cc), or all kept when the op does not draw.
template <typename F>
void for_mask_blocks(int64_t n, const DropoutAttrs& a, const GeneratorState& s, F&& fn) {
  const int64_t groups = (n + kGroup - 1) / kGroup;
  const float pf = (float)a.p;
  parallel_for(groups, 128, [&](int64_t g0, int64_t g1) {
    uint32_t r[4][kLanes];
    uint8_t k[kGroup];
    if (!a.draws()) std::memset(k, 1, sizeof k);
    for (int64_t g = g0; g < g1; g++) {
      if (a.draws()) {
        philox_lanes<kLanes>(s.seed, s.offset + (uint64_t)(g * kLanes), r);
        for (int b = 0; b < kLanes; b++)
          for (int w = 0; w < 4; w++) k[b * 4 + w] = u01_f(r[w][b]) >= pf ? 1 : 0;
      }
      fn(g * kGroup, std::min<int64_t>(kGroup, n - g * kGroup), k);
    }
  });
}

void k_fused_dropout_add(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(2);
  const DropoutAttrs a = dropout_attrs(c);
  Tensor &x = c.input(0), &y = c.input(1), &o = c.output(0), &so = c.output(1);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (y.dtype != x.dtype) throw SkiffError(std::string(c.op) + ": x and y must share a dtype, got " + dtype_name(x.dtype) + " and " + dtype_name(y.dtype));
  const std::vector<int64_t> ys = broadcast_strides(y, x.shape, c.op);  // y must broadcast to x
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(1, {2});
  c.expect_out_dtype(1, DType::I64);
  const int64_t n = x.numel();
  const GeneratorState s = a.draws() ? draw_stream(0, (uint64_t)((n + 3) / 4)) : GeneratorState{0, 0};
  int64_t* sop = so.data<int64_t>();
  sop[0] = (int64_t)s.seed;
  sop[1] = (int64_t)s.offset;
  if (n == 0) return;
  const bool same = y.shape == x.shape;
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const Keep<A> keep(a);
    T* out = o.data<T>();
    if (same) {
      const T* X = c.dense(0).template data<T>();
      const T* Y = c.dense(1).template data<T>();
      for_mask_blocks(n, a, s, [&](int64_t e, int64_t cnt, const uint8_t* k) {
        for (int64_t l = 0; l < cnt; l++) {
          // Rounded to T before the add, as the dropout output would be.
          const T d = Compute<T>::store(keep(k[l], Compute<T>::load(X[e + l])));
          out[e + l] = Compute<T>::store(Compute<T>::load(d) + Compute<T>::load(Y[e + l]));
        }
      });
      return;
    }
    // y broadcasts: the mask goes through a u8 buffer in x's element order, then one strided pass.
    auto mask = make_tensor(DType::U8, x.shape, c.op);
    uint8_t* mp = mask->data<uint8_t>();
    for_mask_blocks(n, a, s, [&](int64_t e, int64_t cnt, const uint8_t* k) { for (int64_t l = 0; l < cnt; l++) mp[e + l] = k[l] ? 1 : 0; });
    const int64_t es = sizeof(T);
    strided_loop<4>(x.shape, {(char*)o.raw(), (char*)x.raw(), (char*)y.raw(), (char*)mp}, {o.strides, x.strides, ys, mask->strides}, {es, es, es, 1},
                    [&](const std::array<char*, 4>& ptr, const std::array<int64_t, 4>& st, int64_t m) {
                      for (int64_t i = 0; i < m; i++) {
                        const bool k = *(const uint8_t*)(ptr[3] + i * st[3]) != 0;
                        const T d = Compute<T>::store(keep(k, Compute<T>::load(*(const T*)(ptr[1] + i * st[1]))));
                        *(T*)(ptr[0] + i * st[0]) = Compute<T>::store(Compute<T>::load(d) + Compute<T>::load(*(const T*)(ptr[2] + i * st[2])));
                      }
                    });
  });
}

void k_fused_dropout_add_grad(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  const DropoutAttrs a = dropout_attrs(c);
  Tensor &so = c.input(0), &g = c.input(1), &o = c.output(0);
  if (so.dtype != DType::I64 || so.shape != std::vector<int64_t>{2})
    throw SkiffError(std::string(c.op) + ": seed_offset must be an int64 tensor of shape [2], got " + dtype_name(so.dtype) + " " + shape_str(so.shape));
  if (!is_floating(g.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating out_grad, got " + dtype_name(g.dtype));
  c.expect_out_shape(0, g.shape);
  c.expect_out_dtype(0, g.dtype);
  const Tensor& sod = c.dense(0);
  const GeneratorState s{(uint64_t)sod.data<int64_t>()[0], (uint64_t)sod.data<int64_t>()[1]};
  const int64_t n = g.numel();
  if (n == 0) return;
  dispatch_float(g.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const Keep<A> keep(a);
    const T* G = c.dense(1).template data<T>();
    T* out = o.data<T>();
    for_mask_blocks(n, a, s, [&](int64_t e, int64_t cnt, const uint8_t* k) {
      for (int64_t l = 0; l < cnt; l++) out[e + l] = Compute<T>::store(keep(k[l], Compute<T>::load(G[e + l])));
    });
  });
}

template <typename T>
void linear_grad_run(KernelCall& c, const Tensor* dw, const Tensor* db, bool has_bias, int64_t m, int64_t k, int64_t n) {
  const Tensor& xd = c.dense(0);
  const Tensor& gd = c.dense(1);
  T* W = c.output(0).data<T>();
  if (k * n > 0) {
    if (dw) {
      // dweight may be a strided view: copy it row by row into the output, then accumulate.
      const T* src = dw->data<T>();
      if (dw->is_contiguous()) std::memcpy(W, src, sizeof(T) * (size_t)(k * n));
      else for (int64_t i = 0; i < k; i++) for (int64_t j = 0; j < n; j++) W[i * n + j] = src[i * dw->strides[0] + j * dw->strides[1]];
    }
    // W (k x n) = x2^T (k x m, x2 stored m x k) @ dout2 (m x n) + beta * W.
    if (m > 0) gemm(k, n, m, T(1), xd.data<T>(), 1, k, gd.data<T>(), n, 1, dw ? T(1) : T(0), W, n);
    else if (!dw) std::fill(W, W + k * n, T(0));
  }
  if (!has_bias || n == 0) return;
  T* B = c.output(1).data<T>();
  const T* G = gd.data<T>();
  // Column sums in double (float32 gradients over many rows), split over columns.
  parallel_for(n, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, m)), [&](int64_t j0, int64_t j1) {
    std::vector<double> acc((size_t)(j1 - j0), 0.0);
    for (int64_t i = 0; i < m; i++) {
      const T* row = G + i * n;
      for (int64_t j = j0; j < j1; j++) acc[j - j0] += (double)row[j];
    }
    for (int64_t j = j0; j < j1; j++) {
      double base = 0;
      if (db) base = (double)db->data<T>()[j * db->strides[0]];
      B[j] = (T)(base + acc[j - j0]);
    }
  });
}

void k_fused_linear_param_grad_add(KernelCall& c) {
  c.expect_outputs(2);
  if (c.attrs.size() != 3) throw SkiffError(std::string(c.op) + ": expected attrs [has_dweight, has_dbias, has_bias], got " + S((int64_t)c.attrs.size()));
  const int64_t hw = c.iattr(0), hb = c.iattr(1), bias = c.iattr(2);
  for (int64_t f : {hw, hb, bias}) if (f != 0 && f != 1) throw SkiffError(std::string(c.op) + ": flags must be 0 or 1");
  c.expect_inputs((size_t)(2 + hw + hb));
  Tensor &x = c.input(0), &g = c.input(1);
  const Tensor* dw = hw ? &c.input(2) : nullptr;
  const Tensor* db = hb ? &c.input(2 + hw) : nullptr;
  const std::string shapes = "x " + shape_str(x.shape) + ", dout " + shape_str(g.shape) + (dw ? ", dweight " + shape_str(dw->shape) : "") + (db ? ", dbias " + shape_str(db->shape) : "");
  if (x.dtype != DType::F32 && x.dtype != DType::F64) throw SkiffError(std::string(c.op) + ": unsupported dtype " + dtype_name(x.dtype) + " (float32 or float64), " + shapes);
  if (g.dtype != x.dtype || (dw && dw->dtype != x.dtype) || (db && db->dtype != x.dtype)) throw SkiffError(std::string(c.op) + ": inputs must share a dtype, " + shapes);
  if (x.ndim() < 2 || g.ndim() != x.ndim()) throw SkiffError(std::string(c.op) + ": x and dout must have the same rank >= 2, got " + shapes);
  for (int64_t d = 0; d + 1 < x.ndim(); d++)
    if (x.shape[d] != g.shape[d]) throw SkiffError(std::string(c.op) + ": x and dout must agree on every dim but the last, got " + shapes);
  const int64_t k = x.shape.back(), n = g.shape.back();
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < x.ndim(); d++) rows *= x.shape[d];
  if (dw && dw->shape != std::vector<int64_t>{k, n}) throw SkiffError(std::string(c.op) + ": dweight must have shape [" + S(k) + ", " + S(n) + "], " + shapes);
  if (db && db->shape != std::vector<int64_t>{n}) throw SkiffError(std::string(c.op) + ": dbias must have shape [" + S(n) + "], " + shapes);
  if (db && !bias) throw SkiffError(std::string(c.op) + ": dbias is given but has_bias is false");
  c.expect_out_shape(0, {k, n});
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(1, {bias ? n : 0});
  c.expect_out_dtype(1, x.dtype);
  if (x.dtype == DType::F32) linear_grad_run<float>(c, dw, db, bias == 1, rows, k, n);
  else linear_grad_run<double>(c, dw, db, bias == 1, rows, k, n);
}

}  // namespace
SKIFF_KERNEL("fused_dropout_add", k_fused_dropout_add);
SKIFF_KERNEL("fused_dropout_add_grad", k_fused_dropout_add_grad);
SKIFF_KERNEL("fused_linear_param_grad_add", k_fused_linear_param_grad_add);
}  // namespace skiff
