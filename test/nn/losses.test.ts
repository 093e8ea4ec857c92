// Loss layers (src/nn/layers_loss.ts): each layer equals its functional with the same arguments,
// checks `reduction` when built, and backpropagates. The functionals themselves are covered by
// the op table (test/ops/db/nn_loss_more.ts, nn_ctc.ts) and finite differences (test/autograd/records_loss.ts).
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const P = paddle as any;
const F = P.nn.functional;
const f64 = (v: unknown) => P.to_tensor(v, 'float64') as Tensor;
const x = () => f64([[1, 2, 0.5], [0.1, -0.4, 0.3]]);
const prob = () => f64([[0.2, 0.9, 0.5], [0.35, 0.6, 0.1]]);
const y = () => f64([[0.5, -1, 0.25], [2, 0, 0.3]]);
const cls = () => P.to_tensor([1, 2], 'int64');
const signs = () => f64([[1, -1, 1], [-1, 1, -1]]);

const CASES: [string, () => Tensor, () => Tensor][] = [
  ['CrossEntropyLoss', () => new P.nn.CrossEntropyLoss({ label_smoothing: 0.1, reduction: 'sum' }).call(x(), cls()), () => F.cross_entropy(x(), cls(), { label_smoothing: 0.1, reduction: 'sum' })],
  ['NLLLoss', () => new P.nn.NLLLoss(f64([1, 2, 0.5])).call(x(), cls()), () => F.nll_loss(x(), cls(), f64([1, 2, 0.5]))],
  ['MSELoss', () => new P.nn.MSELoss('none').call(x(), y()), () => F.mse_loss(x(), y(), 'none')],
  ['L1Loss', () => new P.nn.L1Loss().call(x(), y()), () => F.l1_loss(x(), y())],
  ['SmoothL1Loss', () => new P.nn.SmoothL1Loss('sum', 0.5).call(x(), y()), () => F.smooth_l1_loss(x(), y(), 'sum', 0.5)],
  ['KLDivLoss', () => new P.nn.KLDivLoss('batchmean').call(x(), prob()), () => F.kl_div(x(), prob(), 'batchmean')],
  ['BCELoss', () => new P.nn.BCELoss(f64([1, 2, 3]), 'sum').call(prob(), prob()), () => F.binary_cross_entropy(prob(), prob(), f64([1, 2, 3]), 'sum')],
  ['BCEWithLogitsLoss', () => new P.nn.BCEWithLogitsLoss(null, 'mean', f64([2, 1, 0.5])).call(x(), prob()), () => F.binary_cross_entropy_with_logits(x(), prob(), null, 'mean', f64([2, 1, 0.5]))],
  ['MarginRankingLoss', () => new P.nn.MarginRankingLoss(0.3).call(x(), y(), signs()), () => F.margin_ranking_loss(x(), y(), signs(), 0.3)],
  ['HingeEmbeddingLoss', () => new P.nn.HingeEmbeddingLoss(0.5, 'none').call(x(), signs()), () => F.hinge_embedding_loss(x(), signs(), 0.5, 'none')],
  ['CosineEmbeddingLoss', () => new P.nn.CosineEmbeddingLoss(0.1).call(x(), y(), P.to_tensor([1, -1], 'int64')), () => F.cosine_embedding_loss(x(), y(), P.to_tensor([1, -1], 'int64'), 0.1)],
];

describe('loss layers', () => {
  for (const [name, layer, fn] of CASES)
    it(`${name} equals its functional`, () => {
      const a = layer(), b = fn();
      expect(a.shape).toEqual(b.shape);
      expect(a.dataSync()).toEqual(b.dataSync());
    });

  it('reject a bad reduction when built, naming the layer', () => {
    expect(() => new P.nn.MSELoss('avg')).toThrow(/MSELoss: The value of 'reduction' in MSELoss should be 'sum', 'mean' or 'none'/);
    expect(() => new P.nn.CTCLoss(0, 'batchmean')).toThrow(/CTCLoss: The value of 'reduction'/);
    expect(() => new P.nn.KLDivLoss('batchmean')).not.toThrow();
  });

  it('CTCLoss gives Paddle 2.6 example numbers and a gradient', () => {
    const lp = P.to_tensor([[[0.417, 0.72, 0.0001], [0.302, 0.147, 0.092]], [[0.186, 0.346, 0.397], [0.539, 0.419, 0.685]],
      [[0.204, 0.878, 0.027], [0.670, 0.417, 0.559]], [[0.140, 0.198, 0.801], [0.968, 0.313, 0.692]],
      [[0.876, 0.895, 0.085], [0.039, 0.170, 0.878]]], 'float64');
    lp.stop_gradient = false;
    const labels = P.to_tensor([[1, 2, 2], [1, 2, 2]], 'int32');
    const il = P.to_tensor([5, 5], 'int64'), ll = P.to_tensor([3, 3], 'int64');
    const none = new P.nn.CTCLoss(0, 'none').call(lp, labels, il, ll);
    expect(none.shape).toEqual([2]);
    const [a, b] = none.dataSync() as number[];
    expect(a).toBeCloseTo(3.918, 2);  // Paddle: 3.9179852, 2.9076521 on the unrounded scores
    expect(b).toBeCloseTo(2.908, 2);
    const loss = new P.nn.CTCLoss().call(lp, labels, il, ll);
    loss.backward();
    expect(lp.grad.shape).toEqual([5, 2, 3]);
  });
});
