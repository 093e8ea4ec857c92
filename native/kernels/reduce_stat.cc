// Reductions with an index or a second pass, and the cumulative sum.
//   argmax/argmin: attrs [axis (NaN: over the flattened input), keepdim]; int32/int64 output.
//     Ties give the first index; NaN counts as the extreme (first NaN wins), as in numpy.
//   logsumexp: attrs [n_axes, axis..., keepdim]; max first, then sum of exp(x - max).
//   var/std: attrs [n_axes, axis..., keepdim, unbiased]; mean first, then squared deviations,
//     both in double.
//   cumsum: attrs [axis (NaN: flattened)]; output dtype from the output tensor (its `dtype`
//     attribute), accumulated in double (floating outputs) or wrapping int64.
#include "reduce.h"
#include "vmath.h"

namespace skiff {
namespace {

template <typename T, bool Max> struct ArgR {
  using V = compute_t<T>;
  struct Acc { V v{}; int64_t i = -1; };
  using Res = int64_t;
  static bool better(V v, V a) {
    if constexpr (std::is_floating_point_v<V>) return (Max ? v > a : v < a) || (v != v && a == a);
    else return Max ? v > a : v < a;
  }
  Acc init(int64_t) const { return Acc{}; }
  void step(Acc& a, const T& x, int64_t j) const {
    V v = Compute<T>::load(x);
    if (a.i < 0 || better(v, a.v)) { a.v = v; a.i = j; }
  }
  void block(Acc& a, const T* p, int64_t n, int64_t j0) const { for (int64_t i = 0; i < n; i++) step(a, p[i], j0 + i); }
  void combine(Acc& a, const Acc& b) const { if (b.i >= 0 && (a.i < 0 || better(b.v, a.v))) a = b; }
  Res finish(const Acc& a, int64_t) const { return a.i; }
};

template <bool Max>
void k_arg(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Tensor& x0 = c.input(0);
  Tensor& o = c.output(0);
  int64_t rank = x0.ndim();
  double ax = c.attr(0);
  bool keepdim = c.attr(1) != 0;
  std::vector<bool> reduced((size_t)rank, true);
  std::vector<int64_t> out_shape;
  if (ax != ax) {
    if (keepdim) out_shape.assign((size_t)rank, 1);
  } else {
    int64_t a = c.iattr(0);
    if (!(rank == 0 && a == 0) && (a < 0 || a >= rank))
      throw SkiffError(std::string(c.op) + ": axis " + std::to_string(a) + " is out of range for a tensor of rank " + std::to_string(rank));
    for (int64_t d = 0; d < rank; d++) {
      reduced[(size_t)d] = d == a;
      if (d != a) out_shape.push_back(x0.shape[(size_t)d]);
      else if (keepdim) out_shape.push_back(1);
    }
  }
  c.expect_out_shape(0, out_shape);
  if (o.dtype != DType::I32 && o.dtype != DType::I64)
    throw SkiffError(std::string(c.op) + ": output dtype must be int32 or int64, got " + dtype_name(o.dtype));
  if (x0.dtype == DType::Bool) throw SkiffError(std::string(c.op) + ": bool input is not supported (dtype bool)");
  const Tensor& x = c.dense(0);
  ReduceLayout L = make_layout(x.shape, reduced);
  if (L.n_red == 0 && L.n_out > 0)
    throw SkiffError(std::string(c.op) + ": cannot take the index over an empty dimension (input shape " + shape_str(x.shape) + ")");
  dispatch_nonbool(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<int64_t> res((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, ArgR<T, Max>{}, res.data());
    store_results(res, o, c.op);
  });
}

inline bool is_finite_v(double v) { return v - v == 0; }

template <typename T> struct LseR {
  using V = compute_t<T>;
  const std::vector<V>* max;
  struct Acc { double m = 0, s = 0; };
  using Res = double;
  Acc init(int64_t o) const { return Acc{(double)(*max)[(size_t)o], 0.0}; }
  void block(Acc& a, const T* __restrict p, int64_t n, int64_t) const {
    if (!is_finite_v(a.m)) return;
    const V m = (V)a.m;
    double s[16] = {};
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int k = 0; k < 16; k++) s[k] += (double)vm::exp_(Compute<T>::load(p[i + k]) - m);
    for (int k = 0; k < 16; k++) a.s += s[k];
    for (; i < n; i++) a.s += (double)vm::exp_(Compute<T>::load(p[i]) - m);
  }
  void step(Acc& a, const T& v, int64_t) const { if (is_finite_v(a.m)) a.s += (double)vm::exp_(Compute<T>::load(v) - (V)a.m); }
  void combine(Acc& a, const Acc& b) const { a.s += b.s; }
  // A non-finite max decides alone: NaN, +inf, or -inf (every element -inf, or none).
  Res finish(const Acc& a, int64_t) const { return is_finite_v(a.m) ? a.m + std::log(a.s) : a.m; }
};

template <typename T> struct SqDevR {
  const std::vector<double>* mean;
  double ddof;
  bool root;
  struct Acc { double m = 0, ss = 0; };
  using Res = double;
  Acc init(int64_t o) const { return Acc{(*mean)[(size_t)o], 0.0}; }
  void block(Acc& a, const T* __restrict p, int64_t n, int64_t) const {
    double s[16] = {};
    const double m = a.m;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int k = 0; k < 16; k++) { double d = (double)Compute<T>::load(p[i + k]) - m; s[k] += d * d; }
    for (int k = 0; k < 16; k++) a.ss += s[k];
    for (; i < n; i++) { double d = (double)Compute<T>::load(p[i]) - m; a.ss += d * d; }
  }
  void step(Acc& a, const T& v, int64_t) const { double d = (double)Compute<T>::load(v) - a.m; a.ss += d * d; }
  void combine(Acc& a, const Acc& b) const { a.ss += b.ss; }
  // n - ddof <= 0 divides by zero: NaN for one element with unbiased=True, as Paddle.
  Res finish(const Acc& a, int64_t n) const {
    double v = a.ss / std::max((double)n - ddof, 0.0);
    return root ? std::sqrt(v) : v;
  }
};

ReduceArgs check_float_reduce(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  ReduceArgs a = parse_reduce(c, c.input(0));
  c.expect_out_shape(0, a.out_shape);
  c.expect_out_dtype(0, c.input(0).dtype);
  if (!is_floating(c.input(0).dtype)) throw SkiffError(std::string(c.op) + ": expected a floating dtype, got " + dtype_name(c.input(0).dtype));
  return a;
}

void k_logsumexp(KernelCall& c) {
  ReduceArgs a = check_float_reduce(c);
  const Tensor& x = c.dense(0);
  ReduceLayout L = make_layout(x.shape, a.reduced);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<compute_t<T>> mx((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, ExtremeR<T, true>{}, mx.data());
    std::vector<double> res((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, LseR<T>{&mx}, res.data());
    store_results(res, c.output(0), c.op);
  });
}

template <bool Root>
void k_var(KernelCall& c) {
  ReduceArgs a = check_float_reduce(c);
  bool unbiased = c.attr(a.next_attr) != 0;
  const Tensor& x = c.dense(0);
  ReduceLayout L = make_layout(x.shape, a.reduced);
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    std::vector<double> mean((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, SumR<T, double>{}, mean.data());
    for (auto& m : mean) m /= (double)L.n_red;
    std::vector<double> res((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, SqDevR<T>{&mean, unbiased ? 1.0 : 0.0, Root}, res.data());
    store_results(res, c.output(0), c.op);
  });
}

// Scans `n` elements at stride `inner` for `len` adjacent columns starting at the given pointers.
template <typename TI, typename TO, typename A>
void scan_columns(const TI* __restrict x, TO* __restrict o, int64_t n, int64_t inner, int64_t len) {
  A acc[kReduceRow];
  for (int64_t k = 0; k < len; k++) acc[k] = A(0);
  for (int64_t i = 0; i < n; i++) {
    const TI* px = x + i * inner;
    TO* po = o + i * inner;
    for (int64_t k = 0; k < len; k++) {
      acc[k] += to_acc<A>(px[k]);
      po[k] = Compute<TO>::store(convert_value<compute_t<TO>>(acc[k]));
    }
  }
}

void k_cumsum(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  const Tensor& x0 = c.input(0);
  Tensor& o = c.output(0);
  int64_t rank = x0.ndim(), numel = x0.numel();
  double ax = c.attr(0);
  int64_t outer = 1, n = numel, inner = 1;
  if (ax != ax) {
    c.expect_out_shape(0, {numel});
  } else {
    int64_t a = c.iattr(0);
    if (!(rank == 0 && a == 0) && (a < 0 || a >= rank))
      throw SkiffError(std::string("cumsum: axis ") + std::to_string(a) + " is out of range for a tensor of rank " + std::to_string(rank));
    c.expect_out_shape(0, x0.shape);
    if (rank > 0) {
      n = x0.shape[(size_t)a];
      outer = 1;
      for (int64_t d = 0; d < a; d++) outer *= x0.shape[(size_t)d];
      for (int64_t d = a + 1; d < rank; d++) inner *= x0.shape[(size_t)d];
    }
  }
  if (numel == 0) return;
  const Tensor& x = c.dense(0);
  dispatch_all(x.dtype, c.op, [&](auto in_tag) {
    using TI = decltype(in_tag);
    dispatch_all(o.dtype, c.op, [&](auto out_tag) {
      using TO = decltype(out_tag);
      const TI* px = x.data<TI>();
      TO* po = o.data<TO>();
      auto run = [&](auto acc_tag) {
        using A = decltype(acc_tag);
        const int64_t kchunks = (inner + kReduceRow - 1) / kReduceRow;
        parallel_for(outer * kchunks, std::max<int64_t>(1, kReduceGrain / std::max<int64_t>(1, n * std::min(inner, kReduceRow))),
                     [&](int64_t b, int64_t e) {
                       for (int64_t t = b; t < e; t++) {
                         int64_t ou = t / kchunks, k0 = (t % kchunks) * kReduceRow;
                         int64_t off = ou * n * inner + k0;
                         scan_columns<TI, TO, A>(px + off, po + off, n, inner, std::min(kReduceRow, inner - k0));
                       }
                     });
      };
      if (std::is_floating_point_v<compute_t<TO>>) run(double{}); else run(uint64_t{});
    });
  });
}

}  // namespace
SKIFF_KERNEL("argmax", k_arg<true>);
SKIFF_KERNEL("argmin", k_arg<false>);
SKIFF_KERNEL("logsumexp", k_logsumexp);
SKIFF_KERNEL("var", k_var<false>);
SKIFF_KERNEL("std", k_var<true>);
SKIFF_KERNEL("cumsum", k_cumsum);
}  // namespace skiff
