// fused_gemm_epilogue (Paddle's fused op): out = act(op(x) @ op(y) + bias), produced by the
// fusion pass (src/passes/fuse_gemm.ts) from matmul + add (+ relu/gelu).
//
// inputs: x [..., M, K] (or [K, M] with trans_x, which needs a 2-D x), y [K, N] (or [N, K]
//   with trans_y), bias [N]; float32 or float64, all the same dtype.
// attrs: [trans_x (0/1), trans_y (0/1), activation (0 none, 1 relu, 2 gelu (erf), 3 gelu (tanh))]
//
// Why it is faster than the three ops: the packed GEMM writes C once, and the bias and the
// activation are applied in one pass over C in place, while the separate ops allocate two more
// outputs and stream the whole result through memory twice more; and the float32 erf of the
// exact gelu is a branch-free polynomial that vectorizes (vm::verff in vmath.h, ~20x std::erf).
// Values: the same GEMM, then the same formulas as add/relu/gelu (tanh form); exact gelu in
// float32 is the gelu op's own formula (vm::gelu_), so fusing changes no bit.
//
// no-trapping-math (as in unary.cc) lets the relu select vectorize; it only concerns
// floating-point exception flags, never values.
#pragma GCC optimize("no-trapping-math")
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "../gemm/gemm.h"
#include "const_gemm.h"
#include "kernel.h"
#include "vmath.h"

namespace skiff {
namespace {


enum Act : int { kNone = 0, kRelu = 1, kGelu = 2, kGeluTanh = 3 };

// One row of C in place: c = act(c + bias). The bias is a separate array (never C itself).
template <typename T, int A>
inline void epilogue_row(T* __restrict row, const T* __restrict bias, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    T v = row[j] + bias[j];
    if constexpr (A == kRelu) v = v <= 0 ? T(0) : v;  // as the relu kernel: NaN stays NaN, -0 becomes +0
    if constexpr (A == kGelu) {
      v = vm::gelu_(v);
    }
    if constexpr (A == kGeluTanh) v = vm::gelu_tanh_(v);
    row[j] = v;
  }
}

template <typename T, int A>
void epilogue(T* out, const T* bias, int64_t rows, int64_t n) {
  // The elementwise kernels' grain (kEwGrain elements, elementwise_loops.h): waking a second
  // thread for less work costs more than it saves, above all on a loaded machine.
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, n));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; i++) epilogue_row<T, A>(out + i * n, bias, n);
  });
}

template <typename T>
void run(KernelCall& c, bool tx, bool ty, int act) {
  const Tensor& x = c.input(0).ndim() > 2 ? c.dense(0) : c.input(0);
  Tensor &y = c.input(1), &o = c.output(0);
  const Tensor& b = c.dense(2);
  const int64_t xr = x.ndim();
  const int64_t k = tx ? x.shape[0] : x.shape[xr - 1];
  const int64_t m = tx ? x.shape[1] : (xr == 2 ? x.shape[0] : checked_numel(std::vector<int64_t>(x.shape.begin(), x.shape.end() - 1), c.op));
  const int64_t ky = ty ? y.shape[1] : y.shape[0], n = ty ? y.shape[0] : y.shape[1];
  if (k != ky || b.shape[0] != n)
    throw SkiffError(std::string(c.op) + ": cannot multiply x " + shape_str(x.shape) + " and y " + shape_str(y.shape) + " with bias " +
                     shape_str(b.shape) + " (trans_x=" + std::to_string(tx) + ", trans_y=" + std::to_string(ty) + ")");
  std::vector<int64_t> out_shape(x.shape.begin(), x.shape.end() - 1);
  if (tx) out_shape = {m};
  out_shape.push_back(n);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, out_shape);
  if (m == 0 || n == 0) return;
  // Row/column strides of op(x) and op(y) as stored; a 3-D+ x is dense, so its rows are K apart.
  const int64_t sr = xr == 2 ? x.strides[0] : k, sc = xr == 2 ? x.strides[1] : 1;
  const int64_t rsa = tx ? sc : sr, csa = tx ? sr : sc;
  const int64_t rsb = ty ? y.strides[1] : y.strides[0], csb = ty ? y.strides[0] : y.strides[1];
  T* out = o.data<T>();
  const PackedB* pb = nullptr;
  if constexpr (std::is_same_v<T, float>) pb = constant_packed_b(1, y, 1 + ty, m, n, k, y.data<T>(), rsb, csb);
  if constexpr (std::is_same_v<T, float>) {
    if (pb) gemm_prepacked(m, n, k, 1.f, x.data<T>(), rsa, csa, y.data<T>(), rsb, csb, *pb, 0.f, out, n);
  }
  if (!pb) gemm(m, n, k, T(1), x.data<T>(), rsa, csa, y.data<T>(), rsb, csb, T(0), out, n);
  const T* bias = b.data<T>();
  switch (act) {
    case kNone: return epilogue<T, kNone>(out, bias, m, n);
    case kRelu: return epilogue<T, kRelu>(out, bias, m, n);
    case kGelu: return epilogue<T, kGelu>(out, bias, m, n);
    default: return epilogue<T, kGeluTanh>(out, bias, m, n);
  }
}

void k_fused_gemm_epilogue(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  if (c.attrs.size() != 3) throw SkiffError(std::string(c.op) + ": expected attrs [trans_x, trans_y, activation], got " + std::to_string(c.attrs.size()));
  const int64_t tx = c.iattr(0), ty = c.iattr(1), act = c.iattr(2);
  if ((tx != 0 && tx != 1) || (ty != 0 && ty != 1)) throw SkiffError(std::string(c.op) + ": trans_x and trans_y must be 0 or 1");
  if (act < 0 || act > 3) throw SkiffError(std::string(c.op) + ": activation code must be 0..3 (none, relu, gelu, gelu_tanh), got " + std::to_string(act));
  Tensor &x = c.input(0), &y = c.input(1), &b = c.input(2);
  const std::string shapes = "x " + shape_str(x.shape) + ", y " + shape_str(y.shape) + ", bias " + shape_str(b.shape);
  if (x.dtype != y.dtype || x.dtype != b.dtype)
    throw SkiffError(std::string(c.op) + ": inputs must share a dtype, got " + dtype_name(x.dtype) + ", " + dtype_name(y.dtype) + ", " + dtype_name(b.dtype));
  if (x.ndim() < 2 || y.ndim() != 2 || b.ndim() != 1 || (tx && x.ndim() != 2))
    throw SkiffError(std::string(c.op) + ": expects x of rank >= 2 (2 with trans_x), a 2-D y and a 1-D bias, got " + shapes);
  switch (x.dtype) {
    case DType::F32: return run<float>(c, tx == 1, ty == 1, (int)act);
    case DType::F64: return run<double>(c, tx == 1, ty == 1, (int)act);
    default: throw SkiffError(std::string(c.op) + ": unsupported dtype " + dtype_name(x.dtype) + " (float32 or float64), " + shapes);
  }
}

}  // namespace
SKIFF_KERNEL("fused_gemm_epilogue", k_fused_gemm_epilogue);
}  // namespace skiff
