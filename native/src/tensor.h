// Native tensors: a refcounted Storage (aligned bytes) plus a strided view of it.
// JS and Python only ever hold integer handles into HandleTable.
#pragma once
#include <atomic>
#include <memory>
#include <vector>
#include "dtype.h"
#include "error.h"

namespace skiff {

struct MemStats {
  std::atomic<int64_t> live_storages{0}, live_bytes{0}, peak_bytes{0}, live_tensors{0};
};
MemStats& mem_stats();

struct Storage {
  void* data = nullptr;
  size_t bytes = 0;
  size_t mapped = 0;  // mmap length when the buffer came from mmap (large buffers)
  explicit Storage(size_t nbytes);  // zero-initialised, 64-byte aligned
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
};

struct Tensor {
  std::shared_ptr<Storage> storage;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements; 0 allowed (expanded dims)
  int64_t offset = 0;            // in elements

  int64_t ndim() const { return (int64_t)shape.size(); }
  int64_t numel() const { int64_t n = 1; for (auto d : shape) n *= d; return n; }
  bool is_contiguous() const;
  size_t itemsize() const { return dtype_size(dtype); }
  template <typename T> T* data() const { return reinterpret_cast<T*>(static_cast<char*>(storage->data)) + offset; }
  void* raw() const { return static_cast<char*>(storage->data) + offset * (int64_t)itemsize(); }
};

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape);
// Checks dims (>= 0) and the element count (overflow) before anything is allocated.
int64_t checked_numel(const std::vector<int64_t>& shape, const char* op);
std::shared_ptr<Tensor> make_tensor(DType dt, const std::vector<int64_t>& shape, const char* op = "empty");
// A contiguous copy (or the tensor itself if it already is contiguous and offset-free is not required).
std::shared_ptr<Tensor> contiguous(const std::shared_ptr<Tensor>& t);
// Copies src (any strides) into dst (same shape and dtype, any strides).
void strided_copy(const Tensor& src, Tensor& dst);

// Handle table: int32 handles -> shared tensors. Slot 0 is never used so 0 means "none".
class HandleTable {
 public:
  int32_t add(std::shared_ptr<Tensor> t);
  const std::shared_ptr<Tensor>& get(int64_t h, const char* op = "tensor") const;
  bool release(int64_t h);
  int64_t live() const { return live_; }

 private:
  std::vector<std::shared_ptr<Tensor>> slots_{1};
  std::vector<int32_t> free_;
  int64_t live_ = 0;
};
HandleTable& handles();

}  // namespace skiff
