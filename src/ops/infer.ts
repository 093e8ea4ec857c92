// Reusable shape/dtype rules for op definitions (each works on symbolic dims too).
import { type DType, isFloating } from '../tensor/dtype.js';
import { broadcastShapes, type Dim, normAxis, ShapeError, shapeStr, SymDim } from '../tensor/shape.js';
import type { Attrs, TensorMeta } from './types.js';

/** A data-dependent dim of an OpDef.dynamicShape op's output (see src/ops/types.ts): a symbol equal to no other. */
export const dataDim = (op: string): Dim => SymDim.fresh(`${op}_n`);

export const sameAsInput = (ins: readonly TensorMeta[]): TensorMeta[] => [{ dtype: ins[0].dtype, shape: ins[0].shape }];

export function broadcastBinary(op: string, out: 'same' | 'bool'): (ins: readonly TensorMeta[]) => TensorMeta[] {
  return (ins) => {
    const [x, y] = ins;
    if (x.dtype !== y.dtype) throw new TypeError(`${op}: inputs have different dtypes ${x.dtype} and ${y.dtype}`);
    return [{ dtype: out === 'bool' ? 'bool' : x.dtype, shape: broadcastShapes(x.shape, y.shape, op) }];
  };
}

export function requireFloat(op: string, d: DType): void {
  if (!isFloating(d)) throw new TypeError(`${op}: expected a floating-point input, got ${d}`);
}

/** Normalises reduction axes (int, list or null = all) for a rank. */
export function reduceAxes(op: string, axis: Attrs[string], rank: number): number[] {
  if (axis === null || axis === undefined) return [...Array(rank).keys()];
  const list = Array.isArray(axis) ? (axis as number[]) : [axis as number];
  if (list.length === 0) return [...Array(rank).keys()];
  const out = list.map((a) => normAxis(a, rank, op));
  if (new Set(out).size !== out.length) throw new ShapeError(`${op}: duplicate axis in ${JSON.stringify(list)}`);
  return out.sort((a, b) => a - b);
}

export function reducedShape(shape: readonly Dim[], axes: readonly number[], keepdim: boolean): Dim[] {
  const out: Dim[] = [];
  shape.forEach((d, i) => {
    if (axes.includes(i)) { if (keepdim) out.push(1); } else out.push(d);
  });
  return out;
}

export function expectRank(op: string, m: TensorMeta, ranks: readonly number[], what = 'input'): void {
  if (!ranks.includes(m.shape.length))
    throw new ShapeError(`${op}: ${what} must have rank ${ranks.join(' or ')}, got shape ${shapeStr(m.shape)}`);
}
