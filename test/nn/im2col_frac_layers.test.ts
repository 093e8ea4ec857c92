// TypeScript surface of the issue-6 NN additions: nn.Unfold / nn.Fold, nn.FractionalMaxPool2D/3D,
// F.scaled_dot_product_attention's dropout path, F.rms_norm and incubate fused_rms_norm.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';

const F = paddle.nn.functional;
const maxDiff = (a: Tensor, b: Tensor) => (paddle.max(paddle.abs(paddle.subtract(a, b))) as Tensor).item() as number;

describe('issue-6 NN layers and hand-bound functions (TS)', () => {
  it('Unfold then Fold with disjoint blocks gives the image back', () => scope(() => {
    const img = paddle.rand([2, 3, 6, 4]) as Tensor;
    const cols = new paddle.nn.Unfold([2, 2], 1, 0, 2).call(img) as Tensor;
    expect(cols.shape).toEqual([2, 12, 6]);
    expect(maxDiff(new paddle.nn.Fold([6, 4], 2, 1, 0, 2).call(cols) as Tensor, img)).toBe(0);
    expect(String(new paddle.nn.Unfold(3))).toContain('kernel_size=3');
  }));

  it('FractionalMaxPool2D returns the mask on request and is reproducible under paddle.seed', () => scope(() => {
    const x = paddle.rand([1, 2, 9, 9]) as Tensor;
    const [out, mask] = new paddle.nn.FractionalMaxPool2D(4, null, 0.3, true).call(x) as Tensor[];
    expect(out.shape).toEqual([1, 2, 4, 4]);
    expect(mask.dtype).toBe('int32');
    paddle.seed(5);
    const a = F.fractional_max_pool2d(x, [4, null]) as Tensor;
    paddle.seed(5);
    expect(maxDiff(F.fractional_max_pool2d(x, [4, null]) as Tensor, a)).toBe(0);
    expect(a.shape).toEqual([1, 2, 4, 9]);
    expect((new paddle.nn.FractionalMaxPool3D([2, 2, 2]).call(paddle.rand([1, 1, 4, 5, 6])) as Tensor).shape).toEqual([1, 1, 2, 2, 2]);
  }));

  it('scaled_dot_product_attention: dropout in training runs the unfused ops; eval ignores it', () => scope(() => {
    const q = paddle.rand([2, 5, 2, 4]) as Tensor;
    const ref = F.scaled_dot_product_attention(q, q, q) as Tensor;
    expect(maxDiff(F.scaled_dot_product_attention(q, q, q, null, 0.5, false, false) as Tensor, ref)).toBe(0);
    const d = F.scaled_dot_product_attention(q, q, q, null, 0.5, false, true) as Tensor;
    expect(d.shape).toEqual([2, 5, 2, 4]);
    expect(() => F.scaled_dot_product_attention(q, q, paddle.rand([2, 5, 3, 4]), null, 0.5)).toThrow(/scaled_dot_product_attention: shapes do not match/);
  }));

  it('rms_norm and fused_rms_norm', () => scope(() => {
    const x = paddle.rand([3, 4]) as Tensor, w = paddle.rand([4]) as Tensor, r = paddle.rand([3, 4]) as Tensor;
    const y = F.rms_norm(x, [4], w, 1e-6) as Tensor;
    const ms = paddle.mean(paddle.multiply(x, x), [1], true) as Tensor;
    const want = paddle.multiply(paddle.multiply(x, paddle.rsqrt(paddle.scale(ms, 1, 1e-6)) as Tensor), w) as Tensor;
    expect(maxDiff(y, want)).toBeLessThan(1e-6);
    const fused = paddle.incubate.nn.functional.fused_rms_norm;
    const [out, summed] = fused(x, w, null, 1e-6, -1, null, r) as Tensor[];
    expect(maxDiff(summed, paddle.add(x, r) as Tensor)).toBe(0);
    expect(maxDiff(out, F.rms_norm(paddle.add(x, r), 4, w) as Tensor)).toBeLessThan(1e-6);
    expect(() => F.rms_norm(x, [5])).toThrow(/rms_norm: Given normalized_shape is \[5\]/);
  }));
});
