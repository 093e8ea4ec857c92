// Searching sorted sequences and counting into bins (definitions and attribute layouts:
// src/ops/defs/search.ts): searchsorted, bucketize, histogram.
//
// searchsorted runs one binary search per value, values spread over threads. histogram counts
// fixed chunks of the input into private rows (no atomics), then adds the rows; the chunk
// count depends only on sizes, so results never depend on the thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>
#include "../src/kernel.h"
#include "../src/threadpool.h"

namespace skiff {
namespace {

template <typename F> void dispatch_search(DType d, const char* op, const char* what, F&& f) {
  switch (d) {
    case DType::F32: f(float{}); return;
    case DType::F64: f(double{}); return;
    case DType::I32: f(int32_t{}); return;
    case DType::I64: f(int64_t{}); return;
    default: throw SkiffError(std::string(op) + ": " + what + " must be float32, float64, int32 or int64, got " + dtype_name(d));
  }
}

template <typename V> inline bool non_finite(V v) {
  if constexpr (std::is_floating_point_v<V>) return !std::isfinite(v);
  else return false;
}

// First index in seq[0, n) whose element is >= v (right: > v), comparing in the common type.
template <typename S, typename V>
inline int64_t bound(const S* seq, int64_t n, V v, bool right) {
  using C = std::common_type_t<S, V>;
  const C cv = (C)v;
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const C m = (C)seq[mid];
    if (right ? !(cv < m) : m < cv) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Shared by searchsorted (seq = input 0) and bucketize (seq = input 1); attrs [out_int32, right].
void search_impl(KernelCall& c, size_t seq_i, size_t val_i, const char* seq_name, const char* val_name) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  if (c.attrs.size() != 2) throw SkiffError(std::string(c.op) + ": expected attributes [out_int32, right]");
  const Tensor& s0 = c.input(seq_i);
  const Tensor& v0 = c.input(val_i);
  dispatch_search(s0.dtype, c.op, seq_name, [](auto) {});
  dispatch_search(v0.dtype, c.op, val_name, [](auto) {});
  const int64_t sr = s0.ndim();
  if (sr == 0) throw SkiffError(std::string(c.op) + ": " + seq_name + " must have at least one dim, got shape []");
  if (sr > 1) {
    bool ok = v0.ndim() == sr;
    for (int64_t d = 0; ok && d < sr - 1; d++) ok = s0.shape[(size_t)d] == v0.shape[(size_t)d];
    if (!ok) throw SkiffError(std::string(c.op) + ": " + seq_name + " of shape " + shape_str(s0.shape) + " needs " + val_name + " with the same leading dims, got " + shape_str(v0.shape));
  }
  const bool out_int32 = c.attr(0) != 0, right = c.attr(1) != 0;
  const int64_t n = s0.shape[(size_t)(sr - 1)];
  if (out_int32 && n > std::numeric_limits<int32_t>::max())
    throw SkiffError(std::string(c.op) + ": " + seq_name + " has " + std::to_string(n) + " elements per row, too many for out_int32");
  c.expect_out_shape(0, v0.shape);
  c.expect_out_dtype(0, out_int32 ? DType::I32 : DType::I64);
  const Tensor& s = c.dense(seq_i);
  const Tensor& v = c.dense(val_i);
  const int64_t nv = v.numel();
  // Values per sequence row: a 1-D sequence serves all of them.
  const int64_t row = sr == 1 ? std::max<int64_t>(nv, 1) : (v.ndim() ? v.shape.back() : 1);
  Tensor& out = c.output(0);
  dispatch_search(s.dtype, c.op, seq_name, [&](auto st) {
    using S = decltype(st);
    dispatch_search(v.dtype, c.op, val_name, [&](auto vt) {
      using V = decltype(vt);
      const S* ps = s.data<S>();
      const V* pv = v.data<V>();
      parallel_for(nv, 4096, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; i++) {
          const V x = pv[i];
          const int64_t r = non_finite(x) ? n : bound(ps + (i / row) * n, n, x, right);
          if (out_int32) out.data<int32_t>()[i] = (int32_t)r;
          else out.data<int64_t>()[i] = r;
        }
      });
    });
  });
}

void k_searchsorted(KernelCall& c) { search_impl(c, 0, 1, "sorted_sequence", "values"); }

void k_bucketize(KernelCall& c) {
  c.expect_inputs(2);
  if (c.input(1).ndim() != 1) throw SkiffError("bucketize: sorted_sequence must be 1-D, got shape " + shape_str(c.input(1).shape));
  search_impl(c, 1, 0, "sorted_sequence", "x");
}

constexpr int64_t kHistChunk = 1 << 16;
constexpr int64_t kHistCells = 1 << 22;  // cap on chunks * bins private counters

// histogram: [bins, min, max].
void k_histogram(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  if (c.attrs.size() != 3) throw SkiffError("histogram: expected attributes [bins, min, max]");
  const int64_t bins = c.iattr(0);
  if (bins < 1) throw SkiffError("histogram: bins must be a positive int, got " + std::to_string(bins));
  const Tensor& x0 = c.input(0);
  dispatch_search(x0.dtype, c.op, "input", [](auto) {});
  c.expect_out_shape(0, {bins});
  c.expect_out_dtype(0, DType::I64);
  const Tensor& x = c.dense(0);
  const int64_t n = x.numel();
  int64_t* out = c.output(0).data<int64_t>();
  std::fill(out, out + bins, 0);
  dispatch_search(x.dtype, c.op, "input", [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    // As Paddle: min/max take the input's type first (integers truncate), and equal bounds mean
    // the data's own range.
    if (!std::isfinite(c.attr(1)) || !std::isfinite(c.attr(2)))
      throw SkiffError("histogram: min and max must be finite, got min=" + std::to_string(c.attr(1)) + ", max=" + std::to_string(c.attr(2)));
    auto as_t = [](double d) {  // clamped first: an out-of-range float-to-int cast is undefined
      const double l = (double)std::numeric_limits<T>::lowest(), h = std::nextafter((double)std::numeric_limits<T>::max(), 0.0);
      return (double)(T)std::clamp(d, l, h);
    };
    double lo = as_t(c.attr(1)), hi = as_t(c.attr(2));
    if (hi < lo) throw SkiffError("histogram: max must be larger than or equal to min, got min=" + std::to_string(lo) + ", max=" + std::to_string(hi));
    const int64_t chunks = std::max<int64_t>(1, std::min((n + kHistChunk - 1) / kHistChunk, std::max<int64_t>(1, kHistCells / bins)));
    const int64_t per = (n + chunks - 1) / std::max<int64_t>(chunks, 1);
    if (lo == hi) {
      std::vector<double> mins((size_t)chunks, std::numeric_limits<double>::infinity()), maxs((size_t)chunks, -std::numeric_limits<double>::infinity());
      parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; t++) {
          double mn = mins[(size_t)t], mx = maxs[(size_t)t];
          for (int64_t i = t * per, end = std::min(n, (t + 1) * per); i < end; i++) {
            const double v = (double)px[i];
            if (v < mn) mn = v;  // NaN fails both comparisons: ignored
            if (v > mx) mx = v;
          }
          mins[(size_t)t] = mn; maxs[(size_t)t] = mx;
        }
      });
      lo = *std::min_element(mins.begin(), mins.end());
      hi = *std::max_element(maxs.begin(), maxs.end());
      if (!(lo <= hi)) lo = hi = 0;  // empty or all-NaN input
      if (!std::isfinite(lo) || !std::isfinite(hi))
        throw SkiffError("histogram: the range of the input [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is not finite; give min and max");
      if (lo == hi) { lo -= 1; hi += 1; }
    }
    if (n == 0) return;
    std::vector<int64_t> rows((size_t)(chunks > 1 ? chunks * bins : 0));
    const double width = hi - lo;
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; t++) {
        int64_t* h = chunks > 1 ? rows.data() + t * bins : out;
        for (int64_t i = t * per, end = std::min(n, (t + 1) * per); i < end; i++) {
          const double v = (double)px[i];
          if (!(v >= lo && v <= hi)) continue;
          const int64_t k = std::min<int64_t>((int64_t)((v - lo) * (double)bins / width), bins - 1);
          h[k]++;
        }
      }
    });
    if (chunks > 1) {
      for (int64_t t = 0; t < chunks; t++)
        for (int64_t k = 0; k < bins; k++) out[k] += rows[(size_t)(t * bins + k)];
    }
  });
}

}  // namespace
SKIFF_KERNEL("searchsorted", k_searchsorted);
SKIFF_KERNEL("bucketize", k_bucketize);
SKIFF_KERNEL("histogram", k_histogram);
}  // namespace skiff
