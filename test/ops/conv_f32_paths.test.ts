// The float32 fast paths of native/kernels/nn_conv.cc and nn_pool.cc, on shapes the op records
// (small, mostly float64) do not reach:
// - conv2d / fused_conv2d_add_act in float32 NCHW without groups run the blocked implicit GEMM
//   (output-row tasks, weight packed once, channel split when the tasks are fewer than threads;
//   cols read in place for 1x1, as shifted windows of padded rows for stride 1, else im2col).
//   Checked against the same op in float64 (the generic im2col + GEMM path), over several
//   k blocks, edge tiles in both directions, stride/dilation/padding, 1x1 read in place, strided
//   inputs and batches, on 1 and 2 threads.
// - In programs compiled with constantParams (the predictor) the packed weight comes from the
//   constant cache: same bits as packing per call, one pack per weight across runs and sizes.
// - max_pool2d without a mask runs a row-at-a-time loop; with return_mask it runs the generic
//   loop, so the two must agree bit for bit (NaN, -inf, -0, empty ceil-mode windows included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, GraphBuilder } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { sym } from '../../src/tensor/shape.js';
import { runOp } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const F = paddle.nn.functional;
const threads0 = native.numThreads();
afterAll(() => { native.numThreads(threads0); });
// These cases test the implicit GEMM, so 3x3 stride-1 layers stay on it (Winograd, which the
// default rules pick for some of these shapes, has its own suite: conv_winograd.test.ts).
const winograd0 = process.env.SKIFF_CONV_WINOGRAD;
beforeAll(() => { process.env.SKIFF_CONV_WINOGRAD = '0'; });
afterAll(() => { if (winograd0 === undefined) delete process.env.SKIFF_CONV_WINOGRAD; else process.env.SKIFF_CONV_WINOGRAD = winograd0; });

interface ConvCase { note: string; x: number[]; w: number[]; stride?: number; padding?: number; dilation?: number; act?: string; bias?: boolean; strided?: boolean }
const CONV: ConvCase[] = [
  { note: 'ResNet 3x3, 3 k blocks (K = 576)', x: [1, 64, 14, 14], w: [64, 64, 3, 3], padding: 1, bias: true, act: 'relu' },
  { note: 'stem 7x7 stride 2', x: [2, 3, 30, 30], w: [16, 3, 7, 7], stride: 2, padding: 3, bias: true, act: 'relu6' },
  { note: 'Cout not a multiple of 8, P not of 32', x: [1, 20, 11, 9], w: [13, 20, 3, 3], padding: 1, act: 'hardswish', bias: true },
  { note: 'small plane, channel split (K = 2304)', x: [1, 256, 5, 5], w: [72, 256, 3, 3], padding: 1 },
  { note: 'dilation 2, no padding', x: [2, 8, 16, 17], w: [24, 8, 3, 3], dilation: 2 },
  { note: '1x1 in place', x: [3, 40, 12, 12], w: [48, 40, 1, 1], bias: true, act: 'relu' },
  { note: '1x1 stride 2 (gathered)', x: [2, 40, 12, 13], w: [48, 40, 1, 1], stride: 2 },
  { note: 'strided input (transposed H/W)', x: [2, 16, 14, 14], w: [32, 16, 3, 3], padding: 1, strided: true },
  { note: 'wide rows, several row tasks', x: [1, 8, 70, 150], w: [16, 8, 3, 3], padding: 1, bias: true },
  { note: 'shifted windows with dilation 2, batch 3', x: [3, 6, 20, 40], w: [10, 6, 3, 3], padding: 2, dilation: 2, act: 'relu' },
  { note: '1x1 with padding (shifted, no taps)', x: [1, 12, 9, 30], w: [20, 12, 1, 1], padding: 1, bias: true },
  { note: '5x5, 2 k blocks per tap row', x: [1, 24, 36, 36], w: [40, 24, 5, 5], padding: 2 },
];

function randn(shape: number[], seed: number): Tensor {
  paddle.seed(seed);
  return paddle.randn(shape) as Tensor;
}

function conv(c: ConvCase, x: Tensor, w: Tensor, b: Tensor | null): Tensor {
  const attrs = { stride: c.stride ?? 1, padding: c.padding ?? 0, dilation: c.dilation ?? 1 };
  if (c.act) return runOp('fused_conv2d_add_act', [x, w, b], { ...attrs, activation: c.act })[0] as Tensor;
  return F.conv2d(x, w, b, attrs.stride, attrs.padding, attrs.dilation) as Tensor;
}

describe('float32 conv2d: implicit GEMM path against the float64 path', () => {
  for (const T of [1, 2]) {
    for (const c of CONV) {
      it(`${c.note} (${T} thread${T > 1 ? 's' : ''})`, () => {
        native.numThreads(T);
        let x = randn(c.x, 1);
        if (c.strided) x = x.transpose([0, 1, 3, 2]);
        const w = randn(c.w, 2), b = c.bias ? randn([c.w[0]], 3) : null;
        const y = conv(c, x, w, b);
        const y64 = conv(c, x.astype('float64'), w.astype('float64'), b ? b.astype('float64') : null);
        expect(y.shape).toEqual(y64.shape);
        const got = y.rawData() as Float32Array, want = y64.rawData() as Float64Array;
        let worst = 0;
        for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1e-4 + 1e-4 * Math.abs(want[i])));
        expect(worst).toBeLessThanOrEqual(1);
        // Repeated calls reuse thread scratch: the result must not depend on what was there before.
        expect(Array.from(conv(c, x, w, b).rawData() as Float32Array)).toEqual(Array.from(got));
      });
    }
  }
});

describe('max_pool2d: row path equals the generic (return_mask) loop bit for bit', () => {
  const cases: { note: string; x: number[]; k: number; s: number; p: number; ceil?: boolean; special?: boolean }[] = [
    { note: 'ResNet 3x3 / 2 / pad 1', x: [2, 3, 15, 16], k: 3, s: 2, p: 1 },
    { note: '3x3 / 1 / pad 1', x: [1, 4, 9, 9], k: 3, s: 1, p: 1 },
    { note: 'ceil mode, windows past the edge', x: [1, 2, 8, 7], k: 3, s: 2, p: 1, ceil: true },
    { note: 'NaN, -inf, -0 and +0', x: [1, 2, 7, 7], k: 3, s: 2, p: 1, special: true },
  ];
  for (const c of cases) {
    it(c.note, () => {
      native.numThreads(2);
      let x = randn(c.x, 4);
      if (c.special) {
        const d = Float32Array.from(x.rawData() as Float32Array);
        for (let i = 0; i < d.length; i++) d[i] = [NaN, -Infinity, -0, 0, d[i]][i % 5];
        x = paddle.to_tensor(d).reshape(c.x) as Tensor;
      }
      const y = F.max_pool2d(x, c.k, c.s, c.p, false, c.ceil ?? false) as Tensor;
      const [ref] = F.max_pool2d(x, c.k, c.s, c.p, true, c.ceil ?? false) as Tensor[];
      const a = new Uint32Array((y.rawData() as Float32Array).slice().buffer), r = new Uint32Array((ref.rawData() as Float32Array).slice().buffer);
      expect(Array.from(a)).toEqual(Array.from(r));
    });
  }
});

describe('conv2d weights of constant parameters: packed once', () => {
  it('equal bits to the per-call packing, one pack per weight across runs and batch sizes', () => {
    native.numThreads(2);
    // x [s0, 16, 12, 12] -> conv 3x3 (W1 [32, 16, 3, 3], bias) + relu -> conv 1x1 (W2 [24, 32, 1, 1])
    const b = new GraphBuilder();
    const x = b.input('float32', [sym('s0'), 16, 12, 12]);
    const w1 = b.param('float32', [32, 16, 3, 3]), b1 = b.param('float32', [32]), w2 = b.param('float32', [24, 32, 1, 1]);
    const h = b.op1('fused_conv2d_add_act', [x, w1, b1], { padding: [1, 1], activation: 'relu' });
    b.output(b.op1('conv2d', [h, w2, null]));
    const g = b.build();
    const params = [randn([32, 16, 3, 3], 5), randn([32], 6), randn([24, 32, 1, 1], 7)];
    const plain = compile(g, { params }), frozen = compile(g, { params, constantParams: true });
    const built = () => native.constCacheStats().built;
    const before = built();
    for (const batch of [1, 3, 1]) {
      const xin = randn([batch, 16, 12, 12], batch);
      const [p] = plain.run([xin]), [f] = frozen.run([xin]);
      expect(Array.from(f.rawData() as Float32Array), `batch ${batch}`).toEqual(Array.from(p.rawData() as Float32Array));
      for (const t of [p, f, xin]) t.dispose();
    }
    expect(built() - before).toBe(2);
    plain.dispose();
    frozen.dispose();
  });
});
