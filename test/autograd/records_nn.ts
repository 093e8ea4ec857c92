// Gradient-check records for the NN rules of issue 7 that closed KNOWN_GAPS: conv1d/3d and the
// transposed convolutions, the n-d and adaptive pools, max_unpool, interpolate (every mode),
// pixel_shuffle/unshuffle, group_norm, instance_norm, local_response_norm, and the two backward
// ops with kernels of their own (avg_pool_grad, interpolate_grad). Max records use distinct
// shuffled values so no window has a tie (finite differences are meaningless at a tie).
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const F = paddle.nn.functional as unknown as Record<string, (...a: unknown[]) => unknown>;
const T = (v: unknown) => v as Tensor;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}, i = 0) => T(runOp(name, ins, attrs)[i]);
/** Distinct values, shuffled, spread over [lo, hi] (no ties in a max window). */
const spread = (shape: number[], lo = -2, hi = 2) => {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, (_, i) => lo + ((i * 7919) % n) * (hi - lo) / Math.max(n - 1, 1));
  return { data, shape, dtype: 'float64' as const };
};
const perm = (x: Tensor, p: number[]) => T(paddle.transpose(x, p));

export const NN_RECORDS: GradRecord[] = [
  // conv1d / conv3d: dx through conv_transpose, dw through one correlation.
  { op: 'conv1d', inputs: [{ shape: [2, 2, 7] }, { shape: [3, 2, 3] }, { shape: [3] }], fn: (x, w, b) => T(F.conv1d(x, w, b)) },
  { op: 'conv1d', label: 'stride 2, padding [1, 2], dilation 2, groups 2', inputs: [{ shape: [1, 4, 9] }, { shape: [4, 2, 2] }],
    fn: (x, w) => T(F.conv1d(x, w, null, 2, [1, 2], 2, 2)) },
  { op: 'conv1d', label: 'NLC, SAME, strided input', inputs: [{ shape: [2, 3, 6] }, { shape: [2, 3, 3] }],
    fn: (x, w) => T(F.conv1d(perm(x, [0, 2, 1]), w, null, 2, 'SAME', 1, 1, 'NLC')) },
  { op: 'conv1d', label: 'empty batch', inputs: [{ shape: [0, 2, 5] }, { shape: [3, 2, 2] }], fn: (x, w) => T(F.conv1d(x, w)) },
  { op: 'conv2d_transpose', label: 'empty batch', inputs: [{ shape: [0, 2, 3, 3] }, { shape: [2, 3, 2, 2] }], fn: (x, w) => T(F.conv2d_transpose(x, w)) },
  // fused_conv2d_add_act: inputs spread so no pre-activation sits on relu's or hardswish's kink.
  { op: 'fused_conv2d_add_act', label: 'relu', inputs: [{ shape: [1, 2, 4, 4] }, { shape: [3, 2, 2, 2] }, { shape: [3] }],
    fn: (x, w, b) => op('fused_conv2d_add_act', [x, w, b], { activation: 'relu' }) },
  { op: 'fused_conv2d_add_act', label: 'depthwise, hardswish, stride 2, no bias', inputs: [{ shape: [1, 2, 5, 5] }, { shape: [2, 1, 3, 3] }],
    fn: (x, w) => op('fused_conv2d_add_act', [x, w, null], { groups: 2, stride: 2, padding: 1, activation: 'hardswish' }) },
  { op: 'fused_conv2d_add_act', label: 'identity', inputs: [{ shape: [1, 2, 3, 3] }, { shape: [2, 2, 2, 2] }, { shape: [2] }],
    fn: (x, w, b) => op('fused_conv2d_add_act', [x, w, b], { activation: 'identity' }) },
  { op: 'fused_conv2d_add_act', label: 'relu with residual_data', inputs: [{ shape: [1, 2, 4, 4] }, { shape: [3, 2, 2, 2] }, { shape: [3] }, { shape: [1, 3, 3, 3] }],
    fn: (x, w, b, r) => op('fused_conv2d_add_act', [x, w, b, r], { activation: 'relu' }) },
  { op: 'conv3d', inputs: [{ shape: [1, 2, 3, 4, 3] }, { shape: [2, 2, 2, 2, 2] }, { shape: [2] }], fn: (x, w, b) => T(F.conv3d(x, w, b)) },
  { op: 'conv3d', label: 'stride, padding, dilation, groups', inputs: [{ shape: [1, 2, 5, 4, 5] }, { shape: [4, 1, 2, 2, 2] }],
    fn: (x, w) => T(F.conv3d(x, w, null, [2, 1, 2], [1, 0, 1], [1, 2, 1], 2)) },
  { op: 'conv3d', label: 'NDHWC', inputs: [{ shape: [1, 3, 3, 4, 2] }, { shape: [2, 2, 2, 1, 2] }, { shape: [2] }],
    fn: (x, w, b) => T(F.conv3d(x, w, b, 1, [0, 0, 0, 0, 1, 1], 1, 1, 'NDHWC')) },
  // Transposed convolutions: dx through the convolution, dw with g and x in the conv's roles.
  { op: 'conv1d_transpose', inputs: [{ shape: [2, 2, 4] }, { shape: [2, 3, 3] }, { shape: [3] }], fn: (x, w, b) => T(F.conv1d_transpose(x, w, b)) },
  { op: 'conv1d_transpose', label: 'stride 2, padding, output_padding, groups 2, dilation', inputs: [{ shape: [1, 4, 4] }, { shape: [4, 1, 3] }],
    fn: (x, w) => T(F.conv1d_transpose(x, w, null, 2, 1, 1, 2, 2)) },
  { op: 'conv1d_transpose', label: 'NLC', inputs: [{ shape: [1, 5, 2] }, { shape: [2, 2, 2] }],
    fn: (x, w) => T(F.conv1d_transpose(x, w, null, 3, 0, 0, 1, 1, null, 'NLC')) },
  { op: 'conv2d_transpose', inputs: [{ shape: [1, 2, 3, 3] }, { shape: [2, 3, 2, 2] }, { shape: [3] }], fn: (x, w, b) => T(F.conv2d_transpose(x, w, b)) },
  { op: 'conv2d_transpose', label: 'stride 2, asymmetric padding, output_size, dilation, groups 2', inputs: [{ shape: [1, 4, 3, 2] }, { shape: [4, 1, 2, 3] }],
    fn: (x, w) => T(F.conv2d_transpose(x, w, null, 2, [1, 0, 0, 1], 0, [1, 2], 2, [6, 6])) },
  { op: 'conv2d_transpose', label: 'NHWC, SAME, strided input', inputs: [{ shape: [1, 2, 3, 3] }, { shape: [2, 2, 3, 3] }],
    fn: (x, w) => T(F.conv2d_transpose(perm(x, [0, 2, 3, 1]), w, null, 2, 'SAME', 0, 1, 1, null, 'NHWC')) },
  { op: 'conv2d_transpose', label: 'dilation beyond stride with output_padding', inputs: [{ shape: [1, 1, 3, 3] }, { shape: [1, 2, 2, 2] }],
    fn: (x, w) => T(F.conv2d_transpose(x, w, null, 1, 0, 1, 2)) },
  { op: 'conv3d_transpose', inputs: [{ shape: [1, 2, 2, 3, 2] }, { shape: [2, 2, 2, 2, 2] }, { shape: [2] }], fn: (x, w, b) => T(F.conv3d_transpose(x, w, b)) },
  { op: 'conv3d_transpose', label: 'stride, padding, groups, NDHWC', inputs: [{ shape: [1, 2, 3, 2, 2] }, { shape: [2, 1, 2, 2, 2] }],
    fn: (x, w) => T(F.conv3d_transpose(x, w, null, [2, 1, 2], [1, 0, 0], 0, 2, 1, null, 'NDHWC')) },

  // Max pools: g summed into each window's first maximum (index_add over the forward's mask).
  { op: 'max_pool1d', inputs: [spread([2, 2, 7])], fn: (x) => T(F.max_pool1d(x, 2)) },
  { op: 'max_pool1d', label: 'overlapping, padding, ceil_mode', inputs: [spread([1, 2, 8])], fn: (x) => T(F.max_pool1d(x, 3, 2, 1, false, true)) },
  { op: 'max_pool3d', inputs: [spread([1, 2, 4, 4, 4])], fn: (x) => T(F.max_pool3d(x, 2)) },
  { op: 'max_pool3d', label: 'overlapping, padding, NDHWC, strided input', inputs: [spread([1, 2, 5, 4, 3])],
    fn: (x) => T(F.max_pool3d(perm(x, [0, 2, 3, 4, 1]), [3, 2, 2], [2, 1, 1], [1, 0, 1], false, false, 'NDHWC')) },
  { op: 'max_pool3d', label: 'SAME', inputs: [spread([1, 1, 3, 5, 4])], fn: (x) => T(F.max_pool3d(x, 2, 2, 'SAME')) },
  { op: 'adaptive_max_pool1d', inputs: [spread([2, 2, 7])], fn: (x) => T(F.adaptive_max_pool1d(x, 3)) },
  { op: 'adaptive_max_pool2d', inputs: [spread([1, 2, 5, 7])], fn: (x) => T(F.adaptive_max_pool2d(x, [2, 3])) },
  { op: 'adaptive_max_pool3d', inputs: [spread([1, 2, 3, 4, 5])], fn: (x) => T(F.adaptive_max_pool3d(x, [2, 2, 3])) },
  // Average pools: avg_pool_grad spreads each window's share back.
  { op: 'avg_pool1d', inputs: [{ shape: [2, 2, 6] }], fn: (x) => T(F.avg_pool1d(x, 2)) },
  { op: 'avg_pool1d', label: 'padding, not exclusive, ceil', inputs: [{ shape: [1, 2, 7] }], fn: (x) => T(F.avg_pool1d(x, 3, 2, 1, false, true)) },
  { op: 'avg_pool3d', inputs: [{ shape: [1, 2, 4, 4, 4] }], fn: (x) => T(F.avg_pool3d(x, 2)) },
  { op: 'avg_pool3d', label: 'padding, exclusive, NDHWC', inputs: [{ shape: [1, 5, 4, 3, 2] }],
    fn: (x) => T(F.avg_pool3d(x, [3, 2, 2], [2, 1, 2], 1, false, true, null, 'NDHWC')) },
  { op: 'avg_pool3d', label: 'ceil, not exclusive', inputs: [{ shape: [1, 1, 3, 5, 4] }], fn: (x) => T(F.avg_pool3d(x, 2, 2, 0, true, false)) },
  { op: 'avg_pool3d', label: 'divisor_override', inputs: [{ shape: [1, 1, 3, 4, 4] }], fn: (x) => T(F.avg_pool3d(x, 2, 1, 0, false, true, 3)) },
  { op: 'adaptive_avg_pool1d', inputs: [{ shape: [2, 2, 7] }], fn: (x) => T(F.adaptive_avg_pool1d(x, 3)) },
  { op: 'adaptive_avg_pool2d', inputs: [{ shape: [1, 2, 5, 7] }], fn: (x) => T(F.adaptive_avg_pool2d(x, [2, 3])) },
  { op: 'adaptive_avg_pool2d', label: 'NHWC, -1 keeps a size', inputs: [{ shape: [1, 4, 5, 2] }], fn: (x) => T(F.adaptive_avg_pool2d(x, [3, -1], 'NHWC')) },
  { op: 'adaptive_avg_pool3d', inputs: [{ shape: [1, 2, 3, 4, 5] }], fn: (x) => T(F.adaptive_avg_pool3d(x, [2, 3, 2])) },
  { op: 'adaptive_avg_pool3d', label: 'NDHWC', inputs: [{ shape: [1, 3, 4, 5, 2] }], fn: (x) => T(F.adaptive_avg_pool3d(x, 2, 'NDHWC')) },
  { op: 'avg_pool_grad', inputs: [{ shape: [1, 2, 3, 3] }], fn: (g) => op('avg_pool_grad', [g], { x_shape: [1, 2, 5, 4], kernel_size: [3, 2], stride: 2, padding: 1, exclusive: false }) },
  { op: 'avg_pool_grad', label: 'adaptive, NLC', inputs: [{ shape: [2, 3, 2] }], fn: (g) => op('avg_pool_grad', [g], { x_shape: [2, 7, 2], data_format: 'NLC' }) },
  // max_unpool: gathers g from the indices max_pool returned.
  { op: 'max_unpool1d', inputs: [spread([1, 2, 3]), { data: [0, 3, 5, 1, 2, 4], shape: [1, 2, 3], dtype: 'int32' }],
    fn: (x, i) => T(F.max_unpool1d(x, i, 2)), wrt: [0] },
  { op: 'max_unpool2d', inputs: [{ shape: [1, 1, 2, 2] }, { data: [0, 3, 9, 14], shape: [1, 1, 2, 2], dtype: 'int64' }],
    fn: (x, i) => T(F.max_unpool2d(x, i, 2, 2, 0, 'NCHW', [5, 4])), wrt: [0] },
  { op: 'max_unpool3d', label: 'indices from max_pool3d', inputs: [spread([1, 2, 4, 4, 4])],
    fn: (x) => { const [y, m] = F.max_pool3d(x, 2, 2, 0, true) as Tensor[]; return T(F.max_unpool3d(T(paddle.multiply(y, y)), m, 2)); } },
  // interpolate: interpolate_grad scatters with the forward's taps.
  { op: 'interpolate', label: undefined, inputs: [{ shape: [1, 2, 3, 4] }], fn: (x) => T(F.interpolate(x, [5, 7], null, 'bilinear')) },
  { op: 'interpolate', label: 'bilinear, align_corners, downsample', inputs: [{ shape: [2, 1, 5, 6] }], fn: (x) => T(F.interpolate(x, [3, 4], null, 'bilinear', true)) },
  { op: 'interpolate', label: 'bilinear, align_mode 1, scale, NHWC', inputs: [{ shape: [1, 3, 4, 2] }], fn: (x) => T(F.interpolate(x, null, [1.5, 2], 'bilinear', false, 1, 'NHWC')) },
  { op: 'interpolate', label: 'nearest 1-D', inputs: [{ shape: [1, 2, 4] }], fn: (x) => T(F.interpolate(x, 7)) },
  { op: 'interpolate', label: 'nearest 3-D, NDHWC', inputs: [{ shape: [1, 2, 3, 2, 2] }], fn: (x) => T(F.interpolate(x, [3, 5, 3], null, 'nearest', false, 0, 'NDHWC')) },
  { op: 'interpolate', label: 'linear', inputs: [{ shape: [2, 2, 5] }], fn: (x) => T(F.interpolate(x, 8, null, 'linear')) },
  { op: 'interpolate', label: 'linear, align_corners, strided input', inputs: [{ shape: [2, 5, 2] }], fn: (x) => T(F.interpolate(perm(x, [0, 2, 1]), 3, null, 'linear', true)) },
  { op: 'interpolate', label: 'trilinear', inputs: [{ shape: [1, 1, 2, 3, 3] }], fn: (x) => T(F.interpolate(x, null, 2, 'trilinear')) },
  { op: 'interpolate', label: 'trilinear, align_corners', inputs: [{ shape: [1, 2, 3, 2, 3] }], fn: (x) => T(F.interpolate(x, [4, 3, 2], null, 'trilinear', true)) },
  { op: 'interpolate', label: 'bicubic', inputs: [{ shape: [1, 1, 4, 4] }], fn: (x) => T(F.interpolate(x, [6, 5], null, 'bicubic')) },
  { op: 'interpolate', label: 'bicubic, align_corners', inputs: [{ shape: [1, 2, 3, 5] }], fn: (x) => T(F.interpolate(x, [5, 4], null, 'bicubic', true)) },
  { op: 'interpolate', label: 'area', inputs: [{ shape: [1, 2, 5, 7] }], fn: (x) => T(F.interpolate(x, [2, 3], null, 'area')) },
  { op: 'interpolate', label: 'area 1-D', inputs: [{ shape: [1, 1, 7] }], fn: (x) => T(F.interpolate(x, 3, null, 'area')) },
  { op: 'interpolate_grad', inputs: [{ shape: [1, 2, 5, 7] }], fn: (g) => op('interpolate_grad', [g], { x_shape: [1, 2, 3, 4], size: [5, 7], mode: 'bilinear' }) },
  { op: 'interpolate_grad', label: 'bicubic, NHWC', inputs: [{ shape: [1, 4, 6, 2] }], fn: (g) => op('interpolate_grad', [g], { x_shape: [1, 3, 3, 2], size: [4, 6], mode: 'bicubic', data_format: 'NHWC' }) },
  // pixel_shuffle / pixel_unshuffle: each other's adjoint.
  { op: 'pixel_shuffle', inputs: [{ shape: [1, 8, 2, 3] }], fn: (x) => T(F.pixel_shuffle(x, 2)) },
  { op: 'pixel_shuffle', label: 'NHWC', inputs: [{ shape: [1, 2, 2, 9] }], fn: (x) => T(F.pixel_shuffle(x, 3, 'NHWC')) },
  { op: 'pixel_unshuffle', inputs: [{ shape: [1, 2, 4, 6] }], fn: (x) => T(F.pixel_unshuffle(x, 2)) },
  { op: 'pixel_unshuffle', label: 'NHWC', inputs: [{ shape: [1, 4, 2, 3] }], fn: (x) => T(F.pixel_unshuffle(x, 2, 'NHWC')) },
  // group_norm / instance_norm: statistics recomputed per group.
  { op: 'group_norm', inputs: [{ shape: [2, 4, 3] }, { shape: [4] }, { shape: [4] }], fn: (x, w, b) => T(F.group_norm(x, 2, 1e-5, w, b)) },
  { op: 'group_norm', label: 'NHWC, no affine', inputs: [{ shape: [2, 2, 3, 6] }], fn: (x) => T(F.group_norm(x, 3, 1e-5, null, null, 'NHWC')) },
  { op: 'group_norm', label: '5-D, one group per channel', inputs: [{ shape: [1, 3, 2, 2, 2] }, { shape: [3] }], fn: (x, w) => T(F.group_norm(x, 3, 1e-5, w, null, 'NCDHW')) },
  { op: 'instance_norm', inputs: [{ shape: [2, 3, 4, 3] }, { shape: [3] }, { shape: [3] }], fn: (x, w, b) => T(F.instance_norm(x, null, null, w, b)) },
  { op: 'instance_norm', label: 'NCL, strided input', inputs: [{ shape: [2, 5, 3] }], fn: (x) => T(F.instance_norm(perm(x, [0, 2, 1]), null, null, null, null, true, 0.9, 1e-5, 'NCL')) },
  // local_response_norm: the window sum's adjoint is the reflected window.
  { op: 'local_response_norm', inputs: [{ shape: [2, 5, 2, 3] }], fn: (x) => T(F.local_response_norm(x, 3, 0.5, 0.75, 1.5)) },
  { op: 'local_response_norm', label: 'even size, NLC', inputs: [{ shape: [2, 3, 6] }], fn: (x) => T(F.local_response_norm(x, 4, 0.8, 0.6, 1, 'NLC')) },
  { op: 'local_response_norm', label: '5-D, NDHWC', inputs: [{ shape: [1, 2, 2, 2, 4] }], fn: (x) => T(F.local_response_norm(x, 2, 0.3, 0.9, 2, 'NDHWC')) },
];

/** Second-order checks (gradcheck.test.ts runs them with create_graph). */
export const NN_SECOND_ORDER = ['conv2d_transpose', 'conv1d', 'group_norm', 'interpolate', 'adaptive_avg_pool2d', 'max_pool3d', 'pixel_shuffle', 'local_response_norm'];
