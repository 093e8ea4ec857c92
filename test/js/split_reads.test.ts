// Pure reads of a tensor's value that split the graph besides .item()/.tolist() (`.dataSync()`,
// `.toString()`, and JS's own conversions: String(t), template literals, converting operators,
// Number(t)/Math.*), step results guarded by what the translation reads (not by exact value),
// and the root-leaf fast path of cached calls (frontend/js/fast_leaf.ts). Every case runs the
// captured function and the original on the same inputs (results equal, strings exactly) and
// checks the translate count after every call; op by op and through the executor.
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { expectSame, type SplitCase } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const paddle: any = P;
const F = paddle.nn.functional;
const A = (): any[] => [paddle.to_tensor([0.5, 1.5, -0.25])];
const B = (): any[] => [paddle.to_tensor([-1.0, -2.0, 0.5])];
/** A new value on every call of the same shape (a loss that changes each step). */
let tick = 0;
const V = (): any[] => { tick++; return [paddle.to_tensor([0.25 * tick, -0.5, 1 / tick])]; };
const same = <T>(f: () => T): (() => T) => { let v: T | undefined; return () => (v ??= f()); };

interface Case extends SplitCase {
  /** full_graph: the error names this. */
  strict: RegExp;
}

const V10 = Array(10).fill(V);
const cases: Case[] = [
  // ---- new split kinds ----
  { name: '.dataSync(): its length and an item read (guarded by value)', calls: [A, A, B], translations: [2, 2, 3], graphs: 3, breaks: ['SOT002'], strict: /SOT002.*\.dataSync\(\)/,
    fn: (x: any) => { const d = x.exp().dataSync(); return x.scale(d.length).add(d[0]); } },
  { name: '.dataSync() array changed and returned (a fresh array per call, as eager)', calls: [A, B, V], translations: [2, 2, 2], graphs: 2, breaks: ['SOT002'], strict: /SOT002.*\.dataSync\(\)/,
    fn: (x: any) => { const d = x.exp().dataSync(); d[0] = 7; d.push(d.length); return [x.neg(), d]; } },
  { name: '.toString() passed through (no value guard)', calls: [A, A, B], translations: [2, 2, 2], graphs: 1, breaks: ['SOT002'], strict: /SOT002.*\.toString\(\)/,
    fn: (x: any) => { const h = x.tanh(); return [h.exp(), h.toString()]; } },
  { name: 'String(t) passed through', calls: [A, B, V], translations: [2, 2, 2], graphs: 2, breaks: ['SOT002'], strict: /SOT001.*String\(\)/,
    fn: (x: any) => { const s = String(x.sum()); return { y: x.scale(2), s }; } },
  { name: 'a template literal (its string is read: guarded)', calls: [A, A, B], translations: [2, 2, 3], graphs: 3, breaks: ['SOT002'], strict: /SOT001.*template literal/,
    fn: (x: any) => { const s = `sum ${x.sum()}!`; return [x.exp(), s, s.length]; } },
  { name: "'a' + t and t + 1 (string concatenations: not read, not guarded)", calls: [A, A, B], translations: [3, 3, 3], graphs: 2, breaks: Array(2).fill('SOT002'), strict: /SOT001.*operator \+/,
    fn: (x: any) => { const m = x.max(); return ['max ' + m, m + 1, x.neg()]; } },
  { name: 'a comparison, +t, Number(t) and Math.abs(t) (NaN, as eager)', calls: [A, A, B], translations: [5, 5, 9], graphs: 3, breaks: Array(7).fill('SOT002'), strict: /SOT001.*operator >/,
    fn: (x: any) => { const s = x.sum(); const c = s > 0; const n = [+s, Number(s), Math.abs(s)]; return [c ? x.scale(2) : x.scale(3), n.map((v) => Number.isNaN(v))]; } },
  { name: 'loose equality with a primitive converts; with null or an object it does not', calls: [A, A, B], translations: [3, 3, 5], graphs: 3, breaks: Array(3).fill('SOT002'), strict: /SOT001.*operator ==/,
    fn: (x: any) => { const s = x.sum(); return [s == 'a', s != 0, s == null, s != undefined, s == x, x.exp()]; } },   // eslint-disable-line eqeqeq
  // ---- step results guarded by what is read ----
  { name: '{ y, loss: t.item() }: a new value per call does not translate again', calls: V10, translations: Array(10).fill(2), graphs: 1, breaks: ['SOT002'], strict: /SOT002.*\.item\(\)/,
    fn: (x: any) => { const y = x.exp(); return { y, loss: y.mean().item() }; } },
  { name: 'a logged loss in a template literal, a concatenation and typeof (no value guard)', calls: V10, translations: Array(10).fill(2), graphs: 1, breaks: ['SOT002'], strict: /SOT002.*\.item\(\)/,
    fn: (x: any) => { const y = x.exp(); const l = y.mean().item(); let msg = `loss ${l} at`; msg += ' ' + y.ndim + ':' + l; return [y, msg, 'l=' + l + '!', typeof l, l ?? 0]; } },
  { name: 'loss.toFixed(3).padStart(8) in a log line (no value guard)', calls: V10, translations: Array(10).fill(2), graphs: 1, breaks: ['SOT002'], strict: /SOT002.*\.item\(\)/,
    fn: (x: any) => { const y = x.exp(); const l = y.mean().item(); return [y, `loss ${l.toFixed(3).padStart(8)} ${String(l.toPrecision(2))}`]; } },
  { name: 'a concatenation that is then read is guarded', calls: [A, A, B], translations: [2, 2, 3], graphs: 1, breaks: ['SOT002'], strict: /SOT002.*\.item\(\)/,
    fn: (x: any) => { const y = x.exp(); const m = `v${y.mean().item()}`; return [y, m.length, m]; } },
  { name: 'a branch on t.item() > 0: one child per value read, still correct', calls: [A, A, B, B], translations: [2, 2, 3, 3], graphs: 3, breaks: ['SOT002'], strict: /SOT002/,
    fn: (x: any) => { if (x.sum().item() > 0) return x.exp(); return x.neg(); } },
  { name: 'a value folded into the graph is guarded', calls: [A, A, B], translations: [2, 2, 3], graphs: 3, breaks: ['SOT002'], strict: /SOT002/,
    fn: (x: any) => { const n = x.abs().max().item(); return [x.scale(1 / n), n]; } },
  { name: '.tolist() items passed through: guarded by length only', calls: [A, B, V, V], translations: [2, 2, 2, 2], graphs: 2, breaks: ['SOT002'], strict: /SOT002/,
    fn: (x: any) => { const h = x.square(); const l = h.tolist(); return [h.sum(), l, [l[0], l.length]]; } },
  { name: 'two values; the first read only after the second split', calls: [A, A, B, V], translations: [3, 3, 4, 5], graphs: 5, breaks: ['SOT002', 'SOT002'], strict: /SOT002/,
    fn: (x: any) => { const a = x.sum().item(); const b = x.max().item(); return x.scale(b > 0 ? a : 1); } },
];

function withMinGraphSize<R>(n: string | undefined, fn: () => R): R {
  const old = process.env.MIN_GRAPH_SIZE;
  if (n === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = n;
  try { return fn(); } finally { if (old === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = old; }
}
const MODES: [string, string | undefined][] = [['op by op', undefined], ['executor', '0']];
const S = { paddle, F };

describe.each(MODES)('pure value reads split the graph (%s)', (_mode, minSize) => {
  for (const c of cases) {
    test(c.name, () => {
      const f = withMinGraphSize(minSize, () => paddle.jit.to_static(c.fn, { scope: S }));
      c.calls.forEach((args, i) => {
        const a = same(args);
        expectSame(f(...a()), c.fn(...a()), 1e-6);
        expect(f.translateCount).toBe(c.translations[i]);
      });
      const ex = f.explain();
      expect(ex.graphs).toBe(c.graphs);
      expect(ex.breaks.map((b: any) => b.code)).toEqual(c.breaks);
      expect(f.stats.eagerCalls).toBe(0);
    });
  }

  test('passed-through values reach prints, property writes and outside arrays without a value guard', () => {
    const fn = (x: any, log: number[], o: any) => {
      const h = x.exp();
      const loss = h.mean().item();
      console.log('loss', loss, String(h.max()), `loss=${loss}`);
      log.push(loss);
      o.last = loss;
      o.text = String(h.sum());
      return h.scale(2);
    };
    const f = withMinGraphSize(minSize, () => paddle.jit.to_static(fn, { scope: S }));
    const saved = console.log;
    try {
      for (let i = 0; i < 6; i++) {
        const a = same(V);
        const outC: unknown[] = [], outE: unknown[] = [];
        const logC: number[] = [], logE: number[] = [];
        const oC: any = {}, oE: any = {};
        console.log = (...m: unknown[]) => { outC.push(m); };
        const got = f(a()[0], logC, oC);
        console.log = (...m: unknown[]) => { outE.push(m); };
        const want = fn(a()[0], logE, oE);
        console.log = saved;
        expectSame(got, want, 1e-6);
        expect(outC).toEqual(outE);
        expect(logC).toEqual(logE);
        expect(oC).toEqual(oE);
      }
    } finally {
      console.log = saved;
    }
    // The root, the .item() child and the two String() children: none of them reads a value.
    expect(f.explain().breaks.map((b: any) => b.code)).toEqual(['SOT002', 'SOT002', 'SOT002']);
    expect(f.translateCount).toBe(4);
    expect(f.stats.eagerCalls).toBe(0);
  });

  test('x.toString() is the tensor\'s own text (not the graph value\'s)', () => {
    const fn = (x: any) => x.toString();
    const f = withMinGraphSize(minSize, () => paddle.jit.to_static(fn, { scope: S }));
    for (const a of [A, A, B]) expect(f(...a())).toBe(fn(a()[0]));
    expect(f.translateCount).toBe(2);
  });
});

describe('full_graph: every new split kind is still an error naming the break', () => {
  for (const c of cases) {
    test(c.name, () => {
      const f = paddle.jit.to_static(c.fn, { scope: S, full_graph: true });
      expect(() => f(...A())).toThrow(c.strict);
    });
  }
});

describe('cached calls of a root leaf (fast path) keep the walk\'s semantics', () => {
  test('two roots by shape, guards on a free value, side effects and prints on every hit', () => {
    const cfg = { k: 2 };
    const fn = (x: any, o: any) => { o.n = x.shape[0]; o.y = x.sum(); console.info('shape', x.shape); return x.scale(cfg.k).add(1); };
    const f = paddle.jit.to_static(fn, { scope: { ...S, cfg } });
    const saved = console.info;
    const printed: unknown[] = [];
    console.info = (...m: unknown[]) => { printed.push(m); };
    try {
      const oC: any = {}, oE: any = {};
      const runs: [() => any, number][] = [[() => paddle.ones([2]), 1], [() => paddle.ones([3]), 2], [() => paddle.ones([2]), 2], [() => paddle.ones([3]), 2]];
      for (const [x, n] of runs) {
        expectSame(f(x(), oC), fn(x(), oE), 1e-6);
        expect(f.translateCount).toBe(n);
      }
      expect(oC.n).toBe(3);
      expectSame(oC.y, oE.y);
      cfg.k = 5;   // a guarded free value changed: a new root, the old ones still hold for nothing
      expectSame(f(paddle.ones([2]), oC), fn(paddle.ones([2]), oE), 1e-6);
      expect(f.translateCount).toBe(3);
      expect(f.stats.hits).toBe(2);
      expect(f.stats.graphRuns).toBe(5);
      expect(printed).toEqual([['shape', [2]], ['shape', [2]], ['shape', [3]], ['shape', [3]], ['shape', [2]], ['shape', [2]], ['shape', [3]], ['shape', [3]], ['shape', [2]], ['shape', [2]]]);
    } finally {
      console.info = saved;
    }
  });

  test('an error in the finish propagates (it has effects behind it); the next call hits', () => {
    const fn = (x: any, o: any) => { o.k = 1; return x.exp(); };
    const f = paddle.jit.to_static(fn, { scope: S });
    f(paddle.ones([2]), {});
    const frozen = Object.freeze({});
    expect(() => f(paddle.ones([2]), frozen)).toThrow(TypeError);
    expect(() => fn(paddle.ones([2]), frozen)).toThrow(TypeError);
    expectSame(f(paddle.ones([2]), {}), fn(paddle.ones([2]), {}));
    expect(f.translateCount).toBe(1);
    expect(f.stats.eagerCalls).toBe(0);
  });
});
describe('unknown functions make the call eager (they do not split), with a break naming them', () => {
  class Counter { n = 0; inc(v: number): number { this.n++; return v + 1; } }
  const counter = new Counter();
  const bump = counter.inc.bind(counter);
  const cases: { name: string; fn: Function; callee: RegExp; line: number }[] = [
    { name: 'a native function', callee: /call of Date\.now: now is native or bound code/, line: 3,
      fn: (x: any) => {
        const y = x.exp();
        return y.scale(Date.now() > 0 ? 2 : 3);
      } },
    { name: 'a bound function (with an effect: called once per call, as eager)', callee: /call of bound inc/, line: 2,
      fn: (x: any) => {
        const k = bump(1);
        return x.scale(k);
      } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const f = paddle.jit.to_static(c.fn, { scope: { ...S, bump } });
      const before = counter.n;
      for (const a of [A, A, B]) expectSame(f(...a()), c.fn(...a()), 1e-6);
      if (c.fn === cases[1].fn) expect(counter.n - before).toBe(6);   // 3 captured + 3 eager calls, once each
      const ex = f.explain();
      expect(ex.graphs).toBe(0);
      expect(ex.entries.map((e: any) => e.exit)).toEqual(['eager']);
      expect(f.stats.eagerCalls).toBe(3);
      expect(f.translateCount).toBe(1);
      const ev = ex.breaks[0];
      expect(ev.code).toBe('SOT005');
      expect(ev.line).toBe(c.line);
      expect(ev.detail).toMatch(c.callee);
      expect(ev.detail).toMatch(/does not split the graph.*runs eagerly\. Move the call out of the translated function/);
      const strict = paddle.jit.to_static(c.fn, { scope: { ...S, bump }, full_graph: true });
      expect(() => strict(...A())).toThrow(new RegExp(`SOT005.*:${c.line} .*${c.callee.source}.*Move the call out`, 's'));
    });
  }
});
/* eslint-enable @typescript-eslint/no-explicit-any */
