// Broadcasting comparisons and logical ops: inputs share any dtype, output is bool.
// Comparisons follow IEEE (NaN compares unequal to everything); logical ops treat nonzero as true.
#include "elementwise_loops.h"

namespace skiff {
namespace {

template <typename F>
void to_bool(KernelCall& c, const F& f) {
  auto shape = check_binary(c, DType::Bool);
  Tensor &a = c.input(0), &b = c.input(1), &o = c.output(0);
  dispatch_all(a.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    map_binary<T, bool>(a, b, o, shape, c.op, f);
  });
}

void k_equal(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x == y; }); }
void k_not_equal(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x != y; }); }
void k_less_than(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x < y; }); }
void k_less_equal(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x <= y; }); }
void k_greater_than(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x > y; }); }
void k_greater_equal(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x >= y; }); }
void k_logical_and(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x != 0 && y != 0; }); }
void k_logical_or(KernelCall& c) { to_bool(c, [](auto x, auto y) { return x != 0 || y != 0; }); }
void k_logical_xor(KernelCall& c) { to_bool(c, [](auto x, auto y) { return (x != 0) != (y != 0); }); }

}  // namespace
SKIFF_KERNEL("equal", k_equal);
SKIFF_KERNEL("not_equal", k_not_equal);
SKIFF_KERNEL("less_than", k_less_than);
SKIFF_KERNEL("less_equal", k_less_equal);
SKIFF_KERNEL("greater_than", k_greater_than);
SKIFF_KERNEL("greater_equal", k_greater_equal);
SKIFF_KERNEL("logical_and", k_logical_and);
SKIFF_KERNEL("logical_or", k_logical_or);
SKIFF_KERNEL("logical_xor", k_logical_xor);
}  // namespace skiff
