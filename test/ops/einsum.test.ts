// einsum (a composite of registry ops, src/ops/defs/einsum.ts) against a naive reference that
// loops over every assignment of the labels; multigammaln (a composite over lgamma); and the
// public inplace random fills of random_more.ts (paddle.uniform_ / normal_ / bernoulli_ /
// exponential_, Tensor methods) and nn.initializer.TruncatedNormal on truncated_gaussian_random.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { einsumPlan } from '../../src/ops/defs/einsum.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { rand, size, unravel, type NDArray } from './ref.js';
import { tensorOf } from './harness.js';
import { lgamma } from './db/unary_special.js';

const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown> & { nn: any };

/** Naive einsum: sum over all label values of the product of the operands' entries. */
function refEinsum(eq: string, xs: NDArray[]): NDArray {
  const plan = einsumPlan(eq, xs.map((x) => x.shape.length));
  const sizes = new Map<string, number>();
  plan.inputs.forEach((ls, k) => ls.forEach((l, d) => {
    const n = xs[k].shape[d];
    if (!sizes.has(l) || sizes.get(l) === 1) sizes.set(l, n);  // size 1 broadcasts
  }));
  const labels = [...sizes.keys()];
  const outShape = plan.output.map((l) => sizes.get(l)!);
  const out = new Array<number>(size(outShape)).fill(0);
  const total = size(labels.map((l) => sizes.get(l)!));
  for (let e = 0; e < total; e++) {
    const idx = unravel(e, labels.map((l) => sizes.get(l)!));
    const val = new Map(labels.map((l, i) => [l, idx[i]]));
    let p = 1;
    xs.forEach((x, k) => {
      let off = 0, mul = 1;
      for (let d = x.shape.length - 1; d >= 0; d--) {
        const v = x.shape[d] === 1 ? 0 : val.get(plan.inputs[k][d])!;
        off += v * mul;
        mul *= x.shape[d];
      }
      p *= x.data[off];
    });
    let o = 0, mul = 1;
    for (let d = outShape.length - 1; d >= 0; d--) { o += val.get(plan.output[d])! * mul; mul *= outShape[d]; }
    out[o] += p;
  }
  return { shape: outShape, data: out, dtype: 'float64' };
}

const CASES: [string, number[][]][] = [
  ['ij,jk->ik', [[2, 3], [3, 4]]],
  ['ij,jk', [[2, 3], [3, 4]]],
  ['ij->ji', [[2, 3]]],
  ['ij', [[2, 3]]],
  ['ji', [[2, 3]]],
  ['ii', [[3, 3]]],
  ['ii->i', [[3, 3]]],
  ['iji->j', [[2, 4, 2]]],
  ['i,i->', [[5], [5]]],
  ['i,j->ij', [[3], [4]]],
  ['bij,bjk->bik', [[2, 3, 4], [2, 4, 5]]],
  ['bij,bkj->bki', [[2, 3, 4], [2, 5, 4]]],
  ['...ij,...jk->...ik', [[2, 1, 2, 3], [4, 3, 2]]],
  ['...ij,...jk', [[3, 2, 3], [3, 2]]],
  ['i...->...', [[3, 2, 2]]],
  ['...i->i', [[2, 3, 4]]],
  ['ij,ij,ij->i', [[2, 3], [2, 3], [2, 3]]],
  ['ab,bc,cd->ad', [[2, 3], [3, 4], [4, 2]]],
  ['ij,kl->', [[2, 2], [3, 1]]],
  ['i,i', [[1], [4]]],
  ['ij,j->i', [[3, 1], [4]]],
  ['', [[]]],
  [',->', [[], []]],
  ['i,->i', [[3], []]],
  ['ij,jk->ik', [[0, 3], [3, 2]]],
  ['ij,jk->ik', [[2, 0], [0, 2]]],
  ['Ab,bA->A', [[2, 3], [3, 2]]],
];

describe('einsum', () => {
  for (const [eq, shapes] of CASES) {
    it(`'${eq}' on ${JSON.stringify(shapes)}`, () => {
      const xs = shapes.map((s, i) => rand(s, 'float64', 10 + i));
      const want = refEinsum(eq, xs);
      scope(() => {
        const got = P.einsum(eq, ...xs.map((x) => tensorOf(x))) as Tensor;
        expect([...got.shape]).toEqual(want.shape);
        const g = got.dataSync().map(Number);
        want.data.forEach((w, i) => expect(Math.abs(g[i] - w)).toBeLessThan(1e-10 + 1e-10 * Math.abs(w)));
      });
    });
  }

  it('accepts a list of operands, float32 and int64, and strided views', () => {
    scope(() => {
      const a = tensorOf(rand([3, 4], 'float32', 1), true), b = tensorOf(rand([4, 2], 'float32', 2));
      const got = P.einsum('ij,jk->ik', [a, b]) as Tensor;
      const want = paddle.matmul(a, b) as Tensor;
      expect(got.dtype).toBe('float32');
      got.dataSync().forEach((v, i) => expect(Number(v)).toBeCloseTo(Number(want.dataSync()[i]), 5));
      const i = paddle.to_tensor([[1, 2], [3, 4]], 'int64');
      const r = P.einsum('ij,jk->ik', i, i) as Tensor;
      expect(r.dtype).toBe('int64');
      expect(r.dataSync().map(Number)).toEqual([7, 10, 15, 22]);
      expect(Number((P.einsum('ii', i) as Tensor).item())).toBe(5);
    });
  });

  it('rejects bad equations and operands with errors naming einsum', () => {
    scope(() => {
      const x = paddle.ones([2, 3]), y = paddle.ones([3, 3]);
      const bad: [() => unknown, RegExp][] = [
        [() => P.einsum('ij,jk', x), /einsum: equation 'ij,jk' has 2 input terms but 1 operand was given/],
        [() => P.einsum('ijk', x), /einsum: term 'ijk' has 3 labels but operand 0 has rank 2/],
        [() => P.einsum('i', x), /einsum: term 'i' has 1 labels but operand 0 has rank 2/],
        [() => P.einsum('i1', x), /einsum: invalid character '1'/],
        [() => P.einsum('ij->k', x), /einsum: output label 'k' .* does not appear in any input term/],
        [() => P.einsum('ij->ii', x), /einsum: output term 'ii' .* repeats a label/],
        [() => P.einsum('...i...', x), /einsum: more than one '\.\.\.'/],
        [() => P.einsum('ij->j->i', x), /einsum: more than one '->'/],
        [() => P.einsum('ij,ij', x, y), /einsum: label 'i' has size 2 in one operand and 3 in another/],
        [() => P.einsum('ii', x), /einsum: label 'i' repeats over dims of sizes 2 and 3/],
        [() => P.einsum('ij,jk', x, paddle.ones([3, 3], 'float64')), /einsum: all operands must have the same dtype/],
        [() => P.einsum('ij'), /einsum: at least one operand is required/],
      ];
      for (const [f, re] of bad) expect(f).toThrow(re);
    });
  });

  it('records into a static program', () => {
    paddle.enable_static();
    try {
      const main = new paddle.static.Program();
      const y = paddle.static.program_guard(main, () => {
        const x = paddle.static.data('x', [2, 3], 'float32');
        return P.einsum('ij,kj->ik', x, x);
      });
      const xv = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32');
      const [out] = new paddle.static.Executor().run(main, { feed: { x: xv }, fetch_list: [y] }) as Tensor[];
      expect(out.dataSync().map(Number)).toEqual([14, 32, 32, 77]);
    } finally {
      paddle.disable_static();
    }
  });
});

describe('multigammaln', () => {
  it('is sum_i lgamma(x - i/2) + p(p-1)/4 log(pi)', () => {
    scope(() => {
      const xs = [1.2, 2.5, 7.3];
      for (const p of [1, 2, 4]) {
        const got = (P.multigammaln(paddle.to_tensor(xs, 'float64'), p) as Tensor).dataSync().map(Number);
        xs.forEach((x, k) => {
          let want = 0.25 * p * (p - 1) * Math.log(Math.PI);
          for (let i = 0; i < p; i++) want += lgamma(x - i / 2);
          expect(Math.abs(got[k] - want)).toBeLessThan(1e-9 * Math.max(1, Math.abs(want)));
        });
      }
      const t = paddle.to_tensor([[3.0, 4.0]], 'float32') as Tensor & { multigammaln(p: number): Tensor };
      expect([...t.multigammaln(2).shape]).toEqual([1, 2]);
    });
  });
  it('validates p and the dtype', () => {
    const x = paddle.to_tensor([3.0]);
    expect(() => P.multigammaln(x, 0)).toThrow(/multigammaln: p must be an integer >= 1, got 0/);
    expect(() => P.multigammaln(paddle.to_tensor([3], 'int64'), 2)).toThrow(/multigammaln: expected a floating-point input, got int64/);
  });
});

describe('inplace random fills', () => {
  it('write into x, keep shape and dtype, and return x', () => {
    scope(() => {
      const x = paddle.zeros([1000], 'float64') as Tensor & Record<string, (...a: unknown[]) => Tensor>;
      expect(x.uniform_(2, 3)).toBe(x);
      expect(x.dataSync().every((v) => Number(v) >= 2 && Number(v) < 3)).toBe(true);
      expect(P.normal_(x, 5, 0.1)).toBe(x);
      expect(Math.abs(Array.from(x.dataSync() as ArrayLike<number>, Number).reduce((a, b) => a + b, 0) / 1000 - 5)).toBeLessThan(0.05);
      x.bernoulli_(0.5);
      expect(x.dataSync().every((v) => Number(v) === 0 || Number(v) === 1)).toBe(true);
      x.exponential_(4);
      expect(x.dataSync().every((v) => Number(v) >= 0)).toBe(true);
      expect(x.dtype).toBe('float64');
      expect([...x.shape]).toEqual([1000]);
      // A strided x is written through (via a temporary copied back).
      const base = paddle.zeros([4, 6]) as Tensor;
      const view = paddle.transpose(base, [1, 0]) as Tensor & Record<string, (...a: unknown[]) => Tensor>;
      view.uniform_(1, 2);
      expect(base.dataSync().every((v) => Number(v) >= 1 && Number(v) < 2)).toBe(true);
    });
  });
  it('validate their arguments', () => {
    const x = paddle.zeros([3]) as Tensor & Record<string, (...a: unknown[]) => Tensor>;
    expect(() => x.exponential_(0)).toThrow(/exponential: lam must be > 0/);
    expect(() => x.bernoulli_(2)).toThrow(/bernoulli_inplace: p must be in \[0, 1\]/);
    expect(() => x.uniform_(1, 0)).toThrow(/uniform_inplace: min must be less than max/);
    expect(() => P.normal_(x, 0, -1)).toThrow(/gaussian_inplace: std must be >= 0/);
    expect(() => P.uniform_(x, { low: 1 })).toThrow(/uniform_\(\) got an unexpected keyword argument 'low'/);
    expect(() => (paddle.zeros([2], 'int32') as any).uniform_()).toThrow(/uniform_inplace: expected a float/);
  });
});

describe('nn.initializer.TruncatedNormal', () => {
  it('draws inside mean +- 2 std by default, with the truncated variance', () => {
    scope(() => {
      const init = new P.nn.initializer.TruncatedNormal(1, 3);
      const t = init.make([20000], 'float32') as Tensor;
      const v: number[] = Array.from(t.dataSync() as ArrayLike<number>, Number);
      expect(v.every((x) => x >= 1 - 6 && x <= 1 + 6)).toBe(true);
      const m = v.reduce((a, b) => a + b, 0) / v.length;
      const s2 = v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length;
      // Var of N(0,1) truncated to [-2, 2]: 1 - 4 phi(2) / (2 Phi(2) - 1) = 0.7737.
      expect(Math.abs(m - 1)).toBeLessThan(0.1);
      expect(Math.abs(s2 / 9 - 0.7737)).toBeLessThan(0.03);
    });
  });
});
