// Spin hint for the thread pool (threadpool.cc). While a static program runs (program_run.cc),
// parallel regions come back to back, and waking a sleeping worker through the condition
// variable can cost more than a small layer takes. Inside a HotRegion, workers that finish a
// region and a caller waiting for one poll for at most SKIFF_POOL_SPIN_US microseconds before
// sleeping. Default 0 (off): on the shared 2-core VM every setting tried made MobileNetV2 slower
// (a spinning thread takes the core other runnable work needs). Outside a HotRegion (eager ops,
// tests) nothing ever spins.
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
