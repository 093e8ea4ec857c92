// Tensors made from attributes or shaped like an input.
//   arange:          attrs [start, step]; values accumulate in the output dtype, as Paddle's kernel does
//   eye:             attrs []; ones on the main diagonal of the [rows, cols] output
//   full_like:       attrs [value]; input 0 only gives the shape
//   tril, triu:      attrs [diagonal]; over the last two dims of x
#include "kernel.h"

namespace skiff {

bool fits_dtype(DType dt, double v);  // shape_copy.cc

namespace {

void k_arange(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  if (o.shape.size() != 1) throw SkiffError("arange: output must be 1-D, got " + shape_str(o.shape));
  double start = c.attr(0), step = c.attr(1);
  dispatch_numeric(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* p = o.data<T>();
    T v = C::store((compute_t<T>)start), s = C::store((compute_t<T>)step);
    for (int64_t i = 0, n = o.numel(); i < n; i++) { p[i] = v; v = C::store((compute_t<T>)(C::load(v) + C::load(s))); }
  });
}

void k_eye(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  if (o.shape.size() != 2) throw SkiffError("eye: output must be 2-D, got " + shape_str(o.shape));
  dispatch_all(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* p = o.data<T>();
    T zero = C::store((compute_t<T>)0), one = C::store((compute_t<T>)1);
    int64_t rows = o.shape[0], cols = o.shape[1];
    for (int64_t i = 0, n = o.numel(); i < n; i++) p[i] = zero;
    for (int64_t i = 0; i < std::min(rows, cols); i++) p[i * cols + i] = one;
  });
}

void k_full_like(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  c.expect_out_shape(0, c.input(0).shape);
  double v = c.attr(0);
  if (!fits_dtype(o.dtype, v)) throw SkiffError(std::string(c.op) + ": the fill value " + std::to_string(v) + " is out of range for " + dtype_name(o.dtype));
  dispatch_all(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    T val = Compute<T>::store((compute_t<T>)v);
    T* p = o.data<T>();
    parallel_for(o.numel(), 1 << 16, [&](int64_t b, int64_t e) { for (int64_t i = b; i < e; i++) p[i] = val; });
  });
}

void k_triangle(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor& x = c.input(0);
  if (x.shape.size() < 2) throw SkiffError(std::string(c.op) + ": x must have at least 2 dims, got " + shape_str(x.shape));
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  bool lower = std::string(c.op) == "tril";
  int64_t diag = c.iattr(0);
  int64_t rows = x.shape[x.shape.size() - 2], cols = x.shape.back();
  int64_t batches = rows * cols == 0 ? 0 : x.numel() / (rows * cols);
  const Tensor& xd = c.dense(0);
  dispatch_all(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* src = xd.data<T>();
    T* dst = c.output(0).data<T>();
    T zero = Compute<T>::store((compute_t<T>)0);
    parallel_for(batches * rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, cols)), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; r++) {
        int64_t i = r % rows;
        for (int64_t j = 0; j < cols; j++) {
          bool keep = lower ? j - i <= diag : j - i >= diag;
          dst[r * cols + j] = keep ? src[r * cols + j] : zero;
        }
      }
    });
  });
}

}  // namespace

SKIFF_KERNEL("arange", k_arange);
SKIFF_KERNEL("eye", k_eye);
SKIFF_KERNEL("full_like", k_full_like);
SKIFF_KERNEL("tril", k_triangle);
SKIFF_KERNEL("triu", k_triangle);

}  // namespace skiff
