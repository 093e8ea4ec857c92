// paddle.jit.save / load round trips in TypeScript: an MLP, a LeNet and a Conv+BatchNorm net
// (eval mode: conv+bn folded, no training buffers), a function called as foo(x, x, y), a
// symbolic batch dim run at batch 1 and 7, the predictor, and capture failures.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose } from '../executor/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-jit-'));
const { InputSpec } = paddle.jit;
afterAll(() => paddle.disable_static());

class MLP extends paddle.nn.Layer {
  fc1 = new paddle.nn.Linear(16, 32);
  fc2 = new paddle.nn.Linear(32, 4);
  forward(x: Tensor) { return this.fc2.call(paddle.nn.functional.relu(this.fc1.call(x))); }
}

class LeNet extends paddle.nn.Layer {
  c1 = new paddle.nn.Conv2D(1, 6, 3, 1, 1);
  c2 = new paddle.nn.Conv2D(6, 16, 5);
  fc = new paddle.nn.Linear(16 * 5 * 5, 10);
  forward(x: Tensor) {
    const F = paddle.nn.functional;
    let h = F.max_pool2d(F.relu(this.c1.call(x)), 2, 2);
    h = F.max_pool2d(F.relu(this.c2.call(h)), 2, 2);
    return this.fc.call(paddle.flatten(h, 1));
  }
}

class ConvBn extends paddle.nn.Layer {
  conv = new paddle.nn.Conv2D(3, 8, 3, 1, 1);
  bn = new paddle.nn.BatchNorm2D(8);
  forward(x: Tensor) { return paddle.nn.functional.relu(this.bn.call(this.conv.call(x))); }
}

function roundTrip(layer: any, spec: any[], inputs: Tensor[], name: string, tol = 1e-5) {
  layer.eval();
  const want = layer.call(...inputs) as Tensor;
  const path = join(dir, name);
  paddle.jit.save(layer, path, { input_spec: spec });
  const loaded = paddle.jit.load(path);
  const got = loaded.call(...inputs) as Tensor;
  expectAllClose(got, want, name, tol);
  return { loaded, path };
}

describe('paddle.jit.save / load (TS)', () => {
  it('MLP with a symbolic batch runs at batch 1 and 7 from one file', () => {
    paddle.seed(1);
    const m = new MLP();
    const { loaded, path } = roundTrip(m, [new InputSpec([null, 16], 'float32', 'x')], [paddle.randn([3, 16])], 'mlp');
    const text = readFileSync(`${path}.pir`, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^#skiff-pir-model \{"format":"skiff-pir-model","version":1,"inputs":\[\{"name":"x","dtype":"float32","shape":\[-1,16\]\}\]/);
    for (const n of [1, 7]) {
      const x = paddle.randn([n, 16]);
      expectAllClose(loaded.call(x) as Tensor, m.call(x), `batch ${n}`);
    }
    expect(loaded.planCount).toBe(3);
  });

  it('LeNet', () => {
    paddle.seed(2);
    roundTrip(new LeNet(), [new InputSpec([null, 1, 28, 28], 'float32', 'img')], [paddle.randn([2, 1, 28, 28])], 'lenet', 1e-4);
  });

  it('Conv+BatchNorm in eval: folded, no training buffers, equal outputs', () => {
    paddle.seed(3);
    const net = new ConvBn();
    // non-trivial running statistics
    net.train();
    for (let i = 0; i < 3; i++) net.call(paddle.randn([4, 3, 8, 8]).scale(2, 1));
    const { path } = roundTrip(net, [new InputSpec([null, 3, 8, 8])], [paddle.randn([2, 3, 8, 8])], 'convbn', 1e-4);
    const text = readFileSync(`${path}.pir`, 'utf8');
    expect(text).not.toContain('batch_norm');
    expect(text).not.toContain('set_parameter');
    expect(net.training, 'the layer is back in its own mode').toBe(false);
  });

  it('restores training mode after saving', () => {
    const m = new MLP();
    m.train();
    paddle.jit.save(m, join(dir, 'mlp_train'), { input_spec: [new InputSpec([2, 16])] });
    expect(m.training).toBe(true);
    expect(m.fc1.training).toBe(true);
  });

  it('a function called as foo(x, x, y)', () => {
    const w = paddle.randn([4, 4]);
    const foo = (a: Tensor, b: Tensor, c: Tensor) => paddle.add(paddle.matmul(a, w), paddle.multiply(b, c));
    const path = join(dir, 'foo');
    paddle.jit.save(foo, path, { input_spec: [new InputSpec([null, 4], 'float32', 'x'), new InputSpec([null, 4], 'float32', 'x'), new InputSpec([null, 4], 'float32', 'y')] });
    const loaded = paddle.jit.load(path);
    expect(loaded.input_names).toEqual(['x', 'x_1', 'y']);
    const x = paddle.randn([5, 4]), y = paddle.randn([5, 4]);
    expectAllClose(loaded.call(x, x, y) as Tensor, foo(x, x, y), 'foo(x, x, y)');
    const z = paddle.randn([5, 4]);
    expectAllClose(loaded.call(x, z, y) as Tensor, foo(x, z, y), 'foo(x, z, y)');
  });

  it('unused inputs stay arguments; several outputs come back as a list', () => {
    const f = (a: Tensor, _b: Tensor) => [paddle.nn.functional.relu(a), paddle.exp(a)];
    const path = join(dir, 'two');
    paddle.jit.save(f, path, { input_spec: [new InputSpec([3]), new InputSpec([2])] });
    const loaded = paddle.jit.load(path);
    const a = paddle.to_tensor([-1, 0, 2]);
    const [r, e] = loaded.call(a, paddle.zeros([2])) as Tensor[];
    expectAllClose(r, paddle.nn.functional.relu(a), 'relu');
    expectAllClose(e, paddle.exp(a), 'exp');
    expect(() => loaded.call(a)).toThrow(/takes 2 inputs/);
    expect(() => loaded.call(paddle.zeros([4]), paddle.zeros([2]))).toThrow(/must have shape \[3\]/);
  });

  it('a forward that needs values while capturing fails and writes nothing', () => {
    const f = (a: Tensor) => { const v = (a as any).numpy ? (a as any).numpy() : a.dataSync(); return paddle.scale(a, v[0]); };
    const path = join(dir, 'broken');
    expect(() => paddle.jit.save(f, path, { input_spec: [new InputSpec([3])] })).toThrow(/paddle\.jit\.save: the forward cannot be captured/);
    expect(() => readFileSync(`${path}.pir`)).toThrow();
  });

  it('the predictor: named handles, plans cached per input shape', () => {
    paddle.seed(4);
    const m = new MLP();
    const path = join(dir, 'pred');
    paddle.jit.save(m, path, { input_spec: [new InputSpec([null, 16], 'float32', 'x')] });
    const pred = paddle.inference.create_predictor(new paddle.inference.Config(path));
    expect(pred.get_input_names()).toEqual(['x']);
    const [out] = pred.get_output_names();
    for (const n of [2, 5, 2]) {
      const x = paddle.randn([n, 16]);
      pred.get_input_handle('x').copy_from_cpu(x);
      pred.run();
      expectAllClose(pred.get_output_handle(out).copy_to_cpu(), m.call(x), `predictor batch ${n}`);
    }
    expect(pred.planCount).toBe(2);
    const h = pred.get_input_handle('x');
    h.reshape([1, 16]);
    h.copy_from_cpu(new Float32Array(16).fill(1));
    pred.run();
    expect(pred.get_output_handle(out).shape()).toEqual([1, 4]);
    expect(() => pred.get_input_handle('nope')).toThrow(/no input named 'nope'/);
    pred.dispose();
  });
});
