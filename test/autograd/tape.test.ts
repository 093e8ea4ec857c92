// Tape behaviour: accumulation into leaves, retain_graph, paddle.grad with create_graph,
// no_grad scopes, hooks, detach, stop_gradient propagation, and memory after backward.
import { describe, expect, it } from 'vitest';
import { enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled, tapeStats } from '../../src/autograd/index.js';
import { paddle } from '../../src/paddle.js';
import { memoryStats, scope, type Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown) => v as Tensor;
const leaf = (data: number[], shape?: number[]) => {
  let t = T(paddle.to_tensor(data, 'float64'));
  if (shape) t = T(paddle.reshape(t, shape));
  t.stop_gradient = false;
  return t;
};
const close = (a: unknown, b: number[]) => {
  const v = (a as number[]).flat(4) as number[];
  expect(v.length).toBe(b.length);
  v.forEach((x, i) => expect(x).toBeCloseTo(b[i], 9));
};

describe('autograd tape', () => {
  it('stop_gradient defaults to true and propagates through recorded ops', () => {
    const a = T(paddle.to_tensor([1, 2], 'float64'));
    expect(a.stop_gradient).toBe(true);
    const b = leaf([3, 4]);
    expect(T(paddle.add(a, a)).stop_gradient).toBe(true);
    const c = T(paddle.multiply(a, b));
    expect(c.stop_gradient).toBe(false);
    expect(c.is_leaf).toBe(false);
    expect(b.is_leaf).toBe(true);
    expect(T(paddle.argmax(c)).stop_gradient).toBe(true);  // integer outputs never want gradients
    expect(T(paddle.greater_than(c, a)).stop_gradient).toBe(true);
  });

  it('accumulates into .grad across backward calls; clear_grad zeroes or drops it', () => {
    const x = leaf([1, 2, 3]);
    T(paddle.sum(paddle.square(x))).backward();
    const g = x.grad!;
    close(g.tolist(), [2, 4, 6]);
    T(paddle.sum(paddle.scale(x, 3))).backward();
    close(x.grad!.tolist(), [5, 7, 9]);
    expect(x.grad).toBe(g);  // in place, as Paddle
    x.clear_grad();
    close(x.grad!.tolist(), [0, 0, 0]);
    x.clear_grad(false);
    expect(x.grad).toBe(null);
  });

  it('a tensor used twice gets the sum of both paths', () => {
    const x = leaf([2]);
    const y = T(paddle.add(paddle.multiply(x, x), paddle.exp(x)));
    y.backward();
    close(x.grad!.tolist(), [4 + Math.exp(2)]);
  });

  it('backward with an explicit grad_tensor on a non-scalar output', () => {
    const x = leaf([1, 2]);
    T(paddle.scale(x, 2)).backward(T(paddle.to_tensor([10, 100], 'float64')));
    close(x.grad!.tolist(), [20, 200]);
  });

  it('a second backward through a freed graph raises; retain_graph keeps it', () => {
    const x = leaf([1, 2]);
    const y = T(paddle.sum(paddle.exp(x)));
    y.backward(null, true);
    y.backward();
    close(x.grad!.tolist(), [2 * Math.E, 2 * Math.exp(2)]);
    expect(() => y.backward()).toThrow(/second time.*retain_graph=True/);
  });

  it('paddle.grad leaves .grad alone and gives second derivatives with create_graph', () => {
    const x = leaf([2, -1]);
    const y = T(paddle.sum(paddle.multiply(x, paddle.multiply(x, x))));
    const [dx] = grad(y, x, { create_graph: true });
    close(dx!.tolist(), [12, 3]);
    expect(dx!.stop_gradient).toBe(false);
    const [ddx] = grad(T(paddle.sum(dx)), x);
    close(ddx!.tolist(), [12, -6]);
    expect(x.grad).toBe(null);
  });

  it('paddle.grad: non-leaf inputs, grad_outputs, allow_unused', () => {
    const x = leaf([1, 2]);
    const h = T(paddle.exp(x));
    const y = T(paddle.sum(paddle.square(h)));
    const z = leaf([5]);
    const [dh, dz] = grad([y], [h, z], { allow_unused: true, retain_graph: true });
    close(dh!.tolist(), [2 * Math.E, 2 * Math.exp(2)]);
    expect(dz).toBe(null);
    expect(() => grad(y, z, { retain_graph: true })).toThrow(/does not appear in the backward graph/);
    const [dx] = grad(T(paddle.scale(x, 3)), x, T(paddle.to_tensor([1, 2], 'float64')));
    close(dx!.tolist(), [3, 6]);
  });

  it('no_grad / enable_grad / set_grad_enabled scopes', () => {
    const x = leaf([1]);
    expect(is_grad_enabled()).toBe(true);
    const y = no_grad(() => T(paddle.exp(x)));
    expect(y.stop_gradient).toBe(true);
    const z = no_grad(() => enable_grad(() => T(paddle.exp(x))));
    expect(z.stop_gradient).toBe(false);
    set_grad_enabled(false, () => expect(is_grad_enabled()).toBe(false));
    expect(is_grad_enabled()).toBe(true);
    expect(paddle.no_grad).toBe(no_grad);
  });

  it('hooks see the gradient and may replace it; remove() detaches them', () => {
    const x = leaf([1, 2]);
    const h = T(paddle.scale(x, 2));
    const seen: number[][] = [];
    const hh = h.register_hook((g: Tensor) => { seen.push(g.tolist() as number[]); return T(paddle.scale(g, 10)); });
    x.register_hook((g: Tensor) => { seen.push(g.tolist() as number[]); });
    T(paddle.sum(h)).backward(null, true);
    expect(seen).toEqual([[1, 1], [20, 20]]);
    close(x.grad!.tolist(), [20, 20]);
    expect(hh.remove()).toBe(true);
    x.clear_grad();
    T(paddle.sum(h)).backward();
    close(x.grad!.tolist(), [2, 2]);
  });

  it('retain_grads keeps a non-leaf gradient; detach cuts the graph', () => {
    const x = leaf([1, 2]);
    const h = T(paddle.exp(x));
    h.retain_grads();
    const d = h.detach();
    expect(d.stop_gradient).toBe(true);
    const y = T(paddle.sum(paddle.multiply(h, d)));
    y.backward();
    close(h.grad!.tolist(), [Math.E, Math.exp(2)]);
    close(x.grad!.tolist(), [Math.exp(2), Math.exp(4)]);  // d is a constant: d(h*d)/dx = d * e^x
    const k = T(paddle.exp(x));
    T(paddle.sum(k)).backward();
    expect(k.grad).toBe(null);  // not retained: non-leaf .grad stays null
  });

  it('grads survive the user scope they escape; saved tensors survive the user disposing inputs', () => {
    const w = leaf([1, 2, 3]);
    scope(() => {
      const a = T(paddle.multiply(w, w));
      const b = T(paddle.exp(a));
      a.dispose();  // the node keeps its own handle on a's storage
      T(paddle.sum(b)).backward();
    });
    expect(w.grad!.isDisposed).toBe(false);
    close(w.grad!.tolist(), [1, 2, 3].map((v) => 2 * v * Math.exp(v * v)));
  });

  it('memory returns to the baseline after backward (saved tensors and temporaries freed)', () => {
    const w = leaf([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [2, 3]);
    const x = T(paddle.to_tensor([[1, 2], [3, 4], [5, 6]], 'float64'));
    const step = () => scope(() => {
      const h = T(paddle.nn.functional.relu(paddle.matmul(x, w)));
      const loss = T(paddle.mean(paddle.square(paddle.subtract(h, paddle.nn.functional.softmax(h)))));
      loss.backward();
    });
    step();  // allocates w.grad once
    const nodes = tapeStats.liveNodes;
    const base = memoryStats().liveTensors;
    for (let i = 0; i < 5; i++) step();
    expect(memoryStats().liveTensors).toBe(base);
    expect(tapeStats.liveNodes).toBe(nodes);
    w.clear_grad(false);
  });

  it('an inplace write to a saved input is caught at backward', () => {
    const x = leaf([1, 2]);
    const a = T(paddle.scale(x, 1));
    const y = T(paddle.sum(paddle.multiply(a, a)));
    a._version++;  // what an inplace op does
    expect(() => y.backward()).toThrow(/modified by an inplace operation/);
  });
});

describe('inplace ops on the tape', () => {
  it('x.add_ / multiply_ / scale_ / relu_ on a non-leaf differentiate through the writes', () => {
    const x = leaf([-1, 2, 3]);
    const y = T(paddle.scale(x, 2));
    y.add_(T(paddle.to_tensor([1, 1, 1], 'float64')));
    y.multiply_(y.detach());  // reads the old values of y and of its detached view: copied before the write
    y.scale_(0.5);
    y.relu_();
    T(paddle.sum(y)).backward();
    // y = relu(0.5 (2x+1) c) with c = 2x+1 held constant: d/dx = c where the argument is positive (always here).
    close(x.grad!.tolist(), [-1, 5, 7]);
  });

  it('a leaf that wants gradients cannot be written in place', () => {
    const x = leaf([1, 2]);
    expect(() => x.add_(T(paddle.to_tensor([1, 1], 'float64')))).toThrow(/Leaf Var .* can't use inplace strategy/);
  });

  it('writing a saved input or output in place makes backward raise', () => {
    const x = leaf([1, 2]);
    const a = T(paddle.scale(x, 1));
    const y = T(paddle.multiply(a, a));
    a.add_(T(paddle.to_tensor([1, 1], 'float64')));
    expect(() => T(paddle.sum(y)).backward()).toThrow(/modified by an inplace operation/);
    const e = T(paddle.exp(x));
    const z = T(paddle.sum(e));
    e.scale_(2);
    expect(() => z.backward()).toThrow(/output 0 .* modified by an inplace operation/);
  });
});
