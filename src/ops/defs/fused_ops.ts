// Fused ops made by the fusion passes of issue 8 (src/passes/fuse_training.ts,
// fuse_softmax_mask.ts), with Paddle's names:
//   fused_dropout_add              dropout(x) + y, the mask drawn in the kernel (training pipeline)
//   fused_dropout_add_grad         its backward, regenerating the mask from seed_offset (internal)
//   fused_linear_param_grad_add    dweight + x^T @ dout (and dbias + colsum(dout)) (training pipeline)
//   fused_softmax_mask_upper_triangle  softmax(x + causal -inf mask) (both pipelines)
//   fused_bias_residual_layernorm  layer_norm(x + bias + residual) and the sum (inference pipeline)
// Native: native/kernels/fused_train.cc, fused_softmax.cc, fused_norm.cc.
import { isFloating } from '../../tensor/dtype.js';
import { broadcastShapes, type Dim, dimMul, ShapeError, shapeStr } from '../../tensor/shape.js';
import { kit } from '../grad_kit.js';
import { getOp, registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';

const DROPOUT_MODES = ['upscale_in_train', 'downscale_in_infer'];
const known = (a: Dim, b: Dim): boolean => typeof a !== 'number' || typeof b !== 'number' || a === b;
const sameShape = (a: readonly Dim[], b: readonly Dim[]): boolean => a.length === b.length && a.every((d, i) => known(d, b[i]));

function dropoutAttrs(op: string, a: Attrs): [number, number, number] {
  if (typeof a.p !== 'number') throw new TypeError(`${op}: p argument should be a number, got ${JSON.stringify(a.p)}`);
  if (!(a.p >= 0 && a.p <= 1)) throw new RangeError(`${op}: p argument should between 0 and 1, got ${a.p}`);
  const mode = DROPOUT_MODES.indexOf(a.mode as string);
  if (mode < 0) throw new RangeError(`${op}: mode argument should be 'downscale_in_infer' or 'upscale_in_train', got ${JSON.stringify(a.mode)}`);
  return [a.p, a.training ? 1 : 0, mode];
}

const DROPOUT_ATTRS = [{ name: 'p', type: 'float', default: 0.5 }, { name: 'training', type: 'bool', default: true },
  { name: 'mode', type: 'str', default: 'upscale_in_train' }] as const;

/**
 * paddle.incubate.nn.functional.fused_dropout_add(x, y, p=0.5, training=True,
 * mode='upscale_in_train'): dropout(x, p) + y in one kernel; y broadcasts to x. Draws from the
 * generator exactly as F.dropout(x, p) does (same blocks, same test), so under one seed the
 * result equals the two ops. Output 1, seed_offset (int64 [2]: the stream's key and first
 * block), lets the backward regenerate the mask instead of storing it.
 */
export const fused_dropout_add = registerOp({
  name: 'fused_dropout_add',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [...DROPOUT_ATTRS],
  outputs: ['out', 'seed_offset'],
  random: true,
  infer: ([x, y], a) => {
    const op = 'fused_dropout_add';
    dropoutAttrs(op, a);
    if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point x, got ${x.dtype}`);
    if (y.dtype !== x.dtype) throw new TypeError(`${op}: x and y must share a dtype, got ${x.dtype} and ${y.dtype}`);
    const b = broadcastShapes(x.shape, y.shape, op);
    if (!sameShape(b, x.shape)) throw new ShapeError(`${op}: y ${shapeStr(y.shape)} must broadcast to x ${shapeStr(x.shape)} (the output has x's shape)`);
    return [{ dtype: x.dtype, shape: x.shape }, { dtype: 'int64', shape: [2] }];
  },
  encode: (a) => dropoutAttrs('fused_dropout_add', a),
  gradReads: { outputs: [1] },
  grad: ({ inputs: [, y], outputs: [, seedOffset], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    if (!g) return [null, null];
    const dx = needsGrad[0] ? k.op('fused_dropout_add_grad', [seedOffset, g], { p: attrs.p, training: attrs.training, mode: attrs.mode }) : null;
    const dy = needsGrad[1] ? k.sumTo(g, k.shape(y!)) : null;
    return [dx, dy];
  },
  api: { names: ['incubate.nn.functional.fused_dropout_add'], returnOutput: 0 },
});

/** Backward of fused_dropout_add's x: out_grad masked and scaled as the forward did. Linear in out_grad. */
export const fused_dropout_add_grad = registerOp({
  name: 'fused_dropout_add_grad',
  inputs: [{ name: 'seed_offset' }, { name: 'out_grad' }],
  attrs: [...DROPOUT_ATTRS],
  outputs: ['x_grad'],
  infer: ([so, g], a) => {
    const op = 'fused_dropout_add_grad';
    dropoutAttrs(op, a);
    if (so.dtype !== 'int64' || so.shape.length !== 1 || !known(so.shape[0], 2)) throw new TypeError(`${op}: seed_offset must be an int64 tensor of shape [2], got ${so.dtype} ${shapeStr(so.shape)}`);
    if (!isFloating(g.dtype)) throw new TypeError(`${op}: expected a floating-point out_grad, got ${g.dtype}`);
    return [{ dtype: g.dtype, shape: g.shape }];
  },
  encode: (a) => dropoutAttrs('fused_dropout_add_grad', a),
  gradReads: { inputs: [0] },
  grad: ({ inputs: [so], outGrads: [g], attrs }, ops) =>
    [null, g ? kit(ops).op('fused_dropout_add_grad', [so, g], { p: attrs.p, training: attrs.training, mode: attrs.mode }) : null],
  api: { names: [] },
});

/**
 * Paddle's fused_linear_param_grad_add(x, dout, dweight=None, dbias=None, multi_precision=True,
 * has_bias=True): dweight_out = dweight + x2^T @ dout2, dbias_out = dbias + colsum(dout2), with
 * x [..., K] and dout [..., N] folded to rows. Without has_bias, dbias_out is empty ([0]).
 * float32/float64 only, so multi_precision (float16 accumulation in float32) changes nothing.
 */
export const fused_linear_param_grad_add = registerOp({
  name: 'fused_linear_param_grad_add',
  inputs: [{ name: 'x' }, { name: 'dout' }, { name: 'dweight', optional: true }, { name: 'dbias', optional: true }],
  attrs: [{ name: 'multi_precision', type: 'bool', default: true }, { name: 'has_bias', type: 'bool', default: true }],
  outputs: ['dweight_out', 'dbias_out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const op = 'fused_linear_param_grad_add';
    const [x, g, dw, db] = ins as [TensorMeta, TensorMeta, TensorMeta | null, TensorMeta | null];
    const shapes = `x ${shapeStr(x.shape)}, dout ${shapeStr(g.shape)}${dw ? `, dweight ${shapeStr(dw.shape)}` : ''}${db ? `, dbias ${shapeStr(db.shape)}` : ''}`;
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${op}: unsupported dtype ${x.dtype} (float32 or float64), ${shapes}`);
    if (g.dtype !== x.dtype || (dw && dw.dtype !== x.dtype) || (db && db.dtype !== x.dtype)) throw new TypeError(`${op}: inputs must share a dtype, ${shapes}`);
    if (x.shape.length < 2 || g.shape.length !== x.shape.length || !sameShape(x.shape.slice(0, -1), g.shape.slice(0, -1)))
      throw new ShapeError(`${op}: x and dout must have the same rank >= 2 and agree on every dim but the last, got ${shapes}`);
    const k = x.shape[x.shape.length - 1], n = g.shape[g.shape.length - 1];
    if (dw && !sameShape(dw.shape, [k, n])) throw new ShapeError(`${op}: dweight must have shape [${k}, ${n}], ${shapes}`);
    if (db && !sameShape(db.shape, [n])) throw new ShapeError(`${op}: dbias must have shape [${n}], ${shapes}`);
    if (db && !a.has_bias) throw new TypeError(`${op}: dbias is given but has_bias is false`);
    return [{ dtype: x.dtype, shape: [k, n] }, { dtype: x.dtype, shape: [a.has_bias ? n : 0] }];
  },
  /** [has_dweight, has_dbias, has_bias] */
  encode: (a, ins) => [ins[2] ? 1 : 0, ins[3] ? 1 : 0, a.has_bias ? 1 : 0],
  gradReads: { inputs: [0, 1] },
  // Linear in dweight/dbias, bilinear in x and dout: with gW, gB the output gradients,
  // dx = dout gW^T, ddout = x gW + gB, ddweight = gW, ddbias = gB.
  grad: ({ inputs: [x, dout, dw, db], outGrads: [gw, gb], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!), gs = k.shape(dout!);
    const rows = xs.slice(0, -1).reduce((p, q) => p * q, 1);
    const useB = Boolean(attrs.has_bias) && gb !== null;
    let dx = null, dd = null;
    if (needsGrad[0] && gw) dx = k.reshape(k.op('matmul', [k.reshape(dout!, [rows, gs[gs.length - 1]]), gw], { transpose_y: true }), xs);
    if (needsGrad[1] && (gw || useB)) {
      let t = gw ? k.op('matmul', [k.reshape(x!, [rows, xs[xs.length - 1]]), gw]) : null;
      if (useB) t = t ? k.add(t, gb!) : k.expandTo(gb!, [rows, gs[gs.length - 1]]);
      dd = k.reshape(t!, gs);
    }
    return [dx, dd, dw && needsGrad[2] ? gw : null, db && needsGrad[3] && useB ? gb : null];
  },
  api: { names: [] },
});

/**
 * paddle.incubate.softmax_mask_fuse_upper_triangle(x): softmax over the last axis of
 * x [..., Sq, Sk] with columns j > i (row i of the last two dims) masked out, i.e.
 * softmax(x + triu(full(-inf), 1)), the causal attention mask. Masked outputs are 0.
 */
export const fused_softmax_mask_upper_triangle = registerOp({
  name: 'fused_softmax_mask_upper_triangle',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => {
    const op = 'fused_softmax_mask_upper_triangle';
    if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
    if (x.shape.length < 2) throw new ShapeError(`${op}: x must have rank >= 2 ([..., query_len, key_len]), got ${shapeStr(x.shape)}`);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: () => [],
  gradReads: { outputs: [0] },
  // softmax's rule: masked outputs are 0, so their gradients come out 0 as well.
  grad: ({ inputs: [x], outputs: [out], outGrads: [g] }, ops) => {
    const k = kit(ops);
    if (!g) return [null];
    return [k.mul(out, k.sub(g, k.sum(k.mul(g, out), [k.rank(x!) - 1], true)))];
  },
  api: { names: ['incubate.softmax_mask_fuse_upper_triangle'] },
});

/**
 * Paddle's fused_bias_residual_layernorm(x, bias=None, residual=None, norm_weight=None,
 * norm_bias=None, epsilon, residual_alpha=1.0, begin_norm_axis=1): residual_out = x + bias +
 * residual_alpha * residual, out = layer_norm(residual_out) * norm_weight + norm_bias; outputs
 * out, residual_out, mean, variance (layer_norm's statistics). Made from add + layer_norm by the
 * fuse_residual_layer_norm pass (the quantization attributes of Paddle's op are not modelled).
 */
export const fused_bias_residual_layernorm = registerOp({
  name: 'fused_bias_residual_layernorm',
  inputs: [{ name: 'x' }, { name: 'bias', optional: true }, { name: 'residual', optional: true }, { name: 'norm_weight', optional: true }, { name: 'norm_bias', optional: true }],
  attrs: [{ name: 'epsilon', type: 'float', default: 1e-5 }, { name: 'residual_alpha', type: 'float', default: 1.0 }, { name: 'begin_norm_axis', type: 'int', default: 1 }],
  outputs: ['out', 'residual_out', 'mean', 'variance'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const op = 'fused_bias_residual_layernorm';
    const x = ins[0]!;
    const begin = a.begin_norm_axis as number, rank = x.shape.length;
    if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point x, got ${x.dtype}`);
    if (!Number.isInteger(begin) || begin < 0 || begin >= Math.max(rank, 1) || rank === 0)
      throw new RangeError(`${op}: begin_norm_axis ${begin} is out of range for x of shape ${shapeStr(x.shape)}`);
    if (typeof a.epsilon !== 'number' || !(a.epsilon >= 0) || !Number.isFinite(a.epsilon)) throw new RangeError(`${op}: epsilon must be finite and >= 0, got ${a.epsilon}`);
    if (typeof a.residual_alpha !== 'number' || !Number.isFinite(a.residual_alpha)) throw new RangeError(`${op}: residual_alpha must be finite, got ${a.residual_alpha}`);
    const tail = x.shape.slice(begin);
    const right = tail.every((d) => typeof d === 'number') ? (tail as number[]).reduce((p, q) => p * q, 1) : null;
    const names = ['', 'bias', 'residual', 'norm_weight', 'norm_bias'];
    for (let i = 1; i < 5; i++) {
      const p = ins[i];
      if (!p) continue;
      if (p.dtype !== x.dtype) throw new TypeError(`${op}: ${names[i]} dtype ${p.dtype} differs from x dtype ${x.dtype}`);
      if (i === 2) {
        if (!sameShape(p.shape, x.shape)) throw new ShapeError(`${op}: residual of shape ${shapeStr(p.shape)} does not match x ${shapeStr(x.shape)}`);
        continue;
      }
      const n = p.shape.every((d) => typeof d === 'number') ? (p.shape as number[]).reduce((q, r) => q * r, 1) : null;
      if (right !== null && n !== null && n !== right) throw new ShapeError(`${op}: ${names[i]} of shape ${shapeStr(p.shape)} does not match x ${shapeStr(x.shape)} (normalized size ${right})`);
    }
    const left = x.shape.slice(0, begin).reduce<Dim>(dimMul, 1);
    const st = x.dtype === 'float64' ? 'float64' : 'float32';
    return [{ dtype: x.dtype, shape: x.shape }, { dtype: x.dtype, shape: x.shape }, { dtype: st, shape: [left] }, { dtype: st, shape: [left] }];
  },
  /** [epsilon, residual_alpha, begin_norm_axis, has_bias, has_residual, has_weight, has_norm_bias] */
  encode: (a, ins) => [a.epsilon as number, a.residual_alpha as number, a.begin_norm_axis as number, ...[1, 2, 3, 4].map((i) => (ins[i] ? 1 : 0))],
  gradReads: { inputs: [3, 4], outputs: [1] },
  // d(residual_out) = its own gradient + layer_norm's input gradient (layer_norm's rule on the
  // stored sum); x takes it whole, bias summed over rows, residual scaled by residual_alpha.
  grad: ({ inputs: [x, bias, res, w, nb], outputs: [, sum], outGrads: [g, gs], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    let dsum: typeof g = gs ?? null;
    let dw = null, dnb = null;
    if (g) {
      const ln = getOp('layer_norm').grad!({ inputs: [sum, w ?? null, nb ?? null], outputs: [], outGrads: [g, null, null],
        attrs: { epsilon: attrs.epsilon, begin_norm_axis: attrs.begin_norm_axis }, needsGrad: [true, Boolean(w && needsGrad[3]), Boolean(nb && needsGrad[4])] }, ops);
      dsum = dsum ? k.add(dsum, ln[0]!) : ln[0];
      [dw, dnb] = [ln[1], ln[2]];
    }
    const dx = needsGrad[0] && dsum ? dsum : null;
    const xs = k.shape(x!), begin = attrs.begin_norm_axis as number;
    const rows = xs.slice(0, begin).reduce((p, q) => p * q, 1), right = xs.slice(begin).reduce((p, q) => p * q, 1);
    const db = bias && needsGrad[1] && dsum ? k.reshape(k.sum(k.reshape(dsum, [rows, right]), [0]), k.shape(bias)) : null;
    const dr = res && needsGrad[2] && dsum ? k.scale(dsum, attrs.residual_alpha as number) : null;
    return [dx, db, dr, dw, dnb];
  },
  api: { names: [] },
});
