// where, clip and scale (Paddle 2.6 signatures). Native: native/kernels/ternary.cc.
import { registerOp } from '../registry.js';
import { broadcastShapes, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';

function requireNonBool(op: string, m: TensorMeta): void {
  if (m.dtype === 'bool') throw new TypeError(`${op}: expected a numeric input, got bool`);
}

function numberOrNull(op: string, name: string, v: Attrs[string]): number | null {
  if (v === null) return null;
  if (typeof v !== 'number') throw new TypeError(`${op}: '${name}' must be a number or None, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * where(condition, x, y): x where condition is true, else y; all three broadcast together.
 * Paddle's one-argument form (the indices of nonzero elements) is paddle.nonzero's job.
 * @example paddle.where(paddle.greater_than(x, y), x, y)
 */
export const where = registerOp({
  name: 'where',
  // where_(condition, x, y) writes x, as Paddle's.
  inplace: 'assign',
  inplaceInput: 1,
  inputs: [{ name: 'condition' }, { name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([c, x, y]) => {
    if (c.dtype !== 'bool') throw new TypeError(`where: condition must have dtype bool, got ${c.dtype}`);
    if (x.dtype !== y.dtype) throw new TypeError(`where: x and y have different dtypes ${x.dtype} and ${y.dtype}`);
    let shape;
    try {
      shape = broadcastShapes(broadcastShapes(c.shape, x.shape, 'where'), y.shape, 'where');
    } catch {
      throw new ShapeError(`where: shapes ${shapeStr(c.shape)}, ${shapeStr(x.shape)} and ${shapeStr(y.shape)} cannot be broadcast`);
    }
    return [{ dtype: x.dtype, shape }];
  },
  gradReads: { inputs: [0] },
  grad: ({ inputs: [c, x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const zero = k.scalar(0, g!);
    return [null, needsGrad[1] ? k.sumTo(k.where(c!, g!, zero), k.shape(x!)) : null, needsGrad[2] ? k.sumTo(k.where(c!, zero, g!), k.shape(y!)) : null];
  },
});

/**
 * clip(x, min=None, max=None): limits values to [min, max]; a None bound is not applied.
 * Attrs encode as [has_min, min, has_max, max]. NaN stays NaN.
 * @example paddle.clip(x, 0, 6)
 */
export const clip = registerOp({
  name: 'clip',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'min', type: 'float', default: null }, { name: 'max', type: 'float', default: null }],
  outputs: ['out'],
  infer: ([x], a) => {
    requireNonBool('clip', x);
    numberOrNull('clip', 'min', a.min);
    numberOrNull('clip', 'max', a.max);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: (a) => {
    const mn = a.min as number | null, mx = a.max as number | null;
    return [mn === null ? 0 : 1, mn ?? 0, mx === null ? 0 : 1, mx ?? 0];
  },
  gradReads: { inputs: [0] },
  // Paddle's clip_grad passes g strictly inside (min, max) only.
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    let m: ReturnType<typeof k.scalar> | null = null;
    if (attrs.min !== null) m = k.cmp('greater_than', x!, k.scalar(attrs.min as number, x!));
    if (attrs.max !== null) {
      const hi = k.cmp('less_than', x!, k.scalar(attrs.max as number, x!));
      m = m ? k.op('logical_and', [m, hi]) : hi;
    }
    return [m ? k.mask(m, g!) : g];
  },
  inplace: true,
});

/**
 * scale(x, scale=1.0, bias=0.0, bias_after_scale=True): x * scale + bias, or (x + bias) * scale.
 * On integer tensors scale and bias are cast to the integer type first, as in Paddle.
 * @example paddle.scale(x, 2.0, 1.0)
 */
export const scale = registerOp({
  name: 'scale',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'scale', type: 'float', default: 1.0 },
    { name: 'bias', type: 'float', default: 0.0 },
    { name: 'bias_after_scale', type: 'bool', default: true },
  ],
  outputs: ['out'],
  infer: ([x], a) => {
    requireNonBool('scale', x);
    if (typeof a.scale !== 'number') throw new TypeError(`scale: 'scale' must be a number, got ${JSON.stringify(a.scale)}`);
    if (typeof a.bias !== 'number') throw new TypeError(`scale: 'bias' must be a number, got ${JSON.stringify(a.bias)}`);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  grad: ({ outGrads: [g], attrs }, ops) => [kit(ops).scale(g!, attrs.scale as number)],
  gradReads: {},
  inplace: true,
});
