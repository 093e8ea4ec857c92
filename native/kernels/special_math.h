// Scalar special functions shared by more than one kernel file. digamma is both an op of its
// own (unary_special.cc) and polygamma's n = 0 case (polygamma.cc); one definition keeps the
// two ops returning the same bits for the same input.
#pragma once
#include <cmath>
#include <limits>

namespace skiff {
namespace special {

// psi(x): reflection below 0, recurrence up to x >= 10, then the asymptotic series
// ln x - 1/(2x) - sum B_2k / (2k x^2k) truncated after x^-14 (< 1e-16 there).
inline double digamma(double x) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kPi = 3.14159265358979323846;
  if (x != x || x == -kInf) return std::numeric_limits<double>::quiet_NaN();
  if (x == kInf) return kInf;
  if (x <= 0 && std::floor(x) == x) return kInf;  // poles (Paddle returns +inf there)
  double acc = 0;
  if (x < 0) {
    acc = -kPi / std::tan(kPi * x);  // psi(x) = psi(1 - x) - pi cot(pi x)
    x = 1 - x;
  }
  while (x < 10) { acc -= 1 / x; x += 1; }
  const double z = 1 / (x * x);
  const double tail = z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return acc + std::log(x) - 0.5 / x - tail;
}

}  // namespace special
}  // namespace skiff
