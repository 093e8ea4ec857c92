// pixel_shuffle / pixel_unshuffle: pure rearrangements of a 4-D tensor (NCHW or NHWC), copied
// by element size (one instantiation per byte width, not per dtype).
// attrs [r, channelLast]. pixel_shuffle: out[n, c, h*r + i, w*r + j] = x[n, c*r*r + i*r + j, h, w];
// pixel_unshuffle is its inverse. Inputs may be strided; the output is contiguous.
#include <cstdint>
#include <cstring>
#include "kernel.h"
#include "nn_common.h"

namespace skiff {
namespace {

using nn::S;

template <typename E>
void shuffle(const Tensor& x, Tensor& o, int64_t r, bool cl, bool unshuffle) {
  // Logical (n, c, h, w) sizes and strides of the input; output sizes.
  const auto& xs = x.strides;
  const int64_t sN = xs[0], sC = cl ? xs[3] : xs[1], sH = cl ? xs[1] : xs[2], sW = cl ? xs[2] : xs[3];
  const int64_t N = o.shape[0], OC = cl ? o.shape[3] : o.shape[1], OH = cl ? o.shape[1] : o.shape[2], OW = cl ? o.shape[2] : o.shape[3];
  const E* X = x.data<E>();
  E* O = o.data<E>();
  parallel_for(N * OH, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, OW * OC)), [&](int64_t b, int64_t e) {
    for (int64_t nh = b; nh < e; nh++) {
      const int64_t n = nh / OH, oh = nh % OH;
      for (int64_t oc = 0; oc < OC; oc++)
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t ic, ih, iw;
          if (!unshuffle) { ic = oc * r * r + (oh % r) * r + (ow % r); ih = oh / r; iw = ow / r; }
          else { const int64_t c = oc / (r * r), k = oc % (r * r); ic = c; ih = oh * r + k / r; iw = ow * r + k % r; }
          const int64_t oi = cl ? ((n * OH + oh) * OW + ow) * OC + oc : ((n * OC + oc) * OH + oh) * OW + ow;
          O[oi] = X[n * sN + ic * sC + ih * sH + iw * sW];
        }
    }
  });
}

void pixel(KernelCall& c, bool unshuffle) {
  const char* op = c.op;
  c.expect_inputs(1);
  c.expect_outputs(1);
  const int64_t r = c.iattr(0);
  const bool cl = c.iattr(1) != 0;
  const Tensor& x = c.input(0);
  Tensor& o = c.output(0);
  if (x.ndim() != 4) throw SkiffError(std::string(op) + ": input should be a 4-D tensor, got shape " + shape_str(x.shape));
  if (r <= 0 || r > 3037000499LL) throw SkiffError(std::string(op) + ": factor must be a positive int (and its square representable), got " + S(r));
  const int64_t N = x.shape[0], C = cl ? x.shape[3] : x.shape[1], H = cl ? x.shape[1] : x.shape[2], W = cl ? x.shape[2] : x.shape[3];
  int64_t OC, OH, OW;
  if (!unshuffle) {
    if (C % (r * r)) throw SkiffError(std::string(op) + ": The square of upscale_factor[" + S(r) + "] should divide the number of channel[" + S(C) + "]");
    OC = C / (r * r); OH = H * r; OW = W * r;
  } else {
    if (H % r || W % r) throw SkiffError(std::string(op) + ": height " + S(H) + " and width " + S(W) + " must be divisible by downscale_factor " + S(r));
    OC = C * r * r; OH = H / r; OW = W / r;
  }
  c.expect_out_shape(0, cl ? std::vector<int64_t>{N, OH, OW, OC} : std::vector<int64_t>{N, OC, OH, OW});
  c.expect_out_dtype(0, x.dtype);
  if (o.numel() == 0) return;
  switch (x.itemsize()) {
    case 1: shuffle<uint8_t>(x, o, r, cl, unshuffle); break;
    case 2: shuffle<uint16_t>(x, o, r, cl, unshuffle); break;
    case 4: shuffle<uint32_t>(x, o, r, cl, unshuffle); break;
    case 8: shuffle<uint64_t>(x, o, r, cl, unshuffle); break;
    default: throw SkiffError(std::string(op) + ": unsupported dtype " + dtype_name(x.dtype));
  }
}

void k_pixel_shuffle(KernelCall& c) { pixel(c, false); }
void k_pixel_unshuffle(KernelCall& c) { pixel(c, true); }

}  // namespace
SKIFF_KERNEL("pixel_shuffle", k_pixel_shuffle);
SKIFF_KERNEL("pixel_unshuffle", k_pixel_unshuffle);
}  // namespace skiff
