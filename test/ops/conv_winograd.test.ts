// Winograd F(4x4, 3x3) for float32 NCHW 3x3 stride-1 convolutions (native/kernels/nn_conv_winograd.cc).
// SKIFF_CONV_WINOGRAD=2 takes it wherever the geometry allows, so small shapes reach every edge:
// partial tiles at the bottom/right (odd H/W), padding 0/1/2, channel counts that are not a
// multiple of the register tile (8 tiles x 32 channels) or span two k blocks (C > 256), batch 1
// and 3, several tile blocks per image, strided inputs, bias, residual_data and each fused activation.
// Checked against the float64 path (the generic im2col + GEMM), with a bound relative to the
// output's magnitude: the transforms add terms up to 8x the inputs, so Winograd's float32 error
// is ~1e-5 of the output's RMS (the direct conv's is ~1e-6). Inputs are scaled as in a trained
// network (weights ~ 1/sqrt(fan-in)), so outputs are O(1). Also: results are the same bits on
// 1, 2 and 3 threads (the task grid changes, the sums do not); the default rules and =0 keep
// small or thin layers on the implicit GEMM; a constant weight (constantParams) is transformed once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, GraphBuilder } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const threads0 = native.numThreads();
const env0 = process.env.SKIFF_CONV_WINOGRAD;
const setMode = (m: string | undefined) => {
  if (m === undefined) delete process.env.SKIFF_CONV_WINOGRAD;
  else process.env.SKIFF_CONV_WINOGRAD = m;
};
beforeAll(() => setMode('2'));
afterAll(() => { setMode(env0); native.numThreads(threads0); });

interface Case { note: string; x: number[]; cout: number; padding: number; act?: string; bias?: boolean; strided?: boolean; res?: boolean }
const CASES: Case[] = [
  { note: 'ResNet conv2 shape, scaled down (14x14, 64 -> 64)', x: [1, 64, 14, 14], cout: 64, padding: 1, bias: true, act: 'relu' },
  { note: 'odd H/W: partial tiles at the bottom and right', x: [2, 5, 9, 11], cout: 7, padding: 1, bias: true },
  { note: 'padding 0, 13x6 -> 11x4', x: [3, 40, 13, 6], cout: 33, padding: 0 },
  { note: 'padding 2 (output larger than the input)', x: [1, 8, 5, 7], cout: 12, padding: 2, act: 'relu6', bias: true },
  { note: 'C = 300: two k blocks; Cout = 40: a partial B panel', x: [1, 300, 6, 6], cout: 40, padding: 1 },
  { note: 'many tiles: several tile blocks per image, batch 3', x: [3, 16, 30, 29], cout: 20, padding: 1, act: 'hardswish', bias: true },
  { note: '1x1 output map (one partial tile)', x: [2, 4, 3, 3], cout: 3, padding: 0 },
  { note: 'strided input (transposed H/W view)', x: [2, 12, 10, 14], cout: 16, padding: 1, strided: true },
  { note: 'Cout 96 over three B panels, batch 1 (channel parts on 2+ threads)', x: [1, 32, 8, 8], cout: 96, padding: 1, bias: true },
  { note: 'small maps at a batch: tasks of whole images (7x7, batch 5, groups of 3 + 2)', x: [5, 40, 7, 7], cout: 64, padding: 1, bias: true, act: 'relu' },
  { note: 'whole-image tasks with partial tiles and padding 0 (5x6 -> 3x4, batch 7)', x: [7, 33, 5, 6], cout: 35, padding: 0 },
  { note: 'residual_data + bias + relu in the epilogue (a ResNet block end)', x: [2, 24, 12, 10], cout: 24, padding: 1, bias: true, act: 'relu', res: true },
  { note: 'residual_data alone (no bias, identity)', x: [1, 16, 9, 9], cout: 16, padding: 1, act: 'identity', res: true },
];

function randn(shape: number[], seed: number, scale = 1): Tensor {
  paddle.seed(seed);
  const t = paddle.randn(shape) as Tensor;
  return scale === 1 ? t : (paddle.scale(t, scale) as Tensor);
}

function conv(c: Case, x: Tensor, w: Tensor, b: Tensor | null, r: Tensor | null = null): Tensor {
  const attrs = { stride: 1, padding: c.padding, dilation: 1, activation: c.act };
  if (r) return runOp('fused_conv2d_add_act', [x, w, b, r], attrs)[0] as Tensor;
  if (c.act) return runOp('fused_conv2d_add_act', [x, w, b], attrs)[0] as Tensor;
  return paddle.nn.functional.conv2d(x, w, b, 1, c.padding) as Tensor;
}

function inputs(c: Case) {
  let x = randn(c.x, 1);
  if (c.strided) x = x.transpose([0, 1, 3, 2]);
  const w = randn([c.cout, x.shape[1], 3, 3], 2, 1 / Math.sqrt(9 * x.shape[1]));
  const r = c.res ? randn([x.shape[0], c.cout, x.shape[2] + 2 * c.padding - 2, x.shape[3] + 2 * c.padding - 2], 4) : null;
  return { x, w, b: c.bias ? randn([c.cout], 3, 0.1) : null, r };
}

describe('float32 conv2d: Winograd F(4x4, 3x3) against the float64 path', () => {
  for (const c of CASES) {
    it(c.note, () => {
      const { x, w, b, r } = inputs(c);
      native.numThreads(1);
      const y = conv(c, x, w, b, r);
      const f64 = (t: Tensor | null) => (t ? t.astype('float64') : null);
      const want = conv(c, f64(x)!, f64(w)!, f64(b), f64(r)).rawData() as Float64Array;
      expect(y.shape).toEqual([x.shape[0], c.cout, x.shape[2] + 2 * c.padding - 2, x.shape[3] + 2 * c.padding - 2]);
      const got = Array.from(y.rawData() as Float32Array);
      let rms = 0;
      for (const v of want) rms += v * v;
      rms = Math.sqrt(rms / want.length);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1e-4 * rms + 1e-5 * Math.abs(want[i])));
      expect(worst).toBeLessThanOrEqual(1);
      // It really ran Winograd: the implicit GEMM's sums differ in the last bits somewhere.
      setMode('0');
      const direct = Array.from(conv(c, x, w, b, r).rawData() as Float32Array);
      setMode('2');
      expect(direct.some((v, i) => v !== got[i])).toBe(true);
      // The task grid depends on the thread count (tile blocks, channel parts); the sums do not.
      for (const T of [2, 3]) {
        native.numThreads(T);
        for (let k = 0; k < 2; k++) expect(Array.from(conv(c, x, w, b, r).rawData() as Float32Array), `${T} threads`).toEqual(got);
      }
    });
  }
});

describe('Winograd selection and the constant cache', () => {
  it('by default: ResNet-sized layers take it, thin or small ones do not; 0 turns it off', () => {
    native.numThreads(1);
    const differs = (mode: string, x: Tensor, w: Tensor) => {
      setMode(mode);
      const a = Array.from(paddle.nn.functional.conv2d(x, w, null, 1, 1).rawData() as Float32Array);
      setMode('0');
      const d = Array.from(paddle.nn.functional.conv2d(x, w, null, 1, 1).rawData() as Float32Array);
      setMode('2');
      return a.some((v, i) => v !== d[i]);
    };
    // Eager (weight transformed per call): 4 images of 16x16 = 64 tiles, 32 channels.
    const x = randn([4, 32, 16, 16], 4), w = randn([32, 32, 3, 3], 5, 1 / Math.sqrt(288));
    expect(differs('1', x, w)).toBe(true);
    expect(differs('', x, w)).toBe(true);
    expect(differs('0', x, w)).toBe(false);
    // 16 input channels: stays on the implicit GEMM; so does one 16x16 image when eager.
    expect(differs('1', randn([4, 16, 16, 16], 6), randn([32, 16, 3, 3], 7))).toBe(false);
    expect(differs('1', randn([1, 32, 16, 16], 6), w)).toBe(false);
    // 7x7 maps (4 tiles each) count by the batch: 16 images are 64 tiles.
    expect(differs('1', randn([16, 32, 7, 7], 8), w)).toBe(true);
    expect(differs('1', randn([3, 32, 7, 7], 8), w)).toBe(false);
  });

  it('a constant weight is transformed once per process and gives the per-call bits', () => {
    native.numThreads(2);
    setMode('1');
    try {
      const b = new GraphBuilder();
      const x = b.input('float32', [sym('s0'), 32, 16, 16]);
      const w1 = b.param('float32', [48, 32, 3, 3]), b1 = b.param('float32', [48]);
      const h = b.op1('fused_conv2d_add_act', [x, w1, b1], { padding: [1, 1], activation: 'relu' });
      b.output(h);
      const g = b.build();
      const params = [randn([48, 32, 3, 3], 8, 1 / Math.sqrt(288)), randn([48], 9)];
      const frozen = compile(g, { params, constantParams: true });
      const built = () => native.constCacheStats().built;
      const before = built();
      // Batch 1 (16 tiles) runs Winograd only because the weight is constant; eager at batch 4.
      for (const batch of [1, 4, 1]) {
        const xin = randn([batch, 32, 16, 16], batch);
        const [f] = frozen.run([xin]);
        setMode('2');  // eager, forced: the same path with the weight transformed per call
        const e = runOp('fused_conv2d_add_act', [xin, params[0], params[1]], { padding: 1, activation: 'relu' })[0] as Tensor;
        setMode('1');
        expect(Array.from(f.rawData() as Float32Array), `batch ${batch}`).toEqual(Array.from(e.rawData() as Float32Array));
        for (const t of [f, e, xin]) t.dispose();
      }
      expect(built() - before).toBe(1);
      frozen.dispose();
    } finally {
      setMode('2');
    }
  });
});
