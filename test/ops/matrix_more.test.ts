// The hand-bound public names of src/ops/defs/matrix_more_api.ts (Tensor.fill_diagonal_,
// atleast_1d/2d/3d, amp.debugging.check_numerics) and the inplace behaviour of addmm_, renorm_,
// t_ and fill_diagonal_tensor_ beyond the generic tables (op_db, inplace_variants, setitem).
import { describe, expect, it } from 'vitest';
import '../../src/autograd/index.js';
import { paddle } from '../../src/paddle.js';
import { Tensor } from '../../src/tensor/tensor.js';

const P = paddle as unknown as Record<string, any>;
const T = (v: unknown) => v as Tensor;

describe('Tensor.fill_diagonal_', () => {
  it('fills in place, with offset and wrap, and returns x', () => {
    const x = T(P.zeros([5, 3]));
    expect((x as any).fill_diagonal_(2, { wrap: true })).toBe(x);
    expect(x.tolist()).toEqual([[2, 0, 0], [0, 2, 0], [0, 0, 2], [0, 0, 0], [2, 0, 0]]);
    const y = T(P.zeros([2, 4], 'int64'));
    (y as any).fill_diagonal_(7, 1);
    expect(y.tolist()).toEqual([[0, 7, 0, 0], [0, 0, 7, 0]]);
    const b = T(P.zeros([2, 2], 'bool'));
    (b as any).fill_diagonal_(true);
    expect(b.tolist()).toEqual([[true, false], [false, true]]);
  });

  it('writes through a strided view into its base and bumps the version', () => {
    const base = T(P.zeros([3, 6]));
    const v = T(P.strided_slice(base, [1], [0], [6], [2]));
    const before = v._version;
    (v as any).fill_diagonal_(1);
    expect(v._version).toBeGreaterThan(before);
    expect(base.tolist()).toEqual([[1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0]]);
  });

  it('rejects bad inputs naming the op and leaves x untouched', () => {
    const x = T(P.ones([2, 3, 2]));
    expect(() => (x as any).fill_diagonal_(0)).toThrow(/fill_diagonal: Tensor dims should be equal while input dims > 2/);
    expect(() => (T(P.ones([3])) as any).fill_diagonal_(0)).toThrow(/fill_diagonal: Tensor dims should >= 2/);
    expect(() => (x as any).fill_diagonal_()).toThrow(/fill_diagonal_\(\) missing required argument 'value'/);
    expect(T(P.sum(x)).item()).toBe(12);
  });
});

describe('fill_diagonal_tensor(_)', () => {
  it('the functional form leaves x alone; the inplace one writes x', () => {
    const x = T(P.zeros([2, 3, 3]));
    const y = T(P.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32'));
    const out = T((x as any).fill_diagonal_tensor(y, { dim1: 1, dim2: 2 }));
    expect(T(P.sum(x)).item()).toBe(0);
    expect((x as any).fill_diagonal_tensor_(y, 0, 1, 2)).toBe(x);
    expect(x.tolist()).toEqual(out.tolist());
    expect((out.tolist() as number[][][])[1]).toEqual([[4, 0, 0], [0, 5, 0], [0, 0, 6]]);
  });
});

describe('addmm_, renorm_, t_', () => {
  it('addmm_ writes input; a result of another shape raises and leaves it untouched', () => {
    const inp = T(P.to_tensor([[1, 2]], 'float32'));
    const x = T(P.to_tensor([[1, 0], [0, 1]], 'float32'));
    expect(() => (inp as any).addmm_(x, x)).toThrow(/addmm_: the result has shape \[2, 2\].*must keep x's shape \[1, 2\]/);
    expect(inp.tolist()).toEqual([[1, 2]]);
    const c = T(P.to_tensor([[1, 2], [3, 4]], 'float32'));
    expect((c as any).addmm_(x, x, 2, 3)).toBe(c);
    expect(c.tolist()).toEqual([[5, 4], [6, 11]]);
  });

  it('renorm_ scales only the slices over max_norm', () => {
    const x = T(P.to_tensor([[3, 4], [0.3, 0.4]], 'float64'));
    P.renorm_(x, 2, 0, 1);
    const [a, b] = x.tolist() as number[][];
    expect(a[0]).toBeCloseTo(0.6, 6);
    expect(a[1]).toBeCloseTo(0.8, 6);
    expect(b).toEqual([0.3, 0.4]);
  });

  it('t is a view; t_ makes x the transposed view of the same storage', () => {
    const x = T(P.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32'));
    const v = T(P.t(x));
    x.set_item([0, 0], 9);
    expect((v.tolist() as number[][])[0][0]).toBe(9);
    const keep = T(P.slice(x, [0], [0], [1]));
    expect(x.t_()).toBe(x);
    expect(x.shape).toEqual([3, 2]);
    x.scale_(2);
    expect(keep.tolist()).toEqual([[18, 4, 6]]);
  });
});

describe('atleast_1d/2d/3d', () => {
  it('one input gives one tensor, several a list; Paddle 2.6 shapes', () => {
    expect(T(P.atleast_1d(P.to_tensor(2))).shape).toEqual([1]);
    expect(T(P.atleast_1d(5)).shape).toEqual([1]);
    const r = P.atleast_2d(P.to_tensor(1), P.to_tensor([1, 2, 3]), P.zeros([2, 2]), P.zeros([1, 2, 3])) as Tensor[];
    expect(r.map((t) => t.shape)).toEqual([[1, 1], [1, 3], [2, 2], [1, 2, 3]]);
    const s = P.atleast_3d(P.to_tensor(1), P.to_tensor([1, 2]), P.zeros([2, 3])) as Tensor[];
    expect(s.map((t) => t.shape)).toEqual([[1, 1, 1], [1, 2, 1], [2, 3, 1]]);
  });

  it('results are views of their inputs; higher ranks are returned as they are', () => {
    const x = T(P.zeros([3]));
    const y = T(P.atleast_2d(x));
    y.set_item([0, 1], 4);
    expect(x.tolist()).toEqual([0, 4, 0]);
    const z = T(P.zeros([2, 2, 2, 2]));
    expect(P.atleast_3d(z)).toBe(z);
    expect(() => P.atleast_1d(x, { axis: 1 })).toThrow(/atleast_1d\(\) got an unexpected keyword argument 'axis'/);
  });
});

describe('paddle.amp.debugging.check_numerics', () => {
  const dbg = P.amp.debugging;
  it('returns int64 counts and float32 max/min/mean', () => {
    const [stats, values] = dbg.check_numerics(P.to_tensor([1, 0, 3], 'float32'), 'pow', 'res') as Tensor[];
    expect(stats.dtype).toBe('int64');
    expect(stats.tolist()).toEqual([0, 0, 1]);
    expect(values.dtype).toBe('float32');
    expect(values.tolist()).toEqual([3, 0, Math.fround(4 / 3)]);
  });

  it('aborts on NaN/Inf in the abort modes only', () => {
    const bad = T(P.to_tensor([1, NaN, Infinity, 0], 'float32'));
    expect(() => dbg.check_numerics(bad, 'pow', 'res')).toThrow(/check_numerics: There are NaN or Inf in \[operator=pow, tensor=res.*num_nan=1, num_inf=1, num_zero=1/);
    expect(() => dbg.check_numerics(bad, 'pow', 'res', dbg.DebugMode.CHECK_ALL_AND_ABORT)).toThrow(/There are NaN or Inf/);
    const [stats] = dbg.check_numerics(bad, 'pow', 'res', dbg.DebugMode.CHECK_NAN_INF) as Tensor[];
    expect(stats.tolist()).toEqual([1, 1, 1]);
  });

  it('checks integer tensors away, naming the op', () => {
    expect(() => dbg.check_numerics(P.to_tensor([1, 2], 'int32'), 'x', 'y')).toThrow(/check_numerics: tensor must be a floating type, got int32/);
  });
});

it('Tensor.fill_diagonal_ is a Tensor method only (Paddle has no functional fill_diagonal)', () => {
  expect(P.fill_diagonal).toBeUndefined();
  expect(typeof (Tensor.prototype as any).fill_diagonal_).toBe('function');
});
