// fused_softmax_mask_upper_triangle (Paddle's op; src/ops/defs/fused_ops.ts): softmax over the
// last axis of x [..., Sq, Sk] with the strict upper triangle masked out (column j > row i gets
// probability 0), i.e. softmax(x + triu(-inf, diagonal=1)), the causal attention mask. Made by
// the attention fusion pass (src/passes/fuse_softmax_mask.ts). No attributes.
//
// Faster than add + softmax: the mask is never materialized or read, masked columns are neither
// loaded nor exponentiated (half of a square score matrix), and the float32 exp is the
// vectorizable vm::exp_ (<= 1 ulp) rather than std::exp. The row max and sum run only over the
// kept columns; the result equals the unfused ops up to that exp's rounding.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel.h"
#include "vmath.h"

namespace skiff {
namespace {

template <typename T>
void causal_softmax(const T* X, T* O, int64_t rows, int64_t sq, int64_t sk) {
  using A = compute_t<T>;
  parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, sk)), [&](int64_t r0, int64_t r1) {
    std::vector<A> buf((size_t)sk);
    for (int64_t r = r0; r < r1; r++) {
      const int64_t i = r % sq, kept = std::min<int64_t>(i + 1, sk);
      const T* x = X + r * sk;
      T* o = O + r * sk;
      A* e = buf.data();
      A mx = -std::numeric_limits<A>::infinity();
      for (int64_t j = 0; j < kept; j++) {
        const A v = (A)Compute<T>::load(x[j]);
        mx = v > mx || v != v ? v : mx;  // NaN wins so it reaches every kept output, as softmax
      }
      // exp in its own loop so it vectorizes (the ordered sum would not, without fast-math).
      for (int64_t j = 0; j < kept; j++) e[j] = vm::exp_((A)Compute<T>::load(x[j]) - mx);
      A sum = 0;
      for (int64_t j = 0; j < kept; j++) sum += e[j];
      const A inv = A(1) / sum;
      for (int64_t j = 0; j < kept; j++) o[j] = Compute<T>::store(e[j] * inv);
      for (int64_t j = kept; j < sk; j++) o[j] = Compute<T>::store(A(0));
    }
  });
}

void k_fused_softmax_mask_upper_triangle(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  if (!c.attrs.empty()) throw SkiffError(std::string(c.op) + ": expected no attributes, got " + std::to_string(c.attrs.size()));
  Tensor &x = c.input(0), &o = c.output(0);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (x.ndim() < 2) throw SkiffError(std::string(c.op) + ": x must have rank >= 2 ([..., query_len, key_len]), got " + shape_str(x.shape));
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  if (x.numel() == 0) return;
  const int64_t sk = x.shape.back(), sq = x.shape[x.ndim() - 2], rows = x.numel() / sk;
  const Tensor& xd = c.dense(0);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    causal_softmax<T>(xd.data<T>(), o.data<T>(), rows, sq, sk);
  });
}

}  // namespace
SKIFF_KERNEL("fused_softmax_mask_upper_triangle", k_fused_softmax_mask_upper_triangle);
}  // namespace skiff
