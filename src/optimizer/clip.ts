// Gradient clipping and weight decay (paddle.nn.ClipGrad*, paddle.regularizer.L2Decay), applied
// by the optimizer to the (param, grad) pairs of one step before the update.
import type { Tensor } from '../tensor/tensor.js';
import { op } from './ops.js';

export interface GradClip { clip(pairs: [Tensor, Tensor][]): [Tensor, Tensor][] }

/** Scales all gradients by clip_norm / max(global_norm, clip_norm), global_norm over every gradient. */
export class ClipGradByGlobalNorm implements GradClip {
  constructor(readonly clip_norm: number) {
    if (!(clip_norm > 0)) throw new RangeError(`ClipGradByGlobalNorm: clip_norm must be positive, got ${clip_norm}`);
  }
  clip(pairs: [Tensor, Tensor][]): [Tensor, Tensor][] {
    if (!pairs.length) return pairs;
    let sq = 0;
    for (const [, g] of pairs) sq += op('sum', op('square', op('cast', g, 'float64'))).item() as number;
    const norm = Math.sqrt(sq);
    if (norm <= this.clip_norm) return pairs;
    const s = this.clip_norm / norm;
    return pairs.map(([p, g]) => [p, op('scale', g, s)]);
  }
}

/** Each gradient scaled to at most clip_norm in L2 norm, separately. */
export class ClipGradByNorm implements GradClip {
  constructor(readonly clip_norm: number) {
    if (!(clip_norm > 0)) throw new RangeError(`ClipGradByNorm: clip_norm must be positive, got ${clip_norm}`);
  }
  clip(pairs: [Tensor, Tensor][]): [Tensor, Tensor][] {
    return pairs.map(([p, g]) => {
      const norm = Math.sqrt(op('sum', op('square', op('cast', g, 'float64'))).item() as number);
      return [p, norm > this.clip_norm ? op('scale', g, this.clip_norm / norm) : g];
    });
  }
}

/** Gradients clipped elementwise to [min, max] (min defaults to -max). */
export class ClipGradByValue implements GradClip {
  readonly min: number;
  constructor(readonly max: number, min: number | null = null) {
    this.min = min ?? -max;
    if (!(this.min <= max)) throw new RangeError(`ClipGradByValue: min ${this.min} must not exceed max ${max}`);
  }
  clip(pairs: [Tensor, Tensor][]): [Tensor, Tensor][] { return pairs.map(([p, g]) => [p, op('clip', g, this.min, this.max)]); }
}

/** L2 weight decay: grad += coeff * param (Paddle's regularizer for SGD, Momentum, Adam, ...). */
export class L2Decay {
  constructor(readonly coeff = 0.0) {}
  apply(p: Tensor, g: Tensor): Tensor { return this.coeff ? op('add', g, op('scale', p, this.coeff)) : g; }
}

/** L1 weight decay: grad += coeff * sign(param). */
export class L1Decay {
  constructor(readonly coeff = 0.0) {}
  apply(p: Tensor, g: Tensor): Tensor { return this.coeff ? op('add', g, op('scale', op('sign', p), this.coeff)) : g; }
}
