// Scattering and gathering by integer index tensors (src/ops/defs/index_scatter.ts):
//   scatter(x, index, updates)          attrs [overwrite]                  rows of axis 0
//   scatter_nd_add(x, index, updates)   attrs []                           index [..., k] into x's first k dims
//   scatter_nd(index, updates)          attrs [shape...]                   scatter_nd_add onto zeros
//   take_along_axis(arr, indices)       attrs [axis]                       out[.., k, ..] = arr[.., idx[.., k, ..], ..]
//   put_along_axis(arr, indices, vals)  attrs [axis, reduce, include_self, broadcast]
//   index_fill(x, index)                attrs [axis, value]
// Every index is read and range-checked before the output is written; negative indices wrap
// where Paddle 2.6 allows them (scatter_nd_add, take/put_along_axis, index_fill) and are errors
// where it does not (scatter). Accumulating loops split the work so that no two threads write
// one element: over the positions inside a slice (scatter, scatter_nd_add) or over lines
// across the axis (put_along_axis). Half types accumulate in float32 through Compute<T>.
#include <algorithm>
#include <cstring>
#include <limits>
#include "iter.h"
#include "kernel.h"

namespace skiff {

void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es);  // shape_copy.cc
bool fits_dtype(DType dt, double v);                                                   // shape_copy.cc

namespace {

std::string op_of(const KernelCall& c) { return std::string(c.op); }


// Checks (and, with neg_ok, wraps) one index against a dim of size `dim`.
void check_index(const KernelCall& c, int64_t& v, int64_t dim, int64_t pos, int64_t axis, const std::vector<int64_t>& xshape, bool neg_ok) {
  int64_t orig = v;
  if (neg_ok && v < 0) v += dim;
  if (v < 0 || v >= dim)
    throw SkiffError(op_of(c) + ": index " + std::to_string(orig) + " (position " + std::to_string(pos) + ") is out of range for axis " +
                     std::to_string(axis) + " of size " + std::to_string(dim) + " of x " + shape_str(xshape) +
                     (orig < 0 && !neg_ok ? "; negative indices are not supported" : ""));
}

void copy_into_out(KernelCall& c, size_t in_i) {
  Tensor &x = c.input(in_i), &o = c.output(0);
  // Inplace calls (scatter_, put_along_axis_, index_fill_) pass x's own storage as the output.
  if (o.numel() > 0 && !(o.raw() == x.raw() && o.strides == x.strides)) copy_elems(x.shape, (char*)o.raw(), o.strides, (const char*)x.raw(), x.strides, (int64_t)x.itemsize());
}

// Calls f with an unsigned type of the element size (data moves without arithmetic).
template <typename F>
void by_size(int64_t es, F&& f) {
  switch (es) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    case 8: f(uint64_t{}); break;
    default: throw SkiffError("index_scatter: unsupported element size " + std::to_string(es));
  }
}

void k_scatter(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &index = c.input(1), &upd = c.input(2);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  if (x.shape.empty()) throw SkiffError("scatter: x must have at least one dim, got a 0-D tensor");
  if (upd.dtype != x.dtype) throw SkiffError(std::string("scatter: updates dtype ") + dtype_name(upd.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  size_t ir = index.shape.size();
  if (ir > 2 || (ir == 2 && index.shape[1] != 1)) throw SkiffError("scatter: index must be 0-D, 1-D or of shape [N, 1], got " + shape_str(index.shape));
  const int64_t n = index.numel();
  std::vector<int64_t> rest(x.shape.begin() + 1, x.shape.end()), want = rest;
  want.insert(want.begin(), n);
  if (upd.shape != want && !(ir == 0 && upd.shape == rest))
    throw SkiffError("scatter: updates shape " + shape_str(upd.shape) + " must be " + shape_str(want) + " for index " + shape_str(index.shape) + " and x " + shape_str(x.shape));
  const bool overwrite = c.iattr(0) != 0;
  auto idx = c.int64_values(1, "index");
  for (int64_t k = 0; k < n; k++) check_index(c, idx[k], x.shape[0], k, 0, x.shape, false);
  if (!overwrite && x.dtype == DType::Bool) throw SkiffError("scatter: overwrite=False adds updates, which bool tensors do not support");
  copy_into_out(c, 0);
  Tensor& o = c.output(0);
  int64_t row = 1;
  for (auto d : rest) row *= d;
  if (n == 0 || row == 0) return;
  const Tensor& ud = c.dense(2);
  const int64_t es = (int64_t)x.itemsize();
  if (overwrite) {
    // Later rows win, as in Paddle: every thread walks all k in order over its part of the row.
    char* dst = (char*)o.raw();
    const char* src = (const char*)ud.raw();
    parallel_for(row, 8192, [&](int64_t b, int64_t e) {
      for (int64_t k = 0; k < n; k++) std::memcpy(dst + (idx[k] * row + b) * es, src + (k * row + b) * es, (size_t)((e - b) * es));
    });
    return;
  }
  dispatch_numeric(x.dtype, "scatter", [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* out = o.data<T>();
    const T* u = ud.data<T>();
    parallel_for(row, 4096, [&](int64_t b, int64_t e) {
      // Paddle zeroes the indexed rows first, then adds every update (repeated indices accumulate).
      for (int64_t k = 0; k < n; k++) for (int64_t i = b; i < e; i++) out[idx[k] * row + i] = C::store(0);
      for (int64_t k = 0; k < n; k++)
        for (int64_t i = b; i < e; i++) { T& d = out[idx[k] * row + i]; d = C::store(C::load(d) + C::load(u[k * row + i])); }
    });
  });
}

// scatter_nd_add (3 inputs) and scatter_nd (index, updates; output shape in attrs).
void k_scatter_nd(KernelCall& c) {
  const bool has_x = std::string(c.op) == "scatter_nd_add";
  c.expect_inputs(has_x ? 3 : 2);
  c.expect_outputs(1);
  Tensor& o = c.output(0);
  Tensor &index = c.input(has_x ? 1 : 0), &upd = c.input(has_x ? 2 : 1);
  if (has_x) {
    c.expect_out_dtype(0, c.input(0).dtype);
    c.expect_out_shape(0, c.input(0).shape);
  } else {
    std::vector<int64_t> shape;
    for (size_t i = 0; i < c.attrs.size(); i++) shape.push_back(c.iattr(i));
    c.expect_out_shape(0, shape);
  }
  const auto& xs = o.shape;
  if (upd.dtype != o.dtype) throw SkiffError(op_of(c) + ": updates dtype " + dtype_name(upd.dtype) + " differs from the output dtype " + dtype_name(o.dtype));
  if (index.shape.empty()) throw SkiffError(op_of(c) + ": index must have at least one dim, got a 0-D tensor");
  const int64_t k = index.shape.back();
  if (k > (int64_t)xs.size()) throw SkiffError(op_of(c) + ": index " + shape_str(index.shape) + " indexes " + std::to_string(k) + " dims but x " + shape_str(xs) + " has rank " + std::to_string(xs.size()));
  std::vector<int64_t> want(index.shape.begin(), index.shape.end() - 1);
  int64_t m = 1, slice = 1;
  for (auto d : want) m *= d;
  for (size_t d = (size_t)k; d < xs.size(); d++) { want.push_back(xs[d]); slice *= xs[d]; }
  if (upd.shape != want)
    throw SkiffError(op_of(c) + ": updates shape " + shape_str(upd.shape) + " must be " + shape_str(want) + " (index.shape[:-1] + x.shape[" + std::to_string(k) + ":]) for index " +
                     shape_str(index.shape) + " and x " + shape_str(xs));
  if (o.dtype == DType::Bool) throw SkiffError(op_of(c) + ": bool tensors are not supported (updates are added)");
  auto raw = c.int64_values(has_x ? 1 : 0, "index");
  std::vector<int64_t> off((size_t)m, 0);
  for (int64_t r = 0; r < m; r++) {
    int64_t lin = 0;
    for (int64_t j = 0; j < k; j++) {
      int64_t& v = raw[r * k + j];
      check_index(c, v, xs[j], r * k + j, j, xs, true);
      lin = lin * xs[j] + v;
    }
    off[r] = lin * slice;
  }
  if (has_x) copy_into_out(c, 0);
  else if (o.numel() > 0) std::memset(o.raw(), 0, (size_t)o.numel() * o.itemsize());
  if (m == 0 || slice == 0) return;
  const Tensor& ud = c.dense(has_x ? 2 : 1);
  dispatch_numeric(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* out = o.data<T>();
    const T* u = ud.data<T>();
    if (slice >= 64) {
      parallel_for(slice, 4096, [&](int64_t b, int64_t e) {
        for (int64_t r = 0; r < m; r++)
          for (int64_t i = b; i < e; i++) { T& d = out[off[r] + i]; d = C::store(C::load(d) + C::load(u[r * slice + i])); }
      });
    } else {
      // Small slices: the updates may hit the same element from any r, so one thread adds them in order.
      for (int64_t r = 0; r < m; r++)
        for (int64_t i = 0; i < slice; i++) { T& d = out[off[r] + i]; d = C::store(C::load(d) + C::load(u[r * slice + i])); }
    }
  });
}

// Element strides of t read at `shape` (same rank): 0 where t has size 1 and shape does not.
std::vector<int64_t> read_strides(const Tensor& t, const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  for (size_t d = 0; d < shape.size(); d++) s[d] = (t.shape[d] == 1 && shape[d] != 1) ? 0 : t.strides[d];
  return s;
}

int64_t axis_attr(const KernelCall& c, size_t rank) {
  int64_t axis = c.iattr(0);
  if (axis < 0 || axis >= (int64_t)rank) throw SkiffError(op_of(c) + ": axis " + std::to_string(c.iattr(0)) + " is out of range for rank " + std::to_string(rank));
  return axis;
}

void k_take_along_axis(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &arr = c.input(0), &ind = c.input(1), &o = c.output(0);
  c.expect_out_dtype(0, arr.dtype);
  const size_t r = arr.shape.size();
  if (r == 0) throw SkiffError("take_along_axis: arr must have at least one dim, got a 0-D tensor");
  if (ind.shape.size() != r || o.shape.size() != r)
    throw SkiffError("take_along_axis: indices " + shape_str(ind.shape) + " must have the rank of arr " + shape_str(arr.shape));
  const int64_t axis = axis_attr(c, r);
  for (size_t d = 0; d < r; d++) {
    bool ok = (int64_t)d == axis ? o.shape[d] == ind.shape[d]
                                 : (ind.shape[d] == 1 || ind.shape[d] == o.shape[d]) && (arr.shape[d] == 1 || arr.shape[d] >= o.shape[d]);
    if (!ok) throw SkiffError("take_along_axis: indices " + shape_str(ind.shape) + " and arr " + shape_str(arr.shape) + " do not give output " + shape_str(o.shape) + " along axis " + std::to_string(axis));
  }
  auto idx = c.int64_values(1, "indices");
  const int64_t dim = arr.shape[axis];
  for (size_t p = 0; p < idx.size(); p++) check_index(c, idx[p], dim, (int64_t)p, axis, arr.shape, true);
  const int64_t total = o.numel();
  if (total == 0) return;
  auto as = read_strides(arr, o.shape);
  as[axis] = arr.strides[axis];
  auto is = read_strides(c.dense(1), o.shape);
  const char* src = (const char*)arr.raw();
  by_size((int64_t)arr.itemsize(), [&](auto tag) {
    using U = decltype(tag);
    U* out = (U*)o.raw();
    const U* a = (const U*)src;
    parallel_for(total, 16384, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; t++) {
        int64_t rem = t, ao = 0, io = 0;
        for (int64_t d = (int64_t)r - 1; d >= 0; d--) {
          int64_t q = rem % o.shape[d];
          rem /= o.shape[d];
          io += q * is[d];
          if (d != axis) ao += q * as[d];
        }
        out[t] = a[ao + idx[io] * as[axis]];
      }
    });
  });
}

enum Reduce { kAssign = 0, kAdd = 1, kMul = 2, kMean = 3, kAmin = 4, kAmax = 5 };

void k_put_along_axis(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &arr = c.input(0), &ind = c.input(1), &val = c.input(2), &o = c.output(0);
  c.expect_out_dtype(0, arr.dtype);
  c.expect_out_shape(0, arr.shape);
  const size_t r = arr.shape.size();
  if (r == 0) throw SkiffError("put_along_axis: arr must have at least one dim, got a 0-D tensor");
  if (c.attrs.size() != 4) throw SkiffError("put_along_axis: expected 4 attributes");
  const int64_t axis = axis_attr(c, r);
  const int64_t red = c.iattr(1);
  const bool include_self = c.iattr(2) != 0, bcast = c.iattr(3) != 0;
  if (red < kAssign || red > kAmax) throw SkiffError("put_along_axis: unknown reduce code " + std::to_string(red));
  if (val.dtype != arr.dtype) throw SkiffError(std::string("put_along_axis: values dtype ") + dtype_name(val.dtype) + " differs from arr dtype " + dtype_name(arr.dtype));
  if (ind.shape.size() != r) throw SkiffError("put_along_axis: indices " + shape_str(ind.shape) + " must have the rank of arr " + shape_str(arr.shape));
  // The iteration space: indices' shape, broadcast to arr's outside the axis when `broadcast`.
  std::vector<int64_t> S(r);
  for (size_t d = 0; d < r; d++) {
    if ((int64_t)d == axis) { S[d] = ind.shape[d]; continue; }
    bool ok = bcast ? (ind.shape[d] == 1 || ind.shape[d] == arr.shape[d]) : ind.shape[d] <= arr.shape[d];
    if (!ok) throw SkiffError("put_along_axis: indices " + shape_str(ind.shape) + " do not fit arr " + shape_str(arr.shape) + " outside axis " + std::to_string(axis) +
                              (bcast ? " (each dim must be 1 or arr's)" : " (each dim must be at most arr's)"));
    S[d] = bcast ? arr.shape[d] : ind.shape[d];
  }
  broadcast_strides(val, S, "put_along_axis");  // throws naming the op when values do not broadcast
  if (red != kAssign && arr.dtype == DType::Bool) throw SkiffError("put_along_axis: reduce needs a numeric dtype, got bool");
  auto idx = c.int64_values(1, "indices");
  const int64_t dim = arr.shape[axis];
  for (size_t p = 0; p < idx.size(); p++) check_index(c, idx[p], dim, (int64_t)p, axis, arr.shape, true);
  copy_into_out(c, 0);
  int64_t total = 1;
  for (auto d : S) total *= d;
  if (total == 0) return;
  const int64_t n = S[axis], lines = total / n;
  const Tensor& id = c.dense(1);
  auto is = read_strides(id, S);
  auto vs = broadcast_strides(val, S, "put_along_axis");
  auto os = o.strides;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    using V = compute_t<T>;
    T* out = o.data<T>();
    const T* v = val.data<T>();
    parallel_for(lines, std::max<int64_t>(1, 2048 / n), [&](int64_t b, int64_t e) {
      std::vector<int64_t> cnt((size_t)dim, 0);
      for (int64_t l = b; l < e; l++) {
        int64_t rem = l, oo = 0, io = 0, vo = 0;
        for (int64_t d = (int64_t)r - 1; d >= 0; d--) {
          if (d == axis) continue;
          int64_t q = rem % S[d];
          rem /= S[d];
          oo += q * os[d]; io += q * is[d]; vo += q * vs[d];
        }
        auto pos = [&](int64_t k) { return idx[io + k * is[axis]]; };
        if (red == kAssign) {
          for (int64_t k = 0; k < n; k++) out[oo + pos(k) * os[axis]] = v[vo + k * vs[axis]];
          continue;
        }
        for (int64_t k = 0; k < n; k++) cnt[pos(k)] = 0;
        for (int64_t k = 0; k < n; k++) cnt[pos(k)]++;
        if (!include_self) {
          // Targets start from the reduction's identity instead of arr's value.
          V ident = red == kMul ? V(1) : red == kAmin ? (std::numeric_limits<V>::has_infinity ? std::numeric_limits<V>::infinity() : std::numeric_limits<V>::max())
                  : red == kAmax ? (std::numeric_limits<V>::has_infinity ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::lowest()) : V(0);
          for (int64_t k = 0; k < n; k++) out[oo + pos(k) * os[axis]] = C::store(ident);
        }
        for (int64_t k = 0; k < n; k++) {
          T& dst = out[oo + pos(k) * os[axis]];
          V a = C::load(dst), w = C::load(v[vo + k * vs[axis]]);
          switch (red) {
            case kAdd: case kMean: a = a + w; break;
            case kMul: a = a * w; break;
            case kAmin: a = w < a ? w : a; break;
            default: a = w > a ? w : a; break;
          }
          dst = C::store(a);
        }
        if (red == kMean)
          for (int64_t k = 0; k < n; k++) {
            int64_t p = pos(k);
            if (cnt[p] == 0) continue;  // already divided (repeated index)
            T& dst = out[oo + p * os[axis]];
            dst = C::store(C::load(dst) / V(cnt[p] + (include_self ? 1 : 0)));
            cnt[p] = 0;
          }
      }
    });
  };
  if (red == kAssign) dispatch_all(arr.dtype, "put_along_axis", run);
  else dispatch_numeric(arr.dtype, "put_along_axis", run);
}

void k_index_fill(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &index = c.input(1), &o = c.output(0);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  const size_t r = x.shape.size();
  if (r == 0) throw SkiffError("index_fill: x must have at least one dim, got a 0-D tensor");
  const int64_t axis = axis_attr(c, r);
  if (index.shape.size() > 1) throw SkiffError("index_fill: index must be 0-D or 1-D, got " + shape_str(index.shape));
  const double value = c.attr(1);
  if (!fits_dtype(x.dtype, value)) throw SkiffError("index_fill: value " + std::to_string(value) + " is out of range for " + dtype_name(x.dtype));
  auto idx = c.int64_values(1, "index");
  const int64_t dim = x.shape[axis];
  for (size_t p = 0; p < idx.size(); p++) check_index(c, idx[p], dim, (int64_t)p, axis, x.shape, true);
  copy_into_out(c, 0);
  if (o.numel() == 0 || idx.empty()) return;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; d++) outer *= x.shape[d];
  for (size_t d = axis + 1; d < r; d++) inner *= x.shape[d];
  const int64_t n = (int64_t)idx.size();
  dispatch_all(x.dtype, "index_fill", [&](auto tag) {
    using T = decltype(tag);
    T fill = Compute<T>::store((compute_t<T>)value);
    T* out = o.data<T>();
    parallel_for(outer * n, std::max<int64_t>(1, 16384 / inner), [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; t++) {
        T* p = out + ((t / n) * dim + idx[t % n]) * inner;
        std::fill(p, p + inner, fill);
      }
    });
  });
}

}  // namespace

SKIFF_KERNEL("scatter", k_scatter);
SKIFF_KERNEL("scatter_nd_add", k_scatter_nd);
SKIFF_KERNEL("scatter_nd", k_scatter_nd);
SKIFF_KERNEL("take_along_axis", k_take_along_axis);
SKIFF_KERNEL("put_along_axis", k_put_along_axis);
SKIFF_KERNEL("index_fill", k_index_fill);

}  // namespace skiff
