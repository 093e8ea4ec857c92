// Ops with data-dependent output lengths (definitions and attribute layouts:
// src/ops/defs/unique.ts): unique, unique_consecutive, bincount. Their data-dependent outputs
// arrive as placeholders; the kernel validates, computes the length, then alloc_output()s.
//
// unique / unique_consecutive view the dense input as [outer, n, inner] along the axis (the
// flattened case is [1, numel, 1]); slice j is every (o, i) element at j, compared
// lexicographically in (o, i) order, i.e. the rows of x with the axis moved to the front. The
// slices are copied into a row-major key matrix once, so every comparison reads contiguous
// memory. unique sorts slice numbers with parallel_merge_sort (merge_sort.h); the order is
// total (NaN above numbers, ties by slice number), so the result is the stable one whatever the
// thread count.
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>
#include "../src/kernel.h"
#include "../src/threadpool.h"
#include "merge_sort.h"

namespace skiff {
namespace {


struct View { int64_t outer = 1, n = 0, inner = 1, axis = -1; };  // axis -1: flattened

View view_of(const KernelCall& c, const Tensor& x, double axis_attr) {
  View v;
  if (axis_attr == -1) { v.n = x.numel(); return v; }
  if (!(axis_attr >= 0 && axis_attr < (double)x.ndim() && axis_attr == (double)(int64_t)axis_attr))
    throw SkiffError(std::string(c.op) + ": axis " + std::to_string(axis_attr) + " is out of range for input shape " + shape_str(x.shape));
  const int64_t a = (int64_t)axis_attr;
  v.axis = a;
  v.n = x.shape[(size_t)a];
  for (int64_t d = 0; d < a; d++) v.outer *= x.shape[(size_t)d];
  for (int64_t d = a + 1; d < x.ndim(); d++) v.inner *= x.shape[(size_t)d];
  return v;
}

// Index outputs may be int32 or int64 (the op's dtype attribute); checked before any write.
void check_index_out(const KernelCall& c, size_t i) {
  const DType d = c.out[i]->dtype;
  if (d != DType::I32 && d != DType::I64) throw SkiffError(std::string(c.op) + ": index outputs must be int32 or int64, got " + dtype_name(d));
}
inline void put_index(Tensor& t, int64_t i, int64_t v) {
  if (t.dtype == DType::I32) t.data<int32_t>()[i] = (int32_t)v;
  else t.data<int64_t>()[i] = v;
}

template <typename K> inline bool is_nan(K v) { return v != v; }

// Slices as rows of a key matrix [n, S] in compute type.
template <typename K> struct Rows {
  std::vector<K> keys;
  int64_t n = 0, S = 0;
  const K* row(int64_t j) const { return keys.data() + j * S; }
  // Lexicographic, NaN above numbers, ties by slice number: a strict total order.
  bool less(int64_t a, int64_t b) const {
    const K *ra = row(a), *rb = row(b);
    for (int64_t s = 0; s < S; s++) {
      const bool an = is_nan(ra[s]), bn = is_nan(rb[s]);
      if (an != bn) return bn;
      if (!an && ra[s] != rb[s]) return ra[s] < rb[s];
    }
    return a < b;
  }
  // Element-wise ==: a NaN never equals anything, as Paddle's std::unique.
  bool equal(int64_t a, int64_t b) const {
    const K *ra = row(a), *rb = row(b);
    for (int64_t s = 0; s < S; s++) if (!(ra[s] == rb[s])) return false;
    return true;
  }
};

template <typename T>
Rows<compute_t<T>> make_rows(const Tensor& x, const View& v) {
  Rows<compute_t<T>> r;
  r.n = v.n;
  r.S = v.outer * v.inner;
  r.keys.resize((size_t)(r.n * r.S));
  const T* px = x.data<T>();
  parallel_for(v.n, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, r.S)), [&](int64_t b, int64_t e) {
    for (int64_t j = b; j < e; j++)
      for (int64_t o = 0; o < v.outer; o++)
        for (int64_t i = 0; i < v.inner; i++)
          r.keys[(size_t)(j * r.S + o * v.inner + i)] = Compute<T>::load(px[(o * v.n + j) * v.inner + i]);
  });
  return r;
}

struct Slots { int index = -1, inverse = -1, counts = -1; };

// Groups the slices in `order` (sorted for unique, identity for unique_consecutive) into runs of
// equal slices, allocates and fills the outputs.
template <typename T>
void emit(KernelCall& c, const Tensor& x, const View& v, const Rows<compute_t<T>>& rows, const std::vector<int64_t>& order, const Slots& sl) {
  std::vector<int64_t> start;  // positions in `order` where a group starts
  for (int64_t k = 0; k < v.n; k++)
    if (k == 0 || !rows.equal(order[(size_t)k - 1], order[(size_t)k])) start.push_back(k);
  const int64_t u = (int64_t)start.size();
  start.push_back(v.n);
  std::vector<int64_t> oshape = x.shape;
  if (v.axis < 0) oshape = {u};
  else oshape[(size_t)v.axis] = u;
  Tensor& out = c.alloc_output(0, oshape);
  Tensor* index = sl.index >= 0 ? &c.alloc_output((size_t)sl.index, {u}) : nullptr;
  Tensor* counts = sl.counts >= 0 ? &c.alloc_output((size_t)sl.counts, {u}) : nullptr;
  Tensor* inverse = sl.inverse >= 0 ? &c.output((size_t)sl.inverse) : nullptr;
  const T* px = x.data<T>();
  T* po = out.data<T>();
  parallel_for(u, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, rows.S)), [&](int64_t b, int64_t e) {
    for (int64_t g = b; g < e; g++) {
      const int64_t rep = order[(size_t)start[(size_t)g]];  // the group's first slice (stable order)
      for (int64_t o = 0; o < v.outer; o++)
        std::memcpy(po + (o * u + g) * v.inner, px + (o * v.n + rep) * v.inner, (size_t)v.inner * sizeof(T));
      if (index) put_index(*index, g, rep);
      if (counts) put_index(*counts, g, start[(size_t)g + 1] - start[(size_t)g]);
      if (inverse) for (int64_t k = start[(size_t)g]; k < start[(size_t)g + 1]; k++) put_index(*inverse, order[(size_t)k], g);
    }
  });
}

// Common checks of unique / unique_consecutive; returns the view and output slots.
View check_unique(KernelCall& c, bool ret_index, bool ret_inverse, bool ret_counts, double axis, Slots& sl) {
  c.expect_inputs(1);
  const size_t n_out = 1 + (ret_index ? 1 : 0) + (ret_inverse ? 1 : 0) + (ret_counts ? 1 : 0);
  c.expect_outputs(n_out);
  const Tensor& x = c.input(0);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [](auto) {});
  const View v = view_of(c, x, axis);
  int next = 1;
  if (ret_index) sl.index = next++;
  if (ret_inverse) sl.inverse = next++;
  if (ret_counts) sl.counts = next++;
  for (size_t i = 0; i < n_out; i++) {
    if (i == 0 && c.out[0]->dtype != x.dtype)
      throw SkiffError(std::string(c.op) + ": output dtype " + dtype_name(c.out[0]->dtype) + " does not match the input's " + dtype_name(x.dtype));
    if (i > 0) check_index_out(c, i);
    if ((int)i != sl.inverse && !c.is_placeholder(i)) throw SkiffError(std::string(c.op) + ": output " + std::to_string(i) + " must be data-dependent");
  }
  if (sl.inverse >= 0) c.expect_out_shape((size_t)sl.inverse, {v.n});
  return v;
}

// unique and unique_consecutive differ only in whether rows are sorted before runs of equal
// rows are collapsed (stable merge sort, so first indices stay the earliest occurrence).
void run_unique(KernelCall& c, const View& v, const Slots& sl, bool sorted) {
  const Tensor& x = c.dense(0);
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    const auto rows = make_rows<T>(x, v);
    std::vector<int64_t> order((size_t)v.n);
    std::iota(order.begin(), order.end(), 0);
    if (sorted) parallel_merge_sort(order, [&](int64_t a, int64_t b) { return rows.less(a, b); });
    emit<T>(c, x, v, rows, order, sl);
  });
}

void k_unique(KernelCall& c) {
  if (c.attrs.size() != 4) throw SkiffError("unique: expected attributes [return_index, return_inverse, return_counts, axis]");
  Slots sl;
  const View v = check_unique(c, c.attr(0) != 0, c.attr(1) != 0, c.attr(2) != 0, c.attr(3), sl);
  run_unique(c, v, sl, true);
}

void k_unique_consecutive(KernelCall& c) {
  if (c.attrs.size() != 3) throw SkiffError("unique_consecutive: expected attributes [return_inverse, return_counts, axis]");
  Slots sl;
  const View v = check_unique(c, false, c.attr(0) != 0, c.attr(1) != 0, c.attr(2), sl);
  run_unique(c, v, sl, false);
}

constexpr int64_t kBinChunk = 1 << 16;
constexpr int64_t kBinCells = 1 << 22;        // cap on chunks * length private counters
constexpr int64_t kBinMaxLen = int64_t(1) << 40;  // beyond any memory: refuse before allocating

// bincount: [minlength]; inputs x (1-D int32/int64) and optional weights.
void k_bincount(KernelCall& c) {
  if (c.in.size() != 1 && c.in.size() != 2) throw SkiffError("bincount: expected x and optional weights, got " + std::to_string(c.in.size()) + " inputs");
  c.expect_outputs(1);
  if (c.attrs.size() != 1) throw SkiffError("bincount: expected attribute [minlength]");
  const int64_t minlength = c.iattr(0);
  if (minlength < 0) throw SkiffError("bincount: minlength must be a non-negative int, got " + std::to_string(minlength));
  const Tensor& x0 = c.input(0);
  if (x0.dtype != DType::I32 && x0.dtype != DType::I64) throw SkiffError(std::string("bincount: x must be int32 or int64, got ") + dtype_name(x0.dtype));
  if (x0.ndim() != 1) throw SkiffError("bincount: x must be 1-D, got shape " + shape_str(x0.shape));
  const bool weighted = c.in.size() == 2;
  if (weighted) {
    const Tensor& w = c.input(1);
    if (w.shape != x0.shape) throw SkiffError("bincount: weights of shape " + shape_str(w.shape) + " must have x's shape " + shape_str(x0.shape));
    if (w.dtype != DType::F32 && w.dtype != DType::F64 && w.dtype != DType::I32 && w.dtype != DType::I64)
      throw SkiffError(std::string("bincount: weights must be float32, float64, int32 or int64, got ") + dtype_name(w.dtype));
  }
  if (!c.is_placeholder(0)) throw SkiffError("bincount: output 0 must be data-dependent");
  const DType want = !weighted ? DType::I64 : c.input(1).dtype == DType::F32 ? DType::F32 : DType::F64;
  if (c.out[0]->dtype != want)
    throw SkiffError(std::string("bincount: output has dtype ") + dtype_name(c.out[0]->dtype) + ", expected " + dtype_name(want));
  const Tensor& x = c.dense(0);
  const int64_t n = x.numel();
  const int64_t chunks = std::max<int64_t>(1, (n + kBinChunk - 1) / kBinChunk);
  const int64_t per = (n + chunks - 1) / chunks;
  int64_t len = minlength;
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto xt) {
    using X = decltype(xt);
    if constexpr (std::is_integral_v<X>) {
      const X* px = x.data<X>();
      std::vector<int64_t> lo((size_t)chunks, 0), hi((size_t)chunks, -1);
      parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; t++) {
          int64_t mn = std::numeric_limits<int64_t>::max(), mx = -1;
          for (int64_t i = t * per, end = std::min(n, (t + 1) * per); i < end; i++) { mn = std::min<int64_t>(mn, px[i]); mx = std::max<int64_t>(mx, px[i]); }
          lo[(size_t)t] = mn; hi[(size_t)t] = mx;
        }
      });
      if (n > 0) {
        const int64_t mn = *std::min_element(lo.begin(), lo.end()), mx = *std::max_element(hi.begin(), hi.end());
        if (mn < 0) throw SkiffError("bincount: the elements of x must be non-negative, got " + std::to_string(mn));
        if (mx >= kBinMaxLen) throw SkiffError("bincount: the largest element " + std::to_string(mx) + " needs an output too large to allocate");
        len = std::max(len, mx + 1);
      }
      Tensor& out = c.alloc_output(0, {len});
      if (n == 0) return;
      // Private rows per chunk when they fit (no atomics), else one serial pass.
      const int64_t rows = chunks > 1 && chunks * len <= kBinCells ? chunks : 1;
      auto count = [&](auto acc_tag, auto get_w) {
        using A = decltype(acc_tag);
        A* po = out.data<A>();
        if (rows == 1) {
          for (int64_t i = 0; i < n; i++) po[px[i]] += get_w(i);
          return;
        }
        std::vector<A> part((size_t)(rows * len), A(0));
        parallel_for(rows, 1, [&](int64_t b, int64_t e) {
          for (int64_t t = b; t < e; t++) {
            A* h = part.data() + t * len;
            for (int64_t i = t * per, end = std::min(n, (t + 1) * per); i < end; i++) h[px[i]] += get_w(i);
          }
        });
        for (int64_t t = 0; t < rows; t++) for (int64_t k = 0; k < len; k++) po[k] += part[(size_t)(t * len + k)];
      };
      if (!weighted) { count(int64_t{}, [](int64_t) { return int64_t(1); }); return; }
      const Tensor& w = c.dense(1);
      dispatch_float_i32_i64(w.dtype, c.op, "x", [&](auto wt) {
        using W = decltype(wt);
        if constexpr (std::is_same_v<W, f16> || std::is_same_v<W, bf16>) {
          throw SkiffError("bincount: weights must be float32, float64, int32 or int64");
        } else {
          const W* pw = w.data<W>();
          if constexpr (std::is_same_v<W, float>) count(float{}, [&](int64_t i) { return pw[i]; });
          else count(double{}, [&](int64_t i) { return (double)pw[i]; });
        }
      });
    } else {
      throw SkiffError(std::string("bincount: x must be int32 or int64, got ") + dtype_name(x.dtype));
    }
  });
}

}  // namespace
SKIFF_KERNEL("unique", k_unique);
SKIFF_KERNEL("unique_consecutive", k_unique_consecutive);
SKIFF_KERNEL("bincount", k_bincount);
}  // namespace skiff
