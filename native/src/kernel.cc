#include <cstring>
#include "kernel.h"
#include <cmath>
#include <unordered_map>

namespace skiff {
namespace {
struct Registry {
  std::vector<std::pair<std::string, KernelFn>> list;
  std::unordered_map<std::string, int> by_name;
};
Registry& reg() { static Registry r; return r; }
}  // namespace

int register_kernel(const char* name, KernelFn fn) {
  auto& r = reg();
  auto it = r.by_name.find(name);
  if (it != r.by_name.end()) { r.list[it->second].second = fn; return it->second; }
  int id = (int)r.list.size();
  r.list.emplace_back(name, fn);
  r.by_name[name] = id;
  return id;
}
int kernel_id(const std::string& name) {
  auto& r = reg();
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? -1 : it->second;
}
KernelFn kernel_fn(int id) {
  auto& r = reg();
  if (id < 0 || id >= (int)r.list.size()) throw SkiffError("unknown kernel id " + std::to_string(id));
  return r.list[id].second;
}
const char* kernel_name(int id) {
  auto& r = reg();
  if (id < 0 || id >= (int)r.list.size()) return "?";
  return r.list[id].first.c_str();
}
std::vector<std::string> kernel_names() {
  std::vector<std::string> out;
  for (auto& p : reg().list) out.push_back(p.first);
  return out;
}

Tensor& KernelCall::input(size_t i) const {
  if (i >= in.size()) throw SkiffError(std::string(op) + ": missing input " + std::to_string(i));
  return *in[i];
}
Tensor& KernelCall::output(size_t i) const {
  if (i >= out.size()) throw SkiffError(std::string(op) + ": missing output " + std::to_string(i));
  if (!out[i]->storage) throw SkiffError(std::string(op) + ": data-dependent output " + std::to_string(i) + " used before alloc_output");
  return *out[i];
}
Tensor& KernelCall::alloc_output(size_t i, const std::vector<int64_t>& shape) {
  if (i >= out.size()) throw SkiffError(std::string(op) + ": missing output " + std::to_string(i));
  if (!is_placeholder(i)) throw SkiffError(std::string(op) + ": output " + std::to_string(i) + " is not a data-dependent placeholder");
  const auto& want = out[i]->shape;
  bool ok = want.size() == shape.size();
  for (size_t d = 0; ok && d < shape.size(); d++) ok = want[d] < 0 || want[d] == shape[d];
  if (!ok) throw SkiffError(std::string(op) + ": output " + std::to_string(i) + " shape " + shape_str(shape) + " does not fit " + shape_str(want));
  out[i] = make_tensor(out[i]->dtype, shape, op);
  return *out[i];
}
const Tensor& KernelCall::dense(size_t i) {
  input(i);
  if (dense_cache_.size() < in.size()) dense_cache_.resize(in.size());
  if (!dense_cache_[i]) dense_cache_[i] = contiguous(in[i]);
  return *dense_cache_[i];
}
std::vector<int64_t> KernelCall::int64_values(size_t i, const char* what) {
  const Tensor& t = dense(i);
  int64_t n = t.numel();
  std::vector<int64_t> v((size_t)n);
  if (t.dtype == DType::I64) { if (n) std::memcpy(v.data(), t.raw(), (size_t)n * 8); }
  else if (t.dtype == DType::I32) { const int32_t* p = t.data<int32_t>(); for (int64_t k = 0; k < n; k++) v[k] = p[k]; }
  else throw SkiffError(std::string(op) + ": " + what + " must be int32 or int64, got " + dtype_name(t.dtype));
  return v;
}
double KernelCall::attr(size_t i) const {
  if (i >= attrs.size()) throw SkiffError(std::string(op) + ": missing attribute #" + std::to_string(i));
  return attrs[i];
}
int64_t KernelCall::iattr(size_t i) const {
  double v = attr(i);
  if (!std::isfinite(v) || v != std::floor(v)) throw SkiffError(std::string(op) + ": attribute #" + std::to_string(i) + " must be an integer");
  return (int64_t)v;
}
void KernelCall::expect_inputs(size_t n) const {
  if (in.size() != n) throw SkiffError(std::string(op) + ": expected " + std::to_string(n) + " inputs, got " + std::to_string(in.size()));
}
void KernelCall::expect_outputs(size_t n) const {
  if (out.size() != n) throw SkiffError(std::string(op) + ": expected " + std::to_string(n) + " outputs, got " + std::to_string(out.size()));
}
void KernelCall::expect_out_shape(size_t i, const std::vector<int64_t>& shape) const {
  if (output(i).shape != shape)
    throw SkiffError(std::string(op) + ": output " + std::to_string(i) + " has shape " + shape_str(output(i).shape) + ", expected " + shape_str(shape));
  if (!output(i).is_contiguous()) throw SkiffError(std::string(op) + ": output must be contiguous");
}
void KernelCall::expect_out_dtype(size_t i, DType dt) const {
  if (output(i).dtype != dt)
    throw SkiffError(std::string(op) + ": output " + std::to_string(i) + " has dtype " + dtype_name(output(i).dtype) + ", expected " + dtype_name(dt));
}
void KernelCall::expect_same_dtype(size_t a, size_t b) const {
  if (input(a).dtype != input(b).dtype)
    throw SkiffError(std::string(op) + ": inputs have different dtypes " + dtype_name(input(a).dtype) + " and " + dtype_name(input(b).dtype));
}

}  // namespace skiff
