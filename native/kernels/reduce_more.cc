// count_nonzero (definition: src/ops/defs/reduce_more.ts): attrs [n_axes, axis..., keepdim]
// as every reduction (reduce.h); int64 output; any input dtype (NaN counts as nonzero).
#include "reduce.h"

namespace skiff {
namespace {

template <typename T> struct CountR {
  using Acc = int64_t;
  using Res = int64_t;
  Acc init(int64_t) const { return 0; }
  void block(Acc& a, const T* __restrict p, int64_t n, int64_t) const {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += Compute<T>::load(p[i]) != compute_t<T>(0);
    a += s;
  }
  void step(Acc& a, const T& v, int64_t) const { a += Compute<T>::load(v) != compute_t<T>(0); }
  void combine(Acc& a, const Acc& b) const { a += b; }
  Res finish(const Acc& a, int64_t) const { return a; }
};

void k_count_nonzero(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  ReduceArgs a = parse_reduce(c, c.input(0));
  c.expect_out_shape(0, a.out_shape);
  c.expect_out_dtype(0, DType::I64);
  const Tensor& x = c.dense(0);
  ReduceLayout L = make_layout(x.shape, a.reduced);
  int64_t* out = c.output(0).data<int64_t>();
  dispatch_all(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    run_reduce<T>(x.data<T>(), L, CountR<T>{}, out);
  });
}

}  // namespace
SKIFF_KERNEL("count_nonzero", k_count_nonzero);
}  // namespace skiff
