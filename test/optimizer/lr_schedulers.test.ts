// Every paddle.optimizer.lr scheduler against its closed form, table-driven: each row builds a
// scheduler and gives the formula of its rate at epoch t, written here from Paddle's
// documentation (not from a run). ReduceOnPlateau, driven by a metric, has its own table of
// metric sequences with the rates worked out by hand. Also state dicts and argument errors.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';

const L = paddle.optimizer.lr as any;
const curve = (s: any, n: number) => { const out = [s.get_lr()]; for (let i = 1; i < n; i++) { s.step(); out.push(s.get_lr()); } return out; };
const cosAnneal = (start: number, end: number, pct: number) => end + ((start - end) * (1 + Math.cos(Math.PI * pct))) / 2;
const linAnneal = (start: number, end: number, pct: number) => start + (end - start) * pct;
const fact = (n: number): number => (n <= 1 ? 1 : n * fact(n - 1));

/** A piecewise schedule: phases [from step, to step, start lr, end lr]; t past the last phase extends it. */
const phases = (ps: [number, number, number, number][], anneal: typeof cosAnneal) => (t: number) => {
  const k = ps.findIndex(([, to]) => t <= to);
  const [from, to, a, b] = ps[k < 0 ? ps.length - 1 : k];
  return anneal(a, b, (t - from) / (to - from));
};

const TABLE: { name: string; s: () => any; f: (t: number) => number; n?: number }[] = [
  { name: 'StepDecay', s: () => new L.StepDecay(0.5, 3, 0.2), f: (t) => 0.5 * 0.2 ** Math.floor(t / 3) },
  { name: 'MultiStepDecay', s: () => new L.MultiStepDecay(1, [2, 5, 9], 0.5), f: (t) => 0.5 ** [2, 5, 9].filter((m) => t >= m).length },
  { name: 'ExponentialDecay', s: () => new L.ExponentialDecay(2, 0.8), f: (t) => 2 * 0.8 ** t },
  { name: 'NaturalExpDecay', s: () => new L.NaturalExpDecay(0.5, 0.1), f: (t) => 0.5 * Math.exp(-0.1 * t) },
  { name: 'InverseTimeDecay', s: () => new L.InverseTimeDecay(0.5, 0.25), f: (t) => 0.5 / (1 + 0.25 * t) },
  { name: 'PiecewiseDecay', s: () => new L.PiecewiseDecay([3, 6], [1, 0.5, 0.1]), f: (t) => (t < 3 ? 1 : t < 6 ? 0.5 : 0.1) },
  { name: 'NoamDecay', s: () => new L.NoamDecay(64, 4, 2), f: (t) => (2 / 8) * Math.min(t === 0 ? 1 : 1 / Math.sqrt(t), t / 8) },
  { name: 'LambdaDecay', s: () => new L.LambdaDecay(0.5, (e: number) => 0.95 ** e), f: (t) => 0.5 * 0.95 ** t },
  { name: 'MultiplicativeDecay', s: () => new L.MultiplicativeDecay(0.5, (e: number) => 1 / (e + 1)), f: (t) => 0.5 / fact(t + 1) },
  { name: 'CosineAnnealingDecay', s: () => new L.CosineAnnealingDecay(1, 10, 0.1), f: (t) => cosAnneal(1, 0.1, t / 10) },
  { name: 'PolynomialDecay', s: () => new L.PolynomialDecay(1, 4, 0.1, 2), f: (t) => 0.9 * (1 - Math.min(t, 4) / 4) ** 2 + 0.1 },
  { name: 'PolynomialDecay cycle', s: () => new L.PolynomialDecay(1, 4, 0.1, 1, true),
    f: (t) => { const steps = 4 * Math.max(1, Math.ceil(t / 4)); return 0.9 * (1 - t / steps) + 0.1; } },
  { name: 'LinearWarmup to a number', s: () => new L.LinearWarmup(0.5, 4, 0.1, 0.5), f: (t) => (t < 4 ? 0.1 + (0.4 * t) / 4 : 0.5) },
  { name: 'LinearWarmup to a scheduler', s: () => new L.LinearWarmup(new L.ExponentialDecay(0.5, 0.9), 3, 0, 0.5),
    f: (t) => (t < 3 ? (0.5 * t) / 3 : 0.5 * 0.9 ** (t - 3)) },
  { name: 'LinearLR', s: () => new L.LinearLR(2, 5, 0.2, 0.8), f: (t) => 2 * (0.2 + (0.6 * Math.min(t, 5)) / 5) },
  { name: 'CosineAnnealingWarmRestarts T_mult 1', s: () => new L.CosineAnnealingWarmRestarts(1, 4, 1, 0.2), f: (t) => cosAnneal(1, 0.2, (t % 4) / 4) },
  { name: 'CosineAnnealingWarmRestarts T_mult 2', s: () => new L.CosineAnnealingWarmRestarts(1, 2, 2),
    f: (t) => { let T = 2, x = t; while (x >= T) { x -= T; T *= 2; } return cosAnneal(1, 0, x / T); }, n: 20 },
  // OneCycleLR(1, 10): initial 1/25, phase ends at 0.3*10-1 = 2 and 10-1 = 9 (step 10 extends the last phase)
  { name: 'OneCycleLR cos', s: () => new L.OneCycleLR(1, 10), f: phases([[0, 2, 0.04, 1], [2, 9, 1, 1e-4]], cosAnneal), n: 11 },
  { name: 'OneCycleLR linear', s: () => new L.OneCycleLR(2, 20, 10, 0.001, 0.25, 'linear'), f: phases([[0, 4, 0.2, 2], [4, 19, 2, 0.001]], linAnneal), n: 21 },
  { name: 'OneCycleLR three_phase', s: () => new L.OneCycleLR(1, 10, 25, 1e-4, 0.3, 'cos', true),
    f: phases([[0, 2, 0.04, 1], [2, 4, 1, 0.04], [4, 9, 0.04, 1e-4]], cosAnneal), n: 11 },
  // CyclicLR(0.1, 1, up 2, down 3): period 5, up for 2 steps then down for 3
  { name: 'CyclicLR triangular', s: () => new L.CyclicLR(0.1, 1, 2, 3),
    f: (t) => { const x = t % 5; return 0.1 + 0.9 * (x <= 2 ? x / 2 : (5 - x) / 3); }, n: 16 },
  { name: 'CyclicLR triangular2', s: () => new L.CyclicLR(0.1, 1, 2, 3, 'triangular2'),
    f: (t) => { const x = t % 5; return 0.1 + 0.9 * 0.5 ** Math.floor(t / 5) * (x <= 2 ? x / 2 : (5 - x) / 3); }, n: 16 },
  { name: 'CyclicLR exp_range', s: () => new L.CyclicLR(0.1, 1, 3, null, 'exp_range', 0.9),
    f: (t) => { const x = t % 6; return 0.1 + 0.9 * 0.9 ** t * (x <= 3 ? x / 3 : (6 - x) / 3); }, n: 16 },
];

describe('LR schedulers follow their closed forms', () => {
  for (const c of TABLE) {
    it(c.name, () => {
      const got = curve(c.s(), c.n ?? 14);
      got.forEach((v, t) => expect(v, `epoch ${t}`).toBeCloseTo(c.f(t), 12));
    });
  }

  it('step(epoch) jumps straight to that epoch', () => {
    for (const c of TABLE.filter((r) => !r.name.startsWith('LinearWarmup to a scheduler'))) {
      const s = c.s();
      s.step(7);
      expect(s.get_lr(), c.name).toBeCloseTo(c.f(7), 12);
    }
  });

  it('state_dict round trips', () => {
    const a = new L.OneCycleLR(1, 10);
    for (let i = 0; i < 4; i++) a.step();
    const b = new L.OneCycleLR(1, 10);
    b.set_state_dict(a.state_dict());
    expect(b.last_epoch).toBe(4);
    b.step(); a.step();
    expect(b.get_lr()).toBe(a.get_lr());
  });
});

describe('ReduceOnPlateau', () => {
  // rates after each step(metric), worked out from the rule: a metric improves when it is below
  // best*(1-threshold) ('min', 'rel'); more than `patience` non-improving epochs multiply the rate
  // by `factor` and start `cooldown` epochs in which metrics are ignored
  const CASES: { name: string; make: () => any; metrics: number[]; want: number[] }[] = [
    { name: 'min rel with cooldown', make: () => new L.ReduceOnPlateau(1, { factor: 0.5, patience: 2, threshold: 0.1, cooldown: 1 }),
      metrics: [10, 9.5, 9.2, 9.1, 8, 8, 8, 8, 8, 8], want: [1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25] },
    { name: 'min_lr floor', make: () => new L.ReduceOnPlateau(1, { factor: 0.5, patience: 0, min_lr: 0.3 }),
      metrics: [5, 5, 5, 5], want: [1, 0.5, 0.3, 0.3] },
    { name: 'max abs', make: () => new L.ReduceOnPlateau(1, { mode: 'max', threshold_mode: 'abs', threshold: 1, patience: 0 }),
      metrics: [1, 1.5, 3, 3.5], want: [1, 0.1, 0.1, 0.01] },
    { name: 'min abs, steady improvement never decays', make: () => new L.ReduceOnPlateau(0.2, { threshold_mode: 'abs', threshold: 0.5, patience: 1 }),
      metrics: [10, 9, 8, 7, 6], want: [0.2, 0.2, 0.2, 0.2, 0.2] },
  ];
  for (const c of CASES) {
    it(c.name, () => {
      const s = c.make();
      expect(s.get_lr()).toBe(c.want[0] === 1 ? 1 : s.base_lr);
      const got = c.metrics.map((m) => { s.step(m); return s.get_lr(); });
      got.forEach((v: number, i: number) => expect(v, `after metric ${i}`).toBeCloseTo(c.want[i], 14));
    });
  }

  it('takes one-element tensors; state round trips; drives an optimizer', () => {
    const s = new L.ReduceOnPlateau(1, { patience: 0 });
    s.step(paddle.to_tensor([2.0], 'float32'));
    s.step(paddle.to_tensor(3.0, 'float64'));
    expect(s.get_lr()).toBeCloseTo(0.1, 14);
    const t = new L.ReduceOnPlateau(1, { patience: 0 });
    t.set_state_dict(s.state_dict());
    expect([t.best, t.last_epoch, t.get_lr()]).toEqual([2, 2, s.get_lr()]);
    const p = paddle.to_tensor([1], 'float64');
    const o = new paddle.optimizer.SGD({ learning_rate: s, parameters: [p] });
    expect(o.get_lr()).toBeCloseTo(0.1, 14);
    expect(() => s.step(paddle.to_tensor([1, 2], 'float32'))).toThrow(/ReduceOnPlateau: the metric must be .* one element, got shape \[2\]/);
    expect(() => s.step()).toThrow(/ReduceOnPlateau: step\(metrics\) needs the monitored metric/);
  });
});

describe('scheduler argument errors name the scheduler', () => {
  const BAD: [() => unknown, RegExp][] = [
    [() => new L.PiecewiseDecay([], [1]), /PiecewiseDecay: boundaries cannot be empty/],
    [() => new L.PiecewiseDecay([2, 4], [1, 2]), /PiecewiseDecay: values must have one more element than boundaries, got 2 values for 2/],
    [() => new L.NoamDecay(0, 4), /NoamDecay: d_model must be positive, got 0/],
    [() => new L.LambdaDecay(1, 3), /LambdaDecay: lr_lambda must be a function/],
    [() => new L.OneCycleLR(1, 10, 25, 1e-4, 0.6, 'cos', true), /OneCycleLR: phase_pct must be less than 0.5/],
    [() => new L.OneCycleLR(1, 10, 25, 1e-4, 0.3, 'exp'), /OneCycleLR: anneal_strategy must be 'cos' or 'linear', got exp/],
    [() => new L.OneCycleLR(1, 2), /OneCycleLR: total_steps 2 is too small/],
    [() => new L.CyclicLR(0.1, 1, 0), /CyclicLR: step_size_up must be a positive integer, got 0/],
    [() => new L.CyclicLR(0.1, 1, 2, 2, 'saw'), /CyclicLR: mode must be/],
    [() => new L.ReduceOnPlateau(1, { mode: 'mid' }), /ReduceOnPlateau: mode must be 'min' or 'max', got mid/],
    [() => new L.ReduceOnPlateau(1, { factor: 1.5 }), /ReduceOnPlateau: .*factor should be < 1.0, got 1.5/],
    [() => new L.ReduceOnPlateau(1, { threshold_mode: 'x' }), /ReduceOnPlateau: threshold_mode must be 'rel' or 'abs'/],
  ];
  it('each bad construction throws', () => {
    for (const [f, re] of BAD) expect(f).toThrow(re);
  });
  it('OneCycleLR refuses to step past total_steps', () => {
    const s = new L.OneCycleLR(1, 3, 25, 1e-4, 0.5);
    s.step(3);
    expect(() => s.step()).toThrow(/OneCycleLR: tried to step 4 times/);
  });
});
