// The update rules, as Paddle's kernels compute them (formulas in each class comment).
import type { Tensor } from '../tensor/tensor.js';
import { L2Decay } from './clip.js';
import { Optimizer, type OptimizerOptions } from './optimizer.js';
import { checkBeta, op, opInplace } from './ops.js';

/** p -= lr * g */
export class SGD extends Optimizer {
  constructor(opts: OptimizerOptions = {}) { super({ learning_rate: 0.001 }, opts); }
  protected override update(p: Tensor, g: Tensor, lr: number): void { opInplace('subtract', p, op('scale', g, lr)); }
}

/** v = mu * v + g; p -= lr * (nesterov ? g + mu * v : v) */
export class Momentum extends Optimizer {
  readonly momentum: number;
  readonly use_nesterov: boolean;
  constructor(opts: OptimizerOptions & { momentum?: number; use_nesterov?: boolean } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.momentum = opts.momentum ?? 0.9;
    this.use_nesterov = opts.use_nesterov ?? false;
  }
  protected override accumulatorNames(): string[] { return ['velocity']; }
  protected override update(p: Tensor, g: Tensor, lr: number): void {
    const v = this.acc(p, 'velocity');
    opInplace('add', opInplace('scale', v, this.momentum), g);
    const dir = this.use_nesterov ? op('add', g, op('scale', v, this.momentum)) : v;
    opInplace('subtract', p, op('scale', dir, lr));
  }
}

/**
 * m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;
 * p -= lr * sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps * sqrt(1-b2^t))   (Paddle's adam kernel)
 */
export class Adam extends Optimizer {
  readonly beta1: number; readonly beta2: number; readonly epsilon: number;
  constructor(opts: OptimizerOptions & { beta1?: number; beta2?: number; epsilon?: number } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.beta1 = opts.beta1 ?? 0.9;
    this.beta2 = opts.beta2 ?? 0.999;
    this.epsilon = opts.epsilon ?? 1e-8;
    checkBeta(new.target.name, 'beta1', this.beta1);
    checkBeta(new.target.name, 'beta2', this.beta2);
  }
  protected override accumulatorNames(): string[] { return ['moment1', 'moment2']; }
  protected override update(p: Tensor, g: Tensor, lr: number, extra?: Record<string, unknown>): void {
    const m = this.acc(p, 'moment1'), v = this.acc(p, 'moment2');
    const t = this.stepCount;
    // a parameter group may override beta1/beta2/epsilon (Paddle's _update_param_group)
    const num = (k: string, own: number) => (typeof extra?.[k] === 'number' ? extra[k] as number : own);
    const b1 = num('beta1', this.beta1), b2 = num('beta2', this.beta2), eps = num('epsilon', this.epsilon);
    opInplace('add', opInplace('scale', m, b1), op('scale', g, 1 - b1));
    opInplace('add', opInplace('scale', v, b2), op('scale', op('square', g), 1 - b2));
    const c2 = Math.sqrt(1 - b2 ** t);
    const lrT = (lr * c2) / (1 - b1 ** t);
    const denom = op('scale', op('sqrt', v), 1, eps * c2);
    opInplace('subtract', p, op('scale', op('divide', m, denom), lrT));
  }
}

/** Adam with decoupled weight decay: p -= lr * coeff * p before the Adam step (default coeff 0.01). */
export class AdamW extends Adam {
  readonly coeff: number;
  readonly apply_decay_param_fun: ((name: string) => boolean) | null;
  constructor(opts: OptimizerOptions & { beta1?: number; beta2?: number; epsilon?: number; apply_decay_param_fun?: (name: string) => boolean } = {}) {
    const wd = opts.weight_decay ?? 0.01;
    if (typeof wd !== 'number') throw new TypeError('AdamW: weight_decay must be a number (the decoupled coefficient)');
    super({ ...opts, weight_decay: null });
    this.coeff = wd;
    this.apply_decay_param_fun = opts.apply_decay_param_fun ?? null;
  }
  protected override decoupledDecay(): boolean { return true; }
  protected override update(p: Tensor, g: Tensor, lr: number, extra: Record<string, unknown>): void {
    // a group's weight_decay replaces the coefficient for its parameters (Paddle's AdamW groups)
    const gd = this.currentGroup?.decay;
    const coeff = gd instanceof L2Decay ? gd.coeff : this.coeff;
    if (coeff && (!this.apply_decay_param_fun || this.apply_decay_param_fun(p.name))) opInplace('scale', p, 1 - lr * coeff);
    super.update(p, g, lr, extra);
  }
}

/** moment += g^2; p -= lr * g / (sqrt(moment) + eps) */
export class Adagrad extends Optimizer {
  readonly epsilon: number; readonly initial_accumulator_value: number;
  constructor(opts: OptimizerOptions & { epsilon?: number; initial_accumulator_value?: number } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.epsilon = opts.epsilon ?? 1e-6;
    this.initial_accumulator_value = opts.initial_accumulator_value ?? 0;
  }
  protected override accumulatorNames(): string[] { return ['moment']; }
  protected override update(p: Tensor, g: Tensor, lr: number): void {
    const m = this.acc(p, 'moment', this.initial_accumulator_value);
    opInplace('add', m, op('square', g));
    opInplace('subtract', p, op('scale', op('divide', g, op('scale', op('sqrt', m), 1, this.epsilon)), lr));
  }
}

/**
 * ms = rho ms + (1-rho) g^2; (centered: mg = rho mg + (1-rho) g, ms - mg^2 under the root)
 * mom = momentum mom + lr g / sqrt(ms + eps); p -= mom   (Paddle's rmsprop kernel)
 */
export class RMSProp extends Optimizer {
  readonly rho: number; readonly epsilon: number; readonly momentum: number; readonly centered: boolean;
  constructor(opts: OptimizerOptions & { rho?: number; epsilon?: number; momentum?: number; centered?: boolean } = {}) {
    super({ learning_rate: 0.001 }, opts);
    this.rho = opts.rho ?? 0.95;
    this.epsilon = opts.epsilon ?? 1e-6;
    this.momentum = opts.momentum ?? 0;
    this.centered = opts.centered ?? false;
  }
  protected override accumulatorNames(): string[] { return ['mean_square', 'mean_grad', 'momentum']; }
  protected override update(p: Tensor, g: Tensor, lr: number): void {
    const ms = this.acc(p, 'mean_square'), mom = this.acc(p, 'momentum');
    opInplace('add', opInplace('scale', ms, this.rho), op('scale', op('square', g), 1 - this.rho));
    let denom = ms;
    if (this.centered) {
      const mg = this.acc(p, 'mean_grad');
      opInplace('add', opInplace('scale', mg, this.rho), op('scale', g, 1 - this.rho));
      denom = op('subtract', ms, op('square', mg));
    }
    const stepT = op('divide', g, op('sqrt', op('scale', denom, 1, this.epsilon)));
    opInplace('add', opInplace('scale', mom, this.momentum), op('scale', stepT, lr));
    opInplace('subtract', p, mom);
  }
}
