// paddle.optimizer.lr: learning-rate schedules. Each scheduler is a pure function of its step
// count (last_epoch) plus its settings, so every one is tested against its closed form; step()
// advances the count and the optimizer reads get_lr() on every update.
export abstract class LRScheduler {
  last_epoch: number;
  last_lr: number;
  constructor(readonly base_lr: number, last_epoch = -1, readonly verbose = false) {
    if (!Number.isFinite(base_lr)) throw new RangeError(`${new.target.name}: learning_rate must be a finite number, got ${base_lr}`);
    this.last_epoch = last_epoch;
    this.last_lr = base_lr;
  }
  /** The rate at `this.last_epoch` (subclasses). */
  abstract compute(): number;
  /** Advances one epoch (or to `epoch`) and recomputes the rate. */
  step(epoch?: number): void {
    this.last_epoch = epoch ?? this.last_epoch + 1;
    this.last_lr = this.compute();
  }
  get_lr(): number { return this.last_lr; }
  state_dict(): { last_epoch: number; last_lr: number } { return { last_epoch: this.last_epoch, last_lr: this.last_lr }; }
  set_state_dict(s: { last_epoch: number; last_lr: number }): void { this.last_epoch = s.last_epoch; this.last_lr = s.last_lr; }
  /** Paddle's schedulers start at epoch 0 once constructed. */
  protected init(): this { this.step(); return this; }
}

/** lr = base * gamma^floor(epoch / step_size). */
export class StepDecay extends LRScheduler {
  constructor(learning_rate: number, readonly step_size: number, readonly gamma = 0.1, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isInteger(step_size) || step_size <= 0) throw new RangeError(`StepDecay: step_size must be a positive integer, got ${step_size}`);
    this.init();
  }
  compute(): number { return this.base_lr * this.gamma ** Math.floor(this.last_epoch / this.step_size); }
}

/** lr = base * gamma^(number of milestones <= epoch). */
export class MultiStepDecay extends LRScheduler {
  constructor(learning_rate: number, readonly milestones: readonly number[], readonly gamma = 0.1, last_epoch = -1) {
    super(learning_rate, last_epoch);
    for (let i = 1; i < milestones.length; i++) if (milestones[i] <= milestones[i - 1]) throw new RangeError('MultiStepDecay: milestones must be increasing');
    this.init();
  }
  compute(): number { return this.base_lr * this.gamma ** this.milestones.filter((m) => m <= this.last_epoch).length; }
}

/** lr = base * gamma^epoch. */
export class ExponentialDecay extends LRScheduler {
  constructor(learning_rate: number, readonly gamma: number, last_epoch = -1) { super(learning_rate, last_epoch); this.init(); }
  compute(): number { return this.base_lr * this.gamma ** this.last_epoch; }
}

/** Cosine from base to eta_min over T_max epochs (the closed form Paddle documents). */
export class CosineAnnealingDecay extends LRScheduler {
  constructor(learning_rate: number, readonly T_max: number, readonly eta_min = 0, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isInteger(T_max) || T_max <= 0) throw new RangeError(`CosineAnnealingDecay: T_max must be a positive integer, got ${T_max}`);
    this.init();
  }
  compute(): number { return this.eta_min + ((this.base_lr - this.eta_min) * (1 + Math.cos((Math.PI * this.last_epoch) / this.T_max))) / 2; }
}

/** Polynomial decay to end_lr over decay_steps; with cycle, decay_steps grows to the next multiple. */
export class PolynomialDecay extends LRScheduler {
  constructor(learning_rate: number, readonly decay_steps: number, readonly end_lr = 0.0001, readonly power = 1.0, readonly cycle = false, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isInteger(decay_steps) || decay_steps <= 0) throw new RangeError(`PolynomialDecay: decay_steps must be a positive integer, got ${decay_steps}`);
    this.init();
  }
  compute(): number {
    let t = this.last_epoch, steps = this.decay_steps;
    if (this.cycle) steps = steps * Math.max(1, Math.ceil(t / steps));
    else t = Math.min(t, steps);
    return (this.base_lr - this.end_lr) * (1 - t / steps) ** this.power + this.end_lr;
  }
}

/** Linear ramp from start_lr to end_lr over warmup_steps, then `learning_rate` (a number or a scheduler it steps). */
export class LinearWarmup extends LRScheduler {
  constructor(readonly learning_rate: number | LRScheduler, readonly warmup_steps: number, readonly start_lr: number, readonly end_lr: number, last_epoch = -1) {
    super(typeof learning_rate === 'number' ? learning_rate : learning_rate.base_lr, last_epoch);
    if (!Number.isInteger(warmup_steps) || warmup_steps <= 0) throw new RangeError(`LinearWarmup: warmup_steps must be a positive integer, got ${warmup_steps}`);
    this.init();
  }
  compute(): number {
    if (this.last_epoch < this.warmup_steps) return ((this.end_lr - this.start_lr) * this.last_epoch) / this.warmup_steps + this.start_lr;
    const inner = this.learning_rate;
    if (typeof inner === 'number') return inner;
    inner.step(this.last_epoch - this.warmup_steps);
    return inner.get_lr();
  }
}

/** Paddle 2.6: lr = base * factor, factor going linearly from start_factor to end_factor over total_steps. */
export class LinearLR extends LRScheduler {
  constructor(learning_rate: number, readonly total_steps: number, readonly start_factor = 1 / 3, readonly end_factor = 1.0, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!(start_factor > 0 && start_factor <= 1)) throw new RangeError(`LinearLR: start_factor must be in (0, 1], got ${start_factor}`);
    if (!Number.isInteger(total_steps) || total_steps <= 0) throw new RangeError(`LinearLR: total_steps must be a positive integer, got ${total_steps}`);
    this.init();
  }
  compute(): number {
    const t = Math.min(this.last_epoch, this.total_steps);
    return this.base_lr * (this.start_factor + ((this.end_factor - this.start_factor) * t) / this.total_steps);
  }
}

/** Paddle 2.6: cosine annealing restarted after T_0 epochs, each period T_mult times longer. */
export class CosineAnnealingWarmRestarts extends LRScheduler {
  constructor(learning_rate: number, readonly T_0: number, readonly T_mult = 1, readonly eta_min = 0, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isInteger(T_0) || T_0 <= 0) throw new RangeError(`CosineAnnealingWarmRestarts: T_0 must be a positive integer, got ${T_0}`);
    if (!Number.isInteger(T_mult) || T_mult < 1) throw new RangeError(`CosineAnnealingWarmRestarts: T_mult must be an integer >= 1, got ${T_mult}`);
    this.init();
  }
  compute(): number {
    let t = Math.max(0, this.last_epoch), period = this.T_0;
    if (this.T_mult === 1) t %= period;
    else {
      const n = Math.floor(Math.log(t / this.T_0 * (this.T_mult - 1) + 1) / Math.log(this.T_mult));
      t -= (this.T_0 * (this.T_mult ** n - 1)) / (this.T_mult - 1);
      period = this.T_0 * this.T_mult ** n;
    }
    return this.eta_min + ((this.base_lr - this.eta_min) * (1 + Math.cos((Math.PI * t) / period))) / 2;
  }
}

export const lr = { LRScheduler, StepDecay, MultiStepDecay, ExponentialDecay, CosineAnnealingDecay, PolynomialDecay, LinearWarmup, LinearLR, CosineAnnealingWarmRestarts };
