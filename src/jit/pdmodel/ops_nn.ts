// Legacy (Paddle 1.x/2.x ProgramDesc) NN ops -> Skiff registry ops: convolution, pooling,
// normalization, activations, matmul-like ops, dropout, embedding, interpolation. Slot and
// attribute names are the legacy op's (conv2d reads Input/Filter and `paddings`), following
// what Paddle 2.6's ProgramTranslator maps each op to.
import type { TensorLike } from '../../ops/dispatch.js';
import { eagerly } from '../../static/mode.js';
import { to_tensor } from '../../tensor/creation.js';
import { untracked } from '../../tensor/tensor.js';
import { type OpCtx, type Translator } from './context.js';

/** 'NCHW' | 'NHWC' from a legacy layout attribute ('AnyLayout' is NCHW). */
function layout(c: OpCtx, name: string): 'NCHW' | 'NHWC' {
  const f = c.str(name, 'NCHW');
  if (f === 'NCHW' || f === 'AnyLayout' || f === '') return 'NCHW';
  if (f === 'NHWC') return 'NHWC';
  return c.fail(`attribute '${name}' = '${f}' is not a 2-D layout (NCHW or NHWC)`);
}

/** The padding argument of conv/pool: the algorithm, else the explicit list (2 or 4 entries). */
function padding(c: OpCtx): string | number[] {
  const algo = c.str('padding_algorithm', 'EXPLICIT');
  if (algo === 'SAME' || algo === 'VALID') return algo;
  if (algo !== 'EXPLICIT') c.fail(`attribute 'padding_algorithm' = '${algo}' is not EXPLICIT, SAME or VALID`);
  const p = c.ints('paddings', [0, 0]);
  if (p.length !== 2 && p.length !== 4) c.fail(`attribute 'paddings' must have 2 or 4 entries, got ${JSON.stringify(p)}`);
  return p;
}

const conv2d: Translator = (c) => {
  const x = c.in('Input'), w = c.in('Filter');
  const out = c.run1('conv2d', [x, w, c.optIn('Bias')], {
    stride: c.ints('strides', [1, 1]), padding: padding(c), dilation: c.ints('dilations', [1, 1]),
    groups: c.int('groups', 1), data_format: layout(c, 'data_format'),
  });
  c.set('Output', out);
};

const pool2d: Translator = (c) => {
  const x = c.in('X');
  const type = c.str('pooling_type', 'max');
  if (type !== 'max' && type !== 'avg') c.fail(`attribute 'pooling_type' = '${type}' is not 'max' or 'avg'`);
  const fmt = layout(c, 'data_format');
  const ksize = c.ints('ksize');
  let out: TensorLike;
  if (c.bool('global_pooling', false) || c.bool('adaptive', false)) {
    const size = c.bool('global_pooling', false) ? [1, 1] : ksize;
    if (size.length !== 2) c.fail(`attribute 'ksize' must have 2 entries, got ${JSON.stringify(size)}`);
    if (type === 'avg') out = c.run1('adaptive_avg_pool2d', [x], { output_size: size, data_format: fmt });
    else {
      if (fmt !== 'NCHW') c.fail('adaptive max pooling is supported for NCHW only');
      out = c.run1('adaptive_max_pool2d', [x], { output_size: size });
    }
  } else {
    const common = { kernel_size: ksize, stride: c.ints('strides', [1, 1]), padding: padding(c), ceil_mode: c.bool('ceil_mode', false), data_format: fmt };
    out = type === 'max'
      ? c.run1('max_pool2d', [x], common)
      : c.run1('avg_pool2d', [x], { ...common, exclusive: c.bool('exclusive', true) });
  }
  c.set('Out', out);
};

const batchNorm: Translator = (c) => {
  // Inference: always the running statistics (is_test / use_global_stats); the *Out outputs are unused.
  const y = c.run1('batch_norm', [c.in('X'), c.in('Mean'), c.in('Variance'), c.optIn('Scale'), c.optIn('Bias')], {
    training: false, epsilon: c.float('epsilon', 1e-5), data_format: layout(c, 'data_layout'), use_global_stats: true,
  });
  c.set('Y', y);
};

const layerNorm: Translator = (c) => {
  const x = c.in('X');
  const axis = c.int('begin_norm_axis', 1);
  if (axis < 1 || axis >= x.shape.length + (x.shape.length ? 0 : 1)) c.fail(`attribute 'begin_norm_axis' = ${axis} is out of range for rank ${x.shape.length}`);
  c.set('Y', c.run1('layer_norm', [x, c.optIn('Scale'), c.optIn('Bias')], { epsilon: c.float('epsilon', 1e-5), begin_norm_axis: axis }));
};

const unary = (op: string): Translator => (c) => c.set('Out', c.run1(op, [c.in('X')]));

/** x * sigmoid(beta * x), or silu when beta is 1. */
const swish: Translator = (c) => {
  const x = c.in('X');
  const beta = c.float('beta', 1);
  if (beta === 1) { c.set('Out', c.run1('silu', [x])); return; }
  const s = c.run1('sigmoid', [c.run1('scale', [x], { scale: beta })]);
  c.set('Out', c.run1('multiply', [x, s]));
};

/** x * clip(x + offset, 0, threshold) / scale; Paddle's defaults (6, 6, 3) are hardswish. */
const hardSwish: Translator = (c) => {
  const x = c.in('X');
  const t = c.float('threshold', 6), s = c.float('scale', 6), o = c.float('offset', 3);
  if (t === 6 && s === 6 && o === 3) { c.set('Out', c.run1('hardswish', [x])); return; }
  const g = c.run1('clip', [c.run1('scale', [x], { scale: 1, bias: o })], { min: 0, max: t });
  c.set('Out', c.run1('scale', [c.run1('multiply', [x, g])], { scale: 1 / s }));
};

const relu6: Translator = (c) => {
  const x = c.in('X');
  const t = c.float('threshold', 6);
  c.set('Out', t === 6 ? c.run1('relu6', [x]) : c.run1('clip', [x], { min: 0, max: t }));
};

/** matmul (v1): transpose_X / transpose_Y and an output scale alpha. */
const matmulV1: Translator = (c) => {
  let out = c.run1('matmul', [c.in('X'), c.in('Y')], { transpose_x: c.bool('transpose_X', false), transpose_y: c.bool('transpose_Y', false) });
  const alpha = c.float('alpha', 1);
  if (alpha !== 1) out = c.run1('scale', [out], { scale: alpha });
  c.set('Out', out);
};

/** y flattened to 2-D at yn: [prod(y[:yn]), prod(y[yn:])]. */
function as2d(c: OpCtx, y: TensorLike, yn: number, what: string): TensorLike {
  const r = y.shape.length;
  if (yn < 1 || yn >= r) c.fail(`attribute '${what}' = ${yn} is out of range for an input of rank ${r}`);
  let v = y;
  if (r - yn > 1) v = c.run1('flatten', [v], { start_axis: yn, stop_axis: r - 1 });
  if (yn > 1) v = c.run1('flatten', [v], { start_axis: 0, stop_axis: yn - 1 });
  return v;
}

/**
 * mul: x flattened at x_num_col_dims times y flattened at y_num_col_dims. x keeps its leading
 * dims (a batched matmul against the 2-D y), so symbolic batch dims need no reshape.
 */
const mul: Translator = (c) => {
  const x = c.in('X'), y = c.in('Y');
  const xn = c.int('x_num_col_dims', 1), yn = c.int('y_num_col_dims', 1);
  const r = x.shape.length;
  if (xn < 1 || xn >= r) c.fail(`attribute 'x_num_col_dims' = ${xn} is out of range for X of rank ${r}`);
  const xv = r - xn > 1 ? c.run1('flatten', [x], { start_axis: xn, stop_axis: r - 1 }) : x;
  let out = c.run1('matmul', [xv, as2d(c, y, yn, 'y_num_col_dims')]);
  if (y.shape.length - yn > 1) out = c.run1('reshape', [out], { shape: [...new Array<number>(xn).fill(0), ...y.shape.slice(yn).map((d) => (typeof d === 'number' ? d : -1))] });
  c.set('Out', out);
};

/** fc: mul(Input, W) + Bias, then the optional activation. */
const fc: Translator = (c) => {
  const x = c.in('Input'), w = c.in('W'), b = c.optIn('Bias');
  const xn = c.int('in_num_col_dims', 1);
  const r = x.shape.length;
  if (xn < 1 || xn >= r) c.fail(`attribute 'in_num_col_dims' = ${xn} is out of range for Input of rank ${r}`);
  if (w.shape.length !== 2) c.fail(`W must be 2-D, got rank ${w.shape.length}`);
  const xv = r - xn > 1 ? c.run1('flatten', [x], { start_axis: xn, stop_axis: r - 1 }) : x;
  let out = c.run1('matmul', [xv, w]);
  if (b) out = c.run1('add', [out, b.shape.length === 2 ? c.run1('reshape', [b], { shape: [-1] }) : b]);
  const act = c.str('activation_type', '');
  if (act === 'relu') out = c.run1('relu', [out]);
  else if (act !== '') c.fail(`activation_type '${act}' is not supported (only '' and 'relu')`);
  c.set('Out', out);
};

const dropout: Translator = (c) => {
  // Inference: upscale_in_train is the identity, downgrade_in_infer (the legacy default) scales by 1 - p.
  const x = c.in('X');
  const impl = c.str('dropout_implementation', 'downgrade_in_infer');
  const p = c.float('dropout_prob', 0.5);
  if (impl === 'upscale_in_train') c.set('Out', x);
  else if (impl === 'downgrade_in_infer') c.set('Out', p === 0 ? x : c.run1('scale', [x], { scale: 1 - p }));
  else c.fail(`attribute 'dropout_implementation' = '${impl}' is not upscale_in_train or downgrade_in_infer`);
};

const embedding = (squeezeIds: boolean): Translator => (c) => {
  let ids = c.in('Ids');
  // lookup_table (v1) ids carry a trailing dim of 1
  if (squeezeIds) {
    if (ids.shape[ids.shape.length - 1] !== 1) c.fail(`Ids of lookup_table must end in a dim of 1, got rank ${ids.shape.length}`);
    ids = c.run1('squeeze', [ids], { axis: [-1] });
  }
  const pad = c.int('padding_idx', -1);
  c.set('Out', c.run1('embedding', [ids, c.in('W')], { padding_idx: pad === -1 ? null : pad }));
};

/** bilinear_interp_v2 / nearest_interp_v2 / bicubic / linear: out_h/out_w (or out_d/out_w), else scale. */
const interp = (mode: string, rank: number): Translator => (c) => {
  c.noTensorInputs('OutSize', 'SizeTensor', 'Scale');
  const x = c.in('X');
  const dl = c.str('data_layout', rank === 1 ? 'NCW' : 'NCHW');
  const channelLast = dl === 'NHWC' || dl === 'NWC' || dl === 'NDHWC';
  const sizes = rank === 1 ? [c.int('out_w', -1)] : [c.int('out_h', -1), c.int('out_w', -1)];
  let size: number[] | null = null, scale: number[] | null = null;
  if (sizes.every((s) => s > 0)) size = sizes;
  else {
    const s = c.has('scale') ? c.floats('scale') : [];
    if (!s.length || s.some((v) => !(v > 0))) c.fail(`needs out_h/out_w > 0 or a positive 'scale', got out sizes ${JSON.stringify(sizes)} and scale ${JSON.stringify(s)}`);
    scale = s.length === 1 ? new Array<number>(rank).fill(s[0]) : s;
  }
  const fmt = rank === 1 ? (channelLast ? 'NWC' : 'NCW') : channelLast ? 'NHWC' : 'NCHW';
  const alignCorners = c.bool('align_corners', true);
  if (mode === 'nearest' && alignCorners) { c.set('Out', nearestAligned(c, x, size, scale, channelLast)); return; }
  c.set('Out', c.run1('interpolate', [x], {
    size, scale_factor: scale, mode, align_corners: alignCorners, align_mode: c.int('align_mode', 1), data_format: fmt,
  }));
};

/**
 * Legacy nearest interpolation with align_corners (the registry op refuses the combination):
 * source index round(k * (in - 1) / (out - 1)) per spatial dim, as index_select with constant
 * indices; needs static spatial sizes.
 */
function nearestAligned(c: OpCtx, x: TensorLike, size: number[] | null, scale: number[] | null, channelLast: boolean): TensorLike {
  const r = x.shape.length;
  const axes = channelLast ? Array.from({ length: r - 2 }, (_, k) => k + 1) : Array.from({ length: r - 2 }, (_, k) => k + 2);
  let v = x;
  axes.forEach((axis, k) => {
    const n = x.shape[axis];
    if (typeof n !== 'number') c.fail('nearest interpolation with align_corners needs static spatial dims');
    const out = size ? size[k] : Math.floor(n * scale![k]);
    if (!(out > 0)) c.fail(`output size ${out} along dim ${axis} is not positive`);
    const ratio = out > 1 ? (n - 1) / (out - 1) : 0;
    const idx = Array.from({ length: out }, (_, o) => Math.min(n - 1, Math.floor(ratio * o + 0.5)));
    const t = untracked(() => eagerly(() => to_tensor(idx, 'int64')));
    v = c.run1('index_select', [v, t], { axis });
  });
  return v;
}

export const NN_OPS: Record<string, Translator> = {
  conv2d, depthwise_conv2d: conv2d, pool2d, batch_norm: batchNorm, layer_norm: layerNorm,
  relu: unary('relu'), relu6, sigmoid: unary('sigmoid'), tanh: unary('tanh'), silu: unary('silu'), swish, hard_swish: hardSwish,
  gelu: (c) => c.set('Out', c.run1('gelu', [c.in('X')], { approximate: c.bool('approximate', false) })),
  leaky_relu: (c) => c.set('Out', c.run1('leaky_relu', [c.in('X')], { negative_slope: c.float('alpha', 0.02) })),
  hard_sigmoid: (c) => c.set('Out', c.run1('hardsigmoid', [c.in('X')], { slope: c.float('slope', 0.2), offset: c.float('offset', 0.5) })),
  elu: (c) => c.set('Out', c.run1('elu', [c.in('X')], { alpha: c.float('alpha', 1) })),
  softplus: (c) => c.set('Out', c.run1('softplus', [c.in('X')], { beta: c.float('beta', 1), threshold: c.float('threshold', 20) })),
  softmax: (c) => c.set('Out', c.run1('softmax', [c.in('X')], { axis: c.int('axis', -1) })),
  log_softmax: (c) => c.set('Out', c.run1('log_softmax', [c.in('X')], { axis: c.int('axis', -1) })),
  matmul: matmulV1,
  matmul_v2: (c) => c.set('Out', c.run1('matmul', [c.in('X'), c.in('Y')], { transpose_x: c.bool('trans_x', false), transpose_y: c.bool('trans_y', false) })),
  mul, fc, dropout,
  lookup_table_v2: embedding(false), lookup_table: embedding(true),
  bilinear_interp_v2: interp('bilinear', 2), nearest_interp_v2: interp('nearest', 2), bicubic_interp_v2: interp('bicubic', 2),
  bilinear_interp: interp('bilinear', 2), nearest_interp: interp('nearest', 2), linear_interp_v2: interp('linear', 1),
};
