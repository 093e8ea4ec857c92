// A parallel merge sort for one long sequence (sort.cc's single-lane case, unique.cc): runs of
// a size fixed by the length alone are sorted on threads, then merged pairwise level by level
// (each level's merges on threads too). With a strict total order (the callers break ties by
// index) the result is the same whatever the thread count.
#pragma once
#include <algorithm>
#include <vector>
#include "../src/threadpool.h"

namespace skiff {

constexpr int64_t kMergeRun = 32768;  // elements per sorted run

template <typename E, typename Less>
void parallel_merge_sort(std::vector<E>& p, const Less& less) {
  const int64_t n = (int64_t)p.size();
  const int64_t runs = std::min<int64_t>(64, std::max<int64_t>(1, n / kMergeRun));
  if (runs == 1) { std::sort(p.begin(), p.end(), less); return; }
  std::vector<int64_t> bound((size_t)runs + 1);
  for (int64_t r = 0; r <= runs; r++) bound[(size_t)r] = n * r / runs;
  parallel_for(runs, 1, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; r++) std::sort(p.begin() + bound[(size_t)r], p.begin() + bound[(size_t)r + 1], less);
  });
  std::vector<E> tmp((size_t)n);
  for (int64_t w = 1; w < runs; w *= 2) {
    const int64_t pairs = (runs + 2 * w - 1) / (2 * w);
    parallel_for(pairs, 1, [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; q++) {
        const int64_t lo = bound[(size_t)std::min(runs, 2 * q * w)], mid = bound[(size_t)std::min(runs, 2 * q * w + w)];
        const int64_t hi = bound[(size_t)std::min(runs, 2 * q * w + 2 * w)];
        std::merge(p.begin() + lo, p.begin() + mid, p.begin() + mid, p.begin() + hi, tmp.begin() + lo, less);
      }
    });
    p.swap(tmp);
  }
}

}  // namespace skiff
