// Pooling beyond max_pool2d/avg_pool2d, with Paddle 2.6's F.* signatures: max_pool1d/3d,
// avg_pool1d/3d, adaptive_{avg,max}_pool{1,2,3}d and max_unpool{1,2,3}d. One native kernel
// (native/kernels/nn_pool_more.cc) runs every pool over per-dim window tables; window clipping,
// exclusive averaging and divisor_override follow nn_pool.ts (Paddle's Pool functors); adaptive
// windows are [floor(i * In / Out), ceil((i + 1) * In / Out)).
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, TensorMeta } from '../types.js';
import { PAD_ALGO_CODE, windowOut } from './nn_util.js';
import { dataFormatNd, FORMATS, joinDims, pad3, paddingNd, samePads, splitDims, tupleN } from './nn_window.js';
import { POOL_MORE_GRADS } from './nn_pool_grad.js';

const pos = (n: number) => n > 0;
const DIM_NAMES: Record<number, string[]> = { 1: ['length'], 2: ['height', 'width'], 3: ['depth', 'height', 'width'] };
const channelLastOf = (op: string, a: Attrs, nd: number) => (a.data_format === undefined ? false : dataFormatNd(op, a.data_format, nd));

export function checkX(op: string, x: TensorMeta, nd: number, channelLast: boolean) {
  if (x.shape.length !== nd + 2) throw new ShapeError(`${op}: input should be a ${nd + 2}D tensor (${FORMATS[nd][channelLast ? 1 : 0]}), got shape ${shapeStr(x.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
  return splitDims(x.shape, channelLast);
}

function windowAttrs(op: string, a: Attrs, nd: number) {
  const channelLast = channelLastOf(op, a, nd);
  const kernel = tupleN(op, 'kernel_size', a.kernel_size, nd, pos, 'positive');
  const stride = a.stride === null || a.stride === undefined ? kernel : tupleN(op, 'stride', a.stride, nd, pos, 'positive');
  const pad = paddingNd(op, a.padding, nd, channelLast);
  const ceil = Boolean(a.ceil_mode);
  if (pad.algo === 'VALID' && ceil) throw new RangeError(`${op}: When Attr(padding) is "VALID", Attr(ceil_mode) must be False. Received ceil_mode: True.`);
  return { channelLast, kernel, stride, pad, ceil };
}

/** [nd, isMax, adaptive, k0..2, s0..2, padAlgo, p0a..p2b, ceil, channelLast, exclusive, divisor, returnMask] */
export function encodeWindow(op: string, nd: number, isMax: boolean, a: Attrs, exclusive: boolean, divisor: number, mask: boolean): number[] {
  const { channelLast, kernel, stride, pad, ceil } = windowAttrs(op, a, nd);
  return [nd, isMax ? 1 : 0, 0, ...pad3(kernel, 1), ...pad3(stride, 1), PAD_ALGO_CODE[pad.algo],
    ...new Array<number>(2 * (3 - nd)).fill(0), ...pad.pads, ceil ? 1 : 0, channelLast ? 1 : 0, exclusive ? 1 : 0, divisor, mask ? 1 : 0];
}

export function windowInfer(op: string, nd: number, x: TensorMeta, a: Attrs): TensorMeta {
  const { channelLast, kernel, stride, pad, ceil } = windowAttrs(op, a, nd);
  const { n, c, sp } = checkX(op, x, nd, channelLast);
  const out = sp.map((d, i) => {
    if (pad.algo === 'SAME' && typeof d === 'number') {
      const [p0, p1] = samePads(d, kernel[i], stride[i]);
      return windowOut(op, DIM_NAMES[nd][i], d, kernel[i], stride[i], 1, p0, p1, 'EXPLICIT', ceil);
    }
    return windowOut(op, DIM_NAMES[nd][i], d, kernel[i], stride[i], 1, pad.pads[2 * i], pad.pads[2 * i + 1], pad.algo, ceil);
  });
  return { dtype: x.dtype, shape: joinDims(n, c, out, channelLast) };
}

const WINDOW: AttrSpec[] = [
  { name: 'kernel_size', type: 'int[]' },
  { name: 'stride', type: 'int[]', default: null },
  { name: 'padding', type: 'int[]', default: 0 },
];
const maskAttr: AttrSpec = { name: 'return_mask', type: 'bool', default: false };
const ceilAttr: AttrSpec = { name: 'ceil_mode', type: 'bool', default: false };
const exclusiveAttr: AttrSpec = { name: 'exclusive', type: 'bool', default: true };

function maxPoolOp(nd: 1 | 3) {
  const op = `max_pool${nd}d`;
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }],
    attrs: [...WINDOW, maskAttr, ceilAttr, ...(nd === 3 ? [{ name: 'data_format', type: 'str', default: 'NCDHW' } as AttrSpec] : [])],
    outputs: ['out', 'mask'],
    numOutputs: (_ins, a) => (a.return_mask ? 2 : 1),
    infer: (ins, a) => {
      const out = windowInfer(op, nd, ins[0], a);
      if (!a.return_mask) return [out];
      if (channelLastOf(op, a, nd)) throw new RangeError(`${op}: When setting return_mask to true, data_format must be set to NCDHW in API:${op}`);
      return [out, { dtype: 'int32', shape: out.shape }];
    },
    encode: (a) => encodeWindow(op, nd, true, a, false, NaN, Boolean(a.return_mask)),
    ...POOL_MORE_GRADS[op],  // nn_pool_grad.ts
    api: { names: [`nn.functional.${op}`], unwrapSingle: true },
  });
}

/** F.max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False) (NCL). */
export const max_pool1d = maxPoolOp(1);
/** F.max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCDHW'). */
export const max_pool3d = maxPoolOp(3);

function checkDivisor(op: string, d: unknown) {
  if (d !== null && d !== undefined && (typeof d !== 'number' || d === 0 || !Number.isFinite(d))) throw new RangeError(`${op}: divisor_override must be a nonzero number, got ${JSON.stringify(d)}`);
}

/** F.avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False) (NCL). */
export const avg_pool1d = registerOp({
  name: 'avg_pool1d',
  inputs: [{ name: 'x' }],
  attrs: [...WINDOW, exclusiveAttr, ceilAttr],
  outputs: ['out'],
  infer: (ins, a) => [windowInfer('avg_pool1d', 1, ins[0], a)],
  encode: (a) => encodeWindow('avg_pool1d', 1, false, a, Boolean(a.exclusive), NaN, false),
  ...POOL_MORE_GRADS.avg_pool1d,
  api: { names: ['nn.functional.avg_pool1d'] },
});

/** F.avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None, data_format='NCDHW'). */
export const avg_pool3d = registerOp({
  name: 'avg_pool3d',
  inputs: [{ name: 'x' }],
  attrs: [...WINDOW, ceilAttr, exclusiveAttr, { name: 'divisor_override', type: 'float', default: null }, { name: 'data_format', type: 'str', default: 'NCDHW' }],
  outputs: ['out'],
  infer: (ins, a) => {
    checkDivisor('avg_pool3d', a.divisor_override);
    return [windowInfer('avg_pool3d', 3, ins[0], a)];
  },
  encode: (a) => encodeWindow('avg_pool3d', 3, false, a, Boolean(a.exclusive), a.divisor_override === null || a.divisor_override === undefined ? NaN : (a.divisor_override as number), false),
  ...POOL_MORE_GRADS.avg_pool3d,
  api: { names: ['nn.functional.avg_pool3d'] },
});

/** output_size: int | list of nd (None / -1 entries keep the input size). */
function adaptiveOut(op: string, a: Attrs, nd: number, sp: Dim[]): Dim[] {
  const v = a.output_size as unknown;
  const list = typeof v === 'number' ? new Array(nd).fill(v) : Array.isArray(v) && v.length === nd ? v : Array.isArray(v) && v.length === 1 && nd === 1 ? v : null;
  if (!list || !list.every((d) => d === null || d === -1 || (Number.isInteger(d) && d > 0)))
    throw new RangeError(`${op}: output_size must be a positive int or a list of ${nd} positive ints (None keeps the input size), got ${JSON.stringify(v)}`);
  return list.map((d, i) => (d === null || d === -1 ? sp[i] : (d as number)));
}

function adaptiveOp(kind: 'avg' | 'max', nd: 1 | 2 | 3) {
  const op = `adaptive_${kind}_pool${nd}d`;
  const attrs: AttrSpec[] = [{ name: 'output_size', type: 'int[]' }];
  if (kind === 'max') attrs.push(maskAttr);
  else if (nd > 1) attrs.push({ name: 'data_format', type: 'str', default: FORMATS[nd][0] });
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }],
    attrs,
    outputs: kind === 'max' ? ['out', 'mask'] : ['out'],
    ...(kind === 'max' ? { numOutputs: (_ins: readonly TensorMeta[], a: Attrs) => (a.return_mask ? 2 : 1) } : {}),
    infer: (ins, a) => {
      const channelLast = channelLastOf(op, a, nd);
      const { n, c, sp } = checkX(op, ins[0], nd, channelLast);
      const out: TensorMeta = { dtype: ins[0].dtype, shape: joinDims(n, c, adaptiveOut(op, a, nd, sp), channelLast) };
      return a.return_mask ? [out, { dtype: 'int32', shape: out.shape }] : [out];
    },
    ...POOL_MORE_GRADS[op],
    encode: (a) => [nd, kind === 'max' ? 1 : 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, channelLastOf(op, a, nd) ? 1 : 0, 1, NaN, a.return_mask ? 1 : 0],
    api: { names: [`nn.functional.${op}`], ...(kind === 'max' ? { unwrapSingle: true } : {}) },
  });
}

/** F.adaptive_avg_pool1d(x, output_size) / 2d(x, output_size, data_format='NCHW') / 3d(..., data_format='NCDHW'). */
export const adaptive_avg_pool1d = adaptiveOp('avg', 1);
export const adaptive_avg_pool2d = adaptiveOp('avg', 2);
export const adaptive_avg_pool3d = adaptiveOp('avg', 3);
/** F.adaptive_max_pool{1,2,3}d(x, output_size, return_mask=False) (channel-first). */
export const adaptive_max_pool1d = adaptiveOp('max', 1);
export const adaptive_max_pool2d = adaptiveOp('max', 2);
export const adaptive_max_pool3d = adaptiveOp('max', 3);

/**
 * F.max_unpool{1,2,3}d(x, indices, kernel_size, stride=None, padding=0, data_format, output_size=None):
 * the default output size is (in - 1) * stride - 2 * padding + kernel_size; an explicit
 * output_size (spatial dims, or with N and C first) must lie strictly within stride of it.
 */
function unpoolOp(nd: 1 | 2 | 3) {
  const op = `max_unpool${nd}d`;
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }, { name: 'indices' }],
    attrs: [...WINDOW, { name: 'data_format', type: 'str', default: FORMATS[nd][0] }, { name: 'output_size', type: 'int[]', default: null }],
    outputs: ['out'],
    infer: (ins, a) => {
      const [x, idx] = ins;
      if (a.data_format !== FORMATS[nd][0]) throw new RangeError(`${op}: data_format must be '${FORMATS[nd][0]}', got ${JSON.stringify(a.data_format)}`);
      const kernel = tupleN(op, 'kernel_size', a.kernel_size, nd, pos, 'positive');
      const stride = a.stride === null || a.stride === undefined ? kernel : tupleN(op, 'stride', a.stride, nd, pos, 'positive');
      const padding = tupleN(op, 'padding', a.padding, nd, (p) => p >= 0, 'non-negative');
      const { n, c, sp } = checkX(op, x, nd, false);
      if (idx.dtype !== 'int32' && idx.dtype !== 'int64') throw new TypeError(`${op}: indices must be int32 or int64, got ${idx.dtype}`);
      if (idx.shape.length !== x.shape.length || idx.shape.some((d, i) => typeof d === 'number' && typeof x.shape[i] === 'number' && d !== x.shape[i]))
        throw new ShapeError(`${op}: indices shape ${shapeStr(idx.shape)} differs from x ${shapeStr(x.shape)}`);
      if (!sp.every((d): d is number => typeof d === 'number')) throw new ShapeError(`${op}: spatial dims must be static, got x ${shapeStr(x.shape)}`);
      const def = sp.map((d, i) => (d - 1) * stride[i] - 2 * padding[i] + kernel[i]);
      let out = def;
      if (a.output_size !== null && a.output_size !== undefined) {
        let os = Array.isArray(a.output_size) ? [...(a.output_size as number[])] : [a.output_size as number];
        if (os.length === nd + 2) os = os.slice(2);
        if (os.length !== nd) throw new RangeError(`${op}: output_size should have ${nd} or ${nd + 2} elements, got ${JSON.stringify(a.output_size)}`);
        os.forEach((d, i) => {
          if (!(d > def[i] - stride[i] && d < def[i] + stride[i])) throw new RangeError(`${op}: invalid output_size "${JSON.stringify(a.output_size)}" (dim ${i} must be between ${def[i] - stride[i]} and ${def[i] + stride[i]})`);
        });
        out = os;
      }
      if (out.some((d) => d <= 0)) throw new ShapeError(`${op}: output size ${JSON.stringify(out)} must be positive for x ${shapeStr(x.shape)}`);
      return [{ dtype: x.dtype, shape: [n, c, ...out] }];
    },
    encode: () => [nd],
    ...POOL_MORE_GRADS[op],
    api: { names: [`nn.functional.${op}`] },
  });
}

export const max_unpool1d = unpoolOp(1);
export const max_unpool2d = unpoolOp(2);
export const max_unpool3d = unpoolOp(3);
