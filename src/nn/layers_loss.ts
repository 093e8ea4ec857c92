// Loss layers (paddle.nn.MSELoss, ...): each keeps its constructor arguments (Paddle 2.6's names,
// order and defaults) and calls its registry op in forward. The reduction is checked when the
// layer is built, as Paddle does, so a typo fails at construction rather than at the first step.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { binary_cross_entropy_with_logits_api, reductionCode } from '../ops/defs/nn_loss_more.js';
import { ctc_loss_api } from '../ops/defs/nn_ctc.js';
import { bindArgs } from '../ops/defs/nn_util.js';
import { Layer } from './layer.js';

type Params = Record<string, unknown>;
/** Builds the op call from forward's tensors and the layer's parameters. */
type Call = (ins: TensorLike[], p: Params) => unknown;

const viaOp = (op: string, tensorParams: readonly string[] = []): Call => (ins, p) => {
  const attrs: Params = {};
  for (const [k, v] of Object.entries(p)) if (!tensorParams.includes(k)) attrs[k] = v;
  return callOp(getOp(op), [...ins, ...tensorParams.map((k) => p[k] ?? null), attrs]);
};

function lossLayer(className: string, params: readonly (readonly [string, unknown])[], arity: number, call: Call, batchmean = false) {
  const names = params.map(([n]) => n);
  const C = class extends Layer {
    readonly params: Params;
    constructor(...args: unknown[]) {
      super();
      const given = bindArgs(className, [...names, 'name'], args);
      delete given.name;
      this.params = Object.fromEntries(params.map(([n, d]) => [n, given[n] !== undefined ? given[n] : d]));
      if ('reduction' in this.params) reductionCode(className, this.params.reduction, batchmean);
    }
    override forward(...ins: TensorLike[]): TensorLike {
      if (ins.length < arity) throw new TypeError(`${className}.forward() takes ${arity} tensors, got ${ins.length}`);
      return call(ins.slice(0, arity), { ...this.params }) as TensorLike;
    }
    override extra_repr(): string {
      return Object.entries(this.params).filter(([, v]) => v === null || typeof v !== 'object').map(([k, v]) => `${k}=${v}`).join(', ');
    }
  };
  Object.defineProperty(C, 'name', { value: className });
  return C;
}

const R = ['reduction', 'mean'] as const;

export const CrossEntropyLoss = lossLayer('CrossEntropyLoss', [['weight', null], ['ignore_index', -100], R, ['soft_label', false], ['axis', -1],
  ['use_softmax', true], ['label_smoothing', 0.0]], 2, viaOp('cross_entropy', ['weight']));
export const MSELoss = lossLayer('MSELoss', [R], 2, viaOp('mse_loss'));
export const L1Loss = lossLayer('L1Loss', [R], 2, viaOp('l1_loss'));
export const SmoothL1Loss = lossLayer('SmoothL1Loss', [R, ['delta', 1.0]], 2, viaOp('smooth_l1_loss'));
export const KLDivLoss = lossLayer('KLDivLoss', [R, ['log_target', false]], 2, viaOp('kl_div'), true);
export const BCELoss = lossLayer('BCELoss', [['weight', null], R], 2, viaOp('binary_cross_entropy', ['weight']));
export const BCEWithLogitsLoss = lossLayer('BCEWithLogitsLoss', [['weight', null], R, ['pos_weight', null]], 2,
  ([logit, label], p) => binary_cross_entropy_with_logits_api(logit, label, p));
export const MarginRankingLoss = lossLayer('MarginRankingLoss', [['margin', 0.0], R], 3, viaOp('margin_ranking_loss'));
export const HingeEmbeddingLoss = lossLayer('HingeEmbeddingLoss', [['margin', 1.0], R], 2, viaOp('hinge_embedding_loss'));
export const CosineEmbeddingLoss = lossLayer('CosineEmbeddingLoss', [['margin', 0], R], 3, viaOp('cosine_embedding_loss'));
export const NLLLoss = lossLayer('NLLLoss', [['weight', null], ['ignore_index', -100], R], 2, viaOp('nll_loss', ['weight']));
/** forward(log_probs, labels, input_lengths, label_lengths, norm_by_times=False), as Paddle's. */
export class CTCLoss extends Layer {
  readonly blank: number;
  readonly reduction: string;
  constructor(blank = 0, reduction = 'mean') {
    super();
    reductionCode('CTCLoss', reduction);
    this.blank = blank;
    this.reduction = reduction;
  }
  override forward(log_probs: TensorLike, labels: TensorLike, input_lengths: TensorLike, label_lengths: TensorLike, norm_by_times = false): TensorLike {
    return ctc_loss_api(log_probs, labels, input_lengths, label_lengths, this.blank, this.reduction, norm_by_times) as TensorLike;
  }
  override extra_repr(): string { return `blank=${this.blank}, reduction=${this.reduction}`; }
}
