// addmm, renorm and fill_diagonal (src/ops/defs/matrix_more.ts).
//
//   addmm(input, x, y)   attrs [beta, alpha]      out[M, N] = beta * input (broadcast) + alpha * x @ y
//   renorm(x)            attrs [p, axis, max_norm] slices along axis with p-norm > max_norm scaled to it
//   fill_diagonal(x)     attrs [value, offset, wrap]
//
// addmm writes beta * input into the output first and lets the packed GEMM accumulate into it
// (beta = 1 on C), so the product is never materialised separately; with beta == 0 the input is
// not read at all, as BLAS's beta == 0 (Paddle's CPU kernel is a BLAS GEMM with that beta).
// x and y may be strided views (the GEMM packs from any row/column strides).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../gemm/gemm.h"
#include "kernel.h"

namespace skiff {

void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es);  // shape_copy.cc
bool fits_dtype(DType dt, double v);                                                   // shape_copy.cc

namespace {

std::string op_of(const KernelCall& c) { return std::string(c.op); }

template <typename T>
void addmm_run(KernelCall& c, double beta, double alpha) {
  Tensor &in = c.input(0), &x = c.input(1), &y = c.input(2), &o = c.output(0);
  const int64_t m = x.shape[0], k = x.shape[1], n = y.shape[1];
  if (m == 0 || n == 0) return;
  T* out = o.data<T>();
  if (beta != 0) {
    // Broadcast strides of input over [M, N]: size-1 (or missing) dims repeat.
    const bool two = in.ndim() == 2;
    const int64_t s0 = two && in.shape[0] != 1 ? in.strides[0] : 0;
    const int64_t s1 = in.shape[two ? 1 : 0] != 1 ? in.strides[two ? 1 : 0] : 0;
    const T* src = in.data<T>();
    const T b = (T)beta;
    parallel_for(m, std::max<int64_t>(1, 32768 / n), [&](int64_t r0, int64_t r1) {
      for (int64_t i = r0; i < r1; i++) {
        const T* row = src + i * s0;
        T* dst = out + i * n;
        if (s1 == 1) for (int64_t j = 0; j < n; j++) dst[j] = b * row[j];
        else for (int64_t j = 0; j < n; j++) dst[j] = b * row[j * s1];
      }
    });
  }
  gemm(m, n, k, (T)alpha, x.data<T>(), x.strides[0], x.strides[1], y.data<T>(), y.strides[0], y.strides[1], T(beta != 0 ? 1 : 0), out, n);
}

void k_addmm(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  if (c.attrs.size() != 2) throw SkiffError(op_of(c) + ": expected attrs [beta, alpha], got " + std::to_string(c.attrs.size()));
  const double beta = c.attr(0), alpha = c.attr(1);
  Tensor &in = c.input(0), &x = c.input(1), &y = c.input(2);
  const std::string shapes = "input " + shape_str(in.shape) + ", x " + shape_str(x.shape) + ", y " + shape_str(y.shape);
  if (x.dtype != y.dtype || x.dtype != in.dtype)
    throw SkiffError(op_of(c) + ": input, x and y must share a dtype, got " + dtype_name(in.dtype) + ", " + dtype_name(x.dtype) + ", " + dtype_name(y.dtype));
  if (x.ndim() != 2 || y.ndim() != 2) throw SkiffError(op_of(c) + ": the dimension of x and y should be 2, got " + shapes);
  const int64_t m = x.shape[0], n = y.shape[1];
  if (x.shape[1] != y.shape[0]) throw SkiffError(op_of(c) + ": x's width must equal y's height, got " + shapes);
  const auto fits = [](int64_t d, int64_t want) { return d == 1 || d == want; };
  if (in.ndim() == 2) {
    if (!fits(in.shape[0], m) || !fits(in.shape[1], n)) throw SkiffError(op_of(c) + ": input must broadcast to the product's shape, got " + shapes);
  } else if (in.ndim() == 1) {
    if (!fits(in.shape[0], n)) throw SkiffError(op_of(c) + ": a 1-D input must have the product's column count or 1, got " + shapes);
  } else throw SkiffError(op_of(c) + ": the dimension of input should be 2 or 1, got " + shapes);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, {m, n});
  switch (x.dtype) {
    case DType::F32: return addmm_run<float>(c, beta, alpha);
    case DType::F64: return addmm_run<double>(c, beta, alpha);
    default: throw SkiffError(op_of(c) + ": unsupported dtype " + dtype_name(x.dtype) + " (float32 or float64), " + shapes);
  }
}

// ---- renorm ----------------------------------------------------------------------------------

constexpr double kRenormEps = 1e-6;  // Paddle's: scale = max_norm / (norm + 1e-6)

void k_renorm(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  if (c.attrs.size() != 3) throw SkiffError(op_of(c) + ": expected attrs [p, axis, max_norm], got " + std::to_string(c.attrs.size()));
  Tensor& x = c.input(0);
  const double p = c.attr(0), max_norm = c.attr(2);
  const int64_t r = x.ndim(), axis = c.iattr(1);
  if (axis < 0 || axis >= r) throw SkiffError(op_of(c) + ": axis " + std::to_string(axis) + " is out of range for x " + shape_str(x.shape));
  if (!(p > 0) || !std::isfinite(p)) throw SkiffError(op_of(c) + ": p must be a positive finite number, got " + std::to_string(p));
  if (!(max_norm >= 0)) throw SkiffError(op_of(c) + ": max_norm must be non-negative, got " + std::to_string(max_norm));
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  int64_t outer = 1, inner = 1;
  const int64_t dim = x.shape[axis];
  for (int64_t d = 0; d < axis; d++) outer *= x.shape[d];
  for (int64_t d = axis + 1; d < r; d++) inner *= x.shape[d];
  const int64_t slice = outer * inner;
  if (dim == 0 || slice == 0) return;
  const Tensor& xd = c.dense(0);
  Tensor& o = c.output(0);
  dispatch_float(x.dtype, "renorm", [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    const T* src = xd.data<T>();
    T* out = o.data<T>();
    // Partial sums of |x|^p: each slice's flat range [0, outer*inner) split into `parts`
    // contiguous ranges, one task per (slice, part), so a few huge slices still use every
    // thread; partials are summed in a fixed order (deterministic for any thread count).
    const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(64, slice / 16384));
    std::vector<double> partial((size_t)(dim * parts), 0.0);
    parallel_for(dim * parts, 1, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; t++) {
        const int64_t a = t / parts, q = t % parts;
        const int64_t j0 = slice * q / parts, j1 = slice * (q + 1) / parts;
        double s = 0;
        for (int64_t j = j0; j < j1;) {
          const int64_t ob = j / inner, ib = j % inner, len = std::min(inner - ib, j1 - j);
          const T* row = src + (ob * dim + a) * inner + ib;
          if (p == 2) for (int64_t i = 0; i < len; i++) { double v = (double)C::load(row[i]); s += v * v; }
          else if (p == 1) for (int64_t i = 0; i < len; i++) s += std::fabs((double)C::load(row[i]));
          else for (int64_t i = 0; i < len; i++) s += std::pow(std::fabs((double)C::load(row[i])), p);
          j += len;
        }
        partial[(size_t)t] = s;
      }
    });
    std::vector<double> scale((size_t)dim);
    for (int64_t a = 0; a < dim; a++) {
      double s = 0;
      for (int64_t q = 0; q < parts; q++) s += partial[(size_t)(a * parts + q)];
      const double norm = p == 1 ? s : p == 2 ? std::sqrt(s) : std::pow(s, 1.0 / p);
      scale[(size_t)a] = norm > max_norm ? max_norm / (norm + kRenormEps) : 1.0;
    }
    parallel_for(outer * dim, std::max<int64_t>(1, 32768 / inner), [&](int64_t r0, int64_t r1) {
      for (int64_t rr = r0; rr < r1; rr++) {
        const compute_t<T> s = (compute_t<T>)scale[(size_t)(rr % dim)];
        const T* a = src + rr * inner;
        T* b = out + rr * inner;
        for (int64_t i = 0; i < inner; i++) b[i] = C::store(C::load(a[i]) * s);
      }
    });
  });
}

// ---- fill_diagonal ---------------------------------------------------------------------------

void k_fill_diagonal(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  if (c.attrs.size() != 3) throw SkiffError(op_of(c) + ": expected attrs [value, offset, wrap], got " + std::to_string(c.attrs.size()));
  Tensor &x = c.input(0), &o = c.output(0);
  const double value = c.attr(0);
  const int64_t offset = c.iattr(1), wrap = c.iattr(2);
  const int64_t r = x.ndim();
  if (r < 2) throw SkiffError(op_of(c) + ": Tensor dims should >= 2, got x " + shape_str(x.shape));
  for (auto d : x.shape)
    if (r > 2 && d != x.shape[0]) throw SkiffError(op_of(c) + ": Tensor dims should be equal while input dims > 2, got x " + shape_str(x.shape));
  if (wrap != 0 && wrap != 1) throw SkiffError(op_of(c) + ": wrap must be 0 or 1, got " + std::to_string(wrap));
  if (!fits_dtype(x.dtype, value)) throw SkiffError(op_of(c) + ": value " + std::to_string(value) + " is out of range for " + dtype_name(x.dtype));
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  // Inplace calls (fill_diagonal_) pass x's own storage as the output.
  if (o.numel() > 0 && !(o.raw() == x.raw() && o.strides == x.strides))
    copy_elems(x.shape, (char*)o.raw(), o.strides, (const char*)x.raw(), x.strides, (int64_t)x.itemsize());
  const int64_t numel = o.numel();
  if (numel == 0) return;
  const int64_t cols = x.shape[1];
  // The flat step between diagonal elements: 1 + d[r-1] + d[r-1] d[r-2] + ... (row-major).
  int64_t step = 0, prod = 1;
  for (int64_t d = r - 1; d >= 0; d--) { step += prod; prod *= x.shape[d]; }
  // Without wrap a 2-D matrix stops after its first cols x cols block; more dims always wrap.
  const int64_t size = (wrap || r > 2) ? numel : std::min(numel, cols * cols);
  dispatch_all(x.dtype, "fill_diagonal", [&](auto tag) {
    using T = decltype(tag);
    const T fill = Compute<T>::store((compute_t<T>)value);
    T* out = o.data<T>();
    for (int64_t i = 0; i < size; i += step) {
      const int64_t col = i % cols + offset;  // the offset moves along the row, never across rows
      if (col >= 0 && col < cols) out[i + offset] = fill;
    }
  });
}

}  // namespace

SKIFF_KERNEL("addmm", k_addmm);
SKIFF_KERNEL("renorm", k_renorm);
SKIFF_KERNEL("fill_diagonal", k_fill_diagonal);

}  // namespace skiff
