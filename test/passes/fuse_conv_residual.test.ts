// The residual form of the conv + activation fusion (src/passes/fuse_conv_act.ts): act(conv2d +
// identity) becomes one fused_conv2d_add_act with residual_data. Table-driven: each program is run
// unfused and fused through the executor and must agree bit for bit (the kernel adds bias, then
// the residual, then activates, in the unfused ops' order); the cases where the rule must not fire
// (the conv or the add read elsewhere, a broadcast identity, the conv output as its own identity,
// another activation) keep their add. Each conv path ends in the residual pass: 1x1 in place, 3x3
// shifted or Winograd, stride-2 im2col, threaded channel parts at batch 1, small GEMMs, depthwise,
// NHWC and float64.
import { describe, expect, it } from 'vitest';
import { compile, fromPir } from '../../src/executor/index.js';
import { runOp } from '../../src/ops/dispatch.js';
import { Builder, Program, tensorType, type Value } from '../../src/pir/index.js';
import { fuseConvActPass, PassManager } from '../../src/passes/index.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { flat, randTensor } from '../executor/helpers.js';

type Dt = 'float32' | 'float64';
interface Case {
  note: string;
  x: number[];
  w: number[];
  attrs?: Record<string, unknown>;
  bias?: boolean;
  /** 'x': the block input; 'conv': a second conv of x (downsample); 'broadcast': [1, C, 1, 1]; 'self': the conv output. */
  identity: 'x' | 'conv' | 'broadcast' | 'self';
  commuted?: boolean;
  act?: string;
  /** Extra uses that must stop the fusion. */
  fetchConv?: boolean;
  fetchAdd?: boolean;
  dtype?: Dt;
  /** Fused ops with a residual operand expected after the pass. */
  fused: number;
}

// Sizes: Cout * pixels * Cin >= 32^3 takes the float32 implicit GEMM (residual in its epilogue).
const CASES: Case[] = [
  { note: '1x1 bottleneck end (in place GEMM), relu', x: [2, 32, 10, 10], w: [32, 32, 1, 1], identity: 'x', fused: 1 },
  { note: '1x1, batch 1, threaded channel parts', x: [1, 64, 16, 16], w: [64, 64, 1, 1], identity: 'x', fused: 1 },
  { note: 'identity on the left of the add', x: [1, 32, 10, 10], w: [32, 32, 1, 1], identity: 'x', commuted: true, fused: 1 },
  { note: 'no bias', x: [1, 32, 10, 10], w: [32, 32, 1, 1], identity: 'x', bias: false, fused: 1 },
  { note: '3x3 stride 1 (shifted windows)', x: [1, 8, 12, 12], w: [8, 8, 3, 3], attrs: { padding: 1 }, identity: 'x', fused: 1 },
  { note: '3x3 stride 1, 32 channels (Winograd when it applies)', x: [1, 32, 16, 16], w: [32, 32, 3, 3], attrs: { padding: 1 }, identity: 'x', fused: 1 },
  { note: 'downsample: the identity is a stride-2 1x1 conv of x (im2col)', x: [2, 32, 14, 14], w: [64, 32, 1, 1], attrs: { stride: 2 }, identity: 'conv', fused: 1 },
  { note: 'relu6', x: [1, 32, 10, 10], w: [32, 32, 1, 1], identity: 'x', act: 'relu6', fused: 1 },
  { note: 'small 1x1 (generic GEMM path, residual after the conv)', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'x', fused: 1 },
  { note: 'depthwise 3x3 (residual after the conv)', x: [1, 8, 10, 10], w: [8, 1, 3, 3], attrs: { padding: 1, groups: 8 }, identity: 'x', fused: 1 },
  { note: 'NHWC (residual after the conv)', x: [1, 7, 7, 6], w: [6, 6, 3, 3], attrs: { padding: 1, data_format: 'NHWC' }, identity: 'x', fused: 1 },
  { note: 'float64 (generic path)', x: [1, 8, 9, 9], w: [8, 8, 1, 1], identity: 'x', dtype: 'float64', fused: 1 },
  { note: 'not fused: the conv output is also fetched', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'x', fetchConv: true, fused: 0 },
  { note: 'not fused: the add result is also fetched', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'x', fetchAdd: true, fused: 0 },
  { note: 'not fused: the identity broadcasts ([1, C, 1, 1])', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'broadcast', fused: 0 },
  { note: 'not fused: the conv output is its own identity', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'self', fused: 0 },
  { note: 'not fused: sigmoid', x: [1, 8, 6, 6], w: [8, 8, 1, 1], identity: 'x', act: 'sigmoid', fused: 0 },
];

/** The program of one case (symbolic batch), its params by name, and the feed. */
function build(c: Case): { p: Program; params: Record<string, Tensor>; feed: Tensor } {
  const dt = c.dtype ?? 'float32';
  const p = new Program();
  const b = new Builder(p);
  const x = b.data('x', [sym('s0'), ...c.x.slice(1)], dt);
  const cout = c.w[0], nhwc = c.attrs?.data_format === 'NHWC';
  const params: Record<string, Tensor> = { w: randTensor(c.w, 2, dt) };
  const w = b.parameter('w', tensorType(dt, c.w));
  let bias: Value | null = null;
  if (c.bias !== false) { bias = b.parameter('b', tensorType(dt, [cout])); params.b = randTensor([cout], 3, dt); }
  const [y] = b.pd('conv2d', [x, w, bias], c.attrs ?? {});
  let r: Value = x;
  if (c.identity === 'conv') {
    const wd = [cout, c.x[1], 1, 1];
    params.wd = randTensor(wd, 4, dt);
    [r] = b.pd('conv2d', [x, b.parameter('wd', tensorType(dt, wd)), null], c.attrs ?? {});
  } else if (c.identity === 'broadcast') {
    const g = nhwc ? [1, 1, 1, cout] : [1, cout, 1, 1];
    params.g = randTensor(g, 5, dt);
    r = b.parameter('g', tensorType(dt, g));
  } else if (c.identity === 'self') r = y;
  const [s] = b.pd('add', c.commuted ? [r, y] : [y, r]);
  const [o] = b.pd(c.act ?? 'relu', [s]);
  b.fetch(o, 'out');
  if (c.fetchConv) b.fetch(y, 'conv');
  if (c.fetchAdd) b.fetch(s, 'sum');
  return { p, params, feed: randTensor(c.x, 1, dt) };
}

function run(p: Program, params: Record<string, Tensor>, feed: Tensor): Tensor[] {
  const g = fromPir(p);
  const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants], constantParams: true });
  const out = exe.run([feed]);
  exe.dispose();
  for (const t of g.constants) t.dispose();
  return out;
}

const residualOps = (p: Program): number => p.allOps().filter((o) => o.name === 'pd_op.fused_conv2d_add_act' && o.operand(3) !== null).length;
const count = (p: Program, name: string): number => p.allOps().filter((o) => o.name === `pd_op.${name}`).length;

describe('conv + residual add + activation fusion', () => {
  for (const c of CASES) {
    it(c.note, () => {
      const { p, params, feed } = build(c);
      const fused = p.clone();
      new PassManager([fuseConvActPass()], { verify: true }).run(fused);
      expect(residualOps(fused)).toBe(c.fused);
      expect(count(fused, 'add')).toBe(c.fused ? 0 : 1);
      const want = run(p, params, feed), got = run(fused, params, feed);
      expect(got.length).toBe(want.length);
      got.forEach((g, i) => {
        const a = flat(g), e = flat(want[i]);
        let bad = -1;
        for (let k = 0; k < e.length && bad < 0; k++) if (!Object.is(a[k], e[k])) bad = k;
        expect(bad, `fetch ${i} element ${bad}: fused ${a[bad]} vs ${e[bad]}`).toBe(-1);
      });
      // Not vacuous: the activation's kink is reached.
      if (c.fused) expect(flat(want[0]).some((v) => v === 0) && flat(want[0]).some((v) => v > 0)).toBe(true);
      for (const t of [...want, ...got, feed, ...Object.values(params)]) t.dispose();
    });
  }
});

describe('fused_conv2d_add_act residual_data', () => {
  const x = randTensor([1, 4, 5, 5], 1), w = randTensor([6, 4, 1, 1], 2), b = randTensor([6], 3);
  it.each([
    ['a shape that differs from the output', [1, 6, 5, 4], 'float32', /fused_conv2d_add_act: residual_data must match the output float32\[1, 6, 5, 5\], got float32\[1, 6, 5, 4\]/],
    ['a broadcast shape', [1, 6, 1, 1], 'float32', /residual_data must match the output/],
    ['another dtype', [1, 6, 5, 5], 'float64', /residual_data must match the output float32\[1, 6, 5, 5\], got float64/],
  ] as const)('rejects %s', (_n, shape, dt, err) => {
    const r = randTensor([...shape], 4, dt as Dt);
    expect(() => runOp('fused_conv2d_add_act', [x, w, b, r], { activation: 'relu' })).toThrow(err);
    r.dispose();
  });
  it('eager call equals conv2d + add + relu', () => {
    const r = randTensor([1, 6, 5, 5], 4);
    const [f] = runOp('fused_conv2d_add_act', [x, w, null, r], { activation: 'relu' }) as Tensor[];
    const [cv] = runOp('conv2d', [x, w, null], {}) as Tensor[];
    const [s] = runOp('add', [cv, r], {}) as Tensor[];
    const [o] = runOp('relu', [s], {}) as Tensor[];
    expect(flat(f)).toEqual(flat(o));
    for (const t of [r, f, cv, s, o]) t.dispose();
  });
});
