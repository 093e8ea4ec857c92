// 2-D pooling with Paddle's F.max_pool2d / F.avg_pool2d signatures. Paddle runs both through
// one `pool2d` op (pooling_type 'max'/'avg'; max_pool2d_with_index when return_mask); here each
// public function is its own op over the shared native kernel in native/kernels/nn_pool.cc.
// Windows clipped by padding or ceil_mode cover only real input (Paddle's Pool2dFunctor):
// max ignores padding; avg divides by the clipped window when exclusive, else by kh*kw.
import { isFloating } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, OpDef, TensorMeta } from '../types.js';
import { type GradKit, kit } from '../grad_kit.js';
import { dataFormat2d, PAD_ALGO_CODE, padding2d, pair, windowOut } from './nn_util.js';

const pos = (n: number) => n > 0;

function poolAttrs(op: string, a: Attrs) {
  const channelLast = dataFormat2d(op, a.data_format);
  const kernel = pair(op, 'kernel_size', a.kernel_size, pos, 'positive');
  const stride = a.stride === null ? kernel : pair(op, 'stride', a.stride, pos, 'positive');
  const pad = padding2d(op, a.padding, channelLast);
  const ceil = Boolean(a.ceil_mode);
  if (pad.algo === 'VALID' && ceil) throw new RangeError(`${op}: When Attr(padding) is "VALID", Attr(ceil_mode) must be False. Received ceil_mode: True.`);
  return { channelLast, kernel, stride, pad, ceil };
}

/** SAME pads for static sizes (Paddle recomputes them and then applies the usual formula). */
function samePads(inDim: number, k: number, s: number): [number, number] {
  const out = Math.floor((inDim + s - 1) / s);
  const sum = Math.max((out - 1) * s + k - inDim, 0);
  return [Math.floor(sum / 2), sum - Math.floor(sum / 2)];
}

function poolInfer(op: string, x: TensorMeta, a: Attrs): TensorMeta {
  const { channelLast, kernel, stride, pad, ceil } = poolAttrs(op, a);
  if (x.shape.length !== 4) throw new ShapeError(`${op}: input should be a 4D tensor (${channelLast ? 'NHWC' : 'NCHW'}), got shape ${shapeStr(x.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
  const [n, c, h, w] = channelLast ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
  const dim = (what: string, d: typeof h, i: 0 | 1) => {
    if (pad.algo === 'SAME' && typeof d === 'number') {
      const [p0, p1] = samePads(d, kernel[i], stride[i]);
      return windowOut(op, what, d, kernel[i], stride[i], 1, p0, p1, 'EXPLICIT', ceil);
    }
    return windowOut(op, what, d, kernel[i], stride[i], 1, pad.pads[2 * i], pad.pads[2 * i + 1], pad.algo, ceil);
  };
  const oh = dim('height', h, 0), ow = dim('width', w, 1);
  return { dtype: x.dtype, shape: channelLast ? [n, oh, ow, c] : [n, c, oh, ow] };
}

/** [kh, kw, sh, sw, padAlgo, pt, pb, pl, pr, ceil, channelLast, exclusive, divisor (NaN: none), returnMask] */
function poolEncode(op: string, a: Attrs, exclusive: boolean, divisor: number, mask: boolean): number[] {
  const { channelLast, kernel, stride, pad, ceil } = poolAttrs(op, a);
  return [...kernel, ...stride, PAD_ALGO_CODE[pad.algo], ...pad.pads, ceil ? 1 : 0, channelLast ? 1 : 0, exclusive ? 1 : 0, divisor, mask ? 1 : 0];
}

/**
 * Pool gradients, by kernel offset: for each (i, j) in the window, the strided slice of the
 * padded input at that offset lines up element for element with the output, so a gradient for
 * every window can be scattered back to the input positions it read (GradKit.scatterStrided),
 * summed over offsets, and the padding cropped off. kh*kw rounds of a few public ops.
 */
function poolGrad(op: 'max_pool2d' | 'avg_pool2d'): OpDef['grad'] {
  return ({ inputs: [x0], outputs: [out0], outGrads: [g0], attrs }, ops) => {
    const k = kit(ops);
    const { channelLast, kernel: [kh, kw], stride: [sh, sw], pad } = poolAttrs(op, attrs);
    const nchw = <T>(kk: GradKit<T>, t: T) => (channelLast ? kk.transpose(t, [0, 3, 1, 2]) : t);
    const x = nchw(k, x0!), out = nchw(k, out0), g = nchw(k, g0!);
    const [, , H, W] = k.shape(x);
    const [, , OH, OW] = k.shape(g);
    let [pt, , pl] = pad.pads;
    if (pad.algo === 'SAME') { pt = samePads(H, kh, sh)[0]; pl = samePads(W, kw, sw)[0]; }
    if (pad.algo === 'VALID') { pt = 0; pl = 0; }
    const pb = Math.max(0, (OH - 1) * sh + kh - pt - H), pr = Math.max(0, (OW - 1) * sw + kw - pl - W);
    const Hp = pt + H + pb, Wp = pl + W + pr;
    const padded = (t: typeof x, value: number) => k.op('pad', [t], { pad: [0, 0, 0, 0, pt, pb, pl, pr], value });
    const at = (t: typeof x, i: number, j: number) =>
      k.op('strided_slice', [t], { axes: [2, 3], starts: [i, j], ends: [i + (OH - 1) * sh + 1, j + (OW - 1) * sw + 1], strides: [sh, sw] });
    const scatter = (t: typeof x, i: number, j: number) => k.scatterStrided(k.scatterStrided(t, 2, Hp, i, sh), 3, Wp, j, sw);
    let total: typeof x | null = null;
    const addUp = (t: typeof x) => { total = total ? k.add(total, t) : t; };
    if (op === 'max_pool2d') {
      // The first maximum of each window in row-major order gets the gradient (Paddle's rule).
      const xp = padded(x, -Infinity);
      let taken: typeof x | null = null;
      for (let i = 0; i < kh; i++) for (let j = 0; j < kw; j++) {
        let hit = k.cmp('equal', at(xp, i, j), out);
        if (taken) hit = k.op('logical_and', [hit, k.op('logical_not', [taken])]);
        taken = taken ? k.op('logical_or', [taken, hit]) : hit;
        addUp(scatter(k.mask(hit, g), i, j));
      }
    } else {
      // 1/divisor per window from the forward itself: pooling ones gives count/divisor.
      const ones = k.full(k.shape(x), 1, k.dtype(x));
      const real = padded(ones, 0);
      let count: typeof x | null = null;
      for (let i = 0; i < kh; i++) for (let j = 0; j < kw; j++) count = count ? k.add(count, at(real, i, j)) : at(real, i, j);
      const pooledOnes = k.op('avg_pool2d', [ones], { ...attrs, data_format: 'NCHW' });
      const share = k.mul(g, k.div(pooledOnes, count!));
      for (let i = 0; i < kh; i++) for (let j = 0; j < kw; j++) addUp(scatter(share, i, j));
    }
    let dx = k.op('slice', [total], { axes: [2, 3], starts: [pt, pl], ends: [pt + H, pl + W] });
    if (channelLast) dx = k.transpose(dx, [0, 2, 3, 1]);
    return [dx];
  };
}

const WINDOW: AttrSpec[] = [
  { name: 'kernel_size', type: 'int[]' },
  { name: 'stride', type: 'int[]', default: null },
  { name: 'padding', type: 'int[]', default: 0 },
];

/** F.max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCHW'). */
export const max_pool2d = registerOp({
  name: 'max_pool2d',
  inputs: [{ name: 'x' }],
  attrs: [...WINDOW, { name: 'return_mask', type: 'bool', default: false }, { name: 'ceil_mode', type: 'bool', default: false },
    { name: 'data_format', type: 'str', default: 'NCHW' }],
  outputs: ['out', 'mask'],
  numOutputs: (_ins, a) => (a.return_mask ? 2 : 1),
  infer: (ins, a) => {
    const out = poolInfer('max_pool2d', ins[0], a);
    if (!a.return_mask) return [out];
    if (a.data_format === 'NHWC') throw new RangeError('max_pool2d: When setting return_mask to true, data_format must be set to NCHW in API:max_pool2d');
    // The mask holds each maximum's flat index h * W + w within its input plane (int32, as in Paddle).
    return [out, { dtype: 'int32', shape: out.shape }];
  },
  encode: (a) => poolEncode('max_pool2d', a, false, NaN, Boolean(a.return_mask)),
  grad: poolGrad('max_pool2d'),
  gradReads: { inputs: [0], outputs: [0] },
  api: { names: ['nn.functional.max_pool2d'], unwrapSingle: true },
});

/** F.avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None, data_format='NCHW'). */
export const avg_pool2d = registerOp({
  name: 'avg_pool2d',
  inputs: [{ name: 'x' }],
  attrs: [...WINDOW, { name: 'ceil_mode', type: 'bool', default: false }, { name: 'exclusive', type: 'bool', default: true },
    { name: 'divisor_override', type: 'float', default: null }, { name: 'data_format', type: 'str', default: 'NCHW' }],
  outputs: ['out'],
  infer: (ins, a) => {
    const d = a.divisor_override;
    if (d !== null && (typeof d !== 'number' || d === 0 || !Number.isFinite(d))) throw new RangeError(`avg_pool2d: divisor_override must be a nonzero number, got ${JSON.stringify(d)}`);
    return [poolInfer('avg_pool2d', ins[0], a)];
  },
  // divisor_override rescales the average by kh*kw/divisor (Paddle: out * (kh * kw) / divisor).
  encode: (a) => poolEncode('avg_pool2d', a, Boolean(a.exclusive), a.divisor_override === null ? NaN : (a.divisor_override as number), false),
  grad: poolGrad('avg_pool2d'),
  gradReads: {},
  api: { names: ['nn.functional.avg_pool2d'] },
});
