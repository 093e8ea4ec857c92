// Scans along one axis (Paddle 2.6 signatures): cumprod, cummax, cummin, logcumsumexp.
// Native: native/kernels/scan.cc. An axis of None flattens the input first (1-D output).
// Attribute layout for the kernel: [axis (normalised; NaN = flattened)].
//  - cumprod(x, dim=None, dtype=None): every dtype but bool (bool needs a dtype); the input is
//    cast to `dtype` first. Floating outputs accumulate in double, integers wrap.
//  - cummax/cummin(x, axis=None, dtype='int64'): values and int32/int64 indices; NaN
//    propagates (index of the NaN), ties take the later index.
//  - logcumsumexp(x, axis=None, dtype=None): floats; log(cumsum(exp(x))) without overflow.
import { registerOp } from '../registry.js';
import { requireFloat } from '../infer.js';
import { isFloating, toDType, type DType } from '../../tensor/dtype.js';
import { normAxis, numel } from '../../tensor/shape.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { SCAN_GRADS } from './scan_grad.js';

function axisOf(op: string, a: Attrs[string], rank: number): number | null {
  if (a === null) return null;
  if (!Number.isInteger(a)) throw new TypeError(`${op}: axis must be an int or None, got ${JSON.stringify(a)}`);
  return normAxis(a as number, rank, op);
}

const scanShape = (x: TensorMeta, axis: number | null): TensorMeta['shape'] => (axis === null ? [numel(x.shape)] : x.shape);

/** cumprod(x, dim=None, dtype=None): running product along dim. */
export const cumprod = registerOp({
  name: 'cumprod',
  inplace: 'assign',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'dim', type: 'int', default: null }, { name: 'dtype', type: 'dtype', default: null }],
  outputs: ['out'],
  infer: ([x], a) => {
    const dtype: DType = a.dtype === null ? x.dtype : toDType(a.dtype as string);
    if (dtype === 'bool') throw new TypeError(`cumprod: bool ${a.dtype === null ? 'input needs a dtype' : 'is not a valid dtype'} (dtype bool)`);
    return [{ dtype, shape: scanShape(x, axisOf('cumprod', a.dim, x.shape.length)) }];
  },
  encode: (a, [x]) => [axisOf('cumprod', a.dim, x.shape.length) ?? NaN],
  ...SCAN_GRADS.cumprod,  // scan_grad.ts
});

function cumExtreme(name: 'cummax' | 'cummin'): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'axis', type: 'int', default: null }, { name: 'dtype', type: 'dtype', default: 'int64' }],
    outputs: ['out', 'indices'],
    infer: ([x], a) => {
      if (x.dtype === 'bool') throw new TypeError(`${name}: bool input is not supported (dtype bool)`);
      const idx = toDType(a.dtype as string);
      if (idx !== 'int32' && idx !== 'int64') throw new TypeError(`${name}: dtype must be int32 or int64, got ${idx}`);
      const shape = scanShape(x, axisOf(name, a.axis, x.shape.length));
      return [{ dtype: x.dtype, shape }, { dtype: idx, shape }];
    },
    encode: (a, [x]) => [axisOf(name, a.axis, x.shape.length) ?? NaN],
    ...SCAN_GRADS[name],
  });
}
export const cummax = cumExtreme('cummax');
export const cummin = cumExtreme('cummin');

/** logcumsumexp(x, axis=None, dtype=None). */
export const logcumsumexp = registerOp({
  name: 'logcumsumexp',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int', default: null }, { name: 'dtype', type: 'dtype', default: null }],
  outputs: ['out'],
  infer: ([x], a) => {
    requireFloat('logcumsumexp', x.dtype);
    const dtype: DType = a.dtype === null ? x.dtype : toDType(a.dtype as string);
    if (!isFloating(dtype)) throw new TypeError(`logcumsumexp: dtype must be a floating type, got ${dtype}`);
    return [{ dtype, shape: scanShape(x, axisOf('logcumsumexp', a.axis, x.shape.length)) }];
  },
  encode: (a, [x]) => [axisOf('logcumsumexp', a.axis, x.shape.length) ?? NaN],
  ...SCAN_GRADS.logcumsumexp,
});
