#include "tensor.h"
#include "storage_uninit.h"
#include <cstdlib>
#include <limits>
#include <sys/mman.h>
#include <cstring>
#include <mutex>
#include <iterator>
#include <list>

namespace skiff {

MemStats& mem_stats() { static MemStats s; return s; }

// Large buffers come from mmap: the kernel hands out zeroed pages lazily, and transparent huge
// pages cut first-touch faults. Those faults still cost ~6-12 ms per few MB on this VM kind —
// more than most kernels writing the buffer — so freed mappings are kept in a small cache keyed
// by their exact length (a training or inference loop frees and reallocates the same sizes every
// step) and handed out again after a memset, which runs at memory bandwidth. The cache holds at
// most kCacheBytes; to take in a new mapping it returns the oldest ones to the system, so sizes a
// finished workload left behind (another model, another batch size) never crowd out the sizes in
// use now — measured: MobileNetV2 b1 in the predictor ran 3x slower after ResNet-50 b8 had filled
// the cache, every run faulting its buffers in afresh. Small buffers use the allocator and are
// zeroed explicitly.
static constexpr size_t kMmapThreshold = size_t(1) << 20;
static constexpr size_t kCacheBytes = size_t(256) << 20;

namespace {
struct MapCache {
  std::mutex mu;
  /** Cached mappings, oldest first. A few dozen at most: a linear search costs far less than a fault. */
  std::list<std::pair<size_t, void*>> free;
  size_t bytes = 0;
};
MapCache& map_cache() { static MapCache* c = new MapCache(); return *c; }   // never destroyed: storages may die at exit

// Set by make_storage_uninit around its constructor call: the constructor's signature is shared
// by every kernel file (tensor.h), so the no-clear variant is selected here instead of by a
// second constructor.
thread_local bool t_skip_clear = false;

void* take_cached(size_t len) {
  auto& c = map_cache();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto it = c.free.rbegin(); it != c.free.rend(); ++it) {   // the most recently freed first
    if (it->first != len) continue;
    void* p = it->second;
    c.free.erase(std::next(it).base());
    c.bytes -= len;
    return p;
  }
  return nullptr;
}

bool keep_cached(void* p, size_t len) {
  auto& c = map_cache();
  if (len > kCacheBytes) return false;
  std::lock_guard<std::mutex> lock(c.mu);
  while (c.bytes + len > kCacheBytes) {   // make room: the oldest mappings go back to the system
    auto& [olen, op] = c.free.front();
    munmap(op, olen);
    c.bytes -= olen;
    c.free.pop_front();
  }
  c.free.emplace_back(len, p);
  c.bytes += len;
  return true;
}
}  // namespace

Storage::Storage(size_t nbytes) : bytes(nbytes) {
  size_t alloc = ((nbytes + 63) / 64) * 64;
  if (alloc == 0) alloc = 64;
  if (alloc >= kMmapThreshold) {
    void* p = take_cached(alloc);
    if (p) {
      if (!t_skip_clear) std::memset(p, 0, alloc);
    } else {
      p = mmap(nullptr, alloc, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw SkiffError("out of memory allocating " + std::to_string(nbytes) + " bytes");
#ifdef MADV_HUGEPAGE
      madvise(p, alloc, MADV_HUGEPAGE);
#endif
    }
    data = p;
    mapped = alloc;
  } else {
    data = std::aligned_alloc(64, alloc);
    if (!data) throw SkiffError("out of memory allocating " + std::to_string(nbytes) + " bytes");
    if (!t_skip_clear) std::memset(data, 0, alloc);
  }
  auto& m = mem_stats();
  m.live_storages++;
  int64_t now = (m.live_bytes += (int64_t)nbytes);
  int64_t peak = m.peak_bytes.load();
  while (now > peak && !m.peak_bytes.compare_exchange_weak(peak, now)) {}
}

std::shared_ptr<Storage> make_storage_uninit(size_t nbytes) {
  struct Flag {
    Flag() { t_skip_clear = true; }
    ~Flag() { t_skip_clear = false; }  // also when the allocation throws
  } flag;
  return std::make_shared<Storage>(nbytes);
}

Storage::~Storage() {
  if (mapped) { if (!keep_cached(data, mapped)) munmap(data, mapped); }
  else std::free(data);
  auto& m = mem_stats();
  m.live_storages--;
  m.live_bytes -= (int64_t)bytes;
}

bool Tensor::is_contiguous() const {
  int64_t expect = 1;
  for (int64_t i = ndim() - 1; i >= 0; i--) {
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (int64_t i = (int64_t)shape.size() - 1; i >= 0; i--) { s[i] = acc; acc *= shape[i]; }
  return s;
}

int64_t checked_numel(const std::vector<int64_t>& shape, const char* op) {
  int64_t n = 1;
  for (auto d : shape) {
    if (d < 0) throw SkiffError(std::string(op) + ": negative dimension in shape " + shape_str(shape));
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d / 8)
      throw SkiffError(std::string(op) + ": shape " + shape_str(shape) + " is too large");
    n *= d;
  }
  return n;
}

std::shared_ptr<Tensor> make_tensor(DType dt, const std::vector<int64_t>& shape, const char* op) {
  int64_t n = checked_numel(shape, op);
  auto t = std::make_shared<Tensor>();
  t->dtype = dt;
  t->shape = shape;
  t->strides = contiguous_strides(shape);
  t->storage = std::make_shared<Storage>((size_t)n * dtype_size(dt));
  return t;
}

void strided_copy(const Tensor& src, Tensor& dst) {
  SKIFF_CHECK(src.shape == dst.shape && src.dtype == dst.dtype, "copy: shape/dtype mismatch " + shape_str(src.shape) + " vs " + shape_str(dst.shape));
  int64_t n = src.numel();
  if (n == 0) return;
  size_t es = src.itemsize();
  if (src.is_contiguous() && dst.is_contiguous()) { std::memcpy(dst.raw(), src.raw(), (size_t)n * es); return; }
  int nd = (int)src.ndim();
  std::vector<int64_t> idx(nd, 0);
  const char* sp = static_cast<const char*>(src.raw());
  char* dp = static_cast<char*>(dst.raw());
  int64_t so = 0, doff = 0;
  for (int64_t i = 0; i < n; i++) {
    std::memcpy(dp + doff * (int64_t)es, sp + so * (int64_t)es, es);
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < src.shape[d]) { so += src.strides[d]; doff += dst.strides[d]; break; }
      so -= src.strides[d] * (src.shape[d] - 1); doff -= dst.strides[d] * (dst.shape[d] - 1); idx[d] = 0;
    }
  }
}

std::shared_ptr<Tensor> contiguous(const std::shared_ptr<Tensor>& t) {
  if (t->is_contiguous()) return t;
  auto out = make_tensor(t->dtype, t->shape, "contiguous");
  strided_copy(*t, *out);
  return out;
}

HandleTable& handles() { static HandleTable h; return h; }

int32_t HandleTable::add(std::shared_ptr<Tensor> t) {
  int32_t h;
  if (!free_.empty()) { h = free_.back(); free_.pop_back(); slots_[h] = std::move(t); }
  else { h = (int32_t)slots_.size(); slots_.push_back(std::move(t)); }
  live_++;
  mem_stats().live_tensors = live_;
  return h;
}

const std::shared_ptr<Tensor>& HandleTable::get(int64_t h, const char* op) const {
  if (h <= 0 || h >= (int64_t)slots_.size() || !slots_[h])
    throw SkiffError(std::string(op) + ": invalid or freed tensor handle " + std::to_string(h));
  return slots_[h];
}

bool HandleTable::release(int64_t h) {
  if (h <= 0 || h >= (int64_t)slots_.size() || !slots_[h]) return false;
  slots_[h].reset();
  free_.push_back((int32_t)h);
  live_--;
  mem_stats().live_tensors = live_;
  return true;
}

}  // namespace skiff
