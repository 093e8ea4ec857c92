// Graph splitting at breaks in the JS frontend (frontend/js/split.ts on sot's trace tree): each
// case runs the captured function and the original on the same inputs (results equal), and checks
// the translate count after every call (a repeated value hits, a new value takes a new child),
// the number of graphs and the breaks. Every case runs op by op and through the executor.
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { expectSame, lossAndGrads, type SplitCase } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const paddle: any = P;
const F = paddle.nn.functional;
const full = (shape: number[], v: number): any => paddle.full(shape, v);
const A = (): any[] => [paddle.to_tensor([0.5, 1.5, -0.25])];
const B = (): any[] => [paddle.to_tensor([-1.0, -2.0, 0.5])];
const Z = (): any[] => [full([2], 0)];

function unitMax(x: any): any { const m = x.abs().max().item(); return x.scale(1 / m); }

interface Case extends SplitCase {
  eagerCalls?: number;
  input_spec?: unknown[];
}

const cases: Case[] = [
  { name: '.item() mid-function: a tensor made before the split is used after it', calls: [A, A, B, B], translations: [2, 2, 3, 3], graphs: 3, breaks: ['SOT002'],
    fn: (x: any) => { const h = x.exp(); const s = h.sum().item(); return h.scale(1 / s).add(x); } },
  { name: 'a branch on .item() with early returns (unmarked code): one child per direction', calls: [A, A, B, B], translations: [2, 2, 3, 3], graphs: 3, breaks: ['SOT002'],
    fn: (x: any) => { if (x.mean().item() > 0) return x.exp(); return x.neg().exp().scale(2); } },
  { name: '.tolist() of an argument (the root segment has no ops)', calls: [A, A], translations: [2, 2], graphs: 1, breaks: ['SOT002'],
    fn: (x: any) => { const l = x.tolist(); return x.scale(l.length).add(l[0]); } },
  { name: 'a split inside an inlined callee', calls: [A, A], translations: [2, 2], graphs: 2, breaks: ['SOT002'],
    fn: (x: any) => unitMax(x.add(1)).sum() },
  { name: 'two splits: three segments', calls: [A, A], translations: [3, 3], graphs: 3, breaks: ['SOT002', 'SOT002'],
    fn: (x: any) => { const a = x.sum().item(); const y = x.scale(a); const b = y.max().item(); return [y.add(b), a, b]; } },
  { name: 'a loop on .item() outside capture: one node per iteration', calls: [Z, Z], translations: [5, 5], graphs: 4, breaks: ['SOT002', 'SOT002', 'SOT002', 'SOT002'],
    fn: (x: any) => { let y = x; while (y.sum().item() < 6) y = y.add(1); return y; } },
  { name: 'Math on the value, and the value returned in an object', calls: [A, A], translations: [2, 2], graphs: 2, breaks: ['SOT002'],
    fn: (x: any) => { const n = Math.sqrt(x.square().sum().item()); return { y: x.scale(1 / n), n }; } },
  // Capturing code whose capture refuses (return/break inside a tensor-conditioned side): the root is
  // retranslated with that test concrete, so its .item() splits instead of the call running eagerly.
  { name: 'marked code: a return inside a tensor if splits instead', calls: [A, A, B, B], translations: [2, 2, 3, 3], graphs: 3, breaks: ['SOT016', 'SOT002'],
    fn: paddle.jit.marker.capture_control_flow((x: any) => { const h = x.tanh(); if (h.sum().item() > 0) return h.exp(); return h.neg(); }) },
  { name: 'marked code: a break inside a tensor loop splits instead', calls: [Z, Z], translations: [7, 7], graphs: 6, breaks: ['SOT016', 'SOT016', ...Array(6).fill('SOT002')],
    fn: paddle.jit.marker.capture_control_flow((x: any) => { let y = x; while (y.sum().item() < 60) { y = y.add(1); if (y.max().item() > 2.5) break; } return y; }) },
  { name: 'a split inside try/finally, a switch and a closure made before it', calls: [A, A, B], translations: [2, 2, 3], graphs: 3, breaks: ['SOT002'],
    fn: (x: any) => {
      const h = x.tanh();
      const later = (k: number) => h.scale(k);
      const m = new Map<string, any>([['h', h]]);
      let y = x;
      try {
        switch (x.sum().item() > 0 ? 'pos' : 'neg') {
          case 'pos': y = later(2); break;
          default: y = later(-1);
        }
        m.set('y', y);
      } finally {
        y = y.add(1);
      }
      return [y, m, x];
    } },
  // input_spec: symbolic batch dims flow through the split (the .item() value is the same for every batch).
  { name: 'input_spec: a symbolic dim carried across the split', calls: [() => [full([2, 3], 1)], () => [full([5, 3], 1)], () => [full([5, 3], 1)]], translations: [2, 2, 2], graphs: 2, breaks: ['SOT002'],
    input_spec: [{ shape: [null, 3] }], fn: (x: any) => { const h = x.exp().add(1); const m = h.mean().item(); return h.scale(m).sum(1); } },
  { name: 'a path that cannot split runs the call eagerly', calls: [A, B, B, A], translations: [2, 3, 3, 3], graphs: 2, breaks: ['SOT002', 'SOT005'], eagerCalls: 2,
    fn: (x: any) => { const s = x.sum().item(); if (s > 0) return x.scale(2); return x.scale(Date.now() > 0 ? 3 : 4); } },
];

function withMinGraphSize<R>(n: string | undefined, fn: () => R): R {
  const old = process.env.MIN_GRAPH_SIZE;
  if (n === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = n;
  try { return fn(); } finally { if (old === undefined) delete process.env.MIN_GRAPH_SIZE; else process.env.MIN_GRAPH_SIZE = old; }
}
const MODES: [string, string | undefined][] = [['op by op', undefined], ['executor', '0']];
const S = { paddle, F, unitMax };

describe.each(MODES)('graph splitting at breaks (%s)', (_mode, minSize) => {
  for (const c of cases) {
    test(c.name, () => {
      const f = withMinGraphSize(minSize, () => paddle.jit.to_static(c.fn, { scope: S, input_spec: c.input_spec }));
      c.calls.forEach((args, i) => {
        expectSame(f(...args()), c.fn(...args()), 1e-6);
        expect(f.translateCount).toBe(c.translations[i]);
      });
      const ex = f.explain();
      expect(ex.graphs).toBe(c.graphs);
      expect(ex.breaks.map((b: any) => b.code)).toEqual(c.breaks);
      expect(f.stats.eagerCalls).toBe(c.eagerCalls ?? 0);
    });
  }

  test('side effects before and after a split are replayed in order, as eager', () => {
    const fn = (x: any, log: unknown[], st: any) => {
      log.push('start');
      st.before = x.sum();
      const v = x.mean().item();
      log.push(v > 0 ? 'pos' : 'neg');
      st.after = x.scale(2);
      st.v = v;
      return x.exp();
    };
    const f = withMinGraphSize(minSize, () => paddle.jit.to_static(fn, { scope: S }));
    const stC: any = {}, stE: any = {};
    for (const args of [A, A, B]) {
      const logC: unknown[] = [], logE: unknown[] = [];   // (an array argument is guarded by its length)
      expectSame(f(args()[0], logC, stC), fn(args()[0], logE, stE), 1e-6);
      expect(logC).toEqual(logE);
      expectSame([stC.before, stC.after, stC.v], [stE.before, stE.after, stE.v], 1e-6);
    }
    expect(f.translateCount).toBe(3);
    expect(f.stats.hits).toBe(1);
  });

  test('console.* is printed in order with the side effects, across a split, with no break of its own', () => {
    const fn = (x: any, o: any) => {
      console.log('start', x.shape);
      o.k = 1;
      console.info('k', o.k);
      const arr = [1];
      console.log(arr);
      arr.push(2);
      const v = x.sum().item();
      o.k = 2;
      console.log('v', v > 0, o.k, arr);
      return x.scale(2);
    };
    const f = withMinGraphSize(minSize, () => paddle.jit.to_static(fn, { scope: S }));
    const printed = (g: () => unknown): string[] => {
      const out: string[] = [];
      const saved = [console.log, console.info];
      console.log = (...a: unknown[]) => { out.push(JSON.stringify(a)); };
      console.info = (...a: unknown[]) => { out.push(`info ${JSON.stringify(a)}`); };
      try { g(); } finally { [console.log, console.info] = saved; }
      return out;
    };
    for (const args of [A, A, B]) {
      const oC: any = {}, oE: any = {};
      const want = printed(() => fn(args()[0], oE));
      expect(printed(() => f(args()[0], oC))).toEqual(want);
      expect(oC).toEqual(oE);
    }
    expect(f.translateCount).toBe(3);
    expect(f.explain().breaks.map((b: any) => b.code)).toEqual(['SOT002']);
    expect(f.stats.eagerCalls).toBe(0);
  });

  test('explain(): the tree of segments', () => {
    const f = withMinGraphSize(minSize, () => paddle.jit.to_static(cases[0].fn, { scope: S }));
    f(...A());
    f(...B());
    const ex = f.explain();
    expect(ex.entries.map((e: any) => [e.depth, e.exit])).toEqual([[0, 'split'], [1, 'return'], [1, 'return']]);
    expect(ex.entries[0].break.code).toBe('SOT002');
    expect(ex.entries[1].guards.some((g: string) => g.includes('s4'))).toBe(true);   // the .item() value (slot after x)
    const dot: string = paddle.jit.sot.render('dot', f, ...A());   // the viewer: one segment per node, linked
    expect(dot).toContain('SOT002');
    expect(f.translateCount).toBe(3);
  });

  test('full_graph: a split break is still an error naming it', () => {
    const f = paddle.jit.to_static(cases[0].fn, { scope: S, full_graph: true });
    expect(() => f(...A())).toThrow(/SOT002.*\.item\(\)/);
  });
});

class Scaled extends paddle.nn.Layer {
  fc1 = new paddle.nn.Linear(4, 8);
  fc2 = new paddle.nn.Linear(8, 2);
  forward(x: any) {
    const h = F.relu(this.fc1.call(x));
    const s = h.mean().item();
    return this.fc2.call(h.scale(s > 0.2 ? 2 : 0.5)).tanh();
  }
}

class BNSplit extends paddle.nn.Layer {
  bn = new paddle.nn.BatchNorm1D(4);
  fc = new paddle.nn.Linear(4, 2);
  forward(x: any) {
    const h = this.bn.call(x);
    const s = h.abs().mean().item();
    return this.fc.call(h).scale(s > 0.5 ? 1 : 3);
  }
}


describe.each(MODES)('training through split graphs (%s)', (_mode, minSize) => {
  test('loss.backward() chains the segments: gradients equal eager', () => {
    paddle.seed(7);
    const l = new Scaled();
    const s = withMinGraphSize(minSize, () => paddle.jit.to_static(l, { scope: S }));
    for (const x of [full([3, 4], 1), full([3, 4], -0.3), full([3, 4], 1)]) {
      const [lossS, gS] = lossAndGrads(l, (y) => s.call(y), x);
      const [lossE, gE] = lossAndGrads(l, (y) => l.call(y), x);
      expectSame(lossS, lossE, 1e-5);
      expect(gS.length).toBe(4);
      gS.forEach((g, i) => { expect(g).not.toBeNull(); expectSame(g, gE[i], 1e-5); });
    }
    expect(s.translateCount).toBeGreaterThanOrEqual(2);
    expect(s.explain().graphs).toBeGreaterThanOrEqual(2);
    expect(s.stats.eagerCalls).toBe(0);
  });

  test('batch_norm running statistics before a split are written back once, as eager', () => {
    paddle.seed(11);
    const lC = new BNSplit();
    const lE = new BNSplit();
    lE.set_state_dict(lC.state_dict());
    const s = withMinGraphSize(minSize, () => paddle.jit.to_static(lC, { scope: S }));
    for (const seed of [1, 2]) {
      paddle.seed(seed);
      const x = paddle.randn([6, 4]);
      const [lossS, gS] = lossAndGrads(lC, (y) => s.call(y), x);
      const [lossE, gE] = lossAndGrads(lE, (y) => lE.call(y), x);
      expectSame(lossS, lossE, 1e-5);
      gS.forEach((g, i) => expectSame(g, gE[i], 1e-5));
      expectSame([lC.bn._mean, lC.bn._variance], [lE.bn._mean, lE.bn._variance], 1e-6);
    }
    expect(s.stats.eagerCalls).toBe(0);
    expect(s.explain().entries.some((e: any) => e.exit === 'split')).toBe(true);
  });
});

describe('Object.keys/values/entries of outside objects', () => {
  test('the key list is guarded: same keys hit, another key set or value re-translates', () => {
    const fn = (x: any, o: any) => {
      let y = x;
      for (const [k, v] of Object.entries(o)) y = y.scale(v as number).add(k.length);
      return [y, Object.keys(o), Object.values(o).length];
    };
    const f = paddle.jit.to_static(fn, { scope: S });
    const runs: [Record<string, number>, number][] = [[{ a: 2, bb: 3 }, 1], [{ a: 2, bb: 3 }, 1], [{ a: 2, bb: 3, c: 1 }, 2], [{ bb: 3, a: 2 }, 3], [{ a: 5, bb: 3 }, 4]];
    for (const [o, n] of runs) {
      expectSame(f(A()[0], o), fn(A()[0], o), 1e-6);
      expect(f.translateCount).toBe(n);
    }
    expect(f.explain().breaks).toEqual([]);
  });

  test('keys the function added itself are not modelled: the call runs eagerly', () => {
    const fn = (x: any, o: any) => { o.extra = 1; return x.scale(Object.keys(o).length); };
    const f = paddle.jit.to_static(fn, { scope: S });
    const oC: any = { a: 1 }, oE: any = { a: 1 };
    expectSame(f(A()[0], oC), fn(A()[0], oE));
    expect(oC).toEqual(oE);
    expect(f.explain().breaks.map((b: any) => b.code)).toEqual(['SOT005']);
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */
