// max_pool2d's row path for NCHW planes without a mask (native/kernels/nn_pool.cc: a whole output
// row at a time, tap by tap; ResNet's 3x3 / stride 2 / pad 1 stem pool) against the generic loop
// (taken with return_mask), bit for bit: NaN anywhere in a window wins, -inf, ties of 0 and -0,
// odd and even widths, padding on either side, ceil_mode, a strided input.
import { describe, expect, it } from 'vitest';
import '../../src/ops/index.js';
import { runOp } from '../../src/ops/dispatch.js';
import { native } from '../../src/native.js';
import { DTYPE_CODE } from '../../src/tensor/dtype.js';
import { encodeValues } from '../../src/tensor/creation.js';
import { type Tensor, Tensor as T } from '../../src/tensor/tensor.js';

interface Case { note: string; x: number[]; attrs: Record<string, unknown>; transpose?: boolean }
const CASES: Case[] = [
  { note: 'ResNet stem: 3x3, stride 2, pad 1, even width', x: [2, 3, 12, 14], attrs: { kernel_size: 3, stride: 2, padding: 1 } },
  { note: '3x3, stride 2, pad 1, odd width', x: [1, 2, 9, 11], attrs: { kernel_size: 3, stride: 2, padding: 1 } },
  { note: '3x3, stride 2, no padding', x: [1, 2, 9, 10], attrs: { kernel_size: 3, stride: 2 } },
  { note: '5x5, stride 2, pad 2, ceil_mode', x: [1, 2, 10, 13], attrs: { kernel_size: 5, stride: 2, padding: 2, ceil_mode: true } },
  { note: '2x3 kernel, stride [1, 2], pad [0, 1]', x: [1, 2, 7, 9], attrs: { kernel_size: [2, 3], stride: [1, 2], padding: [0, 1] } },
  { note: 'strided input (H and W swapped): the strided-read path', x: [1, 2, 10, 12], attrs: { kernel_size: 3, stride: 2, padding: 1 }, transpose: true },
];

function input(shape: number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const vals = Array.from({ length: n }, (_, i) => (i % 19 === 7 ? NaN : i % 23 === 0 ? -Infinity : i % 13 === 4 ? -0 : i % 11 === 3 ? 0 : Math.sin(i * 1.3) * 3));
  return new T(native.fromBytes(DTYPE_CODE.float32, shape, encodeValues(vals, 'float32')), 'float32', shape);
}

describe('max_pool2d row path (stride 2) equals the generic loop', () => {
  for (const c of CASES) {
    it(c.note, () => {
      const base = input(c.x);
      const x = c.transpose ? (runOp('transpose', [base], { perm: [0, 1, 3, 2] }) as Tensor[])[0] : base;
      const [fast] = runOp('max_pool2d', [x], c.attrs) as Tensor[];
      const [generic, mask] = runOp('max_pool2d', [x], { ...c.attrs, return_mask: true }) as Tensor[];
      expect(fast.shape).toEqual(generic.shape);
      const a = Array.from(fast.dataSync(), Number), b = Array.from(generic.dataSync(), Number);
      expect(a.some((v) => Number.isNaN(v))).toBe(true);
      let bad = -1;
      for (let i = 0; i < b.length && bad < 0; i++) if (!Object.is(a[i], b[i])) bad = i;
      expect(bad, `element ${bad}: ${a[bad]} vs ${b[bad]}`).toBe(-1);
      for (const t of new Set([base, x, fast, generic, mask])) t.dispose();
    });
  }
});
