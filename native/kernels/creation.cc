// Tensors made from attributes. full: attrs [value]; the output's dtype decides the storage type.
#include <cmath>
#include <limits>
#include <type_traits>
#include "kernel.h"

namespace skiff {
namespace {

void k_full(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  double v = c.attr(0);
  dispatch_all(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Converting NaN or an out-of-range double to an integer is undefined behaviour.
      if (!std::isfinite(v) || v < (double)std::numeric_limits<T>::min() || v > (double)std::numeric_limits<T>::max())
        throw SkiffError(std::string("full: fill value ") + std::to_string(v) + " does not fit in " + dtype_name(o.dtype));
    }
    T val = C::store((compute_t<T>)v);
    T* p = o.data<T>();
    int64_t n = o.numel();
    parallel_for(n, 1 << 16, [&](int64_t b, int64_t e) { for (int64_t i = b; i < e; i++) p[i] = val; });
  });
}

}  // namespace
SKIFF_KERNEL("full", k_full);
}  // namespace skiff
