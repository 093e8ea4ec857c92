// p_norm and frobenius_norm (definitions: src/ops/defs/reduce_norm.ts). Attrs:
// [n_axes, axis..., keepdim, porder] (reduce.h layout plus the order; frobenius_norm passes 2).
// Floats only, accumulated in double: inf -> max |x|, -inf -> min |x|, 0 -> count of nonzeros,
// 1 -> sum |x|, 2 -> sqrt(sum x^2), else (sum |x|^p)^(1/p). Empty reductions give 0
// (+inf for -inf). NaN propagates.
#include "reduce.h"

namespace skiff {
namespace {

enum class PMode { Inf, NegInf, Zero, One, Two, General };

template <typename T> struct PNormR {
  PMode mode;
  double p;
  using Acc = double;
  using Res = double;
  Acc init(int64_t) const { return mode == PMode::NegInf ? std::numeric_limits<double>::infinity() : 0.0; }
  static double absv(const T& v) { return std::fabs((double)Compute<T>::load(v)); }
  void step(Acc& a, const T& v, int64_t) const {
    const double x = absv(v);
    switch (mode) {
      case PMode::Inf: a = (x > a || x != x) ? x : a; break;
      case PMode::NegInf: a = (x < a || x != x) ? x : a; break;
      case PMode::Zero: a += x != 0; break;
      case PMode::One: a += x; break;
      case PMode::Two: a += x * x; break;
      case PMode::General: a += std::pow(x, p); break;
    }
  }
  void block(Acc& a, const T* __restrict p_, int64_t n, int64_t j) const {
    if (mode == PMode::Two) {  // the common case: 8 lanes so the loop vectorizes without reassociation
      double s[8] = {};
      int64_t i = 0;
      for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++) { const double x = (double)Compute<T>::load(p_[i + k]); s[k] += x * x; }
      for (; i < n; i++) { const double x = (double)Compute<T>::load(p_[i]); s[0] += x * x; }
      a += ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
      return;
    }
    for (int64_t i = 0; i < n; i++) step(a, p_[i], j + i);
  }
  void combine(Acc& a, const Acc& b) const {
    if (mode == PMode::Inf) a = (b > a || b != b) ? b : a;
    else if (mode == PMode::NegInf) a = (b < a || b != b) ? b : a;
    else a += b;
  }
  Res finish(const Acc& a, int64_t) const {
    switch (mode) {
      case PMode::Two: return std::sqrt(a);
      case PMode::General: return std::pow(a, 1.0 / p);
      default: return a;
    }
  }
};

void k_pnorm(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Tensor& x0 = c.input(0);
  if (!is_floating(x0.dtype)) throw SkiffError(std::string(c.op) + ": expected a floating-point input, got " + dtype_name(x0.dtype));
  ReduceArgs a = parse_reduce(c, x0);
  if (c.attrs.size() != a.next_attr + 1) throw SkiffError(std::string(c.op) + ": expected attributes [n_axes, axis..., keepdim, porder]");
  const double p = c.attr(a.next_attr);
  if (p != p) throw SkiffError(std::string(c.op) + ": porder is NaN");
  c.expect_out_shape(0, a.out_shape);
  c.expect_out_dtype(0, x0.dtype);
  const PMode mode = std::isinf(p) ? (p > 0 ? PMode::Inf : PMode::NegInf) : p == 0 ? PMode::Zero : p == 1 ? PMode::One : p == 2 ? PMode::Two : PMode::General;
  const Tensor& x = c.dense(0);
  ReduceLayout L = make_layout(x.shape, a.reduced);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<double> res((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, PNormR<T>{mode, p}, res.data());
    store_results(res, c.output(0), c.op);
  });
}

}  // namespace
SKIFF_KERNEL("p_norm", k_pnorm);
SKIFF_KERNEL("frobenius_norm", k_pnorm);
}  // namespace skiff
