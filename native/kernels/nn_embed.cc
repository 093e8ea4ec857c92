// embedding (inputs ids, weight [V, D]; attrs [padding_idx in [0, V) or -1]) and
// one_hot (input ids; attrs [num_classes]; float32 output). Every id is checked before the
// output is written.
#include <cstring>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

// Calls fn(position, id) for each id of an int32/int64 dense tensor.
template <typename F>
void each_id(const Tensor& ids, F&& fn) {
  const int64_t n = ids.numel();
  if (ids.dtype == DType::I32) { const int32_t* p = ids.data<int32_t>(); for (int64_t i = 0; i < n; i++) fn(i, (int64_t)p[i]); }
  else { const int64_t* p = ids.data<int64_t>(); for (int64_t i = 0; i < n; i++) fn(i, p[i]); }
}

void check_ids(const char* op, const Tensor& ids, int64_t limit) {
  each_id(ids, [&](int64_t i, int64_t v) {
    if (v < 0 || v >= limit)
      throw SkiffError(std::string(op) + ": index " + S(v) + " (at flat position " + S(i) + ") is out of range [0, " + S(limit) + ")");
  });
}

void k_embedding(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &ids = c.input(0), &w = c.input(1), &o = c.output(0);
  if (ids.dtype != DType::I32 && ids.dtype != DType::I64) throw SkiffError(std::string("embedding: ids must be int32 or int64, got ") + dtype_name(ids.dtype));
  if (w.ndim() != 2) throw SkiffError("embedding: weight must be 2-D [num_embeddings, embedding_dim], got " + shape_str(w.shape));
  const int64_t V = w.shape[0], D = w.shape[1], pad = c.iattr(0);
  if (pad < -1 || pad >= V) throw SkiffError("embedding: padding_idx " + S(pad) + " is out of range for " + S(V) + " embeddings");
  std::vector<int64_t> oshape = ids.shape;
  oshape.push_back(D);
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, w.dtype);
  const Tensor& idd = c.dense(0);
  check_ids("embedding", idd, V);
  if (o.numel() == 0) return;
  const Tensor& wd = c.dense(1);
  const size_t row = (size_t)D * w.itemsize();
  const char* W = static_cast<const char*>(wd.raw());
  char* O = static_cast<char*>(o.raw());
  const int64_t n = idd.numel();
  const bool i32 = idd.dtype == DType::I32;
  parallel_for(n, std::max<int64_t>(1, 65536 / std::max<size_t>(1, row)), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; i++) {
      const int64_t v = i32 ? idd.data<int32_t>()[i] : idd.data<int64_t>()[i];
      if (v == pad) std::memset(O + i * row, 0, row);  // Paddle's forward zeroes the padding row
      else std::memcpy(O + i * row, W + v * row, row);
    }
  });
}

void k_one_hot(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  if (x.dtype != DType::I32 && x.dtype != DType::I64) throw SkiffError(std::string("one_hot: x must be int32 or int64, got ") + dtype_name(x.dtype));
  const int64_t n = c.iattr(0);
  if (n < 0) throw SkiffError("one_hot: num_classes must be non-negative, got " + S(n));
  std::vector<int64_t> oshape = x.shape;
  oshape.push_back(n);
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, DType::F32);
  const Tensor& xd = c.dense(0);
  check_ids("one_hot", xd, n);
  float* O = o.data<float>();
  std::memset(O, 0, sizeof(float) * (size_t)o.numel());
  each_id(xd, [&](int64_t i, int64_t v) { O[i * n + v] = 1.0f; });
}

}  // namespace
SKIFF_KERNEL("embedding", k_embedding);
SKIFF_KERNEL("one_hot", k_one_hot);
}  // namespace skiff
