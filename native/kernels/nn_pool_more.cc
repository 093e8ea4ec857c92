// Pooling over 1-3 spatial dims (max_pool1d/3d, avg_pool1d/3d, adaptive_{avg,max}_pool{1,2,3}d)
// through one generic kernel, and max_unpool{1,2,3}d.
//
// pool attrs [nd, isMax, adaptive, k0, k1, k2, s0, s1, s2, padAlgo (0 explicit, 1 SAME, 2 VALID),
//             p0a, p0b, p1a, p1b, p2a, p2b, ceil, channelLast, exclusive, divisor (NaN: none), returnMask]
//   (spatial slots right-aligned, unused ones 1 / 0). Windows come from per-dim tables of
//   [start, end): strided windows clipped to the input as in Paddle's Pool functors (padding is
//   never read; avg divides by the clipped size when exclusive, else by the kernel volume, then
//   divisor_override scales by volume / divisor), or adaptive windows
//   [floor(i * In / Out), ceil((i + 1) * In / Out)) whose sizes come from the allocated output.
//   The optional int32 mask holds each maximum's flat index within its input plane.
// unpool attrs [nd]: inputs x and int32 indices of one shape; every value is written to its
//   index within the output plane (sized by the allocated output), the rest is zero.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct PoolN {
  int nd;
  int64_t N, C, in[3], out[3], xs_n, xs_c, xs[3], volume;
  bool is_max, channel_last, exclusive;
  double divisor;
  std::vector<int64_t> lo[3], hi[3];
};

template <typename T, bool IsMax>
void pool_impl(const PoolN& a, const Tensor& x, Tensor& o, Tensor* mask) {
  using A = compute_t<T>;
  const T* X = x.data<T>();
  T* O = o.data<T>();
  int32_t* M = mask ? mask->data<int32_t>() : nullptr;
  const int64_t P = a.out[0] * a.out[1] * a.out[2];
  const int64_t work = P * std::max<int64_t>(1, a.volume);
  parallel_for(a.N * a.C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, work)), [&](int64_t b, int64_t e) {
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / a.C, ch = nc % a.C;
      const T* xp = X + n * a.xs_n + ch * a.xs_c;
      int64_t p = 0;
      for (int64_t o0 = 0; o0 < a.out[0]; o0++)
        for (int64_t o1 = 0; o1 < a.out[1]; o1++)
          for (int64_t o2 = 0; o2 < a.out[2]; o2++, p++) {
            const int64_t s0 = a.lo[0][o0], e0 = a.hi[0][o0], s1 = a.lo[1][o1], e1 = a.hi[1][o1], s2 = a.lo[2][o2], e2 = a.hi[2][o2];
            const int64_t oi = a.channel_last ? (n * P + p) * a.C + ch : nc * P + p;
            if constexpr (IsMax) {
              A m = std::numeric_limits<A>::lowest();
              int64_t idx = -1;
              for (int64_t i0 = s0; i0 < e0; i0++)
                for (int64_t i1 = s1; i1 < e1; i1++)
                  for (int64_t i2 = s2; i2 < e2; i2++) {
                    const A v = Compute<T>::load(xp[i0 * a.xs[0] + i1 * a.xs[1] + i2 * a.xs[2]]);
                    if (v > m || (v != v && m == m) || idx < 0) { m = v; idx = (i0 * a.in[1] + i1) * a.in[2] + i2; }
                  }
              O[oi] = Compute<T>::store(m);
              if (M) M[oi] = (int32_t)idx;
            } else {
              A s = 0;
              for (int64_t i0 = s0; i0 < e0; i0++)
                for (int64_t i1 = s1; i1 < e1; i1++)
                  for (int64_t i2 = s2; i2 < e2; i2++) s += Compute<T>::load(xp[i0 * a.xs[0] + i1 * a.xs[1] + i2 * a.xs[2]]);
              const int64_t area = std::max<int64_t>(0, e0 - s0) * std::max<int64_t>(0, e1 - s1) * std::max<int64_t>(0, e2 - s2);
              A r = s / (A)(a.exclusive ? area : a.volume);
              if (!std::isnan(a.divisor)) r = r * (A)a.volume / (A)a.divisor;
              O[oi] = Compute<T>::store(r);
            }
          }
    }
  });
}

void k_pool(KernelCall& c) {
  const char* op = c.op;
  PoolN a{};
  a.nd = (int)c.iattr(0);
  a.is_max = c.iattr(1) != 0;
  const bool adaptive = c.iattr(2) != 0;
  int64_t k[3], s[3], pads[6];
  for (int i = 0; i < 3; i++) { k[i] = c.iattr(3 + i); s[i] = c.iattr(6 + i); }
  const int64_t algo = c.iattr(9);
  for (int i = 0; i < 6; i++) pads[i] = c.iattr(10 + i);
  const bool ceil = c.iattr(16) != 0;
  a.channel_last = c.iattr(17) != 0;
  a.exclusive = c.iattr(18) != 0;
  a.divisor = c.attr(19);
  const bool want_mask = c.iattr(20) != 0;
  c.expect_inputs(1);
  c.expect_outputs(want_mask ? 2 : 1);
  const Tensor& x = c.input(0);
  Tensor& o = c.output(0);
  const int nd = a.nd;
  if (nd < 1 || nd > 3) throw SkiffError(std::string(op) + ": invalid spatial rank " + S(nd));
  if (x.ndim() != nd + 2) throw SkiffError(std::string(op) + ": input should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (want_mask && (!a.is_max || a.channel_last)) throw SkiffError(std::string(op) + ": return_mask needs max pooling in a channel-first layout");
  if (algo < 0 || algo > 2) throw SkiffError(std::string(op) + ": invalid padding algorithm code " + S(algo));
  if (!std::isnan(a.divisor) && (a.divisor == 0 || !std::isfinite(a.divisor))) throw SkiffError(std::string(op) + ": divisor_override must be a nonzero number");
  if (o.ndim() != nd + 2) throw SkiffError(std::string(op) + ": output rank " + S(o.ndim()) + " does not match input " + shape_str(x.shape));
  a.N = x.shape[0];
  a.C = a.channel_last ? x.shape[nd + 1] : x.shape[1];
  a.xs_n = x.strides[0];
  a.xs_c = a.channel_last ? x.strides[nd + 1] : x.strides[1];
  a.volume = 1;
  for (int i = 0; i < 3; i++) {
    const int j = i - (3 - nd);  // spatial index in the tensor, < 0 for padded slots
    const int xd = a.channel_last ? 1 + j : 2 + j;
    a.in[i] = j < 0 ? 1 : x.shape[xd];
    a.xs[i] = j < 0 ? 0 : x.strides[xd];
    if (j < 0) { a.out[i] = 1; a.lo[i] = {0}; a.hi[i] = {1}; continue; }
    const int64_t od = o.shape[xd];
    if (adaptive) {
      if (od <= 0 && a.in[i] > 0) throw SkiffError(std::string(op) + ": output_size must be positive, got output " + shape_str(o.shape));
      a.out[i] = od;
      a.lo[i].resize((size_t)od); a.hi[i].resize((size_t)od);
      for (int64_t q = 0; q < od; q++) {
        a.lo[i][q] = (q * a.in[i]) / od;
        a.hi[i][q] = ((q + 1) * a.in[i] + od - 1) / od;
      }
      continue;
    }
    if (k[i] <= 0) throw SkiffError(std::string(op) + ": kernel_size must be positive, got " + S(k[i]));
    if (s[i] <= 0) throw SkiffError(std::string(op) + ": stride must be positive, got " + S(s[i]));
    int64_t p0 = pads[2 * i], p1 = pads[2 * i + 1];
    if (p0 < 0 || p1 < 0) throw SkiffError(std::string(op) + ": padding must be non-negative");
    if (algo == 1) nn::same_pads(a.in[i], k[i], s[i], p0, p1);
    else if (algo == 2) p0 = p1 = 0;
    static const char* names[3] = {"depth", "height", "width"};
    a.out[i] = nn::window_out(op, nd == 1 ? "length" : names[i], a.in[i], k[i], s[i], 1, p0, p1, ceil);
    a.volume *= k[i];
    a.lo[i].resize((size_t)a.out[i]); a.hi[i].resize((size_t)a.out[i]);
    for (int64_t q = 0; q < a.out[i]; q++) {
      const int64_t st = q * s[i] - p0;
      a.lo[i][q] = std::max<int64_t>(st, 0);
      a.hi[i][q] = std::min(st + k[i], a.in[i]);
    }
  }
  std::vector<int64_t> oshape{a.N};
  if (!a.channel_last) oshape.push_back(a.C);
  for (int i = 3 - nd; i < 3; i++) oshape.push_back(a.out[i]);
  if (a.channel_last) oshape.push_back(a.C);
  c.expect_out_shape(0, oshape);
  c.expect_out_dtype(0, x.dtype);
  Tensor* mask = nullptr;
  if (want_mask) {
    c.expect_out_shape(1, oshape);
    c.expect_out_dtype(1, DType::I32);
    if (a.in[0] * a.in[1] * a.in[2] > INT32_MAX) throw SkiffError(std::string(op) + ": input plane too large for an int32 mask");
    mask = &c.output(1);
  }
  if (o.numel() == 0) return;
  if (adaptive) for (int i = 0; i < 3; i++) if (a.in[i] == 0) throw SkiffError(std::string(op) + ": input spatial size must be positive, got " + shape_str(x.shape));
  if (adaptive) a.volume = 1;
  dispatch_float(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    if (a.is_max) pool_impl<T, true>(a, x, o, mask);
    else pool_impl<T, false>(a, x, o, nullptr);
  });
}

void k_unpool(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(2);
  c.expect_outputs(1);
  const int nd = (int)c.iattr(0);
  const Tensor &x = c.input(0), &ix = c.input(1);
  Tensor& o = c.output(0);
  if (nd < 1 || nd > 3 || x.ndim() != nd + 2) throw SkiffError(std::string(op) + ": input should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(x.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (ix.dtype != DType::I32 && ix.dtype != DType::I64) throw SkiffError(std::string(op) + ": indices must be int32 or int64, got " + dtype_name(ix.dtype));
  if (ix.shape != x.shape) throw SkiffError(std::string(op) + ": indices shape " + shape_str(ix.shape) + " differs from x " + shape_str(x.shape));
  if (o.ndim() != nd + 2 || o.shape[0] != x.shape[0] || o.shape[1] != x.shape[1]) throw SkiffError(std::string(op) + ": output shape " + shape_str(o.shape) + " does not match x " + shape_str(x.shape));
  c.expect_out_dtype(0, x.dtype);
  int64_t pin = 1, pout = 1;
  for (int i = 0; i < nd; i++) { pin *= x.shape[2 + i]; pout *= o.shape[2 + i]; }
  const int64_t NC = x.shape[0] * x.shape[1];
  if (o.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const Tensor& id = c.dense(1);
  // Validate every index before writing anything.
  const bool i64 = id.dtype == DType::I64;
  const int32_t* I32 = i64 ? nullptr : id.data<int32_t>();
  const int64_t* I64 = i64 ? id.data<int64_t>() : nullptr;
  for (int64_t i = 0; i < NC * pin; i++) {
    const int64_t v = i64 ? I64[i] : I32[i];
    if (v < 0 || v >= pout) throw SkiffError(std::string(op) + ": index " + S(v) + " at position " + S(i) + " is out of range [0, " + S(pout) + ") for output " + shape_str(o.shape));
  }
  std::memset(o.raw(), 0, (size_t)o.numel() * o.itemsize());
  dispatch_float(x.dtype, op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = xd.data<T>();
    T* O = o.data<T>();
    parallel_for(NC, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, pin)), [&](int64_t b, int64_t e) {
      for (int64_t nc = b; nc < e; nc++)
        for (int64_t p = 0; p < pin; p++) {
          const int64_t q = nc * pin + p;
          O[nc * pout + (i64 ? I64[q] : I32[q])] = X[q];
        }
    });
  });
}

}  // namespace
SKIFF_KERNEL("max_pool1d", k_pool);
SKIFF_KERNEL("max_pool3d", k_pool);
SKIFF_KERNEL("avg_pool1d", k_pool);
SKIFF_KERNEL("avg_pool3d", k_pool);
SKIFF_KERNEL("adaptive_avg_pool1d", k_pool);
SKIFF_KERNEL("adaptive_avg_pool2d", k_pool);
SKIFF_KERNEL("adaptive_avg_pool3d", k_pool);
SKIFF_KERNEL("adaptive_max_pool1d", k_pool);
SKIFF_KERNEL("adaptive_max_pool2d", k_pool);
SKIFF_KERNEL("adaptive_max_pool3d", k_pool);
SKIFF_KERNEL("max_unpool1d", k_unpool);
SKIFF_KERNEL("max_unpool2d", k_unpool);
SKIFF_KERNEL("max_unpool3d", k_unpool);
}  // namespace skiff
