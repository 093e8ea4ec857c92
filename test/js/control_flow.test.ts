// Control-flow capture in the JS frontend (frontend/js/control_flow.ts): tests reading a tensor's
// value (`.item()`, comparisons of it) in marked functions and in sublayers' forward become
// if/while nodes; each case runs captured and eager on inputs taking each side, with one
// translation; refusals fall back to eager with their code.
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { expectSame, lossAndGrads } from './helpers.js';

const paddle: any = P;   // eslint-disable-line @typescript-eslint/no-explicit-any
const F = paddle.nn.functional;
const mark = paddle.jit.marker.capture_control_flow;
const v = (xs: number[]): any => paddle.to_tensor(xs, { dtype: 'float32' });   // eslint-disable-line @typescript-eslint/no-explicit-any
const S = { paddle, F };

interface Case {
  name: string;
  fn: Function;
  /** Argument lists: the first translates, the others (other sides taken) must hit the cache. */
  inputs: (() => unknown[])[];
  /** Ops the graph must contain (control-flow nodes). */
  ops?: string[];
  /** Refusal / break code: every call runs eagerly. */
  code?: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const cases: Case[] = [
  { name: 'if/else on a comparison of .item()', ops: ['if'], inputs: [() => [v([1, 2])], () => [v([-1, -2])]],
    fn: mark(function (x: any) {
      let y;
      if (x.mean().item() > 0) y = x.scale(2); else y = paddle.exp(x);
      return y.add(x);
    }) },
  { name: 'if without else, assignment to an outer let', ops: ['if'], inputs: [() => [v([3, 1])], () => [v([-3, 1])]],
    fn: mark((x: any) => { let y = x; if (x.sum().item() >= 0) { y = y.multiply(y); } return y; }) },
  { name: 'else-if chain', ops: ['if'], inputs: [() => [v([5])], () => [v([0.5])], () => [v([-5])]],
    fn: mark((x: any) => {
      let y = x;
      if (x.item() > 1) y = x.scale(10);
      else if (x.item() > 0) y = x.scale(-1);
      else y = paddle.abs(x);
      return y;
    }) },
  { name: 'truthiness of .item(), negation, && and ||', ops: ['if'], inputs: [() => [v([0]), v([1])], () => [v([2]), v([0])], () => [v([NaN]), v([-1])]],
    fn: mark((x: any, z: any) => {
      let y = x.add(z);
      if (!x.item()) y = y.scale(3);
      if (x.item() && z.item() < 0) y = y.scale(5);
      if (x.item() > 1 || z.item() > 0) y = y.add(z);
      return y;
    }) },
  { name: 'comparison of two .item() values and with a boolean', ops: ['if'], inputs: [() => [v([1]), v([2])], () => [v([2]), v([1])]],
    fn: mark((x: any, z: any) => {
      let y = x;
      if (x.item() < z.item()) y = z.subtract(x);
      if (paddle.greater_than(x, z).item() === true) y = y.scale(7);
      return y;
    }) },
  { name: 'ternary', ops: ['if'], inputs: [() => [v([1, 2])], () => [v([-4, 2])]],
    fn: mark((x: any) => (x.min().item() > 0 ? paddle.log(x) : paddle.square(x)).sum()) },
  { name: 'nested if', ops: ['if'], inputs: [() => [v([2, 2])], () => [v([0.5, 0.5])], () => [v([-1, -1])]],
    fn: mark((x: any) => {
      let y = x;
      if (x.mean().item() > 0) {
        const t = x.scale(2);
        if (x.mean().item() > 1) y = t.add(x); else y = t.subtract(x);
      } else {
        y = x.neg();
      }
      return y;
    }) },
  { name: 'while loop on a tensor condition', ops: ['while'], inputs: [() => [v([1.5])], () => [v([100])], () => [v([0.1])]],
    fn: mark((x: any) => {
      let y = x;
      let n = paddle.zeros([1]);
      while (y.item() < 50) { y = y.scale(2); n = n.add(paddle.ones([1])); }
      return [y, n];
    }) },
  { name: 'for loop with a tensor test', ops: ['while'], inputs: [() => [v([3])], () => [v([-1])]],
    fn: mark((x: any) => {
      let s = paddle.zeros([1]);
      for (let k = x; k.item() > 0; k = k.subtract(paddle.ones([1]))) s = s.add(k);
      return s;
    }) },
  { name: 'do...while: the first pass is concrete, the rest one while node', ops: ['while'], inputs: [() => [v([1])], () => [v([1000])]],
    fn: mark((x: any) => { let y = x; do { y = y.scale(3); } while (y.item() < 100); return y; }) },
  { name: 'a helper called from a marked function branches too', ops: ['if'], inputs: [() => [v([2])], () => [v([-2])]],
    fn: mark((x: any) => { const h = (z: any) => { let r = z; if (z.item() > 0) r = z.sqrt(); return r; }; return h(x).add(x); }) },
  { name: 'an if inside a tensor while loop', ops: ['while'], inputs: [() => [v([1, -1])], () => [v([-3, 1])]],
    fn: mark((x: any) => {
      let y = x; let acc = paddle.zeros([2]);
      while (acc.sum().item() < 20) { if (y.sum().item() > 0) y = y.add(paddle.ones([2])); else y = y.neg(); acc = acc.add(paddle.abs(y)); }
      return [y, acc];
    }) },
  // (`.item()` in unmarked code splits the graph instead: test/js/split.test.ts.)
  { name: 'unmarked function: .item(i) still breaks', code: 'SOT002', inputs: [() => [v([1, 2])]],
    fn: (x: any) => (x.item(0) > 0 ? x : x.neg()) },
  { name: 'a tensor itself in a test is truthy (JS semantics), no if node', inputs: [() => [v([-1])]],
    fn: mark((x: any) => (paddle.greater_than(x, paddle.zeros([1])) ? x.scale(2) : x)) },
  // Refusals: the call runs eagerly (same result), the code names why.
  { name: 'refuse: variable bound on one side only (var)', code: 'SOT013', inputs: [() => [v([1])]],
    fn: mark((x: any) => { var t: any; if (x.item() > 0) { t = x.scale(2); } return t ?? x; }) },   // eslint-disable-line no-var
  { name: 'refuse: a number differs between the sides', code: 'SOT013', inputs: [() => [v([1])]],
    fn: mark((x: any) => { let k = 1; if (x.item() > 0) k = 2; return x.scale(k); }) },
  { name: 'refuse: differing shapes', code: 'SOT014', inputs: [() => [v([1, 2])]],
    fn: mark((x: any) => { let y = x; if (x.sum().item() > 0) y = x.sum(); return y; }) },
  { name: 'refuse: side effect on an outside object', code: 'SOT015', inputs: [() => [v([1]), { hits: 0 }]],
    fn: mark((x: any, st: any) => { if (x.item() > 0) st.hits = 1; return x; }) },
  { name: 'refuse: push to an array made before the branch', code: 'SOT015', inputs: [() => [v([1])]],
    fn: mark((x: any) => { const out = [x]; if (x.item() > 0) out.push(x.scale(2)); return out; }) },
  { name: 'refuse: console.log inside a branch', code: 'SOT015', inputs: [() => [v([-1])]],
    fn: mark((x: any) => { if (x.item() > 0) console.log('pos'); return x; }) },
  { name: 'refuse: return inside a branch', code: 'SOT016', inputs: [() => [v([1])]],
    fn: mark((x: any) => { if (x.item() > 0) return x.scale(2); return x; }) },
  { name: 'refuse: break inside a tensor-conditioned branch', code: 'SOT016', inputs: [() => [v([1])]],
    fn: mark((x: any) => { let y = x; for (const k of [1, 2]) { if (y.item() > 1) break; y = y.scale(k + 1); } return y; }) },
  { name: 'refuse: a number carried by a tensor loop', code: 'SOT013', inputs: [() => [v([1])]],
    fn: mark((x: any) => { let y = x; let i = 0; while (y.item() < 10) { y = y.scale(2); i++; } return y.scale(i); }) },
  { name: 'refuse: condition of more than one element', code: 'SOT016', inputs: [() => [v([1, 2])]],
    fn: mark((x: any) => { try { if (x.item() > 0) return x; } catch { /* eager raises */ } return x.neg(); }) },
];
/* eslint-enable @typescript-eslint/no-explicit-any */

// Op names of the cached graphs (control-flow nodes are 'if' / 'while').
const opsOf = (f: any): string[] => f.static_function.entries.flatMap((e: any) => (e.graph ? e.graph.nodes.map((n: any) => n.def.name) : []));   // eslint-disable-line @typescript-eslint/no-explicit-any

/** Small graphs run op by op (interpretNodes); MIN_GRAPH_SIZE=0 sends every graph to the executor (pd_op.if/while). */
function withMinGraphSize<R>(n: string | undefined, fn: () => R): R {
  const old = process.env.MIN_GRAPH_SIZE;
  if (n === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = n;
  try { return fn(); } finally { if (old === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = old; }
}
const MODES: [string, string | undefined][] = [['op by op', undefined], ['executor', '0']];

describe.each(MODES)('JS control-flow capture (%s): captured == eager, one translation for every side', (_mode, minSize) => {
  for (const c of cases) {
    test(c.name, () => {
      const f = withMinGraphSize(minSize, () => paddle.jit.to_static(c.fn, { scope: S }));
      for (const args of c.inputs) expectSame(f(...args()), c.fn(...args()), 1e-6);
      const ex = f.explain();
      if (c.code) {
        // A refusal is recorded; the test then runs concretely and its `.item()` splits the graph
        // (the root is retranslated, one child per outcome: split.test.ts), else the call is eager.
        expect(ex.breaks[0].code).toBe(c.code);
        const split = ex.entries.some((e: any) => e.exit === 'split');   // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(f.stats.eagerCalls).toBe(split ? 0 : c.inputs.length);
        if (!split) expect(f.translateCount).toBe(1);
      } else {
        expect(f.translateCount).toBe(1);
        expect(ex.breaks).toEqual([]);
        expect(ex.graphs).toBe(1);
        expect(f.stats.graphRuns).toBe(c.inputs.length);
        const ops = opsOf(f).join(' ');
        for (const o of c.ops ?? []) expect(ops).toContain(o);
        if (!c.ops) expect(ops).not.toMatch(/\b(if|while)\b/);
      }
    });
  }
});

// ---- layers: automatic capture in sublayers, marked layer classes, training -----------------

/* eslint-disable @typescript-eslint/no-explicit-any */
class Gate extends paddle.nn.Layer {
  fc = new paddle.nn.Linear(4, 4);
  forward(x: any) {
    const h = this.fc.call(x);
    let y = h;
    if (paddle.mean(x).item() > 0) y = F.relu(h).add(x); else y = h.scale(0.5);
    return y;
  }
}
class Outer extends paddle.nn.Layer {
  gate = new Gate();
  head = new paddle.nn.Linear(4, 2);
  forward(x: any) { return this.head.call(this.gate.call(x)); }
}
class OneSided extends paddle.nn.Layer {
  fc = new paddle.nn.Linear(4, 4);
  inner = mark((x: any, fc: any) => { let y = paddle.zeros([2, 4]); if (x.mean().item() > 0) y = fc.call(x); return y; });
  forward(x: any) { return this.inner(x, this.fc).add(this.fc.call(x).scale(0.5)); }
}
const Top = mark(class Top extends paddle.nn.Layer {
  fc = new paddle.nn.Linear(4, 4);
  forward(x: any) {
    let y = this.fc.call(x);
    while (paddle.abs(y).sum().item() < 40) y = this.fc.call(y).scale(1.5).add(x);
    return x.sum().item() > 0 ? y.square() : y.tanh();
  }
});
class Plain extends paddle.nn.Layer {
  fc = new paddle.nn.Linear(4, 4);
  forward(x: any) { return x.sum().item() > 0 ? this.fc.call(x) : this.fc.call(x).neg(); }
}

const pos = (): any => paddle.full([2, 4], 1.0);
const neg = (): any => paddle.full([2, 4], -0.5);


describe.each(MODES)('JS control-flow capture in layers (%s)', (_mode, minSize) => {
  const table: { name: string; make: () => any; ops: string[]; code?: string; translations?: number }[] = [
    { name: 'a sublayer forward branches automatically (if node)', make: () => new Outer(), ops: ['if'] },
    { name: 'a marked layer class: while and ternary', make: () => { paddle.seed(3); return new Top(); }, ops: ['while', 'if'] },
    { name: 'a value wanting gradients on one side only', make: () => new OneSided(), ops: ['if'] },
    // .item() splits the graph there: the root, then one child per branch direction.
    { name: 'the to_static layer itself is not automatic: .item() splits', make: () => new Plain(), ops: [], code: 'SOT002', translations: 3 },
  ];
  for (const c of table) {
    test(`${c.name}: outputs and gradients equal eager on both sides, one translation`, () => {
      const l = c.make();
      const s = withMinGraphSize(minSize, () => paddle.jit.to_static(l, { scope: S }));
      for (const x of [pos(), neg()]) {
        const [lossS, gS] = lossAndGrads(l, (y) => s.call(y), x);
        const [lossE, gE] = lossAndGrads(l, (y) => l.call(y), x);
        expectSame(lossS, lossE, 1e-5);
        expect(gS.length).toBe(gE.length);
        gS.forEach((g, i) => { expect(g === null).toBe(gE[i] === null); if (g) expectSame(g, gE[i], 1e-5); });
      }
      expect(s.translateCount).toBe(c.translations ?? 1);
      expect(s.stats.breaks.map((b: any) => b.code)).toEqual(c.code ? [c.code] : []);
      const ops = opsOf(s);
      for (const o of c.ops) expect(ops).toContain(o);
    });
  }
});
/* eslint-enable @typescript-eslint/no-explicit-any */
