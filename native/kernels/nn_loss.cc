// cross_entropy: inputs input, label, [weight];
// attrs [ignore_index, reduction (0 none, 1 mean, 2 sum), soft_label, axis, use_softmax, hasWeight,
// label_smoothing]. With label_smoothing > 0 a hard label y stands for the soft label
// (1 - ls) onehot(y) + ls / C, as Paddle 2.6 rewrites it (so the loss keeps the class axis as 1).
// Reduction rules are Paddle 2.6's (see src/ops/defs/nn_loss.ts). Labels are validated before
// anything is computed; per-sample losses and sums are accumulated in double.
#include <cmath>
#include <limits>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

// Paddle's TolerableValue: log(0) = -inf becomes -1e20 so a loss stays finite.
inline double tolerable(double v) { return v == INFINITY ? 1e20 : v == -INFINITY ? -1e20 : v; }

template <typename L>
int64_t label_at(const Tensor& t, int64_t i) { return (int64_t)t.data<L>()[i]; }

void k_cross_entropy(KernelCall& c) {
  c.expect_outputs(1);
  const int64_t ii = c.iattr(0), red = c.iattr(1), axis = c.iattr(3);
  const bool soft = c.iattr(2) != 0, use_sm = c.iattr(4) != 0, has_w = c.iattr(5) != 0;
  const double ls = c.attrs.size() > 6 ? c.attr(6) : 0.0;
  if (!(ls >= 0 && ls <= 1)) throw SkiffError("cross_entropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
  c.expect_inputs(has_w ? 3 : 2);
  Tensor &x = c.input(0), &lab = c.input(1), &o = c.output(0);
  const Tensor* wt = has_w ? &c.input(2) : nullptr;
  const int64_t rank = x.ndim();
  if (rank == 0) throw SkiffError("cross_entropy: The dimention of input should be larger than zero!");
  if (!is_floating(x.dtype)) throw SkiffError(std::string("cross_entropy: expected a floating dtype, got ") + dtype_name(x.dtype));
  if (axis < 0 || axis >= rank) throw SkiffError("cross_entropy: axis " + S(axis) + " is out of range for rank " + S(rank));
  if (red < 0 || red > 2) throw SkiffError("cross_entropy: invalid reduction code " + S(red));
  const int64_t C = x.shape[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; d++) { if (d < axis) outer *= x.shape[d]; else if (d > axis) inner *= x.shape[d]; }
  const int64_t ns = outer * inner;
  std::vector<int64_t> loss_shape = x.shape;
  loss_shape[axis] = 1;
  if (soft) {
    if (lab.shape != x.shape) throw SkiffError("cross_entropy: soft labels must have the input's shape " + shape_str(x.shape) + ", got " + shape_str(lab.shape));
    if (lab.dtype != x.dtype) throw SkiffError(std::string("cross_entropy: soft label dtype ") + dtype_name(lab.dtype) + " differs from input dtype " + dtype_name(x.dtype));
  } else {
    if (lab.dtype != DType::I32 && lab.dtype != DType::I64) throw SkiffError(std::string("cross_entropy: hard labels must be int32 or int64, got ") + dtype_name(lab.dtype));
    std::vector<int64_t> squeezed = x.shape;
    squeezed.erase(squeezed.begin() + axis);
    if (lab.shape != loss_shape && lab.shape != squeezed)
      throw SkiffError("cross_entropy: label shape " + shape_str(lab.shape) + " does not match input " + shape_str(x.shape) + " (class axis " + S(axis) + ")");
  }
  if (wt) {
    if (wt->ndim() != 1 || wt->shape[0] != C) throw SkiffError("cross_entropy: input's class_dimension(" + S(C) + ") must equal to weight's class_dimension, got weight " + shape_str(wt->shape));
    if (wt->dtype != x.dtype) throw SkiffError(std::string("cross_entropy: weight dtype ") + dtype_name(wt->dtype) + " differs from input dtype " + dtype_name(x.dtype));
  }
  c.expect_out_shape(0, red != 0 ? std::vector<int64_t>{} : soft || ls > 0 ? loss_shape : lab.shape);
  c.expect_out_dtype(0, x.dtype);

  const Tensor& ld = c.dense(1);
  if (!soft) {
    auto check = [&](auto tag) {
      using L = decltype(tag);
      const L* p = ld.data<L>();
      for (int64_t i = 0; i < ns; i++) {
        const int64_t v = (int64_t)p[i];
        if ((v != ii || ls > 0) && (v < 0 || v >= C))  // smoothed labels are one-hot encoded: no ignore_index
          throw SkiffError("cross_entropy: label " + S(v) + " (at flat index " + S(i) + ") is out of range [0, " + S(C) + "); labels must be class indices or ignore_index (" + S(ii) + ")");
      }
    };
    if (ld.dtype == DType::I32) check(int32_t{}); else check(int64_t{});
  }
  const Tensor& xd = c.dense(0);
  std::vector<double> loss((size_t)ns), w((size_t)ns, 1.0), cnt((size_t)ns, 1.0);  // cnt: mask sum per sample
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    const T* X = xd.data<T>();
    std::vector<double> wv;
    if (wt) {
      auto wd = contiguous(c.in[2]);
      for (int64_t k = 0; k < C; k++) wv.push_back((double)Compute<T>::load(wd->data<T>()[k]));
    }
    const T* SL = soft ? ld.data<T>() : nullptr;
    parallel_for(ns, std::max<int64_t>(1, 8192 / std::max<int64_t>(1, C)), [&](int64_t b, int64_t e) {
      for (int64_t smp = b; smp < e; smp++) {
        const int64_t o0 = smp / inner, i0 = smp % inner;
        const T* xs = X + o0 * C * inner + i0;
        auto xv = [&](int64_t k) { return (double)Compute<T>::load(xs[k * inner]); };
        double lse = 0;
        if (use_sm) {
          double m = -INFINITY;
          for (int64_t k = 0; k < C; k++) { const double v = xv(k); m = v > m || v != v ? v : m; }
          double sum = 0;
          for (int64_t k = 0; k < C; k++) sum += std::exp(xv(k) - m);
          lse = m + std::log(sum);
        }
        auto logp = [&](int64_t k) { return use_sm ? xv(k) - lse : tolerable(std::log(xv(k))); };
        if (!soft) {
          const int64_t v = ld.dtype == DType::I32 ? label_at<int32_t>(ld, smp) : label_at<int64_t>(ld, smp);
          if (ls > 0) {
            double all = 0, wall = 0;
            for (int64_t k = 0; k < C; k++) { all += logp(k); if (wt) wall += wv[k]; }
            loss[smp] = -((1 - ls) * logp(v) + ls / (double)C * all);
            if (wt) w[smp] = (1 - ls) * wv[v] + ls / (double)C * wall;
            loss[smp] *= w[smp];
            continue;
          }
          if (v == ii) { loss[smp] = 0; w[smp] = 0; cnt[smp] = 0; continue; }
          loss[smp] = -logp(v);
          if (wt) w[smp] = wv[v];
        } else {
          const T* lrow = SL + o0 * C * inner + i0;
          double acc = 0, ws = 0, nz = 0;
          for (int64_t k = 0; k < C; k++) {
            const double l0 = (double)Compute<T>::load(lrow[k * inner]);
            const double l = ls > 0 ? (1 - ls) * l0 + ls / (double)C : l0;  // Paddle's label_smooth
            if (l != 0) acc += l * logp(k);  // 0 * log(0) counts as 0
            if (wt) ws += l * wv[k];
            nz += l != (double)ii ? 1 : 0;
          }
          loss[smp] = -acc;
          if (wt) w[smp] = ws;
          cnt[smp] = nz;
        }
        loss[smp] *= w[smp];
      }
    });
    T* O = o.data<T>();
    if (red == 0) {
      for (int64_t smp = 0; smp < ns; smp++) O[smp] = Compute<T>::store((compute_t<T>)loss[smp]);
      return;
    }
    double total = 0;
    for (double v : loss) total += v;
    if (red == 2) { O[0] = Compute<T>::store((compute_t<T>)total); return; }
    double den;
    if (ii >= 0) {  // Paddle masks label != ignore_index (elementwise for soft labels) and, with a weight, weighs that mask
      den = 0;
      for (int64_t smp = 0; smp < ns; smp++) den += wt ? cnt[smp] * w[smp] : cnt[smp];
      if (den == 0) den = 1;
    } else if (wt) {
      den = 0;
      for (double v : w) den += v;
      if (den == 0) den = 1;
    } else {
      den = (double)ns;  // mean_all: 0 / 0 = NaN for an empty batch, as in Paddle
    }
    O[0] = Compute<T>::store((compute_t<T>)(total / den));
  });
}

}  // namespace
SKIFF_KERNEL("cross_entropy", k_cross_entropy);
}  // namespace skiff
