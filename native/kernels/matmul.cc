// matmul and bmm (Paddle semantics).
//
// matmul: inputs x, y; attrs [transpose_x, transpose_y] (0/1, both optional, default 0).
//   * A 1-D x of length K is used as a 1 x K matrix and a 1-D y as K x 1; the promoted dim is
//     dropped from the output (1-D x 1-D gives a 0-D tensor). Transpose flags are ignored for
//     1-D operands, as in Paddle's kernel.
//   * Leading (batch) dims broadcast numpy-style: [2,1,3,4] x [5,4,6] -> [2,5,3,6].
//   * Output dtype = input dtype (inputs must share it). float32/float64 use the packed GEMM,
//     float16/bfloat16 are computed in float32, int32/int64 use a plain loop that wraps on
//     overflow (two's complement, like Paddle's CPU kernel).
// bmm: 3-D x [B, M, K] and y [B, K, N] with equal B (no broadcasting, no attrs).
//
// Inputs may be any strided view: each operand reaches the GEMM as (pointer, row stride,
// column stride), so a transposed view is just a swapped pair of strides and nothing is copied.
#include <cstring>
#include <type_traits>

#include "../gemm/gemm.h"
#include "const_gemm.h"
#include "iter.h"
#include "kernel.h"

namespace skiff {
namespace {

// Shapes only: what the op computes, independent of where the data lives.
struct Plan {
  bool x_vec = false, y_vec = false;  // 1-D operands
  bool tx = false, ty = false;        // effective transposes (false for 1-D operands)
  int64_t m = 0, n = 0, k = 0;
  std::vector<int64_t> batch;  // broadcast batch shape
  std::vector<int64_t> out_shape;
  int64_t nbatch = 1;
};

// Where the data lives, for one pair of tensors matching a Plan (strides in elements).
struct Layout {
  int64_t rsa = 0, csa = 0, rsb = 0, csb = 0;
  std::vector<int64_t> xoff, yoff;  // per flattened batch index, element offsets
};

std::string transpose_note(const Plan& p) {
  if (!p.tx && !p.ty) return "";
  return std::string(" with transpose_x=") + (p.tx ? "1" : "0") + ", transpose_y=" + (p.ty ? "1" : "0");
}

Plan make_plan(const char* op, const Tensor& x, const Tensor& y, bool tx, bool ty, bool bmm) {
  const std::string shapes = shape_str(x.shape) + " and " + shape_str(y.shape);
  if (x.ndim() == 0 || y.ndim() == 0)
    throw SkiffError(std::string(op) + ": inputs must have at least 1 dimension, got shapes " + shapes);
  if (bmm && (x.ndim() != 3 || y.ndim() != 3))
    throw SkiffError(std::string(op) + ": expected 3-D inputs, got shapes " + shapes);
  Plan p;
  p.x_vec = x.ndim() == 1;
  p.y_vec = y.ndim() == 1;
  p.tx = tx && !p.x_vec;
  p.ty = ty && !p.y_vec;
  int64_t kx, ky;
  if (p.x_vec) { p.m = 1; kx = x.shape[0]; }
  else {
    const int64_t r = x.shape[x.ndim() - 2], c = x.shape[x.ndim() - 1];
    p.m = p.tx ? c : r;
    kx = p.tx ? r : c;
  }
  if (p.y_vec) { p.n = 1; ky = y.shape[0]; }
  else {
    const int64_t r = y.shape[y.ndim() - 2], c = y.shape[y.ndim() - 1];
    ky = p.ty ? c : r;
    p.n = p.ty ? r : c;
  }
  if (kx != ky)
    throw SkiffError(std::string(op) + ": cannot multiply shapes " + shapes + " (contraction dims " + std::to_string(kx) +
                     " vs " + std::to_string(ky) + ")" + transpose_note(p));
  p.k = kx;
  std::vector<int64_t> bx(x.shape.begin(), x.shape.end() - (p.x_vec ? 1 : 2));
  std::vector<int64_t> by(y.shape.begin(), y.shape.end() - (p.y_vec ? 1 : 2));
  if (bmm) {
    if (bx != by) throw SkiffError(std::string(op) + ": batch dims differ for shapes " + shapes);
    p.batch = bx;
  } else {
    const size_t nd = std::max(bx.size(), by.size());
    p.batch.assign(nd, 1);
    for (size_t i = 0; i < nd; i++) {
      const int64_t a = i < nd - bx.size() ? 1 : bx[i - (nd - bx.size())];
      const int64_t b = i < nd - by.size() ? 1 : by[i - (nd - by.size())];
      if (a != b && a != 1 && b != 1)
        throw SkiffError(std::string(op) + ": batch dims of shapes " + shapes + " cannot be broadcast (" +
                         std::to_string(a) + " vs " + std::to_string(b) + ")");
      p.batch[i] = a == 1 ? b : a;
    }
  }
  p.out_shape = p.batch;
  if (!p.x_vec) p.out_shape.push_back(p.m);
  if (!p.y_vec) p.out_shape.push_back(p.n);
  p.nbatch = checked_numel(p.batch, op);
  checked_numel(p.out_shape, op);
  return p;
}

// Batch strides of t's leading dims aligned to the broadcast batch shape (0 where broadcast).
std::vector<int64_t> batch_strides(const Tensor& t, size_t matrix_dims, const std::vector<int64_t>& batch) {
  const size_t tb = t.shape.size() - matrix_dims, off = batch.size() - tb;
  std::vector<int64_t> s(batch.size(), 0);
  for (size_t i = 0; i < tb; i++) s[off + i] = t.shape[i] == 1 ? 0 : t.strides[i];
  return s;
}

Layout make_layout(const Plan& p, const Tensor& x, const Tensor& y) {
  Layout L;
  const size_t xm = p.x_vec ? 1 : 2, ym = p.y_vec ? 1 : 2;
  if (p.x_vec) { L.rsa = 0; L.csa = x.strides[0]; }
  else {
    const int64_t sr = x.strides[x.ndim() - 2], sc = x.strides[x.ndim() - 1];
    L.rsa = p.tx ? sc : sr;
    L.csa = p.tx ? sr : sc;
  }
  if (p.y_vec) { L.rsb = y.strides[0]; L.csb = 0; }
  else {
    const int64_t sr = y.strides[y.ndim() - 2], sc = y.strides[y.ndim() - 1];
    L.rsb = p.ty ? sc : sr;
    L.csb = p.ty ? sr : sc;
  }
  const auto xs = batch_strides(x, xm, p.batch), ys = batch_strides(y, ym, p.batch);
  L.xoff.resize((size_t)p.nbatch);
  L.yoff.resize((size_t)p.nbatch);
  std::vector<int64_t> idx(p.batch.size(), 0);
  int64_t xo = 0, yo = 0;
  for (int64_t b = 0; b < p.nbatch; b++) {  // odometer over the batch dims
    L.xoff[(size_t)b] = xo;
    L.yoff[(size_t)b] = yo;
    for (int64_t d = (int64_t)p.batch.size() - 1; d >= 0; d--) {
      if (++idx[d] < p.batch[d]) { xo += xs[d]; yo += ys[d]; break; }
      xo -= xs[d] * (p.batch[d] - 1);
      yo -= ys[d] * (p.batch[d] - 1);
      idx[d] = 0;
    }
  }
  return L;
}

// Per-matrix work below which a batch is spread over threads one matrix per task (each GEMM
// then runs single-threaded) rather than threading inside each GEMM.
constexpr int64_t kBatchTaskWork = int64_t(1) << 21;

// const_y: y is the kernel's input 1 (not a widened copy), so a constant y may be packed once.
template <typename T>
void run_float(const Plan& p, const Tensor& x, const Tensor& y, T* out, bool const_y = false) {
  const Layout L = make_layout(p, x, y);
  const T* X = x.data<T>();
  const T* Y = y.data<T>();
  const int64_t m = p.m, n = p.n, k = p.k, mn = m * n;
  if (p.nbatch == 0 || mn == 0) return;
  // A batch of x matrices against one shared y (a linear layer on [B, S, K]) whose rows are
  // evenly spaced is one tall GEMM: y is packed once and both threads share the work.
  bool fold = p.nbatch > 1;
  for (int64_t b = 1; fold && b < p.nbatch; b++)
    fold = L.yoff[(size_t)b] == L.yoff[0] && L.xoff[(size_t)b] == L.xoff[0] + b * m * L.rsa;
  if (p.nbatch == 1 || fold) {
    if constexpr (std::is_same_v<T, float>) {
      const PackedB* pb = const_y ? constant_packed_b(1, y, 1 + p.ty, p.nbatch * m, n, k, Y + L.yoff[0], L.rsb, L.csb) : nullptr;
      if (pb) return gemm_prepacked(p.nbatch * m, n, k, 1.f, X + L.xoff[0], L.rsa, L.csa, Y + L.yoff[0], L.rsb, L.csb, *pb, 0.f, out, n);
    }
    gemm(p.nbatch * m, n, k, T(1), X + L.xoff[0], L.rsa, L.csa, Y + L.yoff[0], L.rsb, L.csb, T(0), out, n);
    return;
  }
  const int64_t work = std::max<int64_t>(1, m * n * std::max<int64_t>(k, 1));
  if (work < kBatchTaskWork) {
    parallel_for(p.nbatch, std::max<int64_t>(1, kBatchTaskWork / work), [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; b++)
        gemm(m, n, k, T(1), X + L.xoff[(size_t)b], L.rsa, L.csa, Y + L.yoff[(size_t)b], L.rsb, L.csb, T(0),
             out + b * mn, n, 1);
    });
  } else {
    for (int64_t b = 0; b < p.nbatch; b++)
      gemm(m, n, k, T(1), X + L.xoff[(size_t)b], L.rsa, L.csa, Y + L.yoff[(size_t)b], L.rsb, L.csb, T(0), out + b * mn, n);
  }
}

// Integers: accumulate in the unsigned type so overflow wraps instead of being undefined.
template <typename T>
void run_int(const Plan& p, const Tensor& x, const Tensor& y, T* out) {
  using U = std::make_unsigned_t<T>;
  const Layout L = make_layout(p, x, y);
  const T* X = x.data<T>();
  const T* Y = y.data<T>();
  const int64_t m = p.m, n = p.n, k = p.k;
  const int64_t rows = p.nbatch * m;
  if (rows == 0 || n == 0) return;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, n * std::max<int64_t>(k, 1)));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; r++) {
      const int64_t b = r / m, i = r % m;
      const T* a = X + L.xoff[(size_t)b] + i * L.rsa;
      const T* bm = Y + L.yoff[(size_t)b];
      U* c = reinterpret_cast<U*>(out + r * n);
      for (int64_t j = 0; j < n; j++) c[j] = 0;
      for (int64_t q = 0; q < k; q++) {
        const U av = (U)a[q * L.csa];
        const T* brow = bm + q * L.rsb;
        if (L.csb == 1) for (int64_t j = 0; j < n; j++) c[j] += av * (U)brow[j];
        else for (int64_t j = 0; j < n; j++) c[j] += av * (U)brow[j * L.csb];
      }
    }
  });
}

// float16/bfloat16: widen both operands to contiguous float32, multiply, narrow the result.
template <typename H>
std::shared_ptr<Tensor> widen(const Tensor& t) {
  auto o = make_tensor(DType::F32, t.shape, "matmul");
  strided_loop<2>(t.shape, {(char*)o->raw(), (char*)t.raw()}, {o->strides, t.strides}, {4, (int64_t)sizeof(H)},
                  [](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                    for (int64_t i = 0; i < n; i++)
                      *(float*)(p[0] + i * s[0]) = Compute<H>::load(*(const H*)(p[1] + i * s[1]));
                  });
  return o;
}

template <typename H>
void run_half(const Plan& p, const Tensor& x, const Tensor& y, H* out) {
  auto x32 = widen<H>(x), y32 = widen<H>(y);
  const int64_t total = checked_numel(p.out_shape, "matmul");
  auto o32 = make_tensor(DType::F32, p.out_shape, "matmul");
  run_float<float>(p, *x32, *y32, o32->data<float>());
  const float* src = o32->data<float>();
  parallel_for(total, 65536, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; i++) out[i] = Compute<H>::store(src[i]);
  });
}

void run_matmul(KernelCall& c, bool bmm) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &y = c.input(1), &o = c.output(0);
  if (x.dtype != y.dtype)
    throw SkiffError(std::string(c.op) + ": inputs have different dtypes " + dtype_name(x.dtype) + " " +
                     shape_str(x.shape) + " and " + dtype_name(y.dtype) + " " + shape_str(y.shape));
  bool tx = false, ty = false;
  if (!bmm) {
    if (c.attrs.size() > 2) throw SkiffError(std::string(c.op) + ": expected attrs [transpose_x, transpose_y]");
    for (size_t i = 0; i < c.attrs.size(); i++) {
      const int64_t v = c.iattr(i);
      if (v != 0 && v != 1) throw SkiffError(std::string(c.op) + ": transpose flags must be 0 or 1");
      (i == 0 ? tx : ty) = v == 1;
    }
  }
  const Plan p = make_plan(c.op, x, y, tx, ty, bmm);
  switch (x.dtype) {
    case DType::F32: case DType::F64: case DType::F16: case DType::BF16: case DType::I32: case DType::I64: break;
    default:
      throw SkiffError(std::string(c.op) + ": unsupported dtype " + dtype_name(x.dtype) + " for shapes " +
                       shape_str(x.shape) + " and " + shape_str(y.shape));
  }
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, p.out_shape);
  switch (x.dtype) {
    case DType::F32: return run_float<float>(p, x, y, o.data<float>(), !p.y_vec);
    case DType::F64: return run_float<double>(p, x, y, o.data<double>());
    case DType::F16: return run_half<f16>(p, x, y, o.data<f16>());
    case DType::BF16: return run_half<bf16>(p, x, y, o.data<bf16>());
    case DType::I32: return run_int<int32_t>(p, x, y, o.data<int32_t>());
    case DType::I64: return run_int<int64_t>(p, x, y, o.data<int64_t>());
    default: break;
  }
}

void k_matmul(KernelCall& c) { run_matmul(c, false); }
void k_bmm(KernelCall& c) { run_matmul(c, true); }

}  // namespace
SKIFF_KERNEL("matmul", k_matmul);
SKIFF_KERNEL("bmm", k_bmm);
}  // namespace skiff
