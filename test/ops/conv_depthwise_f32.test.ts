// The float32 depthwise 3x3 path (native/kernels/nn_conv_dw.cc: NCHW, groups == C == Cout,
// dilation 1, stride 1 or 2 per axis) against the generic depthwise loop of nn_conv.cc, which
// still runs for NHWC input and for float64:
// - bit for bit against the same convolution in NHWC (the generic loop in float32 does the same
//   operations in the same order: bias, the 9 taps row-major by fma, then the activation);
// - within float tolerance of the float64 path.
// Shapes cover wide rows (per-row loop) and narrow ones (flat sweep), both strides on each axis,
// padding 0/1/2 and SAME (asymmetric), strided inputs, batches, bias and every fused activation,
// on 1 and 2 threads. The last cases are shapes the fast path must leave to the generic loop.
import { afterAll, describe, expect, it } from 'vitest';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const threads0 = native.numThreads();
afterAll(() => { native.numThreads(threads0); });

interface DwCase {
  note: string; x: [number, number, number, number]; k?: number; stride?: number | [number, number];
  padding?: number | string; dilation?: number; act?: string; bias?: boolean; strided?: boolean; mult?: number;
}
const CASES: DwCase[] = [
  { note: 'MobileNet s1 wide, relu6', x: [1, 8, 40, 40], stride: 1, padding: 1, act: 'relu6', bias: true },
  { note: 'MobileNet s2 wide, relu6', x: [1, 8, 41, 66], stride: 2, padding: 1, act: 'relu6', bias: true },
  { note: 's1 narrow (flat sweep) 7x7', x: [1, 12, 7, 7], stride: 1, padding: 1, act: 'relu', bias: true },
  { note: 's2 narrow (flat sweep) 14x14 -> 7x7', x: [2, 10, 14, 14], stride: 2, padding: 1, act: 'hardswish', bias: true },
  { note: 'stride (1, 2), no padding, no bias', x: [1, 5, 17, 36], stride: [1, 2], padding: 0 },
  { note: 'stride (2, 1), padding 2', x: [1, 6, 19, 13], stride: [2, 1], padding: 2, bias: true },
  { note: 'SAME padding, stride 2, even size (asymmetric)', x: [1, 4, 16, 48], stride: 2, padding: 'SAME', act: 'relu6' },
  { note: 'strided input (transposed H/W), batch 3', x: [3, 7, 33, 21], stride: 1, padding: 1, bias: true, strided: true },
  { note: 'odd sizes, 1-wide output rows', x: [2, 3, 3, 5], stride: 2, padding: 0, bias: true, act: 'relu' },
  { note: 'padding 3 > kernel (all-zero border rows and columns)', x: [1, 3, 4, 5], stride: [2, 1], padding: 3, bias: true, act: 'relu' },
  { note: 'VALID padding, 3x3 input to 1x1 output', x: [2, 5, 3, 3], stride: 2, padding: 'VALID', bias: true },
  { note: 'many channels (thread split), tiny plane', x: [1, 150, 4, 4], stride: 1, padding: 1, bias: true, act: 'relu6' },
  { note: 'generic: dilation 2', x: [1, 4, 15, 15], stride: 1, padding: 2, dilation: 2, bias: true },
  { note: 'generic: 5x5', x: [1, 4, 12, 12], k: 5, stride: 2, padding: 2, act: 'relu6' },
  { note: 'generic: channel multiplier 2', x: [1, 3, 10, 10], stride: 1, padding: 1, mult: 2, bias: true },
];

function randn(shape: number[], seed: number): Tensor {
  paddle.seed(seed);
  return paddle.randn(shape) as Tensor;
}

function dwconv(c: DwCase, x: Tensor, w: Tensor, b: Tensor | null, nhwc = false): Tensor {
  const s = c.stride ?? 1;
  const attrs = {
    stride: Array.isArray(s) ? s : [s, s], padding: c.padding ?? 0, dilation: c.dilation ?? 1, groups: c.x[1],
    data_format: nhwc ? 'NHWC' : 'NCHW', activation: c.act ?? 'identity',
  };
  return runOp('fused_conv2d_add_act', [x, w, b], attrs)[0] as Tensor;
}

describe('float32 depthwise 3x3 path against the generic depthwise loop', () => {
  for (const T of [1, 2]) {
    for (const c of CASES) {
      it(`${c.note} (${T} thread${T > 1 ? 's' : ''})`, () => {
        native.numThreads(T);
        const k = c.k ?? 3, C = c.x[1], cout = C * (c.mult ?? 1);
        let x = randn(c.strided ? [c.x[0], c.x[1], c.x[3], c.x[2]] : c.x, 1);
        if (c.strided) x = x.transpose([0, 1, 3, 2]);
        // Large enough values that relu6 and hardswish clip on both sides.
        const w = (randn([cout, 1, k, k], 2) as Tensor).scale(2) as Tensor;
        const b = c.bias ? randn([cout], 3) : null;
        const y = dwconv(c, x, w, b);
        const y64 = dwconv(c, x.astype('float64'), w.astype('float64'), b ? b.astype('float64') : null);
        expect(y.shape).toEqual(y64.shape);
        const got = y.rawData() as Float32Array, want = y64.rawData() as Float64Array;
        expect(got.length).toBeGreaterThan(0);
        let worst = 0;
        for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]) / (1e-5 + 1e-5 * Math.abs(want[i])));
        expect(worst).toBeLessThanOrEqual(1);
        // The generic float32 loop (NHWC layout), transposed back: same bits.
        const yh = dwconv(c, x.transpose([0, 2, 3, 1]), w, b, true).transpose([0, 3, 1, 2]).contiguous() as Tensor;
        const bits = (t: Float32Array) => Array.from(new Uint32Array(t.slice().buffer));
        expect(bits(yh.rawData() as Float32Array)).toEqual(bits(got));
        // Repeated calls reuse thread scratch: the result must not depend on what was there before.
        expect(bits(dwconv(c, x, w, b).rawData() as Float32Array)).toEqual(bits(got));
      });
    }
  }
});
