// Tensor.set_item (x[index] = value) and the generic inplace path (add_, relu_, scale_, ...),
// table-driven against a plain TypeScript reference: views see writes, overlapping
// self-assignment reads the old values, negative steps, broadcasting, errors.
import { describe, expect, it } from 'vitest';
import { allOps, callOp, dispatchCounters, getOp, set_item } from '../../src/ops/index.js';
import { paddle } from '../../src/paddle.js';
import type { DType } from '../../src/tensor/dtype.js';
import { scope, Tensor } from '../../src/tensor/tensor.js';
import { Program, program_guard, data } from '../../src/static/index.js';
import { atBroadcast, nd, type NDArray, rand, size, stridesOf, unravel } from './ref.js';
import { arrayOf, expectClose, tensorOf } from './harness.js';
import { sliceRange } from './adv_ref.js';
import { native } from '../../src/native.js';

type Item = number | null | string;

/** numpy's x[index] = v on plain arrays. */
function refSetItem(x: NDArray, index: Item[], v: NDArray): NDArray {
  const rank = x.shape.length;
  const nReal = index.filter((i) => i !== null && i !== '...').length;
  const items: Item[] = [];
  for (const it of index) {
    if (it === '...') for (let k = 0; k < rank - nReal; k++) items.push(':');
    else items.push(it);
  }
  while (items.filter((i) => i !== null).length < rank) items.push(':');
  const picks: number[][] = [];
  const assignOf: ('none' | 'dec' | number)[] = [];  // per item: None, decreased x dim, or kept x dim
  let d = 0;
  for (const it of items) {
    if (it === null) { assignOf.push('none'); continue; }
    const n = x.shape[d];
    if (typeof it === 'number') { picks.push([it < 0 ? it + n : it]); assignOf.push('dec'); }
    else { picks.push(sliceRange(n, it)); assignOf.push(d); }
    d++;
  }
  const out = { ...x, data: [...x.data] };
  const region = picks.map((p) => p.length);
  const st = stridesOf(x.shape);
  for (let i = 0; i < size(region); i++) {
    const idx = unravel(i, region);
    const assignIdx: number[] = [];
    for (const a of assignOf) if (a === 'none') assignIdx.push(0); else if (a !== 'dec') assignIdx.push(idx[a]);
    let off = 0;
    idx.forEach((k, dd) => { off += picks[dd][k] * st[dd]; });
    out.data[off] = atBroadcast(v, assignIdx);
  }
  return out;
}

interface Case { name: string; shape: number[]; index: Item[]; value: number[] | number; dtype?: DType }
const CASES: Case[] = [
  { name: 'x[1] = row', shape: [3, 4], index: [1], value: [4] },
  { name: 'x[1] = 5 (scalar)', shape: [3, 4], index: [1], value: 5 },
  { name: 'x[1:3, ::2] = t', shape: [4, 5], index: ['1:3', '::2'], value: [2, 3] },
  { name: 'x[..., 0] = 5', shape: [2, 3, 4], index: ['...', 0], value: 5 },
  { name: 'x[None, 1] = row', shape: [3, 4], index: [null, 1], value: [1, 4] },
  { name: 'x[:, None, 1:3] = t', shape: [3, 4], index: [':', null, '1:3'], value: [3, 1, 2] },
  { name: 'x[::-1] = t (negative step)', shape: [5], index: ['::-1'], value: [5] },
  { name: 'x[3:0:-2, -1] = t', shape: [5, 3], index: ['3:0:-2', -1], value: [2] },
  { name: 'x[-2:] = broadcast column', shape: [4, 3], index: ['-2:'], value: [2, 1] },
  { name: 'x[5:9] = t (empty region)', shape: [4], index: ['5:9'], value: [1] },
  { name: 'x[...] = t (whole tensor)', shape: [2, 3], index: ['...'], value: [3] },
  { name: 'x[()] on 0-D', shape: [], index: [], value: 3 },
  { name: 'int64 x[1:, 0] = t', shape: [3, 2], index: ['1:', 0], value: [2], dtype: 'int64' },
  { name: 'float16 x[0, ::-1] = t', shape: [2, 3], index: [0, '::-1'], value: [3], dtype: 'float16' },
  { name: 'bool x[0] = 1', shape: [2, 2], index: [0], value: 1, dtype: 'bool' },
];

describe('set_item', () => {
  for (const c of CASES) {
    it(c.name, () => scope(() => {
      const dt = c.dtype ?? 'float32';
      const x0 = rand(c.shape, dt, 3, -5, 5);
      const v0 = typeof c.value === 'number' ? nd([], [c.value], dt) : rand(c.value, dt, 4, -5, 5);
      const want = refSetItem(expectRound(x0), c.index, expectRound(v0));
      const x = tensorOf(x0);
      const view = c.shape.length ? paddle.slice(x, [0], [0], [c.shape[0]]) as Tensor : null;
      const r = set_item(x, c.index, typeof c.value === 'number' ? c.value : tensorOf(v0));
      expect(r).toBe(x);
      expectClose(arrayOf(x), want, c.name);
      if (view) expectClose(arrayOf(view), want, `${c.name}: a view made before sees the write`);
      // The same write through a strided (non-contiguous) x.
      if (c.shape.length) {
        const xs = tensorOf(x0, true);
        xs.set_item(c.index, typeof c.value === 'number' ? c.value : tensorOf(v0));
        expectClose(arrayOf(xs), want, `${c.name} (strided x)`);
      }
    }));
  }

  it('string index and slice objects', () => scope(() => {
    const x = paddle.zeros([3, 4], 'float32') as Tensor;
    x.set_item('1:, ::3', 7);
    x.set_item([0, { start: 1, stop: null, step: 2 }], 2);
    expect(x.tolist()).toEqual([[0, 2, 0, 2], [7, 0, 0, 7], [7, 0, 0, 7]]);
  }));

  it('fill_ and zero_ write the whole tensor, through views too', () => scope(() => {
    const x = paddle.ones([2, 3], 'int32') as Tensor;
    const col = paddle.transpose(x, [1, 0]) as Tensor;
    expect((paddle.slice(col, [0], [1], [2]) as Tensor).fill_(7)).toBeInstanceOf(Tensor);
    expect(x.tolist()).toEqual([[1, 7, 1], [1, 7, 1]]);
    expect(x.zero_()).toBe(x);
    expect(x.tolist()).toEqual([[0, 0, 0], [0, 0, 0]]);
  }));

  it('overlapping self-assignment reads the old values (numpy)', () => scope(() => {
    const x = paddle.to_tensor([0, 1, 2, 3, 4], 'float32') as Tensor;
    x.set_item('1:', paddle.slice(x, [0], [0], [4]) as Tensor);
    expect(x.tolist()).toEqual([0, 0, 1, 2, 3]);
    const y = paddle.to_tensor([0, 1, 2, 3, 4], 'float32') as Tensor;
    y.set_item('::-1', y);
    expect(y.tolist()).toEqual([4, 3, 2, 1, 0]);
    const z = paddle.to_tensor([[1, 2], [3, 4]], 'float32') as Tensor;
    z.set_item(':', paddle.transpose(z, [1, 0]) as Tensor);
    expect(z.tolist()).toEqual([[1, 3], [2, 4]]);
  }));

  it('a value of another dtype is cast to x (as Paddle)', () => scope(() => {
    const x = paddle.zeros([3], 'int32') as Tensor;
    x.set_item('0:2', paddle.to_tensor([1.7, -2.2], 'float32') as Tensor);
    expect(x.dtype).toBe('int32');
    expect(x.tolist()).toEqual([1, -2, 0]);
    x.set_item(2, [9]);
    expect(x.tolist()).toEqual([1, -2, 9]);
  }));

  it('writes through a view reach the base; versions are shared', () => scope(() => {
    const x = paddle.zeros([2, 3], 'float32') as Tensor;
    const row = paddle.slice(x, [0], [1], [2]) as Tensor;
    expect(x._version).toBe(0);
    row.set_item([0, 1], 5);
    expect(x.tolist()).toEqual([[0, 0, 0], [0, 5, 0]]);
    expect(x._version).toBe(1);
    expect(row._version).toBe(1);
    x.set_item(0, 1);
    expect(row._version).toBe(2);
  }));

  it('errors name the op and shapes', () => scope(() => {
    const x = paddle.zeros([4, 5], 'float32') as Tensor;
    expect(() => x.set_item('0:2', paddle.ones([3], 'float32'))).toThrow(/set_value_with_tensor: values of shape \[3\] cannot be broadcast to the assigned shape \[2, 5\] of x \[4, 5\]/);
    expect(() => x.set_item(4, 1)).toThrow(RangeError);
    expect(() => x.set_item(4, 1)).toThrow(/index 4 is out of bounds for axis 0 with size 4/);
    expect(() => x.set_item([0, 0, 0], 1)).toThrow(/too many indices/);
    expect(() => x.set_item('::0', 1)).toThrow(/step cannot be zero/);
    expect(x._version).toBe(0);
    expect(x.tolist()).toEqual(paddle.zeros([4, 5], 'float32').tolist());
  }));
});

describe('set_value kernel validation (native, before touching memory)', () => {
  const k = native.kernelId('set_value_with_tensor');
  const mk = (shape: number[], vals: number[]): number => native.fromBytes(0, shape, new Float32Array(vals));
  it('rejects bad attributes, out-of-range regions, overlapping outputs and bad values', () => {
    const x = mk([2, 3], [0, 1, 2, 3, 4, 5]), v = mk([3], [7, 8, 9]), v2 = mk([2], [7, 8]);
    const full = [0, 1, 2, 0, 0, 1, 3, 0, 0];
    try {
      expect(() => native.run(k, [x, v], [x], [0, 1, 2, 0])).toThrow(/set_value_with_tensor: expected at least 9 attributes for x \[2, 3\]/);
      expect(() => native.run(k, [x, v], [x], [1, 1, 2, 0, 0, 1, 3, 0, 0])).toThrow(/indices 1\.\.2 are out of range on axis 0 of x \[2, 3\]/);
      expect(() => native.run(k, [x, v], [x], [0, 0, 2, 0, 0, 1, 3, 0, 0])).toThrow(/step must not be 0 on axis 0/);
      expect(() => native.run(k, [x, v2], [x], full)).toThrow(/value of shape \[2\] cannot be broadcast to the assigned region \[2, 3\] of x \[2, 3\]/);
      const expanded = native.view(x, [2, 3], [0, 1], 0);
      expect(() => native.run(k, [expanded, v], [expanded], full)).toThrow(/stride 0/);
      native.release(expanded);
      const other = native.view(x, [2, 3], [3, 1], 0), t = native.view(x, [2, 3], [1, 2], 0);
      expect(() => native.run(k, [other, v], [t], full)).toThrow(/output shares x's storage but is a different view/);
      native.release(other); native.release(t);
      expect(new Float32Array(native.toBytes(x))).toEqual(new Float32Array([0, 1, 2, 3, 4, 5]));
      // A valid call through a strided output view: column 1 of x gets 7, 8.
      const col = native.view(x, [2], [3], 1);
      native.run(k, [col, v2], [col], [0, 1, 2, 0, 0]);
      native.release(col);
      expect(new Float32Array(native.toBytes(x))).toEqual(new Float32Array([0, 7, 2, 3, 8, 5]));
    } finally {
      native.release(x); native.release(v); native.release(v2);
    }
  });
});

const expectRound = (a: NDArray): NDArray => arrayOf(scope(() => tensorOf(a)) as Tensor);

// --- the generic inplace variants ----------------------------------------------------------
const ATTRS: Record<string, Record<string, unknown>> = { clip: { min: -0.5, max: 0.8 }, scale: { scale: 2, bias: 1 }, fill_diagonal: { value: 3, offset: 1 } };

describe('inplace variants', () => {
  const ops = allOps().filter((d) => d.inplace && d.name !== 'set_value_with_tensor');

  it('every inplace op has paddle.<name>_ and a Tensor method', () => {
    expect(ops.length).toBeGreaterThan(10);
    for (const d of ops) {
      const names = d.api?.names ?? [d.name];
      for (const n of names) expect(n.split('.').reduce((o: any, p) => o?.[p], paddle), `paddle.${n}_`).toBeDefined();
      for (const n of names) expect(typeof n.split('.').reduce((o: any, p) => o?.[p], paddle)).toBe('function');
      const methods = d.api?.methods ?? (d.api?.names ? [] : [d.name]);
      for (const m of methods) expect(typeof (Tensor.prototype as any)[`${m}_`], `Tensor.${m}_`).toBe('function');
    }
    expect(typeof paddle.add_).toBe('function');
    expect(typeof paddle.nn.functional.relu_).toBe('function');
  });

  // Kernel inplace ops only (one launch writing x); 'assign' and 'rebind' variants have their own
  // table in test/autograd/inplace_variants.test.ts; random ops (a rerun draws anew) are tested with their family.
  for (const def of allOps().filter((d) => d.inplace === true && !d.random && d.name !== 'set_value_with_tensor')) {
    it(`${def.name}_ matches ${def.name} (contiguous and strided x; returns x; views see it)`, () => scope(() => {
      const attrs = ATTRS[def.name] ?? {};
      for (const dt of ['float32', 'int32'] as DType[]) {
        const x0 = rand([3, 4], dt, 11, 0.5, 2.5), y0 = rand([4], dt, 12, 0.5, 2.5);
        const args = (x: Tensor): unknown[] => (def.inputs.length === 2 ? [x, tensorOf(y0), attrs] : [x, attrs]);
        let want: NDArray;
        try {
          want = arrayOf(callOp(def, args(tensorOf(x0))) as Tensor);
        } catch { continue; }  // the op does not take this dtype
        if (want.dtype !== x0.dtype) continue;
        for (const strided of [false, true]) {
          const x = tensorOf(x0, strided);
          const v = paddle.slice(x, [0], [1], [3]) as Tensor;
          const before = dispatchCounters.kernels;
          const r = callOp(def, args(x), true);
          expect(r).toBe(x);
          expect(dispatchCounters.kernels).toBe(before + 1);
          expectClose(arrayOf(x), want, `${def.name}_ ${dt}${strided ? ' strided' : ''}`);
          expect(v.tolist()).toEqual(arrayOf(x).data.length ? (x.tolist() as unknown[]).slice(1) : []);
          expect(x._version).toBe(1);
        }
        return;
      }
    }));
  }

  it('x.add_(y), relu_, scale_, clip_ as Tensor methods', () => scope(() => {
    const x = paddle.to_tensor([[-1, 2], [3, -4]], 'float32') as Tensor;
    expect(x.add_(paddle.to_tensor([1, 1], 'float32'))).toBe(x);
    expect(x.tolist()).toEqual([[0, 3], [4, -3]]);
    x.relu_();
    expect(x.tolist()).toEqual([[0, 3], [4, 0]]);
    x.scale_(2, 1);
    expect(x.tolist()).toEqual([[1, 7], [9, 1]]);
    x.clip_(2, 8);
    expect(x.tolist()).toEqual([[2, 7], [8, 2]]);
    x.multiply_(2);
    expect(x.tolist()).toEqual([[4, 14], [16, 4]]);
    paddle.nn.functional.relu_(paddle.scale_(x, -1));
    expect(x.tolist()).toEqual([[0, 0], [0, 0]]);
  }));

  it('an input sharing x storage is read before the write (a[1:] += a[:-1])', () => scope(() => {
    const a = paddle.to_tensor([1, 2, 3, 4, 5], 'float32') as Tensor;
    (paddle.slice(a, [0], [1], [5]) as Tensor).add_(paddle.slice(a, [0], [0], [4]));
    expect(a.tolist()).toEqual([1, 3, 5, 7, 9]);
    const b = paddle.to_tensor([1, 2, 3], 'float32') as Tensor;
    b.add_(b);
    expect(b.tolist()).toEqual([2, 4, 6]);
  }));

  it('errors: x cannot be broadcast up or change dtype', () => scope(() => {
    const x = paddle.to_tensor([1, 2], 'float32') as Tensor;
    expect(() => x.add_(paddle.ones([2, 2], 'float32'))).toThrow(/add_: the result has shape \[2, 2\] .* must keep x's shape \[2\]/);
    const i = paddle.to_tensor([1, 2], 'int64') as Tensor;
    expect(() => i.add_(1.5)).toThrow(/add_: the result dtype float32 differs from x's dtype int64/);
    expect(() => i.add_(paddle.ones([2], 'float64'))).toThrow(TypeError);
    expect(x._version).toBe(0);
    expect(i.tolist()).toEqual([1, 2]);
  }));

  it('while a static program is built the functional op is recorded and its value returned', () => {
    const prog = new Program();
    try {
      program_guard(prog, () => {
        const xv = data('x', [2, 3], 'float32');
        const y = paddle.add_(xv, xv);
        expect(y).not.toBe(xv);
        expect(String(prog)).toContain('pd_op.add');
      });
    } finally {
      prog.dispose();
    }
  });

  it('the op of an inplace variant exists for each flagged op', () => {
    expect(getOp('set_value_with_tensor').inplace).toBe(true);
  });
});
