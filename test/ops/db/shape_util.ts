// Small index helpers for the shape/indexing references (test/ops/db/shape_*.ts, index_*.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { type NDArray, size, stridesOf, unravel } from '../ref.js';

/** An array of `shape` whose element at multi-index idx is f(idx). */
export function build(shape: number[], dtype: DType, f: (idx: number[]) => number): NDArray {
  const n = size(shape);
  const data = new Array<number>(n);
  for (let i = 0; i < n; i++) data[i] = f(unravel(i, shape));
  return { shape, data, dtype };
}

/** Element of x at a multi-index (row-major). */
export function at(x: NDArray, idx: readonly number[]): number {
  const st = stridesOf(x.shape);
  let p = 0;
  for (let i = 0; i < idx.length; i++) p += idx[i] * st[i];
  return x.data[p];
}

/** 0, 1, 2, ... in shape (offset by `from`); bool alternates 0, 1. */
export const iota = (shape: number[], dtype: DType = 'float32', from = 0): NDArray =>
  ({ shape, dtype, data: Array.from({ length: size(shape) }, (_, i) => (dtype === 'bool' ? (from + i) % 2 : from + i)) });

export const normAx = (a: number, rank: number): number => (a < 0 ? a + rank : a);

/** Inputs of a record sample as plain arrays (records type them loosely). */
export const arr = (v: unknown): NDArray => v as NDArray;
export const arrs = (v: unknown): NDArray[] => v as NDArray[];
