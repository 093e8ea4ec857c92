// Tensor indexing in TS (x.get / x.set / paddle.static.setitem, src/ops/adv_index.ts), table-
// driven against numpy's rules as plain arrays (test/ops/adv_ref.ts): forward values and shapes,
// gradients to x and value, views vs copies, errors; plus the data-dependent-shape mechanism.
import { describe, expect, it } from 'vitest';
import { get_item, getOp, IndexError, set_item_adv, setitem } from '../../src/ops/index.js';
import { paddle } from '../../src/paddle.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { native } from '../../src/native.js';
import { type AdvIndexItem } from '../../src/ops/adv_index.js';
import { refGetItem, refPlan, type RefItem, refSetItem } from './adv_ref.js';
import { arrayOf, expectClose, tensorOf } from './harness.js';
import { atBroadcast, nd, type NDArray, rand, size, stridesOf, unravel } from './ref.js';

const P = paddle as any;

/** A test index item: basic items as they are, advanced ones as data (given to Tensor.get as a JS array or a tensor). */
type Item = number | string | null | { i: number[]; shape?: number[]; dtype?: 'int32' | 'int64'; js?: boolean } | { b: number[]; shape?: number[]; js?: boolean };

const refItem = (it: Item): RefItem => {
  if (it === null || typeof it !== 'object') return it;
  if ('i' in it) return nd(it.shape ?? [it.i.length], it.i, 'int64');
  return nd(it.shape ?? [it.b.length], it.b, 'bool');
};
function nest(data: number[], shape: number[], asBool: boolean): unknown {
  if (shape.length === 0) return asBool ? Boolean(data[0]) : data[0];
  const n = shape[0], step = size(shape.slice(1));
  return Array.from({ length: n }, (_, k) => nest(data.slice(k * step, (k + 1) * step), shape.slice(1), asBool));
}
const tsItem = (it: Item): AdvIndexItem => {
  if (it === null || typeof it !== 'object') return it;
  if ('i' in it) {
    const shape = it.shape ?? [it.i.length];
    return it.js ? nest(it.i, shape, false) as number[] : tensorOf(nd(shape, it.i, it.dtype ?? 'int64'));
  }
  const shape = it.shape ?? [it.b.length];
  return it.js ? nest(it.b, shape, true) as boolean[] : tensorOf(nd(shape, it.b, 'bool'));
};
const label = (items: Item[]) => items.map((it) => (it === null ? 'None' : typeof it === 'object' ? ('i' in it ? `[${it.i}]${it.shape ? `@${it.shape}` : ''}` : `mask[${it.b}]`) : String(it))).join(', ');

interface Case { shape: number[]; items: Item[]; view?: boolean | 'any' }
const CASES: Case[] = [
  { shape: [4, 3], items: [1], view: true },
  { shape: [4, 3], items: ['1:3', '::-1'], view: 'any' },  // basic: whatever strided_slice gives
  { shape: [4, 3], items: [null, '...', -1], view: true },
  { shape: [4, 3], items: [{ i: [2, 0, -1] }] },
  { shape: [4, 3], items: [{ i: [2, 0, 2], js: true }] },
  { shape: [4, 3], items: [':', { i: [1, 1], dtype: 'int32' }] },
  { shape: [4, 3], items: [{ i: [0, 3] }, { i: [2, 0] }] },
  { shape: [4, 3], items: [{ i: [0, 3], shape: [2, 1] }, { i: [2, 0, 1] }], },
  { shape: [4, 3], items: [{ i: [1, 2, 0, 3], shape: [2, 2] }] },
  { shape: [4, 3], items: [{ i: [2], shape: [] }] },
  { shape: [2, 3, 4], items: [':', { i: [2, 0] }, { i: [1, 3] }] },          // adjacent, not first: B in place
  { shape: [2, 3, 4], items: [{ i: [1, 0] }, ':', { i: [3, 0] }] },          // separated: B in front
  { shape: [2, 3, 4], items: [':', { i: [2, 0] }, 1] },                        // int applied first
  { shape: [2, 3, 4], items: [1, ':', { i: [3, 0, 1] }] },                     // Paddle: [3, 3] (ints are basic)
  { shape: [2, 3, 4], items: ['...', { i: [0, -1] }] },
  { shape: [2, 3, 4], items: [{ i: [1] }, null, '1:', { i: [0, 2] }] },
  { shape: [2, 3, 4], items: [':', { i: [2, 0] }, null, { i: [1, 3] }] },     // None separates
  { shape: [2, 3], items: [{ b: [1, 0, 1, 0, 1, 1], shape: [2, 3] }] },
  { shape: [2, 3], items: [{ b: [1, 0, 1, 0, 1, 1], shape: [2, 3], js: true }] },
  { shape: [2, 3], items: [{ b: [0, 1] }] },
  { shape: [2, 3], items: [':', { b: [1, 0, 1], js: true }] },
  { shape: [2, 3, 2], items: [{ b: [1, 0, 1, 1, 0, 0], shape: [2, 3] }, 1] },
  { shape: [2, 3, 2], items: [1, { b: [0, 1, 1, 0, 0, 1], shape: [3, 2] }] },
  { shape: [2, 3], items: [{ b: [0, 0] }] },                                   // empty result
  { shape: [2, 3], items: [{ i: [] }] },
  { shape: [0, 3], items: [{ i: [] }, '1:'] },
];

describe('Tensor.get: numpy/Paddle rules', () => {
  for (const c of CASES) {
    it(`x${JSON.stringify(c.shape)}[${label(c.items)}]`, () => {
      const X = rand(c.shape, 'float64', 3);
      for (const strided of [false, true]) {
        const x = tensorOf(X, strided);
        const y = x.get(...c.items.map(tsItem)) as Tensor;
        expectClose(arrayOf(y), refGetItem(X, c.items.map(refItem)), `get ${strided ? 'strided' : ''}`);
        if (c.view !== 'any') expect(native.sameStorage(y.handle, x.handle), 'view iff basic').toBe(Boolean(c.view) && size(c.shape) > 0);
      }
    });
  }
  it('gradients scatter back to x (repeated indices add up)', () => {
    for (const c of [...CASES.filter((k) => !k.view), { shape: [4, 3], items: [{ i: [1, 1, 1] }] as Item[] }]) {
      const X = rand(c.shape, 'float64', 5);
      const x = tensorOf(X); x.stop_gradient = false;
      const y = x.get(...c.items.map(tsItem)) as Tensor;
      const W = rand(y.shape as number[], 'float64', 9);
      (P.sum(P.multiply(y, tensorOf(W))) as Tensor).backward();
      const plan = refPlan(X.shape, c.items.map(refItem));
      const want = { shape: X.shape, data: X.data.map(() => 0), dtype: 'float64' as const };
      const st = stridesOf(X.shape);
      for (let i = 0; i < size(plan.shape); i++) want.data[plan.source(unravel(i, plan.shape)).reduce((p, v, k) => p + v * st[k], 0)] += W.data[i];
      expectClose(arrayOf(x.grad as Tensor), want, `grad of x[${label(c.items)}]`);
    }
  });
  it('out-of-range indices raise IndexError naming the index, axis and size', () => {
    const x = tensorOf(rand([4, 3]));
    expect(() => x.get(':', [0, 3])).toThrow(/index 3 is out of bounds for axis 1 with size 3/);
    expect(() => x.get([-5])).toThrow(/index -5 is out of bounds for axis 0 with size 4/);
    expect(() => x.get(4)).toThrow(/index 4 is out of bounds for axis 0 with size 4/);
    expect(() => x.get([0], [0], [0])).toThrow(/too many indices/);
    expect(() => x.get([true, false])).toThrow(/boolean index of shape \[2\] does not match .* \[4\] at axis 0/);
    expect(() => x.get([0, 1], [0, 1, 2])).toThrow(/could not be broadcast together/);
    expect(() => x.get(tensorOf(nd([1], [0.5])))).toThrow(/int32, int64 or bool, got float32/);
    try { x.get([9]); } catch (e) { expect(e).toBeInstanceOf(IndexError); }
  });
});

// x[items] = v cases (no duplicate positions, so the gradient of v is well defined).
const SET_CASES: { shape: number[]; items: Item[]; v: number[] }[] = [
  { shape: [4, 3], items: [{ i: [2, 0] }], v: [3] },
  { shape: [4, 3], items: [{ i: [2, 0] }], v: [] },
  { shape: [4, 3], items: [':', { i: [2, -3] }], v: [4, 2] },
  { shape: [4, 3], items: [{ i: [0, 3] }, { i: [2, 0] }], v: [2] },
  { shape: [2, 3, 4], items: [':', { i: [2, 0] }, { i: [1, 3] }], v: [2, 2] },
  { shape: [2, 3, 4], items: [{ i: [1, 0] }, ':', { i: [3, 0] }], v: [2, 3] },
  { shape: [2, 3, 4], items: [1, '::-1', { i: [3, 0, 1] }], v: [3, 3] },
  { shape: [2, 3, 4], items: [{ i: [1] }, null, '1:', { i: [0] }], v: [1, 1, 2] },
  { shape: [2, 3], items: [{ b: [1, 0, 1, 0, 1, 1], shape: [2, 3] }], v: [4] },
  { shape: [2, 3], items: [{ b: [1, 0, 1, 0, 1, 1], shape: [2, 3] }], v: [] },
  { shape: [2, 3], items: [':', { b: [1, 0, 1], js: true }], v: [2, 1] },
  { shape: [2, 3], items: ['1:', 0], v: [] },
];

describe('Tensor.set and paddle.static.setitem', () => {
  for (const c of SET_CASES) {
    it(`x${JSON.stringify(c.shape)}[${label(c.items)}] = v${JSON.stringify(c.v)}`, () => {
      const X = rand(c.shape, 'float64', 4), V = rand(c.v, 'float64', 6);
      const want = refSetItem(X, c.items.map(refItem), V);
      // in place, also through a strided x
      for (const strided of [false, true]) {
        const x = tensorOf(X, strided);
        const r = x.set(c.items.map(tsItem), tensorOf(V));
        expect(r).toBe(x);
        expectClose(arrayOf(x), want, `set ${strided ? 'strided' : ''}`);
      }
      // out of place leaves x alone
      const x = tensorOf(X);
      expectClose(arrayOf(setitem(x, c.items.map(tsItem), tensorOf(V)) as Tensor), want, 'static.setitem');
      expectClose(arrayOf(x), X, 'x unchanged');
      // gradients: to x (zero where written) and to v (summed over its broadcast)
      const x0 = tensorOf(X); x0.stop_gradient = false;
      const v0 = tensorOf(V); v0.stop_gradient = false;
      const z = P.scale(x0, 1) as Tensor;
      set_item_adv(z, c.items.map(tsItem), v0);
      const W = rand(c.shape, 'float64', 8);
      (P.sum(P.multiply(z, tensorOf(W))) as Tensor).backward();
      const plan = refPlan(X.shape, c.items.map(refItem));
      const st = stridesOf(X.shape);
      const gx = [...W.data], gv = V.data.map(() => 0);
      const vst = stridesOf(V.shape);
      for (let i = 0; i < size(plan.shape); i++) {
        const idx = unravel(i, plan.shape);
        const off = plan.source(idx).reduce((p, v, k) => p + v * st[k], 0);
        gx[off] = 0;
        const voff = V.shape.reduce((p, d, k) => p + (d === 1 ? 0 : idx[idx.length - V.shape.length + k]) * vst[k], 0);
        gv[voff] += W.data[off];
      }
      expectClose(arrayOf(x0.grad as Tensor), { ...X, data: gx }, 'grad x');
      expectClose(arrayOf(v0.grad as Tensor), { ...V, data: gv }, 'grad value');
    });
  }
  it('scalars, casting and broadcasting values', () => {
    const x = tensorOf(nd([2, 3], [1, 2, 3, 4, 5, 6], 'int64'));
    x.set([[1, 0]], 7.9);
    expect(x.tolist()).toEqual([[7, 7, 7], [7, 7, 7]]);
    x.set([tensorOf(nd([2, 3], [1, 0, 0, 0, 0, 1], 'bool'))], tensorOf(nd([], [0], 'float32')));
    expect(x.tolist()).toEqual([[0, 7, 7], [7, 7, 0]]);
    x.set([':', [2]], [[5], [6]]);
    expect(x.tolist()).toEqual([[0, 7, 5], [7, 7, 6]]);
  });
  it('views of x see advanced writes', () => {
    const x = tensorOf(nd([2, 3], [1, 2, 3, 4, 5, 6]));
    const row = x.get(1) as Tensor;
    x.set([1, [0, 2]], 0);
    expect(row.tolist()).toEqual([0, 5, 0]);
  });
  it('errors name the index and shapes', () => {
    const x = tensorOf(rand([4, 3]));
    expect(() => x.set([[4]], 1)).toThrow(/index 4 is out of bounds for axis 0 with size 4/);
    expect(() => x.set([':', [0, 1]], tensorOf(rand([3, 2])))).toThrow(/value of shape \[3, 2\] cannot be broadcast to the indexed shape \[4, 2\]/);
  });
});

describe('data-dependent output shapes (OpDef.dynamicShape)', () => {
  it('masked_select and nonzero allocate their outputs in the kernel', () => {
    const m = tensorOf(nd([2, 2], [1, 0, 1, 1], 'bool'));
    expect((P.masked_select(tensorOf(nd([2, 2], [1, 2, 3, 4])), m) as Tensor).tolist()).toEqual([1, 3, 4]);
    expect((P.nonzero(m) as Tensor).tolist()).toEqual([[0, 0], [1, 0], [1, 1]]);
    const parts = P.nonzero(m, true) as Tensor[];
    expect(parts.map((t) => t.shape)).toEqual([[3, 1], [3, 1]]);
    expect(getOp('masked_select').dynamicShape).toBe(true);
  });
  it('program recording gives a symbolic dim and the executor refuses the op by name', () => {
    paddle.enable_static();
    try {
      const main = new P.static.Program();
      const y = P.static.program_guard(main, () => {
        const x = P.static.data('x', [4], 'float32');
        return P.masked_select(x, P.greater_than(x, P.full([4], 0, 'float32')));
      });
      expect(typeof y.shape[0]).not.toBe('number');
      expect(() => new P.static.Executor().run(main, { feed: { x: tensorOf(nd([4], [1, -1, 2, -2])) }, fetch_list: [y] }))
        .toThrow(/masked_select has a data-dependent output shape/);
    } finally {
      paddle.disable_static();
    }
  });
  void atBroadcast; void get_item;
});
