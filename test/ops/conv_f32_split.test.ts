// Batch-1 task grids of the float32 conv paths (native/kernels/nn_conv.cc conv_f32_implicit,
// nn_conv_dw.cc): with more threads than images a layer is cut into >= 2 tasks per thread
// (output-channel parts for 1x1 in place, row blocks while they stay two panels wide, then
// parts), claimed dynamically (native/src/threadpool_tasks.h). The k order never changes, so on
// 2 and 3 threads every output must equal the 1-thread result bit for bit, whichever thread ran
// which task; the float64 path checks the values themselves. Shapes are MobileNetV2's batch-1
// layers (scaled down where the split stays the same) plus edge cases of the grid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const threads0 = native.numThreads();
afterAll(() => { native.numThreads(threads0); });
// These cases test the implicit GEMM, so 3x3 stride-1 layers stay on it (Winograd, which the
// default rules pick for some of these shapes, has its own suite: conv_winograd.test.ts).
const winograd0 = process.env.SKIFF_CONV_WINOGRAD;
beforeAll(() => { process.env.SKIFF_CONV_WINOGRAD = '0'; });
afterAll(() => { if (winograd0 === undefined) delete process.env.SKIFF_CONV_WINOGRAD; else process.env.SKIFF_CONV_WINOGRAD = winograd0; });

interface SplitCase { note: string; x: number[]; w: number[]; stride?: number; padding?: number; groups?: number; act?: string }
const CASES: SplitCase[] = [
  { note: '7x7 1x1 320 -> 1280: channel parts only', x: [1, 320, 7, 7], w: [1280, 320, 1, 1], act: 'relu6' },
  { note: '7x7 1x1 960 -> 320: 4 k blocks, parts of 80', x: [1, 960, 7, 7], w: [320, 960, 1, 1] },
  { note: '14x14 1x1 96 -> 576: parts', x: [1, 96, 14, 14], w: [576, 96, 1, 1], act: 'relu6' },
  { note: '14x14 1x1 576 -> 96: one part, two row blocks', x: [1, 576, 14, 14], w: [96, 576, 1, 1] },
  { note: '28x28 1x1 32 -> 192 (threaded since the lower threshold)', x: [1, 32, 28, 28], w: [192, 32, 1, 1], act: 'relu6' },
  { note: '1x1 Cout 20 < 64: parts of any size when rows cannot split', x: [1, 64, 5, 5], w: [20, 64, 1, 1] },
  { note: '3x3 shifted 14x14: row blocks then parts', x: [1, 48, 14, 14], w: [160, 48, 3, 3], padding: 1, act: 'relu' },
  { note: 'stem 3x3 stride 2 (im2col): row blocks', x: [1, 3, 96, 96], w: [32, 3, 3, 3], stride: 2, padding: 1, act: 'relu6' },
  { note: 'batch 3 on 2 threads (odd batch)', x: [3, 64, 7, 7], w: [256, 64, 1, 1] },
  // Weight-heavy layers (weight larger than the image's cols): channel parts in one group per
  // thread, and a thread's parts of one row block reuse the cols it gathered (conv_tasks.h).
  { note: 'weight-heavy 7x7 3x3 128 -> 256 (im2col): channel groups, cols reused', x: [1, 128, 7, 7], w: [256, 128, 3, 3], padding: 1, act: 'relu' },
  { note: 'weight-heavy 14x14 3x3 256 -> 256 (shifted): padded rows reused', x: [1, 256, 14, 14], w: [256, 256, 3, 3], padding: 1 },
  { note: 'weight-heavy 1x1 stride 2 14x14 -> 7x7, 256 -> 512 (im2col)', x: [1, 256, 14, 14], w: [512, 256, 1, 1], stride: 2 },
  { note: 'weight-heavy 3x3 stride 2 28x28 -> 14x14 (im2col): 3 row blocks x 2 parts', x: [1, 256, 28, 28], w: [256, 256, 3, 3], stride: 2, padding: 1 },
  { note: 'depthwise 3x3 s2 96 x 56x56', x: [1, 96, 56, 56], w: [96, 1, 3, 3], stride: 2, padding: 1, groups: 96, act: 'relu6' },
  { note: 'depthwise 3x3 s1 576 x 14x14', x: [1, 576, 14, 14], w: [576, 1, 3, 3], padding: 1, groups: 576, act: 'relu6' },
  { note: 'depthwise 3x3 s1 960 x 7x7, 17 channel blocks', x: [1, 960, 7, 7], w: [960, 1, 3, 3], padding: 1, groups: 960 },
];

function randn(shape: number[], seed: number): Tensor {
  paddle.seed(seed);
  return paddle.randn(shape) as Tensor;
}

function conv(c: SplitCase, x: Tensor, w: Tensor, b: Tensor): Tensor {
  const attrs = { stride: c.stride ?? 1, padding: c.padding ?? 0, dilation: 1, groups: c.groups ?? 1, activation: c.act ?? 'identity' };
  return runOp('fused_conv2d_add_act', [x, w, b], attrs)[0] as Tensor;
}

describe('float32 conv at batch 1: task splits give the 1-thread bits', () => {
  for (const c of CASES) {
    it(c.note, () => {
      const x = randn(c.x, 1), w = randn(c.w, 2), b = randn([c.w[0]], 3);
      native.numThreads(1);
      const one = Array.from(conv(c, x, w, b).rawData() as Float32Array);
      const want = conv(c, x.astype('float64'), w.astype('float64'), b.astype('float64')).rawData() as Float64Array;
      expect(one.length).toBe(want.length);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(one[i] - want[i]) / (1e-4 + 1e-4 * Math.abs(want[i])));
      expect(worst).toBeLessThanOrEqual(1);
      for (const T of [2, 3]) {
        native.numThreads(T);
        // Twice: tasks land on different threads from run to run.
        for (let r = 0; r < 2; r++) expect(Array.from(conv(c, x, w, b).rawData() as Float32Array), `${T} threads`).toEqual(one);
      }
    });
  }
});

// fused_conv2d_add_act's residual on the float32 paths is added per task, while the output block
// is in cache (run_conv2d), with the operations of conv + add + relu: the same bits as the
// unfused ops, on 1, 2 and 3 threads, whatever the path (env selects it for eager shapes).
interface ResCase { note: string; x: number[]; w: number[]; stride?: number; padding?: number; env?: Record<string, string> }
const RES_CASES: ResCase[] = [
  { note: 'implicit 1x1 in place, 28x28 64 -> 256', x: [1, 64, 28, 28], w: [256, 64, 1, 1] },
  { note: 'implicit shifted 3x3, 14x14 48 -> 160', x: [1, 48, 14, 14], w: [160, 48, 3, 3], padding: 1 },
  { note: 'implicit im2col, weight-heavy 7x7 3x3 128 -> 256', x: [1, 128, 7, 7], w: [256, 128, 3, 3], padding: 1 },
  { note: 'implicit im2col 1x1 stride 2, batch 3', x: [3, 64, 14, 14], w: [128, 64, 1, 1], stride: 2 },
  { note: 'Winograd 14x14 256 -> 256 (channel groups)', x: [1, 256, 14, 14], w: [256, 256, 3, 3], padding: 1, env: { SKIFF_CONV_WINOGRAD: '2' } },
  { note: 'Winograd 28x28 64 -> 64 (tile blocks), batch 2', x: [2, 64, 28, 28], w: [64, 64, 3, 3], padding: 1, env: { SKIFF_CONV_WINOGRAD: '2' } },
  { note: 'transposed 1x1 14x14 256 -> 1024 (channel groups)', x: [1, 256, 14, 14], w: [1024, 256, 1, 1], env: { SKIFF_CONV_1X1T: '2' } },
  { note: 'transposed 1x1 7x7 512 -> 2048', x: [1, 512, 7, 7], w: [2048, 512, 1, 1], env: { SKIFF_CONV_1X1T: '2' } },
];

describe('float32 conv + residual + relu: per-task residual gives the unfused bits', () => {
  for (const c of RES_CASES) {
    it(c.note, () => {
      const saved: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(c.env ?? {})) { saved[k] = process.env[k]; process.env[k] = v; }
      try {
        const s = c.stride ?? 1, p = c.padding ?? 0;
        const oh = Math.floor((c.x[2] + 2 * p - c.w[2]) / s) + 1, ow = Math.floor((c.x[3] + 2 * p - c.w[3]) / s) + 1;
        const x = randn(c.x, 1), w = paddle.scale(randn(c.w, 2), 1 / Math.sqrt(c.w[1] * c.w[2] * c.w[3])) as Tensor;
        const b = randn([c.w[0]], 3), r = randn([c.x[0], c.w[0], oh, ow], 4);
        const attrs = { stride: s, padding: p, dilation: 1, groups: 1, activation: 'relu' };
        native.numThreads(1);
        const y = runOp('fused_conv2d_add_act', [x, w, b], { ...attrs, activation: 'identity' })[0] as Tensor;
        const want = Array.from(paddle.nn.functional.relu(paddle.add(y, r)).rawData() as Float32Array);
        // Some outputs on each side of zero, so relu and the residual both matter.
        expect(want.some((v) => v === 0) && want.some((v) => v > 0)).toBe(true);
        for (const T of [1, 2, 3]) {
          native.numThreads(T);
          for (let k = 0; k < 2; k++) {
            const got = Array.from((runOp('fused_conv2d_add_act', [x, w, b, r], attrs)[0] as Tensor).rawData() as Float32Array);
            expect(got, `${T} threads`).toEqual(want);
          }
        }
      } finally {
        for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
      }
    });
  }
});
