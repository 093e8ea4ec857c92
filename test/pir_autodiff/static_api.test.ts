// paddle.static.append_backward / gradients: parameter selection, stop_gradient and
// no_grad_set, target_gradients, naming, symbolic batch dims, and the errors.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Operation, Value } from '../../src/pir/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { expectClose } from './helpers.js';

type T = any;
const F = paddle.nn.functional;
const t = (data: number[][]) => paddle.to_tensor(data, 'float32') as Tensor;
const X = [[1, -2, 0.5], [0.25, 3, -1]];
const W = [[0.5, -1], [2, 0.25], [-0.75, 1]];

function eager(fn: (x: Tensor, w: Tensor) => Tensor, wantX = false): { gx: Tensor; gw: Tensor } {
  const x = t(X), w = t(W);
  x.stop_gradient = !wantX;
  w.stop_gradient = false;
  const [gw, gx] = paddle.grad(fn(x, w), wantX ? [w, x] : [w]) as Tensor[];
  return { gx, gw };
}

function build(fn: (x: T, w: T) => T, batch: number | null = 2) {
  const prog = new paddle.static.Program();
  const r = paddle.static.program_guard(prog, () => {
    const x = paddle.static.data('x', [batch, 3], 'float32');
    const w = paddle.static.create_parameter([3, 2], 'float32', { attr: { initializer: t(W) } });
    return { x, w, loss: fn(x, w) as Value };
  });
  return { prog, ...r };
}
const model = (x: T, w: T): T => paddle.sum(F.sigmoid(paddle.matmul(x, w)));

describe('paddle.static.append_backward', () => {
  it('differentiates w.r.t. trainable parameters; feeds need stop_gradient = false', () => scope(() => {
    const { prog, x, w, loss } = build(model);
    expect((x as T).stop_gradient).toBe(true);
    expect((w as T).stop_gradient).toBe(false);
    expect((loss as T).stop_gradient).toBe(false);
    (x as T).stop_gradient = false;
    const pg = paddle.static.append_backward(loss);
    expect(pg.length).toBe(1);
    expect(pg[0][0]).toBe(w);
    const gxV = prog.valueByName('x@GRAD')!;
    expect(gxV).toBeDefined();
    const [gw, gx] = new paddle.static.Executor().run(prog, { feed: { x: t(X) }, fetch_list: [pg[0][1], 'x@GRAD'] });
    const want = eager((a, b) => paddle.sum(F.sigmoid(paddle.matmul(a, b))) as Tensor, true);
    expectClose(gw, want.gw, 'dw');
    expectClose(gx, want.gx, 'dx');
  }));

  it('skips parameters marked not trainable and honours no_grad_set', () => scope(() => {
    const prog = new paddle.static.Program();
    const { loss, h } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const w = paddle.static.create_parameter([3, 2], 'float32', { name: 'nt_w', attr: { initializer: t(W), trainable: false } });
      const v = paddle.static.create_parameter([3, 2], 'float32', { name: 'nt_v', attr: { initializer: t(W) } });
      const h = paddle.matmul(x, v) as Value;
      return { loss: paddle.sum(paddle.add(paddle.matmul(x, w), paddle.exp(h))) as Value, h };
    });
    const pg: [Value, Value][] = paddle.static.append_backward(loss);
    expect(pg.map(([p]) => (p as T).name)).toEqual(['nt_v']);
    // Cutting h leaves v without a gradient path.
    const prog2 = new paddle.static.Program();
    const l2 = paddle.static.program_guard(prog2, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const v = paddle.static.create_parameter([3, 2], 'float32', { name: 'ng_v', attr: { initializer: t(W) } });
      const h2 = paddle.matmul(x, v) as Value;
      (h2 as T).name;
      return { loss: paddle.sum(paddle.exp(h2)) as Value, h2 };
    });
    expect(paddle.static.append_backward(l2.loss, null, [l2.h2])).toEqual([]);
    expect(h).toBeDefined();
  }));

  it('accepts parameter names in parameter_list', () => scope(() => {
    const { prog, loss } = build(model);
    const name = ((prog.pir.block.ops.find((o: Operation) => o.name === 'builtin.parameter')!.attr('parameter_name')) as { value: string }).value;
    const pg = paddle.static.append_backward(loss, [name]);
    expect(pg.length).toBe(1);
  }));

  it('works with a symbolic batch dim (one program, two batch sizes)', () => scope(() => {
    const { prog, loss } = build(model, null);
    const [[, g]] = paddle.static.append_backward(loss) as [Value, Value][];
    const exe = new paddle.static.Executor();
    for (const rows of [X, [...X, ...X, [0, 1, 2]]]) {
      const [got] = exe.run(prog, { feed: { x: t(rows) }, fetch_list: [g] });
      const w = t(W); w.stop_gradient = false;
      const [want] = paddle.grad(paddle.sum(F.sigmoid(paddle.matmul(t(rows), w))) as Tensor, [w]) as Tensor[];
      expectClose(got, want, `batch ${rows.length}`);
    }
  }));

  it('refuses rules that compute sizes from a symbolic batch dim (mean) with a clear error', () => scope(() => {
    const { loss } = build((x: T, w: T): T => paddle.mean(paddle.matmul(x, w)), null);
    expect(() => paddle.static.append_backward(loss)).toThrow(/gradient of pd_op\.mean with symbolic shapes: scale: attribute 'scale' was computed from symbolic dims/);
  }));
});

describe('paddle.static.gradients', () => {
  it('seeds targets with target_gradients and returns null for unrelated inputs', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, y, z, seed } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const z = paddle.static.data('z', [2, 3], 'float32');
      const seed = paddle.static.data('seed', [2, 3], 'float32');
      return { x, z, seed, y: paddle.tanh(x) as Value };
    });
    const [gx, gz] = paddle.static.gradients([y], [x, z], [seed]);
    expect(gz).toBeNull();
    const sd = t([[1, 2, 3], [4, 5, 6]]);
    const [got] = new paddle.static.Executor().run(prog, { feed: { x: t(X), seed: sd }, fetch_list: [gx!] });
    const xe = t(X); xe.stop_gradient = false;
    const [want] = paddle.grad(paddle.tanh(xe) as Tensor, [xe], { grad_outputs: [sd] } as never) as Tensor[];
    expectClose(got, want, 'seeded');
  }));

  it('names the op when a path has no gradient rule', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, y } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const [y] = prog.builder.hostCall('opaque', [x], [x.type]).results;
      return { x, y: paddle.sum(y) as Value };
    });
    expect(() => paddle.static.gradients([y], [x])).toThrow(/builtin\.host_call: no gradient rule/);
  }));

  it('rejects integer targets', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, i } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      return { x, i: paddle.argmax(x) as Value };
    });
    expect(() => paddle.static.gradients([i], [x])).toThrow(/only floating tensors/);
  }));
});
