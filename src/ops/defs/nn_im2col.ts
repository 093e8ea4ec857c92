// F.unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1) (im2col: [N, C, H, W] ->
// [N, C*kh*kw, L]) and F.fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1)
// (col2im, overlapping blocks summed). Each is the other's adjoint, so each one's gradient is the
// other op. paddings: int, [ph, pw] or [top, left, bottom, right] (Paddle's order for these two).
// Native: nn_im2col.cc. paddle.unfold / Tensor.unfold are the sliding-window view
// (tensor_unfold), so these two are published under nn.functional only.
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, dimFloorDiv, dimMul, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrValue, TensorMeta } from '../types.js';
import { pair, windowOut } from './nn_util.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const positive = (n: number) => n > 0;

interface Geo { k: [number, number]; s: [number, number]; d: [number, number]; /** top, left, bottom, right */ p: [number, number, number, number] }

function paddings(op: string, v: AttrValue | undefined): [number, number, number, number] {
  let p: number[] | null = null;
  if (isInt(v)) p = [v, v, v, v];
  else if (Array.isArray(v) && v.every(isInt)) p = v.length === 2 ? [v[0], v[1], v[0], v[1]] : v.length === 4 ? [...v] : null;
  if (!p) throw new TypeError(`${op}: paddings must be an int, [padding_h, padding_w] or [top, left, bottom, right], got ${JSON.stringify(v)}`);
  if (p.some((e) => e < 0)) throw new RangeError(`${op}: paddings must be non-negative, got ${JSON.stringify(v)}`);
  return p as [number, number, number, number];
}

function geo(op: string, a: Attrs): Geo {
  return {
    k: pair(op, 'kernel_sizes', a.kernel_sizes, positive, 'positive'),
    s: pair(op, 'strides', a.strides, positive, 'positive'),
    d: pair(op, 'dilations', a.dilations, positive, 'positive'),
    p: paddings(op, a.paddings),
  };
}

/** [kh, kw, sh, sw, pt, pl, pb, pr, dh, dw], the kernels' common attribute tail. */
const geoAttrs = (g: Geo): number[] => [...g.k, ...g.s, ...g.p, ...g.d];

function blocks(op: string, g: Geo, h: Dim, w: Dim): [Dim, Dim] {
  return [windowOut(op, 'height', h, g.k[0], g.s[0], g.d[0], g.p[0], g.p[2], 'EXPLICIT'),
    windowOut(op, 'width', w, g.k[1], g.s[1], g.d[1], g.p[1], g.p[3], 'EXPLICIT')];
}

const windowAttrs = [
  { name: 'kernel_sizes', type: 'int[]' as const },
  { name: 'strides', type: 'int[]' as const, default: 1 },
  { name: 'paddings', type: 'int[]' as const, default: 0 },
  { name: 'dilations', type: 'int[]' as const, default: 1 },
];

const geoOf = (op: string, a: Attrs) => {
  const g = geo(op, a);
  return { kernel_sizes: g.k, strides: g.s, paddings: g.p, dilations: g.d };
};

/** F.unfold: every kh x kw block (after padding) as a column; [N, C*kh*kw, L]. */
export const unfold = registerOp({
  name: 'unfold',
  inputs: [{ name: 'x' }],
  attrs: windowAttrs,
  outputs: ['out'],
  infer: ([x], a) => {
    if (x.shape.length !== 4) throw new ShapeError(`unfold: input should be a 4-D tensor [N, C, H, W], got shape ${shapeStr(x.shape)}`);
    if (!isFloating(x.dtype)) throw new TypeError(`unfold: expected a floating-point input, got ${x.dtype}`);
    const g = geo('unfold', a);
    const [oh, ow] = blocks('unfold', g, x.shape[2], x.shape[3]);
    return [{ dtype: x.dtype, shape: [x.shape[0], dimMul(x.shape[1], g.k[0] * g.k[1]), dimMul(oh, ow)] }];
  },
  encode: (a) => geoAttrs(geo('unfold', a)),
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const s = ops.meta(x!).shape;
    return [ops.run('fold', [g], { output_sizes: [s[2], s[3]], ...geoOf('unfold', attrs) })[0]];
  },
  api: { names: ['nn.functional.unfold'], methods: [] },
});

function foldOutput(a: Attrs): [number, number] {
  return pair('fold', 'output_sizes', a.output_sizes, positive, 'positive');
}

/** F.fold: columns [N, C*kh*kw, L] summed back into [N, C, H, W] images (overlaps accumulate). */
export const fold = registerOp({
  name: 'fold',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'output_sizes', type: 'int[]' }, ...windowAttrs],
  outputs: ['out'],
  infer: ([x]: readonly TensorMeta[], a) => {
    if (x.shape.length !== 3) throw new ShapeError(`fold: input should be a 3-D tensor [N, C*kh*kw, L], got shape ${shapeStr(x.shape)}`);
    if (!isFloating(x.dtype)) throw new TypeError(`fold: expected a floating-point input, got ${x.dtype}`);
    const [h, w] = foldOutput(a);
    const g = geo('fold', a);
    const taps = g.k[0] * g.k[1];
    const [n, ck, l] = x.shape;
    if (typeof ck === 'number' && ck % taps !== 0)
      throw new ShapeError(`fold: the second dim ${ck} of input ${shapeStr(x.shape)} must be divisible by kernel_sizes[0] * kernel_sizes[1] = ${taps}`);
    const [oh, ow] = blocks('fold', g, h, w) as [number, number];
    if (typeof l === 'number' && l !== oh * ow)
      throw new ShapeError(`fold: the last dim ${l} of input ${shapeStr(x.shape)} must equal the number of sliding blocks ${oh} * ${ow} = ${oh * ow}`);
    const c: Dim = dimFloorDiv(ck, taps);
    return [{ dtype: x.dtype, shape: [n, c, h, w] }];
  },
  encode: (a) => [...foldOutput(a), ...geoAttrs(geo('fold', a))],
  gradReads: {},
  grad: ({ outGrads: [g], attrs }, ops) => [ops.run('unfold', [g], geoOf('fold', attrs))[0]],
  api: { names: ['nn.functional.fold'], methods: [] },
});
