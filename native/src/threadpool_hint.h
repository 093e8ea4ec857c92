// Spin hint for the thread pool (threadpool.cc). While a static program runs (program_run.cc),
// parallel regions come back to back, and waking a sleeping worker through the condition
// variable can cost more than a small layer takes. Inside a HotRegion, workers that finish a
// region and a caller waiting for one poll for at most SKIFF_POOL_SPIN_US microseconds before
// sleeping. Default 50 (threadpool.cc kDefaultSpinUs; 0 turns it off): with the batch-1 conv
// task split (threadpool_tasks.h) it took MobileNetV2 batch 1 on 2 threads from ~6.5-7.4 ms to
// ~5.4 ms at load ~1.2. The poll yields the core every 64 pauses, so on a loaded machine a
// spinning worker gives way to runnable work. Outside a HotRegion (eager ops, tests) nothing
// ever spins.
// Kept out of threadpool.h, which every kernel includes.
#pragma once

namespace skiff {

void pool_hot_enter();
void pool_hot_exit();

struct HotRegion {
  HotRegion() { pool_hot_enter(); }
  ~HotRegion() { pool_hot_exit(); }
  HotRegion(const HotRegion&) = delete;
  HotRegion& operator=(const HotRegion&) = delete;
};

}  // namespace skiff
