// Sorting along one axis (definitions and attribute layouts: src/ops/defs/sort.ts): argsort
// (also the sort op's kernel), topk, kthvalue.
//
// The dense input is viewed as [outer, n, inner]; a lane is one (outer, inner) position, n
// elements `inner` apart. Each lane is gathered into (key, index) pairs, ordered, and written
// out; lanes are spread over threads. Keys stay in the storage type's compute type (int64 keeps
// every bit; halves compare as float, which orders them exactly).
//
// The order is total and deterministic: NaN above every number, and equal keys by index. That
// makes std::sort / partial_sort / nth_element give the stable result, so `stable` needs no
// separate path, and topk/kthvalue indices among ties are the first occurrences.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>
#include "../src/kernel.h"
#include "../src/threadpool.h"
#include "merge_sort.h"

namespace skiff {
namespace {

constexpr int64_t kSortGrain = 16384;  // elements per task, so short lanes are batched

struct Lanes {
  int64_t outer = 1, n = 1, inner = 1;
  int64_t count() const { return outer * inner; }
};

// Parses the axis attribute (normalised by the TS definition, checked again here).
Lanes lanes_of(const KernelCall& c, const Tensor& x, int64_t axis) {
  const int64_t rank = x.ndim();
  if (!(rank == 0 && axis == 0) && (axis < 0 || axis >= rank))
    throw SkiffError(std::string(c.op) + ": axis " + std::to_string(axis) + " is out of range for input shape " + shape_str(x.shape));
  Lanes l;
  if (rank == 0) return l;
  l.n = x.shape[(size_t)axis];
  for (int64_t d = 0; d < axis; d++) l.outer *= x.shape[(size_t)d];
  for (int64_t d = axis + 1; d < rank; d++) l.inner *= x.shape[(size_t)d];
  return l;
}

void check_sortable(const KernelCall& c, const Tensor& x) {
  switch (x.dtype) {
    case DType::F16: case DType::BF16: case DType::F32: case DType::F64: case DType::I32: case DType::I64: return;
    default:
      throw SkiffError(std::string(c.op) + ": expected a float16, bfloat16, float32, float64, int32 or int64 input, got " + dtype_name(x.dtype));
  }
}

template <typename K> inline bool is_nan(K v) { return v != v; }  // always false for integers

template <typename K> struct Entry { K key; int64_t i; };

// Strict total orders on entries: ascending (NaN last) or descending (NaN first), ties by index.
template <typename K> struct Ascending {
  bool operator()(const Entry<K>& a, const Entry<K>& b) const {
    const bool an = is_nan(a.key), bn = is_nan(b.key);
    if (an != bn) return bn;
    if (!an && a.key != b.key) return a.key < b.key;
    return a.i < b.i;
  }
};
template <typename K> struct Descending {
  bool operator()(const Entry<K>& a, const Entry<K>& b) const {
    const bool an = is_nan(a.key), bn = is_nan(b.key);
    if (an != bn) return an;
    if (!an && a.key != b.key) return a.key > b.key;
    return a.i < b.i;
  }
};

// The same orders for lanes without NaN (checked once per lane): no NaN tests per comparison.
template <typename K> struct PlainAscending {
  bool operator()(const Entry<K>& a, const Entry<K>& b) const { return a.key < b.key || (a.key == b.key && a.i < b.i); }
};
template <typename K> struct PlainDescending {
  bool operator()(const Entry<K>& a, const Entry<K>& b) const { return a.key > b.key || (a.key == b.key && a.i < b.i); }
};
template <typename K> bool any_nan(const std::vector<Entry<K>>& buf) {
  if constexpr (std::is_integral_v<K>) return false;
  for (const auto& e : buf) if (e.key != e.key) return true;
  return false;
}

// Sorts one lane, on threads when `threaded` (parallel_merge_sort), else with std::sort.
template <typename K, typename Less> void sort_lane(std::vector<Entry<K>>& buf, const Less& less, bool threaded) {
  if (threaded) parallel_merge_sort(buf, less);
  else std::sort(buf.begin(), buf.end(), less);
}

// Runs f(lane, base, buf) for every lane with buf holding its entries; base is the element
// offset of the lane's first element (elements at base + j * inner).
template <typename T, typename F>
void for_each_lane(const Tensor& x, const Lanes& l, const F& f) {
  using K = compute_t<T>;
  const T* px = x.data<T>();
  if (l.count() == 0) return;
  // Fewer lanes than threads: lanes run one after another and each may sort on threads itself
  // (argsort's parallel_merge_sort); otherwise lanes are the unit of parallel work.
  const int64_t grain = l.count() < num_threads() ? l.count() : std::max<int64_t>(1, kSortGrain / std::max<int64_t>(1, l.n));
  parallel_for(l.count(), grain, [&](int64_t b, int64_t e) {
    std::vector<Entry<K>> buf((size_t)l.n);
    for (int64_t lane = b; lane < e; lane++) {
      const int64_t base = (lane / l.inner) * l.n * l.inner + lane % l.inner;
      const T* p = px + base;
      for (int64_t j = 0; j < l.n; j++) buf[(size_t)j] = Entry<K>{(K)Compute<T>::load(p[j * l.inner]), j};
      f(lane, base, buf);
    }
  });
}


bool flag(const KernelCall& c, size_t i, const char* name) {
  const double v = c.attr(i);
  if (v != 0 && v != 1) throw SkiffError(std::string(c.op) + ": " + name + " must be 0 or 1, got " + std::to_string(v));
  return v != 0;
}

// argsort / sort: [axis, descending, stable]. Both outputs have x's shape.
void k_argsort(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(2);
  if (c.attrs.size() != 3) throw SkiffError(std::string(c.op) + ": expected attributes [axis, descending, stable]");
  const Tensor& x0 = c.input(0);
  check_sortable(c, x0);
  const Lanes l = lanes_of(c, x0, c.iattr(0));
  const bool desc = flag(c, 1, "descending");
  flag(c, 2, "stable");  // every order here is stable
  c.expect_out_shape(0, x0.shape);
  c.expect_out_shape(1, x0.shape);
  c.expect_out_dtype(0, x0.dtype);
  c.expect_out_dtype(1, DType::I64);
  const Tensor& x = c.dense(0);
  int64_t* idx = c.output(1).data<int64_t>();
  const bool few_lanes = l.count() < num_threads();
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using K = compute_t<T>;
    const T* px = x.data<T>();
    T* out = c.output(0).data<T>();
    for_each_lane<T>(x, l, [&](int64_t, int64_t base, std::vector<Entry<K>>& buf) {
      // With few lanes they run one by one (for_each_lane), so each may sort on threads.
      const bool nan = any_nan(buf);
      if (desc) nan ? sort_lane(buf, Descending<K>(), few_lanes) : sort_lane(buf, PlainDescending<K>(), few_lanes);
      else nan ? sort_lane(buf, Ascending<K>(), few_lanes) : sort_lane(buf, PlainAscending<K>(), few_lanes);
      for (int64_t j = 0; j < l.n; j++) {
        const int64_t src = buf[(size_t)j].i;
        out[base + j * l.inner] = px[base + src * l.inner];
        idx[base + j * l.inner] = src;
      }
    });
  });
}

// The head topk and kthvalue share: one input, two outputs, `nattrs` attributes laid out as
// `layout`, a sortable x, the lanes along attribute 0's axis and k (attribute 1) in [kmin, n],
// all checked before any data is read.
struct KSelect { Lanes l; int64_t axis, k; };

KSelect k_select_head(KernelCall& c, size_t nattrs, const char* layout, int64_t kmin) {
  c.expect_inputs(1);
  c.expect_outputs(2);
  if (c.attrs.size() != nattrs) throw SkiffError(std::string(c.op) + ": expected attributes " + layout);
  const Tensor& x0 = c.input(0);
  check_sortable(c, x0);
  KSelect s;
  s.axis = c.iattr(0);
  s.l = lanes_of(c, x0, s.axis);
  s.k = c.iattr(1);
  if (s.k < kmin || s.k > s.l.n)
    throw SkiffError(std::string(c.op) + ": k = " + std::to_string(s.k) + " is out of range [" + std::to_string(kmin) + ", " + std::to_string(s.l.n) +
                     "] for input shape " + shape_str(x0.shape) + " along axis " + std::to_string(s.axis));
  return s;
}

// Values in x's dtype and int64 indices, both of shape `oshape` (Paddle 2.6's outputs).
void expect_value_index_outs(KernelCall& c, const std::vector<int64_t>& oshape, DType dt) {
  c.expect_out_shape(0, oshape);
  c.expect_out_shape(1, oshape);
  c.expect_out_dtype(0, dt);
  c.expect_out_dtype(1, DType::I64);
}

// topk: [axis, k, largest, sorted]. Outputs have x's shape with the axis dim k.
void k_topk(KernelCall& c) {
  const KSelect sel = k_select_head(c, 4, "[axis, k, largest, sorted]", 0);
  const Tensor& x0 = c.input(0);
  const int64_t axis = sel.axis, k = sel.k;
  const Lanes l = sel.l;
  const bool largest = flag(c, 2, "largest");
  flag(c, 3, "sorted");  // the result is always sorted
  std::vector<int64_t> oshape = x0.shape;
  if (!oshape.empty()) oshape[(size_t)axis] = k;
  expect_value_index_outs(c, oshape, x0.dtype);
  if (k == 0) return;
  const Tensor& x = c.dense(0);
  int64_t* idx = c.output(1).data<int64_t>();
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using K = compute_t<T>;
    const T* px = x.data<T>();
    T* out = c.output(0).data<T>();
    for_each_lane<T>(x, l, [&](int64_t lane, int64_t base, std::vector<Entry<K>>& buf) {
      const auto mid = buf.begin() + (ptrdiff_t)k;
      if (largest) std::partial_sort(buf.begin(), mid, buf.end(), Descending<K>());
      else std::partial_sort(buf.begin(), mid, buf.end(), Ascending<K>());
      const int64_t obase = (lane / l.inner) * k * l.inner + lane % l.inner;
      for (int64_t j = 0; j < k; j++) {
        const int64_t src = buf[(size_t)j].i;
        out[obase + j * l.inner] = px[base + src * l.inner];
        idx[obase + j * l.inner] = src;
      }
    });
  });
}

// kthvalue: [axis, k, keepdim]. The k-th smallest (1-based) of each lane and its index.
void k_kthvalue(KernelCall& c) {
  const KSelect sel = k_select_head(c, 3, "[axis, k, keepdim]", 1);
  const Tensor& x0 = c.input(0);
  const int64_t axis = sel.axis, k = sel.k;
  const Lanes l = sel.l;
  const bool keepdim = flag(c, 2, "keepdim");
  std::vector<int64_t> oshape;
  for (int64_t d = 0; d < x0.ndim(); d++) {
    if (d != axis) oshape.push_back(x0.shape[(size_t)d]);
    else if (keepdim) oshape.push_back(1);
  }
  expect_value_index_outs(c, oshape, x0.dtype);
  const Tensor& x = c.dense(0);
  int64_t* idx = c.output(1).data<int64_t>();
  dispatch_float_i32_i64(x.dtype, c.op, "x", [&](auto tag) {
    using T = decltype(tag);
    using K = compute_t<T>;
    const T* px = x.data<T>();
    T* out = c.output(0).data<T>();
    for_each_lane<T>(x, l, [&](int64_t lane, int64_t base, std::vector<Entry<K>>& buf) {
      std::nth_element(buf.begin(), buf.begin() + (ptrdiff_t)(k - 1), buf.end(), Ascending<K>());
      const int64_t src = buf[(size_t)(k - 1)].i;
      out[lane] = px[base + src * l.inner];  // lanes are numbered in output order
      idx[lane] = src;
    });
  });
}

}  // namespace
SKIFF_KERNEL("argsort", k_argsort);
SKIFF_KERNEL("topk", k_topk);
SKIFF_KERNEL("kthvalue", k_kthvalue);
}  // namespace skiff
