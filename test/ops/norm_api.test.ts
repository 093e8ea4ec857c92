// paddle.linalg.norm / paddle.norm pick p_norm or frobenius_norm as Paddle 2.6's Python function does.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';

const x = () => paddle.to_tensor([[3, -4, 0], [1, 2, -2]], 'float32');
const vals = (t: { dataSync(): ArrayLike<number | bigint> }): number[] => Array.from(t.dataSync(), Number);

describe('paddle.linalg.norm', () => {
  it('defaults to the Frobenius norm of every element', () => {
    const r = paddle.linalg.norm(x());
    expect(r.shape).toEqual([]);
    expect(vals(r)[0]).toBeCloseTo(Math.sqrt(9 + 16 + 1 + 4 + 4), 5);
    expect(paddle.norm).toBe(paddle.linalg.norm);
  });
  it('vector norms along an axis, keepdim, inf and 0 orders', () => {
    expect(vals(paddle.linalg.norm(x(), 2, 1))).toEqual([5, 3]);
    expect(paddle.linalg.norm(x(), { p: 1, axis: -1, keepdim: true }).shape).toEqual([2, 1]);
    expect(vals(paddle.linalg.norm(x(), 1, 0))).toEqual([4, 6, 2]);
    expect(vals(paddle.linalg.norm(x(), Infinity))).toEqual([4]);
    expect(vals(paddle.linalg.norm(x(), -Infinity, 1))).toEqual([0, 1]);
    expect(vals(paddle.linalg.norm(x(), 0))).toEqual([5]);
    expect(vals(paddle.linalg.norm(x(), 'fro', [0, 1]))[0]).toBeCloseTo(Math.sqrt(34), 5);
  });
  it('matrix norms over two axes (svd and abs sums, linalg_decomp_api.ts)', () => {
    expect(vals(paddle.linalg.norm(x(), 2, [0, 1]))[0]).toBeCloseTo(5.1413988, 5);
    expect(vals(paddle.linalg.norm(x(), 'nuc', [0, 1]))[0]).toBeCloseTo(7.8920385, 5);
    expect(vals(paddle.linalg.norm(x(), 1, [0, 1]))).toEqual([6]);
    expect(vals(paddle.linalg.norm(x(), -Infinity, [0, 1]))).toEqual([5]);
    expect(paddle.linalg.norm(x(), 2, [1, 0], true).shape).toEqual([1, 1]);
  });
  it('rejects bad matrix norms and bad arguments naming norm', () => {
    expect(() => paddle.linalg.norm(x(), 3, [0, 1])).toThrow(/norm: matrix norms take p in/);
    expect(() => paddle.linalg.norm(x(), 'nuc')).toThrow(/norm: p must be/);
    expect(() => paddle.linalg.norm(x(), 2, 'a')).toThrow(/norm: axis must be/);
  });
});
