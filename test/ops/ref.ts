// Plain TypeScript reference arrays and helpers: the oracle the native kernels are checked against.
import { mulberry32 as rng } from '../../src/io/prng.js';
import type { DType } from '../../src/tensor/dtype.js';

export interface NDArray { shape: number[]; data: number[]; dtype: DType }

export const nd = (shape: number[], data: number[], dtype: DType = 'float32'): NDArray => ({ shape, data, dtype });
export const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
export const stridesOf = (shape: readonly number[]): number[] => {
  const s = new Array(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1];
  return s;
};

/** Deterministic PRNG (mulberry32, shared with src/io) so samples are the same on every run. */
export { rng };

/** Random array: floats in [lo, hi), integers for integer dtypes, 0/1 for bool. */
export function rand(shape: number[], dtype: DType = 'float32', seed = 1, lo = -2, hi = 2): NDArray {
  const r = rng(seed);
  const n = size(shape);
  const data = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const v = lo + (hi - lo) * r();
    data[i] = dtype === 'bool' ? (v > (lo + hi) / 2 ? 1 : 0) : dtype.startsWith('int') || dtype === 'uint8' ? Math.floor(v) : v;
  }
  return { shape, data, dtype };
}

export function broadcastShape(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const da = a[a.length - n + i] ?? 1, db = b[b.length - n + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) throw new Error(`ref: cannot broadcast [${a}] [${b}]`);
    out.push(da === 1 ? db : da);
  }
  return out;
}

/** Value of `x` at multi-index `idx` of a broadcast shape. */
export function atBroadcast(x: NDArray, idx: readonly number[]): number {
  const off = idx.length - x.shape.length;
  const st = stridesOf(x.shape);
  let p = 0;
  for (let i = 0; i < x.shape.length; i++) p += (x.shape[i] === 1 ? 0 : idx[off + i]) * st[i];
  return x.data[p];
}

export function unravel(i: number, shape: readonly number[]): number[] {
  const idx = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) { idx[d] = i % shape[d]; i = Math.floor(i / shape[d]); }
  return idx;
}

/** Elementwise map over broadcast inputs. */
export function mapN(inputs: NDArray[], f: (...v: number[]) => number, dtype?: DType): NDArray {
  const shape = inputs.map((x) => x.shape).reduce(broadcastShape);
  const n = size(shape);
  const data = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    data[i] = f(...inputs.map((x) => atBroadcast(x, idx)));
  }
  return { shape, data, dtype: dtype ?? inputs[0].dtype };
}

/** Rounds like a float32 store (Math.fround) or integer truncation for the dtype. */
export function castValue(v: number, dtype: DType): number {
  switch (dtype) {
    case 'float32': return Math.fround(v);
    case 'bool': return v ? 1 : 0;
    case 'int32': return Math.trunc(v) | 0;
    case 'int8': return ((Math.trunc(v) << 24) >> 24);
    case 'uint8': return Math.trunc(v) & 0xff;
    case 'int64': return Math.trunc(v);
    default: return v;
  }
}
