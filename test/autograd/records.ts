// The gradient-check table: one record (or a few) per op with a grad rule, on small float64
// inputs, including broadcasting operands. test/autograd/gradcheck.test.ts runs them all and
// fails if a registry op with a grad rule has no record here.
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const F = paddle.nn.functional;
const T = (v: unknown) => v as Tensor;
const pos = (shape: number[]) => ({ shape, lo: 0.5, hi: 2 });
const away = (shape: number[]) => ({ shape, lo: 0.3, hi: 1.5 });  // no kinks near 0 (abs, relu)
const ints = (data: number[], shape = [data.length], dtype: 'int64' | 'int32' = 'int64') => ({ data, shape, dtype });
const neg = (x: Tensor) => T(paddle.scale(x, -1));

export const RECORDS: GradRecord[] = [
  // Elementwise binary, with broadcasting.
  { op: 'add', inputs: [{ shape: [2, 3] }, { shape: [3] }], fn: (x, y) => T(paddle.add(x, y)) },
  { op: 'subtract', inputs: [{ shape: [2, 1, 3] }, { shape: [4, 3] }], fn: (x, y) => T(paddle.subtract(x, y)) },
  { op: 'multiply', inputs: [{ shape: [2, 3] }, { shape: [2, 1] }], fn: (x, y) => T(paddle.multiply(x, y)) },
  { op: 'divide', inputs: [{ shape: [3, 2] }, pos([2])], fn: (x, y) => T(paddle.divide(x, y)) },
  { op: 'elementwise_pow', inputs: [pos([2, 3]), { shape: [3], lo: -1.5, hi: 2 }], fn: (x, y) => T(paddle.pow(x, y)) },
  { op: 'maximum', inputs: [{ shape: [2, 3] }, { shape: [3] }], fn: (x, y) => T(paddle.maximum(x, y)) },
  { op: 'minimum', inputs: [{ shape: [2, 3] }, { shape: [2, 1] }], fn: (x, y) => T(paddle.minimum(x, y)) },
  // Unary.
  { op: 'neg', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.neg(x)) },
  { op: 'abs', inputs: [away([4])], fn: (x) => T(paddle.abs(neg(x))) },
  { op: 'exp', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.exp(x)) },
  { op: 'log', inputs: [pos([2, 3])], fn: (x) => T(paddle.log(x)) },
  { op: 'sqrt', inputs: [pos([5])], fn: (x) => T(paddle.sqrt(x)) },
  { op: 'rsqrt', inputs: [pos([5])], fn: (x) => T(paddle.rsqrt(x)) },
  { op: 'square', inputs: [{ shape: [5] }], fn: (x) => T(paddle.square(x)) },
  { op: 'sin', inputs: [{ shape: [5] }], fn: (x) => T(paddle.sin(x)) },
  { op: 'cos', inputs: [{ shape: [5] }], fn: (x) => T(paddle.cos(x)) },
  { op: 'tanh', inputs: [{ shape: [5] }], fn: (x) => T(paddle.tanh(x)) },
  { op: 'sigmoid', inputs: [{ shape: [5] }], fn: (x) => T(F.sigmoid(x)) },
  { op: 'relu', inputs: [away([3])], fn: (x) => T(paddle.concat([T(F.relu(x)), T(F.relu(neg(x)))])) },
  { op: 'gelu', inputs: [{ shape: [6], lo: -2, hi: 2 }], fn: (x) => T(F.gelu(x)) },
  { op: 'gelu', label: 'approximate', inputs: [{ shape: [6], lo: -2, hi: 2 }], fn: (x) => T(F.gelu(x, true)) },
  { op: 'silu', inputs: [{ shape: [6], lo: -2, hi: 2 }], fn: (x) => T(F.silu(x)) },
  { op: 'erf', inputs: [{ shape: [6] }], fn: (x) => T(paddle.erf(x)) },
  { op: 'sign', inputs: [away([3])], fn: (x) => T(paddle.multiply(paddle.sign(x), x)) },
  { op: 'floor', inputs: [{ shape: [3], lo: 0.1, hi: 0.9 }], fn: (x) => T(paddle.add(paddle.floor(x), x)) },
  { op: 'ceil', inputs: [{ shape: [3], lo: 0.1, hi: 0.9 }], fn: (x) => T(paddle.add(paddle.ceil(x), x)) },
  { op: 'round', inputs: [{ shape: [3], lo: 0.1, hi: 0.4 }], fn: (x) => T(paddle.add(paddle.round(x), x)) },
  // where / clip / scale / cast.
  { op: 'scale', inputs: [{ shape: [2, 2] }], fn: (x) => T(paddle.scale(x, 2.5, 1)) },
  { op: 'clip', inputs: [{ data: [-2, -0.5, 0.2, 0.7, 3], shape: [5], dtype: 'float64' }], fn: (x) => T(paddle.clip(x, -1, 1)) },
  { op: 'clip', label: 'one bound', inputs: [{ data: [-2, -0.5, 0.2, 0.7, 3], shape: [5], dtype: 'float64' }], fn: (x) => T(paddle.clip(x, null, 0.5)) },
  {
    op: 'where', inputs: [{ data: [1, 0, 1], shape: [3], dtype: 'bool' }, { shape: [2, 3] }, { shape: [3] }],
    fn: (c, x, y) => T(paddle.where(c, x, y)),
  },
  { op: 'cast', inputs: [{ shape: [4] }], fn: (x) => T(paddle.cast(paddle.cast(x, 'float32'), 'float64')), eps: 1e-2, atol: 1e-4 },
  // matmul / bmm.
  { op: 'matmul', inputs: [{ shape: [2, 3] }, { shape: [3, 4] }], fn: (x, y) => T(paddle.matmul(x, y)) },
  { op: 'matmul', label: 'transpose_x', inputs: [{ shape: [3, 2] }, { shape: [3, 4] }], fn: (x, y) => T(paddle.matmul(x, y, true)) },
  { op: 'matmul', label: 'transpose_y', inputs: [{ shape: [2, 3] }, { shape: [4, 3] }], fn: (x, y) => T(paddle.matmul(x, y, false, true)) },
  { op: 'matmul', label: 'both transposed', inputs: [{ shape: [3, 2] }, { shape: [4, 3] }], fn: (x, y) => T(paddle.matmul(x, y, true, true)) },
  { op: 'matmul', label: 'batch broadcast', inputs: [{ shape: [2, 1, 2, 3] }, { shape: [3, 3, 2] }], fn: (x, y) => T(paddle.matmul(x, y)) },
  { op: 'matmul', label: 'vector @ matrix', inputs: [{ shape: [3] }, { shape: [2, 3, 4] }], fn: (x, y) => T(paddle.matmul(x, y)) },
  { op: 'matmul', label: 'matrix @ vector', inputs: [{ shape: [2, 3] }, { shape: [3] }], fn: (x, y) => T(paddle.matmul(x, y)) },
  { op: 'matmul', label: 'vector @ vector', inputs: [{ shape: [3] }, { shape: [3] }], fn: (x, y) => T(paddle.matmul(x, y)) },
  { op: 'bmm', inputs: [{ shape: [2, 2, 3] }, { shape: [2, 3, 2] }], fn: (x, y) => T(paddle.bmm(x, y)) },
  // Reductions.
  { op: 'sum', inputs: [{ shape: [2, 3, 2] }], fn: (x) => T(paddle.sum(x, [0, 2])) },
  { op: 'sum', label: 'all, keepdim', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.sum(x, null, null, true)) },
  { op: 'mean', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.mean(x, -1, true)) },
  { op: 'max', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.max(x, 1)) },
  { op: 'min', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.min(x)) },
  { op: 'logsumexp', inputs: [{ shape: [2, 4] }], fn: (x) => T(paddle.logsumexp(x, 1)) },
  { op: 'prod', inputs: [pos([2, 3])], fn: (x) => T(paddle.prod(x, 0)) },
  { op: 'var', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.var(x, 1)) },
  { op: 'std', inputs: [{ shape: [3, 4] }], fn: (x) => T(paddle.std(x, null, false)) },
  { op: 'cumsum', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.cumsum(x, 1)) },
  { op: 'cumsum', label: 'flattened', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.cumsum(x)) },
  // Shape ops.
  { op: 'tril', inputs: [{ shape: [3, 3] }], fn: (x) => T(paddle.tril(x)) },
  { op: 'triu', inputs: [{ shape: [2, 3, 4] }], fn: (x) => T(paddle.triu(x, 1)) },
  { op: 'reshape', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.reshape(x, [3, 2])) },
  { op: 'transpose', inputs: [{ shape: [2, 3, 2] }], fn: (x) => T(paddle.transpose(x, [2, 0, 1])) },
  { op: 'squeeze', inputs: [{ shape: [2, 1, 3] }], fn: (x) => T(paddle.squeeze(x, 1)) },
  { op: 'unsqueeze', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.unsqueeze(x, [0, 2])) },
  { op: 'flatten', inputs: [{ shape: [2, 2, 3] }], fn: (x) => T(paddle.flatten(x, 1)) },
  { op: 'expand', inputs: [{ shape: [3, 1] }], fn: (x) => T(paddle.expand(x, [2, 3, 4])) },
  { op: 'contiguous', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.transpose(x, [1, 0]).contiguous()) },
  { op: 'slice', inputs: [{ shape: [4, 5] }], fn: (x) => T(paddle.slice(x, [0, 1], [1, -3], [3, 100])) },
  { op: 'strided_slice', inputs: [{ shape: [5, 6] }], fn: (x) => T(paddle.strided_slice(x, [0, 1], [0, 1], [5, 6], [2, 3])) },
  { op: 'strided_slice', label: 'negative stride', inputs: [{ shape: [6] }], fn: (x) => T(paddle.strided_slice(x, [0], [4], [0], [-2])) },
  { op: 'concat', inputs: [{ shape: [2, 3] }, { shape: [2, 1] }], fn: (x, y) => T(paddle.concat([x, y], 1)) },
  { op: 'stack', inputs: [{ shape: [2, 3] }, { shape: [2, 3] }], fn: (x, y) => T(paddle.stack([x, y], 1)) },
  { op: 'split', inputs: [{ shape: [5, 2] }], fn: (x) => (paddle.split(x, [2, 3]) as Tensor[]).slice(1) },
  { op: 'unbind', inputs: [{ shape: [3, 2] }], fn: (x) => [(paddle.unbind(x) as Tensor[])[0], (paddle.unbind(x) as Tensor[])[2]] },
  { op: 'tile', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.tile(x, [2, 1, 2])) },
  { op: 'flip', inputs: [{ shape: [2, 3] }], fn: (x) => T(paddle.flip(x, [0, 1])) },
  { op: 'pad', inputs: [{ shape: [2, 3] }], fn: (x) => T(F.pad(x, [1, 0, 2, 1])) },
  // Indexing.
  { op: 'gather', inputs: [{ shape: [4, 3] }, ints([3, 0, 3])], fn: (x, i) => T(paddle.gather(x, i)) },
  { op: 'gather', label: 'axis 1, 0-D index', inputs: [{ shape: [2, 4] }, ints([2], [])], fn: (x, i) => T(paddle.gather(x, i, 1)) },
  { op: 'index_select', inputs: [{ shape: [2, 4] }, ints([1, 1, 3], [3], 'int32')], fn: (x, i) => T(paddle.index_select(x, i, 1)) },
  {
    op: 'index_add', inputs: [{ shape: [4, 3] }, ints([3, 0, 3]), { shape: [3, 3] }],
    fn: (x, i, v) => { const y = T(runOp('index_add', [x, i, v])[0]); return T(paddle.multiply(y, y)); },
  },
  { op: 'embedding', inputs: [ints([0, 2, 2, 1, 3, 0], [2, 3]), { shape: [4, 3] }], fn: (i, w) => T(F.embedding(i, w)) },
  { op: 'embedding', label: 'padding_idx', inputs: [ints([0, 2, 2, 1], [4]), { shape: [4, 3] }], fn: (i, w) => T(F.embedding(i, w, 2)) },
  // nn.
  { op: 'softmax', inputs: [{ shape: [2, 4] }], fn: (x) => T(F.softmax(x)) },
  { op: 'softmax', label: 'axis 0', inputs: [{ shape: [3, 2] }], fn: (x) => T(F.softmax(x, 0)) },
  { op: 'log_softmax', inputs: [{ shape: [2, 4] }], fn: (x) => T(F.log_softmax(x, 1)) },
  {
    op: 'layer_norm', inputs: [{ shape: [2, 2, 3] }, { shape: [3] }, { shape: [3] }],
    fn: (x, w, b) => T(F.layer_norm(x, [3], w, b)), atol: 1e-5,
  },
  { op: 'layer_norm', label: 'no affine, 2 dims', inputs: [{ shape: [2, 2, 3] }], fn: (x) => T(F.layer_norm(x, [2, 3])), atol: 1e-5 },
  {
    op: 'batch_norm', label: 'training', inputs: [{ shape: [3, 2, 2] }, { shape: [2] }, pos([2]), { shape: [2] }, { shape: [2] }],
    fn: (x, m, v, w, b) => T(F.batch_norm(x, m, v, w, b, true)), wrt: [0, 3, 4], atol: 1e-5,
  },
  {
    op: 'batch_norm', label: 'running stats, NHWC', inputs: [{ shape: [2, 2, 3] }, { shape: [3] }, pos([3]), { shape: [3] }],
    fn: (x, m, v, w) => T(F.batch_norm(x, m, v, w, null, false, 0.9, 1e-5, 'NLC')), wrt: [0, 3],
  },
  { op: 'cross_entropy', inputs: [{ shape: [3, 4] }, ints([1, 0, 3])], fn: (x, l) => T(F.cross_entropy(x, l)) },
  {
    op: 'cross_entropy', label: 'weight, ignore_index, sum', inputs: [{ shape: [4, 3] }, ints([1, 2, 0, 2], [4, 1]), pos([3])],
    fn: (x, l, w) => T(F.cross_entropy(x, l, { weight: w, ignore_index: 2, reduction: 'mean' })), wrt: [0],
  },
  {
    op: 'cross_entropy', label: 'none, axis 1', inputs: [{ shape: [2, 3, 2] }, ints([0, 2, 1, 1], [2, 2])],
    fn: (x, l) => T(F.cross_entropy(x, l, { reduction: 'none', axis: 1 })),
  },
  {
    op: 'cross_entropy', label: 'soft labels', inputs: [{ shape: [2, 3] }, pos([2, 3])],
    fn: (x, l) => T(F.cross_entropy(x, l, { soft_label: true, reduction: 'sum' })),
  },
  {
    op: 'cross_entropy', label: 'probabilities', inputs: [{ shape: [2, 3], lo: 0.2, hi: 0.9 }, ints([2, 0])],
    fn: (x, l) => T(F.cross_entropy(x, l, { use_softmax: false })),
  },
  // Convolution.
  { op: 'conv2d', inputs: [{ shape: [1, 2, 4, 4] }, { shape: [3, 2, 2, 2] }], fn: (x, w) => T(F.conv2d(x, w)) },
  {
    op: 'conv2d', label: 'stride 2, padding, bias', inputs: [{ shape: [2, 2, 5, 4] }, { shape: [2, 2, 3, 2] }, { shape: [2] }],
    fn: (x, w, b) => T(F.conv2d(x, w, b, 2, [1, 0])),
  },
  {
    op: 'conv2d', label: 'dilation, asymmetric padding', inputs: [{ shape: [1, 1, 6, 5] }, { shape: [2, 1, 2, 2] }],
    fn: (x, w) => T(F.conv2d(x, w, null, [1, 2], [1, 0, 2, 1], 2)),
  },
  {
    op: 'conv2d', label: 'groups 2, NHWC', inputs: [{ shape: [1, 4, 3, 4] }, { shape: [4, 2, 2, 2] }, { shape: [4] }],
    fn: (x, w, b) => T(F.conv2d(x, w, b, 1, 1, 1, 2, 'NHWC')),
  },
  { op: 'conv2d', label: 'SAME, stride 2', inputs: [{ shape: [1, 1, 5, 5] }, { shape: [1, 1, 3, 3] }], fn: (x, w) => T(F.conv2d(x, w, null, 2, 'SAME')) },
  // Pooling.
  { op: 'max_pool2d', inputs: [{ shape: [1, 2, 4, 4] }], fn: (x) => T(F.max_pool2d(x, 2)) },
  { op: 'max_pool2d', label: 'overlapping, padding, ceil_mode', inputs: [{ shape: [2, 1, 5, 4] }], fn: (x) => T(F.max_pool2d(x, 3, 2, 1, false, true)) },
  { op: 'max_pool2d', label: 'NHWC, SAME', inputs: [{ shape: [1, 5, 5, 2] }], fn: (x) => T(F.max_pool2d(x, 2, 2, 'SAME', false, false, 'NHWC')) },
  { op: 'avg_pool2d', inputs: [{ shape: [1, 2, 4, 4] }], fn: (x) => T(F.avg_pool2d(x, 2)) },
  { op: 'avg_pool2d', label: 'padding, exclusive', inputs: [{ shape: [1, 1, 5, 5] }], fn: (x) => T(F.avg_pool2d(x, 3, 2, 1)) },
  { op: 'avg_pool2d', label: 'padding, not exclusive, ceil', inputs: [{ shape: [1, 1, 5, 4] }], fn: (x) => T(F.avg_pool2d(x, 2, 2, 1, true, false)) },
  { op: 'avg_pool2d', label: 'divisor_override', inputs: [{ shape: [1, 1, 4, 4] }], fn: (x) => T(F.avg_pool2d(x, 2, 1, 0, false, true, 3)) },
  {
    op: 'dropout', inputs: [away([4, 5])], before: () => paddle.seed(7),
    fn: (x) => T(F.dropout(x, 0.4)),
  },
  { op: 'dropout', label: 'eval, downscale', inputs: [{ shape: [3] }], fn: (x) => T(F.dropout(x, 0.25, null, false, 'downscale_in_infer')) },
  // Composites: a pre-norm transformer block (attention + GELU MLP) end to end.
  {
    op: 'softmax', label: 'transformer block',
    inputs: [{ shape: [2, 3, 4] }, { shape: [4, 12] }, { shape: [4, 4] }, { shape: [4, 8] }, { shape: [8, 4] }, { shape: [4] }],
    fn: (x, wqkv, wo, w1, w2, g) => {
      const [B, S, D] = x.shape;
      const h = T(F.layer_norm(x, [D], g));
      const [q, k, v] = paddle.split(paddle.matmul(h, wqkv), 3, -1) as Tensor[];
      const heads = (t: Tensor) => T(paddle.transpose(paddle.reshape(t, [B, S, 2, D / 2]), [0, 2, 1, 3]));
      const att = T(F.softmax(paddle.scale(paddle.matmul(heads(q), heads(k), false, true), 1 / Math.sqrt(D / 2))));
      const o = T(paddle.reshape(paddle.transpose(paddle.matmul(att, heads(v)), [0, 2, 1, 3]), [B, S, D]));
      const x1 = T(paddle.add(x, paddle.matmul(o, wo)));
      return T(paddle.add(x1, paddle.matmul(F.gelu(paddle.matmul(F.layer_norm(x1, [D]), w1), true), w2)));
    },
    atol: 1e-5,
  },
];
