// The layers whose ops gained gradient rules in issue 7 train: one SGD step on a tiny net built
// from Conv2DTranspose, GroupNorm, PixelShuffle, InstanceNorm2D, AdaptiveAvgPool2D, Upsample,
// Conv1D and Conv3D lowers the loss, every parameter gets a non-zero gradient, and one weight's
// gradient matches a central finite difference of the loss.
import { describe, expect, it } from 'vitest';
import { no_grad } from '../../src/autograd/index.js';
import { set_item } from '../../src/ops/setitem.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown) => v as Tensor;
const nn = paddle.nn as unknown as Record<string, new (...a: unknown[]) => { parameters(): Tensor[]; call(...x: unknown[]): unknown }>;
const F = paddle.nn.functional;

describe('nn layers train through their grad rules', () => {
  it('one SGD step on Conv2DTranspose/GroupNorm/PixelShuffle/InstanceNorm2D/AdaptiveAvgPool2D/Upsample/Conv1D/Conv3D lowers the loss', () => {
    paddle.seed(11);
    const layers = {
      up: new nn.Conv2DTranspose(1, 8, 2, 2),          // [4, 1, 4, 4] -> [4, 8, 8, 8]
      gn: new nn.GroupNorm(4, 8),
      ps: new nn.PixelShuffle(2),                      // -> [4, 2, 16, 16]
      inorm: new nn.InstanceNorm2D(2),
      pool: new nn.AdaptiveAvgPool2D(4),               // -> [4, 2, 4, 4]
      ups: new nn.Upsample(null, 2, 'bilinear'),       // -> [4, 2, 8, 8]
      c1: new nn.Conv1D(2, 3, 3, 2, 1),                // [4, 2, 64] -> [4, 3, 32]
      c3: new nn.Conv3D(3, 2, [3, 1, 1], [2, 1, 1]),   // [4, 3, 32, 1, 1] -> [4, 2, 15, 1, 1]
    };
    const params = Object.values(layers).flatMap((l) => l.parameters());
    expect(params.length).toBe(10);  // weight and bias of up, gn, inorm, c1, c3; none for the rest
    const x = T(paddle.randn([4, 1, 4, 4]));
    // Class 1 when the image's left half outweighs its right half: something to learn.
    const label = T(paddle.cast(paddle.greater_than(paddle.sum(paddle.slice(x, [3], [0], [2]), [1, 2, 3]), paddle.sum(paddle.slice(x, [3], [2], [4]), [1, 2, 3])), 'int64'));
    const loss = (): Tensor => {
      let h = T(layers.up.call(x));
      h = T(F.tanh(layers.gn.call(h)));
      h = T(layers.inorm.call(layers.ps.call(h)));
      h = T(layers.ups.call(layers.pool.call(h)));
      h = T(F.tanh(layers.c1.call(paddle.reshape(h, [4, 2, 64]))));
      h = T(layers.c3.call(paddle.reshape(h, [4, 3, 32, 1, 1])));
      return T(F.cross_entropy(paddle.mean(h, [2, 3, 4]), label));
    };
    const l0 = loss();
    l0.backward();
    for (const p of params) {
      expect(p.grad, p.name).toBeTruthy();
      expect(Number(T(paddle.sum(paddle.abs(p.grad!))).item()), p.name).toBeGreaterThan(0);
    }
    // Central difference for one element of the transposed convolution's weight.
    const w = params[0];
    const analytic = Number(w.grad!.item(0, 0, 0, 0));
    const w0 = Number(w.item(0, 0, 0, 0));
    const at = (v: number) => no_grad(() => { set_item(w, [0, 0, 0, 0], v); return Number(loss().item()); });
    const eps = 1e-2;
    const numeric = (at(w0 + eps) - at(w0 - eps)) / (2 * eps);
    at(w0);
    // float32 loss: rounding noise is about 1e-7 / eps; the gradient flows back through every layer above.
    expect(numeric).not.toBe(0);
    expect(Math.abs(analytic - numeric)).toBeLessThan(1e-5 + 0.02 * Math.abs(numeric));
    // One SGD step lowers the loss.
    const opt = new paddle.optimizer.SGD({ learning_rate: 0.1, parameters: params });
    opt.step();
    opt.clear_grad();
    const l1 = Number(loss().item());
    expect(l1).toBeLessThan(Number(l0.item()));
  });
});
