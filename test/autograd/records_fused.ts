// Gradient-check records of the fused ops made by issue 8's fusion passes
// (src/ops/defs/fused_ops.ts), and the residual layer norm. fused_dropout_add reseeds before every evaluation so finite
// differences see one mask; its backward op is linear in out_grad and checked as such.
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const T = (v: unknown) => v as Tensor;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}, i = 0) => T(runOp(name, ins, attrs)[i]);
const seedOffset = { data: [2024, 5], shape: [2], dtype: 'int64' as const };

export const FUSED_RECORDS: GradRecord[] = [
  { op: 'fused_dropout_add', inputs: [{ shape: [4, 5] }, { shape: [4, 5] }], before: () => paddle.seed(7), fn: (x, y) => op('fused_dropout_add', [x, y], { p: 0.4 }) },
  { op: 'fused_dropout_add', label: 'y broadcasts, downscale', inputs: [{ shape: [3, 4] }, { shape: [4] }], before: () => paddle.seed(3), fn: (x, y) => op('fused_dropout_add', [x, y], { p: 0.3, mode: 'downscale_in_infer' }) },
  { op: 'fused_dropout_add', label: 'eval', inputs: [{ shape: [3] }, { shape: [3] }], fn: (x, y) => op('fused_dropout_add', [x, y], { p: 0.25, training: false, mode: 'downscale_in_infer' }) },
  { op: 'fused_dropout_add_grad', inputs: [seedOffset, { shape: [3, 4] }], wrt: [1], fn: (s, g) => op('fused_dropout_add_grad', [s, g], { p: 0.5 }) },
  {
    op: 'fused_linear_param_grad_add', inputs: [{ shape: [5, 3] }, { shape: [5, 4] }, { shape: [3, 4] }, { shape: [4] }],
    fn: (x, g, w, b) => runOp('fused_linear_param_grad_add', [x, g, w, b]) as Tensor[],
  },
  {
    op: 'fused_linear_param_grad_add', label: '3-D, no accumulators, no bias', inputs: [{ shape: [2, 3, 2] }, { shape: [2, 3, 4] }],
    fn: (x, g) => op('fused_linear_param_grad_add', [x, g, null, null], { has_bias: false }),
  },
  { op: 'fused_softmax_mask_upper_triangle', inputs: [{ shape: [2, 4, 4] }], fn: (x) => op('fused_softmax_mask_upper_triangle', [x]) },
  { op: 'fused_softmax_mask_upper_triangle', label: 'keys > queries', inputs: [{ shape: [3, 5] }], fn: (x) => op('fused_softmax_mask_upper_triangle', [x]) },
  {
    op: 'fused_bias_residual_layernorm', inputs: [{ shape: [3, 6] }, { shape: [6] }, { shape: [3, 6] }, { shape: [6] }, { shape: [6] }],
    fn: (x, b, r, w, nb) => (runOp('fused_bias_residual_layernorm', [x, b, r, w, nb], { begin_norm_axis: 1, residual_alpha: 0.7 }) as Tensor[]).slice(0, 2),
  },
  {
    op: 'fused_bias_residual_layernorm', label: 'no bias, no affine, 3-D', inputs: [{ shape: [2, 2, 4] }, { shape: [2, 2, 4] }],
    fn: (x, r) => op('fused_bias_residual_layernorm', [x, null, r, null, null], { begin_norm_axis: 2 }),
  },
];

export const FUSED_SECOND_ORDER = ['fused_softmax_mask_upper_triangle', 'fused_linear_param_grad_add', 'fused_bias_residual_layernorm'];
