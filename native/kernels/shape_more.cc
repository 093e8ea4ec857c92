// Data-moving shape ops of src/ops/defs/shape_more.ts, plus pad's reflect/replicate/circular
// modes (called from shape_copy.cc's pad kernel). Data moves by element size alone, so one path
// serves every dtype; inputs may be strided views and are read in place where the copy is a
// strided window (copy_elems), outputs are contiguous.
//   roll(x)                         attrs [flat, shift...]   flat: [1, s] over the flattened x; else one shift per dim
//   repeat_interleave(x)            attrs [axis, repeats]    axis -1: over the flattened x
//   repeat_interleave_with_tensor_index(x, repeats)  attrs [axis or -1]  (allocates its output)
//   diag(x)                         attrs [offset, padding_value]
//   diag_embed(x)                   attrs [offset, dim1, dim2]   (normalised output dims)
//   diagonal_scatter(x, y)          attrs [offset, axis1, axis2]
//   select_scatter(x, values)       attrs [axis, index]
//   meshgrid(x0..xn) -> out0..outn  attrs []
//   as_strided(x)                   attrs [offset, stride...]   (non-contiguous x only; else a view)
#include <cstring>
#include "iter.h"
#include "kernel.h"

namespace skiff {

void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es);  // shape_copy.cc
bool fits_dtype(DType dt, double v);                                                   // shape_copy.cc

namespace {

void expect_unary(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  c.expect_out_dtype(0, c.input(0).dtype);
}

void fill_value(Tensor& o, double v, const char* op) {
  if (!fits_dtype(o.dtype, v)) throw SkiffError(std::string(op) + ": value " + std::to_string(v) + " is out of range for " + dtype_name(o.dtype));
  dispatch_all(o.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    T val = Compute<T>::store((compute_t<T>)v);
    T* p = o.data<T>();
    parallel_for(o.numel(), 1 << 16, [&](int64_t b, int64_t e) { for (int64_t i = b; i < e; i++) p[i] = val; });
  });
}

// Copies the 2^k blocks of a roll: along each shifted dim the output is x[n-s:] then x[:n-s].
void k_roll(KernelCall& c) {
  expect_unary(c);
  Tensor &x = c.input(0), &o = c.output(0);
  c.expect_out_shape(0, x.shape);
  const size_t r = x.shape.size();
  if (c.attrs.empty()) throw SkiffError("roll: missing attributes");
  const bool flat = c.iattr(0) != 0;
  const int64_t es = (int64_t)x.itemsize();
  if (o.numel() == 0) return;
  if (flat) {
    if (c.attrs.size() != 2) throw SkiffError("roll: expected [1, shift] for a flattened roll");
    const int64_t n = x.numel(), s = c.iattr(1);
    if (s < 0 || s >= n) throw SkiffError("roll: shift " + std::to_string(s) + " must be normalised to [0, " + std::to_string(n) + ")");
    const Tensor& xd = c.dense(0);
    const char* src = (const char*)xd.raw();
    char* dst = (char*)o.raw();
    std::memcpy(dst, src + (n - s) * es, (size_t)(s * es));
    std::memcpy(dst + s * es, src, (size_t)((n - s) * es));
    return;
  }
  if (c.attrs.size() != 1 + r) throw SkiffError("roll: expected one shift per dim of x " + shape_str(x.shape));
  std::vector<int64_t> sh(r), rolled;
  for (size_t d = 0; d < r; d++) {
    sh[d] = c.iattr(1 + d);
    if (sh[d] < 0 || sh[d] >= std::max<int64_t>(x.shape[d], 1)) throw SkiffError("roll: shift " + std::to_string(sh[d]) + " on axis " + std::to_string(d) + " must be normalised to [0, " + std::to_string(x.shape[d]) + ")");
    if (sh[d] != 0) rolled.push_back((int64_t)d);
  }
  const size_t k = rolled.size();
  for (size_t mask = 0; mask < ((size_t)1 << k); mask++) {
    std::vector<int64_t> shape = x.shape;
    int64_t src_off = 0, dst_off = 0;
    for (size_t j = 0; j < k; j++) {
      int64_t d = rolled[j], n = x.shape[d], s = sh[d];
      // bit 0: out[0:s] = x[n-s:n]; bit 1: out[s:n] = x[0:n-s]
      if (mask >> j & 1) { shape[d] = n - s; dst_off += s * o.strides[d]; }
      else { shape[d] = s; src_off += (n - s) * x.strides[d]; }
    }
    copy_elems(shape, (char*)o.raw() + dst_off * es, o.strides, (const char*)x.raw() + src_off * es, x.strides, es);
  }
}

// out viewed as [.., D, reps, ..] reads x with stride 0 on the reps dim (like tile).
void k_repeat_interleave(KernelCall& c) {
  expect_unary(c);
  Tensor &x = c.input(0), &o = c.output(0);
  if (c.attrs.size() != 2) throw SkiffError("repeat_interleave: expected attributes [axis, repeats]");
  int64_t axis = c.iattr(0), reps = c.iattr(1);
  if (reps < 0) throw SkiffError("repeat_interleave: repeats must be non-negative, got " + std::to_string(reps));
  std::vector<int64_t> xs = x.shape, xst = x.strides;
  const Tensor* src = &x;
  if (axis == -1) {  // over the flattened x
    const Tensor& xd = c.dense(0);
    src = &xd;
    xs = {x.numel()};
    xst = {1};
    axis = 0;
  }
  if (axis < 0 || axis >= (int64_t)xs.size()) throw SkiffError("repeat_interleave: axis " + std::to_string(c.iattr(0)) + " is out of range for x " + shape_str(x.shape));
  auto want = xs;
  want[axis] *= reps;
  c.expect_out_shape(0, axis == 0 && c.iattr(0) == -1 ? std::vector<int64_t>{want[0]} : want);
  if (o.numel() == 0) return;
  auto ost = contiguous_strides(want);
  std::vector<int64_t> shape2, dst2, src2;
  for (size_t d = 0; d < xs.size(); d++) {
    if ((int64_t)d == axis) {
      shape2.insert(shape2.end(), {xs[d], reps});
      dst2.insert(dst2.end(), {ost[d] * reps, ost[d]});
      src2.insert(src2.end(), {xst[d], 0});
    } else { shape2.push_back(xs[d]); dst2.push_back(ost[d]); src2.push_back(xst[d]); }
  }
  copy_elems(shape2, (char*)o.raw(), dst2, (const char*)src->raw(), src2, (int64_t)x.itemsize());
}

// repeat_interleave_with_tensor_index(x, repeats) attrs [axis or -1]: repeats[k] copies of slice k.
// The output size depends on the values, so the kernel allocates it (OpDef.dynamicShape).
void k_repeat_interleave_tensor(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &rep = c.input(1);
  const char* op = "repeat_interleave_with_tensor_index";
  if (c.attrs.size() != 1) throw SkiffError(std::string(op) + ": expected attributes [axis]");
  int64_t axis = c.iattr(0);
  const bool flat = axis == -1;
  std::vector<int64_t> xs = flat ? std::vector<int64_t>{x.numel()} : x.shape;
  if (flat) axis = 0;
  if (axis < 0 || axis >= (int64_t)xs.size()) throw SkiffError(std::string(op) + ": axis " + std::to_string(c.iattr(0)) + " is out of range for x " + shape_str(x.shape));
  if (rep.dtype != DType::I32 && rep.dtype != DType::I64) throw SkiffError(std::string(op) + ": repeats must be int32 or int64, got " + dtype_name(rep.dtype));
  if (rep.shape.size() != 1 || rep.shape[0] != xs[axis])
    throw SkiffError(std::string(op) + ": repeats " + shape_str(rep.shape) + " must be 1-D with one entry per element of axis " + std::to_string(axis) + " (size " + std::to_string(xs[axis]) + ")");
  const Tensor& rd = c.dense(1);
  const int64_t n = xs[axis];
  std::vector<int64_t> r((size_t)n), start((size_t)n + 1, 0);
  for (int64_t k = 0; k < n; k++) {
    r[k] = rd.dtype == DType::I64 ? rd.data<int64_t>()[k] : rd.data<int32_t>()[k];
    if (r[k] < 0) throw SkiffError(std::string(op) + ": repeats must be non-negative, got " + std::to_string(r[k]) + " at position " + std::to_string(k));
    start[k + 1] = start[k] + r[k];
  }
  auto shape = xs;
  shape[axis] = start[n];
  Tensor& o = c.alloc_output(0, shape);
  if (o.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const int64_t es = (int64_t)x.itemsize();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; d++) outer *= xs[d];
  for (size_t d = axis + 1; d < xs.size(); d++) inner *= xs[d];
  // Slice k of every outer row goes to out rows start[k] .. start[k+1] (x read with stride 0 over the copies).
  for (int64_t k = 0; k < n; k++) {
    if (r[k] == 0) continue;
    copy_elems({outer, r[k], inner}, (char*)o.raw() + start[k] * inner * es, {start[n] * inner, inner, 1},
               (const char*)xd.raw() + k * inner * es, {n * inner, 0, 1}, es);
  }
}

// Length of the offset diagonal of an [m, n] matrix.
int64_t diag_len(int64_t m, int64_t n, int64_t off) { return std::max<int64_t>(0, off >= 0 ? std::min(m, n - off) : std::min(m + off, n)); }

void k_diag(KernelCall& c) {
  expect_unary(c);
  Tensor &x = c.input(0), &o = c.output(0);
  if (c.attrs.size() != 2) throw SkiffError("diag: expected attributes [offset, padding_value]");
  const int64_t off = c.iattr(0);
  const int64_t es = (int64_t)x.itemsize();
  if (x.shape.size() <= 1) {
    const int64_t n = x.shape.empty() ? 1 : x.shape[0], m = n + std::abs(off);
    c.expect_out_shape(0, {m, m});
    fill_value(o, c.attr(1), "diag");
    if (n == 0) return;
    const int64_t start = off >= 0 ? off : -off * m;
    copy_elems({n}, (char*)o.raw() + start * es, {m + 1}, (const char*)x.raw(), {x.shape.empty() ? 0 : x.strides[0]}, es);
    return;
  }
  if (x.shape.size() != 2) throw SkiffError("diag: x must be 0-D, 1-D or 2-D, got " + shape_str(x.shape));
  const int64_t len = diag_len(x.shape[0], x.shape[1], off);
  c.expect_out_shape(0, {len});
  if (len == 0) return;
  const int64_t start = off >= 0 ? off * x.strides[1] : -off * x.strides[0];
  copy_elems({len}, (char*)o.raw(), {1}, (const char*)x.raw() + start * es, {x.strides[0] + x.strides[1]}, es);
}

// The diagonal (offset, axis1, axis2) of a tensor with `shape`/`strides`: the strided window
// (shape and strides with the two axes replaced by one trailing diagonal dim) and its start.
struct Window { std::vector<int64_t> shape, strides; int64_t start; };
Window diag_window(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t off, int64_t a1, int64_t a2) {
  Window w;
  for (size_t d = 0; d < shape.size(); d++)
    if ((int64_t)d != a1 && (int64_t)d != a2) { w.shape.push_back(shape[d]); w.strides.push_back(strides[d]); }
  const int64_t len = diag_len(shape[a1], shape[a2], off);
  w.shape.push_back(len);
  w.strides.push_back(strides[a1] + strides[a2]);
  w.start = len == 0 ? 0 : off >= 0 ? off * strides[a2] : -off * strides[a1];
  return w;
}

void check_axes(const KernelCall& c, int64_t a1, int64_t a2, size_t rank) {
  if (a1 < 0 || a1 >= (int64_t)rank || a2 < 0 || a2 >= (int64_t)rank || a1 == a2)
    throw SkiffError(std::string(c.op) + ": axes " + std::to_string(a1) + " and " + std::to_string(a2) + " must be distinct dims of a rank-" + std::to_string(rank) + " tensor");
}

void k_diag_embed(KernelCall& c) {
  expect_unary(c);
  Tensor &x = c.input(0), &o = c.output(0);
  if (c.attrs.size() != 3) throw SkiffError("diag_embed: expected attributes [offset, dim1, dim2]");
  const int64_t off = c.iattr(0), d1 = c.iattr(1), d2 = c.iattr(2);
  if (x.shape.empty()) throw SkiffError("diag_embed: input must have at least one dim, got a 0-D tensor");
  const size_t r = x.shape.size() + 1;
  check_axes(c, d1, d2, r);
  const int64_t n = x.shape.back(), m = n + std::abs(off);
  std::vector<int64_t> want;
  for (size_t d = 0, j = 0; d < r; d++) want.push_back(((int64_t)d == d1 || (int64_t)d == d2) ? m : x.shape[j++]);
  c.expect_out_shape(0, want);
  if (o.numel() == 0) return;
  std::memset(o.raw(), 0, (size_t)o.numel() * o.itemsize());
  Window w = diag_window(o.shape, o.strides, off, d1, d2);
  const int64_t es = (int64_t)x.itemsize();
  copy_elems(x.shape, (char*)o.raw() + w.start * es, w.strides, (const char*)x.raw(), x.strides, es);
}

void k_diagonal_scatter(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &y = c.input(1), &o = c.output(0);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  if (c.attrs.size() != 3) throw SkiffError("diagonal_scatter: expected attributes [offset, axis1, axis2]");
  if (y.dtype != x.dtype) throw SkiffError(std::string("diagonal_scatter: y dtype ") + dtype_name(y.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  const int64_t off = c.iattr(0), a1 = c.iattr(1), a2 = c.iattr(2);
  check_axes(c, a1, a2, x.shape.size());
  Window w = diag_window(o.shape, o.strides, off, a1, a2);
  if (y.shape != w.shape) throw SkiffError("diagonal_scatter: y shape " + shape_str(y.shape) + " must be the diagonal's " + shape_str(w.shape) + " of x " + shape_str(x.shape));
  const int64_t es = (int64_t)x.itemsize();
  if (o.numel() == 0) return;
  if (!(o.raw() == x.raw() && o.strides == x.strides)) copy_elems(x.shape, (char*)o.raw(), o.strides, (const char*)x.raw(), x.strides, es);  // inplace: already there
  copy_elems(w.shape, (char*)o.raw() + w.start * es, w.strides, (const char*)y.raw(), y.strides, es);
}

void k_select_scatter(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &v = c.input(1), &o = c.output(0);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  if (c.attrs.size() != 2) throw SkiffError("select_scatter: expected attributes [axis, index]");
  if (v.dtype != x.dtype) throw SkiffError(std::string("select_scatter: values dtype ") + dtype_name(v.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  const int64_t axis = c.iattr(0), index = c.iattr(1);
  if (axis < 0 || axis >= (int64_t)x.shape.size()) throw SkiffError("select_scatter: axis " + std::to_string(axis) + " is out of range for x " + shape_str(x.shape));
  if (index < 0 || index >= x.shape[axis]) throw SkiffError("select_scatter: index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) + " of x " + shape_str(x.shape));
  auto shape = x.shape, st = o.strides;
  shape.erase(shape.begin() + axis);
  st.erase(st.begin() + axis);
  if (v.shape != shape) throw SkiffError("select_scatter: values shape " + shape_str(v.shape) + " must be " + shape_str(shape) + " (x " + shape_str(x.shape) + " without axis " + std::to_string(axis) + ")");
  const int64_t es = (int64_t)x.itemsize();
  if (o.numel() == 0) return;
  if (!(o.raw() == x.raw() && o.strides == x.strides)) copy_elems(x.shape, (char*)o.raw(), o.strides, (const char*)x.raw(), x.strides, es);  // inplace: already there
  copy_elems(shape, (char*)o.raw() + index * o.strides[axis] * es, st, (const char*)v.raw(), v.strides, es);
}

void k_meshgrid(KernelCall& c) {
  const size_t k = c.in.size();
  if (k == 0) throw SkiffError("meshgrid: expected at least one input");
  c.expect_outputs(k);
  std::vector<int64_t> shape;
  for (size_t i = 0; i < k; i++) {
    Tensor& t = c.input(i);
    if (t.shape.size() > 1) throw SkiffError("meshgrid: inputs must be 0-D or 1-D, got " + shape_str(t.shape) + " for input " + std::to_string(i));
    if (t.dtype != c.input(0).dtype) throw SkiffError(std::string("meshgrid: all inputs must have the same dtype, got ") + dtype_name(c.input(0).dtype) + " and " + dtype_name(t.dtype));
    shape.push_back(t.shape.empty() ? 1 : t.shape[0]);
  }
  for (size_t i = 0; i < k; i++) { c.expect_out_dtype(i, c.input(0).dtype); c.expect_out_shape(i, shape); }
  for (size_t i = 0; i < k; i++) {
    Tensor &t = c.input(i), &o = c.output(i);
    if (o.numel() == 0) continue;
    std::vector<int64_t> src(k, 0);
    src[i] = t.shape.empty() ? 0 : t.strides[0];
    copy_elems(shape, (char*)o.raw(), o.strides, (const char*)t.raw(), src, (int64_t)t.itemsize());
  }
}

// as_strided on a non-contiguous x (a contiguous x gets a view): out[i] = x_rowmajor[offset + sum i_d * stride_d].
void k_as_strided(KernelCall& c) {
  expect_unary(c);
  Tensor &x = c.input(0), &o = c.output(0);
  const size_t r = o.shape.size();
  if (c.attrs.size() != 1 + r) throw SkiffError("as_strided: expected attributes [offset, stride...] for output " + shape_str(o.shape));
  const int64_t offset = c.iattr(0), n = x.numel();
  std::vector<int64_t> st(r);
  int64_t last = offset;
  for (size_t d = 0; d < r; d++) {
    st[d] = c.iattr(1 + d);
    if (st[d] < 0) throw SkiffError("as_strided: stride " + std::to_string(st[d]) + " is negative");
    if (o.shape[d] > 0) last += (o.shape[d] - 1) * st[d];
  }
  if (o.numel() == 0) return;
  if (offset < 0 || last >= n)
    throw SkiffError("as_strided: the view reaches element " + std::to_string(last) + " but x " + shape_str(x.shape) + " holds " + std::to_string(n) + " elements");
  const Tensor& xd = c.dense(0);
  const int64_t es = (int64_t)x.itemsize();
  copy_elems(o.shape, (char*)o.raw(), o.strides, (const char*)xd.raw() + offset * es, st, es);
}

}  // namespace

// pad in 'reflect' (1), 'replicate' (2) or 'circular' (3) mode; attrs [value, before0, after0, ..., mode].
// Each output coordinate maps to one x coordinate per dim, so the per-dim maps are built once
// and every output row is a gather along the last dim.
void pad_modes(KernelCall& c) {
  Tensor &x = c.input(0), &o = c.output(0);
  const size_t r = x.shape.size();
  const int64_t mode = c.iattr(2 * r + 1);
  const char* names[] = {"constant", "reflect", "replicate", "circular"};
  if (mode < 1 || mode > 3) throw SkiffError("pad: unknown mode code " + std::to_string(mode));
  std::vector<int64_t> expect(r);
  std::vector<std::vector<int64_t>> maps(r);
  for (size_t d = 0; d < r; d++) {
    const int64_t before = c.iattr(1 + 2 * d), after = c.iattr(2 + 2 * d), n = x.shape[d];
    if (before < 0 || after < 0) throw SkiffError("pad: paddings must be >= 0, got " + std::to_string(before) + ", " + std::to_string(after) + " on axis " + std::to_string(d));
    if ((before > 0 || after > 0) && n == 0)
      throw SkiffError(std::string("pad: mode '") + names[mode] + "' cannot pad axis " + std::to_string(d) + " of size 0 of x " + shape_str(x.shape));
    if (mode == 1 && (before >= n || after >= n) && (before > 0 || after > 0))
      throw SkiffError("pad: mode 'reflect' needs paddings smaller than the padded dim: axis " + std::to_string(d) + " of x " + shape_str(x.shape) + " has size " +
                       std::to_string(n) + ", paddings " + std::to_string(before) + ", " + std::to_string(after));
    expect[d] = n + before + after;
    maps[d].resize((size_t)expect[d]);
    for (int64_t i = 0; i < expect[d]; i++) {
      int64_t j = i - before;
      if (mode == 1) j = j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
      else if (mode == 2) j = j < 0 ? 0 : j >= n ? n - 1 : j;
      else j = ((j % n) + n) % n;
      maps[d][i] = j * x.strides[d];
    }
  }
  c.expect_out_shape(0, expect);
  const int64_t total = o.numel();
  if (total == 0) return;
  if (r == 0) { std::memcpy(o.raw(), x.raw(), x.itemsize()); return; }
  const int64_t last = expect[r - 1], rows = total / last;
  auto run = [&](auto tag) {
    using U = decltype(tag);
    const U* src = (const U*)x.raw();
    U* dst = (U*)o.raw();
    const auto& ml = maps[r - 1];
    parallel_for(rows, std::max<int64_t>(1, 8192 / last), [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; row++) {
        int64_t rem = row, base = 0;
        for (int64_t d = (int64_t)r - 2; d >= 0; d--) { base += maps[d][rem % expect[d]]; rem /= expect[d]; }
        U* out = dst + row * last;
        for (int64_t j = 0; j < last; j++) out[j] = src[base + ml[j]];
      }
    });
  };
  switch (x.itemsize()) {
    case 1: run(uint8_t{}); break;
    case 2: run(uint16_t{}); break;
    case 4: run(uint32_t{}); break;
    default: run(uint64_t{}); break;
  }
}

SKIFF_KERNEL("roll", k_roll);
SKIFF_KERNEL("repeat_interleave", k_repeat_interleave);
SKIFF_KERNEL("repeat_interleave_with_tensor_index", k_repeat_interleave_tensor);
SKIFF_KERNEL("diag", k_diag);
SKIFF_KERNEL("diag_embed", k_diag_embed);
SKIFF_KERNEL("diagonal_scatter", k_diagonal_scatter);
SKIFF_KERNEL("select_scatter", k_select_scatter);
SKIFF_KERNEL("meshgrid", k_meshgrid);
SKIFF_KERNEL("as_strided", k_as_strided);

}  // namespace skiff
