// A light driver for broadcasting binary kernels, a drop-in for map_binary (elementwise_loops.h)
// where compile time matters more than the last few percent on broadcast layouts.
//
// map_binary inlines the op into four loops (contiguous, scalar on either side, strided) for
// every op and dtype. Here the op is compiled into one contiguous loop (`binary_blk`) per op
// and dtype, and the driver that handles broadcasting, strides and threading is instantiated
// once per (input, output) type pair and reused by every op of the file: non-contiguous or
// broadcast runs are gathered into small stack buffers first.
#pragma once
#include "elementwise_loops.h"

namespace skiff {

template <typename TA, typename TO>
using BinaryBlockFn = void (*)(const TA*, const TA*, TO*, int64_t, const void*);

constexpr int64_t kBinaryChunk = 256;

// out[i] = f(a[i], b[i]) on contiguous runs; `ctx` points at the functor.
template <typename TA, typename TO, typename F>
void binary_blk(const TA* __restrict a, const TA* __restrict b, TO* __restrict o, int64_t n, const void* ctx) {
  const F& f = *static_cast<const F*>(ctx);
  for (int64_t i = 0; i < n; i++) o[i] = Compute<TO>::store(f(Compute<TA>::load(a[i]), Compute<TA>::load(b[i])));
}

template <typename TA, typename TO>
[[gnu::noinline]] void run_binary_blocks(const Tensor& a, const Tensor& b, Tensor& o, const std::vector<int64_t>& shape, const char* op,
                                         BinaryBlockFn<TA, TO> fn, const void* ctx) {
  int64_t total = 1;
  for (auto d : shape) total *= d;
  if (total == 0) return;
  if (o.is_contiguous() && a.is_contiguous() && b.is_contiguous() && a.shape == shape && b.shape == shape) {
    const TA* pa = a.data<TA>();
    const TA* pb = b.data<TA>();
    TO* po = o.data<TO>();
    parallel_for(total, kEwGrain, [&](int64_t s, int64_t e) { fn(pa + s, pb + s, po + s, e - s, ctx); });
    return;
  }
  auto sa = broadcast_strides(a, shape, op), sb = broadcast_strides(b, shape, op);
  const int64_t ea = sizeof(TA), eo = sizeof(TO);
  strided_loop<3>(shape, {(char*)o.raw(), (char*)a.raw(), (char*)b.raw()}, {o.strides, sa, sb}, {eo, ea, ea},
                  [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& s, int64_t n) {
                    if (s[0] == eo && s[1] == ea && s[2] == ea) { fn((const TA*)p[1], (const TA*)p[2], (TO*)p[0], n, ctx); return; }
                    TA ba[kBinaryChunk], bb[kBinaryChunk];
                    TO bo[kBinaryChunk];
                    for (int64_t i0 = 0; i0 < n; i0 += kBinaryChunk) {
                      const int64_t m = std::min(kBinaryChunk, n - i0);
                      const TA* xa = (const TA*)(p[1] + i0 * s[1]);
                      const TA* xb = (const TA*)(p[2] + i0 * s[2]);
                      if (s[1] != ea) { for (int64_t i = 0; i < m; i++) ba[i] = *(const TA*)(p[1] + (i0 + i) * s[1]); xa = ba; }
                      if (s[2] != ea) { for (int64_t i = 0; i < m; i++) bb[i] = *(const TA*)(p[2] + (i0 + i) * s[2]); xb = bb; }
                      if (s[0] == eo) { fn(xa, xb, (TO*)(p[0] + i0 * s[0]), m, ctx); continue; }
                      fn(xa, xb, bo, m, ctx);
                      for (int64_t i = 0; i < m; i++) *(TO*)(p[0] + (i0 + i) * s[0]) = bo[i];
                    }
                  });
}

// out = f(a, b) broadcast to `shape`; same contract as map_binary.
template <typename TA, typename TO, typename F>
void map_binary_blocks(const Tensor& a, const Tensor& b, Tensor& o, const std::vector<int64_t>& shape, const char* op, const F& f) {
  run_binary_blocks<TA, TO>(a, b, o, shape, op, &binary_blk<TA, TO, F>, &f);
}

}  // namespace skiff
