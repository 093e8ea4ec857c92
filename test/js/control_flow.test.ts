// Control-flow capture in the JS frontend (frontend/js/control_flow.ts): tests reading a tensor's
// value (`.item()`, comparisons of it) in marked functions and in sublayers' forward become
// if/while nodes; each case runs captured and eager on inputs taking each side, with one
// translation; refusals fall back to eager with their code.
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { expectSame } from './helpers.js';

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
  { name: 'unmarked function: .item() still breaks', code: 'SOT002', inputs: [() => [v([1])]],
    fn: (x: any) => (x.item() > 0 ? x : x.neg()) },
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

const opsOf = (f: any): string[] => f.explain().entries.flatMap((e: any) => e.ops ?? []).map((o: any) => (typeof o === 'string' ? o : o.name ?? o.op ?? String(o)));   // eslint-disable-line @typescript-eslint/no-explicit-any

describe('JS control-flow capture: captured == eager, one translation for every side', () => {
  for (const c of cases) {
    test(c.name, () => {
      const f = paddle.jit.to_static(c.fn, { scope: S });
      for (const args of c.inputs) expectSame(f(...args()), c.fn(...args()), 1e-6);
      expect(f.translateCount).toBe(1);
      const ex = f.explain();
      if (c.code) {
        expect(ex.graphs).toBe(0);
        expect(ex.breaks.map((b: any) => b.code)).toEqual([c.code]);   // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(f.stats.eagerCalls).toBe(c.inputs.length);
      } else {
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
