// Paddle 2.x `.pdmodel` import (src/jit/pdmodel): one record per legacy op (its slots and attrs
// -> a one-op ProgramDesc, run through the importer and the executor, equal to the same
// computation in Skiff eager), then whole models (a LeNet-like CNN, an MLP written with
// mul/fc, a transformer block) through paddle.jit.load and paddle.inference, and the errors an
// unsupported program gets.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { TranslatedLayer } from '../../src/jit/load.js';
import { ModelFileError } from '../../src/jit/pdiparams.js';
import { importPdmodel, supportedPdmodelOps } from '../../src/jit/pdmodel/import.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose, randTensor } from '../executor/helpers.js';
import { type AttrSpec, F, L, PdModelBuilder } from './pdmodel_builder.js';

const F_ = paddle.nn.functional;
const dir = mkdtempSync(join(tmpdir(), 'skiff-pdmodel-'));

/** Runs a built model in memory; returns its outputs. */
function runBuilt(b: PdModelBuilder, inputs: Tensor[], name = 'mem'): Tensor[] {
  const { model, params } = b.encode();
  const layer = new TranslatedLayer(importPdmodel(model, params, `${name}.pdmodel`, `${name}.pdiparams`), `${name}.pdmodel`);
  try { return layer.run(inputs); } finally { layer.dispose(); }
}

interface OpCase {
  type: string;
  label?: string;
  /** Input slots: tensors fed as inputs (or parameters when the slot is in `params`). */
  ins: Record<string, Tensor | Tensor[]>;
  params?: string[];
  /** Output slots and how many variables each has (default Out: 1); the first slot listed is fetched. */
  outs?: Record<string, number>;
  attrs?: Record<string, AttrSpec>;
  /** The eager computation, from the inputs by slot. */
  want: (i: Record<string, Tensor>, all: Record<string, Tensor[]>) => Tensor | Tensor[];
  tol?: number;
}

const r = (shape: number[], seed = 1) => randTensor(shape, seed);
const t = paddle.to_tensor;

const CASES: OpCase[] = [
  { type: 'conv2d', ins: { Input: r([2, 3, 7, 7]), Filter: r([4, 3, 3, 3], 2) }, params: ['Filter'], outs: { Output: 1 },
    attrs: { strides: [2, 1], paddings: [1, 0, 2, 1], dilations: [1, 1], groups: 1, padding_algorithm: 'EXPLICIT', data_format: 'NCHW' },
    want: (i) => F_.conv2d(i.Input, i.Filter, null, [2, 1], [1, 0, 2, 1]) },
  { type: 'conv2d', label: 'SAME', ins: { Input: r([1, 2, 6, 6]), Filter: r([2, 2, 3, 3], 2) }, params: ['Filter'], outs: { Output: 1 },
    attrs: { strides: [2, 2], paddings: [0, 0], dilations: [1, 1], groups: 1, padding_algorithm: 'SAME', data_format: 'AnyLayout' },
    want: (i) => F_.conv2d(i.Input, i.Filter, null, 2, 'SAME') },
  { type: 'depthwise_conv2d', ins: { Input: r([1, 4, 5, 5]), Filter: r([4, 1, 3, 3], 2) }, params: ['Filter'], outs: { Output: 1 },
    attrs: { strides: [1, 1], paddings: [1, 1], dilations: [1, 1], groups: 4 },
    want: (i) => F_.conv2d(i.Input, i.Filter, null, 1, 1, 1, 4) },
  { type: 'batch_norm', ins: { X: r([2, 3, 4, 4]), Scale: r([3], 2), Bias: r([3], 3), Mean: r([3], 4), Variance: paddle.abs(r([3], 5)) },
    params: ['Scale', 'Bias', 'Mean', 'Variance'], outs: { Y: 1, MeanOut: 1, VarianceOut: 1 }, attrs: { epsilon: 1e-3, is_test: true, data_layout: 'NCHW', momentum: 0.9 },
    want: (i) => F_.batch_norm(i.X, i.Mean, i.Variance, i.Scale, i.Bias, false, 0.9, 1e-3) },
  { type: 'relu', ins: { X: r([3, 4]) }, want: (i) => F_.relu(i.X) },
  { type: 'relu6', ins: { X: paddle.scale(r([3, 4]), 5) }, attrs: { threshold: F(6) }, want: (i) => F_.relu6(i.X) },
  { type: 'sigmoid', ins: { X: r([3, 4]) }, want: (i) => F_.sigmoid(i.X) },
  { type: 'tanh', ins: { X: r([3, 4]) }, want: (i) => paddle.tanh(i.X) },
  { type: 'gelu', ins: { X: r([3, 4]) }, attrs: { approximate: true }, want: (i) => F_.gelu(i.X, true) },
  { type: 'swish', ins: { X: r([3, 4]) }, attrs: { beta: F(1) }, want: (i) => F_.silu(i.X) },
  { type: 'swish', label: 'beta 2', ins: { X: r([3, 4]) }, attrs: { beta: F(2) }, want: (i) => paddle.multiply(i.X, F_.sigmoid(paddle.scale(i.X, 2))) },
  { type: 'hard_swish', ins: { X: paddle.scale(r([3, 4]), 4) }, attrs: { threshold: F(6), scale: F(6), offset: F(3) }, want: (i) => F_.hardswish(i.X) },
  { type: 'hard_swish', label: 'custom', ins: { X: paddle.scale(r([3, 4]), 4) }, attrs: { threshold: F(5), scale: F(4), offset: F(2) },
    want: (i) => paddle.scale(paddle.multiply(i.X, paddle.clip(paddle.scale(i.X, 1, 2), 0, 5)), 0.25) },
  { type: 'leaky_relu', ins: { X: r([3, 4]) }, attrs: { alpha: 0.1 }, want: (i) => F_.leaky_relu(i.X, 0.1) },
  { type: 'elementwise_add', label: 'axis 1', ins: { X: r([2, 3, 4, 5]), Y: r([3, 4], 2) }, attrs: { axis: 1 },
    want: (i) => paddle.add(i.X, paddle.reshape(i.Y, [1, 3, 4, 1])) },
  { type: 'elementwise_sub', ins: { X: r([2, 3]), Y: r([3], 2) }, attrs: { axis: -1 }, want: (i) => paddle.subtract(i.X, i.Y) },
  { type: 'elementwise_mul', label: 'axis 0', ins: { X: r([4, 3]), Y: r([4], 2) }, attrs: { axis: 0 }, want: (i) => paddle.multiply(i.X, paddle.unsqueeze(i.Y, 1)) },
  { type: 'elementwise_div', ins: { X: r([2, 3]), Y: paddle.add(paddle.abs(r([2, 3], 2)), 1) }, attrs: { axis: -1 }, want: (i) => paddle.divide(i.X, i.Y) },
  { type: 'matmul', ins: { X: r([2, 3, 4]), Y: r([2, 5, 4], 2) }, attrs: { transpose_X: false, transpose_Y: true, alpha: 0.125 },
    want: (i) => paddle.scale(paddle.matmul(i.X, i.Y, false, true), 0.125) },
  { type: 'matmul_v2', ins: { X: r([4, 3]), Y: r([4, 5], 2) }, attrs: { trans_x: true, trans_y: false }, want: (i) => paddle.matmul(i.X, i.Y, true) },
  { type: 'mul', ins: { X: r([2, 3, 2, 2]), Y: r([4, 5], 2) }, params: ['Y'], attrs: { x_num_col_dims: 2, y_num_col_dims: 1 },
    want: (i) => paddle.matmul(paddle.reshape(i.X, [2, 3, 4]), i.Y) },
  { type: 'fc', ins: { Input: r([3, 2, 2]), W: r([4, 6], 2), Bias: r([6], 3) }, params: ['W', 'Bias'], attrs: { in_num_col_dims: 1, activation_type: 'relu' },
    want: (i) => F_.relu(paddle.add(paddle.matmul(paddle.reshape(i.Input, [3, 4]), i.W), i.Bias)) },
  { type: 'pool2d', label: 'max ceil', ins: { X: r([1, 2, 7, 7]) },
    attrs: { pooling_type: 'max', ksize: [3, 3], strides: [2, 2], paddings: [1, 1], ceil_mode: true, global_pooling: false, adaptive: false, exclusive: true, padding_algorithm: 'EXPLICIT', data_format: 'NCHW' },
    want: (i) => F_.max_pool2d(i.X, 3, 2, 1, false, true) },
  { type: 'pool2d', label: 'avg inclusive', ins: { X: r([1, 2, 6, 6]) },
    attrs: { pooling_type: 'avg', ksize: [2, 2], strides: [2, 2], paddings: [1, 1], exclusive: false },
    want: (i) => F_.avg_pool2d(i.X, 2, 2, 1, false, false) },
  { type: 'pool2d', label: 'global avg', ins: { X: r([2, 3, 5, 5]) }, attrs: { pooling_type: 'avg', ksize: [1, 1], global_pooling: true },
    want: (i) => paddle.mean(i.X, [2, 3], true) },
  { type: 'pool2d', label: 'adaptive max', ins: { X: r([1, 2, 6, 6]) }, attrs: { pooling_type: 'max', ksize: [2, 3], adaptive: true },
    want: (i) => F_.adaptive_max_pool2d(i.X, [2, 3]) },
  { type: 'softmax', ins: { X: r([2, 5]) }, attrs: { axis: 0 }, want: (i) => F_.softmax(i.X, 0) },
  { type: 'reshape2', ins: { X: r([2, 3, 4]) }, outs: { Out: 1, XShape: 1 }, attrs: { shape: [0, -1, 2] }, want: (i) => paddle.reshape(i.X, [2, 6, 2]) },
  { type: 'transpose2', ins: { X: r([2, 3, 4]) }, outs: { Out: 1, XShape: 1 }, attrs: { axis: [2, 0, 1] }, want: (i) => paddle.transpose(i.X, [2, 0, 1]) },
  { type: 'flatten_contiguous_range', ins: { X: r([2, 3, 4, 5]) }, attrs: { start_axis: 1, stop_axis: 2 }, want: (i) => paddle.reshape(i.X, [2, 12, 5]) },
  { type: 'flatten2', ins: { X: r([2, 3, 4]) }, outs: { Out: 1, XShape: 1 }, attrs: { axis: 2 }, want: (i) => paddle.reshape(i.X, [6, 4]) },
  { type: 'squeeze2', ins: { X: r([2, 1, 3, 1]) }, attrs: { axes: [3] }, want: (i) => paddle.reshape(i.X, [2, 1, 3]) },
  { type: 'unsqueeze2', ins: { X: r([2, 3]) }, attrs: { axes: [0, 3] }, want: (i) => paddle.reshape(i.X, [1, 2, 3, 1]) },
  { type: 'concat', ins: { X: [r([2, 3]), r([2, 1], 2), r([2, 2], 3)] }, attrs: { axis: 1 }, want: (_i, a) => paddle.concat(a.X, 1) },
  { type: 'split', ins: { X: r([2, 6]) }, outs: { Out: 3 }, attrs: { axis: 1, num: 0, sections: [1, 2, 3] }, want: (i) => paddle.split(i.X, [1, 2, 3], 1) as Tensor[] },
  { type: 'split', label: 'num', ins: { X: r([4, 2]) }, outs: { Out: 2 }, attrs: { axis: 0, num: 2 }, want: (i) => paddle.split(i.X, 2, 0) as Tensor[] },
  { type: 'slice', ins: { Input: r([3, 4, 5]) }, attrs: { axes: [0, 2], starts: [1, -3], ends: [2, 2147483647], decrease_axis: [0], infer_flags: [1, 1] },
    want: (i) => paddle.reshape(paddle.slice(i.Input, [0, 2], [1, 2], [2, 5]), [4, 3]) },
  { type: 'scale', ins: { X: r([2, 3]) }, attrs: { scale: F(2), bias: F(0.5), bias_after_scale: false }, want: (i) => paddle.scale(i.X, 2, 0.5, false) },
  { type: 'dropout', label: 'downgrade_in_infer', ins: { X: r([2, 3]) }, outs: { Out: 1, Mask: 1 }, attrs: { dropout_prob: 0.25, is_test: true, dropout_implementation: 'downgrade_in_infer' },
    want: (i) => paddle.scale(i.X, 0.75) },
  { type: 'dropout', label: 'upscale_in_train', ins: { X: r([2, 3]) }, attrs: { dropout_prob: 0.25, is_test: true, dropout_implementation: 'upscale_in_train' }, want: (i) => i.X },
  { type: 'layer_norm', ins: { X: r([2, 3, 4]), Scale: r([4], 2), Bias: r([4], 3) }, params: ['Scale', 'Bias'], outs: { Y: 1, Mean: 1, Variance: 1 }, attrs: { epsilon: 1e-5, begin_norm_axis: 2 },
    want: (i) => F_.layer_norm(i.X, [4], i.Scale, i.Bias, 1e-5) },
  { type: 'lookup_table_v2', ins: { Ids: t([[1, 0, 3], [2, 2, 0]], 'int64'), W: r([4, 5], 2) }, params: ['W'], attrs: { padding_idx: 0 },
    want: (i) => F_.embedding(i.Ids, i.W, 0) },
  { type: 'fill_constant', ins: {}, attrs: { shape: L([2, 3]), value: F(1.5), str_value: '1.5', dtype: 5 }, want: () => paddle.full([2, 3], 1.5) },
  { type: 'fill_constant', label: 'int64', ins: {}, attrs: { shape: [2], value: F(7), dtype: 3 }, want: () => paddle.full([2], 7, 'int64') },
  { type: 'shape', ins: { Input: r([2, 3, 4]) }, want: () => t([2, 3, 4], 'int32') },
  { type: 'gather', ins: { X: r([4, 3]), Index: t([3, 0, 3], 'int64') }, attrs: { axis: 0 }, want: (i) => paddle.gather(i.X, i.Index) },
  { type: 'cast', ins: { X: paddle.scale(r([2, 3]), 4) }, attrs: { in_dtype: 5, out_dtype: 3 }, want: (i) => paddle.cast(i.X, 'int64') },
  { type: 'arg_max', ins: { X: r([3, 4]) }, attrs: { axis: 1, keepdims: false, flatten: false, dtype: 3 }, want: (i) => paddle.argmax(i.X, 1) },
  { type: 'stack', ins: { X: [r([2, 3]), r([2, 3], 2)] }, outs: { Y: 1 }, attrs: { axis: 1 }, want: (_i, a) => paddle.stack(a.X, 1) },
  { type: 'bilinear_interp_v2', ins: { X: r([1, 2, 3, 4]) }, attrs: { out_h: 6, out_w: 5, scale: [], interp_method: 'bilinear', align_corners: false, align_mode: 0, data_layout: 'NCHW' },
    want: (i) => F_.interpolate(i.X, [6, 5], null, 'bilinear', false, 0) },
  { type: 'nearest_interp_v2', ins: { X: r([1, 2, 3, 4]) }, attrs: { out_h: -1, out_w: -1, scale: [2.0, 2.0], interp_method: 'nearest', align_corners: false, align_mode: 1 },
    want: (i) => F_.interpolate(i.X, null, [2, 2], 'nearest') },
  // pad's paddings are [before_0, after_0, before_1, after_1]
  { type: 'pad', ins: { X: t([[1, 2], [3, 4]], 'float32') }, attrs: { paddings: [1, 0, 0, 2], pad_value: F(9) },
    want: () => t([[9, 9, 9, 9], [1, 2, 9, 9], [3, 4, 9, 9]], 'float32') },
  { type: 'clip', ins: { X: r([3, 4]) }, attrs: { min: F(-0.5), max: F(0.25) }, want: (i) => paddle.clip(i.X, -0.5, 0.25) },
  { type: 'mean', ins: { X: r([3, 4]) }, want: (i) => paddle.mean(i.X) },
  { type: 'reduce_mean', ins: { X: r([2, 3, 4]) }, attrs: { dim: [1, -1], keep_dim: true, reduce_all: false }, want: (i) => paddle.mean(i.X, [1, 2], true) },
  { type: 'reduce_sum', ins: { X: r([2, 3, 4]) }, attrs: { dim: [0], keep_dim: false, reduce_all: true }, want: (i) => paddle.sum(i.X) },
  { type: 'reduce_max', ins: { X: r([2, 3, 4]) }, attrs: { dim: [2], keep_dim: false }, want: (i) => paddle.max(i.X, 2) },
  { type: 'assign', ins: { X: r([2, 3]) }, want: (i) => i.X },
  { type: 'expand_v2', ins: { X: r([3, 1]) }, attrs: { shape: [2, -1, 4] }, want: (i) => paddle.expand(i.X, [2, 3, 4]) },
  { type: 'top_k_v2', ins: { X: r([3, 5]) }, outs: { Out: 1, Indices: 1 }, attrs: { k: 2, axis: -1, largest: true, sorted: true }, want: (i) => paddle.topk(i.X, 2)[0] },
  { type: 'top_k', label: 'indices', ins: { X: r([3, 5]) }, outs: { Indices: 1, Out: 1 }, attrs: { k: 3 }, want: (i) => paddle.topk(i.X, 3)[1] },
  { type: 'hard_sigmoid', ins: { X: paddle.scale(r([3, 4]), 4) }, attrs: { slope: F(0.2), offset: F(0.5) }, want: (i) => paddle.clip(paddle.scale(i.X, 0.2, 0.5), 0, 1) },
  { type: 'elementwise_pow', ins: { X: paddle.abs(r([2, 3])), Y: r([3], 2) }, attrs: { axis: -1 }, want: (i) => paddle.pow(i.X, i.Y) },
  { type: 'less_than', label: 'axis 0', ins: { X: r([3, 2]), Y: r([3], 2) }, attrs: { axis: 0 }, want: (i) => paddle.less_than(i.X, paddle.unsqueeze(i.Y, 1)) },
  { type: 'where', ins: { Condition: paddle.greater_than(r([2, 3]), paddle.zeros([2, 3])), X: r([2, 3], 2), Y: r([2, 3], 3) }, want: (i) => paddle.where(i.Condition, i.X, i.Y) },
  { type: 'tile', ins: { X: r([2, 3]) }, attrs: { repeat_times: [2, 1, 2] }, want: (i) => paddle.tile(i.X, [2, 1, 2]) },
  { type: 'log_softmax', ins: { X: r([2, 5]) }, attrs: { axis: 1 }, want: (i) => F_.log_softmax(i.X, 1) },
  { type: 'reduce_prod', ins: { X: r([2, 3]) }, attrs: { dim: [1], keep_dim: true }, want: (i) => paddle.prod(i.X, 1, true) },
  { type: 'arg_min', label: 'flatten, int32', ins: { X: r([3, 4]) }, attrs: { axis: 0, keepdims: false, flatten: true, dtype: 2 }, want: (i) => paddle.argmin(paddle.reshape(i.X, [-1]), 0, false, 'int32') },
  { type: 'lookup_table', ins: { Ids: t([[1], [3]], 'int64'), W: r([4, 5], 2) }, params: ['W'], attrs: { padding_idx: -1 }, want: (i) => F_.embedding(paddle.reshape(i.Ids, [2]), i.W) },
  { type: 'pad3d', ins: { X: r([1, 1, 2, 2, 2]) }, attrs: { paddings: [1, 0, 0, 1, 1, 1], mode: 'constant', value: F(0.5), data_format: 'NCDHW' },
    want: (i) => F_.pad(i.X, [1, 0, 0, 1, 1, 1], 'constant', 0.5, 'NCDHW') },
  { type: 'bilinear_interp_v2', label: 'align_corners', ins: { X: r([1, 1, 3, 3]) }, attrs: { out_h: 5, out_w: 4, interp_method: 'bilinear', align_corners: true, align_mode: 1 },
    want: (i) => F_.interpolate(i.X, [5, 4], null, 'bilinear', true) },
  // legacy nearest with align_corners: source index round(k * (in - 1) / (out - 1))
  { type: 'nearest_interp_v2', label: 'align_corners', ins: { X: t([[[[0, 1, 2], [3, 4, 5]]]], 'float32') }, attrs: { out_h: 3, out_w: 5, interp_method: 'nearest', align_corners: true },
    want: () => t([[[[0, 1, 1, 2, 2], [3, 4, 4, 5, 5], [3, 4, 4, 5, 5]]]], 'float32') },
  { type: 'sum', ins: { X: [r([2, 3]), r([2, 3], 2), r([2, 3], 3)] }, want: (_i, a) => paddle.add(paddle.add(a.X[0], a.X[1]), a.X[2]) },
];

describe('.pdmodel: one legacy op at a time equals Skiff eager', () => {
  for (const c of CASES) {
    it(`${c.type}${c.label ? ` (${c.label})` : ''}`, () => {
      const b = new PdModelBuilder();
      const slots: Record<string, string[]> = {};
      const feeds: Tensor[] = [];
      const one: Record<string, Tensor> = {};
      const all: Record<string, Tensor[]> = {};
      for (const [slot, v] of Object.entries(c.ins)) {
        const ts = Array.isArray(v) ? v : [v];
        all[slot] = ts;
        one[slot] = ts[0];
        slots[slot] = ts.map((x, k) => {
          const name = `${slot.toLowerCase()}_${k}`;
          if (c.params?.includes(slot)) return b.param(name, x);
          feeds.push(x);
          return b.feed(name, x.shape, x.dtype);
        });
      }
      const outs: Record<string, string[]> = {};
      for (const [slot, n] of Object.entries(c.outs ?? { Out: 1 })) outs[slot] = Array.from({ length: n }, (_, k) => `${slot.toLowerCase()}_out_${k}`);
      b.op(c.type, slots, outs, c.attrs ?? {});
      const first = Object.keys(outs)[0];
      const want = c.want(one, all);
      const wants = Array.isArray(want) ? want : [want];
      if (wants.length > 1) outs[first].forEach((n) => b.fetch(n));
      else b.fetch(outs[first][0]);
      const got = runBuilt(b, feeds);
      expect(got.length).toBe(wants.length);
      got.forEach((g, k) => {
        expect(g.dtype).toBe(wants[k].dtype);
        expect(g.shape).toEqual(wants[k].shape);
        expectAllClose(g, wants[k], `${c.type} output ${k}`, c.tol ?? 1e-5);
      });
    });
  }

  it('every supported legacy op has a record', () => {
    const covered = new Set(CASES.map((c) => c.type));
    // translated through the same code as a covered op (aliases or one-line registry calls)
    const ALIASES = new Set(['bilinear_interp', 'nearest_interp', 'bicubic_interp_v2', 'linear_interp_v2', 'reshape', 'transpose', 'flatten',
      'elementwise_max', 'elementwise_min', 'elementwise_floordiv', 'elementwise_mod', 'equal', 'not_equal', 'less_equal',
      'greater_than', 'greater_equal', 'exp', 'log', 'sqrt', 'rsqrt', 'abs', 'square', 'floor', 'ceil', 'sin', 'cos', 'erf', 'reciprocal', 'logical_not',
      'reduce_min', 'silu', 'elu', 'softplus']);
    const missing = supportedPdmodelOps().filter((o) => !covered.has(o) && !ALIASES.has(o));
    expect(missing).toEqual([]);
  });
});

/** A LeNet-like CNN in legacy ops (conv2d + bias by elementwise_add axis 1, pool2d, flatten, matmul_v2, softmax). */
function lenet(): { b: PdModelBuilder; eager: (x: Tensor) => Tensor } {
  paddle.seed(11);
  const w1 = paddle.scale(paddle.randn([6, 1, 5, 5]), 0.3), b1 = paddle.randn([6]);
  const w2 = paddle.scale(paddle.randn([16, 6, 5, 5]), 0.1), b2 = paddle.randn([16]);
  const fw = paddle.scale(paddle.randn([16 * 4 * 4, 10]), 0.05), fb = paddle.randn([10]);
  const b = new PdModelBuilder();
  b.feed('image', [-1, 1, 28, 28]);
  for (const [n, v] of Object.entries({ 'conv2d_0.w_0': w1, 'conv2d_0.b_0': b1, 'conv2d_1.w_0': w2, 'conv2d_1.b_0': b2, 'linear_0.w_0': fw, 'linear_0.b_0': fb })) b.param(n, v);
  const conv = { strides: [1, 1], paddings: [0, 0], dilations: [1, 1], groups: 1, padding_algorithm: 'EXPLICIT', data_format: 'NCHW' };
  const pool = { pooling_type: 'max', ksize: [2, 2], strides: [2, 2], paddings: [0, 0], global_pooling: false, adaptive: false, ceil_mode: false, exclusive: true, padding_algorithm: 'EXPLICIT', data_format: 'NCHW' };
  b.op('conv2d', { Input: 'image', Filter: 'conv2d_0.w_0' }, { Output: 'c0' }, conv);
  b.op('elementwise_add', { X: 'c0', Y: 'conv2d_0.b_0' }, { Out: 'c0b' }, { axis: 1 });
  b.op('relu', { X: 'c0b' }, { Out: 'r0' });
  b.op('pool2d', { X: 'r0' }, { Out: 'p0' }, pool);
  b.op('conv2d', { Input: 'p0', Filter: 'conv2d_1.w_0' }, { Output: 'c1' }, conv);
  b.op('elementwise_add', { X: 'c1', Y: 'conv2d_1.b_0' }, { Out: 'c1b' }, { axis: 1 });
  b.op('relu', { X: 'c1b' }, { Out: 'r1' });
  b.op('pool2d', { X: 'r1' }, { Out: 'p1' }, pool);
  b.op('flatten_contiguous_range', { X: 'p1' }, { Out: 'f', XShape: 'f.xshape' }, { start_axis: 1, stop_axis: -1 });
  b.op('matmul_v2', { X: 'f', Y: 'linear_0.w_0' }, { Out: 'm' }, { trans_x: false, trans_y: false });
  b.op('elementwise_add', { X: 'm', Y: 'linear_0.b_0' }, { Out: 'logits' }, { axis: -1 });
  b.op('softmax', { X: 'logits' }, { Out: 'prob' }, { axis: -1 });
  b.fetch('prob');
  const eager = (x: Tensor): Tensor => {
    let h = F_.max_pool2d(F_.relu(F_.conv2d(x, w1, b1)), 2, 2);
    h = F_.max_pool2d(F_.relu(F_.conv2d(h, w2, b2)), 2, 2);
    return F_.softmax(paddle.add(paddle.matmul(paddle.flatten(h, 1), fw), fb));
  };
  return { b, eager };
}

/** An MLP written with mul / fc (and a second output, arg_max). */
function mlp(): { b: PdModelBuilder; eager: (x: Tensor) => Tensor[] } {
  paddle.seed(12);
  const w1 = paddle.randn([16, 32]), b1 = paddle.randn([32]), w2 = paddle.randn([32, 4]), b2 = paddle.randn([4]);
  const b = new PdModelBuilder();
  b.feed('x', [-1, 16]);
  b.param('fc_0.w_0', w1); b.param('fc_0.b_0', b1); b.param('fc_1.w_0', w2); b.param('fc_1.b_0', b2);
  b.op('mul', { X: 'x', Y: 'fc_0.w_0' }, { Out: 'h0' }, { x_num_col_dims: 1, y_num_col_dims: 1 });
  b.op('elementwise_add', { X: 'h0', Y: 'fc_0.b_0' }, { Out: 'h1' }, { axis: 1 });
  b.op('relu', { X: 'h1' }, { Out: 'h2' });
  b.op('fc', { Input: 'h2', W: 'fc_1.w_0', Bias: 'fc_1.b_0' }, { Out: 'h3' }, { in_num_col_dims: 1, activation_type: '' });
  b.op('tanh', { X: 'h3' }, { Out: 'y' });
  b.op('arg_max', { X: 'y' }, { Out: 'cls' }, { axis: -1, keepdims: false, flatten: false, dtype: 3 });
  b.fetch('y');
  b.fetch('cls');
  const eager = (x: Tensor): Tensor[] => {
    const y = paddle.tanh(paddle.add(paddle.matmul(F_.relu(paddle.add(paddle.matmul(x, w1), b1)), w2), b2));
    return [y, paddle.argmax(y, -1)];
  };
  return { b, eager };
}

/** A small transformer encoder block (embedding, layer_norm, attention with reshape2/transpose2/matmul alpha, fc, gelu, slice). */
function transformer(): { b: PdModelBuilder; eager: (ids: Tensor) => Tensor } {
  paddle.seed(13);
  const p = (s: number[], k = 0.3) => paddle.scale(paddle.randn(s), k);
  const emb = p([20, 8]), pos = p([6, 8]), g = paddle.add(p([8], 0.1), paddle.ones([8])), beta = p([8], 0.1);
  const wq = p([8, 8]), bq = p([8]), wk = p([8, 8]), wv = p([8, 8]), wo = p([8, 8]), bo = p([8]), wc = p([8, 3]);
  const b = new PdModelBuilder();
  b.feed('src_ids', [-1, 6], 'int64');
  for (const [n, v] of Object.entries({ emb, pos, ln_g: g, ln_b: beta, wq, bq, wk, wv, wo, bo, wc })) b.param(n, v);
  b.op('lookup_table_v2', { Ids: 'src_ids', W: 'emb' }, { Out: 'e' }, { padding_idx: -1 });
  b.op('elementwise_add', { X: 'e', Y: 'pos' }, { Out: 'e1' }, { axis: 1 });
  b.op('layer_norm', { X: 'e1', Scale: 'ln_g', Bias: 'ln_b' }, { Y: 'h', Mean: 'h.mean', Variance: 'h.var' }, { epsilon: 1e-5, begin_norm_axis: 2 });
  b.op('matmul_v2', { X: 'h', Y: 'wq' }, { Out: 'q0' }, { trans_x: false, trans_y: false });
  b.op('elementwise_add', { X: 'q0', Y: 'bq' }, { Out: 'q1' }, { axis: 2 });
  b.op('mul', { X: 'h', Y: 'wk' }, { Out: 'k0' }, { x_num_col_dims: 2, y_num_col_dims: 1 });
  b.op('matmul_v2', { X: 'h', Y: 'wv' }, { Out: 'v0' }, { trans_x: false, trans_y: false });
  for (const n of ['q1', 'k0', 'v0']) {
    b.op('reshape2', { X: n }, { Out: `${n}.r`, XShape: `${n}.xs` }, { shape: [0, 0, 2, 4] });
    b.op('transpose2', { X: `${n}.r` }, { Out: `${n}.t`, XShape: `${n}.xt` }, { axis: [0, 2, 1, 3] });
  }
  b.op('matmul', { X: 'q1.t', Y: 'k0.t' }, { Out: 's' }, { transpose_X: false, transpose_Y: true, alpha: 0.5 });
  b.op('softmax', { X: 's' }, { Out: 'a' }, { axis: -1 });
  b.op('dropout', { X: 'a' }, { Out: 'ad', Mask: 'ad.mask' }, { dropout_prob: 0.1, is_test: true, dropout_implementation: 'upscale_in_train' });
  b.op('matmul_v2', { X: 'ad', Y: 'v0.t' }, { Out: 'c' }, { trans_x: false, trans_y: false });
  b.op('transpose2', { X: 'c' }, { Out: 'ct', XShape: 'ct.xs' }, { axis: [0, 2, 1, 3] });
  b.op('reshape2', { X: 'ct' }, { Out: 'cr', XShape: 'cr.xs' }, { shape: [0, 0, 8] });
  b.op('fc', { Input: 'cr', W: 'wo', Bias: 'bo' }, { Out: 'o' }, { in_num_col_dims: 2, activation_type: '' });
  b.op('elementwise_add', { X: 'h', Y: 'o' }, { Out: 'res' }, { axis: -1 });
  b.op('gelu', { X: 'res' }, { Out: 'gl' }, { approximate: false });
  b.op('slice', { Input: 'gl' }, { Out: 'cls' }, { axes: [1], starts: [0], ends: [1], decrease_axis: [1], infer_flags: [1] });
  b.op('matmul_v2', { X: 'cls', Y: 'wc' }, { Out: 'logits' }, { trans_x: false, trans_y: false });
  b.op('softmax', { X: 'logits' }, { Out: 'prob' }, { axis: -1 });
  b.fetch('prob');
  const eager = (ids: Tensor): Tensor => {
    const h = F_.layer_norm(paddle.add(F_.embedding(ids, emb), pos), [8], g, beta, 1e-5);
    const heads = (x: Tensor) => paddle.transpose(paddle.reshape(x, [ids.shape[0], 6, 2, 4]), [0, 2, 1, 3]);
    const q = heads(paddle.add(paddle.matmul(h, wq), bq)), k = heads(paddle.matmul(h, wk)), v = heads(paddle.matmul(h, wv));
    const a = F_.softmax(paddle.scale(paddle.matmul(q, k, false, true), 0.5));
    const c = paddle.reshape(paddle.transpose(paddle.matmul(a, v), [0, 2, 1, 3]), [ids.shape[0], 6, 8]);
    const gl = F_.gelu(paddle.add(h, paddle.add(paddle.matmul(c, wo), bo)));
    return F_.softmax(paddle.matmul(paddle.reshape(paddle.slice(gl, [1], [0], [1]), [ids.shape[0], 8]), wc));
  };
  return { b, eager };
}

describe('.pdmodel: whole models through paddle.jit.load and paddle.inference', () => {
  it('LeNet-like CNN: jit.load(prefix) with only .pdmodel/.pdiparams present, at two batch sizes', () => {
    const { b, eager } = lenet();
    const prefix = join(dir, 'lenet');
    b.write(prefix);
    const m = paddle.jit.load(prefix);
    expect(m.input_names).toEqual(['image']);
    expect(m.output_names).toEqual(['prob']);
    for (const n of [1, 3]) {
      const x = randTensor([n, 1, 28, 28], n);
      expectAllClose(m.call(x) as Tensor, eager(x), `lenet batch ${n}`, 1e-5);
    }
    expect(m.planCount).toBe(2);
    m.dispose();
  });

  it('MLP (mul, fc, two outputs): predictor from Config(prog, params) and Config(prefix.pdmodel)', () => {
    const { b, eager } = mlp();
    const prefix = join(dir, 'mlp');
    b.write(prefix);
    const x = randTensor([5, 16], 3);
    const [wy, wcls] = eager(x);
    for (const cfg of [new paddle.inference.Config(`${prefix}.pdmodel`, `${prefix}.pdiparams`), new paddle.inference.Config(`${prefix}.pdmodel`)]) {
      expect(cfg.params_file()).toBe(`${prefix}.pdiparams`);
      const pred = paddle.inference.create_predictor(cfg);
      expect(pred.get_input_names()).toEqual(['x']);
      expect(pred.get_output_names()).toEqual(['y', 'cls']);
      pred.get_input_handle('x').copy_from_cpu(x);
      pred.run();
      expectAllClose(pred.get_output_handle('y').copy_to_cpu(), wy, 'mlp y', 1e-5);
      expect(pred.get_output_handle('cls').copy_to_cpu().tolist()).toEqual(wcls.tolist());
      pred.dispose();
    }
  });

  it('transformer block (int64 ids, symbolic batch)', () => {
    const { b, eager } = transformer();
    const ids = t([[1, 5, 7, 2, 0, 19], [3, 3, 4, 8, 9, 10], [0, 1, 2, 3, 4, 5]], 'int64');
    const [got] = runBuilt(b, [ids], join(dir, 'tf'));
    expectAllClose(got, eager(ids), 'transformer', 1e-5);
  });
});

describe('.pdmodel: what the importer refuses, by name', () => {
  const expectError = (b: PdModelBuilder, inputs: Tensor[], pattern: RegExp): void => {
    let err: unknown = null;
    try { runBuilt(b, inputs, 'bad'); } catch (e) { err = e; }
    expect(err, 'import must fail').toBeInstanceOf(ModelFileError);
    expect((err as Error).message).toContain('bad.pdmodel');
    expect((err as Error).message).toMatch(pattern);
  };
  const base = (): PdModelBuilder => { const b = new PdModelBuilder(); b.feed('x', [-1, 4]); return b; };

  it('an op it lacks is named with its index and the supported list', () => {
    const b = base();
    b.op('relu', { X: 'x' }, { Out: 'y' });
    b.op('roi_align', { X: 'y' }, { Out: 'z' });
    b.fetch('z');
    expectError(b, [], /block 0 op 2 'roi_align' is not supported by the \.pdmodel importer \(supported: .*conv2d.*\)/);
  });

  it('control flow, undefined variables, bad attributes, bad versions', () => {
    const cf = base();
    cf.op('conditional_block', { Cond: 'x' }, { Out: 'y' }, { sub_block: 1 });
    cf.fetch('y');
    expectError(cf, [], /'conditional_block': control flow \(sub-blocks\) is not supported/);
    const undef = base();
    undef.op('relu', { X: 'nowhere' }, { Out: 'y' });
    undef.fetch('y');
    expectError(undef, [], /op 1 'relu': input X reads variable 'nowhere', which no earlier op/);
    const unfetched = base();
    unfetched.fetch('ghost');
    expectError(unfetched, [], /fetch 0 reads variable 'ghost'/);
    const attrs = base();
    attrs.op('pool2d', { X: 'x' }, { Out: 'y' }, { pooling_type: 'lp', ksize: [2, 2] });
    attrs.fetch('y');
    expectError(attrs, [], /'pool2d': attribute 'pooling_type' = 'lp'/);
    const shape = new PdModelBuilder();
    shape.feed('x', [3, 4]);
    shape.op('matmul_v2', { X: 'x', Y: 'x' }, { Out: 'y' });
    shape.fetch('y');
    expectError(shape, [], /op 1 'matmul_v2': matmul: cannot multiply/);
    const ver = base();
    ver.op('relu', { X: 'x' }, { Out: 'y' });
    ver.fetch('y');
    ver.version = 7;
    expectError(ver, [], /ProgramDesc version 7 is not supported/);
  });

  it('not a ProgramDesc at all', () => {
    let err: unknown = null;
    try { importPdmodel(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]), new Uint8Array(0), 'junk.pdmodel', 'junk.pdiparams'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ModelFileError);
    expect((err as Error).message).toMatch(/junk\.pdmodel: not a Paddle ProgramDesc/);
    writeFileSync(join(dir, 'empty.pdmodel'), new Uint8Array(0));
    expect(() => paddle.jit.load(join(dir, 'empty.pdmodel'))).toThrow(/empty\.pdmodel: the ProgramDesc has no blocks/);
  });
});
