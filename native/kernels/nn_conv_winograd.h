// Winograd F(4x4, 3x3) for float32 NCHW 3x3 convolutions with stride 1, no dilation, groups 1
// (ResNet's 3x3 layers): 36 multiplications per 4x4 output tile instead of 144, so the GEMM
// stage does a quarter of the direct convolution's multiply-adds. See nn_conv_winograd.cc.
// conv2d / fused_conv2d_add_act (nn_conv.cc) call it when winograd3x3_applies(); the switch
// SKIFF_CONV_WINOGRAD (read on every call) is 0 = never, 1 = by the shape rules (default),
// 2 = whenever the geometry allows (tests use it to reach small and odd shapes).
#pragma once
#include <cstdint>
#include <functional>
#include "tensor.h"

namespace skiff {

struct WinoConv {
  int64_t N, C, H, W, Cout, OH, OW, pt, pl;  // pads top/left; bottom/right are implied by OH/OW
  int64_t xn, xc, xh, xw;                    // input element strides (NCHW)
};

// Whether to take the Winograd path for this (already validated) float32 3x3 stride-1 conv;
// const_weight: the weight is a constant input (its transform is cached across runs).
bool winograd3x3_applies(const WinoConv& a, bool const_weight);

// Applied by the caller to each finished output rectangle of image n: channels [co0, co1), rows
// [oh0, oh1), columns [ow0, ow1) (bias, activation, whatever the conv op fuses), while it is still
// in cache. Empty: nothing to apply.
using WinoEpilogue = std::function<void(int64_t n, int64_t co0, int64_t co1, int64_t oh0, int64_t oh1, int64_t ow0, int64_t ow1)>;

// out [N, Cout, OH, OW] (contiguous) = conv(x, weight [Cout, C, 3, 3] dense). w_in is the kernel's
// input 1 (the constant cache keys the transformed weight on it when it is a constant input).
void winograd3x3_f32(const WinoConv& a, const Tensor& w_in, const float* W, const float* X, float* O, const WinoEpilogue& epi);

}  // namespace skiff
