// Gradient-check records of the losses in src/ops/defs/nn_loss_more.ts (and cross_entropy's
// label_smoothing). Inputs keep clear of each loss's kinks (|r| = delta, hinge corners); labels
// that select a branch (+-1, class indices) are fixed data, not differentiated.
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const F = paddle.nn.functional;
const T = (v: unknown) => v as Tensor;
const f64 = (data: number[], shape = [data.length]) => ({ data, shape, dtype: 'float64' as const });
const ints = (data: number[], shape = [data.length]) => ({ data, shape, dtype: 'int64' as const });
const prob = (shape: number[]) => ({ shape, lo: 0.1, hi: 0.9 });

export const LOSS_RECORDS: GradRecord[] = [
  {
    op: 'cross_entropy', label: 'label_smoothing', inputs: [{ shape: [4, 3] }, ints([1, 0, 2, 2])],
    fn: (x, l) => T(F.cross_entropy(x, l, { label_smoothing: 0.1 })),
  },
  {
    op: 'cross_entropy', label: 'label_smoothing, axis 1, none', inputs: [{ shape: [2, 3, 2] }, ints([0, 2, 1, 1], [2, 2])],
    fn: (x, l) => T(F.cross_entropy(x, l, { label_smoothing: 0.2, axis: 1, reduction: 'none' })),
  },
  {
    op: 'cross_entropy', label: 'label_smoothing on soft labels', inputs: [{ shape: [2, 3] }, prob([2, 3])],
    fn: (x, l) => T(F.cross_entropy(x, l, { soft_label: true, label_smoothing: 0.3, reduction: 'sum' })),
  },
  { op: 'mse_loss', inputs: [{ shape: [3, 4] }, { shape: [3, 4] }], fn: (x, y) => T(F.mse_loss(x, y)) },
  { op: 'mse_loss', label: 'broadcast, none', inputs: [{ shape: [3, 1] }, { shape: [4] }], fn: (x, y) => T(F.mse_loss(x, y, 'none')) },
  { op: 'mse_loss', label: '0-dim, strided', inputs: [{ shape: [] }, { shape: [2, 3] }], fn: (x, y) => T(F.mse_loss(x, paddle.transpose(y, [1, 0]), 'sum')) },
  { op: 'l1_loss', inputs: [f64([0.5, -1.2, 2.0, 0.1]), f64([-0.3, 0.4, 1.1, 0.9])], fn: (x, y) => T(F.l1_loss(x, y)) },
  { op: 'l1_loss', label: 'broadcast, sum', inputs: [f64([0.5, -1.2, 2.0], [3, 1]), f64([-0.6, 2.4])], fn: (x, y) => T(F.l1_loss(x, y, 'sum')) },
  {
    op: 'smooth_l1_loss', inputs: [f64([0.1, -1.5, 2.0, 0.3, -0.2, 1.7]), f64([0.3, 0.4, -0.1, 0.2, 0.1, 0.0])],
    fn: (x, y) => T(F.smooth_l1_loss(x, y)),
  },
  {
    op: 'smooth_l1_loss', label: 'delta 0.5, none', inputs: [f64([0.1, -1.5, 2.0, 0.3]), f64([0.3, 0.4, -0.1, 0.9])],
    fn: (x, y) => T(F.smooth_l1_loss(x, y, 'none', 0.5)),
  },
  { op: 'kl_div', inputs: [{ shape: [3, 4] }, prob([3, 4])], fn: (x, y) => T(F.kl_div(x, y)) },
  { op: 'kl_div', label: 'batchmean', inputs: [{ shape: [3, 4] }, prob([3, 4])], fn: (x, y) => T(F.kl_div(x, y, 'batchmean')) },
  { op: 'kl_div', label: 'log_target, none', inputs: [{ shape: [2, 3] }, { shape: [2, 3] }], fn: (x, y) => T(F.kl_div(x, y, 'none', true)) },
  {
    op: 'margin_ranking_loss', inputs: [f64([0.5, -1.0, 2.0, 0.3]), f64([0.1, 0.4, 1.1, 0.9]), f64([1, -1, -1, 1])],
    fn: (x, o, l) => T(F.margin_ranking_loss(x, o, l, 0.2)),
  },
  {
    op: 'margin_ranking_loss', label: 'broadcast, none', inputs: [f64([0.5, -1.0, 2.0], [3, 1]), f64([0.1, 0.8]), f64([1, -1])],
    fn: (x, o, l) => T(F.margin_ranking_loss(x, o, l, 0.1, 'none')),
  },
  {
    op: 'hinge_embedding_loss', inputs: [f64([0.5, -1.0, 2.0, 0.3, 1.4, -0.2]), f64([1, -1, -1, 1, -1, 1])],
    fn: (x, l) => T(F.hinge_embedding_loss(x, l)), wrt: [0],
  },
  {
    op: 'binary_cross_entropy', inputs: [prob([3, 4]), prob([3, 4])], fn: (x, y) => T(F.binary_cross_entropy(x, y)),
  },
  {
    op: 'binary_cross_entropy', label: 'weight, sum', inputs: [prob([3, 4]), prob([3, 4]), { shape: [4], lo: 0.5, hi: 2 }],
    fn: (x, y, w) => T(F.binary_cross_entropy(x, y, w, 'sum')),
  },
  {
    op: 'binary_cross_entropy_with_logits', inputs: [{ shape: [3, 4], lo: -3, hi: 3 }, prob([3, 4])],
    fn: (x, y) => T(F.binary_cross_entropy_with_logits(x, y)),
  },
  {
    op: 'binary_cross_entropy_with_logits', label: 'weight, pos_weight, none',
    inputs: [{ shape: [3, 4], lo: -3, hi: 3 }, prob([3, 4]), { shape: [3, 1], lo: 0.5, hi: 2 }, { shape: [4], lo: 0.5, hi: 3 }],
    fn: (x, y, w, pw) => T(F.binary_cross_entropy_with_logits(x, y, w, 'none', pw)),
  },
  { op: 'nll_loss', inputs: [{ shape: [4, 3] }, ints([0, 2, 1, 2])], fn: (x, l) => T(F.nll_loss(x, l)) },
  {
    op: 'nll_loss', label: 'weight, ignore_index, [N, C, d]', inputs: [{ shape: [2, 3, 2] }, ints([0, 2, 1, 1], [2, 2]), { shape: [3], lo: 0.5, hi: 2 }],
    fn: (x, l, w) => T(F.nll_loss(x, l, w, 1)), wrt: [0],
  },
  { op: 'nll_loss', label: 'none', inputs: [{ shape: [3, 4] }, ints([3, 0, 1])], fn: (x, l) => T(F.nll_loss(x, l, null, -100, 'none')) },
  {
    op: 'cosine_embedding_loss', inputs: [{ shape: [3, 4] }, { shape: [3, 4] }, ints([1, -1, 1])],
    fn: (a, b, l) => T(F.cosine_embedding_loss(a, b, l, -0.9)),
  },
  {
    op: 'ctc_loss', inputs: [{ shape: [5, 2, 3] }, ints([1, 2, 2, 1, 0, 0], [2, 3]), ints([5, 4]), ints([3, 1])],
    fn: (x, l, il, ll) => T(F.ctc_loss(x, l, il, ll)),
  },
  {
    op: 'ctc_loss', label: 'blank 2, none', inputs: [{ shape: [4, 3, 3] }, ints([0, 1, 1, 0, 0, 0], [3, 2]), ints([4, 3, 2]), ints([2, 2, 0])],
    fn: (x, l, il, ll) => T(F.ctc_loss(x, l, il, ll, 2, 'none')),
  },
  {
    op: 'cosine_embedding_loss', label: '1-D, none', inputs: [{ shape: [5] }, { shape: [5] }, ints([-1])],
    fn: (a, b, l) => T(F.cosine_embedding_loss(a, b, l, -0.95, 'none')),
  },
];
