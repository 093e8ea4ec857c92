// Public surface of the issue-6 op families: names, Tensor methods, scalar arguments and the
// hand-written quantile binding.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';

const vals = (t: { dataSync(): ArrayLike<number | bigint> }): number[] => Array.from(t.dataSync(), Number);

describe('issue 6 ops: public API', () => {
  it('unary special functions are paddle.<name> and Tensor methods; activations live in nn.functional', () => {
    const x = paddle.to_tensor([0.5, 1, 2], 'float32');
    expect(vals(paddle.expm1(x))[1]).toBeCloseTo(Math.E - 1, 5);
    expect(vals(x.log2())).toEqual([-1, 0, 1]);
    expect(vals(paddle.nn.functional.leaky_relu(paddle.to_tensor([-1, 2], 'float32'), 0.1))).toEqual([Math.fround(-0.1), 2]);
    expect(vals(paddle.nn.functional.hardtanh(paddle.to_tensor([-3, 0.5, 3], 'float32'), { min: -2, max: 2 }))).toEqual([-2, 0.5, 2]);
    expect(vals(paddle.nan_to_num(paddle.to_tensor([NaN, Infinity], 'float16'), { nan: 1 }))).toEqual([1, 65504]);
  });
  it('binary ops promote scalars; lerp takes a number weight; masked_fill a number value', () => {
    const x = paddle.to_tensor([1, 2, 3], 'float32'), y = paddle.to_tensor([3, 2, 1], 'float32');
    expect(vals(paddle.lerp(x, y, 0.5))).toEqual([2, 2, 2]);
    expect(vals(paddle.fmax(x, 2))).toEqual([2, 2, 3]);
    const mask = paddle.to_tensor([true, false, true]);
    expect(vals(paddle.masked_fill(x, mask, -1))).toEqual([-1, 2, -1]);
    expect(vals(x.masked_fill(mask, 7.5))).toEqual([7.5, 2, 7.5]);
    const c = paddle.allclose(x, paddle.to_tensor([1, 2, 3.00001], 'float32'));
    expect(c.shape).toEqual([]);
    expect(c.dtype).toBe('bool');
    expect(vals(paddle.gcd(paddle.to_tensor([12, 18], 'int32'), paddle.to_tensor([18, -12], 'int32')))).toEqual([6, 6]);
    expect(vals(paddle.bitwise_left_shift(paddle.to_tensor([1, 2], 'int32'), paddle.to_tensor([3, 1], 'int32')))).toEqual([8, 4]);
  });
  it('scans return values and indices; quantile takes a number or a list', () => {
    const x = paddle.to_tensor([[1, 3, 2], [0, -1, 5]], 'float32');
    const [v, i] = paddle.cummax(x, 1);
    expect(vals(v)).toEqual([1, 3, 3, 0, 0, 5]);
    expect(vals(i)).toEqual([0, 1, 1, 0, 0, 2]);
    expect(vals(paddle.cumprod(x, 1))).toEqual([1, 3, 6, 0, -0, -0]);
    const q = paddle.quantile(x, 0.5, 1);
    expect(q.shape).toEqual([2]);
    expect(vals(q)).toEqual([2, 0]);
    expect(paddle.quantile(x, [0.25, 0.5]).shape).toEqual([2]);
    expect(paddle.quantile(x, [0.25, 0.5], 1, true).shape).toEqual([2, 2, 1]);
    expect(vals(paddle.median(x))).toEqual([1.5]);
    expect(vals(x.quantile(0.5, 1))).toEqual([2, 0]);
    expect(vals(x.norm(1, 1))).toEqual([6, 6]);
    expect(paddle.nanmedian(x).shape).toEqual([]);
    expect(paddle.nanmedian(x, 0, true).shape).toEqual([1, 3]);
    const [mv, mi] = paddle.mode(paddle.to_tensor([1, 2, 2, 1], 'int32'));
    expect([vals(mv)[0], vals(mi)[0]]).toEqual([1, 3]);
    expect(vals(paddle.amax(x, 1))).toEqual([3, 5]);
    expect(vals(paddle.count_nonzero(x))).toEqual([5]);
  });
  it('inplace variants write into x and return it', () => {
    const x = paddle.to_tensor([0.25, 0.5], 'float32');
    expect(x.tan_()).toBe(x);
    expect(vals(x)[1]).toBeCloseTo(Math.tan(0.5), 6);
    const y = paddle.to_tensor([-1, 2], 'float32');
    paddle.nn.functional.leaky_relu_(y, 0.5);
    expect(vals(y)).toEqual([-0.5, 2]);
    const z = paddle.to_tensor([1, 2, 3], 'float32');
    z.masked_fill_(paddle.to_tensor([false, true, false]), 9);
    z.lerp_(paddle.to_tensor([3, 3, 3], 'float32'), 0.5);
    expect(vals(z)).toEqual([2, 6, 3]);
    const g = paddle.to_tensor([12, 18], 'int64');
    paddle.gcd_(g, paddle.to_tensor([8, 12], 'int64'));
    expect(vals(g)).toEqual([4, 6]);
    expect(() => paddle.ldexp_(paddle.to_tensor([1, 2], 'int32'), paddle.to_tensor([1, 1], 'int32'))).toThrow(/ldexp_/);
  });
});
