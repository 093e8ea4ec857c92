// Turns reference arrays into tensors (optionally as strided views) and compares results.
import { expect } from 'vitest';
import { native } from '../../src/native.js';
import { DTYPE_CODE, type DType, isFloating } from '../../src/tensor/dtype.js';
import { encodeValues } from '../../src/tensor/creation.js';
import { bf16ToNumber, f16ToNumber, numberToBf16, numberToF16 } from '../../src/tensor/half.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { type NDArray, size, stridesOf } from './ref.js';

/** Rounds a value to what the dtype can hold (so references see the same inputs as kernels). */
export function roundTo(v: number, dtype: DType): number {
  switch (dtype) {
    case 'float16': return f16ToNumber(numberToF16(v));
    case 'bfloat16': return bf16ToNumber(numberToBf16(v));
    case 'float32': return Math.fround(v);
    default: return v;
  }
}

export function asDType(x: NDArray, dtype: DType): NDArray {
  if (!isFloating(x.dtype)) return x;
  return { shape: x.shape, data: x.data.map((v) => roundTo(v, dtype)), dtype };
}

/** A tensor holding x; with strided=true a non-contiguous view (every other element of a larger buffer). */
export function tensorOf(x: NDArray, strided = false): Tensor {
  if (!strided || x.shape.length === 0 || size(x.shape) === 0) {
    return new Tensor(native.fromBytes(DTYPE_CODE[x.dtype], x.shape, encodeValues(x.data, x.dtype)), x.dtype, [...x.shape]);
  }
  const n = size(x.shape);
  const inter = new Array<number>(2 * n);
  for (let i = 0; i < n; i++) { inter[2 * i] = x.data[i]; inter[2 * i + 1] = 12345; }
  const base = native.fromBytes(DTYPE_CODE[x.dtype], [2 * n], encodeValues(inter, x.dtype));
  const strides = stridesOf(x.shape).map((s) => 2 * s);
  const h = native.view(base, x.shape, strides, 0);
  native.release(base);
  return new Tensor(h, x.dtype, [...x.shape], strides, 0);
}

export function arrayOf(t: Tensor): NDArray {
  return { shape: [...t.shape], dtype: t.dtype, data: t.dataSync().map(Number) };
}

const DEFAULT_TOL: Record<DType, [number, number]> = {
  float32: [1e-5, 1e-5], float64: [1e-10, 1e-10], float16: [1e-2, 1e-2], bfloat16: [2e-2, 2e-2],
  int32: [0, 0], int64: [0, 0], int8: [0, 0], uint8: [0, 0], bool: [0, 0],
};

/** Asserts shape, dtype and values (NaN matches NaN, infinities must match exactly). */
export function expectClose(got: NDArray, want: NDArray, ctx: string, atol?: number, rtol?: number): void {
  expect(got.shape, `${ctx}: shape`).toEqual(want.shape);
  expect(got.dtype, `${ctx}: dtype`).toBe(want.dtype);
  const [da, dr] = DEFAULT_TOL[want.dtype];
  const a = Math.max(atol ?? 0, da), r = Math.max(rtol ?? 0, dr);
  for (let i = 0; i < want.data.length; i++) {
    const g = got.data[i], w = want.data[i];
    if (Number.isNaN(w)) { if (!Number.isNaN(g)) expect.fail(`${ctx}: element ${i}: got ${g}, want NaN`); continue; }
    if (!Number.isFinite(w)) { if (g !== w) expect.fail(`${ctx}: element ${i}: got ${g}, want ${w}`); continue; }
    if (!(Math.abs(g - w) <= a + r * Math.abs(w))) expect.fail(`${ctx}: element ${i}: got ${g}, want ${w} (atol ${a}, rtol ${r})`);
  }
}
