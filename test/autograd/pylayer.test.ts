// paddle.autograd.PyLayer in TS: user-defined forward/backward against the built-in ops'
// gradients, ctx features (save_for_backward, mark_non_differentiable, set_materialize_grads,
// needs_input_grad, attributes), nesting, create_graph, errors naming the class, and memory.
// Also the autograd error cases of issue 7.
import { describe, expect, it } from 'vitest';
import { grad, tapeStats } from '../../src/autograd/index.js';
import { PyLayer, type PyLayerContext } from '../../src/autograd/pylayer.js';
import { paddle } from '../../src/paddle.js';
import { memoryStats, scope, type Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown) => v as Tensor;
const leaf = (data: number[]) => { const t = T(paddle.to_tensor(data, 'float64')); t.stop_gradient = false; return t; };
const close = (a: Tensor | null, b: number[]) => {
  const v = (a!.tolist() as number[]).flat(4) as number[];
  expect(v.length).toBe(b.length);
  v.forEach((x, i) => expect(x).toBeCloseTo(b[i], 9));
};

class Exp extends PyLayer {
  static override forward(ctx: PyLayerContext, x: Tensor) {
    const y = T(paddle.exp(x));
    ctx.save_for_backward(y);
    return y;
  }
  static override backward(ctx: PyLayerContext, dy: Tensor) {
    const [y] = ctx.saved_tensor();
    return paddle.multiply(dy, y);
  }
}

class Tanh extends PyLayer {
  static override forward(ctx: PyLayerContext, x: Tensor, scale: number) {
    ctx.scale = scale;  // any attribute
    const y = T(paddle.tanh(x));
    ctx.save_for_backward(y);
    return paddle.scale(y, scale);
  }
  static override backward(ctx: PyLayerContext, dy: Tensor) {
    const [y] = ctx.saved_tensor();
    return paddle.multiply(paddle.scale(dy, ctx.scale as number), paddle.scale(paddle.square(y), -1, 1));
  }
}

describe('PyLayer (TS)', () => {
  it('a custom exp matches the built-in gradient; forward runs under no_grad', () => {
    const x = leaf([0.1, -0.5, 1.2]);
    let inner = true;
    class Probe extends Exp {
      static override forward(ctx: PyLayerContext, x: Tensor) { inner = paddle.is_grad_enabled(); return super.forward(ctx, x); }
    }
    const y = T(Probe.apply(x));
    expect(inner).toBe(false);
    expect(y.stop_gradient).toBe(false);
    T(paddle.sum(paddle.multiply(y, paddle.to_tensor([1, 2, 3], 'float64')))).backward();
    const x2 = leaf([0.1, -0.5, 1.2]);
    T(paddle.sum(paddle.multiply(paddle.exp(x2), paddle.to_tensor([1, 2, 3], 'float64')))).backward();
    close(x.grad, (x2.grad!.tolist() as number[]));
  });

  it('a custom tanh with a non-tensor argument and ctx attributes; gradients accumulate', () => {
    const x = leaf([0.3, -0.7]);
    T(paddle.sum(Tanh.apply(x, 2))).backward();
    T(paddle.sum(Tanh.apply(x, 2))).backward();
    close(x.grad, [0.3, -0.7].map((v) => 4 * (1 - Math.tanh(v) ** 2)));
  });

  it('needs_input_grad, several inputs and outputs, a None gradient', () => {
    let needs: boolean[] = [];
    class MulAdd extends PyLayer {
      static override forward(ctx: PyLayerContext, a: Tensor, b: Tensor) {
        needs = ctx.needs_input_grad;
        ctx.save_for_backward(a, b);
        return [paddle.multiply(a, b), paddle.add(a, b)];
      }
      static override backward(ctx: PyLayerContext, dm: Tensor, ds: Tensor) {
        const [a, b] = ctx.saved_tensor();
        return [paddle.add(paddle.multiply(dm, b), ds), null];
      }
    }
    const a = leaf([1, 2]);
    const b = T(paddle.to_tensor([3, 4], 'float64'));
    const [m, s] = MulAdd.apply(a, b) as Tensor[];
    expect(needs).toEqual([true, false]);
    T(paddle.add(paddle.sum(m), paddle.sum(s))).backward();
    close(a.grad, [4, 5]);
  });

  it('mark_non_differentiable and set_materialize_grads', () => {
    const seen: (Tensor | null)[][] = [];
    const make = (materialize: boolean) => class Split extends PyLayer {
      static override forward(ctx: PyLayerContext, x: Tensor) {
        const idx = T(paddle.scale(x, 0));
        ctx.mark_non_differentiable(idx);
        ctx.set_materialize_grads(materialize);
        return [paddle.scale(x, 2), idx];
      }
      static override backward(_ctx: PyLayerContext, dy: Tensor, didx: Tensor | null) {
        seen.push([dy, didx]);
        if (didx) close(didx, [0, 0]);
        return paddle.scale(dy, 2);
      }
    };
    for (const materialize of [true, false]) {
      const x = leaf([1, 2]);
      const [y, idx] = make(materialize).apply(x) as Tensor[];
      expect(idx.stop_gradient).toBe(true);
      T(paddle.sum(y)).backward();
      close(x.grad, [2, 2]);
    }
    expect(seen[0][1]).not.toBeNull();  // materialized zeros
    expect(seen[1][1]).toBeNull();
  });

  it('nested PyLayers and create_graph through a differentiable backward', () => {
    class Outer extends PyLayer {
      static override forward(ctx: PyLayerContext, x: Tensor) { ctx.save_for_backward(x); return Exp.apply(Exp.apply(x)); }
      static override backward(ctx: PyLayerContext, dy: Tensor) {
        const [x] = ctx.saved_tensor();
        const e = T(Exp.apply(x));
        return paddle.multiply(paddle.multiply(dy, e), Exp.apply(e));  // d exp(exp x) = exp(x) exp(exp x)
      }
    }
    const x = leaf([0.2, -0.3]);
    const y = T(Outer.apply(x));
    const [g] = grad(T(paddle.sum(y)), x, { create_graph: true }) as Tensor[];
    close(g, [0.2, -0.3].map((v) => Math.exp(v) * Math.exp(Math.exp(v))));
    expect(g.stop_gradient).toBe(false);
    // d/dx [exp(x) exp(exp x)] = exp(x) exp(exp x) (1 + exp x), through Exp's own backward.
    const [h] = grad(T(paddle.sum(g)), x) as Tensor[];
    close(h, [0.2, -0.3].map((v) => Math.exp(v) * Math.exp(Math.exp(v)) * (1 + Math.exp(v))));
  });

  it('an input returned as is becomes a new output; an identity backward passes the gradient through', () => {
    class Id extends PyLayer {
      static override forward(_ctx: PyLayerContext, x: Tensor) { return x; }
      static override backward(_ctx: PyLayerContext, dy: Tensor) { return dy; }
    }
    const x = leaf([1, 2]);
    const y = T(Id.apply(x));
    expect(y).not.toBe(x);
    expect(x.is_leaf).toBe(true);
    T(paddle.sum(paddle.scale(y, 3))).backward();
    close(x.grad, [3, 3]);
  });

  it('errors name the class: wrong gradient count, wrong shape, a non-tensor', () => {
    class TooMany extends PyLayer {
      static override forward(_ctx: PyLayerContext, x: Tensor) { return paddle.scale(x, 1); }
      static override backward(_ctx: PyLayerContext, dy: Tensor) { return [dy, dy]; }
    }
    class BadShape extends PyLayer {
      static override forward(_ctx: PyLayerContext, x: Tensor) { return paddle.sum(x); }
      static override backward(_ctx: PyLayerContext, dy: Tensor) { return dy; }
    }
    class NotTensor extends PyLayer {
      static override forward(_ctx: PyLayerContext, x: Tensor) { return paddle.scale(x, 1); }
      static override backward() { return 3; }
    }
    const x = leaf([1, 2]);
    expect(() => T(paddle.sum(TooMany.apply(x))).backward()).toThrow(/TooMany: backward returned 2 gradients, but forward had 1 Tensor input/);
    expect(() => T(BadShape.apply(x)).backward()).toThrow(/BadShape: backward returned a gradient of shape \[\] for input 0 of shape \[2\]/);
    expect(() => T(paddle.sum(NotTensor.apply(x))).backward()).toThrow(/NotTensor: backward must return Tensors or None/);
    class NoBackward extends PyLayer {
      static override forward(_ctx: PyLayerContext, x: Tensor) { return paddle.scale(x, 1); }
    }
    expect(() => T(paddle.sum(NoBackward.apply(x))).backward()).toThrow(/NoBackward: a PyLayer subclass must define static backward/);
  });

  it('memory returns to the baseline (saved tensors released after backward, and when no grad is needed)', () => {
    const x = leaf([0.5, 1.5, -1]);
    const run = () => scope(() => { T(paddle.sum(Tanh.apply(Exp.apply(x), 1))).backward(); });
    run();
    x.clear_grad();
    const nodes = tapeStats.liveNodes;
    const base = memoryStats().liveTensors;
    for (let i = 0; i < 3; i++) run();
    scope(() => { paddle.no_grad(() => Exp.apply(x)); });
    expect(memoryStats().liveTensors).toBe(base);
    expect(tapeStats.liveNodes).toBe(nodes);
  });

  it('is paddle.autograd.PyLayer', () => {
    expect(paddle.autograd.PyLayer).toBe(PyLayer);
  });
});

describe('autograd errors (issue 7)', () => {
  it('backward twice without retain_graph names the op and the fix', () => {
    const x = leaf([1, 2]);
    const y = T(paddle.sum(paddle.exp(x)));
    y.backward();
    expect(() => y.backward()).toThrow(/backward through the graph a second time.*retain_graph=True/);
    const z = T(Exp.apply(x));
    z.backward();
    expect(() => z.backward()).toThrow(/second time.*op 'Exp'/);
  });

  it('paddle.grad of a non-scalar output without grad_outputs uses ones, as Paddle 2.6 does', () => {
    const x = leaf([1, 2]);
    const [g] = grad(T(paddle.multiply(x, x)), x) as Tensor[];
    close(g, [2, 4]);
  });

  it('inplace on a leaf that requires grad raises', () => {
    const x = leaf([1, 2]);
    expect(() => (x as unknown as { exp_(): Tensor }).exp_()).toThrow(/exp_: Leaf Var .* can't use inplace strategy/);
  });
});
