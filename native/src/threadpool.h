// Persistent thread pool (size from SKIFF_NUM_THREADS, default: hardware cores).
// parallel_for splits [0, n) into chunks of at least `grain`; the calling thread takes part.
// Nested calls run serially on the caller, so kernels may call each other freely.
#pragma once
#include <cstdint>
#include <functional>

namespace skiff {

int num_threads();
void set_num_threads(int n);  // resizes the pool (tests and benchmarks)
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace skiff
