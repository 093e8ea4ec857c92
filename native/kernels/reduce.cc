// Axis reductions: sum, mean, prod, max, min, any, all. Attrs: [n_axes, axis..., keepdim]
// (see reduce.h). sum/prod take the output dtype from the preallocated output (their `dtype`
// attribute, or int64 for bool/int32 sums): floating outputs accumulate in double, integer
// outputs in wrapping 64-bit integers, so float32 sums of millions of elements stay exact to
// float precision.
#include "reduce.h"

namespace skiff {
namespace {

// Validates a reduction call and returns its parsed axes; `out` is the required output dtype (or
// any dtype when `any_out`).
ReduceArgs check_reduce(KernelCall& c, DType out, bool any_out = false) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  ReduceArgs a = parse_reduce(c, c.input(0));
  c.expect_out_shape(0, a.out_shape);
  if (!any_out) c.expect_out_dtype(0, out);
  return a;
}

template <typename T> struct MeanR : SumR<T, double> {
  double finish(const double& a, int64_t n) const { return a / (double)n; }  // empty: 0/0 = NaN
};

template <typename T, typename A> struct ProdR {
  using Acc = A;
  using Res = A;
  Acc init(int64_t) const { return A(1); }
  void block(Acc& a, const T* p, int64_t n, int64_t) const { for (int64_t i = 0; i < n; i++) a *= to_acc<A>(p[i]); }
  void step(Acc& a, const T& v, int64_t) const { a *= to_acc<A>(v); }
  void combine(Acc& a, const Acc& b) const { a *= b; }
  Res finish(const Acc& a, int64_t) const { return a; }
};

// uint8_t rather than bool accumulators: std::vector<bool> has no data().
template <typename T, bool Any> struct BoolR {
  using Acc = uint8_t;
  using Res = uint8_t;
  Acc init(int64_t) const { return !Any; }
  void block(Acc& a, const T* __restrict p, int64_t n, int64_t) const {
    bool r = a;
    if (Any) for (int64_t i = 0; i < n; i++) r |= Compute<T>::load(p[i]) != 0;
    else for (int64_t i = 0; i < n; i++) r &= Compute<T>::load(p[i]) != 0;
    a = r;
  }
  void step(Acc& a, const T& v, int64_t) const { bool nz = Compute<T>::load(v) != 0; a = Any ? (a || nz) : (a && nz); }
  void combine(Acc& a, const Acc& b) const { a = Any ? (a || b) : (a && b); }
  Res finish(const Acc& a, int64_t) const { return a; }
};

// Runs reducer Red<T> over input 0 and stores into output 0.
template <template <typename> class Red, typename Dispatch>
void reduce_into(KernelCall& c, const ReduceArgs& a, Dispatch dispatch) {
  const Tensor& x = c.dense(0);
  Tensor& o = c.output(0);
  ReduceLayout L = make_layout(x.shape, a.reduced);
  dispatch(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    Red<T> r;
    using Res = typename Red<T>::Res;
    std::vector<std::conditional_t<std::is_same_v<Res, bool>, uint8_t, Res>> res((size_t)L.n_out);
    run_reduce<T>(x.data<T>(), L, r, res.data());
    store_results(res, o, c.op);
  });
}

struct AllTypes { template <typename F> void operator()(DType d, const char* op, F&& f) const { dispatch_all(d, op, f); } };
struct NumericTypes { template <typename F> void operator()(DType d, const char* op, F&& f) const { dispatch_nonbool(d, op, f); } };
struct FloatTypes { template <typename F> void operator()(DType d, const char* op, F&& f) const { dispatch_float(d, op, f); } };

template <typename T> using SumF = SumR<T, double>;
template <typename T> using SumI = SumR<T, uint64_t>;
template <typename T> using ProdF = ProdR<T, double>;
template <typename T> using ProdI = ProdR<T, uint64_t>;
template <typename T> using MaxR = ExtremeR<T, true>;
template <typename T> using MinR = ExtremeR<T, false>;
template <typename T> using AnyR = BoolR<T, true>;
template <typename T> using AllR = BoolR<T, false>;

void k_sum(KernelCall& c) {
  auto a = check_reduce(c, DType::F32, true);
  if (is_floating(c.output(0).dtype)) reduce_into<SumF>(c, a, AllTypes{});
  else reduce_into<SumI>(c, a, AllTypes{});
}
void k_prod(KernelCall& c) {
  auto a = check_reduce(c, DType::F32, true);
  if (c.input(0).dtype == DType::Bool) throw SkiffError("prod: bool input is not supported (dtype bool)");
  if (is_floating(c.output(0).dtype)) reduce_into<ProdF>(c, a, AllTypes{});
  else reduce_into<ProdI>(c, a, AllTypes{});
}
void k_mean(KernelCall& c) {
  auto a = check_reduce(c, c.input(0).dtype);
  reduce_into<MeanR>(c, a, FloatTypes{});
}

template <template <typename> class Red>
void extreme(KernelCall& c) {
  auto a = check_reduce(c, c.input(0).dtype);
  const Tensor& x = c.input(0);
  if (x.dtype == DType::Bool) throw SkiffError(std::string(c.op) + ": bool input is not supported (dtype bool)");
  if (x.numel() == 0 && c.output(0).numel() > 0)
    throw SkiffError(std::string(c.op) + ": cannot reduce over an empty dimension (input shape " + shape_str(x.shape) + ", axes " + a.axes_str + ")");
  reduce_into<Red>(c, a, NumericTypes{});
}

void k_any(KernelCall& c) { reduce_into<AnyR>(c, check_reduce(c, DType::Bool), AllTypes{}); }
void k_all(KernelCall& c) { reduce_into<AllR>(c, check_reduce(c, DType::Bool), AllTypes{}); }

}  // namespace
SKIFF_KERNEL("sum", k_sum);
SKIFF_KERNEL("mean", k_mean);
SKIFF_KERNEL("prod", k_prod);
SKIFF_KERNEL("max", extreme<MaxR>);
SKIFF_KERNEL("min", extreme<MinR>);
SKIFF_KERNEL("any", k_any);
SKIFF_KERNEL("all", k_all);
}  // namespace skiff
