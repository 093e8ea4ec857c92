// avg_pool_grad: the backward of the average pools over 1-3 spatial dims (avg_pool1d/3d and
// adaptive_avg_pool{1,2,3}d, nn_pool_more.cc). Input out_grad; output x_grad, allocated with the
// forward input's shape. attrs: the forward pool's layout
//   [nd, isMax (0), adaptive, k0, k1, k2, s0, s1, s2, padAlgo, p0a, p0b, p1a, p1b, p2a, p2b,
//    ceil, channelLast, exclusive, divisor (NaN: none), returnMask (0)]
// Windows are the forward's ([start, end) per dim, clipped to the input; adaptive:
// [floor(q * In / Out), ceil((q + 1) * In / Out))) and each window's gradient is divided exactly
// as the forward divided its sum, then added to every cell the window covered. One [N, C] plane
// per task, accumulated in the compute type in per-thread scratch, so there are no write races
// and half types do not round on every addition.
#include <cmath>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct Windows {
  int64_t in[3], out[3], volume = 1;
  std::vector<int64_t> lo[3], hi[3];
};

template <typename T>
void avg_grad_impl(const Windows& w, int64_t N, int64_t C, bool cl, bool exclusive, double divisor, const Tensor& gd, Tensor& dx) {
  using A = compute_t<T>;
  const T* G = gd.data<T>();
  T* DX = dx.data<T>();
  const int64_t P = w.out[0] * w.out[1] * w.out[2], Q = w.in[0] * w.in[1] * w.in[2];
  const int64_t work = P * std::max<int64_t>(1, w.volume) + Q;
  parallel_for(N * C, std::max<int64_t>(1, 65536 / std::max<int64_t>(1, work)), [&](int64_t b, int64_t e) {
    A* acc = nn::scratch<A>(0, (size_t)Q);
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / C, ch = nc % C;
      for (int64_t q = 0; q < Q; q++) acc[q] = 0;
      int64_t p = 0;
      for (int64_t o0 = 0; o0 < w.out[0]; o0++)
        for (int64_t o1 = 0; o1 < w.out[1]; o1++)
          for (int64_t o2 = 0; o2 < w.out[2]; o2++, p++) {
            const int64_t s0 = w.lo[0][o0], e0 = w.hi[0][o0], s1 = w.lo[1][o1], e1 = w.hi[1][o1], s2 = w.lo[2][o2], e2 = w.hi[2][o2];
            const int64_t area = std::max<int64_t>(0, e0 - s0) * std::max<int64_t>(0, e1 - s1) * std::max<int64_t>(0, e2 - s2);
            if (area == 0) continue;
            A share = Compute<T>::load(G[cl ? (n * P + p) * C + ch : nc * P + p]) / (A)(exclusive ? area : w.volume);
            if (!std::isnan(divisor)) share = share * (A)w.volume / (A)divisor;
            for (int64_t i0 = s0; i0 < e0; i0++)
              for (int64_t i1 = s1; i1 < e1; i1++) {
                A* row = acc + (i0 * w.in[1] + i1) * w.in[2];
                for (int64_t i2 = s2; i2 < e2; i2++) row[i2] += share;
              }
          }
      if (cl) for (int64_t q = 0; q < Q; q++) DX[(n * Q + q) * C + ch] = Compute<T>::store(acc[q]);
      else for (int64_t q = 0; q < Q; q++) DX[nc * Q + q] = Compute<T>::store(acc[q]);
    }
  });
}

void k_avg_pool_grad(KernelCall& c) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(1);
  const int nd = (int)c.iattr(0);
  const bool adaptive = c.iattr(2) != 0;
  int64_t k[3], s[3], pads[6];
  for (int i = 0; i < 3; i++) { k[i] = c.iattr(3 + i); s[i] = c.iattr(6 + i); }
  const int64_t algo = c.iattr(9);
  for (int i = 0; i < 6; i++) pads[i] = c.iattr(10 + i);
  const bool ceil = c.iattr(16) != 0, cl = c.iattr(17) != 0, exclusive = c.iattr(18) != 0;
  const double divisor = c.attr(19);
  const Tensor& g = c.input(0);
  Tensor& dx = c.output(0);
  if (nd < 1 || nd > 3) throw SkiffError(std::string(op) + ": invalid spatial rank " + S(nd));
  if (c.iattr(1) != 0 || c.iattr(20) != 0) throw SkiffError(std::string(op) + ": only average pools have this backward (isMax and returnMask must be 0)");
  if (g.ndim() != nd + 2) throw SkiffError(std::string(op) + ": out_grad should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(g.shape));
  if (dx.ndim() != nd + 2) throw SkiffError(std::string(op) + ": x_grad should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(dx.shape));
  if (!is_floating(g.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(g.dtype));
  if (algo < 0 || algo > 2) throw SkiffError(std::string(op) + ": invalid padding algorithm code " + S(algo));
  if (!std::isnan(divisor) && (divisor == 0 || !std::isfinite(divisor))) throw SkiffError(std::string(op) + ": divisor_override must be a nonzero number");
  c.expect_out_dtype(0, g.dtype);
  const int64_t N = dx.shape[0], C = cl ? dx.shape[nd + 1] : dx.shape[1];
  Windows w;
  std::vector<int64_t> gshape{N};
  if (!cl) gshape.push_back(C);
  for (int i = 0; i < 3; i++) {
    const int j = i - (3 - nd);  // spatial index in the tensor, < 0 for padded slots
    if (j < 0) { w.in[i] = 1; w.out[i] = 1; w.lo[i] = {0}; w.hi[i] = {1}; continue; }
    const int xd = cl ? 1 + j : 2 + j;
    w.in[i] = dx.shape[xd];
    const int64_t od = g.shape[xd];
    if (adaptive) {
      if (od <= 0 && w.in[i] > 0) throw SkiffError(std::string(op) + ": adaptive output sizes must be positive, got out_grad " + shape_str(g.shape));
      w.out[i] = od;
      w.lo[i].resize((size_t)od); w.hi[i].resize((size_t)od);
      for (int64_t q = 0; q < od; q++) {
        w.lo[i][q] = (q * w.in[i]) / od;
        w.hi[i][q] = ((q + 1) * w.in[i] + od - 1) / od;
      }
    } else {
      if (k[i] <= 0) throw SkiffError(std::string(op) + ": kernel_size must be positive, got " + S(k[i]));
      if (s[i] <= 0) throw SkiffError(std::string(op) + ": stride must be positive, got " + S(s[i]));
      int64_t p0 = pads[2 * i], p1 = pads[2 * i + 1];
      if (p0 < 0 || p1 < 0) throw SkiffError(std::string(op) + ": padding must be non-negative");
      if (algo == 1) nn::same_pads(w.in[i], k[i], s[i], p0, p1);
      else if (algo == 2) p0 = p1 = 0;
      static const char* names[3] = {"depth", "height", "width"};
      w.out[i] = nn::window_out(op, nd == 1 ? "length" : names[i], w.in[i], k[i], s[i], 1, p0, p1, ceil);
      w.volume *= k[i];
      w.lo[i].resize((size_t)w.out[i]); w.hi[i].resize((size_t)w.out[i]);
      for (int64_t q = 0; q < w.out[i]; q++) {
        const int64_t st = q * s[i] - p0;
        w.lo[i][q] = std::max<int64_t>(st, 0);
        w.hi[i][q] = std::min(st + k[i], w.in[i]);
      }
    }
    gshape.push_back(w.out[i]);
  }
  if (cl) gshape.push_back(C);
  if (gshape != g.shape)
    throw SkiffError(std::string(op) + ": out_grad shape " + shape_str(g.shape) + " does not match the pool output " + shape_str(gshape) + " for x " + shape_str(dx.shape));
  if (adaptive) w.volume = 1;
  if (dx.numel() == 0) return;
  const Tensor& gd = c.dense(0);
  dispatch_float(g.dtype, op, [&](auto tag) { avg_grad_impl<decltype(tag)>(w, N, C, cl, exclusive, divisor, gd, dx); });
}

}  // namespace
SKIFF_KERNEL("avg_pool_grad", k_avg_pool_grad);
}  // namespace skiff
