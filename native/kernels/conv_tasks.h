// Task grids of the float32 conv paths (nn_conv.cc's implicit GEMM, Winograd, the transposed 1x1)
// on more than one thread, for data locality between the cores.
//
// parallel_tasks gives thread p the tasks [p * n / threads, (p + 1) * n / threads) first and lets it
// take others only when its own are done (threadpool.cc), so the task order decides which data
// each core touches. On this VM a line another core wrote (or is streaming) costs 3-5x a local one
// (32 GB/s against 90-170 GB/s read, 0.46 us round trip), so two rules:
//  - activations: tasks ordered spatially (rows of the image) give every layer the same split of
//    the image, so a core reads mostly rows it wrote itself in the previous layer;
//  - weights larger than the activations (ResNet's 14x14 and 7x7 stages: a 3x3 256-channel
//    Winograd U is 9.4 MB for 200 KB of input) go by output-channel groups, one per thread, so
//    each core streams its own slice of the weight once instead of both streaming all of it.
// Which thread runs a task never changes its result: every output is the same sum in the same
// order whatever the grid, so results keep the 1-thread bits (test/ops/conv_f32_split.test.ts).
#pragma once
#include <atomic>
#include <cstdint>

namespace skiff {

// u in [0, nblk * nparts) -> (spatial block, channel part). groups > 1 (it divides nparts): the
// parts form `groups` contiguous groups, one per thread's share of the tasks, and within a group
// tasks go block by block, so a thread's consecutive tasks share their block's gathered input
// (GatherMemo). groups == 1: block-major, so a thread's share is a contiguous band of the image.
struct ConvTaskOrder {
  int64_t nblk = 1, nparts = 1, groups = 1;
  void at(int64_t u, int64_t& blk, int64_t& part) const {
    const int64_t ppg = nparts / groups, g = u / (nblk * ppg), r = u % (nblk * ppg);
    blk = r / ppg;
    part = g * ppg + r % ppg;
  }
};

// Groups for a grid: one per thread when the weight outweighs the activations and the parts
// split evenly over the threads, else 1 (spatial).
inline int64_t conv_task_groups(bool weight_heavy, int64_t nparts, int threads) {
  return weight_heavy && threads > 1 && nparts % threads == 0 ? threads : 1;
}

// A thread's memo of what its scratch holds: a task whose gathered input (im2col block, padded
// rows, Winograd V) is the one this thread built in the previous task of the same call skips the
// gather. A call stamps itself with conv_call_stamp(); a key never matches another call's.
struct GatherMemo {
  uint64_t call = 0;
  int64_t k0 = -1, k1 = -1, k2 = -1;
  bool holds(uint64_t c, int64_t a, int64_t b, int64_t d) const { return call == c && k0 == a && k1 == b && k2 == d; }
  void set(uint64_t c, int64_t a, int64_t b, int64_t d) { call = c; k0 = a; k1 = b; k2 = d; }
};

inline uint64_t conv_call_stamp() {
  static std::atomic<uint64_t> n{0};
  return n.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace skiff
