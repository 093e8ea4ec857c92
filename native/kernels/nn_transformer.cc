// Transformer building blocks: scaled_dot_product_attention (fused) and rms_norm.
//
// scaled_dot_product_attention: query [B, Sq, H, D], key [B, Sk, H, D], value [B, Sk, H, Dv]
// (Paddle's [batch, seq, heads, head_dim] layout, any strides), optional mask broadcastable to
// [B, H, Sq, Sk] (bool: true keeps a score; floating: added to it). attrs [isCausal, hasMask,
// scale]. Output [B, Sq, H, Dv], contiguous.
// One task per (batch, head, block of QB query rows). The task walks the keys in blocks of KB:
// scores = q_blk . k_blk^T (packed GEMM), mask / causal cut, then the online (flash-attention)
// softmax: the running row maximum m and sum l are rescaled by exp(m_old - m_new) whenever the
// maximum grows, and the value product accumulates into a [QB, Dv] tile the same way. So memory
// is O(QB * (KB + Dv)) per thread whatever the sequence length; no [Sq, Sk] matrix exists.
// Causal attention is top-left aligned (key j is visible to query i when j <= i, as tril(0)), and
// key blocks past a query block's last row are never visited. A row whose every score is masked
// gives NaN (softmax of all -inf), as the unfused ops do; an empty key sequence gives zeros.
// float16/bfloat16 compute in float32.
//
// rms_norm: inputs x, weight?, bias?; attrs [epsilon, begin_norm_axis, hasWeight, hasBias].
// Each row of the [left, right] view (right = prod of dims from begin_norm_axis) becomes
// x * rsqrt(mean(x^2) + eps) * weight + bias; output 1 is that rsqrt per row (float32, or float64
// for float64 input): Paddle's inv_var, kept for users of the fused op.
#include <cmath>
#include <limits>
#include <type_traits>
#include "../gemm/gemm.h"
#include "kernel.h"
#include "nn_common.h"
#include "vmath.h"

namespace skiff {
namespace {

using nn::S;

constexpr int64_t QB = 128;  // query rows per task
constexpr int64_t KB = 128;  // keys per block: scores tile QB x KB stays in L2 with the k/v blocks

// Row max and exp-and-sum over LANES independent partial results: a single running max or
// sum is a serial dependency chain the compiler may not reorder (no -ffast-math here); lanes
// make both loops vector operations. NaN scores reach the output through exp and the sum.
constexpr int64_t LANES = 16;

template <typename A>
inline A row_max(const A* s, int64_t n) {
  A part[LANES];
  for (int64_t u = 0; u < LANES; u++) part[u] = -std::numeric_limits<A>::infinity();
  int64_t j = 0;
  for (; j + LANES <= n; j += LANES)
    for (int64_t u = 0; u < LANES; u++) part[u] = s[j + u] > part[u] ? s[j + u] : part[u];
  for (; j < n; j++) part[0] = s[j] > part[0] ? s[j] : part[0];
  A mx = part[0];
  for (int64_t u = 1; u < LANES; u++) mx = part[u] > mx ? part[u] : mx;
  return mx;
}

// s[j] = exp(s[j] - mx); returns the sum.
template <typename A>
inline A exp_sum(A* s, int64_t n, A mx) {
  A part[LANES] = {};
  int64_t j = 0;
  for (; j + LANES <= n; j += LANES)
    for (int64_t u = 0; u < LANES; u++) {
      const A e = vm::exp_(s[j + u] - mx);
      s[j + u] = e;
      part[u] += e;
    }
  for (; j < n; j++) { s[j] = vm::exp_(s[j] - mx); part[0] += s[j]; }
  A sum = 0;
  for (int64_t u = 0; u < LANES; u++) sum += part[u];
  return sum;
}

template <typename T>
void sdpa_impl(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* mask, Tensor& o, bool causal, double scale) {
  using A = compute_t<T>;
  const int64_t B = q.shape[0], Sq = q.shape[1], H = q.shape[2], D = q.shape[3], Sk = k.shape[1], Dv = v.shape[3];
  T* O = o.data<T>();
  if (Sk == 0) {  // softmax over no keys times an empty value matrix: zeros
    for (int64_t i = 0; i < o.numel(); i++) O[i] = Compute<T>::store(A(0));
    return;
  }
  const T *Q = q.data<T>(), *K = k.data<T>(), *V = v.data<T>();
  const auto &qs = q.strides, &ks = k.strides, &vs = v.strides;
  int64_t ms[4] = {0, 0, 0, 0};  // mask strides over [B, H, Sq, Sk], 0 where it broadcasts
  if (mask) {
    const int64_t off = 4 - mask->ndim();
    for (int64_t d = 0; d < mask->ndim(); d++) ms[off + d] = mask->shape[d] == 1 ? 0 : mask->strides[d];
  }
  const bool mask_bool = mask && mask->dtype == DType::Bool;
  const bool* MB = mask_bool ? mask->data<bool>() : nullptr;
  const T* MF = mask && !mask_bool ? mask->data<T>() : nullptr;
  const A inf = std::numeric_limits<A>::infinity();
  const int64_t qblocks = (Sq + QB - 1) / QB;

  parallel_for(B * H * qblocks, 1, [&](int64_t t0, int64_t t1) {
    A* qb = nn::scratch<A>(0, (size_t)(QB * D));
    A* kb = nn::scratch<A>(1, (size_t)(KB * D));
    A* vb = nn::scratch<A>(2, (size_t)(KB * Dv));
    A* sc = nn::scratch<A>(3, (size_t)(QB * KB + QB * Dv + 2 * QB));
    A* acc = sc + QB * KB;
    A* m = acc + QB * Dv;
    A* l = m + QB;
    for (int64_t t = t0; t < t1; t++) {
      const int64_t bh = t / qblocks, i0 = (t % qblocks) * QB, b = bh / H, h = bh % H;
      const int64_t ni = std::min(QB, Sq - i0);
      const T* qp = Q + b * qs[0] + h * qs[2];
      for (int64_t i = 0; i < ni; i++)  // the scale folds into q once rather than into every score
        for (int64_t d = 0; d < D; d++) qb[i * D + d] = Compute<T>::load(qp[(i0 + i) * qs[1] + d * qs[3]]) * (A)scale;
      for (int64_t i = 0; i < ni * Dv; i++) acc[i] = A(0);
      for (int64_t i = 0; i < ni; i++) { m[i] = -inf; l[i] = A(0); }
      const int64_t kend = causal ? std::min(Sk, i0 + ni) : Sk;
      const T* kp = K + b * ks[0] + h * ks[2];
      const T* vp = V + b * vs[0] + h * vs[2];
      for (int64_t j0 = 0; j0 < kend; j0 += KB) {
        const int64_t nj = std::min(KB, kend - j0);
        for (int64_t j = 0; j < nj; j++) {
          const T* kr = kp + (j0 + j) * ks[1];
          const T* vr = vp + (j0 + j) * vs[1];
          for (int64_t d = 0; d < D; d++) kb[j * D + d] = Compute<T>::load(kr[d * ks[3]]);
          for (int64_t d = 0; d < Dv; d++) vb[j * Dv + d] = Compute<T>::load(vr[d * vs[3]]);
        }
        gemm(ni, nj, D, A(1), qb, D, 1, kb, 1, D, A(0), sc, KB, 1);
        for (int64_t i = 0; i < ni; i++) {
          A* s = sc + i * KB;
          const int64_t gi = i0 + i;
          const int64_t mrow = b * ms[0] + h * ms[1] + gi * ms[2];
          if (MB) {
            for (int64_t j = 0; j < nj; j++) s[j] = MB[mrow + (j0 + j) * ms[3]] ? s[j] : -inf;
          } else if (MF) {
            for (int64_t j = 0; j < nj; j++) s[j] += Compute<T>::load(MF[mrow + (j0 + j) * ms[3]]);
          }
          if (causal) for (int64_t j = std::max<int64_t>(0, gi + 1 - j0); j < nj; j++) s[j] = -inf;
          const A mx = std::max(m[i], row_max(s, nj));
          if (mx == -inf) {  // nothing visible in this row yet: the block adds nothing (a NaN score poisons the row)
            for (int64_t j = 0; j < nj; j++) {
              if (s[j] != s[j]) l[i] = s[j];
              s[j] = A(0);
            }
            continue;
          }
          const A corr = vm::exp_(m[i] - mx);
          const A sum = exp_sum(s, nj, mx);
          l[i] = l[i] * corr + sum;
          m[i] = mx;
          if (corr != A(1)) {
            A* ar = acc + i * Dv;
            for (int64_t d = 0; d < Dv; d++) ar[d] *= corr;
          }
        }
        gemm(ni, Dv, nj, A(1), sc, KB, 1, vb, Dv, 1, A(1), acc, Dv, 1);
      }
      for (int64_t i = 0; i < ni; i++) {
        const A inv = A(1) / l[i];  // l == 0 (every score masked): 0 * inf = NaN, like softmax of all -inf
        T* orow = O + ((b * Sq + i0 + i) * H + h) * Dv;
        const A* ar = acc + i * Dv;
        for (int64_t d = 0; d < Dv; d++) orow[d] = Compute<T>::store(ar[d] * inv);
      }
    }
  });
}

void k_sdpa(KernelCall& c) {
  const char* op = "scaled_dot_product_attention";
  c.expect_outputs(1);
  const bool causal = c.iattr(0) != 0, has_mask = c.iattr(1) != 0;
  const double scale = c.attr(2);
  c.expect_inputs(has_mask ? 4 : 3);
  const Tensor &q = c.input(0), &k = c.input(1), &v = c.input(2);
  const Tensor* mask = has_mask ? &c.input(3) : nullptr;
  for (const Tensor* t : {&q, &k, &v})
    if (t->ndim() != 4)
      throw SkiffError(std::string(op) + ": query, key and value must be 4-D [batch, seq_len, num_heads, head_dim], got " +
                       shape_str(q.shape) + ", " + shape_str(k.shape) + ", " + shape_str(v.shape));
  if (!is_floating(q.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(q.dtype));
  if (k.dtype != q.dtype || v.dtype != q.dtype)
    throw SkiffError(std::string(op) + ": query, key and value dtypes differ: " + dtype_name(q.dtype) + ", " + dtype_name(k.dtype) + ", " + dtype_name(v.dtype));
  const int64_t B = q.shape[0], Sq = q.shape[1], H = q.shape[2], D = q.shape[3], Sk = k.shape[1];
  if (k.shape[0] != B || v.shape[0] != B || k.shape[2] != H || v.shape[2] != H || k.shape[3] != D || v.shape[1] != Sk)
    throw SkiffError(std::string(op) + ": shapes do not match: query " + shape_str(q.shape) + ", key " + shape_str(k.shape) + ", value " +
                     shape_str(v.shape) + " (key needs query's batch, heads and head_dim; value needs key's batch, seq_len and heads)");
  if (!std::isfinite(scale)) throw SkiffError(std::string(op) + ": invalid scale " + nn::D(scale));
  if (mask) {
    const std::vector<int64_t> full{B, H, Sq, Sk};
    bool ok = mask->ndim() <= 4;
    for (int64_t d = 0; ok && d < mask->ndim(); d++) {
      const int64_t md = mask->shape[d], fd = full[4 - mask->ndim() + d];
      ok = md == 1 || md == fd;
    }
    if (!ok) throw SkiffError(std::string(op) + ": attn_mask of shape " + shape_str(mask->shape) + " does not broadcast to [batch, num_heads, seq_len, seq_len_key] = " + shape_str(full));
    if (mask->dtype != DType::Bool && mask->dtype != q.dtype)
      throw SkiffError(std::string(op) + ": attn_mask must be bool or " + dtype_name(q.dtype) + " (the query's dtype), got " + dtype_name(mask->dtype));
  }
  c.expect_out_shape(0, {B, Sq, H, v.shape[3]});
  c.expect_out_dtype(0, q.dtype);
  if (c.output(0).numel() == 0) return;
  dispatch_float(q.dtype, op, [&](auto tag) { sdpa_impl<decltype(tag)>(q, k, v, mask, c.output(0), causal, scale); });
}

void k_rms_norm(KernelCall& c) {
  const char* op = "rms_norm";
  c.expect_outputs(2);
  const double eps = c.attr(0);
  const int64_t begin = c.iattr(1);
  const bool has_w = c.iattr(2) != 0, has_b = c.iattr(3) != 0;
  c.expect_inputs(1 + has_w + has_b);
  const Tensor& x = c.input(0);
  const Tensor* wt = has_w ? &c.input(1) : nullptr;
  const Tensor* bs = has_b ? &c.input(1 + has_w) : nullptr;
  const int64_t rank = x.ndim();
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (rank == 0 || begin < 0 || begin >= rank) throw SkiffError(std::string(op) + ": begin_norm_axis " + S(begin) + " is out of range for input of shape " + shape_str(x.shape));
  if (!(eps >= 0)) throw SkiffError(std::string(op) + ": epsilon must be non-negative, got " + nn::D(eps));
  int64_t left = 1, right = 1;
  for (int64_t d = 0; d < rank; d++) (d < begin ? left : right) *= x.shape[d];
  for (const Tensor* p : {wt, bs}) {
    if (!p) continue;
    if (p->numel() != right) throw SkiffError(std::string(op) + ": " + (p == wt ? "weight" : "bias") + " of shape " + shape_str(p->shape) + " does not match the normalized size " + S(right) + " of input " + shape_str(x.shape));
    if (p->dtype != x.dtype) throw SkiffError(std::string(op) + ": " + (p == wt ? "weight" : "bias") + " dtype " + dtype_name(p->dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  const DType stat = x.dtype == DType::F64 ? DType::F64 : DType::F32;
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(1, {left});
  c.expect_out_dtype(1, stat);
  if (x.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const Tensor* wd = wt ? &c.dense(1) : nullptr;
  const Tensor* bd = bs ? &c.dense(1 + has_w) : nullptr;
  dispatch_float(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    using St = std::conditional_t<std::is_same_v<A, double>, double, float>;
    std::vector<A> g((size_t)right, A(1)), bb((size_t)right, A(0));
    if (wd) for (int64_t i = 0; i < right; i++) g[i] = Compute<T>::load(wd->data<T>()[i]);
    if (bd) for (int64_t i = 0; i < right; i++) bb[i] = Compute<T>::load(bd->data<T>()[i]);
    const T* X = xd.data<T>();
    T* O = c.output(0).data<T>();
    St* R = c.output(1).data<St>();
    parallel_for(left, std::max<int64_t>(1, 16384 / right), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; r++) {
        const T* xr = X + r * right;
        // Four partial sums in double: stable on long rows and still pipelined.
        double s4[4] = {0, 0, 0, 0};
        int64_t i = 0;
        for (; i + 4 <= right; i += 4)
          for (int u = 0; u < 4; u++) { const double e = (double)Compute<T>::load(xr[i + u]); s4[u] += e * e; }
        for (; i < right; i++) { const double e = (double)Compute<T>::load(xr[i]); s4[0] += e * e; }
        const double inv = 1.0 / std::sqrt((s4[0] + s4[1] + s4[2] + s4[3]) / (double)right + eps);
        const A ia = (A)inv;
        T* orow = O + r * right;
        for (int64_t j = 0; j < right; j++) orow[j] = Compute<T>::store(Compute<T>::load(xr[j]) * ia * g[j] + bb[j]);
        R[r] = (St)inv;
      }
    });
  });
}

}  // namespace
SKIFF_KERNEL("scaled_dot_product_attention", k_sdpa);
SKIFF_KERNEL("rms_norm", k_rms_norm);
}  // namespace skiff
