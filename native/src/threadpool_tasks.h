// parallel_tasks(n, fn): fn(i) for every task i in [0, n), each task claimed on its own. Thread p
// of T runs its share [p * n / T, (p + 1) * n / T) in order first, then takes tasks from the back
// of the others' shares (threadpool.cc), so the task order decides which data each core touches
// (conv_tasks.h). parallel_for hands every thread one fixed chunk, which is right when all
// threads run at the same speed; on a loaded machine (or with uneven tasks) the thread that got
// its core back late then holds the whole region up. Kernels that cut a small layer into a few
// tasks per thread (conv_f32_implicit, depthwise 3x3 at batch 1) use this instead, so a thread
// that finishes early takes over tasks. Tasks must be independent: which thread runs a task
// never changes its result. Nested calls run serially on the caller, as parallel_for's do.
// Kept out of threadpool.h, which every kernel includes.
#pragma once
#include <cstdint>
#include "threadpool.h"

namespace skiff {

void parallel_tasks_impl(int64_t n, RangeFn fn);

template <typename F>
inline void parallel_tasks(int64_t n, const F& fn) {
  if (n <= 0) return;
  if (n == 1 || num_threads() == 1) { for (int64_t i = 0; i < n; i++) fn(i); return; }
  auto range = [&](int64_t b, int64_t e) { for (int64_t i = b; i < e; i++) fn(i); };
  parallel_tasks_impl(n, RangeFn(range));
}

}  // namespace skiff
