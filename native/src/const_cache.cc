// See const_cache.h.
#include "const_cache.h"

#include <map>

namespace skiff {
namespace {

thread_local const ConstInputs* tl_current = nullptr;
int64_t built = 0;

// [storage address, offset, tag, ndim, shape..., strides...]
std::vector<int64_t> key_of(const ConstCacheEntry& e) {
  std::vector<int64_t> k{(int64_t)(intptr_t)e.storage.get(), e.offset, e.tag, (int64_t)e.shape.size()};
  k.insert(k.end(), e.shape.begin(), e.shape.end());
  k.insert(k.end(), e.strides.begin(), e.strides.end());
  return k;
}

// A live weak entry implies a live holder, which keeps the storage alive: its address is unique.
std::map<std::vector<int64_t>, std::weak_ptr<void>>& shared_values() {
  static std::map<std::vector<int64_t>, std::weak_ptr<void>> m;
  return m;
}

}  // namespace

void set_current_const_inputs(const ConstInputs* c) { tl_current = c; }

bool const_input(size_t i) {
  const ConstInputs* ci = tl_current;
  return ci && i < 32 && ((ci->mask >> i) & 1u) && ci->entries && i < ci->entries->size();
}

ConstCacheEntry* const_cache_for(size_t i, const Tensor& t, int tag) {
  const ConstInputs* ci = tl_current;
  if (!ci || i >= 32 || !((ci->mask >> i) & 1u) || !ci->entries || i >= ci->entries->size()) return nullptr;
  ConstCacheEntry& e = (*ci->entries)[i];
  if (e.storage != t.storage || e.offset != t.offset || e.tag != tag || e.shape != t.shape || e.strides != t.strides) {
    e = ConstCacheEntry{};
    e.storage = t.storage;
    e.offset = t.offset;
    e.tag = tag;
    e.shape = t.shape;
    e.strides = t.strides;
  }
  return &e;
}

std::shared_ptr<void> shared_const_value(const ConstCacheEntry& e, const std::function<std::shared_ptr<void>()>& make) {
  auto& m = shared_values();
  const auto key = key_of(e);
  auto it = m.find(key);
  if (it != m.end()) {
    if (auto v = it->second.lock()) return v;
  }
  std::shared_ptr<void> v = make();
  built++;
  // Drop expired entries now and then so the table stays the size of what is alive.
  if (m.size() > 64) {
    for (auto j = m.begin(); j != m.end();) j = j->second.expired() ? m.erase(j) : std::next(j);
  }
  m[key] = v;
  return v;
}

int64_t const_values_built() { return built; }

}  // namespace skiff
