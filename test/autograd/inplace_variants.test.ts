// Inplace variants that are not one kernel writing over x (OpDef.inplace 'assign' | 'rebind'),
// one record per op: the result equals the functional op's, x is returned (same object) with its
// version bumped, a strided view writes through to its base, and gradients through the inplace
// call equal gradients through the functional call.
import { describe, expect, it } from 'vitest';
import '../../src/autograd/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown) => v as Tensor;
const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const F = (paddle as unknown as { nn: { functional: Record<string, (...a: unknown[]) => unknown> } }).nn.functional;

interface Case {
  name: string;
  /** The functional and inplace calls on x. */
  fn: (x: Tensor) => unknown;
  inplace: (x: Tensor) => unknown;
  shape?: number[];
  /** Values in [lo, hi). */
  lo?: number; hi?: number;
  /** The op is differentiable (compare the gradients). */
  grad?: boolean;
}

const other = (shape: number[]) => T(paddle.to_tensor(values(shape, 0.5, 1.5, 7), 'float64'));
function values(shape: number[], lo: number, hi: number, seed = 1): number[][] {
  let s = seed;
  const r = () => { s = (s * 16807) % 2147483647; return lo + (hi - lo) * (s / 2147483647); };
  return Array.from({ length: shape[0] }, () => Array.from({ length: shape[1] }, r));
}

const assign: Case[] = [
  { name: 'sigmoid_', fn: (x) => F.sigmoid(x), inplace: (x) => F.sigmoid_(x), grad: true },
  { name: 'sinc_', fn: (x) => P.sinc(x), inplace: (x) => x.sinc_(), grad: true },
  { name: 'pow_', fn: (x) => P.pow(x, 3), inplace: (x) => x.pow_(3), grad: true, lo: 0.5, hi: 2 },
  { name: 'pow_ (tensor exponent)', fn: (x) => P.pow(x, other([3, 4])), inplace: (x) => P.pow_(x, other([3, 4])), grad: true, lo: 0.5, hi: 2 },
  { name: 'cumsum_', fn: (x) => P.cumsum(x, 1), inplace: (x) => x.cumsum_(1), grad: true },
  { name: 'cumprod_', fn: (x) => P.cumprod(x, 0), inplace: (x) => P.cumprod_(x, 0), grad: true, lo: 0.5, hi: 2 },
  { name: 'tril_', fn: (x) => P.tril(x), inplace: (x) => x.tril_(), grad: true },
  { name: 'triu_', fn: (x) => P.triu(x, 1), inplace: (x) => P.triu_(x, 1), grad: true },
  { name: 'softmax_', fn: (x) => F.softmax(x, 0), inplace: (x) => F.softmax_(x, 0), grad: true },
  { name: 'addmm_', fn: (x) => P.addmm(x, other([3, 5]), other([5, 4]), 0.5, 2), inplace: (x) => x.addmm_(other([3, 5]), other([5, 4]), 0.5, 2), grad: true },
  { name: 'addmm_ (function, keywords)', fn: (x) => P.addmm(x, other([3, 2]), other([2, 4]), { alpha: -1 }), inplace: (x) => P.addmm_(x, other([3, 2]), other([2, 4]), { alpha: -1 }), grad: true },
  { name: 'renorm_', fn: (x) => P.renorm(x, 2, 0, 0.5), inplace: (x) => x.renorm_(2, 0, 0.5), grad: true },
  { name: 'multigammaln_ (composite)', fn: (x) => P.multigammaln(x, 3), inplace: (x) => x.multigammaln_(3), grad: true, lo: 1.5, hi: 4 },
  { name: 'multigammaln_ (function)', fn: (x) => P.multigammaln(x, 1), inplace: (x) => P.multigammaln_(x, 1), grad: true, lo: 0.5, hi: 3 },
  { name: 'renorm_ (axis 1, p 1)', fn: (x) => P.renorm(x, 1, 1, 0.7), inplace: (x) => P.renorm_(x, 1, 1, 0.7), grad: true },
  {
    name: 'where_ (writes x, input 1)',
    fn: (x) => P.where(P.greater_than(x, P.full([], 0, 'float64')), x, other([3, 4])),
    inplace: (x) => P.where_(P.greater_than(x, P.full([], 0, 'float64')), x, other([3, 4])),
    grad: true,
  },
];

const rebind: Case[] = [
  { name: 'equal_', fn: (x) => P.equal(x, P.full([], 0.25, 'float64')), inplace: (x) => x.equal_(P.full([], 0.25, 'float64')) },
  { name: 'less_than_', fn: (x) => P.less_than(x, other([3, 4])), inplace: (x) => P.less_than_(x, other([3, 4])) },
  { name: 'greater_equal_', fn: (x) => P.greater_equal(x, other([3, 4])), inplace: (x) => x.greater_equal_(other([3, 4])) },
  { name: 'logical_and_', fn: (x) => P.logical_and(x, other([3, 4])), inplace: (x) => P.logical_and_(x, other([3, 4])) },
  { name: 'logical_not_', fn: (x) => P.logical_not(x), inplace: (x) => x.logical_not_() },
  { name: 'reshape_', fn: (x) => P.reshape(x, [2, 6]), inplace: (x) => x.reshape_([2, 6]), grad: true },
  { name: 'transpose_', fn: (x) => P.transpose(x, [1, 0]), inplace: (x) => P.transpose_(x, [1, 0]), grad: true },
  { name: 'unsqueeze_', fn: (x) => P.unsqueeze(x, 1), inplace: (x) => x.unsqueeze_(1), grad: true },
  { name: 'flatten_', fn: (x) => P.flatten(x), inplace: (x) => P.flatten_(x), grad: true },
  { name: 'squeeze_', fn: (x) => P.squeeze(x, 0), inplace: (x) => x.squeeze_(0), grad: true, shape: [1, 4] },
  { name: 't_', fn: (x) => P.t(x), inplace: (x) => x.t_(), grad: true },
  { name: 't_ (function)', fn: (x) => P.t(x), inplace: (x) => P.t_(x), grad: true },
];

function start(c: Case, seed: number): { w: Tensor; x: Tensor } {
  const shape = c.shape ?? [3, 4];
  const w = T(paddle.to_tensor(values(shape, c.lo ?? -1, c.hi ?? 1, seed), 'float64'));
  w.stop_gradient = false;
  return { w, x: T(paddle.scale(w, 1)) };   // a non-leaf: leaves that want gradients cannot be written
}

function gradOf(c: Case, call: (x: Tensor) => unknown): number[] {
  const { w, x } = start(c, 3);
  const y = T(call(x));
  const r = T(paddle.to_tensor(values([1, y.size], -1, 1, 11)[0], 'float64'));
  T(paddle.sum(paddle.multiply(paddle.reshape(y, [-1]), r))).backward();
  return (w.grad!.tolist() as number[][]).flat();
}

describe.each([...assign.map((c) => ['assign', c] as const), ...rebind.map((c) => ['rebind', c] as const)])('%s %s', (_kind, c) => {
  it('equals the functional op, returns x and bumps its version', () => {
    const want = T(c.fn(start(c, 3).x));
    const { x } = start(c, 3);
    const v = x._version;
    const got = T(c.inplace(x));
    expect(got).toBe(x);
    expect(x._version).toBeGreaterThan(v);
    expect(x.dtype).toBe(want.dtype);
    expect(x.shape).toEqual(want.shape);
    expect(x.tolist()).toEqual(want.tolist());
  });

  if (c.grad) {
    it('gradients through the inplace call equal the functional ones', () => {
      const want = gradOf(c, c.fn);
      const got = gradOf(c, c.inplace);
      got.forEach((g, i) => expect(g).toBeCloseTo(want[i], 10));
    });
  }
});

describe.each(assign.map((c) => [c.name, c] as const))('%s on a strided view', (_n, c) => {
  it('writes through to the base; the rest of the base is untouched', () => {
    const base = T(paddle.to_tensor(values([3, 8], c.lo ?? -1, c.hi ?? 1, 5), 'float64'));
    const before = base.tolist() as number[][];
    const x = T(paddle.strided_slice(base, [1], [0], [8], [2]));
    const want = (T(c.fn(T(paddle.scale(x, 1)))).tolist() as number[][]);
    c.inplace(x);
    const after = base.tolist() as number[][];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 8; j++) {
      if (j % 2 === 0) expect(after[i][j]).toBeCloseTo(want[i][j / 2], 12);
      else expect(after[i][j]).toBe(before[i][j]);
    }
  });
});

describe('rebinding inplace variants', () => {
  it('reshape_ keeps sharing storage with the views of x', () => {
    const x = T(paddle.arange(0, 6, 1, 'float32'));
    const v = T(paddle.slice(x, [0], [0], [2]));
    x.reshape_([2, 3]);
    x.scale_(2);
    expect(v.tolist()).toEqual([0, 2]);
    expect(x.shape).toEqual([2, 3]);
  });

  it('a leaf that wants gradients cannot be rebound or assigned either', () => {
    const w = T(paddle.to_tensor([1, 2], 'float64'));
    w.stop_gradient = false;
    expect(() => w.reshape_([2, 1])).toThrow(/reshape_: Leaf Var .* can't use inplace strategy/);
    expect(() => w.cumsum_(0)).toThrow(/cumsum_: Leaf Var .* can't use inplace strategy/);
  });

  it('under no_grad a leaf that wants gradients may be written, as by kernel inplace ops', () => {
    const w = T(paddle.to_tensor([1, 2], 'float64'));
    w.stop_gradient = false;
    (paddle as unknown as { no_grad: (f: () => void) => void }).no_grad(() => { w.cumsum_(0); w.scale_(2); });
    expect(w.tolist()).toEqual([2, 6]);
  });

  it('an assign variant whose result changes shape raises and leaves x untouched', () => {
    const x = T(paddle.to_tensor([[1, 2], [3, 4]], 'float32'));
    expect(() => x.cumsum_()).toThrow(/cumsum_: the result has shape \[4\].*must keep x's shape \[2, 2\]/);
    expect(x.tolist()).toEqual([[1, 2], [3, 4]]);
  });
});
