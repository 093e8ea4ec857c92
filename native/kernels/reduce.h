// Reduction machinery shared by reduce.cc and reduce_stat.cc.
//
// Attribute layout of every axis reduction: [n_axes, axis..., keepdim, op-specific...], axes
// already normalised to [0, rank) by the TS definition (src/ops/defs/reduce.ts) and checked
// again here.
//
// The (dense) input is viewed as groups: size-1 dims dropped, neighbours of the same kind
// (reduced / kept) merged. Two shapes of loop cover every case:
//  - inner: the last group is reduced. Each output reduces contiguous runs (`block`, written
//    to vectorize); outputs are spread over threads, or, when there are few outputs, each
//    output's range is cut into chunks whose partial results are combined in order.
//  - outer: the last group is kept. Rows of contiguous outputs are accumulated row by row
//    (`step` over a row vectorizes); tasks are (outer index, chunk of the row), or chunks of
//    the reduced rows when there are few outputs.
// Chunk counts depend only on sizes, never on the thread count, so results are the same
// whatever SKIFF_NUM_THREADS is.
//
// A reducer R for storage type T provides:
//   Acc init(int64_t o)                       accumulator of output o (may carry per-output data)
//   void block(Acc&, const T*, int64_t n, int64_t j0)   a contiguous run starting at reduced index j0
//   void step(Acc&, const T&, int64_t j)      one element at reduced index j
//   void combine(Acc& a, const Acc& b)        b covers indices after a's
//   Res finish(const Acc&, int64_t n)         n = number of reduced elements
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>
#include "elementwise_loops.h"

namespace skiff {

struct ReduceArgs {
  std::vector<bool> reduced;       // per input dim
  bool keepdim = false;
  size_t next_attr = 0;            // index of the first op-specific attribute
  std::vector<int64_t> out_shape;
  std::string axes_str;            // for messages
};

inline ReduceArgs parse_reduce(const KernelCall& c, const Tensor& x) {
  ReduceArgs r;
  int64_t rank = x.ndim();
  int64_t n = c.iattr(0);
  if (n < 0 || n > std::max<int64_t>(rank, 1)) throw SkiffError(std::string(c.op) + ": invalid axis count " + std::to_string(n) + " for a tensor of rank " + std::to_string(rank));
  r.reduced.assign((size_t)rank, false);
  r.axes_str = "[";
  for (int64_t i = 0; i < n; i++) {
    int64_t a = c.iattr((size_t)(1 + i));
    r.axes_str += (i ? ", " : "") + std::to_string(a);
    if (rank == 0 && a == 0) continue;
    if (a < 0 || a >= rank) throw SkiffError(std::string(c.op) + ": axis " + std::to_string(a) + " is out of range for a tensor of rank " + std::to_string(rank));
    if (r.reduced[(size_t)a]) throw SkiffError(std::string(c.op) + ": duplicate axis " + std::to_string(a));
    r.reduced[(size_t)a] = true;
  }
  r.axes_str += "]";
  if (n == 0) r.reduced.assign((size_t)rank, true);  // an empty axis list reduces everything, as in Paddle
  r.keepdim = c.attr((size_t)(1 + n)) != 0;
  r.next_attr = (size_t)(2 + n);
  for (int64_t d = 0; d < rank; d++) {
    if (!r.reduced[(size_t)d]) r.out_shape.push_back(x.shape[(size_t)d]);
    else if (r.keepdim) r.out_shape.push_back(1);
  }
  return r;
}

// Row-major walk over a few (size, stride) groups with an incremental element offset.
struct Odometer {
  std::vector<int64_t> size, stride, idx;
  int64_t off = 0;
  void add(int64_t s, int64_t st) { size.push_back(s); stride.push_back(st); idx.push_back(0); }
  void seek(int64_t i) {
    off = 0;
    for (size_t d = size.size(); d-- > 0;) { idx[d] = i % size[d]; i /= size[d]; off += idx[d] * stride[d]; }
  }
  void next() {
    for (size_t d = size.size(); d-- > 0;) {
      if (++idx[d] < size[d]) { off += stride[d]; return; }
      off -= stride[d] * (size[d] - 1);
      idx[d] = 0;
    }
  }
};

struct ReduceLayout {
  struct Group { int64_t size, stride; bool reduced; };
  std::vector<Group> groups;
  int64_t n_out = 1, n_red = 1;
};

// Layout of a contiguous tensor of `shape` reduced over `reduced`.
inline ReduceLayout make_layout(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  ReduceLayout L;
  auto strides = contiguous_strides(shape);
  for (size_t d = 0; d < shape.size(); d++) {
    if (reduced[d]) L.n_red *= shape[d]; else L.n_out *= shape[d];
    if (shape[d] == 1) continue;
    if (!L.groups.empty() && L.groups.back().reduced == reduced[d]) {
      L.groups.back().size *= shape[d];
      L.groups.back().stride = strides[d];
    } else L.groups.push_back({shape[d], strides[d], reduced[d]});
  }
  return L;
}

constexpr int64_t kReduceGrain = 32768;  // elements of work per parallel task
constexpr int64_t kReduceSplit = 65536;  // reductions at least this long may be cut into chunks
constexpr int64_t kReduceRow = 256;      // outputs per task in the outer layout

template <typename T, typename R>
inline void reduce_row(const R& r, typename R::Acc* __restrict acc, const T* __restrict p, int64_t n, int64_t j) {
  for (int64_t k = 0; k < n; k++) r.step(acc[k], p[k], j);
}

// Reduces dense `x` (element pointer) laid out as `L`; out[o] = finish(...) for each output in order.
template <typename T, typename R, typename Out>
void run_reduce(const T* x, const ReduceLayout& L, const R& r, Out* out) {
  using Acc = typename R::Acc;
  const int64_t n_out = L.n_out, n_red = L.n_red;
  if (n_out == 0) return;
  if (n_red == 0) { for (int64_t o = 0; o < n_out; o++) out[o] = r.finish(r.init(o), 0); return; }
  const auto& g = L.groups;
  if (g.empty() || g.back().reduced) {
    const int64_t run = g.empty() ? 1 : g.back().size;
    Odometer kept, red;
    for (size_t i = 0; i < g.size(); i++) {
      if (!g[i].reduced) kept.add(g[i].size, g[i].stride);
      else if (i + 1 < g.size()) red.add(g[i].size, g[i].stride);
    }
    auto reduce_range = [&](int64_t base, int64_t j0, int64_t j1, Acc& acc) {
      Odometer ro = red;
      ro.seek(j0 / run);
      for (int64_t j = j0, i = j0 % run; j < j1; i = 0, ro.next()) {
        int64_t len = std::min(run - i, j1 - j);
        r.block(acc, x + base + ro.off + i, len, j);
        j += len;
      }
    };
    if (n_out < 8 && n_red >= kReduceSplit) {
      const int64_t nch = std::min<int64_t>(64, (n_red + kReduceSplit - 1) / kReduceSplit);
      std::vector<Acc> part((size_t)nch);
      for (int64_t o = 0; o < n_out; o++) {
        Odometer ko = kept;
        ko.seek(o);
        parallel_for(nch, 1, [&](int64_t b, int64_t e) {
          for (int64_t ch = b; ch < e; ch++) {
            part[(size_t)ch] = r.init(o);
            reduce_range(ko.off, n_red * ch / nch, n_red * (ch + 1) / nch, part[(size_t)ch]);
          }
        });
        Acc acc = part[0];
        for (int64_t ch = 1; ch < nch; ch++) r.combine(acc, part[(size_t)ch]);
        out[o] = r.finish(acc, n_red);
      }
      return;
    }
    parallel_for(n_out, std::max<int64_t>(1, kReduceGrain / n_red), [&](int64_t b, int64_t e) {
      Odometer ko = kept;
      ko.seek(b);
      for (int64_t o = b; o < e; o++, ko.next()) {
        Acc acc = r.init(o);
        reduce_range(ko.off, 0, n_red, acc);
        out[o] = r.finish(acc, n_red);
      }
    });
    return;
  }
  // Outer layout: the last group (contiguous, stride 1) is kept.
  const int64_t K = g.back().size;
  const int64_t n_outer = n_out / K;
  Odometer kept, red;
  for (size_t i = 0; i + 1 < g.size(); i++) {
    if (g[i].reduced) red.add(g[i].size, g[i].stride); else kept.add(g[i].size, g[i].stride);
  }
  const int64_t kchunks = (K + kReduceRow - 1) / kReduceRow;
  const int64_t tasks = n_outer * kchunks;
  // Accumulates rows [r0, r1) into acc[0, len) for outputs starting at (outer, k0).
  auto rows = [&](int64_t outer, int64_t k0, int64_t len, int64_t r0, int64_t r1, Acc* acc) {
    Odometer ko = kept, ro = red;
    ko.seek(outer);
    ro.seek(r0);
    for (int64_t rr = r0; rr < r1; rr++, ro.next()) reduce_row<T, R>(r, acc, x + ko.off + ro.off + k0, len, rr);
  };
  if (tasks < 8 && n_red * n_out >= kReduceSplit) {
    const int64_t nch = std::min<int64_t>(64, std::max<int64_t>(1, n_red * n_out / kReduceSplit));
    std::vector<std::vector<Acc>> part((size_t)nch, std::vector<Acc>((size_t)n_out));
    parallel_for(nch, 1, [&](int64_t b, int64_t e) {
      for (int64_t ch = b; ch < e; ch++) {
        auto& acc = part[(size_t)ch];
        for (int64_t o = 0; o < n_out; o++) acc[(size_t)o] = r.init(o);
        for (int64_t outer = 0; outer < n_outer; outer++)
          rows(outer, 0, K, n_red * ch / nch, n_red * (ch + 1) / nch, acc.data() + outer * K);
      }
    });
    for (int64_t o = 0; o < n_out; o++) {
      Acc acc = part[0][(size_t)o];
      for (int64_t ch = 1; ch < nch; ch++) r.combine(acc, part[(size_t)ch][(size_t)o]);
      out[o] = r.finish(acc, n_red);
    }
    return;
  }
  parallel_for(tasks, std::max<int64_t>(1, kReduceGrain / (n_red * std::min(K, kReduceRow))), [&](int64_t b, int64_t e) {
    std::vector<Acc> acc((size_t)std::min(K, kReduceRow));
    for (int64_t t = b; t < e; t++) {
      int64_t outer = t / kchunks, k0 = (t % kchunks) * kReduceRow, len = std::min(kReduceRow, K - k0);
      int64_t o0 = outer * K + k0;
      for (int64_t k = 0; k < len; k++) acc[(size_t)k] = r.init(o0 + k);
      rows(outer, k0, len, 0, n_red, acc.data());
      for (int64_t k = 0; k < len; k++) out[o0 + k] = r.finish(acc[(size_t)k], n_red);
    }
  });
}

// Converts between compute/accumulator types: bool is "nonzero", floats to integers truncate
// (NaN to 0, out of range saturating) instead of the undefined C++ conversion.
template <typename To, typename From> inline To convert_value(From v) {
  if constexpr (std::is_same_v<To, bool>) return v != From(0);
  else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    if (v != v) return 0;
    if (v <= (From)-9.2233720368547758e18) return (To)std::numeric_limits<int64_t>::min();
    if (v >= (From)9.2233720368547758e18) return (To)std::numeric_limits<int64_t>::max();
    return (To)(int64_t)v;
  } else if constexpr (std::is_same_v<From, uint64_t>) return (To)(int64_t)v;  // wrapped signed sums
  else return (To)v;
}

// Writes per-output results into `o` (contiguous), converting to its dtype.
template <typename Res> void store_results(const std::vector<Res>& res, Tensor& o, const char* op) {
  dispatch_all(o.dtype, op, [&](auto tag) {
    using O = decltype(tag);
    O* p = o.data<O>();
    for (size_t i = 0; i < res.size(); i++) p[i] = Compute<O>::store(convert_value<compute_t<O>>(res[i]));
  });
}

// Accumulator type of sums/products: double for floating outputs, wrapping uint64 for integer ones.
template <typename A, typename T> inline A to_acc(const T& v) {
  auto x = Compute<T>::load(v);
  if constexpr (std::is_same_v<A, uint64_t>) return (uint64_t)convert_value<int64_t>(x);
  else return (A)x;
}

// Sum of a contiguous run in 16 independent lanes (vectorizes without reassociation flags).
template <typename A, typename T> inline A sum_run(const T* __restrict p, int64_t n) {
  A s[16] = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int k = 0; k < 16; k++) s[k] += to_acc<A>(p[i + k]);
  for (int w = 8; w >= 1; w /= 2)
    for (int k = 0; k < w; k++) s[k] += s[k + w];
  A t = s[0];
  for (; i < n; i++) t += to_acc<A>(p[i]);
  return t;
}

// Reducers shared by several kernels.
template <typename T, typename A> struct SumR {
  using Acc = A;
  using Res = A;
  Acc init(int64_t) const { return A(0); }
  void block(Acc& a, const T* p, int64_t n, int64_t) const { a += sum_run<A>(p, n); }
  void step(Acc& a, const T& v, int64_t) const { a += to_acc<A>(v); }
  void combine(Acc& a, const Acc& b) const { a += b; }
  Res finish(const Acc& a, int64_t) const { return a; }
};

// max/min propagate NaN: once a NaN is seen the result is NaN.
template <typename T, bool Max> struct ExtremeR {
  using V = compute_t<T>;
  using Acc = V;
  using Res = V;
  static constexpr bool fp = std::is_floating_point_v<V>;
  static V better(V v, V a) {
    if constexpr (fp) return (Max ? v > a : v < a) || v != v ? v : a;
    else return (Max ? v > a : v < a) ? v : a;
  }
  Acc init(int64_t) const {
    if constexpr (fp) return Max ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::infinity();
    else return Max ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
  }
  void block(Acc& a, const T* __restrict p, int64_t n, int64_t) const {
    V m[16];
    for (int k = 0; k < 16; k++) m[k] = a;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int k = 0; k < 16; k++) m[k] = better(Compute<T>::load(p[i + k]), m[k]);
    for (int k = 0; k < 16; k++) a = better(m[k], a);
    for (; i < n; i++) a = better(Compute<T>::load(p[i]), a);
  }
  void step(Acc& a, const T& v, int64_t) const { a = better(Compute<T>::load(v), a); }
  void combine(Acc& a, const Acc& b) const { a = better(b, a); }
  Res finish(const Acc& a, int64_t) const { return a; }
};

}  // namespace skiff
