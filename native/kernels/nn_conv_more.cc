// conv1d / conv3d and conv{1,2,3}d_transpose through one generic path over three spatial dims
// (1-D and 2-D inputs are viewed as D = H = 1 / D = 1, with stride 0 on the missing dims).
//
// conv: attrs [nd, s0, s1, s2, d0, d1, d2, groups, padAlgo (0 explicit, 1 SAME, 2 VALID),
//              p0a, p0b, p1a, p1b, p2a, p2b, channelLast, hasBias]
//   (spatial entries are right-aligned: a 1-D conv uses slot 2, a 2-D conv slots 1 and 2;
//    unused slots hold 1 / 0). Per image and group: im2col gathers cols [K = Cg*kd*kh*kw, P]
//   in blocks of output rows, then out_g [Og, P] = W_g [Og, K] * cols (channel-last writes
//   out [P, Cout] through the transposed product; the GEMM takes any operand strides).
// conv_transpose: the same attrs; the output size (output_padding / output_size, resolved by
//   infer) is read from the preallocated output and checked to lie in [base, base + max(s, d)).
//   weight [Cin, Cout/groups, k...]. Per image and group: cols [Cog*taps, Pin] = W_g^T * x_g,
//   then col2im scatter-adds every column into the output (each channel written by one thread).
// Whole images per thread when the batch covers the pool, else the GEMM and gathers use it.
// float16/bfloat16 compute in float32 (Compute<T>) and round on store.
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>
#include "../gemm/gemm.h"
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

struct ConvN {
  int nd;
  int64_t N, C, Cout, groups, Cg, Og;
  int64_t in[3], k[3], out[3], s[3], d[3], p[3];  // p: leading pad per dim
  int64_t xs_n, xs_c, xs[3];                       // input element strides
  bool channel_last;
  int64_t taps() const { return k[0] * k[1] * k[2]; }
  int64_t Pin() const { return in[0] * in[1] * in[2]; }
  int64_t Pout() const { return out[0] * out[1] * out[2]; }
};

std::string dims_str(const int64_t* v, int nd) {
  std::string r = "[";
  for (int i = 3 - nd; i < 3; i++) r += (i > 3 - nd ? ", " : "") + S(v[i]);
  return r + "]";
}

// Shared attribute / shape parsing. `transpose`: weight is [Cin, Cout/g, k...].
struct Parsed {
  ConvN a{};
  int64_t pads[6];
  int algo;
  bool has_bias;
};

Parsed parse(KernelCall& c, bool transpose) {
  const char* op = c.op;
  Parsed r{};
  ConvN& a = r.a;
  a.nd = (int)c.iattr(0);
  if (a.nd < 1 || a.nd > 3) throw SkiffError(std::string(op) + ": invalid spatial rank " + S(a.nd));
  for (int i = 0; i < 3; i++) { a.s[i] = c.iattr(1 + i); a.d[i] = c.iattr(4 + i); }
  a.groups = c.iattr(7);
  r.algo = (int)c.iattr(8);
  for (int i = 0; i < 6; i++) r.pads[i] = c.iattr(9 + i);
  const size_t tail = 15;
  a.channel_last = c.iattr(tail) != 0;
  r.has_bias = c.iattr(tail + 1) != 0;
  c.expect_outputs(1);
  c.expect_inputs(r.has_bias ? 3 : 2);
  const Tensor &x = c.input(0), &w = c.input(1);
  const int nd = a.nd;
  if (x.ndim() != nd + 2) throw SkiffError(std::string(op) + ": Input x should be " + S(nd + 2) + "D tensor, but received x with the shape of " + shape_str(x.shape));
  if (w.ndim() != nd + 2) throw SkiffError(std::string(op) + ": weight should be a " + S(nd + 2) + "D tensor, got shape " + shape_str(w.shape));
  if (!is_floating(x.dtype)) throw SkiffError(std::string(op) + ": expected a floating dtype, got " + dtype_name(x.dtype));
  if (w.dtype != x.dtype) throw SkiffError(std::string(op) + ": x and weight have different dtypes " + dtype_name(x.dtype) + " and " + dtype_name(w.dtype));
  for (int i = 3 - nd; i < 3; i++) {
    if (a.s[i] <= 0) throw SkiffError(std::string(op) + ": stride must be positive, got " + dims_str(a.s, nd));
    if (a.d[i] <= 0) throw SkiffError(std::string(op) + ": dilation must be positive, got " + dims_str(a.d, nd));
  }
  if (a.groups <= 0) throw SkiffError(std::string(op) + ": The groups of " + op + " should be greater than 0. Received groups: " + S(a.groups));
  if (r.algo < 0 || r.algo > 2) throw SkiffError(std::string(op) + ": invalid padding algorithm code " + S(r.algo));
  for (int i = 0; i < 6; i++) if (r.pads[i] < 0) throw SkiffError(std::string(op) + ": padding must be non-negative");
  a.N = x.shape[0];
  a.C = a.channel_last ? x.shape[nd + 1] : x.shape[1];
  a.xs_n = x.strides[0];
  a.xs_c = a.channel_last ? x.strides[nd + 1] : x.strides[1];
  for (int i = 0; i < 3; i++) { a.in[i] = 1; a.k[i] = 1; a.xs[i] = 0; }
  for (int j = 0; j < nd; j++) {
    const int i = 3 - nd + j, xd = a.channel_last ? 1 + j : 2 + j;
    a.in[i] = x.shape[xd];
    a.xs[i] = x.strides[xd];
    a.k[i] = w.shape[2 + j];
    if (a.k[i] <= 0) throw SkiffError(std::string(op) + ": weight spatial size must be positive, got weight " + shape_str(w.shape));
  }
  if (a.C % a.groups) throw SkiffError(std::string(op) + ": the channel of input must be divisible by groups, received: the channel of input is " + S(a.C) + ", the shape of input is " + shape_str(x.shape) + ", the groups is " + S(a.groups));
  if (!transpose) {
    a.Cout = w.shape[0];
    a.Cg = w.shape[1];
    if (a.Cg * a.groups != a.C) throw SkiffError(std::string(op) + ": input channels " + S(a.C) + " do not match weight " + shape_str(w.shape) + " with groups " + S(a.groups));
    if (a.Cout % a.groups) throw SkiffError(std::string(op) + ": the number of filters must be divisible by groups, received: the number of filters is " + S(a.Cout) + ", the groups is " + S(a.groups));
    a.Og = a.Cout / a.groups;
  } else {
    if (w.shape[0] != a.C) throw SkiffError(std::string(op) + ": input channels " + S(a.C) + " do not match weight " + shape_str(w.shape) + " (weight dim 0 must equal the input channels)");
    a.Cg = a.C / a.groups;
    a.Og = w.shape[1];
    a.Cout = a.Og * a.groups;
  }
  if (r.has_bias) {
    const Tensor& b = c.input(2);
    if (b.ndim() != 1 || b.shape[0] != a.Cout) throw SkiffError(std::string(op) + ": bias must have shape [" + S(a.Cout) + "], got " + shape_str(b.shape));
    if (b.dtype != x.dtype) throw SkiffError(std::string(op) + ": bias dtype " + dtype_name(b.dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  // Resolve SAME (Paddle recomputes pads from the input size and drops dilation) and VALID.
  for (int i = 3 - nd; i < 3; i++) {
    if (r.algo == 1) { nn::same_pads(a.in[i], a.k[i], a.s[i], r.pads[2 * i], r.pads[2 * i + 1]); a.d[i] = 1; }
    else if (r.algo == 2) r.pads[2 * i] = r.pads[2 * i + 1] = 0;
    a.p[i] = r.pads[2 * i];
  }
  return r;
}

std::vector<int64_t> out_shape(const ConvN& a) {
  std::vector<int64_t> s{a.N};
  if (!a.channel_last) s.push_back(a.Cout);
  for (int i = 3 - a.nd; i < 3; i++) s.push_back(a.out[i]);
  if (a.channel_last) s.push_back(a.Cout);
  return s;
}

// [lo, hi): the positions o in [0, n) whose source o * s + ofs lies in [0, lim).
inline void valid_range(int64_t n, int64_t s, int64_t ofs, int64_t lim, int64_t& lo, int64_t& hi) {
  lo = ofs >= 0 ? 0 : std::min(n, (-ofs + s - 1) / s);
  hi = std::max(lo, std::min(n, lim - 1 - ofs >= 0 ? (lim - 1 - ofs) / s + 1 : 0));
}

// cols[k][p] for output rows [r0, r1) (a row is one (od, oh) pair), channels [ci0, ci1) of the group.
template <typename T, typename A>
void im2col3(const ConvN& a, const T* xg, int64_t r0, int64_t r1, A* cols, int64_t ci0, int64_t ci1) {
  const int64_t OW = a.out[2], pc = (r1 - r0) * OW;
  for (int64_t ci = ci0; ci < ci1; ci++) {
    const T* xc = xg + ci * a.xs_c;
    for (int64_t t0 = 0; t0 < a.k[0]; t0++)
      for (int64_t t1 = 0; t1 < a.k[1]; t1++)
        for (int64_t t2 = 0; t2 < a.k[2]; t2++) {
          A* row = cols + (((ci * a.k[0] + t0) * a.k[1] + t1) * a.k[2] + t2) * pc;
          const int64_t wofs = t2 * a.d[2] - a.p[2];
          int64_t lo, hi;
          valid_range(OW, a.s[2], wofs, a.in[2], lo, hi);
          for (int64_t rr = r0; rr < r1; rr++) {
            A* dst = row + (rr - r0) * OW;
            const int64_t o0 = rr / a.out[1], o1 = rr % a.out[1];
            const int64_t i0 = o0 * a.s[0] - a.p[0] + t0 * a.d[0], i1 = o1 * a.s[1] - a.p[1] + t1 * a.d[1];
            if (i0 < 0 || i0 >= a.in[0] || i1 < 0 || i1 >= a.in[1]) { std::memset((void*)dst, 0, sizeof(A) * OW); continue; }
            const T* src = xc + i0 * a.xs[0] + i1 * a.xs[1];
            for (int64_t o = 0; o < lo; o++) dst[o] = A(0);
            for (int64_t o = lo; o < hi; o++) dst[o] = Compute<T>::load(src[(o * a.s[2] + wofs) * a.xs[2]]);
            for (int64_t o = hi; o < OW; o++) dst[o] = A(0);
          }
        }
  }
}

// Runs `image(n, threads)` for every image: whole images per thread when the batch covers the pool.
template <typename F>
void over_images(int64_t N, const F& image) {
  const int nt = num_threads();
  if (nt > 1 && N >= nt && (N % nt == 0 || N >= 4 * nt)) {
    parallel_for(N, 1, [&](int64_t b, int64_t e) { for (int64_t n = b; n < e; n++) image(n, 1); });
  } else {
    for (int64_t n = 0; n < N; n++) image(n, 0);
  }
}

template <typename T>
std::vector<compute_t<T>> load_all(const Tensor& t) {  // dense tensor -> compute type
  std::vector<compute_t<T>> v((size_t)t.numel());
  const T* p = t.data<T>();
  for (size_t i = 0; i < v.size(); i++) v[i] = Compute<T>::load(p[i]);
  return v;
}

template <typename T>
std::vector<compute_t<T>> load_bias(const Tensor* b, int64_t n) {
  std::vector<compute_t<T>> v((size_t)n, compute_t<T>(0));
  if (b) for (int64_t i = 0; i < n; i++) v[i] = Compute<T>::load(b->data<T>()[i * b->strides[0]]);
  return v;
}

// Depthwise (one input channel per group): a direct sliding window per output plane; as GEMMs
// these would be Og x taps products too small for the packed kernel.
template <typename T, typename A>
void depthwise3(const ConvN& a, const T* X, const A* Wt, const std::vector<A>& bv, bool has_bias, T* O) {
  const int64_t taps = a.taps(), P = a.Pout(), OW = a.out[2];
  parallel_for(a.N * a.Cout, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, P * taps)), [&](int64_t b, int64_t e) {
    A* acc = nn::scratch<A>(2, (size_t)OW);
    for (int64_t nc = b; nc < e; nc++) {
      const int64_t n = nc / a.Cout, co = nc % a.Cout;
      const T* xc = X + n * a.xs_n + (co / a.Og) * a.xs_c;
      const A* w = Wt + co * taps;
      for (int64_t o0 = 0; o0 < a.out[0]; o0++)
        for (int64_t o1 = 0; o1 < a.out[1]; o1++) {
          for (int64_t o = 0; o < OW; o++) acc[o] = has_bias ? bv[co] : A(0);
          for (int64_t t0 = 0; t0 < a.k[0]; t0++) {
            const int64_t i0 = o0 * a.s[0] - a.p[0] + t0 * a.d[0];
            if (i0 < 0 || i0 >= a.in[0]) continue;
            for (int64_t t1 = 0; t1 < a.k[1]; t1++) {
              const int64_t i1 = o1 * a.s[1] - a.p[1] + t1 * a.d[1];
              if (i1 < 0 || i1 >= a.in[1]) continue;
              const T* src = xc + i0 * a.xs[0] + i1 * a.xs[1];
              for (int64_t t2 = 0; t2 < a.k[2]; t2++) {
                const A wv = w[(t0 * a.k[1] + t1) * a.k[2] + t2];
                const int64_t wofs = t2 * a.d[2] - a.p[2];
                int64_t lo, hi;
                valid_range(OW, a.s[2], wofs, a.in[2], lo, hi);
                for (int64_t o = lo; o < hi; o++) acc[o] += wv * Compute<T>::load(src[(o * a.s[2] + wofs) * a.xs[2]]);
              }
            }
          }
          const int64_t p0 = (o0 * a.out[1] + o1) * OW;
          if (a.channel_last) for (int64_t o = 0; o < OW; o++) O[(n * P + p0 + o) * a.Cout + co] = Compute<T>::store(acc[o]);
          else for (int64_t o = 0; o < OW; o++) O[(n * a.Cout + co) * P + p0 + o] = Compute<T>::store(acc[o]);
        }
    }
  });
}

template <typename T>
void conv_impl(const ConvN& a, const Tensor& x, const Tensor& wd, const Tensor* bias, Tensor& out) {
  using A = compute_t<T>;
  constexpr bool direct = std::is_same_v<T, A>;
  const T* X = x.data<T>();
  T* O = out.data<T>();
  const int64_t K = a.Cg * a.taps(), P = a.Pout(), OW = a.out[2], R = a.out[0] * a.out[1];
  std::vector<A> wbuf;
  const A* Wt;
  if constexpr (direct) Wt = wd.data<T>();
  else { wbuf = load_all<T>(wd); Wt = wbuf.data(); }
  const std::vector<A> bv = load_bias<T>(bias, a.Cout);
  if (a.Cg == 1 && a.groups > 1) return depthwise3<T, A>(a, X, Wt, bv, bias != nullptr, O);
  const int64_t rows = std::max<int64_t>(1, std::min<int64_t>(R, (int64_t(1) << 20) / std::max<int64_t>(1, K * OW)));
  over_images(a.N, [&](int64_t n, int threads) {
    for (int64_t g = 0; g < a.groups; g++) {
      const T* xg = X + n * a.xs_n + g * a.Cg * a.xs_c;
      const A* Wg = Wt + g * a.Og * K;
      for (int64_t r0 = 0; r0 < R; r0 += rows) {
        const int64_t r1 = std::min(R, r0 + rows), p0 = r0 * OW, pc = (r1 - r0) * OW;
        A* cols = nn::scratch<A>(0, (size_t)(K * pc));
        const int64_t grain = threads == 1 ? INT64_MAX : 1;
        parallel_for(a.Cg, grain, [&](int64_t b, int64_t e) { im2col3<T, A>(a, xg, r0, r1, cols, b, e); });
        bool done = false;
        if constexpr (direct) {
          if (!a.channel_last) {
            T* Cp = O + (n * a.Cout + g * a.Og) * P + p0;
            gemm(a.Og, pc, K, A(1), Wg, K, 1, cols, pc, 1, A(0), Cp, P, threads);
            if (bias) for (int64_t o = 0; o < a.Og; o++) { T* r = Cp + o * P; const A b = bv[g * a.Og + o]; for (int64_t p = 0; p < pc; p++) r[p] += b; }
          } else {
            T* Cp = O + (n * P + p0) * a.Cout + g * a.Og;
            gemm(pc, a.Og, K, A(1), cols, 1, pc, Wg, 1, K, A(0), Cp, a.Cout, threads);
            if (bias) for (int64_t p = 0; p < pc; p++) for (int64_t o = 0; o < a.Og; o++) Cp[p * a.Cout + o] += bv[g * a.Og + o];
          }
          done = true;
        }
        if (!done) {
          A* tmp = nn::scratch<A>(1, (size_t)(a.Og * pc));
          gemm(a.Og, pc, K, A(1), Wg, K, 1, cols, pc, 1, A(0), tmp, pc, threads);
          for (int64_t o = 0; o < a.Og; o++) {
            const int64_t co = g * a.Og + o;
            for (int64_t p = 0; p < pc; p++) {
              const int64_t oi = a.channel_last ? (n * P + p0 + p) * a.Cout + co : (n * a.Cout + co) * P + p0 + p;
              O[oi] = Compute<T>::store(tmp[o * pc + p] + bv[co]);
            }
          }
        }
      }
    }
  });
}

void k_convnd(KernelCall& c) {
  Parsed r = parse(c, false);
  ConvN& a = r.a;
  for (int i = 3 - a.nd; i < 3; i++) {
    static const char* names[3] = {"depth", "height", "width"};
    const char* what = a.nd == 1 ? "length" : names[i];
    a.out[i] = nn::window_out(c.op, what, a.in[i], a.k[i], a.s[i], a.d[i], r.pads[2 * i], r.pads[2 * i + 1], false);
  }
  for (int i = 0; i < 3 - a.nd; i++) a.out[i] = 1;
  Tensor& o = c.output(0);
  c.expect_out_shape(0, out_shape(a));
  c.expect_out_dtype(0, c.input(0).dtype);
  if (o.numel() == 0) return;
  const Tensor& wd = c.dense(1);
  const Tensor* bias = r.has_bias ? &c.input(2) : nullptr;
  dispatch_float(c.input(0).dtype, c.op, [&](auto tag) { conv_impl<decltype(tag)>(a, c.input(0), wd, bias, o); });
}

// ---- transpose ----

template <typename T>
void convt_impl(const ConvN& a, const Tensor& xd, const Tensor& wd, const Tensor* bias, Tensor& out) {
  using A = compute_t<T>;
  constexpr bool direct = std::is_same_v<T, A>;
  const int64_t taps = a.taps(), K = a.Og * taps, Pin = a.Pin(), Pout = a.Pout();
  const int64_t IW = a.in[2], OW = a.out[2];
  std::vector<A> wbuf;
  const A* Wt;
  if constexpr (direct) Wt = wd.data<T>();
  else { wbuf = load_all<T>(wd); Wt = wbuf.data(); }
  const std::vector<A> bv = load_bias<T>(bias, a.Cout);
  const T* X = xd.data<T>();  // dense: NC... or N...C
  T* O = out.data<T>();
  over_images(a.N, [&](int64_t n, int threads) {
    const int64_t grain = threads == 1 ? INT64_MAX : 1;
    const A* Xn;
    if constexpr (direct) Xn = X + n * a.C * Pin;
    else {
      A* xb = nn::scratch<A>(2, (size_t)(a.C * Pin));
      const T* src = X + n * a.C * Pin;
      for (int64_t i = 0; i < a.C * Pin; i++) xb[i] = Compute<T>::load(src[i]);
      Xn = xb;
    }
    A* ob = nn::scratch<A>(1, (size_t)(a.Cout * Pout));
    std::memset((void*)ob, 0, sizeof(A) * (size_t)(a.Cout * Pout));
    A* cols = nn::scratch<A>(0, (size_t)(K * Pin));
    for (int64_t g = 0; g < a.groups; g++) {
      const A* Wg = Wt + g * a.Cg * K;  // [Cg, K] row-major; used transposed
      const A* xg = a.channel_last ? Xn + g * a.Cg : Xn + g * a.Cg * Pin;
      const int64_t rsb = a.channel_last ? 1 : Pin, csb = a.channel_last ? a.C : 1;
      gemm(K, Pin, a.Cg, A(1), Wg, 1, K, xg, rsb, csb, A(0), cols, Pin, threads);
      parallel_for(a.Og, grain, [&](int64_t b, int64_t e) {
        for (int64_t oc = b; oc < e; oc++) {
          A* dst = ob + (g * a.Og + oc) * Pout;
          for (int64_t t0 = 0; t0 < a.k[0]; t0++)
            for (int64_t t1 = 0; t1 < a.k[1]; t1++)
              for (int64_t t2 = 0; t2 < a.k[2]; t2++) {
                const A* row = cols + (((oc * a.k[0] + t0) * a.k[1] + t1) * a.k[2] + t2) * Pin;
                const int64_t wofs = t2 * a.d[2] - a.p[2];
                int64_t lo, hi;
                valid_range(IW, a.s[2], wofs, OW, lo, hi);
                for (int64_t i0 = 0; i0 < a.in[0]; i0++) {
                  const int64_t o0 = i0 * a.s[0] - a.p[0] + t0 * a.d[0];
                  if (o0 < 0 || o0 >= a.out[0]) continue;
                  for (int64_t i1 = 0; i1 < a.in[1]; i1++) {
                    const int64_t o1 = i1 * a.s[1] - a.p[1] + t1 * a.d[1];
                    if (o1 < 0 || o1 >= a.out[1]) continue;
                    const A* src = row + (i0 * a.in[1] + i1) * IW;
                    A* orow = dst + (o0 * a.out[1] + o1) * OW;
                    for (int64_t i2 = lo; i2 < hi; i2++) orow[i2 * a.s[2] + wofs] += src[i2];
                  }
                }
              }
        }
      });
    }
    T* On = O + n * a.Cout * Pout;
    parallel_for(a.Cout, grain, [&](int64_t b, int64_t e) {
      for (int64_t co = b; co < e; co++) {
        const A* src = ob + co * Pout;
        if (a.channel_last) for (int64_t p = 0; p < Pout; p++) On[p * a.Cout + co] = Compute<T>::store(src[p] + bv[co]);
        else for (int64_t p = 0; p < Pout; p++) On[co * Pout + p] = Compute<T>::store(src[p] + bv[co]);
      }
    });
  });
}

void k_conv_transpose(KernelCall& c) {
  Parsed r = parse(c, true);
  ConvN& a = r.a;
  for (int i = 0; i < 3; i++) a.out[i] = 1;
  for (int i = 3 - a.nd; i < 3; i++) {
    const Tensor& ot = c.output(0);
    if (ot.ndim() != a.nd + 2) throw SkiffError(std::string(c.op) + ": output rank " + S(ot.ndim()) + " does not match input " + shape_str(c.input(0).shape));
    const int64_t want = ot.shape[(a.channel_last ? 1 : 2) + i - (3 - a.nd)];
    const int64_t base = (a.in[i] - 1) * a.s[i] - r.pads[2 * i] - r.pads[2 * i + 1] + a.d[i] * (a.k[i] - 1) + 1;
    if (base <= 0) throw SkiffError(std::string(c.op) + ": output size would be " + S(base) + " for input size " + S(a.in[i]) + " (padding too large)");
    if (want < base || want >= base + std::max(a.s[i], a.d[i]))
      throw SkiffError(std::string(c.op) + ": output size " + S(want) + " is outside [" + S(base) + ", " + S(base + std::max(a.s[i], a.d[i])) + ") for input size " + S(a.in[i]));
    a.out[i] = want;
  }
  Tensor& o = c.output(0);
  c.expect_out_shape(0, out_shape(a));
  c.expect_out_dtype(0, c.input(0).dtype);
  if (o.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  const Tensor& wd = c.dense(1);
  const Tensor* bias = r.has_bias ? &c.input(2) : nullptr;
  dispatch_float(xd.dtype, c.op, [&](auto tag) { convt_impl<decltype(tag)>(a, xd, wd, bias, o); });
}

}  // namespace
SKIFF_KERNEL("conv1d", k_convnd);
SKIFF_KERNEL("conv3d", k_convnd);
SKIFF_KERNEL("conv1d_transpose", k_conv_transpose);
SKIFF_KERNEL("conv2d_transpose", k_conv_transpose);
SKIFF_KERNEL("conv3d_transpose", k_conv_transpose);
}  // namespace skiff
