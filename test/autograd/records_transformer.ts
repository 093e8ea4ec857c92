// Gradient-check records for scaled_dot_product_attention (recomputed probabilities; every
// input including a floating mask), rms_norm, unfold / fold (each the other's adjoint) and the
// fractional max pools (distinct values, so no window has a tie).
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const F = paddle.nn.functional as unknown as Record<string, (...a: unknown[]) => unknown>;
const T = (v: unknown) => v as Tensor;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}, i = 0) => T(runOp(name, ins, attrs)[i]);
const boolMask = (shape: number[]) => {
  const n = shape.reduce((a, b) => a * b, 1), sk = shape[shape.length - 1];
  return { data: Array.from({ length: n }, (_, i) => (i % sk === 0 || (i * 5) % 3 === 0 ? 1 : 0)), shape, dtype: 'bool' as const };
};

/** Distinct values, shuffled, spread over [lo, hi] (no ties in a max window). */
const spread = (shape: number[], lo = -2, hi = 2) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { data: Array.from({ length: n }, (_, i) => lo + ((i * 7919) % n) * (hi - lo) / Math.max(n - 1, 1)), shape, dtype: 'float64' as const };
};

export const TRANSFORMER_RECORDS: GradRecord[] = [
  { op: 'scaled_dot_product_attention', inputs: [{ shape: [2, 3, 2, 4] }, { shape: [2, 3, 2, 4] }, { shape: [2, 3, 2, 4] }],
    fn: (q, k, v) => T(F.scaled_dot_product_attention(q, k, v)) },
  { op: 'scaled_dot_product_attention', label: 'causal, key length and value head_dim differ', inputs: [{ shape: [1, 4, 2, 3] }, { shape: [1, 5, 2, 3] }, { shape: [1, 5, 2, 2] }],
    fn: (q, k, v) => T(F.scaled_dot_product_attention(q, k, v, null, 0, true)) },
  { op: 'scaled_dot_product_attention', label: 'additive mask broadcast over batch (mask gradient too)', inputs: [{ shape: [2, 3, 2, 2] }, { shape: [2, 4, 2, 2] }, { shape: [2, 4, 2, 2] }, { shape: [1, 2, 3, 4] }],
    fn: (q, k, v, m) => T(F.scaled_dot_product_attention(q, k, v, m)) },
  { op: 'scaled_dot_product_attention', label: 'bool mask', inputs: [{ shape: [1, 3, 2, 2] }, { shape: [1, 4, 2, 2] }, { shape: [1, 4, 2, 2] }, boolMask([3, 4])],
    fn: (q, k, v, m) => T(F.scaled_dot_product_attention(q, k, v, m)) },
  { op: 'rms_norm', inputs: [{ shape: [3, 4] }, { shape: [4] }, { shape: [4] }], fn: (x, w, b) => op('rms_norm', [x, w, b], { begin_norm_axis: 1 }) },
  { op: 'rms_norm', label: 'F.rms_norm over two dims, weight only', inputs: [{ shape: [2, 2, 3] }, { shape: [2, 3] }], fn: (x, w) => T(F.rms_norm(x, [2, 3], w)) },
  { op: 'rms_norm', label: 'no affine, eps', inputs: [{ shape: [2, 5] }], fn: (x) => op('rms_norm', [x, null, null], { begin_norm_axis: 1, epsilon: 1e-2 }) },
  { op: 'unfold', inputs: [{ shape: [2, 2, 4, 5] }], fn: (x) => T(F.unfold(x, [2, 3])) },
  { op: 'unfold', label: 'stride, asymmetric paddings, dilation', inputs: [{ shape: [1, 2, 5, 6] }], fn: (x) => T(F.unfold(x, 2, [2, 1], [1, 0, 2, 1], [1, 2])) },
  { op: 'fold', inputs: [{ shape: [2, 6, 12] }], fn: (x) => T(F.fold(x, [3, 4], [1, 3], 1, [0, 1])) },
  { op: 'fold', label: 'overlapping blocks, stride 2, padding 1', inputs: [{ shape: [1, 8, 9] }], fn: (x) => T(F.fold(x, 5, 2, 2, 1)) },
  { op: 'fractional_max_pool2d', inputs: [spread([2, 2, 7, 6])], fn: (x) => T(F.fractional_max_pool2d(x, [3, 4], null, 0.4)) },
  { op: 'fractional_max_pool2d', label: 'overlapping kernel windows', inputs: [spread([1, 2, 6, 7])], fn: (x) => T(F.fractional_max_pool2d(x, 3, [3, 2], 0.7)) },
  { op: 'fractional_max_pool3d', inputs: [spread([1, 2, 4, 5, 4])], fn: (x) => T(F.fractional_max_pool3d(x, [2, 3, 2], null, 0.3)) },
];

export const TRANSFORMER_SECOND_ORDER = ['rms_norm', 'unfold', 'fold'];
