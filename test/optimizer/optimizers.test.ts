// Optimizers' first steps against their closed forms (gradients set by hand, so each rule is
// checked alone), groups, decay, clipping, state dicts; then a real training run with autograd.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { makeParameter } from '../../src/nn/layer.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const opt = paddle.optimizer;
const param = (vals: number[], name = 'p') => makeParameter(paddle.to_tensor(vals, 'float64'), name);
const near = (t: Tensor, want: number[], tol = 1e-12) => {
  const got = t.dataSync() as number[];
  expect(got.length).toBe(want.length);
  got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(want[i]))));
};
const setGrad = (p: Tensor, g: number[]) => { p.grad = paddle.to_tensor(g, 'float64'); };

interface Case { name: string; make: (ps: Tensor[]) => any; want: (p: number, g: number, t: number, state: Record<string, number>) => number }
// Per-element reference: applied to each (p, g) for two steps with the same gradient.
const CASES: Case[] = [
  { name: 'SGD', make: (ps) => new opt.SGD({ learning_rate: 0.1, parameters: ps }), want: (p, g) => p - 0.1 * g },
  { name: 'Momentum', make: (ps) => new opt.Momentum({ learning_rate: 0.1, momentum: 0.9, parameters: ps }),
    want: (p, g, _t, s) => { s.v = 0.9 * (s.v ?? 0) + g; return p - 0.1 * s.v; } },
  { name: 'Momentum nesterov', make: (ps) => new opt.Momentum({ learning_rate: 0.1, momentum: 0.9, use_nesterov: true, parameters: ps }),
    want: (p, g, _t, s) => { s.v = 0.9 * (s.v ?? 0) + g; return p - 0.1 * (g + 0.9 * s.v); } },
  { name: 'Adam', make: (ps) => new opt.Adam({ learning_rate: 0.01, parameters: ps }),
    want: (p, g, t, s) => {
      s.m = 0.9 * (s.m ?? 0) + 0.1 * g; s.v = 0.999 * (s.v ?? 0) + 0.001 * g * g;
      const c2 = Math.sqrt(1 - 0.999 ** t);
      return p - ((0.01 * c2) / (1 - 0.9 ** t)) * (s.m / (Math.sqrt(s.v) + 1e-8 * c2));
    } },
  { name: 'AdamW', make: (ps) => new opt.AdamW({ learning_rate: 0.01, weight_decay: 0.1, parameters: ps }),
    want: (p, g, t, s) => {
      p = p * (1 - 0.01 * 0.1);
      s.m = 0.9 * (s.m ?? 0) + 0.1 * g; s.v = 0.999 * (s.v ?? 0) + 0.001 * g * g;
      const c2 = Math.sqrt(1 - 0.999 ** t);
      return p - ((0.01 * c2) / (1 - 0.9 ** t)) * (s.m / (Math.sqrt(s.v) + 1e-8 * c2));
    } },
  { name: 'Adagrad', make: (ps) => new opt.Adagrad({ learning_rate: 0.1, parameters: ps }),
    want: (p, g, _t, s) => { s.m = (s.m ?? 0) + g * g; return p - (0.1 * g) / (Math.sqrt(s.m) + 1e-6); } },
  { name: 'RMSProp', make: (ps) => new opt.RMSProp({ learning_rate: 0.1, momentum: 0.5, parameters: ps }),
    want: (p, g, _t, s) => { s.ms = 0.95 * (s.ms ?? 0) + 0.05 * g * g; s.mom = 0.5 * (s.mom ?? 0) + (0.1 * g) / Math.sqrt(s.ms + 1e-6); return p - s.mom; } },
  { name: 'RMSProp centered', make: (ps) => new opt.RMSProp({ learning_rate: 0.1, centered: true, parameters: ps }),
    want: (p, g, _t, s) => {
      s.ms = 0.95 * (s.ms ?? 0) + 0.05 * g * g; s.mg = 0.95 * (s.mg ?? 0) + 0.05 * g;
      s.mom = (0.1 * g) / Math.sqrt(s.ms - s.mg * s.mg + 1e-6); return p - s.mom;
    } },
  { name: 'SGD with L2 weight decay', make: (ps) => new opt.SGD({ learning_rate: 0.1, weight_decay: 0.5, parameters: ps }), want: (p, g) => p - 0.1 * (g + 0.5 * p) },
];

describe('optimizer update rules (two steps vs closed form)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const p0 = [1.5, -2, 0.25], g0 = [0.3, -1.2, 2.0];
      const p = param(p0);
      const o = c.make([p]);
      const ref = p0.map(() => ({} as Record<string, number>));
      let want = [...p0];
      for (let t = 1; t <= 2; t++) {
        setGrad(p, g0);
        const before = p;
        o.step();
        expect(p).toBe(before);   // in place: the parameter keeps its identity
        want = want.map((v, i) => c.want(v, g0[i], t, ref[i]));
        near(p, want);
      }
    });
  }
});

describe('optimizer behaviour', () => {
  it('skips parameters without gradients or with stop_gradient', () => {
    const a = param([1, 2]), b = param([3, 4]);
    b.stop_gradient = true;
    setGrad(b, [1, 1]);
    new opt.SGD({ learning_rate: 1, parameters: [a, b] }).step();
    near(a, [1, 2]);
    near(b, [3, 4]);
  });

  it('parameter groups scale the learning rate', () => {
    const a = param([1]), b = param([1]);
    setGrad(a, [1]); setGrad(b, [1]);
    new opt.SGD({ learning_rate: 0.1, parameters: [{ params: [a] }, { params: [b], learning_rate: 0.5 }] }).step();
    near(a, [0.9]);
    near(b, [0.95]);
  });

  it('global-norm clipping scales every gradient together', () => {
    const a = param([0, 0]), b = param([0]);
    setGrad(a, [3, 0]); setGrad(b, [4]);   // global norm 5
    new opt.SGD({ learning_rate: 1, parameters: [a, b], grad_clip: new paddle.nn.ClipGradByGlobalNorm(1) }).step();
    near(a, [-0.6, 0]);
    near(b, [-0.8]);
  });

  it('value and per-tensor clipping', () => {
    const a = param([0, 0]);
    setGrad(a, [3, -7]);
    new opt.SGD({ learning_rate: 1, parameters: [a], grad_clip: new paddle.nn.ClipGradByValue(2) }).step();
    near(a, [-2, 2]);
    const b = param([0, 0]);
    setGrad(b, [3, 4]);
    new opt.SGD({ learning_rate: 1, parameters: [b], grad_clip: new paddle.nn.ClipGradByNorm(2.5) }).step();
    near(b, [-1.5, -2]);
  });

  it('a scheduler drives the rate; state dicts round trip', () => {
    const a = param([1], 'w');
    const sched = new opt.lr.StepDecay(0.1, 1, 0.5);
    const o = new opt.Adam({ learning_rate: sched, parameters: [a] });
    expect(o.get_lr()).toBe(0.1);
    sched.step();
    expect(o.get_lr()).toBe(0.05);
    setGrad(a, [1]);
    o.step();
    const sd = o.state_dict();
    expect(Object.keys(sd).sort()).toEqual(['@step', 'LR_Scheduler', 'w_moment1_0', 'w_moment2_0']);
    const b = param([1], 'w');
    const o2 = new opt.Adam({ learning_rate: new opt.lr.StepDecay(0.1, 1, 0.5), parameters: [b] });
    o2.set_state_dict(sd);
    setGrad(a, [0.5]); setGrad(b, [0.5]);
    paddle.no_grad(() => b.set_item('...', a));
    o.step(); o2.step();
    near(b, a.dataSync() as number[]);
    expect(() => o.set_lr(1)).toThrow(/LRScheduler/);
  });

  it('clear_grad zeroes gradients; errors name the problem', () => {
    const a = param([1]);
    setGrad(a, [2]);
    const o = new opt.SGD({ parameters: [a] });
    o.clear_grad();
    near(a.grad as Tensor, [0]);
    expect(() => new opt.SGD({})).toThrow(/parameters are required/);
    expect(() => new opt.Adam({ parameters: [a], beta1: 1 })).toThrow(/beta1 must be in \[0, 1\)/);
  });
});

describe('LR schedulers follow their closed forms', () => {
  const L = opt.lr;
  const curve = (s: any, n: number) => { const out = [s.get_lr()]; for (let i = 1; i < n; i++) { s.step(); out.push(s.get_lr()); } return out; };
  const table: { name: string; s: () => any; f: (t: number) => number }[] = [
    { name: 'StepDecay', s: () => new L.StepDecay(1, 3, 0.5), f: (t) => 0.5 ** Math.floor(t / 3) },
    { name: 'MultiStepDecay', s: () => new L.MultiStepDecay(1, [2, 5], 0.1), f: (t) => 0.1 ** ((t >= 2 ? 1 : 0) + (t >= 5 ? 1 : 0)) },
    { name: 'ExponentialDecay', s: () => new L.ExponentialDecay(2, 0.9), f: (t) => 2 * 0.9 ** t },
    { name: 'CosineAnnealingDecay', s: () => new L.CosineAnnealingDecay(1, 10, 0.1), f: (t) => 0.1 + 0.45 * (1 + Math.cos((Math.PI * t) / 10)) },
    { name: 'PolynomialDecay', s: () => new L.PolynomialDecay(1, 4, 0, 2), f: (t) => (1 - Math.min(t, 4) / 4) ** 2 },
    { name: 'LinearWarmup', s: () => new L.LinearWarmup(0.5, 4, 0, 0.5), f: (t) => (t < 4 ? (0.5 * t) / 4 : 0.5) },
    { name: 'LinearLR', s: () => new L.LinearLR(1, 4, 0.25, 1), f: (t) => 0.25 + (0.75 * Math.min(t, 4)) / 4 },
    { name: 'CosineAnnealingWarmRestarts T_mult 2', s: () => new L.CosineAnnealingWarmRestarts(1, 2, 2), f: (t) => {
      let T = 2, x = t;
      while (x >= T) { x -= T; T *= 2; }
      return 0.5 * (1 + Math.cos((Math.PI * x) / T));
    } },
  ];
  for (const c of table) {
    it(c.name, () => {
      const got = curve(c.s(), 12);
      got.forEach((v, t) => expect(v).toBeCloseTo(c.f(t), 12));
    });
  }
});

describe('training with autograd', () => {
  it('an MLP fit with Adam reduces its loss', () => {
    paddle.seed(3);
    const net = new paddle.nn.Sequential(new paddle.nn.Linear(2, 16), new paddle.nn.Tanh(), new paddle.nn.Linear(16, 1));
    const o = new opt.Adam({ learning_rate: 0.05, parameters: net.parameters() });
    const x = paddle.rand([64, 2]);
    const y = paddle.sum(paddle.multiply(x, x), { axis: 1, keepdim: true });   // fit |x|^2
    const losses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const loss = paddle.mean(paddle.square(paddle.subtract(net.call(x), y)));
      loss.backward();
      o.step();
      o.clear_grad();
      losses.push(loss.item() as number);
    }
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] * 0.1);
  });
});
