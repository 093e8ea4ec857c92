// check_numerics (src/ops/defs/debugging.ts): stats int64 [3] = (num_nan, num_inf, num_zero) and
// values float32 [3] = (max, min, mean) of a floating tensor of any strides. attrs [level]
// (the DebugMode value; the abort on NaN/Inf happens in the public function, which has the
// op_type and var_name strings for its message).
//
// One pass in parallel chunks; per-chunk results are combined in chunk order, so the mean is
// the same for any thread count. Accumulates in double. NaN is counted and skipped by max/min
// (Paddle's std::max/std::min leave a NaN second operand out), but flows into the mean.
// This file must not be built with -ffast-math (isnan/isinf would fold to false).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernel.h"

namespace skiff {
namespace {

struct Stat {
  int64_t nan = 0, inf = 0, zero = 0;
  double mx = -std::numeric_limits<double>::infinity(), mn = std::numeric_limits<double>::infinity(), sum = 0;
  bool any = false;
};

void k_check_numerics(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(2);
  if (c.attrs.size() != 1) throw SkiffError(std::string(c.op) + ": expected attrs [check_nan_inf_level], got " + std::to_string(c.attrs.size()));
  const int64_t level = c.iattr(0);
  if (level < 0 || level > 5) throw SkiffError(std::string(c.op) + ": check_nan_inf_level must be 0..5, got " + std::to_string(level));
  Tensor& x = c.input(0);
  if (!is_floating(x.dtype)) throw SkiffError(std::string(c.op) + ": tensor must be a floating type, got " + dtype_name(x.dtype));
  c.expect_out_dtype(0, DType::I64);
  c.expect_out_shape(0, {3});
  c.expect_out_dtype(1, DType::F32);
  c.expect_out_shape(1, {3});
  const int64_t n = x.numel();
  Stat total;
  if (n > 0) {
    const Tensor& xd = c.dense(0);
    const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(256, n / 32768));
    std::vector<Stat> part((size_t)chunks);
    dispatch_float(x.dtype, "check_numerics", [&](auto tag) {
      using T = decltype(tag);
      const T* p = xd.data<T>();
      parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
        for (int64_t q = c0; q < c1; q++) {
          Stat s;
          for (int64_t i = n * q / chunks, e = n * (q + 1) / chunks; i < e; i++) {
            const double v = (double)Compute<T>::load(p[i]);
            if (std::isnan(v)) { s.nan++; s.sum += v; continue; }
            if (std::isinf(v)) s.inf++;
            else if (v == 0) s.zero++;
            s.mx = std::max(s.mx, v);
            s.mn = std::min(s.mn, v);
            s.any = true;
            s.sum += v;
          }
          part[(size_t)q] = s;
        }
      });
    });
    for (const Stat& s : part) {
      total.nan += s.nan; total.inf += s.inf; total.zero += s.zero; total.sum += s.sum;
      if (s.any) { total.mx = std::max(total.mx, s.mx); total.mn = std::min(total.mn, s.mn); total.any = true; }
    }
  }
  int64_t* st = c.output(0).data<int64_t>();
  st[0] = total.nan; st[1] = total.inf; st[2] = total.zero;
  float* val = c.output(1).data<float>();
  val[0] = total.any ? (float)total.mx : std::numeric_limits<float>::lowest();
  val[1] = total.any ? (float)total.mn : std::numeric_limits<float>::max();
  val[2] = n > 0 ? (float)(total.sum / (double)n) : 0.0f;
}

}  // namespace

SKIFF_KERNEL("check_numerics", k_check_numerics);

}  // namespace skiff
