// softmax, log_softmax, layer_norm, batch_norm. Native: native/kernels/nn_norm.cc.
import { isFloating, toDType } from '../../tensor/dtype.js';
import { type Dim, dimMul, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { getOp, registerOp } from '../registry.js';
import { set_item } from '../setitem.js';
import { scope, Tensor } from '../../tensor/tensor.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { bindArgs } from './nn_util.js';
import { kit } from '../grad_kit.js';

function softmaxLike(name: string): OpDef {
  return registerOp({
    name,
    // F.softmax_: the kernel reads a whole row before writing it, so the result is assigned.
    inplace: name === 'softmax' ? 'assign' : undefined,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'axis', type: 'int', default: -1 }, { name: 'dtype', type: 'dtype', default: null }],
    outputs: ['out'],
    infer: (ins, a) => {
      const x = ins[0];
      if (!isFloating(x.dtype)) throw new TypeError(`${name}: expected a floating-point input, got ${x.dtype}`);
      normAxis(a.axis as number, x.shape.length, name);
      // dtype=... casts x first (Paddle's F.softmax(x, axis, dtype)); the kernel converts on the fly.
      const dt = a.dtype === null ? x.dtype : toDType(a.dtype as string);
      if (!isFloating(dt)) throw new TypeError(`${name}: dtype must be a floating type, got ${dt}`);
      return [{ dtype: dt, shape: x.shape }];
    },
    encode: (a, ins) => [normAxis(a.axis as number, ins[0].shape.length, name)],
    gradReads: { outputs: [0] },
    // softmax: out * (g - sum(g * out)); log_softmax: g - exp(out) * sum(g); in out's dtype, then x's.
    grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
      const k = kit(ops);
      const axis = normAxis(attrs.axis as number, k.rank(x!), name);
      const gx = name === 'softmax'
        ? k.mul(out, k.sub(g!, k.sum(k.mul(g!, out), [axis], true)))
        : k.sub(g!, k.mul(k.exp(out), k.sum(g!, [axis], true)));
      return [k.cast(gx, k.dtype(x!))];
    },
    api: { names: [`nn.functional.${name}`] },
  });
}

/** F.softmax(x, axis=-1, dtype=None): exp(x - max) / sum, along axis. */
export const softmax = softmaxLike('softmax');
/** F.log_softmax(x, axis=-1, dtype=None): x - max - log(sum(exp(x - max))), along axis. */
export const log_softmax = softmaxLike('log_softmax');

const staticNumel = (s: readonly Dim[]): number | null => (s.every((d) => typeof d === 'number') ? (s as number[]).reduce((p, d) => p * d, 1) : null);

/**
 * Gradients of `out` (the mean/variance outputs are statistics and pass none back). The
 * statistics are recomputed from x with public ops, so the rule is differentiable again
 * (create_graph) rather than leaning on the forward's saved, non-differentiable outputs.
 * With x as [left, right], xhat = (x - mu) * rstd and gy = g * scale:
 * dx = rstd * (gy - mean(gy) - xhat * mean(gy * xhat)), dscale = sum_rows(g * xhat), dbias = sum_rows(g).
 */
const layerNormGrad: OpDef['grad'] = ({ inputs: [x, scale, bias], outGrads: [g], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  const begin = attrs.begin_norm_axis as number;
  const left = xs.slice(0, begin).reduce((a, b) => a * b, 1), right = xs.slice(begin).reduce((a, b) => a * b, 1);
  const x2 = k.reshape(x!, [left, right]);
  const g2 = k.reshape(g!, [left, right]);
  const mu = k.op('mean', [x2], { axis: [1], keepdim: true });
  const xc = k.sub(x2, mu);
  const varc = k.op('mean', [k.square(xc)], { axis: [1], keepdim: true });
  const rstd = k.op('rsqrt', [k.scale(varc, 1, attrs.epsilon as number)]);
  const xhat = k.mul(xc, rstd);
  const gy = scale ? k.mul(g2, k.reshape(scale, [1, right])) : g2;
  let dx: typeof x = null;
  if (needsGrad[0]) {
    const m1 = k.op('mean', [gy], { axis: [1], keepdim: true });
    const m2 = k.op('mean', [k.mul(gy, xhat)], { axis: [1], keepdim: true });
    dx = k.reshape(k.mul(rstd, k.sub(k.sub(gy, m1), k.mul(xhat, m2))), xs);
  }
  const ds = scale && needsGrad[1] ? k.reshape(k.sum(k.mul(g2, xhat), [0]), k.shape(scale)) : null;
  const db = bias && needsGrad[2] ? k.reshape(k.sum(g2, [0]), k.shape(bias)) : null;
  return [dx, ds, db];
};

/**
 * Paddle's layer_norm op: normalises over dims [begin_norm_axis, rank) with the biased variance;
 * scale and bias hold prod(those dims) elements. Outputs out, mean and variance ([prod of the
 * leading dims]; float32 for half inputs). The public F.layer_norm(x, normalized_shape, weight,
 * bias, epsilon) is `layer_norm_api` below (its argument order is not inputs-then-attributes).
 */
export const layer_norm = registerOp({
  name: 'layer_norm',
  inputs: [{ name: 'x' }, { name: 'scale', optional: true }, { name: 'bias', optional: true }],
  attrs: [{ name: 'epsilon', type: 'float', default: 1e-5 }, { name: 'begin_norm_axis', type: 'int', default: 1 }],
  outputs: ['out', 'mean', 'variance'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const x = ins[0]!;
    const begin = a.begin_norm_axis as number, rank = x.shape.length;
    if (!isFloating(x.dtype)) throw new TypeError(`layer_norm: expected a floating-point input, got ${x.dtype}`);
    if (!Number.isInteger(begin) || begin < 0 || begin >= Math.max(rank, 1) || rank === 0)
      throw new RangeError(`layer_norm: begin_norm_axis ${begin} is out of range for input of shape ${shapeStr(x.shape)}`);
    const right = staticNumel(x.shape.slice(begin));
    for (const [i, what] of [[1, 'weight'], [2, 'bias']] as const) {
      const p = ins[i];
      if (!p) continue;
      if (p.dtype !== x.dtype) throw new TypeError(`layer_norm: ${what} dtype ${p.dtype} differs from input dtype ${x.dtype}`);
      const n = staticNumel(p.shape);
      if (right !== null && n !== null && n !== right)
        throw new ShapeError(`layer_norm: ${what} of shape ${shapeStr(p.shape)} does not match normalized shape ${shapeStr(x.shape.slice(begin))}`);
    }
    const left = x.shape.slice(0, begin).reduce<Dim>(dimMul, 1);
    const statDt = x.dtype === 'float64' ? 'float64' : 'float32';
    return [{ dtype: x.dtype, shape: x.shape }, { dtype: statDt, shape: [left] }, { dtype: statDt, shape: [left] }];
  },
  /** [epsilon, begin_norm_axis, hasScale, hasBias] */
  encode: (a, ins) => [a.epsilon as number, a.begin_norm_axis as number, ins[1] ? 1 : 0, ins[2] ? 1 : 0],
  grad: layerNormGrad,
  gradReads: { inputs: [0, 1] },
  api: { names: [] },
});

/**
 * F.layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05).
 * @example const y = F.layer_norm(x, [x.shape[x.ndim - 1]], w, b);
 */
export function layer_norm_api(...args: unknown[]): unknown {
  const p = bindArgs('layer_norm', ['x', 'normalized_shape', 'weight', 'bias', 'epsilon'], args);
  const x = p.x as TensorMeta;
  if (!x || typeof x !== 'object' || !('shape' in x)) throw new TypeError('layer_norm() missing required argument \'x\' (a Tensor)');
  const ns = typeof p.normalized_shape === 'number' ? [p.normalized_shape] : (p.normalized_shape as number[] | undefined);
  if (!Array.isArray(ns) || ns.length === 0 || !ns.every((d) => Number.isInteger(d))) throw new TypeError(`layer_norm: normalized_shape must be an int or a non-empty list of ints, got ${JSON.stringify(p.normalized_shape)}`);
  const tail = x.shape.slice(x.shape.length - ns.length);
  if (ns.length > x.shape.length || tail.some((d, i) => typeof d === 'number' && d !== ns[i]))
    throw new ShapeError(`layer_norm: Given normalized_shape is ${JSON.stringify(ns)}, expected input with shape [*, ${ns.join(', ')}], but got input shape ${shapeStr(x.shape)}`);
  const outs = callOp(layer_norm, [x, p.weight ?? null, p.bias ?? null, { epsilon: p.epsilon ?? 1e-5, begin_norm_axis: x.shape.length - ns.length }]);
  return (outs as unknown[])[0];
}

const BN_FORMATS = ['NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC'];

function bnChannelAxis(a: Attrs, rank: number): number {
  const f = a.data_format as string;
  if (!BN_FORMATS.includes(f)) throw new RangeError(`batch_norm: data_format must be one of ${BN_FORMATS.join(', ')}, got ${JSON.stringify(f)}`);
  return f[1] === 'C' ? 1 : rank - 1;  // Paddle: data_format[1] == 'C' means channels first
}

/** Normalise with running statistics, or with the batch's when use_global_stats resolves to false. */
const useGlobal = (a: Attrs): boolean => (a.use_global_stats === null ? !a.training : Boolean(a.use_global_stats));

/**
 * F.batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
 * momentum=0.9, epsilon=1e-05, data_format='NCHW', use_global_stats=None).
 *
 * Training (use_global_stats resolving to false) normalises with the batch mean and biased
 * variance. The running statistics are not written in place: the op's outputs 1 and 2
 * (mean_out, variance_out = momentum * running + (1 - momentum) * batch, as Paddle computes
 * them) carry the updated values for nn.BatchNorm / functionalization to store; the public
 * function returns output 0 only.
 */
/**
 * batch_norm's gradients of `out` (the updated running statistics pass none back). Per channel,
 * over every other axis: with batch statistics (training) the same form as layer_norm's,
 * dx = rstd * (gy - mean(gy) - xhat * mean(gy * xhat)); with running statistics dx = gy * rstd.
 */
const batchNormGrad: OpDef['grad'] = ({ inputs: [x, rm, rv, w, b], outGrads: [g], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  const c = bnChannelAxis(attrs, xs.length);
  const axes = xs.map((_, i) => i).filter((i) => i !== c);
  const bshape = xs.map((d, i) => (i === c ? d : 1));
  const col = (t: typeof x) => k.reshape(k.cast(t!, k.dtype(x!)), bshape);
  const eps = attrs.epsilon as number;
  let xc, rstd;
  const global = useGlobal(attrs);
  if (global) {
    xc = k.sub(x!, col(rm));
    rstd = k.op('rsqrt', [k.scale(col(rv), 1, eps)]);
  } else {
    xc = k.sub(x!, k.op('mean', [x], { axis: axes, keepdim: true }));
    rstd = k.op('rsqrt', [k.scale(k.op('mean', [k.square(xc)], { axis: axes, keepdim: true }), 1, eps)]);
  }
  const xhat = k.mul(xc, rstd);
  const gy = w ? k.mul(g!, col(w)) : g!;
  let dx: typeof x = null;
  if (needsGrad[0]) {
    dx = global ? k.mul(gy, rstd) : k.mul(rstd, k.sub(k.sub(gy, k.op('mean', [gy], { axis: axes, keepdim: true })),
      k.mul(xhat, k.op('mean', [k.mul(gy, xhat)], { axis: axes, keepdim: true }))));
  }
  const dw = w && needsGrad[3] ? k.reshape(k.sum(k.mul(g!, xhat), axes), k.shape(w)) : null;
  const db = b && needsGrad[4] ? k.reshape(k.sum(g!, axes), k.shape(b)) : null;
  return [dx, null, null, dw, db];
};

export const batch_norm = registerOp({
  name: 'batch_norm',
  inputs: [{ name: 'x' }, { name: 'running_mean' }, { name: 'running_var' }, { name: 'weight', optional: true }, { name: 'bias', optional: true }],
  attrs: [{ name: 'training', type: 'bool', default: false }, { name: 'momentum', type: 'float', default: 0.9 },
    { name: 'epsilon', type: 'float', default: 1e-5 }, { name: 'data_format', type: 'str', default: 'NCHW' },
    { name: 'use_global_stats', type: 'bool', default: null }],
  outputs: ['out', 'mean_out', 'variance_out'],
  infer: (ins: readonly (TensorMeta | null)[], a) => {
    const x = ins[0]!;
    const rank = x.shape.length;
    if (rank < 2 || rank > 5) throw new ShapeError(`batch_norm: input must have rank 2 to 5, got shape ${shapeStr(x.shape)}`);
    if (!isFloating(x.dtype)) throw new TypeError(`batch_norm: expected a floating-point input, got ${x.dtype}`);
    const c = x.shape[bnChannelAxis(a, rank)];
    const names = ['', 'running_mean', 'running_var', 'weight', 'bias'];
    for (let i = 1; i < 5; i++) {
      const p = ins[i];
      if (!p) continue;
      if (p.shape.length !== 1 || (typeof c === 'number' && typeof p.shape[0] === 'number' && p.shape[0] !== c))
        throw new ShapeError(`batch_norm: ${names[i]} must have shape [${c}] (the channels of x ${shapeStr(x.shape)}), got ${shapeStr(p.shape)}`);
      if (p.dtype !== x.dtype) throw new TypeError(`batch_norm: ${names[i]} dtype ${p.dtype} differs from input dtype ${x.dtype}`);
    }
    const stat = { dtype: x.dtype, shape: [c] };
    return [{ dtype: x.dtype, shape: x.shape }, stat, stat];
  },
  /** [momentum, epsilon, channelAxis, useGlobalStats, hasWeight, hasBias] */
  encode: (a, ins) => [a.momentum as number, a.epsilon as number, bnChannelAxis(a, ins[0].shape.length), useGlobal(a) ? 1 : 0, ins[3] ? 1 : 0, ins[4] ? 1 : 0],
  grad: batchNormGrad,
  gradReads: { inputs: [0, 1, 2, 3] },
  // Public as F.batch_norm through batch_norm_api below (it also updates the running statistics).
  api: { names: [] },
});

/**
 * F.batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
 * momentum=0.9, epsilon=1e-5, data_format='NCHW', use_global_stats=None), as Paddle's dygraph:
 * in training without global statistics, x is normalised with the batch's statistics and the
 * running statistics (the op's outputs 1 and 2) are written into running_mean/running_var in
 * place. While a program is recorded the op is recorded and nothing is written.
 * @example const y = F.batch_norm(x, bn._mean, bn._variance, bn.weight, bn.bias, true);
 */
export function batch_norm_api(...args: unknown[]): unknown {
  const p = bindArgs('batch_norm', ['x', 'running_mean', 'running_var', 'weight', 'bias', 'training', 'momentum', 'epsilon', 'data_format', 'use_global_stats'], args);
  const attrs = { training: p.training ?? false, momentum: p.momentum ?? 0.9, epsilon: p.epsilon ?? 1e-5, data_format: p.data_format ?? 'NCHW', use_global_stats: p.use_global_stats ?? null };
  const rm = p.running_mean as Tensor, rv = p.running_var as Tensor;
  const updates = Boolean(attrs.training) && attrs.use_global_stats !== true && p.x instanceof Tensor && rm instanceof Tensor && rv instanceof Tensor;
  if (!updates) return (callOp(batch_norm, [p.x, rm, rv, p.weight ?? null, p.bias ?? null, attrs]) as unknown[])[0];
  // The op gets copies of the running statistics: the tape saves its inputs 1 and 2 (the rule
  // reads them under global statistics), and the in-place update below would otherwise bump
  // their version and make backward refuse them.
  const [crm, crv] = [rm, rv].map((t) => callOp(getOp('scale'), [t, { scale: 1 }]) as Tensor);
  const [out, mean, variance] = callOp(batch_norm, [p.x, crm, crv, p.weight ?? null, p.bias ?? null, attrs]) as Tensor[];
  crm.dispose();
  crv.dispose();
  // Statistics, not a function of the parameters: no gradient flows into the buffers (Paddle's
  // MeanOut/VarianceOut), so the values are written detached.
  scope(() => {
    set_item(rm, '...', mean.detach());
    set_item(rv, '...', variance.detach());
    mean.dispose();
    variance.dispose();
  });
  return out;
}

/** Public functions whose binding is written by hand, by dotted path below `paddle`. */
export const normPublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'nn.functional.layer_norm': layer_norm_api,
  'nn.functional.batch_norm': batch_norm_api,
};
