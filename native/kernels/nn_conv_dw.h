// float32 depthwise 3x3 convolution (groups == C == Cout, NCHW, dilation 1, stride 1 or 2 per
// axis), the MobileNet-style layer. nn_conv.cc routes those shapes here; everything else keeps
// the generic depthwise loop there (which the tests use as the reference, in float64).
#pragma once
#include <cstdint>

namespace skiff {

struct DwConv3 {
  int64_t N, C, H, W, OH, OW;
  int64_t sh, sw, pt, pl;             // strides (1 or 2) and leading padding
  int64_t xn, xc, xh, xw;             // input strides in elements (any view)
  int act;                            // ConvAct code of nn_conv.cc: 0 none, 1 relu, 2 relu6, 3 hardswish
};

// Whether depthwise3x3_f32 handles a convolution with these parameters.
inline bool dw3_applies(int64_t kh, int64_t kw, int64_t dh, int64_t dw, int64_t sh, int64_t sw) {
  return kh == 3 && kw == 3 && dh == 1 && dw == 1 && (sh == 1 || sh == 2) && (sw == 1 || sw == 2);
}

// O [N, C, OH, OW] (contiguous) = act(depthwise(X, Wt [C, 9]) + bias); bias may be null.
// Writes every output element.
void depthwise3x3_f32(const DwConv3& a, const float* X, const float* Wt, const float* bias, float* O);

}  // namespace skiff
