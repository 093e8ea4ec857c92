// Shared loops for the elementwise kernel families (unary, binary_*, ternary).
// Strided and broadcast operands go through strided_loop; contiguous runs (and runs against a
// broadcast scalar) get plain loops over __restrict pointers that the compiler auto-vectorizes.
// Functors take and return compute types (float for float16/bfloat16).
#pragma once
#include <atomic>
#include <type_traits>
#include "iter.h"
#include "kernel.h"

namespace skiff {

// The contiguous loops are never inlined: each (dtype, functor) loop is then vectorized once,
// not again at every call site (flat range, strided runs); a call per chunk costs nothing, and
// compile time halves for the elementwise families (the slowest files to build).
#define SKIFF_LOOP [[gnu::noinline]]

// out[i] = f(a[i]) on contiguous runs.
template <typename TI, typename TO, typename F>
SKIFF_LOOP void contig_unary(const TI* __restrict a, TO* __restrict o, int64_t n, const F& f) {
  for (int64_t i = 0; i < n; i++) o[i] = Compute<TO>::store(f(Compute<TI>::load(a[i])));
}

// strided_loop splits only the dims outside the innermost (coalesced) one over threads, so a
// fully contiguous operand set would run on one thread: those cases split the flat range here.
constexpr int64_t kEwGrain = 32768;

// out = f(x) with a custom routine `block(const TI*, TO*, n)` for contiguous runs.
template <typename TI, typename TO, typename F, typename B>
void map_unary_block(const Tensor& x, Tensor& o, const F& f, const B& block) {
  if (x.is_contiguous() && o.is_contiguous()) {
    const TI* a = x.data<TI>();
    TO* r = o.data<TO>();
    parallel_for(x.numel(), kEwGrain, [&](int64_t b, int64_t e) { block(a + b, r + b, e - b); });
    return;
  }
  const int64_t ei = sizeof(TI), eo = sizeof(TO);
  strided_loop<2>(x.shape, {(char*)o.raw(), (char*)x.raw()}, {o.strides, x.strides}, {eo, ei},
                  [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                    if (s[0] == eo && s[1] == ei) { block((const TI*)p[1], (TO*)p[0], n); return; }
                    for (int64_t i = 0; i < n; i++)
                      *(TO*)(p[0] + i * s[0]) = Compute<TO>::store(f(Compute<TI>::load(*(const TI*)(p[1] + i * s[1]))));
                  });
}

template <typename TI, typename TO, typename F>
void map_unary(const Tensor& x, Tensor& o, const F& f) {
  map_unary_block<TI, TO>(x, o, f, [&f](const TI* a, TO* r, int64_t n) { contig_unary(a, r, n, f); });
}

// out[i] = f(a[i], b[i]); the scalar variants serve `x op scalar` and `scalar op x`.
template <typename TA, typename TO, typename F>
SKIFF_LOOP void contig_binary(const TA* __restrict a, const TA* __restrict b, TO* __restrict o, int64_t n, const F& f) {
  for (int64_t i = 0; i < n; i++) o[i] = Compute<TO>::store(f(Compute<TA>::load(a[i]), Compute<TA>::load(b[i])));
}
template <typename TA, typename TO, typename F>
SKIFF_LOOP void contig_binary_bscalar(const TA* __restrict a, compute_t<TA> b, TO* __restrict o, int64_t n, const F& f) {
  for (int64_t i = 0; i < n; i++) o[i] = Compute<TO>::store(f(Compute<TA>::load(a[i]), b));
}
template <typename TA, typename TO, typename F>
SKIFF_LOOP void contig_binary_ascalar(compute_t<TA> a, const TA* __restrict b, TO* __restrict o, int64_t n, const F& f) {
  for (int64_t i = 0; i < n; i++) o[i] = Compute<TO>::store(f(a, Compute<TA>::load(b[i])));
}

// out = f(a, b) broadcast to `shape` (the output's shape). Inputs share storage type TA.
template <typename TA, typename TO, typename F>
void map_binary(const Tensor& a, const Tensor& b, Tensor& o, const std::vector<int64_t>& shape, const char* op, const F& f) {
  if (o.is_contiguous() && a.is_contiguous() && b.is_contiguous()) {
    const TA* pa = a.data<TA>();
    const TA* pb = b.data<TA>();
    TO* po = o.data<TO>();
    const int64_t n = o.numel();
    if (a.shape == shape && b.shape == shape)
      return parallel_for(n, kEwGrain, [&](int64_t s, int64_t e) { contig_binary(pa + s, pb + s, po + s, e - s, f); });
    if (a.shape == shape && b.numel() == 1) {
      const auto bv = Compute<TA>::load(*pb);
      return parallel_for(n, kEwGrain, [&](int64_t s, int64_t e) { contig_binary_bscalar(pa + s, bv, po + s, e - s, f); });
    }
    if (b.shape == shape && a.numel() == 1) {
      const auto av = Compute<TA>::load(*pa);
      return parallel_for(n, kEwGrain, [&](int64_t s, int64_t e) { contig_binary_ascalar(av, pb + s, po + s, e - s, f); });
    }
  }
  auto sa = broadcast_strides(a, shape, op), sb = broadcast_strides(b, shape, op);
  const int64_t ea = sizeof(TA), eo = sizeof(TO);
  strided_loop<3>(shape, {(char*)o.raw(), (char*)a.raw(), (char*)b.raw()}, {o.strides, sa, sb}, {eo, ea, ea},
                  [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& s, int64_t n) {
                    const TA* pa = (const TA*)p[1];
                    const TA* pb = (const TA*)p[2];
                    TO* po = (TO*)p[0];
                    if (s[0] == eo) {
                      if (s[1] == ea && s[2] == ea) return contig_binary(pa, pb, po, n, f);
                      if (s[1] == ea && s[2] == 0) return contig_binary_bscalar(pa, Compute<TA>::load(*pb), po, n, f);
                      if (s[1] == 0 && s[2] == ea) return contig_binary_ascalar(Compute<TA>::load(*pa), pb, po, n, f);
                    }
                    for (int64_t i = 0; i < n; i++)
                      *(TO*)(p[0] + i * s[0]) = Compute<TO>::store(
                          f(Compute<TA>::load(*(const TA*)(p[1] + i * s[1])), Compute<TA>::load(*(const TA*)(p[2] + i * s[2]))));
                  });
}

// Checks a broadcasting binary call (2 inputs of one dtype, 1 output of `out` dtype) and returns the output shape.
inline std::vector<int64_t> check_binary(KernelCall& c, DType out) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  c.expect_same_dtype(0, 1);
  auto shape = broadcast_shapes(c.input(0).shape, c.input(1).shape, c.op);
  c.expect_out_shape(0, shape);
  c.expect_out_dtype(0, out);
  return shape;
}

// Checks a unary call whose output has x's shape and dtype `out`.
inline void check_unary(KernelCall& c, DType out) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  c.expect_out_shape(0, c.input(0).shape);
  c.expect_out_dtype(0, out);
}

// Every dtype but bool, without instantiating f for bool (arithmetic that makes no sense on
// bool need not compile for it; reducers would need std::vector<bool>, which has no data()).
template <typename F> void dispatch_nonbool(DType d, const char* op, F&& f) {
  switch (d) {
    case DType::F32: f(float{}); return;
    case DType::F64: f(double{}); return;
    case DType::I32: f(int32_t{}); return;
    case DType::I64: f(int64_t{}); return;
    case DType::I8: f(int8_t{}); return;
    case DType::U8: f(uint8_t{}); return;
    case DType::F16: f(f16{}); return;
    case DType::BF16: f(bf16{}); return;
    default: throw SkiffError(std::string(op) + ": bool input is not supported (dtype bool)");
  }
}

// A flag raised from worker threads (kernels must not throw inside parallel_for) and checked after the loop.
struct ErrorFlag {
  std::atomic<bool> set{false};
  void raise() { set.store(true, std::memory_order_relaxed); }
  explicit operator bool() const { return set.load(std::memory_order_relaxed); }
};

// Integer arithmetic that wraps like two's complement instead of being undefined on overflow.
template <typename T> inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) { using U = std::make_unsigned_t<T>; return (T)(U)((U)a + (U)b); }
  else return (T)(a + b);
}
template <typename T> inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) { using U = std::make_unsigned_t<T>; return (T)(U)((U)a - (U)b); }
  else return (T)(a - b);
}
template <typename T> inline T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>>;
    return (T)(U)((U)a * (U)b);
  } else return a * b;
}
template <typename T> inline T wrap_neg(T a) {
  if constexpr (std::is_integral_v<T>) { using U = std::make_unsigned_t<T>; return (T)(U)(U(0) - (U)a); }
  else return -a;
}

}  // namespace skiff
