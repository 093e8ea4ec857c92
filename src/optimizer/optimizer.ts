// paddle.optimizer for TypeScript. An optimizer holds parameters (or parameter groups), a
// learning rate (number or LRScheduler), weight decay and gradient clipping; step() updates
// every trainable parameter that has a gradient, in place (parameters keep their identity, so
// layers, captured graphs and state dicts holding them see the new values). State tensors
// (moments, accumulators) are named as in Paddle: `<param name>_moment1_0`, ...
import { no_grad } from '../autograd/index.js';
import { set_item } from '../ops/setitem.js';
import { persist, scope, type Tensor } from '../tensor/tensor.js';
import { type GradClip, L1Decay, L2Decay } from './clip.js';
import { LRScheduler } from './lr.js';
import { op, opInplace } from './ops.js';

export interface ParamGroup { params: Tensor[]; learning_rate?: number; weight_decay?: number | L2Decay | L1Decay | null; [k: string]: unknown }
export interface OptimizerOptions {
  learning_rate?: number | LRScheduler;
  parameters?: Tensor[] | ParamGroup[];
  weight_decay?: number | L2Decay | L1Decay | null;
  grad_clip?: GradClip | null;
}

type Decay = L2Decay | L1Decay | null;
const toDecay = (w: number | L2Decay | L1Decay | null | undefined): Decay => (typeof w === 'number' ? new L2Decay(w) : w ?? null);

export abstract class Optimizer {
  protected _learning_rate: number | LRScheduler;
  readonly groups: { params: Tensor[]; lrScale: number; decay: Decay; extra: Record<string, unknown> }[];
  readonly grad_clip: GradClip | null;
  /** Per-parameter state: accumulator name → tensor. */
  protected readonly accumulators = new Map<Tensor, Map<string, Tensor>>();
  /** Steps taken (Adam's bias correction reads it). */
  protected stepCount = 0;
  /** The group being updated during step() (AdamW reads a group's own decay coefficient). */
  protected currentGroup: Optimizer['groups'][number] | null = null;

  constructor(defaults: Required<Pick<OptimizerOptions, 'learning_rate'>>, opts: OptimizerOptions) {
    this._learning_rate = opts.learning_rate ?? defaults.learning_rate;
    if (typeof this._learning_rate === 'number' && !(this._learning_rate >= 0)) throw new RangeError(`${new.target.name}: learning_rate must be a non-negative number, got ${this._learning_rate}`);
    if (!opts.parameters) throw new TypeError(`${new.target.name}: parameters are required in dygraph mode (pass layer.parameters())`);
    const decay = toDecay(opts.weight_decay);
    const ps = opts.parameters;
    const isGroups = ps.length > 0 && !('dtype' in (ps[0] as object));
    this.groups = isGroups
      ? (ps as ParamGroup[]).map((g) => {
        const { params, learning_rate, weight_decay, ...extra } = g;
        // Paddle: a group's learning_rate scales the optimizer's rate
        return { params: [...params], lrScale: learning_rate ?? 1, decay: weight_decay === undefined ? decay : toDecay(weight_decay), extra };
      })
      : [{ params: [...(ps as Tensor[])], lrScale: 1, decay, extra: {} }];
    this.grad_clip = opts.grad_clip ?? null;
  }

  get_lr(): number { return typeof this._learning_rate === 'number' ? this._learning_rate : this._learning_rate.get_lr(); }
  set_lr(v: number): void {
    if (this._learning_rate instanceof LRScheduler) throw new TypeError('set_lr: the learning rate is an LRScheduler; step the scheduler instead');
    this._learning_rate = v;
  }
  set_lr_scheduler(s: LRScheduler): void { this._learning_rate = s; }

  /** Updates every trainable parameter that has a gradient. */
  step(): void {
    no_grad(() => scope(() => {
      this.stepCount++;
      for (const g of this.groups) {
        let pairs: [Tensor, Tensor][] = [];
        for (const p of g.params) if (!p.stop_gradient && p.grad) pairs.push([p, p.grad as Tensor]);
        if (this.grad_clip) pairs = this.grad_clip.clip(pairs);
        const lr = this.get_lr() * g.lrScale;
        this.currentGroup = g;
        for (const [p, grad] of pairs) {
          const d = this.decoupledDecay() ? grad : g.decay ? g.decay.apply(p, grad) : grad;
          this.update(p, d, lr, g.extra);
        }
      }
    }));
  }

  /** AdamW applies its decay to the parameter, not through the gradient. */
  protected decoupledDecay(): boolean { return false; }

  /** One parameter's update, in place; `g` is the (decayed, clipped) gradient. */
  protected abstract update(p: Tensor, g: Tensor, lr: number, extra: Record<string, unknown>): void;

  /** The named accumulator of p, created (persisted) with `init` on first use. */
  protected acc(p: Tensor, name: string, init = 0): Tensor {
    let m = this.accumulators.get(p);
    if (!m) { m = new Map(); this.accumulators.set(p, m); }
    let t = m.get(name);
    if (!t) {
      t = persist(op('full', [...p.shape], init, p.dtype));
      t.name = `${p.name}_${name}_0`;
      m.set(name, t);
    }
    return t;
  }

  /** Gradients to zero (set_to_zero, Paddle's default) or to null. */
  clear_grad(set_to_zero = true): void {
    for (const g of this.groups) for (const p of g.params) {
      if (!p.grad) continue;
      if (set_to_zero) opInplace('scale', p.grad, 0);
      else { (p.grad as Tensor).dispose(); p.grad = null; }
    }
  }
  clear_gradients(): void { this.clear_grad(); }

  /** Accumulators by their Paddle names, plus the scheduler's state. */
  state_dict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of this.accumulators.values()) for (const t of m.values()) out[t.name] = t;
    if (this._learning_rate instanceof LRScheduler) out.LR_Scheduler = this._learning_rate.state_dict();
    out['@step'] = this.stepCount;
    return out;
  }

  set_state_dict(state: Record<string, unknown>): void {
    for (const g of this.groups) for (const p of g.params) {
      for (const name of this.accumulatorNames()) {
        const v = state[`${p.name}_${name}_0`] as Tensor | undefined;
        if (v) set_item(this.acc(p, name), '...', v);
      }
    }
    if (state.LR_Scheduler && this._learning_rate instanceof LRScheduler) this._learning_rate.set_state_dict(state.LR_Scheduler as { last_epoch: number; last_lr: number });
    if (typeof state['@step'] === 'number') this.stepCount = state['@step'];
  }

  protected accumulatorNames(): string[] { return []; }
}
