// Broadcasting binary arithmetic. Inputs share a dtype (the TS side casts to the promoted
// dtype first); the output has that dtype and the broadcast shape.
#include <cmath>
#include "iter.h"
#include "kernel.h"

namespace skiff {
namespace {

template <typename Op>
void binary_same_dtype(KernelCall& c, Op op) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  c.expect_same_dtype(0, 1);
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  auto shape = broadcast_shapes(a.shape, b.shape, c.op);
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, a.dtype);
  auto sa = broadcast_strides(a, shape, c.op), sb = broadcast_strides(b, shape, c.op);
  dispatch_all(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    int64_t es = sizeof(T);
    strided_loop<3>(shape, {(char*)o.raw(), (char*)a.raw(), (char*)b.raw()}, {o.strides, sa, sb}, {es, es, es},
                    [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& s, int64_t n) {
                      T* po = (T*)p[0];
                      const T* pa = (const T*)p[1];
                      const T* pb = (const T*)p[2];
                      if (s[0] == es && s[1] == es && s[2] == es) {
                        for (int64_t i = 0; i < n; i++) po[i] = C::store(op(C::load(pa[i]), C::load(pb[i])));
                      } else {
                        for (int64_t i = 0; i < n; i++)
                          *(T*)(p[0] + i * s[0]) = C::store(op(C::load(*(const T*)(p[1] + i * s[1])), C::load(*(const T*)(p[2] + i * s[2]))));
                      }
                    });
  });
}

void k_add(KernelCall& c) { binary_same_dtype(c, [](auto x, auto y) { return (decltype(x))(x + y); }); }

}  // namespace
SKIFF_KERNEL("add", k_add);
}  // namespace skiff
