// conv2d: Paddle's F.conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
// data_format='NCHW'). The bias is an optional input fused into the kernel (Paddle's op adds it
// with a separate elementwise add; the PIR lowering may split it). Native: native/kernels/nn_conv.cc
// (im2col + the packed GEMM, parallel over the batch).
import { isFloating } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { dataFormat2d, PAD_ALGO_CODE, padding2d, pair, windowOut } from './nn_util.js';

const pos = (n: number) => n > 0;

/** The resolved window attributes shared by infer and encode. */
function convAttrs(a: Attrs) {
  const channelLast = dataFormat2d('conv2d', a.data_format);
  const stride = pair('conv2d', 'stride', a.stride, pos, 'positive');
  const dilation = pair('conv2d', 'dilation', a.dilation, pos, 'positive');
  const pad = padding2d('conv2d', a.padding, channelLast);
  const groups = a.groups as number;
  if (!Number.isInteger(groups) || groups <= 0) throw new RangeError(`conv2d: The groups of conv2d should be greater than 0. Received groups: ${a.groups}`);
  return { channelLast, stride, dilation, pad, groups };
}

export const conv2d = registerOp({
  name: 'conv2d',
  inputs: [{ name: 'x' }, { name: 'weight' }, { name: 'bias', optional: true }],
  attrs: [
    { name: 'stride', type: 'int[]', default: 1 },
    // int | [h, w] | [t, b, l, r] | nested list | 'SAME' | 'VALID' (AttrType has no union; see nn_util.padding2d)
    { name: 'padding', type: 'int[]', default: 0 },
    { name: 'dilation', type: 'int[]', default: 1 },
    { name: 'groups', type: 'int', default: 1 },
    { name: 'data_format', type: 'str', default: 'NCHW' },
  ],
  outputs: ['out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const [x, w, b] = ins as [TensorMeta, TensorMeta, TensorMeta | null];
    const { channelLast, stride, dilation, pad, groups } = convAttrs(a);
    if (x.shape.length !== 4) throw new ShapeError(`conv2d: Input x should be 4D tensor, but received x with the shape of ${shapeStr(x.shape)}`);
    if (w.shape.length !== 4) throw new ShapeError(`conv2d: weight should be a 4D tensor [out_channels, in_channels/groups, kh, kw], got shape ${shapeStr(w.shape)}`);
    if (!isFloating(x.dtype)) throw new TypeError(`conv2d: expected a floating-point input, got ${x.dtype}`);
    if (w.dtype !== x.dtype) throw new TypeError(`conv2d: x and weight have different dtypes ${x.dtype} and ${w.dtype}`);
    const [n, c, h, wd] = channelLast ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
    const [cout, cg, kh, kw] = w.shape;
    if (typeof kh === 'number' && typeof kw === 'number' && (kh <= 0 || kw <= 0)) throw new ShapeError(`conv2d: weight spatial size must be positive, got weight ${shapeStr(w.shape)}`);
    if (typeof c === 'number') {
      if (c % groups !== 0) throw new ShapeError(`conv2d: the channel of input must be divisible by groups, received: the channel of input is ${c}, the shape of input is ${shapeStr(x.shape)}, the groups is ${groups}`);
      if (typeof cg === 'number' && cg * groups !== c) throw new ShapeError(`conv2d: input channels ${c} do not match weight ${shapeStr(w.shape)} with groups ${groups}`);
    }
    if (typeof cout === 'number' && cout % groups !== 0) throw new ShapeError(`conv2d: the number of filters must be divisible by groups, received: the number of filters is ${cout}, the groups is ${groups}`);
    if (b) {
      if (b.shape.length !== 1 || (typeof cout === 'number' && typeof b.shape[0] === 'number' && b.shape[0] !== cout))
        throw new ShapeError(`conv2d: bias must have shape [${cout}] (out_channels), got ${shapeStr(b.shape)}`);
      if (b.dtype !== x.dtype) throw new TypeError(`conv2d: bias dtype ${b.dtype} differs from input dtype ${x.dtype}`);
    }
    if (typeof kh !== 'number' || typeof kw !== 'number') throw new ShapeError(`conv2d: weight spatial dims must be static, got ${shapeStr(w.shape)}`);
    const oh = windowOut('conv2d', 'height', h, kh, stride[0], dilation[0], pad.pads[0], pad.pads[1], pad.algo);
    const ow = windowOut('conv2d', 'width', wd, kw, stride[1], dilation[1], pad.pads[2], pad.pads[3], pad.algo);
    return [{ dtype: x.dtype, shape: channelLast ? [n, oh, ow, cout] : [n, cout, oh, ow] }];
  },
  /** [sh, sw, dh, dw, groups, padAlgo, pt, pb, pl, pr, channelLast, hasBias] */
  encode: (a, ins) => {
    const { channelLast, stride, dilation, pad, groups } = convAttrs(a);
    return [...stride, ...dilation, groups, PAD_ALGO_CODE[pad.algo], ...pad.pads, channelLast ? 1 : 0, ins[2] ? 1 : 0];
  },
  api: { names: ['nn.functional.conv2d'] },
});
