// 1x1 convolutions with few output pixels per image (ResNet's 14x14 and 7x7 stages, their stride-2
// downsample shortcuts) as the transposed GEMM out^T [N*P, Cout] = X^T [N*P, Cin] * W^T [Cin, Cout].
// The implicit-GEMM conv (nn_conv.cc) puts an image's P pixels in the register tile's 32-wide
// columns: P = 49 fills 64 (77%), P = 196 fills 224 (88%). Here pixels are the 8-row side and may
// span images (P = 49 at batch 8 is 392 = 49 full tiles) and output channels the 32-wide side.
// See nn_conv_1x1.cc. conv2d / fused_conv2d_add_act call it when conv1x1t_applies(); the switch
// SKIFF_CONV_1X1T (read on every call) is 0 = never, 1 = by the shape rule (default), 2 = for
// every float32 NCHW 1x1 conv without padding (tests use it to reach small and odd shapes).
#pragma once
#include <cstdint>
#include <functional>
#include "tensor.h"

namespace skiff {

struct Conv1x1 {
  int64_t N, C, Cout, OH, OW, sh, sw;  // output pixel (oh, ow) reads input pixel (oh * sh, ow * sw)
  int64_t xn, xc, xh, xw;              // input element strides (NCHW)
};

// Whether to take the transposed path for this (already validated) float32 NCHW 1x1 unpadded conv;
// const_weight: the weight is a constant input (its packed form is cached across runs).
bool conv1x1t_applies(const Conv1x1& a, bool const_weight);

// Applied by the caller to each finished output block of image n: channels [co0, co1), flat
// pixels [p0, p1) (bias, activation) while it is still in cache. Empty: nothing.
using Conv1x1Epilogue = std::function<void(int64_t n, int64_t co0, int64_t co1, int64_t p0, int64_t p1)>;

// out [N, Cout, OH, OW] (contiguous) = conv(x, weight [Cout, C, 1, 1] dense). w_in is the kernel's
// input 1 (the constant cache keys the packed weight on it when it is a constant input).
void conv1x1t_f32(const Conv1x1& a, const Tensor& w_in, const float* W, const float* X, float* O, const Conv1x1Epilogue& epi);

}  // namespace skiff
