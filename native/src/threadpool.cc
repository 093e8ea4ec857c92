#include "threadpool.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace skiff {
namespace {

thread_local bool tl_in_parallel = false;
const auto kNoop = [](int64_t, int64_t) {};

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

  void run(int64_t n, int64_t grain, RangeFn fn) {
    int64_t chunks = std::min<int64_t>((int64_t)size(), (n + grain - 1) / grain);
    if (chunks <= 1 || tl_in_parallel || workers_.empty()) { fn(0, n); return; }
    std::unique_lock<std::mutex> job_lock(job_mu_);  // one parallel region at a time
    int64_t per = (n + chunks - 1) / chunks;
    {
      std::lock_guard<std::mutex> lk(mu_);
      fn_ = fn; has_fn_ = true; n_ = n; per_ = per; nchunks_ = chunks;
      next_.store(0); done_.store(0); gen_++;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return done_.load() >= nchunks_; });
    has_fn_ = false;
  }

 private:
  void work() {
    tl_in_parallel = true;
    for (;;) {
      int64_t c = next_.fetch_add(1);
      if (c >= nchunks_) break;
      int64_t b = c * per_, e = std::min(n_, b + per_);
      if (b < e) fn_(b, e);
      if (done_.fetch_add(1) + 1 == nchunks_) { std::lock_guard<std::mutex> lk(mu_); done_cv_.notify_all(); }
    }
    tl_in_parallel = false;
  }
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return quit_ || gen_ != seen; });
        if (quit_) return;
        seen = gen_;
        if (!has_fn_) continue;
      }
      work();
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
  RangeFn fn_{kNoop};
  bool has_fn_ = false;
  int64_t n_ = 0, per_ = 0, nchunks_ = 0;
  std::atomic<int64_t> next_{0}, done_{0};
  uint64_t gen_ = 0;
  bool quit_ = false;
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
void parallel_for_impl(int64_t n, int64_t grain, RangeFn fn) {
  pool().run(n, std::max<int64_t>(1, grain), fn);
}

}  // namespace skiff
