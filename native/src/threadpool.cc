#include "threadpool.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>
#include "threadpool_hint.h"
#include "threadpool_tasks.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace skiff {
namespace {

thread_local bool tl_in_parallel = false;

// threadpool_hint.h: > 0 while a static program runs; spinning is allowed only then.
std::atomic<int> g_hot{0};

// Default poll bound while a program runs. MobileNetV2 batch 1 on 2 threads (52 conv layers of
// 50-400 us, each one region): waking a sleeping worker through the futex costs tens of us on
// this VM; polling 50 us took a run from 6.5-7.4 ms to 5.4-5.6 ms at load ~1.2 (docs/executor.md).
// Outside a program (eager ops, tests) nothing spins whatever this is.
constexpr long kDefaultSpinUs = 50;

int64_t spin_ns() {
  static const int64_t ns = [] {
    const char* s = std::getenv("SKIFF_POOL_SPIN_US");
    const long v = s && *s ? std::atol(s) : kDefaultSpinUs;
    return (int64_t)std::clamp<long>(v, 0, 10000) * 1000;
  }();
  return ns;
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Polls `ready` while programs run, for at most spin_ns(); true once it holds.
template <typename F>
bool spin_until(const F& ready) {
  const int64_t limit = spin_ns();
  if (limit == 0 || g_hot.load(std::memory_order_relaxed) == 0) return ready();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0;; i++) {
    if (ready()) return true;
    cpu_relax();
    if ((i & 63) == 63) {
      if (g_hot.load(std::memory_order_relaxed) == 0) return ready();
      // Hand the core over if anything else is runnable on it: on a loaded machine a pure busy
      // poll takes the time the thread doing the work (or another process) needs.
      std::this_thread::yield();
      if (std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count() > limit) return ready();
    }
  }
}

// One parallel region. Workers take a shared_ptr to the job under the mutex, so a worker that
// wakes late can only ever see a complete, consistent job (never a mix of two jobs' fields).
struct Job {
  RangeFn fn;
  int64_t n, per, nchunks;
  std::atomic<int64_t> next{0}, done{0};
  Job(RangeFn f, int64_t n_, int64_t per_, int64_t chunks) : fn(f), n(n_), per(per_), nchunks(chunks) {}
};

class Pool {
 public:
  explicit Pool(int n) { resize(n); }
  ~Pool() { stop(); }

  int size() const { return (int)workers_.size() + 1; }

  void resize(int n) {
    stop();
    n = std::max(1, n);
    quit_ = false;
    for (int i = 0; i < n - 1; i++) workers_.emplace_back([this] { loop(); });
  }

  void run(int64_t n, int64_t grain, RangeFn fn) { run_chunks(n, std::min<int64_t>((int64_t)size(), (n + grain - 1) / grain), fn); }

  // [0, n) in `chunks` equal chunks, claimed one at a time by whichever thread is free.
  void run_chunks(int64_t n, int64_t chunks, RangeFn fn) {
    if (chunks <= 1 || tl_in_parallel || workers_.empty()) { fn(0, n); return; }
    std::unique_lock<std::mutex> job_lock(job_mu_);  // one parallel region at a time
    auto job = std::make_shared<Job>(fn, n, (n + chunks - 1) / chunks, chunks);
    {
      std::lock_guard<std::mutex> lk(mu_);
      current_ = job;
      gen_++;
    }
    cv_.notify_all();
    work(*job);
    spin_until([&] { return job->done.load() >= job->nchunks; });
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return job->done.load() >= job->nchunks; });
    current_.reset();
  }

 private:
  void work(Job& job) {
    bool outer = tl_in_parallel;
    tl_in_parallel = true;
    for (;;) {
      int64_t c = job.next.fetch_add(1);
      if (c >= job.nchunks) break;
      int64_t b = c * job.per, e = std::min(job.n, b + job.per);
      if (b < e) job.fn(b, e);
      if (job.done.fetch_add(1) + 1 == job.nchunks) { std::lock_guard<std::mutex> lk(mu_); done_cv_.notify_all(); }
    }
    tl_in_parallel = outer;
  }
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      // A program's next region usually comes within microseconds: poll before sleeping.
      if (seen != 0) spin_until([&] { return gen_.load(std::memory_order_acquire) != seen || quit_.load(std::memory_order_relaxed); });
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return quit_ || gen_ != seen; });
        if (quit_) return;
        seen = gen_;
        job = current_;
      }
      if (job) work(*job);
    }
  }
  void stop() {
    { std::lock_guard<std::mutex> lk(mu_); quit_ = true; }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  std::vector<std::thread> workers_;
  std::mutex mu_, job_mu_;
  std::condition_variable cv_, done_cv_;
  std::shared_ptr<Job> current_;
  std::atomic<uint64_t> gen_{0};  // written under mu_; atomic so spinning workers may poll it
  std::atomic<bool> quit_{false};
};

int default_threads() {
  if (const char* s = std::getenv("SKIFF_NUM_THREADS")) {
    int v = std::atoi(s);
    if (v > 0) return v;
  }
  unsigned h = std::thread::hardware_concurrency();
  return h ? (int)h : 1;
}

Pool& pool() { static Pool p(default_threads()); return p; }

}  // namespace

int num_threads() { return pool().size(); }
void set_num_threads(int n) { pool().resize(n); }
void pool_hot_enter() { g_hot.fetch_add(1, std::memory_order_relaxed); }
void pool_hot_exit() { g_hot.fetch_sub(1, std::memory_order_relaxed); }
void parallel_for_impl(int64_t n, int64_t grain, RangeFn fn) {
  pool().run(n, std::max<int64_t>(1, grain), fn);
}
void parallel_tasks_impl(int64_t n, RangeFn fn) { pool().run_chunks(n, n, fn); }

}  // namespace skiff
