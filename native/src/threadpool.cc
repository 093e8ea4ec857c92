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
thread_local int tl_index = 0;  // 0: the calling thread; worker i: i + 1

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

// A thread's share of a region's chunks: [lo, hi) not yet claimed, packed as lo << 32 | hi so
// the owner (taking lo) and a thief (taking hi - 1) claim with one compare-exchange.
struct alignas(64) HomeRange {
  std::atomic<uint64_t> lohi{0};
};

// One parallel region. Workers take a shared_ptr to the job under the mutex, so a worker that
// wakes late can only ever see a complete, consistent job (never a mix of two jobs' fields).
// Chunks are dealt out by position: thread p (the caller 0, worker i i + 1) owns the p-th of
// `parts` contiguous ranges and runs it from the front; a thread whose range is empty takes
// chunks from the back of the others'. So with everyone on time each thread gets the same part
// of every region, and kernels that order their tasks by position (conv_tasks.h) keep the same
// rows of an image on the same core layer after layer: on this VM reading a line another core
// wrote costs 3-5x a local one, and the first-come counter this replaced moved about half of
// every layer's input between the cores (with the conv grids and the per-task residual, ResNet-50
// in the predictor on 2 threads went from 31 to 28 ms at batch 1, 214 to 173 ms at batch 8). A
// late thread still loses only what the others take from its range.
struct Job {
  RangeFn fn;
  int64_t n, per, nchunks;
  std::atomic<int64_t> next{0}, done{0};  // next: the plain counter, for more than 2^32 chunks
  int parts;
  std::unique_ptr<HomeRange[]> home;
  Job(RangeFn f, int64_t n_, int64_t per_, int64_t chunks, int parts_)
      : fn(f), n(n_), per(per_), nchunks(chunks), parts(chunks <= (int64_t)0xffffffff ? parts_ : 0) {
    if (parts == 0) return;
    home.reset(new HomeRange[(size_t)parts]);
    for (int p = 0; p < parts; p++) {
      const uint64_t lo = (uint64_t)(chunks * p / parts), hi = (uint64_t)(chunks * (p + 1) / parts);
      home[(size_t)p].lohi.store(lo << 32 | hi, std::memory_order_relaxed);
    }
  }
  // The next chunk for thread p, or -1 when none is left.
  int64_t claim(int p) {
    if (parts == 0) {
      const int64_t c = next.fetch_add(1);
      return c < nchunks ? c : -1;
    }
    if (p < parts) {
      auto& r = home[(size_t)p].lohi;
      uint64_t v = r.load();
      while ((v >> 32) < (v & 0xffffffffu))
        if (r.compare_exchange_weak(v, v + (uint64_t(1) << 32))) return (int64_t)(v >> 32);
    }
    for (int q = 1; q <= parts; q++) {
      auto& r = home[(size_t)((p + q) % parts)].lohi;
      uint64_t v = r.load();
      while ((v >> 32) < (v & 0xffffffffu))
        if (r.compare_exchange_weak(v, v - 1)) return (int64_t)(v & 0xffffffffu) - 1;
    }
    return -1;
  }
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
    for (int i = 0; i < n - 1; i++) workers_.emplace_back([this, i] { tl_index = i + 1; loop(); });
  }

  void run(int64_t n, int64_t grain, RangeFn fn) { run_chunks(n, std::min<int64_t>((int64_t)size(), (n + grain - 1) / grain), fn); }

  // [0, n) in `chunks` equal chunks, claimed one at a time by whichever thread is free.
  void run_chunks(int64_t n, int64_t chunks, RangeFn fn) {
    if (chunks <= 1 || tl_in_parallel || workers_.empty()) { fn(0, n); return; }
    std::unique_lock<std::mutex> job_lock(job_mu_);  // one parallel region at a time
    auto job = std::make_shared<Job>(fn, n, (n + chunks - 1) / chunks, chunks, size());
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
      int64_t c = job.claim(tl_index);
      if (c < 0) break;
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
