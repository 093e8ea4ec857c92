// conv2d: Paddle's F.conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
// data_format='NCHW'). The bias is an optional input fused into the kernel (Paddle's op adds it
// with a separate elementwise add; the PIR lowering may split it). Native: native/kernels/nn_conv.cc
// (im2col + the packed GEMM, parallel over the batch).
import { isFloating } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { type GradKit, kit } from '../grad_kit.js';
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

/** Padding and dilation as the kernel applies them (SAME: Paddle recomputes pads and drops dilation). */
function resolvedWindow(a: Attrs, h: number, w: number, kh: number, kw: number) {
  const { stride, dilation, pad } = convAttrs(a);
  if (pad.algo === 'VALID') return { stride, dil: dilation, pads: [0, 0, 0, 0] };
  if (pad.algo === 'EXPLICIT') return { stride, dil: dilation, pads: [...pad.pads] };
  const same = (n: number, k: number, s: number) => {
    const sum = Math.max((Math.ceil(n / s) - 1) * s + k - n, 0);
    return [Math.floor(sum / 2), sum - Math.floor(sum / 2)];
  };
  return { stride, dil: [1, 1] as [number, number], pads: [...same(h, kh, stride[0]), ...same(w, kw, stride[1])] };
}

/** Pads (or, for negative amounts, crops) the two spatial dims of an NCHW tensor. */
function padCrop<T>(k: GradKit<T>, t: T, [top, bottom, left, right]: number[]): T {
  let r = t;
  if (top > 0 || bottom > 0 || left > 0 || right > 0)
    r = k.op('pad', [r], { pad: [0, 0, 0, 0, Math.max(top, 0), Math.max(bottom, 0), Math.max(left, 0), Math.max(right, 0)] });
  if (top < 0 || bottom < 0 || left < 0 || right < 0) {
    const [, , hp, wp] = k.shape(r);
    r = k.op('slice', [r], { axes: [2, 3], starts: [Math.max(-top, 0), Math.max(-left, 0)], ends: [hp - Math.max(-bottom, 0), wp - Math.max(-right, 0)] });
  }
  return r;
}

/**
 * conv2d's gradients, as convolutions (public ops only), in NCHW:
 *  - dx: g dilated by the stride (zeros between rows/cols), padded so a full correlation with the
 *    spatially flipped, in/out-swapped weight lands on x's size; groups carry over unchanged.
 *  - dw: batch and channels trade places, so a convolution of padded x with g as the kernel
 *    (stride = the forward's dilation, dilation = the forward's stride) sums over the batch;
 *    per group, x's channels become the batch and the group's N images its input channels.
 *  - dbias: g summed over batch and space.
 */
const conv2dGrad: OpDef['grad'] = ({ inputs: [x0, w, b], outGrads: [g0], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const channelLast = dataFormat2d('conv2d', attrs.data_format);
  const x = channelLast ? k.transpose(x0!, [0, 3, 1, 2]) : x0!;
  const g = channelLast ? k.transpose(g0!, [0, 3, 1, 2]) : g0!;
  const [N, C, H, W] = k.shape(x);
  const [Co, Cg, kh, kw] = k.shape(w!);
  const [, , OH, OW] = k.shape(g);
  const groups = attrs.groups as number;
  const { stride: [sh, sw], dil: [dh, dw], pads: [pt, pb, pl, pr] } = resolvedWindow(attrs, H, W, kh, kw);
  let dx: typeof x0 = null, dW: typeof x0 = null, db: typeof x0 = null;
  if (needsGrad[0]) {
    let gd = g;
    if (sh > 1) gd = k.scatterStrided(gd, 2, (OH - 1) * sh + 1, 0, sh);
    if (sw > 1) gd = k.scatterStrided(gd, 3, (OW - 1) * sw + 1, 0, sw);
    const eh = dh * (kh - 1), ew = dw * (kw - 1);
    const extraH = H + pt + pb - eh - 1 - (OH - 1) * sh, extraW = W + pl + pr - ew - 1 - (OW - 1) * sw;
    gd = padCrop(k, gd, [eh - pt, eh - pb + extraH, ew - pl, ew - pr + extraW]);
    // [Co, Cg, kh, kw] -> per group [Cg, Co/g] -> [C, Co/g, kh, kw], flipped in space.
    const wt = k.reshape(k.transpose(k.reshape(k.op('flip', [w], { axis: [2, 3] }), [groups, Co / groups, Cg, kh, kw]), [0, 2, 1, 3, 4]), [C, Co / groups, kh, kw]);
    dx = k.op('conv2d', [gd, wt, null], { stride: 1, padding: 0, dilation: [dh, dw], groups });
    if (channelLast) dx = k.transpose(dx, [0, 2, 3, 1]);
  }
  if (needsGrad[1]) {
    const xp = padCrop(k, x, [pt, pb, pl, pr]);
    const [, , Hp, Wp] = k.shape(xp);
    const xb = k.reshape(k.transpose(k.reshape(xp, [N, groups, Cg, Hp, Wp]), [2, 1, 0, 3, 4]), [Cg, groups * N, Hp, Wp]);
    const gk = k.reshape(k.transpose(k.reshape(g, [N, groups, Co / groups, OH, OW]), [1, 2, 0, 3, 4]), [Co, N, OH, OW]);
    let r = k.op('conv2d', [xb, gk, null], { stride: [dh, dw], padding: 0, dilation: [sh, sw], groups });
    const [, , rh, rw] = k.shape(r);
    if (rh !== kh || rw !== kw) r = k.op('slice', [r], { axes: [2, 3], starts: [0, 0], ends: [kh, kw] });
    dW = k.transpose(r, [1, 0, 2, 3]);
  }
  if (b && needsGrad[2]) db = k.sum(g, [0, 2, 3]);
  return [dx, dW, db];
};

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
  grad: conv2dGrad,
  gradReads: { inputs: [0, 1] },
  api: { names: ['nn.functional.conv2d'] },
});
