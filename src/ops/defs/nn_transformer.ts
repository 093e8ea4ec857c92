// Transformer building blocks (native: native/kernels/nn_transformer.cc):
//   F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True)
//   F.rms_norm(x, normalized_shape, weight=None, eps=1e-06)
//   paddle.incubate.nn.functional.fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis, bias=None, residual=None)
// The attention op is one fused kernel (online softmax over key blocks, no [Sq, Sk] matrix);
// its gradient recomputes the probabilities with public ops. Attention dropout draws a random
// mask over the probabilities, which the fused kernel does not keep, so the public function runs
// the unfused ops (matmul, softmax, dropout, matmul) when dropout is active and the fused op
// otherwise; the registry op itself rejects active dropout.
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, dimMul, ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { runOp, type TensorLike } from '../dispatch.js';
import { type GradKit, kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { bindArgs } from './nn_util.js';

const SDPA = 'scaled_dot_product_attention';
const known = (d: Dim): d is number => typeof d === 'number';

function sdpaInfer(ins: readonly (TensorMeta | null)[], a: Attrs): TensorMeta[] {
  const [q, k, v, m] = ins as [TensorMeta, TensorMeta, TensorMeta, TensorMeta | null];
  const p = a.dropout_p as number;
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`${SDPA}: dropout_p must be in [0, 1], got ${JSON.stringify(a.dropout_p)}`);
  if (p > 0 && a.training) throw new RangeError(`${SDPA}: the fused op has no dropout; F.${SDPA} runs dropout_p=${p} in training through the unfused ops`);
  for (const t of [q, k, v])
    if (t.shape.length !== 4) throw new ShapeError(`${SDPA}: query, key and value must be 4-D [batch, seq_len, num_heads, head_dim], got ${shapeStr(q.shape)}, ${shapeStr(k.shape)}, ${shapeStr(v.shape)}`);
  if (!isFloating(q.dtype)) throw new TypeError(`${SDPA}: expected a floating-point query, got ${q.dtype}`);
  if (k.dtype !== q.dtype || v.dtype !== q.dtype) throw new TypeError(`${SDPA}: query, key and value dtypes differ: ${q.dtype}, ${k.dtype}, ${v.dtype}`);
  const [B, Sq, H, D] = q.shape, Sk = k.shape[1];
  const clash = (x: Dim, y: Dim) => known(x) && known(y) && x !== y;
  if (clash(k.shape[0], B) || clash(v.shape[0], B) || clash(k.shape[2], H) || clash(v.shape[2], H) || clash(k.shape[3], D) || clash(v.shape[1], Sk))
    throw new ShapeError(`${SDPA}: shapes do not match: query ${shapeStr(q.shape)}, key ${shapeStr(k.shape)}, value ${shapeStr(v.shape)} (key needs query's batch, heads and head_dim; value needs key's batch, seq_len and heads)`);
  if (m) {
    const full = [B, H, Sq, Sk];
    const off = 4 - m.shape.length;
    if (off < 0 || m.shape.some((d, i) => known(d) && d !== 1 && clash(d, full[off + i])))
      throw new ShapeError(`${SDPA}: attn_mask of shape ${shapeStr(m.shape)} does not broadcast to [batch, num_heads, seq_len, seq_len_key] = ${shapeStr(full)}`);
    if (m.dtype !== 'bool' && m.dtype !== q.dtype) throw new TypeError(`${SDPA}: attn_mask must be bool or ${q.dtype} (the query's dtype), got ${m.dtype}`);
  }
  return [{ dtype: q.dtype, shape: [B, Sq, H, v.shape[3]] }];
}

/**
 * The unfused attention on [B, H, S, D] operands, written with public ops: probabilities P and
 * the pieces the gradient needs. Masked scores become -inf (bool masks through where, causal as
 * an additive upper triangle of -inf), so P is exactly 0 there.
 */
function attentionProbs<T>(k: GradKit<T>, qt: T, kt: T, mask: T | null, causal: boolean, scale: number): T {
  let s = k.scale(k.op('matmul', [qt, kt], { transpose_y: true }), scale);
  if (mask) s = k.dtype(mask) === 'bool' ? k.where(mask, s, k.scalar(-Infinity, s)) : k.add(s, mask);
  if (causal) {
    const [sq, sk] = k.shape(s).slice(2);
    s = k.add(s, k.op('triu', [k.full([sq, sk], -Infinity, k.dtype(s))], { diagonal: 1 }));
  }
  return k.op('softmax', [s], { axis: -1 });
}

const toBHSD = <T>(k: GradKit<T>, x: T): T => k.transpose(x, [0, 2, 1, 3]);

/**
 * With P = softmax(scale * Q K^T + mask) recomputed and g the output gradient (heads moved
 * forward): dV = P^T g, dP = g V^T, dS = P * (dP - rowsum(dP * P)), dQ = scale * dS K,
 * dK = scale * dS^T Q, and a floating mask gets dS summed back to its shape.
 */
const sdpaGrad: OpDef['grad'] = ({ inputs: [q, kk, v, mask], outGrads: [g], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const scale = 1 / Math.sqrt(k.shape(q!)[3]);
  const qt = toBHSD(k, q!), kt = toBHSD(k, kk!), vt = toBHSD(k, v!), gt = toBHSD(k, g!);
  const p = attentionProbs(k, qt, kt, mask ?? null, Boolean(attrs.is_causal), scale);
  const dv = needsGrad[2] ? toBHSD(k, k.op('matmul', [p, gt], { transpose_x: true })) : null;
  const dp = k.op('matmul', [gt, vt], { transpose_y: true });
  const ds = k.mul(p, k.sub(dp, k.sum(k.mul(dp, p), [3], true)));
  const dq = needsGrad[0] ? toBHSD(k, k.scale(k.op('matmul', [ds, kt]), scale)) : null;
  const dk = needsGrad[1] ? toBHSD(k, k.scale(k.op('matmul', [ds, qt], { transpose_x: true }), scale)) : null;
  const dm = mask && needsGrad[3] && k.dtype(mask) !== 'bool' ? k.sumTo(ds, k.shape(mask)) : null;
  return [dq, dk, dv, dm];
};

/** The fused attention op; the public function is `sdpa_api` below (it adds the dropout path). */
export const scaled_dot_product_attention = registerOp({
  name: SDPA,
  inputs: [{ name: 'query' }, { name: 'key' }, { name: 'value' }, { name: 'attn_mask', optional: true }],
  attrs: [{ name: 'dropout_p', type: 'float', default: 0 }, { name: 'is_causal', type: 'bool', default: false }, { name: 'training', type: 'bool', default: true }],
  outputs: ['out'],
  infer: sdpaInfer,
  /** [isCausal, hasMask, scale = 1 / sqrt(head_dim)] */
  encode: (a, ins) => [a.is_causal ? 1 : 0, ins[3] ? 1 : 0, 1 / Math.sqrt(ins[0].shape[3] as number)],
  grad: sdpaGrad,
  gradReads: { inputs: [0, 1, 2, 3] },
  api: { names: [] },
});

const eager = { run: (n: string, ins: readonly (TensorLike | null)[], a?: Readonly<Record<string, unknown>>) => runOp(n, ins, a ?? {}), meta: (t: TensorLike) => t as TensorMeta };

/**
 * F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
 * is_causal=False, training=True): softmax(Q K^T / sqrt(head_dim) + mask) V per batch and head,
 * on [batch, seq_len, num_heads, head_dim] tensors. attn_mask broadcasts to [batch, num_heads,
 * seq_len, seq_len_key]; bool masks keep the scores where true, floating ones are added.
 * @example const out = F.scaled_dot_product_attention(q, k, v, null, 0.0, true);
 */
export function sdpa_api(...args: unknown[]): unknown {
  const p = bindArgs(SDPA, ['query', 'key', 'value', 'attn_mask', 'dropout_p', 'is_causal', 'training'], args);
  const dropout = (p.dropout_p ?? 0) as number, training = (p.training ?? true) as boolean, causal = Boolean(p.is_causal ?? false);
  const [q, kk, v] = [p.query, p.key, p.value] as TensorLike[];
  if (!(typeof dropout === 'number' && dropout > 0 && training))
    return callOp(scaled_dot_product_attention, [q, kk, v, p.attn_mask ?? null, dropout, causal, training]);
  const mask = (p.attn_mask ?? null) as TensorLike | null;
  for (const [n, t] of [['query', q], ['key', kk], ['value', v], ['attn_mask', mask ?? q]] as const)
    if (!isTensor(t)) throw new TypeError(`${SDPA}: ${n} must be a Tensor, got ${t === null ? 'None' : typeof t}`);
  sdpaInfer([q, kk, v, mask] as TensorMeta[], { dropout_p: dropout, is_causal: causal, training: false });  // same checks and errors
  const k = kit(eager);
  const probs = attentionProbs(k, toBHSD(k, q), toBHSD(k, kk), mask, causal, 1 / Math.sqrt(k.shape(q)[3]));
  const dropped = k.op('dropout', [probs], { p: dropout, training: true });
  return toBHSD(k, k.op('matmul', [dropped, toBHSD(k, v)]));
}

// ---- rms_norm ----------------------------------------------------------------------------------

const staticNumel = (s: readonly Dim[]): number | null => (s.every(known) ? (s as number[]).reduce((p, d) => p * d, 1) : null);

/**
 * With x as [left, right], r = rsqrt(mean(x^2) + eps), xhat = x * r, gy = g * weight:
 * dx = r * (gy - xhat * mean(gy * xhat)), dweight = sum_rows(g * xhat), dbias = sum_rows(g).
 * r is recomputed from x with public ops so the rule differentiates again.
 */
const rmsNormGrad: OpDef['grad'] = ({ inputs: [x, w, b], outGrads: [g], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  const begin = attrs.begin_norm_axis as number;
  const left = xs.slice(0, begin).reduce((p, d) => p * d, 1), right = xs.slice(begin).reduce((p, d) => p * d, 1);
  const x2 = k.reshape(x!, [left, right]), g2 = k.reshape(g!, [left, right]);
  const r = k.op('rsqrt', [k.scale(k.op('mean', [k.square(x2)], { axis: [1], keepdim: true }), 1, attrs.epsilon as number)]);
  const xhat = k.mul(x2, r);
  const gy = w ? k.mul(g2, k.reshape(w, [1, right])) : g2;
  const dx = needsGrad[0] ? k.reshape(k.mul(r, k.sub(gy, k.mul(xhat, k.op('mean', [k.mul(gy, xhat)], { axis: [1], keepdim: true })))), xs) : null;
  const dw = w && needsGrad[1] ? k.reshape(k.sum(k.mul(g2, xhat), [0]), k.shape(w)) : null;
  const db = b && needsGrad[2] ? k.reshape(k.sum(g2, [0]), k.shape(b)) : null;
  return [dx, dw, db];
};

/**
 * The rms_norm op: normalises over dims [begin_norm_axis, rank) by the root mean square (no
 * centring); weight and bias hold prod(those dims) elements. Outputs out and inv_var
 * (rsqrt(mean(x^2) + eps) per leading index; float32 for half inputs).
 */
export const rms_norm = registerOp({
  name: 'rms_norm',
  inputs: [{ name: 'x' }, { name: 'weight', optional: true }, { name: 'bias', optional: true }],
  attrs: [{ name: 'epsilon', type: 'float', default: 1e-6 }, { name: 'begin_norm_axis', type: 'int', default: 1 }],
  outputs: ['out', 'inv_var'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const x = ins[0]!;
    const rank = x.shape.length, begin = a.begin_norm_axis as number;
    if (!isFloating(x.dtype)) throw new TypeError(`rms_norm: expected a floating-point input, got ${x.dtype}`);
    if (!Number.isInteger(begin) || begin < 0 || begin >= rank)
      throw new RangeError(`rms_norm: begin_norm_axis ${begin} is out of range for input of shape ${shapeStr(x.shape)}`);
    if (typeof a.epsilon !== 'number' || !(a.epsilon >= 0)) throw new RangeError(`rms_norm: epsilon must be a non-negative number, got ${JSON.stringify(a.epsilon)}`);
    const right = staticNumel(x.shape.slice(begin));
    for (const [i, what] of [[1, 'weight'], [2, 'bias']] as const) {
      const p = ins[i];
      if (!p) continue;
      if (p.dtype !== x.dtype) throw new TypeError(`rms_norm: ${what} dtype ${p.dtype} differs from input dtype ${x.dtype}`);
      const n = staticNumel(p.shape);
      if (right !== null && n !== null && n !== right)
        throw new ShapeError(`rms_norm: ${what} of shape ${shapeStr(p.shape)} does not match normalized shape ${shapeStr(x.shape.slice(begin))}`);
    }
    const left = x.shape.slice(0, begin).reduce<Dim>(dimMul, 1);
    return [{ dtype: x.dtype, shape: x.shape }, { dtype: x.dtype === 'float64' ? 'float64' : 'float32', shape: [left] }];
  },
  /** [epsilon, begin_norm_axis, hasWeight, hasBias] */
  encode: (a, ins) => [a.epsilon as number, a.begin_norm_axis as number, ins[1] ? 1 : 0, ins[2] ? 1 : 0],
  grad: rmsNormGrad,
  gradReads: { inputs: [0, 1] },
  api: { names: [] },
});

const isTensor = (t: unknown): t is TensorMeta => t !== null && typeof t === 'object' && 'shape' in (t as object) && 'dtype' in (t as object);

/**
 * F.rms_norm(x, normalized_shape, weight=None, eps=1e-06): x / sqrt(mean(x^2) + eps) * weight
 * over the trailing dims named by normalized_shape.
 * @example const y = F.rms_norm(x, [x.shape[x.ndim - 1]], w);
 */
export function rms_norm_api(...args: unknown[]): unknown {
  const p = bindArgs('rms_norm', ['x', 'normalized_shape', 'weight', 'eps'], args);
  const x = p.x;
  if (!isTensor(x)) throw new TypeError('rms_norm() missing required argument \'x\' (a Tensor)');
  const ns = typeof p.normalized_shape === 'number' ? [p.normalized_shape] : (p.normalized_shape as number[] | undefined);
  if (!Array.isArray(ns) || ns.length === 0 || !ns.every((d) => Number.isInteger(d))) throw new TypeError(`rms_norm: normalized_shape must be an int or a non-empty list of ints, got ${JSON.stringify(p.normalized_shape)}`);
  const tail = x.shape.slice(x.shape.length - ns.length);
  if (ns.length > x.shape.length || tail.some((d, i) => known(d) && d !== ns[i]))
    throw new ShapeError(`rms_norm: Given normalized_shape is ${JSON.stringify(ns)}, expected input with shape [*, ${ns.join(', ')}], but got input shape ${shapeStr(x.shape)}`);
  const outs = callOp(rms_norm, [x, p.weight ?? null, null, { epsilon: p.eps ?? 1e-6, begin_norm_axis: x.shape.length - ns.length }]);
  return (outs as unknown[])[0];
}

/**
 * paddle.incubate.nn.functional.fused_rms_norm(x, norm_weight, norm_bias, epsilon,
 * begin_norm_axis, bias=None, residual=None): rms_norm(x + bias + residual) * norm_weight +
 * norm_bias. Returns out, or [out, residual_out] (the summed input) when residual is given.
 * The quantisation arguments (quant_scale etc.) are accepted only at their defaults.
 */
export function fused_rms_norm_api(...args: unknown[]): unknown {
  const names = ['x', 'norm_weight', 'norm_bias', 'epsilon', 'begin_norm_axis', 'bias', 'residual', 'quant_scale', 'quant_round_type', 'quant_max_bound', 'quant_min_bound'];
  const p = bindArgs('fused_rms_norm', names, args);
  if (!isTensor(p.x)) throw new TypeError('fused_rms_norm() missing required argument \'x\' (a Tensor)');
  if ((p.quant_scale ?? -1) !== -1 && (p.quant_scale as number) > 0) throw new RangeError(`fused_rms_norm: quantized output (quant_scale ${p.quant_scale}) is not supported`);
  const x = p.x as TensorLike;
  const rank = (x as TensorMeta).shape.length;
  let begin = (p.begin_norm_axis ?? 1) as number;
  if (Number.isInteger(begin) && begin < 0) begin += rank;
  let sum: TensorLike = x;
  if (p.bias) sum = runOp('add', [sum, p.bias as TensorLike])[0];
  if (p.residual) sum = runOp('add', [sum, p.residual as TensorLike])[0];
  const out = callOp(rms_norm, [sum, p.norm_weight ?? null, p.norm_bias ?? null, { epsilon: p.epsilon ?? 1e-6, begin_norm_axis: begin }]) as unknown[];
  return p.residual ? [out[0], sum] : out[0];
}

/** Public functions bound by hand, by dotted path below `paddle`. */
export const transformerPublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'nn.functional.scaled_dot_product_attention': sdpa_api,
  'nn.functional.rms_norm': rms_norm_api,
  'incubate.nn.functional.fused_rms_norm': fused_rms_norm_api,
};
