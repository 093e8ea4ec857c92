// Adadelta, Adamax and Lamb, as Paddle 2.6's kernels compute them (formulas in each class
// comment). Like the other optimizers they are compositions of registry ops written in place
// into the parameter and its accumulators: no op of their own, so nothing to keep in sync.
// A parameter group may override the per-optimizer settings (Paddle's _update_param_group):
// { params, beta1: 0.8 } changes beta1 for that group only.
import { set_item } from '../ops/setitem.js';
import type { Tensor } from '../tensor/tensor.js';
import { Optimizer, type OptimizerOptions } from './optimizer.js';
import { checkBeta, op, opInplace } from './ops.js';

/** A group's override of a numeric setting, else the optimizer's own value. */
const setting = (extra: Record<string, unknown> | undefined, key: string, own: number): number => {
  const v = extra?.[key];
  return typeof v === 'number' ? v : own;
};

/**
 * asg = rho asg + (1-rho) g^2;  u = -sqrt((asu + eps) / (asg + eps)) * g;
 * asu = rho asu + (1-rho) u^2;  p += lr * u        (Paddle 2.6's adadelta kernel, lr included)
 */
export class Adadelta extends Optimizer {
  readonly rho: number; readonly epsilon: number;
  constructor(opts: OptimizerOptions & { rho?: number; epsilon?: number } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.rho = opts.rho ?? 0.95;
    this.epsilon = opts.epsilon ?? 1e-6;
    if (!(this.rho >= 0 && this.rho <= 1)) throw new RangeError(`Adadelta: rho must be in [0, 1], got ${this.rho}`);
    if (!(this.epsilon >= 0)) throw new RangeError(`Adadelta: epsilon must be non-negative, got ${this.epsilon}`);
  }
  // Paddle's accumulator names start with '_' (keys read '<param>__avg_squared_grad_0')
  protected override accumulatorNames(): string[] { return ['_avg_squared_grad', '_avg_squared_update']; }
  protected override update(p: Tensor, g: Tensor, lr: number, extra: Record<string, unknown>): void {
    const rho = setting(extra, 'rho', this.rho), eps = setting(extra, 'epsilon', this.epsilon);
    const asg = this.acc(p, '_avg_squared_grad'), asu = this.acc(p, '_avg_squared_update');
    opInplace('add', opInplace('scale', asg, rho), op('scale', op('square', g), 1 - rho));
    const ratio = op('divide', op('scale', asu, 1, eps), op('scale', asg, 1, eps));
    const u = op('multiply', op('sqrt', ratio), g);   // -update: the sign goes into the subtraction
    opInplace('add', opInplace('scale', asu, rho), op('scale', op('square', u), 1 - rho));
    opInplace('subtract', p, op('scale', u, lr));
  }
}

/**
 * m = b1 m + (1-b1) g;  u = max(b2 u + eps, |g|);  p -= lr / (1 - b1^t) * m / u
 * (Paddle's adamax kernel: epsilon is added inside the max, not to the denominator)
 */
export class Adamax extends Optimizer {
  readonly beta1: number; readonly beta2: number; readonly epsilon: number;
  constructor(opts: OptimizerOptions & { beta1?: number; beta2?: number; epsilon?: number } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.beta1 = opts.beta1 ?? 0.9;
    this.beta2 = opts.beta2 ?? 0.999;
    this.epsilon = opts.epsilon ?? 1e-8;
    checkBeta('Adamax', 'beta1', this.beta1);
    checkBeta('Adamax', 'beta2', this.beta2);
    if (!(this.epsilon >= 0)) throw new RangeError(`Adamax: epsilon must be non-negative, got ${this.epsilon}`);
  }
  protected override accumulatorNames(): string[] { return ['moment', 'inf_norm']; }
  protected override update(p: Tensor, g: Tensor, lr: number, extra: Record<string, unknown>): void {
    const b1 = setting(extra, 'beta1', this.beta1), b2 = setting(extra, 'beta2', this.beta2), eps = setting(extra, 'epsilon', this.epsilon);
    const m = this.acc(p, 'moment'), u = this.acc(p, 'inf_norm');
    opInplace('add', opInplace('scale', m, b1), op('scale', g, 1 - b1));
    // maximum has no inplace form: the new norm is written back through set_item
    set_item(u, '...', op('maximum', op('scale', u, b2, eps), op('abs', g)));
    const lrT = lr / (1 - b1 ** this.stepCount);
    opInplace('subtract', p, op('scale', op('divide', m, u), lrT));
  }
}

/**
 * m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;
 * r = (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps) + wd * p;
 * p -= lr * (||p|| / ||r||) * r   (trust ratio 1 when a norm is 0, or when wd is 0 and not always_adapt)
 * wd is lamb_weight_decay, 0 for parameters exclude_from_weight_decay_fn(p) is true for.
 */
export class Lamb extends Optimizer {
  readonly lamb_weight_decay: number; readonly beta1: number; readonly beta2: number; readonly epsilon: number;
  readonly always_adapt: boolean;
  readonly exclude_from_weight_decay_fn: ((p: Tensor) => boolean) | null;
  constructor(opts: Omit<OptimizerOptions, 'weight_decay'> & {
    lamb_weight_decay?: number; beta1?: number; beta2?: number; epsilon?: number; always_adapt?: boolean;
    exclude_from_weight_decay_fn?: ((p: Tensor) => boolean) | null;
  } = {}) {
    // Lamb's decay lives in its own update (lamb_weight_decay), never through the gradient
    super({ learning_rate: 0.001 }, { ...opts, weight_decay: null });
    this.lamb_weight_decay = opts.lamb_weight_decay ?? 0.01;
    this.beta1 = opts.beta1 ?? 0.9;
    this.beta2 = opts.beta2 ?? 0.999;
    this.epsilon = opts.epsilon ?? 1e-6;
    this.always_adapt = opts.always_adapt ?? false;
    this.exclude_from_weight_decay_fn = opts.exclude_from_weight_decay_fn ?? null;
    checkBeta('Lamb', 'beta1', this.beta1);
    checkBeta('Lamb', 'beta2', this.beta2);
    if (!(this.lamb_weight_decay >= 0)) throw new RangeError(`Lamb: lamb_weight_decay must be non-negative, got ${this.lamb_weight_decay}`);
    if (!(this.epsilon >= 0)) throw new RangeError(`Lamb: epsilon must be non-negative, got ${this.epsilon}`);
  }
  protected override decoupledDecay(): boolean { return true; }
  protected override accumulatorNames(): string[] { return ['moment1', 'moment2']; }
  protected override update(p: Tensor, g: Tensor, lr: number, extra: Record<string, unknown>): void {
    const b1 = setting(extra, 'beta1', this.beta1), b2 = setting(extra, 'beta2', this.beta2), eps = setting(extra, 'epsilon', this.epsilon);
    const wd = this.exclude_from_weight_decay_fn?.(p) ? 0 : setting(extra, 'lamb_weight_decay', this.lamb_weight_decay);
    const m = this.acc(p, 'moment1'), v = this.acc(p, 'moment2');
    const t = this.stepCount;
    opInplace('add', opInplace('scale', m, b1), op('scale', g, 1 - b1));
    opInplace('add', opInplace('scale', v, b2), op('scale', op('square', g), 1 - b2));
    const mHat = op('scale', m, 1 / (1 - b1 ** t));
    const denom = op('scale', op('sqrt', op('scale', v, 1 / (1 - b2 ** t))), 1, eps);
    let r = op('divide', mHat, denom);
    if (wd) r = op('add', r, op('scale', p, wd));
    let ratio = 1;
    if (wd > 0 || this.always_adapt) {
      // the norms in float64 whatever p's dtype: one scalar each, read once
      const norm = (x: Tensor) => Math.sqrt(op('sum', op('square', op('cast', x, 'float64'))).item() as number);
      const pn = norm(p), rn = norm(r);
      if (pn > 0 && rn > 0) ratio = pn / rn;
    }
    opInplace('subtract', p, op('scale', r, lr * ratio));
  }
}
