// Views: which shape ops alias their input's storage, that chains of views read the right
// elements, that contiguous() copies only when it must, that memory returns to baseline once
// every view is disposed, and that infer rules carry symbolic dims.
import { describe, expect, it } from 'vitest';
import { native } from '../../src/native.js';
import { type Attrs, dispatchCounters, getOp, runOp } from '../../src/ops/index.js';
import { paddle } from '../../src/paddle.js';
import { to_tensor } from '../../src/tensor/creation.js';
import { type Dim, dimMul, dimStr, type Shape, sym } from '../../src/tensor/shape.js';
import { memoryStats, Tensor } from '../../src/tensor/tensor.js';

const P = paddle as Record<string, (...a: unknown[]) => Tensor>;
const same = (a: Tensor, b: Tensor): boolean => native.sameStorage(a.h(), b.h());
const run = (op: string, x: Tensor | Tensor[], attrs: Record<string, unknown> = {}): Tensor => runOp(op, Array.isArray(x) ? x : [x], attrs)[0] as Tensor;
/** 0, 1, 2, ... of `shape` (the arange it views is disposed, so only the returned handle is live). */
function iota(shape: number[], dtype = 'float32'): Tensor {
  const a = P.arange(0, shape.reduce((p, d) => p * d, 1), 1, dtype);
  const r = P.reshape(a, shape);
  a.dispose();
  return r;
}

/** Plain nested-array reference helpers. */
const range = (n: number): number[] => [...Array(n).keys()];

describe('shape ops alias their input', () => {
  const cases: [string, Record<string, unknown>, number[]][] = [
    ['reshape', { shape: [6, 4] }, [6, 4]],
    ['reshape', { shape: [0, -1] }, [2, 12]],
    ['transpose', { perm: [2, 0, 1] }, [4, 2, 3]],
    ['slice', { axes: [1], starts: [1], ends: [3] }, [2, 2, 4]],
    ['strided_slice', { axes: [2], starts: [0], ends: [4], strides: [2] }, [2, 3, 2]],
    ['squeeze', { axis: null }, [2, 3, 4]],
    ['unsqueeze', { axis: [0, -1] }, [1, 2, 3, 4, 1]],
    ['flatten', { start_axis: 1 }, [2, 12]],
    ['expand', { shape: [5, 2, 3, 4] }, [5, 2, 3, 4]],
    ['contiguous', {}, [2, 3, 4]],
  ];
  for (const [op, attrs, shape] of cases) {
    it(`${op} ${JSON.stringify(attrs)} is a view`, () => {
      const x = iota([2, 3, 4]);
      const before = { ...dispatchCounters };
      const y = run(op, x, attrs);
      expect(y.shape).toEqual(shape);
      expect(same(x, y)).toBe(true);
      expect(y._base).toBe(x._base ?? x);  // views point at the storage's root tensor
      expect(dispatchCounters.views - before.views).toBe(1);
      expect(dispatchCounters.kernels - before.kernels).toBe(0);
      x.dispose(); y.dispose();
    });
  }

  it('expand and broadcast_to use stride 0 on grown dims', () => {
    const x = to_tensor([[1], [2], [3]], 'float32');
    const y = P.broadcast_to(x, [2, 3, 4]);
    expect(same(x, y)).toBe(true);
    expect(y.strides).toEqual([0, 1, 0]);
    expect(y.tolist()).toEqual([0, 1].map(() => [1, 2, 3].map((v) => [v, v, v, v])));
  });

  it('views of 0-D and size-0 tensors', () => {
    const s = to_tensor(7, 'float32');
    for (const v of [P.reshape(s, [1, 1]), P.unsqueeze(s, 0), P.expand(s, [2, 3]), P.flatten(s), P.squeeze(P.reshape(s, [1]))]) {
      expect(same(s, v)).toBe(true);
      expect(v.dataSync().every((e) => e === 7)).toBe(true);
    }
    const x = iota([3, 4]);
    const e = P.slice(x, [0], [2], [2]);
    expect(e.shape).toEqual([0, 4]);
    expect(same(x, e)).toBe(true);
    for (const v of [P.reshape(e, [-1, 2]), P.transpose(e, [1, 0]), P.expand(P.unsqueeze(e, 0), [3, -1, 4]), P.flatten(e)]) {
      expect(same(x, v)).toBe(true);
      expect(v.size).toBe(0);
      expect(v.dataSync()).toEqual([]);
    }
  });

  it('copies when strides cannot express the result', () => {
    const x = iota([2, 3]);
    const t = P.transpose(x, [1, 0]);
    expect(t.is_contiguous).toBe(false);
    for (const y of [P.reshape(t, [6]), P.flatten(t), P.strided_slice(x, [1], [2], [-1], [-1]), t.contiguous()]) {
      expect(same(x, y)).toBe(false);
      expect(y.is_contiguous).toBe(true);
    }
    expect(P.reshape(t, [6]).tolist()).toEqual([0, 3, 1, 4, 2, 5]);
    expect(P.strided_slice(x, [1], [2], [-1], [-1]).tolist()).toEqual([[2, 1, 0], [5, 4, 3]]);
    // A slice of whole rows stays contiguous, so reshaping it is still a view.
    const rows = P.slice(iota([4, 3]), [0], [1], [3]);
    expect(same(rows, P.reshape(rows, [6]))).toBe(true);
    expect(P.reshape(rows, [6]).tolist()).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it('contiguous() aliases a contiguous tensor and copies a strided one', () => {
    const x = iota([3, 4]);
    const a = x.contiguous();
    expect(same(x, a)).toBe(true);
    const v = P.slice(x, [0], [1], [3]);  // contiguous rows at an offset
    expect(same(v, v.contiguous())).toBe(true);
    expect(v.contiguous().tolist()).toEqual([[4, 5, 6, 7], [8, 9, 10, 11]]);
    const t = P.transpose(x, [1, 0]);
    const c = t.contiguous();
    expect(same(t, c)).toBe(false);
    expect(c.strides).toEqual([3, 1]);
    expect(c.tolist()).toEqual(t.tolist());
    expect(c.tolist()).toEqual(range(4).map((j) => range(3).map((i) => i * 4 + j)));
  });

  it('transpose -> slice -> reshape reads the right elements and stays a view of the root', () => {
    const x = iota([4, 6]);                                  // x[i][j] = 6i + j
    const t = P.transpose(x, [1, 0]);                       // [6, 4]: t[j][i] = 6i + j
    const s = P.slice(t, [0, 1], [1, 0], [5, 2]);           // [4, 2]: s[a][b] = 6b + (a + 1)
    const r = P.reshape(s, [2, 2, 2]);                      // strides allow it: still a view
    for (const v of [t, s, r]) { expect(same(x, v)).toBe(true); expect(v._base).toBe(x._base ?? x); }
    const want = range(4).map((a) => range(2).map((b) => 6 * b + a + 1));
    expect(s.tolist()).toEqual(want);
    expect(r.tolist()).toEqual([[want[0], want[1]], [want[2], want[3]]]);
    const f = P.reshape(s, [-1]);                           // needs a copy: rows of s are not contiguous
    expect(same(x, f)).toBe(false);
    expect(f.tolist()).toEqual(want.flat());
    const u = P.unsqueeze(P.strided_slice(t, [0], [0], [6], [2]), 1);  // view of a view with a step
    expect(same(x, u)).toBe(true);
    expect(u.tolist()).toEqual([0, 2, 4].map((j) => [range(4).map((i) => 6 * i + j)]));
  });

  it('copy kernels read views in place (variadic and multi-output ops)', () => {
    const x = iota([3, 4]);
    const t = P.transpose(x, [1, 0]);                       // [4, 3]
    const rows = t.tolist() as number[][];
    expect(P.concat([t, t], 1).tolist()).toEqual(rows.map((row) => [...row, ...row]));
    expect(P.stack([t, P.slice(t, [0], [0], [4])], 0).tolist()).toEqual([t.tolist(), t.tolist()]);
    const parts = P.split(t, [1, -1], 1) as unknown as Tensor[];
    expect(parts.map((p) => p.tolist())).toEqual([rows.map((r) => [r[0]]), rows.map((r) => r.slice(1))]);
    expect(P.gather(t, to_tensor([3, 0], 'int64'), 0).tolist()).toEqual([[3, 7, 11], [0, 4, 8]]);
    expect(P.tile(t, [1, 2]).shape).toEqual([4, 6]);
    expect(paddle.nn.functional.pad(t, [1, 0, 0, 1], 'constant', -1).tolist()[0]).toEqual([-1, -1, -1, -1]);
  });

  it('a view keeps its storage alive after its base is disposed; memory returns to baseline', () => {
    const base = memoryStats();
    const x = iota([64, 64]);
    const t = P.transpose(x, [1, 0]);
    const s = P.slice(t, [0], [8], [16]);
    const flat = P.reshape(s, [-1]);                        // a copy
    const u = P.unsqueeze(x, 0);
    const e = P.expand(u, [4, -1, -1]);
    const c = e.contiguous();                               // a copy of 4 * 64 * 64
    const grown = memoryStats();
    expect(grown.liveTensors - base.liveTensors).toBe(7);
    expect(grown.liveBytes - base.liveBytes).toBe(4 * (64 * 64 + 8 * 64 + 4 * 64 * 64));
    x.dispose();
    expect(t.dataSync()[1]).toBe(64);                       // still readable through the view
    expect(memoryStats().liveBytes).toBe(grown.liveBytes);  // storage shared, so not freed yet
    for (const v of [t, s, u, e]) v.dispose();
    expect(memoryStats().liveBytes - base.liveBytes).toBe(4 * (8 * 64 + 4 * 64 * 64));
    flat.dispose(); c.dispose();
    const now = memoryStats();
    expect(now.liveTensors).toBe(base.liveTensors);
    expect(now.liveBytes).toBe(base.liveBytes);
  });

  it('every tensor made inside scope() is released, views included', () => {
    const base = memoryStats();
    paddle.scope(() => {
      const x = iota([32, 32]);
      const v = P.reshape(P.slice(P.transpose(x, [1, 0]), [0], [3], [9]), [-1]);
      v.contiguous();
      P.expand(P.unsqueeze(x, 0), [3, -1, -1]).contiguous();
      return null;
    });
    const now = memoryStats();
    expect(now.liveTensors).toBe(base.liveTensors);
    expect(now.liveBytes).toBe(base.liveBytes);
  });
});

describe('infer rules with symbolic dims', () => {
  const B = sym('B'), S = sym('S');
  const infer = (op: string, shapes: Shape[], attrs: Record<string, unknown>): string[][] =>
    getOp(op).infer(shapes.map((shape) => ({ dtype: 'float32' as const, shape })), { ...defaults(op), ...attrs } as Attrs).map((m) => m.shape.map((d: Dim) => dimStr(d)));
  const defaults = (op: string): Record<string, unknown> => Object.fromEntries(getOp(op).attrs.filter((a) => a.default !== undefined).map((a) => [a.name, a.default]));

  it('reshape cancels symbolic factors for -1', () => {
    expect(infer('reshape', [[B, 4]], { shape: [-1, 2] })).toEqual([['2*B', '2']]);
    expect(infer('reshape', [[B, S, 4]], { shape: [0, -1] })).toEqual([['B', '4*S']]);
    expect(infer('reshape', [[B, 3]], { shape: [-1, 2] })).toEqual([['(B*3)//2', '2']]);
    expect(infer('reshape', [[B, S]], { shape: [0, 0, 1] })).toEqual([['B', 'S', '1']]);
  });

  it('view ops carry symbols', () => {
    expect(infer('transpose', [[B, S, 3]], { perm: [1, 0, 2] })).toEqual([['S', 'B', '3']]);
    expect(infer('squeeze', [[B, 1, S]], {})).toEqual([['B', 'S']]);
    expect(infer('unsqueeze', [[B, S]], { axis: [1] })).toEqual([['B', '1', 'S']]);
    expect(infer('flatten', [[B, 3, 4]], { start_axis: 1 })).toEqual([['B', '12']]);
    expect(infer('flatten', [[B, S, 4]], {})).toEqual([[dimStr(dimMul(dimMul(B, S), 4))]]);
    expect(infer('expand', [[1, S]], { shape: [4, -1] })).toEqual([['4', 'S']]);
    expect(infer('expand', [[B, 1]], { shape: [2, -1, 5] })).toEqual([['2', 'B', '5']]);
  });

  it('slices of symbolic dims', () => {
    expect(infer('slice', [[B, S]], { axes: [1], starts: [1], ends: [2 ** 31 - 1] })).toEqual([['B', 'S-1']]);
    expect(infer('slice', [[B, S]], { axes: [1], starts: [0], ends: [2] })).toEqual([['B', '2']]);
    expect(infer('slice', [[B, S]], { axes: [1], starts: [-3], ends: [-1] })).toEqual([['B', '2']]);
    expect(infer('slice', [[B, S]], { axes: [0], starts: [0], ends: [-1] })).toEqual([['B-1', 'S']]);
    expect(infer('strided_slice', [[S]], { axes: [0], starts: [0], ends: [2 ** 31 - 1], strides: [2] })).toEqual([['(S+1)//2']]);
    expect(infer('strided_slice', [[S]], { axes: [0], starts: [-1], ends: [-1], strides: [-1] })).toEqual([['S']]);
    expect(() => infer('slice', [[S]], { axes: [0], starts: [-2], ends: [3] })).toThrow(/slice: cannot infer the length/);
  });

  it('joins, splits, gathers and pads', () => {
    expect(infer('concat', [[B, 3], [B, 5]], { axis: 1 })).toEqual([['B', '8']]);
    expect(infer('concat', [[B, 3], [S, 3]], { axis: 0 })).toEqual([['B+S', '3']]);
    expect(infer('stack', [[B, 3], [B, 3]], { axis: 1 })).toEqual([['B', '2', '3']]);
    expect(infer('split', [[B, 6]], { num_or_sections: [2, -1], axis: 1 })).toEqual([['B', '2'], ['B', '4']]);
    expect(infer('split', [[S, 6]], { num_or_sections: [2, -1] })).toEqual([['2', '6'], ['S-2', '6']]);
    expect(infer('split', [[B, 6]], { num_or_sections: 2 })).toEqual([['B//2', '6'], ['B//2', '6']]);
    expect(infer('tile', [[B, 3]], { repeat_times: [2, 2] })).toEqual([[dimStr(dimMul(B, 2)), '6']]);
    expect(infer('pad', [[B, 3]], { pad: [1, 2, 0, 0] })).toEqual([['B+3', '3']]);
    expect(getOp('gather').infer([{ dtype: 'float32', shape: [B, 4] }, { dtype: 'int64', shape: [S] }], { axis: 0 })[0].shape).toEqual([S, 4]);
    expect(getOp('index_select').infer([{ dtype: 'float32', shape: [B, 4] }, { dtype: 'int64', shape: [S] }], { axis: 1 })[0].shape).toEqual([B, S]);
    expect(infer('flip', [[B, S]], { axis: [0] })).toEqual([['B', 'S']]);
    expect(infer('tril', [[B, S, S]], {})).toEqual([['B', 'S', 'S']]);
    expect(() => infer('unbind', [[B, 3]], { axis: 0 })).toThrow(/unbind: .* must be static/);
  });
});
