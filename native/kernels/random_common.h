// Pieces every Philox-driven kernel file needs (random.cc, random_more.cc): the seed attribute
// check and the block driver that maps elements to Philox blocks. Kept in one place because the
// element -> block mapping is what makes results independent of the thread count; two copies
// could drift and make the same seed give different values in different ops.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "generator.h"
#include "kernel.h"
#include "nn_common.h"
#include "threadpool.h"

namespace skiff {
namespace rng {

// A seed attribute: an integral double (0 = the global generator).
inline uint64_t seed_attr(KernelCall& c, size_t i) {
  const double v = c.attr(i);
  if (!std::isfinite(v) || v != std::floor(v)) throw SkiffError(std::string(c.op) + ": seed must be an integer, got " + nn::D(v));
  return (uint64_t)(int64_t)v;
}

// Calls fn(r[4], first_element, count) for each block of `lanes` consecutive elements of n.
template <typename F>
void for_blocks(int64_t n, int lanes, const GeneratorState& s, F&& fn) {
  const int64_t blocks = (n + lanes - 1) / lanes;
  parallel_for(blocks, 4096, [&](int64_t b0, int64_t b1) {
    uint32_t r[4];
    for (int64_t b = b0; b < b1; b++) {
      Philox4x32::block(s.seed, s.offset + (uint64_t)b, r);
      fn(r, b * lanes, std::min<int64_t>(lanes, n - b * lanes));
    }
  });
}

inline int lanes_for(DType d) { return d == DType::F64 ? 2 : 4; }  // 53-bit doubles take two words

}  // namespace rng
}  // namespace skiff
