// TS paddle.nn: each layer against its functional reference, parameter naming and defaults,
// state_dict round trips, containers, hooks, train/eval and batch-norm running statistics.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Tensor, memoryStats, scope } from '../../src/tensor/tensor.js';

const nn = paddle.nn;
const F = paddle.nn.functional;
const close = (a: Tensor, b: Tensor, tol = 1e-5) => {
  expect(a.shape).toEqual(b.shape);
  const x = a.dataSync() as number[], y = b.dataSync() as number[];
  for (let i = 0; i < x.length; i++) expect(Math.abs(x[i] - y[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(y[i])));
};

describe('layers against their functional form', () => {
  const cases: { name: string; make: () => any; input: () => Tensor; ref: (l: any, x: Tensor) => Tensor }[] = [
    { name: 'Linear', make: () => new nn.Linear(4, 3), input: () => paddle.randn([2, 4]), ref: (l, x) => paddle.add(paddle.matmul(x, l.weight), l.bias) },
    { name: 'Linear without bias', make: () => new nn.Linear(4, 3, null, false), input: () => paddle.randn([5, 4]), ref: (l, x) => paddle.matmul(x, l.weight) },
    { name: 'Conv2D', make: () => new nn.Conv2D(2, 4, 3, 1, 1), input: () => paddle.randn([1, 2, 5, 5]), ref: (l, x) => F.conv2d(x, l.weight, l.bias, 1, 1) },
    { name: 'MaxPool2D', make: () => new nn.MaxPool2D(2, 2), input: () => paddle.randn([1, 2, 4, 4]), ref: (_l, x) => F.max_pool2d(x, 2, 2) },
    { name: 'AvgPool2D', make: () => new nn.AvgPool2D(2, 2), input: () => paddle.randn([1, 2, 4, 4]), ref: (_l, x) => F.avg_pool2d(x, 2, 2) },
    { name: 'LayerNorm', make: () => new nn.LayerNorm(6), input: () => paddle.randn([3, 6]), ref: (l, x) => F.layer_norm(x, [6], l.weight, l.bias) },
    { name: 'Embedding', make: () => new nn.Embedding(10, 4), input: () => paddle.to_tensor([[1, 2], [9, 0]], 'int64'), ref: (l, x) => F.embedding(x, l.weight) },
    { name: 'Flatten', make: () => new nn.Flatten(), input: () => paddle.randn([2, 3, 4]), ref: (_l, x) => paddle.reshape(x, [2, 12]) },
    { name: 'ReLU', make: () => new nn.ReLU(), input: () => paddle.randn([7]), ref: (_l, x) => F.relu(x) },
    { name: 'GELU tanh', make: () => new nn.GELU(true), input: () => paddle.randn([7]), ref: (_l, x) => F.gelu(x, true) },
    { name: 'Softmax axis 0', make: () => new nn.Softmax(0), input: () => paddle.randn([3, 2]), ref: (_l, x) => F.softmax(x, 0) },
    { name: 'Dropout in eval', make: () => new nn.Dropout(0.5).eval(), input: () => paddle.randn([8]), ref: (_l, x) => x },
    { name: 'Identity', make: () => new nn.Identity(), input: () => paddle.randn([2]), ref: (_l, x) => x },
  ];
  for (const c of cases) {
    it(c.name, () => scope(() => {
      const l = c.make();
      const x = c.input();
      close(l.call(x), c.ref(l, x));
    }));
  }
});

describe('Layer', () => {
  class Net extends nn.Layer {
    fc1 = new nn.Linear(4, 8);
    act = new nn.ReLU();
    blocks = new nn.LayerList([new nn.Linear(8, 8), new nn.Linear(8, 8)]);
    fc2 = new nn.Linear(8, 2, null, false);
    forward(x: Tensor) {
      let h = this.act.call(this.fc1.call(x));
      for (const b of this.blocks) h = b.call(h);
      return this.fc2.call(h);
    }
  }

  it('names parameters by structure, in definition order, with Paddle defaults', () => {
    const net = new Net();
    expect(net.named_parameters().map(([n]: [string]) => n)).toEqual(['fc1.weight', 'fc1.bias', 'blocks.0.weight', 'blocks.0.bias', 'blocks.1.weight', 'blocks.1.bias', 'fc2.weight']);
    const [w, b] = [net.fc1.weight, net.fc1.bias];
    expect(w.stop_gradient).toBe(false);
    expect(w.persistable).toBe(true);
    expect(b.dataSync()).toEqual(new Array(8).fill(0));
    const limit = Math.sqrt(6 / (4 + 8));   // Xavier-uniform on [in, out]
    expect((w.dataSync() as number[]).every((v) => Math.abs(v) <= limit)).toBe(true);
    expect(w.name).toMatch(/^linear_\d+\.w_0$/);
    expect(String(net)).toContain('(fc1): Linear(in_features=4, out_features=8, dtype=float32)');
  });

  it('state_dict round trip keeps parameter identity', () => {
    const a = new Net(), b = new Net();
    const x = paddle.randn([3, 4]);
    const wBefore = b.fc1.weight;
    const r = b.set_state_dict(a.state_dict());
    expect(r).toEqual({ missing_keys: [], unexpected_keys: [] });
    expect(b.fc1.weight).toBe(wBefore);
    close(b.forward(x), a.forward(x), 0);
    expect(() => b.set_state_dict({ 'fc1.weight': paddle.zeros([2, 2]) })).toThrow(/fc1.weight.*shape \[2, 2\]/);
    expect(b.set_state_dict({ nope: paddle.zeros([1]) }).unexpected_keys).toEqual(['nope']);
  });

  it('train/eval reach every sublayer; hooks run and can be removed', () => {
    const net = new Net();
    net.eval();
    expect(net.sublayers().every((l: any) => l.training === false)).toBe(true);
    net.train();
    expect(net.blocks.at(1).training).toBe(true);
    const seen: number[][] = [];
    const h = net.register_forward_post_hook((_l: unknown, _i: unknown, out: Tensor) => { seen.push(out.shape); return paddle.scale(out, 2); });
    const x = paddle.randn([1, 4]);
    const y = net.call(x);
    close(y, paddle.scale(net.forward(x), 2));
    h.remove();
    close(net.call(x), net.forward(x));
    expect(seen).toEqual([[1, 2]]);
  });

  it('Sequential names children by position or by given name', () => {
    const s = new nn.Sequential(new nn.Linear(2, 3), new nn.ReLU());
    expect(s.named_parameters().map(([n]: [string]) => n)).toEqual(['0.weight', '0.bias']);
    const t = new nn.Sequential(['fc', new nn.Linear(2, 3)]);
    expect(Object.keys(t.state_dict())).toEqual(['fc.weight', 'fc.bias']);
    expect(s.call(paddle.ones([1, 2])).shape).toEqual([1, 3]);
  });

  it('parameters made inside a scope survive it', () => {
    const l = scope(() => new nn.Linear(3, 3));
    expect(l.weight.isDisposed).toBe(false);
    expect(l.call(paddle.ones([1, 3])).shape).toEqual([1, 3]);
  });

  it('creating and dropping layers in a scope returns memory to baseline', () => {
    const before = memoryStats().liveTensors;
    scope(() => {
      for (let i = 0; i < 20; i++) {
        // frozen parameters: no autograd record keeps the forward's tensors for a backward
        const l = new nn.Linear(16, 16, { trainable: false }, { trainable: false });
        l.call(paddle.ones([2, 16]));
        for (const p of l.parameters()) p.dispose();
      }
    });
    expect(memoryStats().liveTensors).toBe(before);
  });
});

describe('BatchNorm', () => {
  it('training updates the running statistics as Paddle does; eval uses them', () => {
    const bn = new nn.BatchNorm2D(2, 0.9);
    const x = paddle.randn([4, 2, 3, 3]);
    const y = bn.call(x);
    // batch statistics per channel (biased variance)
    const mean = paddle.mean(x, [0, 2, 3]);
    const v = paddle.mean(paddle.square(paddle.subtract(x, paddle.reshape(mean, [1, 2, 1, 1]))), [0, 2, 3]);
    close(bn._mean, paddle.scale(mean, 0.1));
    close(bn._variance, paddle.add(paddle.scale(v, 0.1), paddle.full([2], 0.9)));
    close(y, paddle.divide(paddle.subtract(x, paddle.reshape(mean, [1, 2, 1, 1])), paddle.sqrt(paddle.add(paddle.reshape(v, [1, 2, 1, 1]), paddle.full([], 1e-5)))), 1e-4);
    bn.eval();
    const m0 = bn._mean.dataSync();
    bn.call(x);
    expect(bn._mean.dataSync()).toEqual(m0);
    expect(Object.keys(bn.state_dict())).toEqual(['weight', 'bias', '_mean', '_variance']);
  });
});

describe('initializers', () => {
  const I = nn.initializer;
  it('follow Paddle\'s fan rules', () => {
    expect(I.compute_fans([4, 8])).toEqual([4, 8]);
    expect(I.compute_fans([16, 3, 5, 5])).toEqual([75, 400]);
    expect(I.calculate_gain('leaky_relu', 0.2)).toBeCloseTo(Math.sqrt(2 / 1.04));
  });
  it('TruncatedNormal stays within [a, b] std; Assign checks the shape', () => {
    const t = new I.TruncatedNormal(1, 2, -1, 1).make([2000], 'float32');
    expect((t.dataSync() as number[]).every((v) => v >= -1 - 1e-6 && v <= 3 + 1e-6)).toBe(true);
    expect(new I.Assign([[1, 2]]).make([1, 2], 'float32').dataSync()).toEqual([1, 2]);
    expect(() => new I.Assign([1, 2, 3]).make([2], 'float32')).toThrow(/shape \[3\].*shape \[2\]/);
    const k = new I.KaimingUniform().make([100, 50], 'float64');
    expect(k.dtype).toBe('float64');
    expect((k.dataSync() as number[]).every((v) => Math.abs(v) <= Math.sqrt(2) * Math.sqrt(3 / 100))).toBe(true);
  });
});
