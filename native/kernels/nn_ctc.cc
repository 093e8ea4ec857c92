// ctc_loss (defs: src/ops/defs/nn_ctc.ts): Paddle's F.ctc_loss over warp-ctc semantics. Inputs
// logits [T, B, C] (unnormalized: softmax is applied here, as warp-ctc does), labels [B, L]
// (int32/int64), input_lengths [B], label_lengths [B] (int32/int64); attrs [blank, reduction
// (0 none, 1 mean, 2 sum), norm_by_times]. Outputs: the loss ([B] or []) and warpctcgrad
// [T, B, C], d(loss_b)/d(logits) of each unreduced per-sequence loss, which the grad rule scales.
//
// Per sequence, threaded over the batch: log-softmax of its frames, then the alpha (forward) and
// beta (backward) recursions over the blank-extended label l' (length 2L + 1) in log space:
//   alpha[t][s] = lse(alpha[t-1][s], alpha[t-1][s-1], alpha[t-1][s-2] if l'[s] != blank, l'[s-2]) + lp[t][l'[s]]
//   loss = -lse(alpha[T-1][S-1], alpha[T-1][S-2])
//   d loss / d u[t][k] = softmax[t][k] - exp(lse_{s: l'[s] = k}(alpha[t][s] + beta[t][s]) - lp[t][k] + loss)
// A label sequence that cannot fit in its input (L + repeats > T) has probability 0: its loss is
// +inf and its gradient 0.
#include <cmath>
#include <limits>
#include <vector>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

inline double lse2(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = a > b ? a : b;
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

int64_t int_at(const Tensor& t, int64_t i) {
  return t.dtype == DType::I32 ? (int64_t)t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

void expect_index_dtype(const Tensor& t, const char* what) {
  if (t.dtype != DType::I32 && t.dtype != DType::I64)
    throw SkiffError(std::string("ctc_loss: ") + what + " must be int32 or int64, got " + dtype_name(t.dtype));
}

void k_ctc_loss(KernelCall& c) {
  c.expect_inputs(4);
  c.expect_outputs(2);
  const int64_t blank = c.iattr(0), red = c.iattr(1);
  const bool norm_by_times = c.iattr(2) != 0;
  const Tensor &x = c.input(0), &lab = c.input(1), &il = c.input(2), &ll = c.input(3);
  if (x.ndim() != 3) throw SkiffError("ctc_loss: log_probs must be 3-D [max_logit_length, batch_size, num_classes + 1], got " + shape_str(x.shape));
  if (x.dtype != DType::F32 && x.dtype != DType::F64) throw SkiffError(std::string("ctc_loss: log_probs must be float32 or float64, got ") + dtype_name(x.dtype));
  const int64_t T = x.shape[0], B = x.shape[1], C = x.shape[2];
  if (red < 0 || red > 2) throw SkiffError("ctc_loss: invalid reduction code " + S(red));
  if (blank < 0 || blank >= C) throw SkiffError("ctc_loss: blank " + S(blank) + " is out of range [0, " + S(C) + ") for " + S(C) + " classes");
  if (lab.ndim() != 2 || lab.shape[0] != B) throw SkiffError("ctc_loss: labels must be [batch_size, max_label_length] with batch_size " + S(B) + ", got " + shape_str(lab.shape));
  expect_index_dtype(lab, "labels");
  expect_index_dtype(il, "input_lengths");
  expect_index_dtype(ll, "label_lengths");
  if (il.shape != std::vector<int64_t>{B}) throw SkiffError("ctc_loss: input_lengths must have shape [" + S(B) + "], got " + shape_str(il.shape));
  if (ll.shape != std::vector<int64_t>{B}) throw SkiffError("ctc_loss: label_lengths must have shape [" + S(B) + "], got " + shape_str(ll.shape));
  c.expect_out_shape(0, red == 0 ? std::vector<int64_t>{B} : std::vector<int64_t>{});
  c.expect_out_shape(1, x.shape);
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_dtype(1, x.dtype);
  const int64_t L = lab.shape[1];
  const Tensor &ild = c.dense(2), &lld = c.dense(3), &labd = c.dense(1);
  std::vector<int64_t> tl((size_t)B), ln((size_t)B);
  for (int64_t b = 0; b < B; b++) {
    tl[(size_t)b] = int_at(ild, b);
    ln[(size_t)b] = int_at(lld, b);
    if (tl[(size_t)b] < 0 || tl[(size_t)b] > T)
      throw SkiffError("ctc_loss: input_lengths[" + S(b) + "] = " + S(tl[(size_t)b]) + " is out of range [0, " + S(T) + "] (max_logit_length " + S(T) + ")");
    if (ln[(size_t)b] < 0 || ln[(size_t)b] > L)
      throw SkiffError("ctc_loss: label_lengths[" + S(b) + "] = " + S(ln[(size_t)b]) + " is out of range [0, " + S(L) + "] (max_label_length " + S(L) + ")");
    for (int64_t j = 0; j < ln[(size_t)b]; j++) {
      const int64_t v = int_at(labd, b * L + j);
      if (v < 0 || v >= C || v == blank)
        throw SkiffError("ctc_loss: labels[" + S(b) + ", " + S(j) + "] = " + S(v) + " must be a class in [0, " + S(C) + ") other than blank " + S(blank));
    }
  }
  const Tensor& xd = c.dense(0);
  dispatch_float(x.dtype, "ctc_loss", [&](auto tag) {
    using Tp = decltype(tag);
    const Tp* X = xd.data<Tp>();
    Tp* G = c.output(1).data<Tp>();
    std::vector<double> loss((size_t)B, 0.0);
    parallel_for(B, 1, [&](int64_t b0, int64_t b1) {
      std::vector<double> lp, alpha, beta, acc;
      std::vector<int64_t> ext;
      for (int64_t b = b0; b < b1; b++) {
        const int64_t Tb = tl[(size_t)b], Lb = ln[(size_t)b], S2 = 2 * Lb + 1;
        for (int64_t t = 0; t < T; t++)
          for (int64_t k = 0; k < C; k++) G[(t * B + b) * C + k] = Compute<Tp>::store((compute_t<Tp>)0);
        ext.assign((size_t)S2, blank);
        int64_t repeats = 0;
        for (int64_t j = 0; j < Lb; j++) {
          ext[(size_t)(2 * j + 1)] = int_at(labd, b * L + j);
          if (j > 0 && ext[(size_t)(2 * j + 1)] == ext[(size_t)(2 * j - 1)]) repeats++;
        }
        if (Tb == 0 || Lb + repeats > Tb) {  // no alignment: probability 0 (or the empty sequence)
          loss[(size_t)b] = Tb == 0 && Lb == 0 ? 0.0 : std::numeric_limits<double>::infinity();
          continue;
        }
        // log-softmax of the sequence's frames
        lp.resize((size_t)(Tb * C));
        for (int64_t t = 0; t < Tb; t++) {
          const Tp* u = X + (t * B + b) * C;
          double m = kNegInf;
          for (int64_t k = 0; k < C; k++) m = std::max(m, (double)Compute<Tp>::load(u[k]));
          double s = 0;
          for (int64_t k = 0; k < C; k++) s += std::exp((double)Compute<Tp>::load(u[k]) - m);
          const double z = m + std::log(s);
          for (int64_t k = 0; k < C; k++) lp[(size_t)(t * C + k)] = (double)Compute<Tp>::load(u[k]) - z;
        }
        auto skip = [&](int64_t s) { return s >= 2 && ext[(size_t)s] != blank && ext[(size_t)s] != ext[(size_t)(s - 2)]; };
        alpha.assign((size_t)(Tb * S2), kNegInf);
        beta.assign((size_t)(Tb * S2), kNegInf);
        alpha[0] = lp[(size_t)blank];
        if (S2 > 1) alpha[1] = lp[(size_t)ext[1]];
        for (int64_t t = 1; t < Tb; t++) {
          const double* ap = &alpha[(size_t)((t - 1) * S2)];
          double* a = &alpha[(size_t)(t * S2)];
          for (int64_t s = 0; s < S2; s++) {
            double v = ap[s];
            if (s >= 1) v = lse2(v, ap[s - 1]);
            if (skip(s)) v = lse2(v, ap[s - 2]);
            a[s] = v == kNegInf ? kNegInf : v + lp[(size_t)(t * C + ext[(size_t)s])];
          }
        }
        const double* al = &alpha[(size_t)((Tb - 1) * S2)];
        const double logp = S2 > 1 ? lse2(al[S2 - 1], al[S2 - 2]) : al[0];
        loss[(size_t)b] = -logp;
        if (logp == kNegInf) continue;
        double* bl = &beta[(size_t)((Tb - 1) * S2)];
        bl[S2 - 1] = lp[(size_t)((Tb - 1) * C + blank)];
        if (S2 > 1) bl[S2 - 2] = lp[(size_t)((Tb - 1) * C + ext[(size_t)(S2 - 2)])];
        for (int64_t t = Tb - 2; t >= 0; t--) {
          const double* bn = &beta[(size_t)((t + 1) * S2)];
          double* bt = &beta[(size_t)(t * S2)];
          for (int64_t s = 0; s < S2; s++) {
            double v = bn[s];
            if (s + 1 < S2) v = lse2(v, bn[s + 1]);
            if (s + 2 < S2 && skip(s + 2)) v = lse2(v, bn[s + 2]);
            bt[s] = v == kNegInf ? kNegInf : v + lp[(size_t)(t * C + ext[(size_t)s])];
          }
        }
        const double scale = norm_by_times ? 1.0 / (double)Tb : 1.0;
        acc.resize((size_t)C);
        for (int64_t t = 0; t < Tb; t++) {
          std::fill(acc.begin(), acc.end(), kNegInf);
          for (int64_t s = 0; s < S2; s++) {
            const size_t i = (size_t)(t * S2 + s);
            acc[(size_t)ext[(size_t)s]] = lse2(acc[(size_t)ext[(size_t)s]], alpha[i] + beta[i]);
          }
          for (int64_t k = 0; k < C; k++) {
            const double l = lp[(size_t)(t * C + k)];
            const double occ = acc[(size_t)k] == kNegInf ? 0.0 : std::exp(acc[(size_t)k] - l - logp);
            G[(t * B + b) * C + k] = Compute<Tp>::store((compute_t<Tp>)(scale * (std::exp(l) - occ)));
          }
        }
      }
    });
    Tp* O = c.output(0).data<Tp>();
    if (red == 0) {
      for (int64_t b = 0; b < B; b++) O[b] = Compute<Tp>::store((compute_t<Tp>)loss[(size_t)b]);
      return;
    }
    double s = 0;
    // 'mean' is Paddle's mean(loss / label_lengths)
    for (int64_t b = 0; b < B; b++) s += red == 1 ? loss[(size_t)b] / (double)ln[(size_t)b] : loss[(size_t)b];
    O[0] = Compute<Tp>::store((compute_t<Tp>)(red == 1 ? s / (double)B : s));
  });
}

}  // namespace
SKIFF_KERNEL("ctc_loss", k_ctc_loss);
}  // namespace skiff
