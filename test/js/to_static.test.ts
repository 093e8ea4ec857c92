// paddle.jit.to_static on TS/JS functions: each case runs the captured function and the
// original on the same inputs (results equal), and checks translate counts, graphs and break codes.
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { expectSame } from './helpers.js';

// A module-level binding: vitest leaves it a plain free variable (imports become __vite_ssr_import_N__).
const paddle: any = P;   // eslint-disable-line @typescript-eslint/no-explicit-any
const F = paddle.nn.functional;
const t = (shape: number[], seed = 1): any => { paddle.seed(seed); return paddle.randn(shape); };   // eslint-disable-line @typescript-eslint/no-explicit-any

let kFree = 2;
function kScaled(x: any): any { return paddle.scale(x, kFree); }   // eslint-disable-line @typescript-eslint/no-explicit-any
function helperScale(x: any, k: number): any { return x.scale(k).add(x); }   // eslint-disable-line @typescript-eslint/no-explicit-any

interface Case {
  name: string;
  fn: Function;
  args: () => unknown[];
  /** Free variables (what the build plugin would give). */
  scope?: Record<string, unknown>;
  /** Expected break code (the whole function falls back to eager), or none: one graph. */
  code?: string;
}

const S = { paddle, F };
const cases: Case[] = [
  { name: 'paddle ops and tensor methods', scope: S, args: () => [t([3, 4]), t([3, 4], 2)],
    fn: (x: any, y: any) => F.relu(paddle.add(paddle.multiply(x, 2), y)).matmul(x.transpose([1, 0])).sum(1) },
  { name: 'let/const/var, destructuring, spread, default params', scope: S, args: () => [t([2, 3]), { shift: 0.5 }],
    fn: function (x: any, { scale = 2, shift }: { scale?: number; shift: number } = { shift: 0 }, ...rest: unknown[]) {
      var n = rest.length;   // eslint-disable-line no-var
      const [a, b] = [x, x.neg()];
      let arr = [...[a], b];
      const { 0: first, length } = arr;
      return paddle.add(first.scale(scale + n + length), arr[1].scale(shift));
    } },
  { name: 'template literals, ternary, ??, ||, &&, optional chaining, Math', scope: S, args: () => [t([2, 2]), 2],
    fn: function (x: any, n: number) {
      const key = `k${n}`;
      const m: Record<string, any> = { k2: 3, nested: { deep: null } };
      const s = m[key] ?? 1;
      const u = m.missing?.foo.bar;
      const d = m.nested?.deep ?? 4;
      const flag = (n > 1 && 'yes') || 'no';
      return x.scale(Math.max(s, 2) + (u === undefined ? 1 : 0) + d + (flag === 'yes' ? Math.sqrt(16) : 0) + Math.floor(7 / 2));
    } },
  { name: 'for, for...of, while, do/while, switch, break/continue, labels', scope: S, args: () => [t([2, 3]), 3],
    fn: function (x: any, n: number) {
      let y = x;
      for (let i = 0; i < n; i++) { if (i === 1) continue; y = y.add(x); }
      for (const k of [1, 2, 3]) { if (k === 3) break; y = y.scale(k); }
      let j = 0;
      while (j < 2) { y = y.subtract(x); j++; }
      do { j--; } while (j > 0);
      outer: for (const a of [1, 2]) { for (const b of [1, 2]) { if (b === 2) continue outer; y = y.add(x.scale(a * b)); } }
      switch (n) {
        case 1: y = y.scale(10); break;
        case 3:   // an empty case falls through to the next one
        case 4: y = y.scale(2); break;
        default: y = y.scale(0);
      }
      return y;
    } },
  { name: 'JS value semantics on constants', scope: S, args: () => [t([2]), -7],
    fn: function (x: any, n: number) {
      const s = '1' + 1;                  // '11'
      const r = n % 3;                    // -1 (sign of the dividend)
      const loose = (null == undefined) ? 1 : 0;   // eslint-disable-line eqeqeq
      const strict = (null === undefined) ? 1 : 0;
      const z = Object.is(0, -0) ? 1 : 0;
      const arr = [] + '' === '' ? 1 : 0;       // eslint-disable-line @typescript-eslint/restrict-plus-operands
      const nan = Number.isNaN(parseInt('x', 10)) ? 1 : 0;
      const tv = typeof x === 'object' && !!x ? 1 : 0;   // a tensor is an object: truthy without reading values
      return x.scale(Number(s) + r + loose * 10 + strict * 100 + z + arr + nan + tv + 2 ** 3);
    } },
  { name: 'inlined user function and closures', scope: { ...S, helperScale }, args: () => [t([3]), 2],
    fn: function (x: any, k: number) {
      const mul = (v: any) => v.scale(k);
      function twice(v: any) { return mul(mul(v)); }
      const parts = [1, 2, 3].map((i) => x.scale(i));
      const total = parts.reduce((a: any, b: any) => paddle.add(a, b));
      return helperScale(twice(total), k);
    } },
  { name: 'arrays, objects and Maps returned', scope: S, args: () => [t([2, 2])],
    fn: function (x: any) {
      const m = new Map<string, any>();
      m.set('a', x.exp());
      m.set('b', m.get('a').log());
      const o = { y: m.get('b'), n: m.size, list: [x.sum(), 'tag', null] };
      return [o, m, paddle.concat([x, x], 0)];
    } },
  { name: 'inplace op on a graph tensor (functionalized)', scope: S, args: () => [t([4])],
    fn: function (x: any) { const y = x.scale(2); const alias = y; y.add_(x); paddle.nn.functional.relu_(alias); return [y, alias]; } },
  { name: 'x returned unchanged next to a graph value', scope: S, args: () => [t([2]), t([2], 3)],
    fn: (x: any, y: any) => [x, paddle.add(x, y).tanh(), y.shape, y.ndim, y.dtype] },
  { name: 'globalThis names (Math, Number, JSON)', args: () => [t([2])],
    fn: (x: any) => x.scale(Math.PI + Number.parseFloat('0.5') + JSON.stringify([1]).length) },
  // ---- breaks: the whole function runs eagerly, with the code recorded ----
  // console.* is printed by the leaf in order with the other side effects: no break (split.test.ts).
  { name: 'console.log (deferred: no break)', scope: S, args: () => [t([2])], fn: (x: any) => { console.log('tensor shape', x.shape); return x.scale(2); } },
  // `.item()` and `.tolist()` split the graph instead (test/js/split.test.ts); `.item(i)` may raise, so it does not.
  { name: '.item(i)', code: 'SOT002', scope: S, args: () => [t([2])], fn: (x: any) => x.scale(x.item(0) > 0 ? 1 : -1) },
  // (Converting operators, `${x}`, String(x) and Math.* on a tensor split instead: test/js/split_reads.test.ts.)
  { name: 'a tensor as a property key reads its value', code: 'SOT001', scope: S, args: () => [t([1])], fn: (x: any) => { const o: any = { 1: 2 }; return x.scale(o[x] ?? 3); } },
  { name: 'unknown (native) function', code: 'SOT005', scope: S, args: () => [t([2])], fn: (x: any) => x.scale(Date.now() > 0 ? 1 : 2) },
  { name: 'unresolved free variable', code: 'SOT107', args: () => [t([2])], fn: (x: any) => F.relu(x) },
  { name: "Object.prototype's methods on a tensor (they would answer for the graph value)", code: 'SOT007', scope: S, args: () => [t([2])], fn: (x: any) => [x.hasOwnProperty('shape'), x.isPrototypeOf(x), x.scale(2)] },
  { name: 'inplace write to an input', code: 'SOT007', scope: S, args: () => [t([2])], fn: (x: any) => { x.add_(x); return x; } },
  { name: 'try/catch/finally without an exception', scope: S, args: () => [t([2])],
    fn: (x: any) => { let y = x; try { y = y.exp(); } catch { y = x; } finally { y = y.scale(2); } return y; } },
  { name: 'try/catch whose handler runs (eagerly)', code: 'SOT007', scope: S, args: () => [t([2])],
    fn: (x: any) => { try { if (x.ndim === 1) throw new Error('rank 1'); return x; } catch (e) { return x.scale(3); } } },
  { name: 'async function', code: 'SOT106', scope: S, args: () => [t([2])], fn: async (x: any) => x.exp() },
];

describe('to_static on functions: captured == eager', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const f = paddle.jit.to_static(c.fn, { scope: c.scope });
      const got = f(...c.args());
      const want = c.fn(...c.args());
      if (c.fn.constructor.name === 'AsyncFunction') expectSame(await got, await want);
      else expectSame(got, want, 1e-6);
      expect(f.translateCount).toBe(1);
      const ex = f.explain();
      if (c.code) {
        expect(ex.graphs).toBe(0);
        expect(ex.breaks.map((b: any) => b.code)).toEqual([c.code]);
        expect(f.stats.eagerCalls).toBe(1);
      } else {
        expect(ex.breaks).toEqual([]);
        expect(ex.graphs).toBe(1);
        expect(f.stats.graphRuns).toBe(1);
      }
      // Second call with the same kinds of inputs: a cache hit, no new translation.
      f(...c.args());
      expect(f.translateCount).toBe(1);
      expect(f.stats.hits).toBe(1);
    });
  }
});

describe('guards', () => {
  test('number argument, shape and dtype changes re-translate; equal ones hit', () => {
    const fn = (x: any, k: number) => x.scale(k);
    const f = paddle.jit.to_static(fn);
    const x = t([2, 3]);
    expectSame(f(x, 2), fn(x, 2));
    f(t([2, 3], 5), 2);
    expect(f.translateCount).toBe(1);
    expectSame(f(x, 3), fn(x, 3));
    expect(f.translateCount).toBe(2);
    expectSame(f(t([4, 3]), 3), fn(t([4, 3]), 3));
    expect(f.translateCount).toBe(3);
    expectSame(f(x.astype('float64'), 3), fn(x.astype('float64'), 3));
    expect(f.translateCount).toBe(4);
    f(x, 2);
    expect(f.translateCount).toBe(4);
  });

  test('a scope value is guarded: rebinding it re-translates', () => {
    const scope: Record<string, unknown> = { kFree, paddle };
    const f = paddle.jit.to_static(kScaled, { scope });
    const x = t([2]);
    expectSame(f(x), kScaled(x));
    f(x);
    expect(f.translateCount).toBe(1);
    kFree = 5;
    scope.kFree = 5;
    expectSame(f(x), kScaled(x));
    expect(f.translateCount).toBe(2);
  });

  test('a break depending on a number only makes those calls eager', () => {
    const seen: number[] = [];
    const note = seen.push.bind(seen);   // a function with no source the translator does not know: SOT005
    const fn = (x: any, n: number) => { if (n > 1) note(n); return x.scale(n); };
    const f = paddle.jit.to_static(fn, { scope: { note } });
    const x = t([2]);
    expectSame(f(x, 1), fn(x, 1));
    expect(f.explain().graphs).toBe(1);
    seen.length = 0;
    expectSame(f(x, 2), x.scale(2));
    expect(seen).toEqual([2]);   // the eager fallback really ran it
    expect(f.explain().breaks.map((b: any) => b.code)).toEqual(['SOT005']);
    f(x, 1);
    expect(f.stats.graphRuns).toBe(2);
  });

  test('for...in over an options object: a new key re-translates', () => {
    const fn = (x: any, o: Record<string, number>) => { let y = x; for (const k in o) y = y.scale(o[k]); return y; };   // eslint-disable-line @typescript-eslint/no-explicit-any
    const f = paddle.jit.to_static(fn);
    const x = t([2]);
    expectSame(f(x, { a: 2 }), fn(x, { a: 2 }));
    expectSame(f(x, { a: 2, b: 3 }), fn(x, { a: 2, b: 3 }));
    expect(f.translateCount).toBe(2);
    f(x, { a: 2 });
    expect(f.translateCount).toBe(2);
  });

  test('input_spec makes a dim symbolic: one translation for every batch size', () => {
    const fn = (x: any) => F.relu(x).sum(1);
    const f = paddle.jit.to_static(fn, { input_spec: [new paddle.static.InputSpec([null, 4])], scope: { F } });
    for (const n of [2, 5, 7]) expectSame(f(t([n, 4])), fn(t([n, 4])));
    expect(f.translateCount).toBe(1);
  });
});

describe('explain', () => {
  test('a break reports its code, line and source line', () => {
    function twoLines(x: any) {   // eslint-disable-line @typescript-eslint/no-explicit-any
      const y = x.exp();
      return y.sum().item();
    }
    const f = paddle.jit.to_static(twoLines);
    expect(f(t([2]))).toBe(twoLines(t([2])));
    const [b] = f.explain().breaks;
    expect(b.code).toBe('SOT002');
    expect(b.line).toBe(3);
    expect(b.sourceLine).toBe('return y.sum().item();');
    expect(b.file).toBe('twoLines');
  });

  test('a tensor made by a creation op is a fresh object per call; a parameter is returned as itself', () => {
    const lin = new paddle.nn.Linear(2, 2);
    const f = paddle.jit.to_static((x: any) => [paddle.zeros([2]), lin.weight, x.sum()], { scope: { paddle, lin } });   // eslint-disable-line @typescript-eslint/no-explicit-any
    const [z1, w1] = f(t([2]));
    const [z2, w2] = f(t([2]));
    expect(z1).not.toBe(z2);
    expectSame(z1, paddle.zeros([2]));
    expect(w1).toBe(lin.weight);
    expect(w2).toBe(lin.weight);
    expect(f.translateCount).toBe(1);
  });
});

describe('side effects', () => {
  test('writes to outside objects and arrays are replayed after the graph, as eager', () => {
    const fn = (x: any, log: any[], stats: Record<string, any>) => {   // eslint-disable-line @typescript-eslint/no-explicit-any
      log.push(x.shape[0]);
      stats.calls = (stats.calls ?? 0) + 1;
      stats.last = x.exp();
      log.push(stats.calls);
      return stats.last.sum();
    };
    const f = paddle.jit.to_static(fn);
    const x = t([3]);
    const [logS, statsS, logE, statsE]: any[] = [[], {}, [], {}];   // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let i = 0; i < 2; i++) expectSame(f(x, logS, statsS), fn(x, logE, statsE), 1e-6);
    expect(logS).toEqual(logE);
    expect(statsS.calls).toBe(2);
    expectSame(statsS.last, statsE.last, 1e-6);
    expect(f.explain().breaks).toEqual([]);
    expect(f.explain().graphs).toBe(2);   // the array's length and stats.calls are guarded
  });

  test('a layer caching a tensor on this', () => {
    class Cache extends paddle.nn.Layer {
      fc = new paddle.nn.Linear(4, 4);
      last: any = null;   // eslint-disable-line @typescript-eslint/no-explicit-any
      forward(x: any) { const y = this.fc.call(x); this.last = y; return this.last.tanh(); }   // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    const l = new Cache();
    const s = paddle.jit.to_static(l);
    const x = t([2, 4]);
    const y = s.call(x);
    expectSame(l.last.tanh(), y, 1e-6);
    expect(s.explain().graphs).toBe(1);
  });
});

describe('full_graph', () => {
  test('a break is an error naming its code, line and hint', () => {
    const f = paddle.jit.to_static((x: any) => { const y = x.exp(); return y.scale(y.item(0)); }, { full_graph: true });
    expect(() => f(t([2]))).toThrow(/SOT002.*\.item\(\).*y\.item\(0\).*Hint/s);
  });
  test('options are checked', () => {
    expect(() => paddle.jit.to_static(42)).toThrow(/expected a function or a paddle\.nn\.Layer, got number/);
    expect(() => paddle.jit.to_static((x: any) => x, { scope: 3 })).toThrow(/scope must be an object/);
  });
});
