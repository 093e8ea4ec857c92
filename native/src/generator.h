// The random number generator behind paddle.seed and every random op.
//
// Philox-4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11) is
// counter-based: block i of a stream is a pure function of (key, i). A random op reserves a
// range of blocks from the generator's offset and element e reads block (start + e / lanes),
// so any thread can produce any element and results do not depend on the thread count or on
// how parallel_for splits the work.
//
// State is (seed, offset): paddle.seed(s) sets seed = s, offset = 0. Ops with their own seed
// attribute (paddle.uniform(seed=...)) use key = that seed from offset 0, leaving the global
// state alone, as Paddle does.
#pragma once
#include <cstdint>
#include <mutex>

namespace skiff {

struct Philox4x32 {
  // Four 32-bit outputs of block `ctr` of stream `key`.
  static inline void block(uint64_t key, uint64_t ctr, uint32_t out[4]) {
    uint32_t c0 = (uint32_t)ctr, c1 = (uint32_t)(ctr >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
      if (r) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
      const uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
      const uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0, hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
      c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
  }
};

// [0, 1) with 24 random bits (exact in float) and 53 random bits (exact in double).
inline float u01_f(uint32_t u) { return (float)(u >> 8) * (1.0f / 16777216.0f); }
inline double u01_d(uint32_t lo, uint32_t hi) {
  return (double)((((uint64_t)hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}

struct GeneratorState { uint64_t seed; uint64_t offset; };

class Generator {
 public:
  Generator();  // seeded from std::random_device, like Paddle's default CPU generator
  void manual_seed(uint64_t seed);
  GeneratorState state();
  void set_state(GeneratorState s);
  // Reserves `blocks` Philox blocks; returns (key, first block).
  GeneratorState reserve(uint64_t blocks);

 private:
  std::mutex mu_;
  GeneratorState st_;
};

Generator& default_generator();

// Key and first block for an op: its own `seed` attribute when nonzero, else the global generator.
inline GeneratorState draw_stream(uint64_t op_seed, uint64_t blocks) {
  if (op_seed != 0) return GeneratorState{op_seed, 0};
  return default_generator().reserve(blocks);
}

}  // namespace skiff
