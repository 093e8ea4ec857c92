// Order statistics (definitions and attribute layouts: src/ops/defs/reduce_order.ts): median,
// nanmedian, quantile, mode. Each output's slice (the reduced dims, row-major) is gathered into
// a double buffer, then selected (nth_element) or sorted; outputs are spread over threads.
// Values go through double, so int64 inputs beyond 2^53 lose their low bits.
#include <algorithm>
#include <cmath>
#include <limits>
#include "reduce.h"

namespace skiff {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Offsets of every element of one output's slice, and an odometer over the kept dims.
struct Slices {
  std::vector<int64_t> red_off;
  Odometer kept;
  int64_t n_out = 1;
  int64_t inner = 1;  // size of the last dim when it is kept (its outputs are adjacent in memory)
};

Slices make_slices(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  Slices s;
  auto strides = contiguous_strides(shape);
  Odometer red;
  int64_t n_red = 1;
  for (size_t d = 0; d < shape.size(); d++) {
    if (reduced[d]) { red.add(shape[d], strides[d]); n_red *= shape[d]; }
    else { s.kept.add(shape[d], strides[d]); s.n_out *= shape[d]; }
  }
  if (!shape.empty() && !reduced.back()) s.inner = shape.back();
  s.red_off.resize((size_t)n_red);
  if (n_red > 0) {
    red.seek(0);
    for (int64_t j = 0; j < n_red; j++, red.next()) s.red_off[(size_t)j] = red.off;
  }
  return s;
}

// Runs f(o, buf) for every output o with buf holding its slice as doubles (f may reorder buf).
// When the last dim is kept (`inner` > 1 consecutive outputs sit next to each other in every
// row of the slice), kBlock outputs are gathered together so each row read is contiguous rather
// than one cache line per element.
constexpr int64_t kBlock = 16;

template <typename F>
void for_each_slice(const Tensor& x, const Slices& s, int64_t inner, const char* op, const F& f) {
  if (s.n_out == 0) return;
  const int64_t n = (int64_t)s.red_off.size();
  dispatch_nonbool(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    parallel_for(s.n_out, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, n)), [&](int64_t b, int64_t e) {
      std::vector<double> buf((size_t)n);
      std::vector<std::vector<double>> blk;
      Odometer ko = s.kept;
      ko.seek(b);
      for (int64_t o = b; o < e;) {
        const T* base = px + ko.off;
        if (inner > 1 && n > 1 && o % inner + kBlock <= inner && o + kBlock <= e) {
          if (blk.empty()) blk.assign((size_t)kBlock, std::vector<double>((size_t)n));
          for (int64_t j = 0; j < n; j++) {
            const T* row = base + s.red_off[(size_t)j];
            for (int64_t t = 0; t < kBlock; t++) blk[(size_t)t][(size_t)j] = (double)Compute<T>::load(row[t]);
          }
          for (int64_t t = 0; t < kBlock; t++, o++, ko.next()) f(o, blk[(size_t)t]);
          continue;
        }
        for (int64_t j = 0; j < n; j++) buf[(size_t)j] = (double)Compute<T>::load(base[s.red_off[(size_t)j]]);
        f(o, buf);
        o++;
        ko.next();
      }
    });
  });
}

// Parses [n_axes, axis..., keepdim] and checks output 0's shape (with `lead` prepended).
ReduceArgs check_order(KernelCall& c, size_t n_out, std::vector<int64_t> lead = {}) {
  c.expect_inputs(1);
  c.expect_outputs(n_out);
  const Tensor& x = c.input(0);
  if (x.dtype == DType::Bool || x.dtype == DType::I8 || x.dtype == DType::U8)
    throw SkiffError(std::string(c.op) + ": expected a float16, bfloat16, float32, float64, int32 or int64 input, got " + dtype_name(x.dtype));
  ReduceArgs a = parse_reduce(c, x);
  lead.insert(lead.end(), a.out_shape.begin(), a.out_shape.end());
  for (size_t i = 0; i < n_out; i++) c.expect_out_shape(i, lead);
  return a;
}

bool has_nan(const std::vector<double>& v, size_t n) {
  for (size_t i = 0; i < n; i++) if (v[i] != v[i]) return true;
  return false;
}

// Median of v[0, n) (n > 0, no NaN): the middle value, or the mean of the two middle values.
double middle(std::vector<double>& v, size_t n, bool lower_only) {
  const size_t k = (n - 1) / 2;
  std::nth_element(v.begin(), v.begin() + (ptrdiff_t)k, v.begin() + (ptrdiff_t)n);
  const double lo = v[k];
  if (lower_only || n % 2 == 1) return lo;
  const double hi = *std::min_element(v.begin() + (ptrdiff_t)k + 1, v.begin() + (ptrdiff_t)n);
  return lo + (hi - lo) / 2;  // no overflow for large values of one sign
}

void k_median(KernelCall& c) {
  ReduceArgs a = check_order(c, 1);
  if (c.attrs.size() != a.next_attr + 1) throw SkiffError("median: expected attributes [n_axes, axis..., keepdim, mode]");
  const bool lower = c.attr(a.next_attr) != 0;
  const Tensor& x = c.dense(0);
  if (lower) c.expect_out_dtype(0, x.dtype);
  else c.expect_out_dtype(0, x.dtype == DType::F64 ? DType::F64 : DType::F32);
  Slices s = make_slices(x.shape, a.reduced);
  std::vector<double> res((size_t)s.n_out);
  for_each_slice(x, s, s.inner, c.op, [&](int64_t o, std::vector<double>& v) {
    res[(size_t)o] = v.empty() || has_nan(v, v.size()) ? kNaN : middle(v, v.size(), lower);
  });
  store_results(res, c.output(0), c.op);
}

void k_nanmedian(KernelCall& c) {
  ReduceArgs a = check_order(c, 1);
  const Tensor& x = c.dense(0);
  c.expect_out_dtype(0, x.dtype);
  Slices s = make_slices(x.shape, a.reduced);
  std::vector<double> res((size_t)s.n_out);
  for_each_slice(x, s, s.inner, c.op, [&](int64_t o, std::vector<double>& v) {
    const size_t m = (size_t)(std::partition(v.begin(), v.end(), [](double e) { return e == e; }) - v.begin());
    res[(size_t)o] = m == 0 ? kNaN : middle(v, m, false);
  });
  store_results(res, c.output(0), c.op);
}

void k_quantile(KernelCall& c) {
  c.expect_inputs(1);
  const Tensor& x0 = c.input(0);
  if (!is_floating(x0.dtype)) throw SkiffError(std::string("quantile: expected a floating-point input, got ") + dtype_name(x0.dtype));
  ReduceArgs pa = parse_reduce(c, x0);
  const size_t qi = pa.next_attr;
  if (c.attrs.size() <= qi) throw SkiffError("quantile: expected attributes [n_axes, axis..., keepdim, n_q, q...]");
  const int64_t nq = c.iattr(qi);
  if (nq < 1 || c.attrs.size() != qi + 1 + (size_t)nq) throw SkiffError("quantile: expected " + std::to_string(nq) + " q values");
  std::vector<double> qs((size_t)nq);
  for (int64_t i = 0; i < nq; i++) {
    qs[(size_t)i] = c.attr(qi + 1 + (size_t)i);
    if (!(qs[(size_t)i] >= 0 && qs[(size_t)i] <= 1)) throw SkiffError("quantile: q must be in [0, 1], got " + std::to_string(qs[(size_t)i]));
  }
  ReduceArgs a = check_order(c, 1, {nq});
  const Tensor& x = c.dense(0);
  c.expect_out_dtype(0, x.dtype);
  Slices s = make_slices(x.shape, a.reduced);
  std::vector<double> res((size_t)(s.n_out * nq));
  const int64_t n_out = s.n_out;
  for_each_slice(x, s, s.inner, c.op, [&](int64_t o, std::vector<double>& v) {
    const size_t n = v.size();
    const bool nan = n == 0 || has_nan(v, n);
    if (!nan) {
      // Only the order statistics the q values need: successive selections on the shrinking
      // right part (after nth_element at k, everything to the right is >= v[k]).
      std::vector<size_t> need;
      for (double q : qs) {
        const size_t lo = (size_t)std::floor(q * (double)(n - 1));
        need.push_back(lo);
        need.push_back(std::min(n - 1, lo + 1));
      }
      std::sort(need.begin(), need.end());
      need.erase(std::unique(need.begin(), need.end()), need.end());
      size_t from = 0;
      for (size_t k : need) {
        std::nth_element(v.begin() + (ptrdiff_t)from, v.begin() + (ptrdiff_t)k, v.end());
        from = k + 1;
      }
    }
    for (int64_t i = 0; i < nq; i++) {
      double r = kNaN;
      if (!nan) {
        const double pos = qs[(size_t)i] * (double)(n - 1);
        const size_t lo = (size_t)std::floor(pos), hi = std::min(n - 1, lo + 1);
        r = v[lo] + (v[hi] - v[lo]) * (pos - (double)lo);
      }
      res[(size_t)(i * n_out + o)] = r;
    }
  });
  store_results(res, c.output(0), c.op);
}

// mode: the most frequent value (ties: the smallest), index of its last occurrence. NaNs count as equal.
void k_mode(KernelCall& c) {
  ReduceArgs a = check_order(c, 2);
  const Tensor& x = c.dense(0);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_dtype(1, DType::I64);
  Slices s = make_slices(x.shape, a.reduced);
  if (s.red_off.empty() && s.n_out > 0)
    throw SkiffError("mode: cannot take the mode of an empty dimension (input shape " + shape_str(x.shape) + ")");
  std::vector<double> vals((size_t)s.n_out);
  int64_t* idx = c.output(1).data<int64_t>();
  for_each_slice(x, s, s.inner, c.op, [&](int64_t o, std::vector<double>& v) {
    // Sort a copy of the values (NaNs partitioned to the end, counting as one value), take the
    // longest run (the first, i.e. smallest, among equally long ones), then find the last
    // occurrence of that value in the slice order.
    std::vector<double> w(v);
    const size_t m = (size_t)(std::partition(w.begin(), w.end(), [](double e) { return e == e; }) - w.begin());
    std::sort(w.begin(), w.begin() + (ptrdiff_t)m);
    double best = w[0];
    size_t best_len = 0;
    for (size_t i = 0; i < m;) {
      size_t j = i + 1;
      while (j < m && w[j] == w[i]) j++;
      if (j - i > best_len) { best_len = j - i; best = w[i]; }
      i = j;
    }
    if (w.size() - m > best_len) best = kNaN;
    const bool nan = best != best;
    int64_t at = 0;
    for (size_t j = v.size(); j-- > 0;) {
      if (nan ? v[j] != v[j] : v[j] == best) { at = (int64_t)j; break; }
    }
    vals[(size_t)o] = best;
    idx[o] = at;
  });
  store_results(vals, c.output(0), c.op);
}

}  // namespace
SKIFF_KERNEL("median", k_median);
SKIFF_KERNEL("nanmedian", k_nanmedian);
SKIFF_KERNEL("quantile", k_quantile);
SKIFF_KERNEL("mode", k_mode);
}  // namespace skiff
