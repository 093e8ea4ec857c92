// More of paddle.optimizer.lr (Paddle 2.6): the remaining closed-form decays, the lambda-driven
// ones, OneCycleLR, CyclicLR, and ReduceOnPlateau, which is driven by a metric instead of the
// step count. src/optimizer/index.ts merges these into `lr` next to lr.ts's.
import { Tensor } from '../tensor/tensor.js';
import { LRScheduler } from './lr.js';

const positiveInt = (cls: string, key: string, v: number) => {
  if (!Number.isInteger(v) || v <= 0) throw new RangeError(`${cls}: ${key} must be a positive integer, got ${v}`);
};

/** lr = base * exp(-gamma * epoch). */
export class NaturalExpDecay extends LRScheduler {
  constructor(learning_rate: number, readonly gamma: number, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isFinite(gamma)) throw new RangeError(`NaturalExpDecay: gamma must be a finite number, got ${gamma}`);
    this.init();
  }
  compute(): number { return this.base_lr * Math.exp(-this.gamma * this.last_epoch); }
}

/** lr = base / (1 + gamma * epoch). */
export class InverseTimeDecay extends LRScheduler {
  constructor(learning_rate: number, readonly gamma: number, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!Number.isFinite(gamma)) throw new RangeError(`InverseTimeDecay: gamma must be a finite number, got ${gamma}`);
    this.init();
  }
  compute(): number { return this.base_lr / (1 + this.gamma * this.last_epoch); }
}

/** values[i] for the first boundary the epoch is below, else the last value. */
export class PiecewiseDecay extends LRScheduler {
  readonly boundaries: number[];
  readonly values: number[];
  constructor(boundaries: readonly number[], values: readonly number[], last_epoch = -1) {
    // Paddle's base_lr here is the LRScheduler default (0.1); the rate comes from `values`
    super(0.1, last_epoch);
    if (!boundaries.length) throw new RangeError('PiecewiseDecay: boundaries cannot be empty');
    if (values.length !== boundaries.length + 1) {
      throw new RangeError(`PiecewiseDecay: values must have one more element than boundaries, got ${values.length} values for ${boundaries.length} boundaries`);
    }
    this.boundaries = [...boundaries];
    this.values = [...values];
    this.init();
  }
  compute(): number {
    const i = this.boundaries.findIndex((b) => this.last_epoch < b);
    return this.values[i < 0 ? this.values.length - 1 : i];
  }
}

/** lr = base * d_model^-0.5 * min(epoch^-0.5, epoch * warmup_steps^-1.5) (epoch 0 uses 1 for the first term). */
export class NoamDecay extends LRScheduler {
  constructor(readonly d_model: number, readonly warmup_steps: number, learning_rate = 1.0, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (!(d_model > 0)) throw new RangeError(`NoamDecay: d_model must be positive, got ${d_model}`);
    positiveInt('NoamDecay', 'warmup_steps', warmup_steps);
    this.init();
  }
  compute(): number {
    const t = this.last_epoch;
    const a = t === 0 ? 1 : t ** -0.5;
    return this.base_lr * this.d_model ** -0.5 * Math.min(a, this.warmup_steps ** -1.5 * t);
  }
}

/** lr = base * lr_lambda(epoch). */
export class LambdaDecay extends LRScheduler {
  constructor(learning_rate: number, readonly lr_lambda: (epoch: number) => number, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (typeof lr_lambda !== 'function') throw new TypeError(`LambdaDecay: lr_lambda must be a function, got ${typeof lr_lambda}`);
    this.init();
  }
  compute(): number { return this.base_lr * this.lr_lambda(this.last_epoch); }
}

/** lr = base * prod_{e=1..epoch} lr_lambda(e). */
export class MultiplicativeDecay extends LRScheduler {
  constructor(learning_rate: number, readonly lr_lambda: (epoch: number) => number, last_epoch = -1) {
    super(learning_rate, last_epoch);
    if (typeof lr_lambda !== 'function') throw new TypeError(`MultiplicativeDecay: lr_lambda must be a function, got ${typeof lr_lambda}`);
    this.init();
  }
  compute(): number {
    let lr = this.base_lr;
    for (let e = 1; e <= this.last_epoch; e++) lr *= this.lr_lambda(e);
    return lr;
  }
}

/**
 * Warm up from max/divide_factor to max, then anneal to end_learning_rate ('cos' or 'linear');
 * three_phase goes back down to the initial rate before the final anneal. Phase boundaries are
 * Paddle's: phase_pct * total_steps - 1 (and 2 * phase_pct * total_steps - 2), total_steps - 1.
 */
export class OneCycleLR extends LRScheduler {
  readonly stepConfig: number[];
  readonly stepsSize: number[];
  readonly lrConfig: number[];
  constructor(readonly max_learning_rate: number, readonly total_steps: number, readonly divide_factor = 25.0,
    readonly end_learning_rate = 0.0001, readonly phase_pct = 0.3, readonly anneal_strategy: 'cos' | 'linear' = 'cos',
    readonly three_phase = false, last_epoch = -1) {
    if (!(typeof max_learning_rate === 'number' && max_learning_rate > 0)) throw new RangeError(`OneCycleLR: max_learning_rate must be a positive number, got ${max_learning_rate}`);
    positiveInt('OneCycleLR', 'total_steps', total_steps);
    if (!(divide_factor > 0)) throw new RangeError(`OneCycleLR: divide_factor must be positive, got ${divide_factor}`);
    if (!(end_learning_rate >= 0)) throw new RangeError(`OneCycleLR: end_learning_rate must be non-negative, got ${end_learning_rate}`);
    if (!(phase_pct > 0 && phase_pct < 1)) throw new RangeError(`OneCycleLR: phase_pct must be in (0, 1), got ${phase_pct}`);
    if (three_phase && phase_pct >= 0.5) throw new RangeError(`OneCycleLR: phase_pct must be less than 0.5 when three_phase is true, got ${phase_pct}`);
    if (anneal_strategy !== 'cos' && anneal_strategy !== 'linear') throw new RangeError(`OneCycleLR: anneal_strategy must be 'cos' or 'linear', got ${String(anneal_strategy)}`);
    const initial = max_learning_rate / divide_factor;
    super(initial, last_epoch);
    const T = total_steps;
    if (three_phase) {
      this.stepConfig = [0, phase_pct * T - 1, 2 * phase_pct * T - 2, T - 1, T - 1];
      const s = this.stepConfig;
      this.stepsSize = [s[1] - s[0], s[2] - s[1], s[3] - s[2], s[3] - s[2]];
      this.lrConfig = [initial, max_learning_rate, initial, end_learning_rate];
    } else {
      this.stepConfig = [0, phase_pct * T - 1, T - 1, T - 1];
      const s = this.stepConfig;
      this.stepsSize = [s[1] - s[0], s[2] - s[1], s[2] - s[1]];
      this.lrConfig = [initial, max_learning_rate, end_learning_rate];
    }
    if (this.stepsSize.some((d) => !(d > 0))) {
      throw new RangeError(`OneCycleLR: total_steps ${total_steps} is too small for phase_pct ${phase_pct} (a phase would have no steps)`);
    }
    this.init();
  }
  private anneal(start: number, end: number, pct: number): number {
    return this.anneal_strategy === 'cos' ? end + ((start - end) / 2) * (Math.cos(Math.PI * pct) + 1) : (end - start) * pct + start;
  }
  compute(): number {
    const t = this.last_epoch;
    if (t > this.total_steps) throw new RangeError(`OneCycleLR: tried to step ${t} times, but the number of total steps is ${this.total_steps}`);
    const last = this.lrConfig.length - 2;
    for (let i = 0; i < this.stepsSize.length; i++) {
      if (t <= this.stepConfig[i + 1] || i === last) return this.anneal(this.lrConfig[i], this.lrConfig[i + 1], (t - this.stepConfig[i]) / this.stepsSize[i]);
    }
    return this.lrConfig[this.lrConfig.length - 1];
  }
}

/**
 * Cycles between base_learning_rate and max_learning_rate: up over step_size_up steps, down over
 * step_size_down; the amplitude is scaled by scale_fn of the cycle number (scale_mode 'cycle')
 * or of the step count ('iterations'). Modes: triangular (1), triangular2 (halves each cycle),
 * exp_range (exp_gamma^iterations).
 */
export class CyclicLR extends LRScheduler {
  readonly max_lr: number;
  readonly cycle_size: number;
  readonly step_up_pct: number;
  readonly scale_fn: (x: number) => number;
  readonly scale_mode: 'cycle' | 'iterations';
  constructor(base_learning_rate: number, max_learning_rate: number, readonly step_size_up: number, step_size_down: number | null = null,
    readonly mode: 'triangular' | 'triangular2' | 'exp_range' = 'triangular', readonly exp_gamma = 1.0,
    scale_fn: ((x: number) => number) | null = null, scale_mode: 'cycle' | 'iterations' = 'cycle', last_epoch = -1) {
    if (!Number.isFinite(max_learning_rate) || !(max_learning_rate >= 0)) throw new RangeError(`CyclicLR: max_learning_rate must be a non-negative number, got ${max_learning_rate}`);
    positiveInt('CyclicLR', 'step_size_up', step_size_up);
    const down = step_size_down ?? step_size_up;
    positiveInt('CyclicLR', 'step_size_down', down);
    if (!['triangular', 'triangular2', 'exp_range'].includes(mode) && !scale_fn) {
      throw new RangeError(`CyclicLR: mode must be 'triangular', 'triangular2' or 'exp_range' (or pass scale_fn), got ${String(mode)}`);
    }
    if (scale_mode !== 'cycle' && scale_mode !== 'iterations') throw new RangeError(`CyclicLR: scale_mode must be 'cycle' or 'iterations', got ${String(scale_mode)}`);
    super(base_learning_rate, last_epoch);
    this.max_lr = max_learning_rate;
    this.cycle_size = step_size_up + down;
    this.step_up_pct = step_size_up / this.cycle_size;
    if (scale_fn) { this.scale_fn = scale_fn; this.scale_mode = scale_mode; }
    else if (mode === 'triangular') { this.scale_fn = () => 1; this.scale_mode = 'cycle'; }
    else if (mode === 'triangular2') { this.scale_fn = (x) => 1 / 2 ** (x - 1); this.scale_mode = 'cycle'; }
    else { this.scale_fn = (x) => exp_gamma ** x; this.scale_mode = 'iterations'; }
    this.init();
  }
  compute(): number {
    const it = this.last_epoch;
    const cycle = 1 + Math.floor(it / this.cycle_size);
    const pct = 1 + it / this.cycle_size - cycle;
    const f = pct <= this.step_up_pct ? pct / this.step_up_pct : (1 - pct) / (1 - this.step_up_pct);
    return this.base_lr + (this.max_lr - this.base_lr) * f * this.scale_fn(this.scale_mode === 'cycle' ? cycle : it);
  }
}

export interface ReduceOnPlateauState { last_epoch: number; last_lr: number; cooldown_counter: number; best: number | null; num_bad_epochs: number }

/**
 * Multiplies the rate by `factor` once the metric passed to step(metric) has not improved for
 * more than `patience` epochs (improved: below best*(1-threshold) in 'min'/'rel' mode, below
 * best-threshold in 'abs'; mirrored for 'max'), then waits `cooldown` epochs; never below min_lr,
 * and changes smaller than epsilon are ignored.
 */
export class ReduceOnPlateau extends LRScheduler {
  readonly mode: 'min' | 'max';
  readonly threshold_mode: 'rel' | 'abs';
  readonly factor: number; readonly patience: number; readonly threshold: number;
  readonly cooldown: number; readonly min_lr: number; readonly epsilon: number;
  cooldown_counter = 0;
  best: number | null = null;
  num_bad_epochs = 0;
  constructor(learning_rate: number, opts: {
    mode?: 'min' | 'max'; factor?: number; patience?: number; threshold?: number; threshold_mode?: 'rel' | 'abs';
    cooldown?: number; min_lr?: number; epsilon?: number;
  } = {}) {
    super(learning_rate, 0);
    const mode = (opts.mode ?? 'min').toLowerCase(), tm = (opts.threshold_mode ?? 'rel').toLowerCase();
    const { factor = 0.1, patience = 10, threshold = 1e-4, cooldown = 0, min_lr = 0, epsilon = 1e-8 } = opts;
    if (mode !== 'min' && mode !== 'max') throw new RangeError(`ReduceOnPlateau: mode must be 'min' or 'max', got ${mode}`);
    if (tm !== 'rel' && tm !== 'abs') throw new RangeError(`ReduceOnPlateau: threshold_mode must be 'rel' or 'abs', got ${tm}`);
    if (!(factor < 1.0)) throw new RangeError(`ReduceOnPlateau: new_lr = origin_lr * factor and factor should be < 1.0, got ${factor}`);
    if (!(Number.isInteger(patience) && patience >= 0)) throw new RangeError(`ReduceOnPlateau: patience must be a non-negative integer, got ${patience}`);
    if (!(Number.isInteger(cooldown) && cooldown >= 0)) throw new RangeError(`ReduceOnPlateau: cooldown must be a non-negative integer, got ${cooldown}`);
    this.factor = factor; this.patience = patience; this.threshold = threshold;
    this.cooldown = cooldown; this.min_lr = min_lr; this.epsilon = epsilon;
    this.mode = mode;
    this.threshold_mode = tm;
    // Paddle's ReduceOnPlateau starts at epoch 0 without a step (it needs a metric to step)
  }
  compute(): number { return this.last_lr; }
  private isBetter(cur: number, best: number): boolean {
    if (this.mode === 'min') return this.threshold_mode === 'rel' ? cur < best - best * this.threshold : cur < best - this.threshold;
    return this.threshold_mode === 'rel' ? cur > best + best * this.threshold : cur > best + this.threshold;
  }
  /** One epoch with the monitored metric (a number or a one-element tensor). */
  override step(metrics?: number | Tensor, epoch?: number): void {
    let m: number;
    if (typeof metrics === 'number') m = metrics;
    else if (metrics instanceof Tensor) {
      if (metrics.size !== 1) throw new RangeError(`ReduceOnPlateau: the metric must be a number or a tensor with one element, got shape [${metrics.shape.join(', ')}]`);
      m = Number(metrics.item());
    } else throw new TypeError(`ReduceOnPlateau: step(metrics) needs the monitored metric (a number or a one-element tensor), got ${String(metrics)}`);
    this.last_epoch = epoch ?? this.last_epoch + 1;
    if (this.cooldown_counter > 0) { this.cooldown_counter--; return; }
    if (this.best === null || this.isBetter(m, this.best)) { this.best = m; this.num_bad_epochs = 0; }
    else this.num_bad_epochs++;
    if (this.num_bad_epochs > this.patience) {
      this.cooldown_counter = this.cooldown;
      this.num_bad_epochs = 0;
      const next = Math.max(this.last_lr * this.factor, this.min_lr);
      if (this.last_lr - next > this.epsilon) this.last_lr = next;
    }
  }
  override state_dict(): ReduceOnPlateauState {
    return { last_epoch: this.last_epoch, last_lr: this.last_lr, cooldown_counter: this.cooldown_counter, best: this.best, num_bad_epochs: this.num_bad_epochs };
  }
  override set_state_dict(s: Partial<ReduceOnPlateauState> & { last_epoch: number; last_lr: number }): void {
    super.set_state_dict(s);
    this.cooldown_counter = s.cooldown_counter ?? 0;
    this.best = s.best ?? null;
    this.num_bad_epochs = s.num_bad_epochs ?? 0;
  }
}

export const lrMore = { NaturalExpDecay, InverseTimeDecay, PiecewiseDecay, NoamDecay, LambdaDecay, MultiplicativeDecay, OneCycleLR, CyclicLR, ReduceOnPlateau };
