// polygamma(x, n): the n-th derivative of digamma; defs in src/ops/defs/special_more.ts.
// Attribute layout: [n] (a non-negative integer, checked here too).
//
// n = 0 is digamma. For n >= 1, psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x) with the Hurwitz zeta
// summed directly until the argument reaches a cutoff A, then closed by Euler-Maclaurin:
//   zeta(s, q) = sum_{k<N} (q+k)^-s + a^(1-s)/(s-1) + a^-s/2 + sum_j B_2j/(2j)! s(s+1)..(s+2j-2) a^(-s-2j+1)
// with a = q + N >= A. A grows with s so the tail's terms keep shrinking (their ratio is about
// ((s+2j)/(2 pi a))^2). s is an integer, so the direct sum is also valid for negative
// non-integer x; the non-positive integers are poles (+-inf). Every dtype computes in double.
#include <cmath>
#include <limits>
#include "special_math.h"
#include "unary_block.h"

namespace skiff {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

// B_2j / (2j)!, j = 1..12.
struct BernoulliTable {
  double v[12];
  BernoulliTable() {
    const double b[12] = {1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6, -3617.0 / 510,
                          43867.0 / 798, -174611.0 / 330, 854513.0 / 138, -236364091.0 / 2730};
    double f = 1;
    for (int j = 1; j <= 12; j++) {
      f *= (2.0 * j - 1) * (2.0 * j);
      v[j - 1] = b[j - 1] / f;
    }
  }
};
const BernoulliTable kB;

// Hurwitz zeta for integer s >= 2 and any q that is not a pole.
double hurwitz_zeta(double s, double q) {
  const double cutoff = std::max(12.0, s + 4);
  double sum = 0, a = q;
  while (a < cutoff) {
    const double t = std::pow(a, -s);
    sum += t;
    a += 1;
  }
  const double as = std::pow(a, -s);
  double tail = a * as / (s - 1) + 0.5 * as;
  double fac = s / a;  // s (s+1) .. (s+2j-2) / a^(2j-1)
  for (int j = 0; j < 12; j++) {
    const double t = as * fac * kB.v[j];
    tail += t;
    if (std::fabs(t) <= 1e-17 * std::fabs(sum + tail)) break;
    fac *= (s + 2 * j + 1) * (s + 2 * j + 2) / (a * a);
  }
  return sum + tail;
}

double polygamma_d(double x, int64_t n) {
  if (n == 0) return special::digamma(x);
  if (x != x || x == -kInf) return kNaN;
  if (x == kInf) return 0;
  const double sign = (n % 2 == 1) ? 1.0 : -1.0;  // (-1)^(n+1)
  if (x <= 0 && std::floor(x) == x) return sign * kInf;
  const double lfact = std::lgamma((double)n + 1);
  const double z = hurwitz_zeta((double)n + 1, x);
  // n! zeta without overflowing n! on its own (n! alone overflows past n = 170).
  const double mag = std::exp(lfact + std::log(std::fabs(z)));
  return sign * (z < 0 ? -mag : mag);
}

template <typename V>
void polygamma_blk(const V* __restrict x, V* __restrict o, int64_t n, const double* p) {
  const int64_t order = (int64_t)p[0];
  for (int64_t i = 0; i < n; i++) o[i] = (V)polygamma_d((double)x[i], order);
}

void k_polygamma(KernelCall& c) {
  const double n = c.attr(0);
  if (!(n >= 0) || n != std::floor(n) || n > 1e6)
    throw SkiffError("polygamma: n must be a non-negative integer, got " + std::to_string(n));
  const double p[1] = {n};
  run_unary_blocks(c, UnaryBlocks{polygamma_blk<float>, polygamma_blk<double>}, p);
}

}  // namespace
SKIFF_KERNEL("polygamma", k_polygamma);
}  // namespace skiff
