// A small MLP trained with the tape and a hand-written SGD step: the loss goes down.
import { describe, expect, it } from 'vitest';
import { no_grad } from '../../src/autograd/index.js';
import { paddle } from '../../src/paddle.js';
import { memoryStats, scope, type Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown) => v as Tensor;
const F = paddle.nn.functional;

describe('training with autograd', () => {
  it('an MLP on a toy classification task: loss decreases under SGD', () => {
    paddle.seed(3);
    const param = (shape: number[], s: number) => { const p = T(paddle.scale(paddle.randn(shape), s)); p.stop_gradient = false; return p; };
    let params = [param([4, 16], 0.5), param([16], 0), param([16, 3], 0.5), param([3], 0)];
    const x = T(paddle.randn([32, 4]));
    // Labels from a fixed rule, so there is something to learn.
    const label = T(paddle.argmax(paddle.matmul(x, paddle.randn([4, 3])), 1));
    const losses: number[] = [];
    const base = memoryStats().liveTensors;
    for (let step = 0; step < 30; step++) {
      const loss = scope(() => {
        const [w1, b1, w2, b2] = params;
        const h = T(F.gelu(paddle.add(paddle.matmul(x, w1), b1)));
        const logits = T(paddle.add(paddle.matmul(F.dropout(h, 0.1), w2), b2));
        const l = T(F.cross_entropy(logits, label));
        l.backward();
        return l.item() as number;
      });
      losses.push(loss);
      params = scope(() => no_grad(() => params.map((p) => {
        const q = T(paddle.subtract(p, paddle.scale(p.grad!, 0.5)));
        q.stop_gradient = false;
        p.grad!.dispose();
        p.dispose();
        return q;
      })));
    }
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] * 0.6);
    for (let i = 5; i < losses.length; i += 5) expect(losses[i]).toBeLessThan(losses[i - 5]);
    expect(memoryStats().liveTensors).toBe(base);  // params replaced one for one, nothing else left
  });

  it('a small LeNet (conv2d, max_pool2d, avg_pool2d, layer_norm): loss decreases under SGD', () => {
    paddle.seed(5);
    const param = (shape: number[], s: number) => { const p = T(paddle.scale(paddle.randn(shape), s)); p.stop_gradient = false; return p; };
    let params = [param([4, 1, 3, 3], 0.4), param([4], 0), param([6, 4, 3, 3], 0.2), param([6], 0), param([24, 2], 0.3), param([2], 0)];
    const x = T(paddle.randn([8, 1, 12, 12]));
    // Class 1 when the image's top half is brighter than its bottom half.
    const top = T(paddle.sum(paddle.slice(x, [2], [0], [6]), [1, 2, 3]));
    const label = T(paddle.cast(paddle.greater_than(top, paddle.sum(paddle.slice(x, [2], [6], [12]), [1, 2, 3])), 'int64'));
    const losses: number[] = [];
    for (let step = 0; step < 25; step++) {
      losses.push(scope(() => {
        const [c1, b1, c2, b2, w, b] = params;
        let h = T(F.relu(F.conv2d(x, c1, b1, 1, 1)));          // [8, 4, 12, 12]
        h = T(F.max_pool2d(h, 2));                              // [8, 4, 6, 6]
        h = T(F.relu(F.conv2d(h, c2, b2)));                     // [8, 6, 4, 4]
        h = T(F.avg_pool2d(h, 2));                              // [8, 6, 2, 2]
        h = T(F.layer_norm(paddle.flatten(h, 1), [24]));
        const l = T(F.cross_entropy(paddle.add(paddle.matmul(h, w), b), label));
        l.backward();
        return l.item() as number;
      }));
      params = scope(() => no_grad(() => params.map((p) => {
        const q = T(paddle.subtract(p, paddle.scale(p.grad!, 0.2)));
        q.stop_gradient = false;
        p.dispose();
        return q;
      })));
    }
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] * 0.7);
  });
});
