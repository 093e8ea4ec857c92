// cast between every pair of dtypes (attrs [target dtype code]); any input strides.
#include "iter.h"
#include "kernel.h"

namespace skiff {
namespace {

void k_cast(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  int64_t code = c.iattr(0);
  SKIFF_CHECK(dtype_valid((int32_t)code), "cast: invalid target dtype code " + std::to_string(code));
  c.expect_out_dtype(0, (DType)code);
  c.expect_out_shape(0, x.shape);
  dispatch_all(x.dtype, c.op, [&](auto in_tag) {
    using TI = decltype(in_tag);
    dispatch_all(o.dtype, c.op, [&](auto out_tag) {
      using TO = decltype(out_tag);
      int64_t ei = sizeof(TI), eo = sizeof(TO);
      strided_loop<2>(x.shape, {(char*)o.raw(), (char*)x.raw()}, {o.strides, x.strides}, {eo, ei},
                      [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                        for (int64_t i = 0; i < n; i++) {
                          auto v = Compute<TI>::load(*(const TI*)(p[1] + i * s[1]));
                          using CO = compute_t<TO>;
                          CO cv;
                          if constexpr (std::is_same_v<CO, bool>) cv = v != 0;
                          else cv = (CO)v;
                          *(TO*)(p[0] + i * s[0]) = Compute<TO>::store(cv);
                        }
                      });
    });
  });
}

}  // namespace
SKIFF_KERNEL("cast", k_cast);
}  // namespace skiff
