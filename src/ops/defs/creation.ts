// Ops that make tensors from attributes alone. Native: native/kernels/creation.cc.
import { registerOp } from '../registry.js';
import { DTYPE_CODE, type DType, toDType } from '../../tensor/dtype.js';
import { ShapeError } from '../../tensor/shape.js';
import type { Attrs } from '../types.js';

function shapeAttr(op: string, s: Attrs[string]): number[] {
  const shape = (typeof s === 'number' ? [s] : (s as number[])) ?? [];
  for (const d of shape) if (!Number.isInteger(d) || d < 0) throw new ShapeError(`${op}: invalid shape ${JSON.stringify(s)}`);
  return [...shape];
}

/** full(shape, fill_value, dtype): attrs [dtypeCode unused by kernel, value]. */
export const full = registerOp({
  name: 'full',
  inputs: [],
  attrs: [{ name: 'shape', type: 'int[]' }, { name: 'fill_value', type: 'scalar' }, { name: 'dtype', type: 'dtype', default: 'float32' }],
  outputs: ['out'],
  infer: (_ins, a) => [{ dtype: toDType(a.dtype as string), shape: shapeAttr('full', a.shape) }],
  encode: (a) => [Number(a.fill_value)],
});

export const dtypeOf = (a: Attrs): DType => toDType(a.dtype as string);
export const dtypeCodeOf = (a: Attrs): number => DTYPE_CODE[dtypeOf(a)];
