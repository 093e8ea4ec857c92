// Adadelta, Adamax and Lamb against their closed forms (three steps, gradients set by hand),
// per-group settings, AdamW's group decay and apply_decay_param_fun, Lamb's
// exclude_from_weight_decay_fn, and state-dict round trips that continue identically.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { makeParameter } from '../../src/nn/layer.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const opt = paddle.optimizer as any;
const param = (vals: number[], name = 'p') => makeParameter(paddle.to_tensor(vals, 'float64'), name);
const near = (t: Tensor, want: number[], tol = 1e-12) => {
  const got = t.dataSync() as number[];
  expect(got.length).toBe(want.length);
  got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(want[i]))));
};
const setGrad = (p: Tensor, g: number[]) => { p.grad = paddle.to_tensor(g, 'float64'); };
const l2 = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0));

/** One step of a whole-vector reference: (p, g, t, state) -> new p. */
type Ref = (p: number[], g: number[], t: number, s: Record<string, number[]>) => number[];
const zeros = (n: number) => new Array(n).fill(0);

const adadelta = (lr: number, rho: number, eps: number): Ref => (p, g, _t, s) => {
  s.asg ??= zeros(p.length); s.asu ??= zeros(p.length);
  return p.map((pi, i) => {
    s.asg[i] = rho * s.asg[i] + (1 - rho) * g[i] * g[i];
    const u = -Math.sqrt((s.asu[i] + eps) / (s.asg[i] + eps)) * g[i];
    s.asu[i] = rho * s.asu[i] + (1 - rho) * u * u;
    return pi + lr * u;
  });
};
const adamax = (lr: number, b1: number, b2: number, eps: number): Ref => (p, g, t, s) => {
  s.m ??= zeros(p.length); s.u ??= zeros(p.length);
  return p.map((pi, i) => {
    s.m[i] = b1 * s.m[i] + (1 - b1) * g[i];
    s.u[i] = Math.max(b2 * s.u[i] + eps, Math.abs(g[i]));
    return pi - (lr / (1 - b1 ** t)) * (s.m[i] / s.u[i]);
  });
};
const lamb = (lr: number, wd: number, b1: number, b2: number, eps: number, alwaysAdapt = false): Ref => (p, g, t, s) => {
  s.m ??= zeros(p.length); s.v ??= zeros(p.length);
  const r = p.map((pi, i) => {
    s.m[i] = b1 * s.m[i] + (1 - b1) * g[i];
    s.v[i] = b2 * s.v[i] + (1 - b2) * g[i] * g[i];
    return (s.m[i] / (1 - b1 ** t)) / (Math.sqrt(s.v[i] / (1 - b2 ** t)) + eps) + wd * pi;
  });
  const pn = l2(p), rn = l2(r);
  const ratio = (wd > 0 || alwaysAdapt) && pn > 0 && rn > 0 ? pn / rn : 1;
  return p.map((pi, i) => pi - lr * ratio * r[i]);
};

const CASES: { name: string; make: (ps: Tensor[]) => any; ref: Ref }[] = [
  { name: 'Adadelta defaults', make: (ps) => new opt.Adadelta({ parameters: ps }), ref: adadelta(0.001, 0.95, 1e-6) },
  { name: 'Adadelta lr 1 rho 0.9', make: (ps) => new opt.Adadelta({ learning_rate: 1, rho: 0.9, epsilon: 1e-4, parameters: ps }), ref: adadelta(1, 0.9, 1e-4) },
  { name: 'Adamax defaults', make: (ps) => new opt.Adamax({ parameters: ps }), ref: adamax(0.001, 0.9, 0.999, 1e-8) },
  { name: 'Adamax other betas', make: (ps) => new opt.Adamax({ learning_rate: 0.1, beta1: 0.5, beta2: 0.8, epsilon: 1e-3, parameters: ps }), ref: adamax(0.1, 0.5, 0.8, 1e-3) },
  { name: 'Lamb defaults', make: (ps) => new opt.Lamb({ parameters: ps }), ref: lamb(0.001, 0.01, 0.9, 0.999, 1e-6) },
  { name: 'Lamb strong decay', make: (ps) => new opt.Lamb({ learning_rate: 0.05, lamb_weight_decay: 0.3, parameters: ps }), ref: lamb(0.05, 0.3, 0.9, 0.999, 1e-6) },
  { name: 'Lamb no decay (no trust ratio)', make: (ps) => new opt.Lamb({ learning_rate: 0.05, lamb_weight_decay: 0, parameters: ps }), ref: lamb(0.05, 0, 0.9, 0.999, 1e-6) },
  { name: 'Lamb no decay, always_adapt', make: (ps) => new opt.Lamb({ learning_rate: 0.05, lamb_weight_decay: 0, always_adapt: true, parameters: ps }), ref: lamb(0.05, 0, 0.9, 0.999, 1e-6, true) },
  { name: 'Adamax with L2 weight decay through the gradient', make: (ps) => new opt.Adamax({ learning_rate: 0.1, weight_decay: 0.5, parameters: ps }),
    ref: (p, g, t, s) => adamax(0.1, 0.9, 0.999, 1e-8)(p, g.map((gi, i) => gi + 0.5 * p[i]), t, s) },
];

describe('Adadelta, Adamax, Lamb: three steps vs closed form', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const p0 = [1.5, -2, 0.25, 0], grads = [[0.3, -1.2, 2.0, 0.5], [0.1, 0.4, -1.0, 0], [-0.2, -0.3, 0.5, 0.25]];
      const p = param(p0);
      const o = c.make([p]);
      const state: Record<string, number[]> = {};
      let want = [...p0];
      grads.forEach((g, k) => {
        setGrad(p, g);
        o.step();
        want = c.ref(want, g, k + 1, state);
        near(p, want);
      });
    });
  }

  it('float32 parameters take the same path', () => {
    const p = makeParameter(paddle.to_tensor([0.5, -1], 'float32'), 'f');
    p.grad = paddle.to_tensor([0.25, 1], 'float32');
    new opt.Lamb({ learning_rate: 0.1, parameters: [p] }).step();
    const want = lamb(0.1, 0.01, 0.9, 0.999, 1e-6)([0.5, -1], [0.25, 1], 1, {});
    near(p, want, 1e-6);
    expect(p.dtype).toBe('float32');
  });
});

describe('parameter groups and decay selection', () => {
  it('a group overrides the learning rate multiplier and the optimizer settings', () => {
    const a = param([1, -1], 'a'), b = param([1, -1], 'b');
    const o = new opt.Adamax({ learning_rate: 0.1, parameters: [{ params: [a] }, { params: [b], learning_rate: 0.5, beta1: 0.5 }] });
    setGrad(a, [0.5, 2]); setGrad(b, [0.5, 2]);
    o.step();
    near(a, adamax(0.1, 0.9, 0.999, 1e-8)([1, -1], [0.5, 2], 1, {}));
    near(b, adamax(0.05, 0.5, 0.999, 1e-8)([1, -1], [0.5, 2], 1, {}));
  });

  it('Adam groups override beta1; AdamW groups override the decay coefficient', () => {
    const adam = (b1: number, coeff = 0): Ref => (p, g, t, s) => {
      s.m ??= zeros(p.length); s.v ??= zeros(p.length);
      return p.map((pi, i) => {
        pi *= 1 - 0.1 * coeff;
        s.m[i] = b1 * s.m[i] + (1 - b1) * g[i];
        s.v[i] = 0.999 * s.v[i] + 0.001 * g[i] * g[i];
        const c2 = Math.sqrt(1 - 0.999 ** t);
        return pi - ((0.1 * c2) / (1 - b1 ** t)) * (s.m[i] / (Math.sqrt(s.v[i]) + 1e-8 * c2));
      });
    };
    const run = (make: (a: Tensor, b: Tensor) => any, ra: Ref, rb: Ref) => {
      const a = param([1, -3], 'a'), b = param([1, -3], 'b');
      const o = make(a, b);
      const sa = {}, sb = {};
      let wa = [1, -3], wb = [1, -3];
      [[1, 0.5], [-1, 2]].forEach((g, k) => {
        setGrad(a, g); setGrad(b, g);
        o.step();
        wa = ra(wa, g, k + 1, sa); wb = rb(wb, g, k + 1, sb);
        near(a, wa); near(b, wb);
      });
    };
    run((a, b) => new opt.AdamW({ learning_rate: 0.1, weight_decay: 0.01, parameters: [{ params: [a] }, { params: [b], weight_decay: 0.5 }] }),
      adam(0.9, 0.01), adam(0.9, 0.5));
    run((a, b) => new opt.Adam({ learning_rate: 0.1, parameters: [{ params: [a] }, { params: [b], beta1: 0.5 }] }), adam(0.9), adam(0.5));
  });

  it('AdamW apply_decay_param_fun and Lamb exclude_from_weight_decay_fn pick parameters', () => {
    const w = param([1, 2], 'w'), bias = param([1, 2], 'bias');
    const o = new opt.AdamW({ learning_rate: 0.1, weight_decay: 0.5, parameters: [w, bias], apply_decay_param_fun: (n: string) => n !== 'bias' });
    setGrad(w, [0, 0]); setGrad(bias, [0, 0]);
    o.step();
    near(w, [0.95, 1.9]);
    near(bias, [1, 2]);
    const x = param([1.5, -2], 'x'), y = param([1.5, -2], 'y');
    const l = new opt.Lamb({ learning_rate: 0.05, lamb_weight_decay: 0.3, parameters: [x, y], exclude_from_weight_decay_fn: (p: Tensor) => p === y });
    setGrad(x, [0.3, -1.2]); setGrad(y, [0.3, -1.2]);
    l.step();
    near(x, lamb(0.05, 0.3, 0.9, 0.999, 1e-6)([1.5, -2], [0.3, -1.2], 1, {}));
    near(y, lamb(0.05, 0, 0.9, 0.999, 1e-6)([1.5, -2], [0.3, -1.2], 1, {}));
  });
});

describe('state dicts of the new optimizers', () => {
  const KINDS: [string, string[], (ps: Tensor[]) => any][] = [
    ['Adadelta', ['w__avg_squared_grad_0', 'w__avg_squared_update_0'], (ps) => new opt.Adadelta({ learning_rate: 0.5, parameters: ps })],
    ['Adamax', ['w_inf_norm_0', 'w_moment_0'], (ps) => new opt.Adamax({ learning_rate: 0.1, parameters: ps })],
    ['Lamb', ['w_moment1_0', 'w_moment2_0'], (ps) => new opt.Lamb({ learning_rate: 0.1, parameters: ps })],
  ];
  for (const [kind, keys, make] of KINDS) {
    it(`${kind}: keys and a round trip that continues identically`, () => {
      const a = param([1, -0.5], 'w'), b = param([1, -0.5], 'w');
      const oa = make([a]);
      setGrad(a, [0.3, 0.7]); oa.step();
      setGrad(a, [-0.1, 0.2]); oa.step();
      const sd = oa.state_dict();
      expect(Object.keys(sd).sort()).toEqual(['@step', ...keys].sort());
      expect(sd['@step']).toBe(2);
      const ob = make([b]);
      ob.set_state_dict(sd);
      paddle.no_grad(() => b.set_item('...', a));
      setGrad(a, [0.4, -0.9]); setGrad(b, [0.4, -0.9]);
      oa.step(); ob.step();
      near(b, a.dataSync() as number[], 0);
    });
  }

  it('errors name the optimizer and the value', () => {
    const a = param([1]);
    expect(() => new opt.Adamax({ parameters: [a], beta2: 1 })).toThrow(/Adamax: beta2 must be in \[0, 1\), got 1/);
    expect(() => new opt.Lamb({ parameters: [a], beta1: -0.1 })).toThrow(/Lamb: beta1/);
    expect(() => new opt.Lamb({ parameters: [a], lamb_weight_decay: -1 })).toThrow(/Lamb: lamb_weight_decay/);
    expect(() => new opt.Adadelta({ parameters: [a], rho: 2 })).toThrow(/Adadelta: rho must be in \[0, 1\], got 2/);
    expect(() => new opt.Adadelta({})).toThrow(/Adadelta: parameters are required/);
  });
});
