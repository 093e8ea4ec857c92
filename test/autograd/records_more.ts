// Gradient-check records for the rules of issue 7: the special unary functions and activations,
// binary_more, scans, the extra reductions and order statistics, set_value_with_tensor and
// fused_gemm_epilogue. Inputs stay away from each op's kinks and poles; several records feed
// broadcast, 0-dim or strided (transposed) inputs.
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import { set_item } from '../../src/ops/setitem.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';
import { LINALG_DECOMP_RECORDS } from './records_linalg_decomp.js';
import { LINALG_LU_RECORDS, LINALG_LU_SECOND_ORDER } from './records_linalg_lu.js';
import { ADV_INDEX_RECORDS, ADV_INDEX_SECOND_ORDER } from './records_adv_index.js';
import { MATRIX_MORE_RECORDS, MATRIX_MORE_SECOND_ORDER } from './records_matrix_more.js';
import { FUSED_RECORDS, FUSED_SECOND_ORDER } from './records_fused.js';

const F = paddle.nn.functional;
const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const T = (v: unknown) => v as Tensor;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}, i = 0) => T(runOp(name, ins, attrs)[i]);
const pos = (shape: number[]) => ({ shape, lo: 0.5, hi: 2 });
const unit = (shape: number[]) => ({ shape, lo: -0.8, hi: 0.8 });
/** Values spread from lo to hi, distinct and shuffled (order statistics need no ties). */
const spread = (shape: number[], lo = -2, hi = 2) => {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, (_, i) => lo + ((i * 7919) % n) * (hi - lo) / Math.max(n - 1, 1) + 0.01 * i / n);
  return { data, shape, dtype: 'float64' as const };
};
const tr = (x: Tensor) => T(paddle.transpose(x, [1, 0]));  // a strided view
/** Elementwise record of f over x, plus a strided 2-D case. */
const un = (name: string, f: (x: Tensor) => Tensor, spec: { shape: number[]; lo?: number; hi?: number } = { shape: [2, 3] }, label?: string): GradRecord =>
  ({ op: name, label, inputs: [spec], fn: f });

export const MORE_RECORDS: GradRecord[] = [
  ...LINALG_DECOMP_RECORDS,  // qr, svd, eigh, eigvalsh, pinv, lstsq
  ...LINALG_LU_RECORDS,  // lu, lu_unpack, det, slogdet, inverse, solve, triangular_solve, cholesky(_solve), matrix_power
  ...ADV_INDEX_RECORDS,  // gather_nd, index_put, masked_select, masked_scatter (records_adv_index.ts)
  ...MATRIX_MORE_RECORDS,  // addmm, renorm, t, fill_diagonal, fill_diagonal_tensor (records_matrix_more.ts)
  ...FUSED_RECORDS,  // fused_dropout_add(_grad), fused_linear_param_grad_add, fused_softmax_mask_upper_triangle (records_fused.ts)
  // unary_special.ts
  un('expm1', (x) => T(P.expm1(x))),
  un('expm1', (x) => T(P.expm1(x)), { shape: [] }, '0-dim'),
  un('log1p', (x) => T(P.log1p(x)), unit([2, 3])),
  un('log2', (x) => T(P.log2(x)), pos([4])),
  un('log10', (x) => T(P.log10(tr(x))), pos([2, 3]), 'strided'),
  un('reciprocal', (x) => T(P.reciprocal(x)), pos([5])),
  un('tan', (x) => T(P.tan(x)), unit([5])),
  un('asin', (x) => T(P.asin(x)), unit([5])),
  un('acos', (x) => T(P.acos(tr(x))), unit([3, 2])),
  un('atan', (x) => T(P.atan(x)), { shape: [5], lo: -2, hi: 2 }),
  un('sinh', (x) => T(P.sinh(x))),
  un('cosh', (x) => T(P.cosh(x))),
  un('asinh', (x) => T(P.asinh(x)), { shape: [5], lo: -2, hi: 2 }),
  un('acosh', (x) => T(P.acosh(x)), { shape: [5], lo: 1.2, hi: 3 }),
  un('atanh', (x) => T(P.atanh(x)), unit([5])),
  un('erfinv', (x) => T(P.erfinv(x)), unit([5])),
  un('lgamma', (x) => T(P.lgamma(x)), { shape: [5], lo: 0.3, hi: 4 }),
  un('lgamma', (x) => T(P.lgamma(x)), { shape: [3], lo: -2.8, hi: -2.2 }, 'negative'),
  un('digamma', (x) => T(P.digamma(x)), { shape: [6], lo: 0.2, hi: 8 }),
  un('digamma', (x) => T(P.digamma(x)), { shape: [3], lo: -1.8, hi: -1.2 }, 'negative (reflection)'),
  un('i0', (x) => T(P.i0(x)), { shape: [6], lo: -4, hi: 4 }),
  { op: 'i0', label: 'both sides of the series/asymptotic switch', inputs: [{ data: [-28, -24, 24.5, 26, 29], shape: [5], dtype: 'float64' }], fn: (x) => T(P.i0(x)), eps: 1e-4 },
  un('trunc', (x) => T(paddle.add(P.trunc(x), x)), { shape: [4], lo: 0.1, hi: 0.9 }),
  un('frac', (x) => T(P.frac(x)), { shape: [4], lo: 0.1, hi: 0.9 }),
  { op: 'sinc', inputs: [{ data: [0, 0.3, -0.7, 1.4, 2.2], shape: [5], dtype: 'float64' }], fn: (x) => T(P.sinc(x)), atol: 1e-5 },
  un('logit', (x) => T(P.logit(x)), { shape: [4], lo: 0.1, hi: 0.9 }),
  { op: 'logit', label: 'eps clamps', inputs: [{ data: [0.02, 0.3, 0.6, 0.97], shape: [4], dtype: 'float64' }], fn: (x) => T(P.logit(x, 0.05)) },
  { op: 'nan_to_num', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.nan_to_num(x)) },
  { op: 'relu6', inputs: [{ data: [-1, 0.5, 3, 5.5, 7], shape: [5], dtype: 'float64' }], fn: (x) => T(F.relu6(x)) },
  { op: 'leaky_relu', inputs: [{ data: [-1, -0.4, 0.5, 2], shape: [4], dtype: 'float64' }], fn: (x) => T(F.leaky_relu(x, 0.2)) },
  { op: 'elu', inputs: [{ data: [-1, -0.4, 0.5, 2], shape: [4], dtype: 'float64' }], fn: (x) => T(F.elu(x, 0.7)) },
  { op: 'selu', inputs: [{ data: [-1, -0.4, 0.5, 2], shape: [2, 2], dtype: 'float64' }], fn: (x) => T(F.selu(x)) },
  { op: 'celu', inputs: [{ data: [-1, -0.4, 0.5, 2], shape: [4], dtype: 'float64' }], fn: (x) => T(F.celu(x, 1.5)) },
  un('mish', (x) => T(F.mish(x)), { shape: [6], lo: -3, hi: 3 }),
  un('softplus', (x) => T(F.softplus(x)), { shape: [6], lo: -3, hi: 3 }),
  { op: 'softplus', label: 'beta, threshold', inputs: [{ data: [-1, 0.5, 3, 4], shape: [4], dtype: 'float64' }], fn: (x) => T(F.softplus(x, 2, 5)) },
  un('softsign', (x) => T(F.softsign(x)), { shape: [6], lo: -3, hi: 3 }),
  { op: 'hardswish', inputs: [{ data: [-4, -2, 0.5, 2.5, 4], shape: [5], dtype: 'float64' }], fn: (x) => T(F.hardswish(x)) },
  { op: 'hardsigmoid', inputs: [{ data: [-4, -2, 0.5, 2.5, 4], shape: [5], dtype: 'float64' }], fn: (x) => T(F.hardsigmoid(x)) },
  { op: 'hardtanh', inputs: [{ data: [-2, -0.5, 0.2, 0.7, 3], shape: [5], dtype: 'float64' }], fn: (x) => T(F.hardtanh(x)) },
  { op: 'thresholded_relu', inputs: [{ data: [-2, 0.5, 1.5, 3], shape: [4], dtype: 'float64' }], fn: (x) => T(F.thresholded_relu(x)) },
  // binary_more.ts, with broadcasting.
  { op: 'atan2', inputs: [{ shape: [2, 3] }, pos([3])], fn: (x, y) => T(P.atan2(x, y)) },
  { op: 'hypot', inputs: [{ shape: [2, 1] }, pos([3])], fn: (x, y) => T(P.hypot(x, y)) },
  { op: 'hypot', label: '0-dim y, strided x', inputs: [{ shape: [2, 3] }, pos([])], fn: (x, y) => T(P.hypot(tr(x), y)) },
  { op: 'atan2', label: 'strided', inputs: [{ shape: [2, 3] }, pos([3, 2])], fn: (x, y) => T(P.atan2(tr(x), y)) },
  { op: 'fmax', inputs: [spread([2, 3]), { data: [-0.5, 0.1, 0.9], shape: [3], dtype: 'float64' }], fn: (x, y) => T(P.fmax(x, y)) },
  { op: 'fmin', inputs: [spread([2, 3]), { data: [-0.5, 0.1, 0.9], shape: [3], dtype: 'float64' }], fn: (x, y) => T(P.fmin(tr(x), T(paddle.reshape(y, [3, 1])))) },
  { op: 'copysign', inputs: [{ shape: [2, 3], lo: 0.3, hi: 1 }, { data: [-1, 2, -3], shape: [3], dtype: 'float64' }], fn: (x, y) => T(P.copysign(x, y)) },
  { op: 'heaviside', inputs: [{ shape: [3], lo: 0.3, hi: 1 }, { shape: [3] }], fn: (x, y) => T(paddle.add(P.heaviside(x, y), x)) },
  { op: 'ldexp', inputs: [{ shape: [2, 3] }, { data: [1, -2, 3], shape: [3], dtype: 'int64' }], fn: (x, y) => T(P.ldexp(x, y)) },
  { op: 'lerp', inputs: [{ shape: [2, 3] }, { shape: [3] }, { shape: [2, 1] }], fn: (x, y, w) => T(P.lerp(x, y, w)) },
  { op: 'lerp', label: '0-dim weight', inputs: [{ shape: [3] }, { shape: [3] }, { shape: [] }], fn: (x, y, w) => T(P.lerp(x, y, w)) },
  {
    op: 'masked_fill', inputs: [{ shape: [2, 3] }, { data: [1, 0, 1], shape: [3], dtype: 'bool' }, { shape: [] }],
    fn: (x, m, v) => T(P.masked_fill(x, m, v)), wrt: [0, 2],
  },
  // scan.ts
  { op: 'cumprod', inputs: [pos([2, 3])], fn: (x) => T(P.cumprod(x, 1)) },
  { op: 'cumprod', label: 'flattened, strided', inputs: [pos([2, 3])], fn: (x) => T(P.cumprod(tr(x))) },
  // Zeros: gradients after the first zero of a row vanish; at it, the product of the others.
  {
    op: 'cumprod', label: 'zeros', inputs: [{ data: [0.5, 0, 2, 0, 1.5, -1, 0.7, 0, 3, 1.2, 0.9, 1.1], shape: [3, 4], dtype: 'float64' }],
    fn: (x) => T(P.cumprod(x, 1)), wrt: [0],
  },
  { op: 'cummax', inputs: [spread([3, 4])], fn: (x) => (P.cummax(x, 1) as Tensor[])[0] },
  { op: 'cummax', label: 'flattened', inputs: [spread([2, 3])], fn: (x) => (P.cummax(x) as Tensor[])[0] },
  { op: 'cummin', inputs: [spread([3, 4])], fn: (x) => (P.cummin(x, 0) as Tensor[])[0] },
  { op: 'logcumsumexp', inputs: [{ shape: [2, 4] }], fn: (x) => T(P.logcumsumexp(x, 1)) },
  { op: 'logcumsumexp', label: 'flattened', inputs: [{ shape: [2, 3], lo: -3, hi: 3 }], fn: (x) => T(P.logcumsumexp(x)) },
  // Reductions.
  { op: 'amax', inputs: [spread([3, 4])], fn: (x) => T(P.amax(x, 1)) },
  { op: 'amax', label: 'ties split', inputs: [{ data: [1, 3, 3, 0.5, 2, 2], shape: [2, 3], dtype: 'float64' }], fn: (x) => T(P.amax(x, 1, true)), eps: 1e-7 },
  { op: 'amin', inputs: [spread([3, 4])], fn: (x) => T(P.amin(x)) },
  { op: 'amax', label: '0-dim', inputs: [{ shape: [] }], fn: (x) => T(P.amax(x)) },
  { op: 'logcumsumexp', label: 'strided', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.logcumsumexp(tr(x), 0)) },
  { op: 'p_norm', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.linalg.norm(x, 2, 1)) },
  { op: 'p_norm', label: 'p=3, keepdim', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.linalg.norm(x, 3, 0, true)) },
  { op: 'p_norm', label: 'p=1.5, as vector', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.linalg.norm(tr(x), 1.5)) },
  { op: 'p_norm', label: 'inf', inputs: [spread([3, 4])], fn: (x) => T(paddle.linalg.norm(x, Infinity, 1)) },
  { op: 'frobenius_norm', inputs: [{ shape: [2, 3, 2] }], fn: (x) => T(paddle.linalg.norm(x, 'fro', [0, 2])) },
  { op: 'frobenius_norm', label: 'all', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.linalg.norm(x)) },
  { op: 'median', inputs: [spread([3, 5])], fn: (x) => T(P.median(x, 1)) },
  { op: 'median', label: 'even count, all', inputs: [spread([2, 3])], fn: (x) => T(P.median(x)) },
  { op: 'median', label: 'mode min', inputs: [spread([3, 4])], fn: (x) => T(P.median(x, 0, true, 'min')) },
  { op: 'nanmedian', inputs: [spread([3, 4])], fn: (x) => T(P.nanmedian(x, 1)) },
  { op: 'nanmedian', label: 'odd', inputs: [spread([2, 5])], fn: (x) => T(P.nanmedian(x, [1], true)) },
  { op: 'quantile', inputs: [spread([3, 5])], fn: (x) => T(P.quantile(x, [0.3, 0.5, 0.9], 1)) },
  { op: 'quantile', label: 'scalar q, all', inputs: [spread([2, 3])], fn: (x) => T(P.quantile(x, 0.25)) },
  // Perturbing one of tied elements changes the mode, so each record's repeats are built from one
  // input element and move together: [a, b, c, b, b] has mode b; [z, z] ties everywhere and takes the smallest.
  {
    op: 'mode', inputs: [spread([2, 3])],
    fn: (z) => (P.mode(paddle.concat([z, T(paddle.slice(z, [1], [1], [2])), T(paddle.slice(z, [1], [1], [2]))], 1), 1) as Tensor[])[0],
  },
  { op: 'mode', label: 'all tied, keepdim, axis 0', inputs: [spread([2, 3])], fn: (z) => (P.mode(paddle.concat([z, z], 0), 0, true) as Tensor[])[0] },
  // sort.ts: the values' gradient goes back through the indices (spread inputs have no ties).
  { op: 'sort', inputs: [spread([3, 5])], fn: (x) => T(paddle.multiply(T(P.sort(x, 1)), T(paddle.arange(0, 5, 1, 'float64')))) },
  { op: 'sort', label: 'descending, axis 0, strided', inputs: [spread([3, 4])], fn: (x) => T(P.sort(tr(x), 0, true)) },
  { op: 'argsort', inputs: [spread([2, 4])], fn: (x) => op('argsort', [x], { axis: 1, descending: true }) },
  { op: 'topk', inputs: [spread([3, 6])], fn: (x) => (P.topk(x, 2) as Tensor[])[0] },
  { op: 'topk', label: 'smallest, axis 0', inputs: [spread([5, 3])], fn: (x) => (P.topk(x, 3, 0, false) as Tensor[])[0] },
  { op: 'topk', label: '0-dim', inputs: [{ shape: [] }], fn: (x) => (P.topk(x, 1) as Tensor[])[0] },
  { op: 'kthvalue', inputs: [spread([3, 5])], fn: (x) => (P.kthvalue(x, 2) as Tensor[])[0] },
  { op: 'kthvalue', label: 'keepdim, axis 0, strided', inputs: [spread([4, 3])], fn: (x) => (P.kthvalue(tr(x), 3, 1, true) as Tensor[])[0] },
  // set_value_with_tensor (x[1:, ::2] = v, with v broadcast): zero gradient to x in the region.
  {
    op: 'set_value_with_tensor', inputs: [{ shape: [3, 5] }, { shape: [1, 3] }],
    fn: (x, v) => { const y = op('set_value_with_tensor', [T(paddle.scale(x, 1)), v], { starts: [1, 0], ends: [3, 5], steps: [1, 2], axes: [0, 1] }); return T(paddle.multiply(y, y)); },
  },
  {
    op: 'set_value_with_tensor', label: 'negative step, decreased axis, None', inputs: [{ shape: [4, 3] }, { shape: [2, 1] }],
    fn: (x, v) => op('set_value_with_tensor', [x, v], { starts: [3, 1], ends: [0, 2], steps: [-2, 1], axes: [0, 1], decrease_axes: [1], none_axes: [2] }),
  },
  {
    op: 'set_value_with_tensor', label: 'through set_item on a non-leaf (inplace on the tape)', inputs: [{ shape: [3, 4] }, { shape: [4] }],
    fn: (x, v) => { const y = T(paddle.scale(x, 2)); set_item(y, ['1:', '::-2'], T(paddle.slice(v, [0], [0], [2]))); return T(paddle.multiply(y, x)); },
  },
  {
    op: 'fused_gemm_epilogue', inputs: [{ shape: [2, 2, 3] }, { shape: [3, 4] }, { shape: [4] }],
    fn: (x, y, b) => op('fused_gemm_epilogue', [x, y, b], { activation: 'gelu' }),
  },
  {
    op: 'fused_gemm_epilogue', label: 'transposed, relu', inputs: [{ shape: [3, 2] }, { shape: [4, 3] }, { shape: [4] }],
    fn: (x, y, b) => op('fused_gemm_epilogue', [x, y, b], { trans_x: true, trans_y: true, activation: 'relu' }),
  },
  {
    op: 'fused_gemm_epilogue', label: 'gelu_tanh, y transposed', inputs: [{ shape: [2, 3] }, { shape: [4, 3] }, { shape: [4] }],
    fn: (x, y, b) => op('fused_gemm_epilogue', [x, y, b], { trans_y: true, activation: 'gelu_tanh' }),
  },
];

/** Representative second-order checks for the new rules (gradcheck.test.ts runs them). */
export const MORE_SECOND_ORDER = ['expm1', 'log1p', 'tan', 'asin', 'atanh', 'lgamma', 'digamma', 'i0', 'erfinv', 'mish', 'softplus', 'elu', 'selu',
  'atan2', 'hypot', 'lerp', 'cumprod', 'logcumsumexp', 'p_norm', 'frobenius_norm', 'amax', 'set_value_with_tensor', 'fused_gemm_epilogue',
  ...['qr', 'svd', 'eigh', 'pinv', 'lstsq'],
  ...['sort', 'topk', 'kthvalue'],
  ...LINALG_LU_SECOND_ORDER,
  ...ADV_INDEX_SECOND_ORDER,
  ...MATRIX_MORE_SECOND_ORDER,
  ...FUSED_SECOND_ORDER];
