// Random ops on the Philox generator (native/src/generator.h).
//   uniform / rand:            attrs [seed, min, max]    (seed 0: the global generator)
//   randn / normal:            attrs [seed, mean, std]
//   randint:                   attrs [low, high]          values in [low, high)
//   dropout:                   attrs [p, training, mode (0 upscale_in_train, 1 downscale_in_infer), naxes, axes...]
// Generator control (no op defs; called by src/ops/defs/random.ts):
//   generator_seed attrs [seed_lo32, seed_hi32]; generator_get_state -> int64 [seed, offset];
//   generator_set_state attrs [seed_lo32, seed_hi32, offset_lo32, offset_hi32].
// Element e of an output reads Philox block (start + e / lanes), so results are the same for
// every thread count. float-like outputs use 4 lanes per block, float64 and int64 draws 2.
#include <cmath>
#include <cstring>
#include <algorithm>
#include "generator.h"
#include "iter.h"
#include "kernel.h"
#include "nn_common.h"
#include "random_common.h"

namespace skiff {
namespace {

using nn::D;
using rng::for_blocks;
using rng::lanes_for;
using rng::seed_attr;

uint64_t u32_pair(KernelCall& c, size_t i) {
  int64_t lo = c.iattr(i), hi = c.iattr(i + 1);
  if (lo < 0 || lo > 0xFFFFFFFFll || hi < 0 || hi > 0xFFFFFFFFll) throw SkiffError(std::string(c.op) + ": expected 32-bit halves");
  return ((uint64_t)hi << 32) | (uint64_t)lo;
}


void check_out(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  if (!c.output(0).is_contiguous()) throw SkiffError(std::string(c.op) + ": output must be contiguous");
}

void k_uniform(KernelCall& c) {
  check_out(c);
  Tensor& o = c.output(0);
  const uint64_t seed = seed_attr(c, 0);
  const double lo = c.attr(1), hi = c.attr(2);
  if (!(lo < hi)) throw SkiffError(std::string(c.op) + ": min must be less than max, got min=" + D(lo) + " max=" + D(hi));
  const int64_t n = o.numel();
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    T* p = o.data<T>();
    const int lanes = lanes_for(o.dtype);
    const GeneratorState s = draw_stream(seed, (uint64_t)((n + lanes - 1) / lanes));
    const A a = (A)lo, w = (A)(hi - lo);
    for_blocks(n, lanes, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      for (int64_t l = 0; l < cnt; l++) {
        A u;
        if constexpr (std::is_same_v<A, double>) u = u01_d(r[2 * l], r[2 * l + 1]);
        else u = u01_f(r[l]);
        p[e + l] = Compute<T>::store(a + w * u);
      }
    });
  });
}

void k_gaussian(KernelCall& c) {
  check_out(c);
  Tensor& o = c.output(0);
  const uint64_t seed = seed_attr(c, 0);
  const double mean = c.attr(1), std_ = c.attr(2);
  if (!(std_ >= 0)) throw SkiffError(std::string(c.op) + ": std must be >= 0, got " + D(std_));
  const int64_t n = o.numel();
  dispatch_float(o.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    T* p = o.data<T>();
    const int lanes = lanes_for(o.dtype);
    const GeneratorState s = draw_stream(seed, (uint64_t)((n + lanes - 1) / lanes));
    const A m = (A)mean, sd = (A)std_;
    const A two_pi = (A)6.283185307179586476925286766559;
    // Box-Muller: each pair of uniforms gives two normals; u1 is taken in (0, 1] so log(u1) is finite.
    for_blocks(n, lanes, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      A z[4];
      if constexpr (std::is_same_v<A, double>) {
        const A u1 = 1.0 - u01_d(r[0], r[1]), u2 = u01_d(r[2], r[3]);
        const A rad = std::sqrt(-2.0 * std::log(u1));
        z[0] = rad * std::cos(two_pi * u2); z[1] = rad * std::sin(two_pi * u2);
      } else {
        for (int k = 0; k < 2; k++) {
          const A u1 = 1.0f - u01_f(r[2 * k]), u2 = u01_f(r[2 * k + 1]);
          const A rad = std::sqrt(-2.0f * std::log(u1));
          z[2 * k] = rad * std::cos(two_pi * u2); z[2 * k + 1] = rad * std::sin(two_pi * u2);
        }
      }
      for (int64_t l = 0; l < cnt; l++) p[e + l] = Compute<T>::store(m + sd * z[l]);
    });
  });
}

void k_randint(KernelCall& c) {
  check_out(c);
  Tensor& o = c.output(0);
  const int64_t lo = c.iattr(0), hi = c.iattr(1);
  if (lo >= hi) throw SkiffError(std::string(c.op) + ": low must be less than high, got low=" + std::to_string(lo) + " high=" + std::to_string(hi));
  if (o.dtype != DType::I32 && o.dtype != DType::I64) throw SkiffError(std::string(c.op) + ": dtype must be int32 or int64, got " + dtype_name(o.dtype));
  if (o.dtype == DType::I32 && (lo < INT32_MIN || hi - 1 > INT32_MAX))
    throw SkiffError(std::string(c.op) + ": range [" + std::to_string(lo) + ", " + std::to_string(hi) + ") does not fit int32");
  const int64_t n = o.numel();
  const uint64_t range = (uint64_t)hi - (uint64_t)lo;
  const GeneratorState s = draw_stream(0, (uint64_t)((n + 1) / 2));
  auto gen = [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    // 64 random bits per value: the modulo bias is below range / 2^64.
    for_blocks(n, 2, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      for (int64_t l = 0; l < cnt; l++) {
        const uint64_t u = ((uint64_t)r[2 * l + 1] << 32) | r[2 * l];
        p[e + l] = (T)(int64_t)((uint64_t)lo + u % range);
      }
    });
  };
  if (o.dtype == DType::I32) gen(o.data<int32_t>()); else gen(o.data<int64_t>());
}

void k_dropout(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &o = c.output(0);
  const double p = c.attr(0);
  const bool training = c.attr(1) != 0;
  const int64_t mode = c.iattr(2), naxes = c.iattr(3);
  if (!(p >= 0 && p <= 1)) throw SkiffError("dropout: p must be in [0, 1], got " + D(p));
  if (mode != 0 && mode != 1) throw SkiffError("dropout: invalid mode code " + std::to_string(mode));
  if (!is_floating(x.dtype)) throw SkiffError(std::string("dropout: expected a floating dtype, got ") + dtype_name(x.dtype));
  c.expect_out_shape(0, x.shape);
  c.expect_out_dtype(0, x.dtype);
  const int64_t rank = x.ndim();
  if (naxes < 0 || naxes > rank) throw SkiffError("dropout: invalid number of axes " + std::to_string(naxes));
  // The mask has x's size on the dropout axes (all axes when none are given) and 1 elsewhere.
  std::vector<int64_t> mshape(rank, 1);
  std::vector<bool> seen(rank, false);
  if (naxes == 0) mshape = x.shape;
  for (int64_t i = 0; i < naxes; i++) {
    int64_t a = c.iattr(4 + i);
    if (a < 0 || a >= rank) throw SkiffError("dropout: axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    if (seen[a]) throw SkiffError("dropout: duplicate axis " + std::to_string(a));
    seen[a] = true;
    mshape[a] = x.shape[a];
  }
  const bool upscale = mode == 0;
  // keep[i] = 1 where the element survives; eval mode keeps everything.
  auto keep = make_tensor(DType::U8, mshape, "dropout");
  const int64_t mn = keep->numel();
  uint8_t* kp = keep->data<uint8_t>();
  if (training) {
    const GeneratorState s = draw_stream(0, (uint64_t)((mn + 3) / 4));
    const float pf = (float)p;
    for_blocks(mn, 4, s, [&](const uint32_t* r, int64_t e, int64_t cnt) {
      for (int64_t l = 0; l < cnt; l++) kp[e + l] = u01_f(r[l]) >= pf ? 1 : 0;
    });
  } else {
    std::memset(kp, 1, (size_t)mn);
  }
  auto ks = broadcast_strides(*keep, x.shape, "dropout");
  dispatch_float(x.dtype, c.op, [&](auto tag) {
    using T = decltype(tag);
    using A = compute_t<T>;
    const A scale = training ? (upscale ? (A)(1.0 / (1.0 - p)) : (A)1) : (upscale ? (A)1 : (A)(1.0 - p));
    const bool divide = training && upscale;
    const A keep_prob = (A)(1.0 - p);
    const int64_t es = sizeof(T);
    strided_loop<3>(x.shape, {(char*)o.raw(), (char*)x.raw(), (char*)kp}, {o.strides, x.strides, ks}, {es, es, 1},
                    [&](const std::array<char*, 3>& ptr, const std::array<int64_t, 3>& st, int64_t n) {
                      for (int64_t i = 0; i < n; i++) {
                        const bool k = *(const uint8_t*)(ptr[2] + i * st[2]) != 0;
                        const A v = Compute<T>::load(*(const T*)(ptr[1] + i * st[1]));
                        // Paddle divides by (1 - p) when upscaling in training.
                        const A r = !k ? (A)0 : divide ? v / keep_prob : v * scale;
                        *(T*)(ptr[0] + i * st[0]) = Compute<T>::store(r);
                      }
                    });
  });
}

void k_generator_seed(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(0);
  default_generator().manual_seed(u32_pair(c, 0));
}

void k_generator_get_state(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(1);
  c.expect_out_shape(0, {2});
  c.expect_out_dtype(0, DType::I64);
  GeneratorState s = default_generator().state();
  int64_t* p = c.output(0).data<int64_t>();
  p[0] = (int64_t)s.seed;
  p[1] = (int64_t)s.offset;
}

void k_generator_set_state(KernelCall& c) {
  c.expect_inputs(0);
  c.expect_outputs(0);
  default_generator().set_state(GeneratorState{u32_pair(c, 0), u32_pair(c, 2)});
}

}  // namespace
SKIFF_KERNEL("uniform", k_uniform);
SKIFF_KERNEL("rand", k_uniform);
SKIFF_KERNEL("randn", k_gaussian);
SKIFF_KERNEL("normal", k_gaussian);
SKIFF_KERNEL("randint", k_randint);
SKIFF_KERNEL("dropout", k_dropout);
SKIFF_KERNEL("generator_seed", k_generator_seed);
SKIFF_KERNEL("generator_get_state", k_generator_get_state);
SKIFF_KERNEL("generator_set_state", k_generator_set_state);
}  // namespace skiff
