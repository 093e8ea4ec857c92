// Copy kernels of the shape ops. Data moves by element size alone (no dtype arithmetic), so one
// path serves every dtype. Inputs may be strided views; outputs are contiguous.
//   reshape, flatten, contiguous: attrs []        row-major copy into an output of equal numel
//   strided_slice, flip:          attrs [first, step] per input dim (step may be negative)
//   tile:                         attrs repeat_times padded to the output rank
//   pad (constant):               attrs [value, before0, after0, before1, after1, ...]
#include <cstring>
#include "iter.h"
#include "kernel.h"

namespace skiff {

// Copies `shape` elements from src to dst; strides are in elements and may be negative or 0
// (for src). Shared with shape_join.cc and index_gather.cc.
void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es) {
  auto run = [&](auto tag) {
    using U = decltype(tag);
    strided_loop<2>(shape, {dst, const_cast<char*>(src)}, {dst_strides, src_strides}, {es, es},
                    [&](const std::array<char*, 2>& p, const std::array<int64_t, 2>& s, int64_t n) {
                      if (s[0] == es && s[1] == es) { std::memcpy(p[0], p[1], (size_t)(n * es)); return; }
                      for (int64_t i = 0; i < n; i++) *(U*)(p[0] + i * s[0]) = *(const U*)(p[1] + i * s[1]);
                    });
  };
  switch (es) {
    case 1: run(uint8_t{}); break;
    case 2: run(uint16_t{}); break;
    case 4: run(uint32_t{}); break;
    case 8: run(uint64_t{}); break;
    default: throw SkiffError("copy: unsupported element size " + std::to_string(es));
  }
}

// Whether a fill value converts to dtype without undefined behaviour (integers: finite and in range).
bool fits_dtype(DType dt, double v) {
  switch (dt) {
    case DType::I8: return v >= -128.0 && v <= 127.0;
    case DType::U8: return v >= 0.0 && v <= 255.0;
    case DType::I32: return v >= -2147483648.0 && v <= 2147483647.0;
    case DType::I64: return v >= -9223372036854775808.0 && v < 9223372036854775808.0;
    default: return true;  // floats take NaN/inf; bool is v != 0
  }
}

void pad_modes(KernelCall& c);  // shape_more.cc

namespace {

void expect_unary_same_dtype(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  c.expect_out_dtype(0, c.input(0).dtype);
}

void k_rowmajor(KernelCall& c) {
  expect_unary_same_dtype(c);
  Tensor &x = c.input(0), &o = c.output(0);
  if (o.numel() != x.numel())
    throw SkiffError(std::string(c.op) + ": output shape " + shape_str(o.shape) + " does not hold the " + std::to_string(x.numel()) + " elements of x " + shape_str(x.shape));
  if (!o.is_contiguous()) throw SkiffError(std::string(c.op) + ": output must be contiguous");
  copy_elems(x.shape, (char*)o.raw(), contiguous_strides(x.shape), (const char*)x.raw(), x.strides, (int64_t)x.itemsize());
}

void k_strided(KernelCall& c) {
  expect_unary_same_dtype(c);
  Tensor &x = c.input(0), &o = c.output(0);
  size_t r = x.shape.size();
  if (c.attrs.size() != 2 * r) throw SkiffError(std::string(c.op) + ": expected " + std::to_string(2 * r) + " attributes for x " + shape_str(x.shape));
  if (o.shape.size() != r) throw SkiffError(std::string(c.op) + ": output " + shape_str(o.shape) + " and x " + shape_str(x.shape) + " differ in rank");
  if (!o.is_contiguous()) throw SkiffError(std::string(c.op) + ": output must be contiguous");
  if (o.numel() == 0) return;
  int64_t es = (int64_t)x.itemsize();
  const char* src = (const char*)x.raw();
  std::vector<int64_t> src_strides(r);
  for (size_t d = 0; d < r; d++) {
    int64_t first = c.iattr(2 * d), step = c.iattr(2 * d + 1), n = o.shape[d];
    int64_t last = first + (n - 1) * step;
    if (first < 0 || first >= x.shape[d] || last < 0 || last >= x.shape[d])
      throw SkiffError(std::string(c.op) + ": indices " + std::to_string(first) + ".." + std::to_string(last) + " on axis " + std::to_string(d) +
                       " are out of range for x " + shape_str(x.shape));
    src += first * x.strides[d] * es;
    src_strides[d] = step * x.strides[d];
  }
  copy_elems(o.shape, (char*)o.raw(), o.strides, src, src_strides, es);
}

// out dim d of size reps*xd is walked as two dims [reps, xd]: the repeat dim reads x with stride 0.
void k_tile(KernelCall& c) {
  expect_unary_same_dtype(c);
  Tensor &x = c.input(0), &o = c.output(0);
  size_t r = c.attrs.size();
  if (r < x.shape.size() || o.shape.size() != r) throw SkiffError("tile: repeat_times of length " + std::to_string(r) + " do not fit x " + shape_str(x.shape) + " and output " + shape_str(o.shape));
  size_t lead = r - x.shape.size();
  std::vector<int64_t> shape2, dst2, src2, expect(r);
  for (size_t d = 0; d < r; d++) {
    int64_t reps = c.iattr(d);
    int64_t xd = d < lead ? 1 : x.shape[d - lead], xs = d < lead ? 0 : x.strides[d - lead];
    if (reps <= 0) throw SkiffError("tile: repeat_times must be positive, got " + std::to_string(reps));
    expect[d] = reps * xd;
    shape2.insert(shape2.end(), {reps, xd});
    src2.insert(src2.end(), {0, xs});
  }
  c.expect_out_shape(0, expect);
  for (size_t d = 0; d < r; d++) dst2.insert(dst2.end(), {shape2[2 * d + 1] * o.strides[d], o.strides[d]});
  copy_elems(shape2, (char*)o.raw(), dst2, (const char*)x.raw(), src2, (int64_t)x.itemsize());
}

void k_pad(KernelCall& c) {
  expect_unary_same_dtype(c);
  Tensor &x = c.input(0), &o = c.output(0);
  size_t r = x.shape.size();
  // A trailing mode code selects reflect/replicate/circular (native/kernels/shape_more.cc).
  if (c.attrs.size() == 2 + 2 * r) { pad_modes(c); return; }
  if (c.attrs.size() != 1 + 2 * r) throw SkiffError("pad: expected " + std::to_string(1 + 2 * r) + " attributes for x " + shape_str(x.shape));
  std::vector<int64_t> expect(r);
  int64_t origin = 0;
  for (size_t d = 0; d < r; d++) {
    int64_t before = c.iattr(1 + 2 * d), after = c.iattr(2 + 2 * d);
    if (before < 0 || after < 0) throw SkiffError("pad: paddings must be >= 0, got " + std::to_string(before) + ", " + std::to_string(after) + " on axis " + std::to_string(d));
    expect[d] = x.shape[d] + before + after;
    origin += before * o.strides[d];
  }
  c.expect_out_shape(0, expect);
  double v = c.attr(0);
  if (!fits_dtype(o.dtype, v)) throw SkiffError("pad: value " + std::to_string(v) + " is out of range for " + dtype_name(o.dtype));
  dispatch_all(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    T val = Compute<T>::store((compute_t<T>)v);
    T* p = o.data<T>();
    parallel_for(o.numel(), 1 << 16, [&](int64_t b, int64_t e) { for (int64_t i = b; i < e; i++) p[i] = val; });
  });
  int64_t es = (int64_t)x.itemsize();
  if (x.numel() > 0) copy_elems(x.shape, (char*)o.raw() + origin * es, o.strides, (const char*)x.raw(), x.strides, es);
}

}  // namespace

SKIFF_KERNEL("reshape", k_rowmajor);
SKIFF_KERNEL("flatten", k_rowmajor);
SKIFF_KERNEL("contiguous", k_rowmajor);
SKIFF_KERNEL("strided_slice", k_strided);
SKIFF_KERNEL("flip", k_strided);
SKIFF_KERNEL("tile", k_tile);
SKIFF_KERNEL("pad", k_pad);

}  // namespace skiff
