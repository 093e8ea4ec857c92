// Strided, broadcasting iteration for elementwise kernels.
// Operand 0 is the output; the others are inputs broadcast to the output's shape (numpy rules).
// Dims are coalesced where all operands allow it, then the outer index space is split over the
// thread pool and `inner(ptrs, byte_strides, n)` runs the innermost dimension.
#pragma once
#include <array>
#include <vector>
#include "error.h"
#include "tensor.h"
#include "threadpool.h"

namespace skiff {

// numpy/paddle broadcast of two shapes; throws naming `op` and both shapes when incompatible.
inline std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, const char* op) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; i++) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw SkiffError(std::string(op) + ": shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Strides (elements) of `t` viewed at `shape` (t must broadcast to it): 0 on broadcast dims.
inline std::vector<int64_t> broadcast_strides(const Tensor& t, const std::vector<int64_t>& shape, const char* op) {
  size_t n = shape.size();
  if (t.shape.size() > n) throw SkiffError(std::string(op) + ": cannot broadcast " + shape_str(t.shape) + " to " + shape_str(shape));
  std::vector<int64_t> s(n, 0);
  size_t off = n - t.shape.size();
  for (size_t i = 0; i < t.shape.size(); i++) {
    if (t.shape[i] == shape[off + i]) s[off + i] = t.shape[i] == 1 ? 0 : t.strides[i];
    else if (t.shape[i] == 1) s[off + i] = 0;
    else throw SkiffError(std::string(op) + ": cannot broadcast " + shape_str(t.shape) + " to " + shape_str(shape));
  }
  return s;
}

template <size_t N, typename Inner>
void strided_loop(const std::vector<int64_t>& shape, const std::array<char*, N>& base,
                  const std::array<std::vector<int64_t>, N>& elem_strides, const std::array<int64_t, N>& itemsize,
                  Inner&& inner, int64_t grain = 32768) {
  int64_t total = 1;
  for (auto d : shape) total *= d;
  if (total == 0) return;
  // Fast path (no allocation): every operand is dense in the output's row-major order.
  {
    bool dense = true;
    for (size_t k = 0; k < N && dense; k++) {
      int64_t expect = 1;
      for (int64_t d = (int64_t)shape.size() - 1; d >= 0; d--) {
        if (shape[d] != 1 && elem_strides[k][d] != expect) { dense = false; break; }
        expect *= shape[d];
      }
    }
    if (dense) {
      std::array<int64_t, N> st1;
      for (size_t k = 0; k < N; k++) st1[k] = itemsize[k];
      parallel_for(total, grain, [&](int64_t b, int64_t e) {
        std::array<char*, N> p;
        for (size_t k = 0; k < N; k++) p[k] = base[k] + b * itemsize[k];
        inner(p, st1, e - b);
      });
      return;
    }
  }
  // Byte strides, dropping size-1 dims, then coalescing adjacent dims that are contiguous for all operands.
  std::vector<int64_t> dims;
  std::array<std::vector<int64_t>, N> st;
  for (size_t d = 0; d < shape.size(); d++) {
    if (shape[d] == 1) continue;
    dims.push_back(shape[d]);
    for (size_t k = 0; k < N; k++) st[k].push_back(elem_strides[k][d] * itemsize[k]);
  }
  if (dims.empty()) {
    dims.push_back(1);
    for (size_t k = 0; k < N; k++) st[k].push_back(0);
  }
  std::vector<int64_t> cd{dims[0]};
  std::array<std::vector<int64_t>, N> cs;
  for (size_t k = 0; k < N; k++) cs[k].push_back(st[k][0]);
  for (size_t d = 1; d < dims.size(); d++) {
    bool ok = true;
    for (size_t k = 0; k < N; k++) if (cs[k].back() != st[k][d] * dims[d]) { ok = false; break; }
    if (ok) {
      cd.back() *= dims[d];
      for (size_t k = 0; k < N; k++) cs[k].back() = st[k][d];
    } else {
      cd.push_back(dims[d]);
      for (size_t k = 0; k < N; k++) cs[k].push_back(st[k][d]);
    }
  }
  const int nd = (int)cd.size();
  const int64_t inner_n = cd[nd - 1];
  const int64_t outer = total / inner_n;
  std::array<int64_t, N> inner_st;
  for (size_t k = 0; k < N; k++) inner_st[k] = cs[k][nd - 1];
  int64_t outer_grain = std::max<int64_t>(1, grain / std::max<int64_t>(1, inner_n));
  parallel_for(outer, outer_grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> idx(nd > 1 ? nd - 1 : 1, 0);
    std::array<char*, N> p;
    // position at outer index b
    int64_t rem = b;
    for (size_t k = 0; k < N; k++) p[k] = base[k];
    for (int d = nd - 2; d >= 0; d--) {
      idx[d] = rem % cd[d];
      rem /= cd[d];
      for (size_t k = 0; k < N; k++) p[k] += idx[d] * cs[k][d];
    }
    for (int64_t o = b; o < e; o++) {
      inner(p, inner_st, inner_n);
      for (int d = nd - 2; d >= 0; d--) {
        if (++idx[d] < cd[d]) { for (size_t k = 0; k < N; k++) p[k] += cs[k][d]; break; }
        for (size_t k = 0; k < N; k++) p[k] -= cs[k][d] * (cd[d] - 1);
        idx[d] = 0;
      }
    }
  });
}

}  // namespace skiff
