// The transposed 1x1 convolution (native/kernels/nn_conv_1x1.cc: pixels as the GEMM tile's rows,
// across images) against the implicit GEMM it replaces for ResNet's 14x14 / 7x7 stages
// (SKIFF_CONV_1X1T=0 turns it off): same k blocking and micro-kernel, so every output must be
// bit-identical, on 1 and 2 threads, with bias, residual and activations in the epilogue. Mode 2
// reaches shapes the rule skips (odd channel counts, tiny layers; above the implicit GEMM's 32^3
// minimum, below it the reference is another GEMM); the float64 path checks values.
import { afterAll, describe, expect, it } from 'vitest';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const threads0 = native.numThreads();
const mode0 = process.env.SKIFF_CONV_1X1T;
afterAll(() => {
  native.numThreads(threads0);
  if (mode0 === undefined) delete process.env.SKIFF_CONV_1X1T; else process.env.SKIFF_CONV_1X1T = mode0;
});

interface Case { note: string; x: number[]; w: number[]; stride?: number; bias?: boolean; res?: boolean; act?: string; mode?: '1' | '2' }
const CASES: Case[] = [
  { note: '7x7 512 -> 2048 + residual, relu (bottleneck end)', x: [1, 512, 7, 7], w: [2048, 512, 1, 1], res: true, act: 'relu' },
  { note: '7x7 2048 -> 512, relu, 8 k blocks', x: [1, 2048, 7, 7], w: [512, 2048, 1, 1], act: 'relu' },
  { note: '14x14 256 -> 1024 + residual, batch 3 (rows span images)', x: [3, 256, 14, 14], w: [1024, 256, 1, 1], res: true, act: 'relu' },
  { note: 'downsample 14x14 -> 7x7 stride 2, batch 2, no activation', x: [2, 128, 14, 14], w: [256, 128, 1, 1], stride: 2 },
  { note: 'downsample 28x28 -> 14x14 stride 2, no bias', x: [1, 64, 28, 28], w: [128, 64, 1, 1], stride: 2, bias: false },
  { note: 'mode 2: odd channels (Cout 40, C 24), relu6', x: [2, 24, 5, 5], w: [40, 24, 1, 1], act: 'relu6', mode: '2' },
  { note: 'mode 2: 1x1 output pixel, hardswish + residual', x: [4, 64, 1, 1], w: [576, 64, 1, 1], act: 'hardswish', res: true, mode: '2' },
  { note: 'mode 2: stride 3 on 10x10', x: [1, 8, 10, 10], w: [16, 8, 1, 1], stride: 3, mode: '2' },
];

function randn(shape: number[], seed: number): Tensor {
  paddle.seed(seed);
  return paddle.randn(shape) as Tensor;
}

function conv(c: Case, ins: (Tensor | null)[]): Float32Array | Float64Array {
  const attrs = { stride: c.stride ?? 1, padding: 0, dilation: 1, groups: 1, activation: c.act ?? 'identity' };
  const [y] = runOp('fused_conv2d_add_act', ins, attrs) as Tensor[];
  const out = y.rawData() as Float32Array | Float64Array;
  const copy = out instanceof Float64Array ? Float64Array.from(out) : Float32Array.from(out);
  y.dispose();
  return copy;
}

describe('transposed 1x1 conv equals the implicit GEMM bit for bit', () => {
  for (const c of CASES) {
    it(c.note, () => {
      const s = c.stride ?? 1, oh = Math.ceil(c.x[2] / s), ow = Math.ceil(c.x[3] / s);
      const x = randn(c.x, 1), w = randn(c.w, 2), b = c.bias === false ? null : randn([c.w[0]], 3);
      const r = c.res ? randn([c.x[0], c.w[0], oh, ow], 4) : null;
      const ins = [x, w, b, r];
      native.numThreads(1);
      process.env.SKIFF_CONV_1X1T = '0';
      const ref = conv(c, ins);
      const f64 = conv(c, ins.map((t) => t?.astype('float64') ?? null));
      let worst = 0;
      for (let i = 0; i < f64.length; i++) worst = Math.max(worst, Math.abs(ref[i] - f64[i]) / (1e-4 + 1e-4 * Math.abs(f64[i])));
      expect(worst).toBeLessThanOrEqual(1);
      process.env.SKIFF_CONV_1X1T = c.mode ?? '1';
      for (const T of [1, 2]) {
        native.numThreads(T);
        const got = conv(c, ins);
        let bad = -1;
        for (let i = 0; i < ref.length && bad < 0; i++) if (!Object.is(got[i], ref[i])) bad = i;
        expect(bad, `${T} threads: element ${bad}: ${got[bad]} vs ${ref[bad]}`).toBe(-1);
      }
      for (const t of [x, w, b, r]) t?.dispose();
    });
  }
});
