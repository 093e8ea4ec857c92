#include "generator.h"

#include <random>

namespace skiff {

Generator::Generator() {
  std::random_device rd;
  st_.seed = ((uint64_t)rd() << 32) ^ rd();
  st_.offset = 0;
}

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lk(mu_);
  st_ = GeneratorState{seed, 0};
}

GeneratorState Generator::state() {
  std::lock_guard<std::mutex> lk(mu_);
  return st_;
}

void Generator::set_state(GeneratorState s) {
  std::lock_guard<std::mutex> lk(mu_);
  st_ = s;
}

GeneratorState Generator::reserve(uint64_t blocks) {
  std::lock_guard<std::mutex> lk(mu_);
  GeneratorState got = st_;
  st_.offset += blocks;
  return got;
}

Generator& default_generator() {
  static Generator g;
  return g;
}

}  // namespace skiff
