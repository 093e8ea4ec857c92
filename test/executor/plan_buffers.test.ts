// Plan buffers that are not cleared. Kernels listed in native/src/program.cc
// (overwrites_outputs) get fresh plan buffers without the zero fill; a listed kernel that left
// any output element unwritten would leak stale bytes into results. With
// SKIFF_POISON_PLAN_BUFFERS=1 (read at programCreate) those buffers are filled with 0xFF bytes
// (NaN) instead, so every listed op is run here into poisoned buffers and compared with eager.
// Then a MobileNet-style block is run repeatedly with different inputs and batch sizes: the
// buffers a plan hands out again (recycled mappings, scratch) must give the same results as a
// fresh eager run every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAgainstEager, expectAllClose, randTensor, runNoEager } from './helpers.js';
import { compile, GraphBuilder, runGraphEager } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const threads0 = native.numThreads();
const poison0 = process.env.SKIFF_POISON_PLAN_BUFFERS;
beforeAll(() => { process.env.SKIFF_POISON_PLAN_BUFFERS = '1'; });
afterAll(() => {
  native.numThreads(threads0);
  if (poison0 === undefined) delete process.env.SKIFF_POISON_PLAN_BUFFERS;
  else process.env.SKIFF_POISON_PLAN_BUFFERS = poison0;
});

interface OpCase { op: string; x: number[]; params?: number[][]; attrs?: Record<string, unknown>; positive?: boolean }
// Shapes reach each kernel's main paths (conv2d: generic and implicit GEMM; depthwise: fast 3x3
// and generic; GEMM: small and blocked sizes).
const CASES: OpCase[] = [
  { op: 'conv2d', x: [1, 4, 9, 9], params: [[6, 4, 3, 3]], attrs: { padding: [1, 1] } },
  { op: 'conv2d', x: [2, 16, 12, 12], params: [[32, 16, 3, 3]], attrs: { padding: [1, 1] } },
  { op: 'conv2d', x: [1, 24, 10, 10], params: [[40, 24, 1, 1]] },
  { op: 'fused_conv2d_add_act', x: [1, 8, 21, 37], params: [[8, 1, 3, 3], [8]], attrs: { stride: [2, 2], padding: [1, 1], groups: 8, activation: 'relu6' } },
  { op: 'fused_conv2d_add_act', x: [1, 8, 7, 7], params: [[8, 1, 3, 3], [8]], attrs: { padding: [1, 1], groups: 8, activation: 'relu' } },
  { op: 'fused_conv2d_add_act', x: [1, 4, 11, 11], params: [[8, 1, 5, 5], [8]], attrs: { padding: [2, 2], groups: 4, activation: 'hardswish' } },
  { op: 'fused_conv2d_add_act', x: [1, 16, 14, 14], params: [[48, 16, 1, 1], [48]], attrs: { activation: 'relu6' } },
  // 1x1 on 14x14 at batch 3 (588 pixel rows): the transposed GEMM (nn_conv_1x1.cc); with a residual.
  { op: 'fused_conv2d_add_act', x: [3, 64, 14, 14], params: [[128, 64, 1, 1], [128], [3, 128, 14, 14]], attrs: { activation: 'relu' } },
  { op: 'matmul', x: [5, 7], params: [[7, 3]] },
  { op: 'matmul', x: [2, 70, 90], params: [[90, 65]] },
  { op: 'bmm', x: [3, 9, 5], params: [[3, 5, 4]] },
  { op: 'fused_gemm_epilogue', x: [6, 33], params: [[33, 17], [17]], attrs: { activation: 'relu' } },
  ...['add', 'subtract', 'multiply', 'maximum', 'minimum'].map((op) => ({ op, x: [3, 1, 5], params: [[4, 1]] })),
  { op: 'divide', x: [3, 4, 5], params: [[5]], positive: true },
  ...['relu', 'relu6', 'hardswish', 'sigmoid', 'tanh', 'gelu', 'silu', 'exp'].map((op) => ({ op, x: [2, 3, 37] })),
  ...['sqrt', 'rsqrt'].map((op) => ({ op, x: [5, 19], positive: true })),
  { op: 'avg_pool2d', x: [2, 3, 9, 10], attrs: { kernel_size: [3, 3], stride: [2, 2], padding: [1, 1] } },
  { op: 'max_pool2d', x: [2, 3, 9, 10], attrs: { kernel_size: [3, 3], stride: [2, 2], padding: [1, 1] } },
  { op: 'adaptive_avg_pool2d', x: [2, 5, 7, 6], attrs: { output_size: [3, 2] } },
  { op: 'softmax', x: [4, 3, 11], attrs: { axis: -1 } },
];

function positive(t: Tensor): Tensor { return t.abs().add(0.5) as Tensor; }

describe('listed kernels write every element of a poisoned (uncleared) plan buffer', () => {
  for (const T of [1, 2]) {
    CASES.forEach((c, i) => {
      it(`${c.op} ${JSON.stringify(c.x)} #${i} (${T} thread${T > 1 ? 's' : ''})`, () => {
        native.numThreads(T);
        const b = new GraphBuilder();
        const x = b.input('float32', c.x);
        const ps = (c.params ?? []).map((s) => b.param('float32', s));
        const y = b.op1(c.op, [x, ...ps], c.attrs ?? {});
        // y is both an intermediate (a pooled buffer's first user) and, doubled, an output.
        b.output(y, b.op1('add', [y, y]));
        let xin = randTensor(c.x, 10 + i);
        let params = (c.params ?? []).map((s, j) => randTensor(s, 20 + i + j));
        if (c.positive) { xin = positive(xin); params = params.map(positive); }
        const outs = checkAgainstEager(b.build(), [xin], params);
        for (const o of outs) expect(o.dataSync().map(Number).some(Number.isNaN), `${c.op}: NaN from a poisoned buffer`).toBe(false);
      });
    });
  }
});

describe('reused plan buffers: repeated runs with different inputs', () => {
  it('a MobileNetV2 block gives eager results on every run (batches 1 and 3, alternating)', () => {
    native.numThreads(2);
    const b = new GraphBuilder();
    const x = b.input('float32', [sym('s0'), 8, 15, 15]);
    const [we, be, wd, bd, wp, bp, wf, bf] = [[48, 8, 1, 1], [48], [48, 1, 3, 3], [48], [8, 48, 1, 1], [8], [8, 10], [10]].map((s) => b.param('float32', s));
    const e = b.op1('fused_conv2d_add_act', [x, we, be], { activation: 'relu6' });
    const d = b.op1('fused_conv2d_add_act', [e, wd, bd], { padding: [1, 1], groups: 48, activation: 'relu6' });
    const p = b.op1('conv2d', [d, wp, bp]);
    const r = b.op1('add', [p, x]);
    // A stride-2 depthwise branch (the downsampling blocks) as a second output.
    const s2 = b.op1('fused_conv2d_add_act', [e, wd, bd], { stride: [2, 2], padding: [1, 1], groups: 48, activation: 'relu6' });
    const pooled = b.op1('adaptive_avg_pool2d', [r], { output_size: [1, 1] });
    const flatV = b.op1('reshape', [pooled], { shape: [-1, 8] });
    b.output(b.op1('fused_gemm_epilogue', [flatV, wf, bf], {}), r, s2);
    const g = b.build();
    const params = [[48, 8, 1, 1], [48], [48, 1, 3, 3], [48], [8, 48, 1, 1], [8], [8, 10], [10]].map((sh, j) => randTensor(sh, 40 + j));
    const exe = compile(g, { params, constantParams: true });
    const inputs = [randTensor([1, 8, 15, 15], 1), randTensor([3, 8, 15, 15], 2), randTensor([1, 8, 15, 15], 3), randTensor([3, 8, 15, 15], 4)];
    const firstOuts: number[][] = [];
    for (let round = 0; round < 2; round++) {
      inputs.forEach((xin, k) => {
        const outs = runNoEager(exe, [xin]);
        const ref = runGraphEager(g, [xin], params).outputs;
        outs.forEach((o, i) => expectAllClose(o, ref[i], `round ${round} input ${k} output ${i}`));
        // Same input, later run: bit-identical.
        if (round === 0) firstOuts.push(outs[0].dataSync().map(Number));
        else expect(outs[0].dataSync().map(Number), `input ${k} again`).toEqual(firstOuts[k]);
        for (const t of [...outs, ...ref]) t.dispose();
      });
    }
    exe.dispose();
  });
});
