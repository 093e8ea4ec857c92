// Persistent thread pool (size from SKIFF_NUM_THREADS, default: hardware cores).
// parallel_for splits [0, n) into chunks of at least `grain`; the calling thread takes part.
// Nested calls run serially on the caller, so kernels may call each other freely.
#pragma once
#include <cstdint>
#include <functional>

namespace skiff {

int num_threads();
void set_num_threads(int n);  // resizes the pool (tests and benchmarks)

// A non-owning reference to a callable: parallel_for is on every kernel's hot path, and a
// std::function of a capturing lambda would allocate on each call.
class RangeFn {
 public:
  template <typename F>
  RangeFn(const F& f) : obj_(&f), call_([](const void* o, int64_t b, int64_t e) { (*static_cast<const F*>(o))(b, e); }) {}
  void operator()(int64_t b, int64_t e) const { call_(obj_, b, e); }

 private:
  const void* obj_;
  void (*call_)(const void*, int64_t, int64_t);
};

void parallel_for_impl(int64_t n, int64_t grain, RangeFn fn);

template <typename F>
inline void parallel_for(int64_t n, int64_t grain, const F& fn) {
  if (n <= 0) return;
  if (n <= grain) { fn(0, n); return; }  // small work never touches the pool
  parallel_for_impl(n, grain, RangeFn(fn));
}

}  // namespace skiff
