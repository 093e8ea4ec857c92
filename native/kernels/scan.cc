// Scans along one axis (definitions: src/ops/defs/scan.ts): cumprod, cummax, cummin,
// logcumsumexp. Attrs: [axis (NaN: the flattened input)].
//
// The dense input is viewed as [outer, n, inner]; a task scans one outer index over a chunk
// of up to kScanChunk inner positions, so the loop over the chunk is contiguous (vectorizable)
// and each step reads one row. When the output dtype differs from the input's (cumprod and
// logcumsumexp with `dtype`), the input is first converted by the cast kernel, so the scan
// loops are instantiated once per dtype rather than per dtype pair.
#include <cmath>
#include <limits>
#include <type_traits>
#include "elementwise_loops.h"

namespace skiff {
namespace {

constexpr int64_t kScanChunk = 256;
constexpr int64_t kScanGrain = 32768;

struct Geom { int64_t outer = 1, n = 1, inner = 1; };

// Checks the axis attribute and the output shapes (every output has the scan's shape).
Geom scan_geom(KernelCall& c, size_t n_out) {
  c.expect_inputs(1);
  c.expect_outputs(n_out);
  if (c.attrs.size() != 1) throw SkiffError(std::string(c.op) + ": expected attribute [axis]");
  const Tensor& x = c.input(0);
  const int64_t rank = x.ndim(), numel = x.numel();
  Geom g;
  std::vector<int64_t> shape = x.shape;
  if (c.attr(0) != c.attr(0)) {
    g.n = numel;
    shape = {numel};
  } else {
    const int64_t a = c.iattr(0);
    if (!(rank == 0 && a == 0) && (a < 0 || a >= rank))
      throw SkiffError(std::string(c.op) + ": axis " + std::to_string(a) + " is out of range for a tensor of rank " + std::to_string(rank));
    if (rank > 0) {
      g.n = x.shape[(size_t)a];
      for (int64_t d = 0; d < a; d++) g.outer *= x.shape[(size_t)d];
      for (int64_t d = a + 1; d < rank; d++) g.inner *= x.shape[(size_t)d];
    }
  }
  for (size_t i = 0; i < n_out; i++) c.expect_out_shape(i, shape);
  return g;
}

// Runs f(offset, len) for every (outer, inner chunk) task: elements offset + j * inner + [0, len) for j < n.
template <typename F>
void scan_tasks(const Geom& g, const F& f) {
  if (g.outer * g.n * g.inner == 0) return;
  const int64_t chunks = (g.inner + kScanChunk - 1) / kScanChunk;
  const int64_t per_task = g.n * std::min(g.inner, kScanChunk);
  parallel_for(g.outer * chunks, std::max<int64_t>(1, kScanGrain / std::max<int64_t>(1, per_task)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; t++) {
      const int64_t ou = t / chunks, k0 = (t % chunks) * kScanChunk;
      f(ou * g.n * g.inner + k0, std::min(kScanChunk, g.inner - k0));
    }
  });
}

// The input as a dense tensor of dtype `dt` (converted by the cast kernel when it differs).
std::shared_ptr<Tensor> input_as(KernelCall& c, DType dt) {
  const Tensor& x = c.dense(0);
  if (x.dtype == dt) return nullptr;
  KernelCall cc;
  cc.op = "cast";
  cc.in.push_back(c.in[0]);
  cc.out.push_back(make_tensor(dt, x.shape, c.op));
  cc.attrs.push_back((double)(int)dt);
  kernel_fn(kernel_id("cast"))(cc);
  return cc.out[0];
}

void k_cumprod(KernelCall& c) {
  const Geom g = scan_geom(c, 1);
  Tensor& o = c.output(0);
  if (o.dtype == DType::Bool) throw SkiffError("cumprod: bool output is not supported (dtype bool)");
  auto conv = input_as(c, o.dtype);
  const Tensor& x = conv ? *conv : c.dense(0);
  dispatch_nonbool(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, T>;
    const T* px = x.data<T>();
    T* po = o.data<T>();
    scan_tasks(g, [&](int64_t off, int64_t len) {
      A acc[kScanChunk];
      for (int64_t k = 0; k < len; k++) acc[k] = A(1);
      for (int64_t j = 0; j < g.n; j++) {
        const T* __restrict row = px + off + j * g.inner;
        T* __restrict out = po + off + j * g.inner;
        for (int64_t k = 0; k < len; k++) {
          acc[k] = wrap_mul(acc[k], (A)Compute<T>::load(row[k]));
          out[k] = Compute<T>::store((compute_t<T>)acc[k]);
        }
      }
    });
  });
}

void k_logcumsumexp(KernelCall& c) {
  const Geom g = scan_geom(c, 1);
  Tensor& o = c.output(0);
  if (!is_floating(c.input(0).dtype)) throw SkiffError(std::string("logcumsumexp: expected a floating-point input, got ") + dtype_name(c.input(0).dtype));
  auto conv = input_as(c, o.dtype);
  const Tensor& x = conv ? *conv : c.dense(0);
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* po = o.data<T>();
    constexpr double inf = std::numeric_limits<double>::infinity();
    scan_tasks(g, [&](int64_t off, int64_t len) {
      double acc[kScanChunk];
      for (int64_t k = 0; k < len; k++) acc[k] = -inf;
      for (int64_t j = 0; j < g.n; j++) {
        const T* row = px + off + j * g.inner;
        T* out = po + off + j * g.inner;
        for (int64_t k = 0; k < len; k++) {
          const double v = (double)Compute<T>::load(row[k]), a = acc[k];
          double r;
          if (v != v || a != a) r = std::numeric_limits<double>::quiet_NaN();
          else {
            const double hi = v > a ? v : a, lo = v > a ? a : v;
            r = lo == -inf ? hi : (hi == inf ? inf : hi + std::log1p(std::exp(lo - hi)));
          }
          acc[k] = r;
          out[k] = Compute<T>::store((compute_t<T>)r);
        }
      }
    });
  });
}

// cummax/cummin: values keep x's dtype; indices int32 or int64 (output 1's dtype).
template <bool Max>
void k_cum_extreme(KernelCall& c) {
  const Geom g = scan_geom(c, 2);
  const Tensor& x = c.dense(0);
  Tensor &o = c.output(0), &oi = c.output(1);
  c.expect_out_dtype(0, x.dtype);
  if (oi.dtype != DType::I32 && oi.dtype != DType::I64)
    throw SkiffError(std::string(c.op) + ": indices dtype must be int32 or int64, got " + dtype_name(oi.dtype));
  const bool i64 = oi.dtype == DType::I64;
  dispatch_nonbool(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using V = compute_t<T>;
    const T* px = x.data<T>();
    T* po = o.data<T>();
    scan_tasks(g, [&](int64_t off, int64_t len) {
      V acc[kScanChunk];
      int64_t idx[kScanChunk];
      for (int64_t j = 0; j < g.n; j++) {
        const T* row = px + off + j * g.inner;
        const int64_t base = off + j * g.inner;
        for (int64_t k = 0; k < len; k++) {
          const V v = Compute<T>::load(row[k]);
          bool take = j == 0;
          if constexpr (std::is_floating_point_v<V>) take = take || v != v || (acc[k] == acc[k] && (Max ? v >= acc[k] : v <= acc[k]));
          else take = take || (Max ? v >= acc[k] : v <= acc[k]);
          if (take) { acc[k] = v; idx[k] = j; }
          po[base + k] = Compute<T>::store(acc[k]);
          if (i64) oi.data<int64_t>()[base + k] = idx[k];
          else oi.data<int32_t>()[base + k] = (int32_t)idx[k];
        }
      }
    });
  });
}

}  // namespace
SKIFF_KERNEL("cumprod", k_cumprod);
SKIFF_KERNEL("logcumsumexp", k_logcumsumexp);
SKIFF_KERNEL("cummax", k_cum_extreme<true>);
SKIFF_KERNEL("cummin", k_cum_extreme<false>);
}  // namespace skiff
