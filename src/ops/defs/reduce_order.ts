// Order statistics along axes (Paddle signatures): median, nanmedian, quantile, mode.
// Native: native/kernels/reduce_order.cc (each output's slice is gathered and partially sorted).
// Kernel attribute layouts start with the reduction prefix of reduce.h, [n_axes, axis..., keepdim]:
//  - median(x, axis=None, keepdim=False, mode='avg'): [..., mode (0 avg, 1 min)]. 'avg' averages
//    the two middle values of an even count and returns float64 for float64 input, float32
//    otherwise; 'min' takes the lower middle value in x's dtype. A NaN in the slice gives NaN;
//    an empty slice gives NaN. (Paddle's mode='min' with an axis also returns indices; here
//    median returns the values only.)
//  - nanmedian(x, axis=None, keepdim=False): NaNs ignored (all-NaN or empty slices give NaN);
//    x's dtype out, even counts averaged (truncated toward zero for integers).
//  - quantile(x, q, axis=None, keepdim=False): linear interpolation between the order
//    statistics at q (n - 1). The op takes q as a list (leading output dim len(q)); the public
//    function also takes a number. [..., n_q, q...]. Floats only; a NaN in the slice gives NaN.
//  - mode(x, axis=-1, keepdim=False): the most frequent value (the smallest of equally frequent
//    ones) and the index of its last occurrence (int64). Layout [1, axis, keepdim].
// nanmedian and quantile take an int, a list of ints or None for axis; median an int or None.
import { getOp, registerOp } from '../registry.js';
import { reduceAxes, reducedShape } from '../infer.js';
import { isFloating, type DType } from '../../tensor/dtype.js';
import { normAxis, isStatic, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { REDUCE_GRADS } from './reduce_grad.js';
import { callOp } from '../api.js';
import { bindArgs } from './nn_util.js';
import { Tensor } from '../../tensor/tensor.js';

function axesOf(op: string, axis: Attrs[string], rank: number, listOk: boolean): number[] {
  const ok = axis === null || Number.isInteger(axis) || (listOk && Array.isArray(axis) && axis.every((a) => Number.isInteger(a)));
  if (!ok) throw new TypeError(`${op}: axis must be an int${listOk ? ', a list of ints' : ''} or None, got ${JSON.stringify(axis)}`);
  return reduceAxes(op, axis, rank).filter((a) => a < rank);
}

const prefix = (axes: number[], keepdim: Attrs[string]): number[] => [axes.length, ...axes, keepdim ? 1 : 0];

function numericInput(op: string, x: TensorMeta): void {
  if (x.dtype === 'bool' || x.dtype === 'int8' || x.dtype === 'uint8')
    throw new TypeError(`${op}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got ${x.dtype}`);
}

/** median(x, axis=None, keepdim=False, mode='avg'). */
export const median = registerOp({
  name: 'median',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int', default: null }, { name: 'keepdim', type: 'bool', default: false }, { name: 'mode', type: 'str', default: 'avg' }],
  outputs: ['out'],
  infer: ([x], a) => {
    numericInput('median', x);
    if (a.mode !== 'avg' && a.mode !== 'min') throw new RangeError(`median: mode must be 'avg' or 'min', got ${JSON.stringify(a.mode)}`);
    const axes = axesOf('median', a.axis, x.shape.length, false);
    const dtype: DType = a.mode === 'min' ? x.dtype : x.dtype === 'float64' ? 'float64' : 'float32';
    return [{ dtype, shape: reducedShape(x.shape, axes, a.keepdim as boolean) }];
  },
  encode: (a, [x]) => [...prefix(axesOf('median', a.axis, x.shape.length, false), a.keepdim), a.mode === 'min' ? 1 : 0],
  ...REDUCE_GRADS.median,  // reduce_grad.ts
});

/** nanmedian(x, axis=None, keepdim=False) (Paddle 2.6's default; 2.4 kept dims). */
export const nanmedian = registerOp({
  name: 'nanmedian',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int[]', default: null }, { name: 'keepdim', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x], a) => {
    numericInput('nanmedian', x);
    return [{ dtype: x.dtype, shape: reducedShape(x.shape, axesOf('nanmedian', a.axis, x.shape.length, true), a.keepdim as boolean) }];
  },
  encode: (a, [x]) => prefix(axesOf('nanmedian', a.axis, x.shape.length, true), a.keepdim),
  ...REDUCE_GRADS.nanmedian,
});

function qList(q: Attrs[string]): number[] {
  const list = Array.isArray(q) ? (q as number[]) : [q as number];
  if (list.length === 0 || !list.every((v) => typeof v === 'number' && v >= 0 && v <= 1))
    throw new RangeError(`quantile: q must be a number or a non-empty list of numbers in [0, 1], got ${JSON.stringify(q)}`);
  return list;
}

/**
 * Paddle's quantile op with q always a list: output [len(q), ...reduced]. The public
 * paddle.quantile(x, q, axis=None, keepdim=False) is `quantileApi` (a number q drops that dim).
 */
export const quantile = registerOp({
  name: 'quantile',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'q', type: 'float[]' }, { name: 'axis', type: 'int[]', default: null }, { name: 'keepdim', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x], a) => {
    if (!isFloating(x.dtype)) throw new TypeError(`quantile: expected a floating-point input, got ${x.dtype}`);
    const qs = qList(a.q);
    const shape = reducedShape(x.shape, axesOf('quantile', a.axis, x.shape.length, true), a.keepdim as boolean);
    return [{ dtype: x.dtype, shape: [qs.length, ...shape] }];
  },
  encode: (a, [x]) => {
    const qs = qList(a.q);
    return [...prefix(axesOf('quantile', a.axis, x.shape.length, true), a.keepdim), qs.length, ...qs];
  },
  api: { names: [] },
  ...REDUCE_GRADS.quantile,
});

/** paddle.quantile(x, q, axis=None, keepdim=False): q a number (no leading dim) or a list. */
export function quantileApi(...args: unknown[]): unknown {
  const b = bindArgs('quantile', ['x', 'q', 'axis', 'keepdim'], args);
  if (b.x === undefined) throw new TypeError("quantile() missing required argument 'x'");
  const scalar = typeof b.q === 'number';
  const out = callOp(quantile, [b.x, { q: scalar ? [b.q as number] : b.q, axis: b.axis ?? null, keepdim: b.keepdim ?? false }]);
  return scalar ? callOp(getOp('squeeze'), [out, { axis: [0] }]) : out;
}

// x.quantile(q, axis=None, keepdim=False), as Paddle's Tensor method.
Object.defineProperty(Tensor.prototype, 'quantile', {
  value: function (this: Tensor, ...args: unknown[]) { return quantileApi(this, ...args); }, writable: true, configurable: true,
});

/** Public functions written by hand (mounted by src/paddle.ts). */
export const orderFunctions: Readonly<Record<string, (...args: unknown[]) => unknown>> = { quantile: quantileApi };

/** mode(x, axis=-1, keepdim=False): values and int64 indices. */
export const mode = registerOp({
  name: 'mode',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int', default: -1 }, { name: 'keepdim', type: 'bool', default: false }],
  outputs: ['out', 'indices'],
  infer: ([x], a) => {
    numericInput('mode', x);
    if (!Number.isInteger(a.axis)) throw new TypeError(`mode: axis must be an int, got ${JSON.stringify(a.axis)}`);
    const axes = [normAxis(a.axis as number, x.shape.length, 'mode')].filter((d) => d < x.shape.length);
    if (isStatic(x.shape) && axes.length && x.shape[axes[0]] === 0 && (x.shape as number[]).some((d, i) => i !== axes[0] && d === 0) === false)
      throw new ShapeError(`mode: cannot take the mode of an empty dimension (input shape ${shapeStr(x.shape)}, axis ${a.axis})`);
    const shape = reducedShape(x.shape, axes, a.keepdim as boolean);
    return [{ dtype: x.dtype, shape }, { dtype: 'int64', shape }];
  },
  encode: (a, [x]) => [...prefix([normAxis(a.axis as number, x.shape.length, 'mode')].filter((d) => d < x.shape.length), a.keepdim)],
  ...REDUCE_GRADS.mode,
});
