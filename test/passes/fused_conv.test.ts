// fused_conv2d_add_act against the ops it replaces, act(conv2d(x, w, b)), bit for bit: the
// fusion pass must never change a model's output. Covers each kernel path the epilogue lives in
// (im2col + GEMM per image, whole images per thread, 1x1 without im2col, NHWC, depthwise flat
// sweep and strided rows, channel multipliers) with values around the activations' kinks.
import { describe, expect, it } from 'vitest';
import '../../src/ops/index.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { native } from '../../src/native.js';
import { DTYPE_CODE } from '../../src/tensor/dtype.js';
import { encodeValues } from '../../src/tensor/creation.js';
import { Tensor as T } from '../../src/tensor/tensor.js';

type F = 'float32' | 'float64';
function tensor(shape: number[], seed: number, dtype: F, scale = 4): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  let s = seed * 2654435761 >>> 0;
  const data = Array.from({ length: n }, () => { s = (s * 1103515245 + 12345) >>> 0; return ((s >>> 8) / (1 << 24) - 0.5) * scale; });
  return new T(native.fromBytes(DTYPE_CODE[dtype], shape, encodeValues(data, dtype)), dtype, shape);
}

interface Case { note: string; x: number[]; w: number[]; bias: boolean; attrs?: Record<string, unknown> }
const CASES: Case[] = [
  { note: 'LeNet conv2, batch 8 (whole images per thread)', x: [8, 6, 12, 12], w: [16, 6, 5, 5], bias: true },
  { note: 'batch 1 (pool-wide GEMM), stride 2', x: [1, 8, 15, 15], w: [12, 8, 3, 3], bias: true, attrs: { stride: 2, padding: 1 } },
  { note: '1x1, no bias', x: [3, 16, 7, 7], w: [24, 16, 1, 1], bias: false },
  { note: 'NHWC', x: [2, 9, 9, 5], w: [7, 5, 3, 3], bias: true, attrs: { padding: 1, data_format: 'NHWC' } },
  { note: 'depthwise 3x3 flat sweep', x: [2, 8, 14, 14], w: [8, 1, 3, 3], bias: true, attrs: { groups: 8, padding: 1 } },
  { note: 'depthwise 3x3 stride 2', x: [1, 8, 15, 15], w: [8, 1, 3, 3], bias: true, attrs: { groups: 8, padding: 1, stride: 2 } },
  { note: 'depthwise 5x5 NHWC', x: [1, 10, 10, 4], w: [4, 1, 5, 5], bias: true, attrs: { groups: 4, padding: 2, data_format: 'NHWC' } },
  { note: 'depthwise 2x2 channel multiplier, no bias', x: [1, 3, 8, 8], w: [6, 1, 2, 2], bias: false, attrs: { groups: 3 } },
];

function run(name: string, ins: (Tensor | null)[], attrs: Record<string, unknown>): Tensor {
  return (runOp(name, ins, attrs) as Tensor[])[0];
}

describe('fused_conv2d_add_act equals conv2d + activation bit for bit', () => {
  for (const c of CASES) {
    for (const dtype of ['float32', 'float64'] as F[]) {
      it(`${c.note} (${dtype})`, () => {
        const k = c.w[1] * c.w[2] * c.w[3];
        const x = tensor(c.x, 1, dtype), w = tensor(c.w, 2, dtype, 12 / Math.sqrt(k)), b = c.bias ? tensor([c.w[0]], 3, dtype) : null;
        for (const act of ['identity', 'relu', 'relu6', 'hardswish']) {
          const conv = run('conv2d', [x, w, b], c.attrs ?? {});
          const ref = act === 'identity' ? conv : run(act, [conv], {});
          const fused = run('fused_conv2d_add_act', [x, w, b], { ...c.attrs, activation: act });
          expect(fused.shape).toEqual(ref.shape);
          const want = ref.dataSync(), got = fused.dataSync();
          let bad = -1;
          for (let i = 0; i < want.length && bad < 0; i++) if (!Object.is(Number(got[i]), Number(want[i]))) bad = i;
          expect(bad, `${act}: element ${bad}: fused ${got[bad]} vs ${want[bad]}`).toBe(-1);
          // The values reach every branch of the activation.
          if (act === 'relu6') expect(Array.from(want, Number).some((v) => v === 6) && Array.from(want, Number).some((v) => v === 0)).toBe(true);
          for (const t of new Set([conv, ref, fused])) t.dispose();
        }
        for (const t of [x, w, b]) t?.dispose();
      });
    }
  }
});

// max_pool2d's 2x2 / stride 2 fast path (native/kernels/nn_pool.cc, taken without a mask)
// against the generic loop (taken with return_mask), NaNs included: a NaN anywhere in a window
// must win, as in the generic fold.
describe('max_pool2d 2x2 fast path equals the generic loop', () => {
  for (const dtype of ['float32', 'float64'] as F[]) {
    it(dtype, () => {
      const vals = Array.from({ length: 2 * 3 * 9 * 10 }, (_, i) => (i % 17 === 5 ? NaN : i % 23 === 0 ? -Infinity : Math.sin(i * 1.7) * 3));
      const x = new T(native.fromBytes(DTYPE_CODE[dtype], [2, 3, 9, 10], encodeValues(vals, dtype)), dtype, [2, 3, 9, 10]);
      const fast = run('max_pool2d', [x], { kernel_size: 2, stride: 2 });
      const generic = (runOp('max_pool2d', [x], { kernel_size: 2, stride: 2, return_mask: true }) as Tensor[]);
      expect(fast.shape).toEqual([2, 3, 4, 5]);
      const a = Array.from(fast.dataSync(), Number), b = Array.from(generic[0].dataSync(), Number);
      expect(a.some((v) => Number.isNaN(v))).toBe(true);
      expect(a.map(String)).toEqual(b.map(String));
      for (const t of [x, fast, ...generic]) t.dispose();
    });
  }
});
