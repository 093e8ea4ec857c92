// paddle.linalg.pca_lowrank / cond / matrix norms (src/ops/defs/linalg_decomp_api.ts), and the
// decomposition kernels on non-finite input (no crash, no hang).
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const P = paddle as unknown as Record<string, any>;
const vals = (t: unknown) => Array.from((t as Tensor).dataSync() as ArrayLike<number>).map(Number);
const fro = (t: unknown) => Math.hypot(...vals(t));

describe('linalg composites', () => {
  it('pca_lowrank reconstructs centered low-rank data (tall, wide, batched)', () => {
    P.seed(11);
    for (const [lead, m, n, q] of [[[], 40, 6, 2], [[], 5, 30, 3], [[3], 20, 7, 2]] as [number[], number, number, number][]) {
      const x = P.matmul(P.randn([...lead, m, q], 'float64'), P.randn([...lead, q, n], 'float64'));
      const [U, S, V] = P.linalg.pca_lowrank(x, q) as Tensor[];
      expect([U.shape, S.shape, V.shape]).toEqual([[...lead, m, q], [...lead, q], [...lead, n, q]]);
      const xc = P.subtract(x, P.mean(x, [-2], true));
      const rec = P.matmul(P.multiply(U, P.unsqueeze(S, [-2])), V, false, true);
      expect(fro(P.subtract(rec, xc)) / fro(xc)).toBeLessThan(1e-8);
    }
    const x = P.randn([10, 4], 'float64');
    expect((P.linalg.pca_lowrank(x) as Tensor[])[1].shape).toEqual([4]);  // q = min(6, M, N)
    expect(() => P.linalg.pca_lowrank(x, 5)).toThrow(/pca_lowrank: q must be an int in \[0, min\(M, N\)\] = \[0, 4\]/);
    expect(() => P.linalg.pca_lowrank(P.randn([4]))).toThrow(/pca_lowrank: expected x of rank >= 2/);
  });

  it('cond in every norm', () => {
    const m = P.to_tensor([[1, 2], [3, 4]], 'float64');
    const want: [unknown, number][] = [[null, 14.933034373659268], [2, 14.933034373659268], [-2, 0.06696562634074717], ['fro', 15], ['nuc', 17], [Infinity, 21], [-Infinity, 6], [1, 21], [-1, 6]];
    for (const [p, v] of want) expect(vals(p === null ? P.linalg.cond(m) : P.linalg.cond(m, p))[0]).toBeCloseTo(v, 8);
    expect(P.linalg.cond(P.randn([3, 4, 4])).shape).toEqual([3]);
    expect(() => P.linalg.cond(P.randn([2, 3]), 'fro')).toThrow(/cond: p=fro needs square matrices/);
    expect(() => P.linalg.cond(m, 3)).toThrow(/cond: p must be None, 2, -2/);
  });

  it('non-finite input gives non-finite output, not a crash', () => {
    const x = P.to_tensor([[NaN, 1], [2, Infinity]], 'float64');
    for (const f of [() => P.linalg.svd(x), () => P.linalg.qr(x), () => P.linalg.eigh(x), () => P.linalg.pinv(x), () => P.linalg.matrix_rank(x)]) expect(f).not.toThrow();
  });
});
