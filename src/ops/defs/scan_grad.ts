// Gradient rules of the scans in scan.ts (cumprod, cummax/cummin values, logcumsumexp), with
// public ops through GradKit. An axis of None means the op ran on the flattened input: the rule
// works on that 1-D view and reshapes the result back to x's shape.
import { type GradKit, kit } from '../grad_kit.js';
import type { Attrs, OpDef } from '../types.js';
import { normAxis } from '../../tensor/shape.js';

/** Reverse cumulative sum along axis: out_i = sum_{j >= i} t_j. */
export function revCumsum<T>(k: GradKit<T>, t: T, axis: number): T {
  const f = k.op('flip', [t], { axis: [axis] });
  return k.op('flip', [k.op('cumsum', [f], { axis })], { axis: [axis] });
}

/**
 * Routes g (shape S, S[axis] = m) to the positions `idx` (same shape, values in [0, n)) name
 * along axis, summing collisions: the gradient of taking x's elements at idx along axis, for an
 * x of shape xs. Written with one_hot (an [..., m, ..., n] product), fine for the short axes
 * scans and mode work on; it keeps the rule in public, differentiable ops.
 */
export function scatterAlong<T>(k: GradKit<T>, g: T, idx: T, axis: number, xs: readonly number[]): T {
  const r = k.rank(g);
  const n = xs[axis];
  const oh = k.cast(k.op('one_hot', [idx], { num_classes: n }), k.dtype(g));
  const t = k.sum(k.mul(k.op('unsqueeze', [g], { axis: [r] }), oh), [axis], true);  // [.., 1, .., n]
  const perm = [...Array(r + 1).keys()];
  perm[axis] = r; perm[r] = axis;
  return k.reshape(k.transpose(t, perm), xs);
}

/** The axis a scan ran along, and x's shape as the kernel saw it (flattened for None). */
function scanView(xs: readonly number[], axis: Attrs[string], op: string): { axis: number; shape: number[] } {
  if (axis === null) return { axis: 0, shape: [xs.reduce((a, b) => a * b, 1)] };
  return { axis: normAxis(axis as number, xs.length, op), shape: [...xs] };
}

/**
 * cumprod: d x_i = sum_{j >= i} g_j prod_{k <= j, k != i} x_k, exact with zeros (as Paddle's
 * kernel): before a slice's first zero it is revcumsum(g out)_i / x_i; at the first zero it is
 * revcumsum(g cumprod(x with that zero set to 1))_i; after it, 0 (every such product has the zero).
 */
const cumprodGrad: OpDef['grad'] = ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  const v = scanView(xs, attrs.dim, 'cumprod');
  const xx = k.reshape(k.cast(x!, k.dtype(out)), v.shape);
  const one = k.scalar(1, xx);
  const isZero = k.cmp('equal', xx, k.scalar(0, xx));
  const zerosSoFar = k.op('cumsum', [k.cast(isZero, k.dtype(xx))], { axis: v.axis });
  const before = k.cmp('equal', zerosSoFar, k.scalar(0, xx));
  const first = k.op('logical_and', [isZero, k.cmp('equal', zerosSoFar, one)]);
  const a = k.div(revCumsum(k, k.mul(g!, out), v.axis), k.where(isZero, one, xx));
  const b = revCumsum(k, k.mul(g!, k.op('cumprod', [k.where(first, one, xx)], { dim: v.axis })), v.axis);
  return [k.reshape(k.where(before, a, k.mask(first, b)), xs)];
};

/** cummax/cummin: each output's gradient goes to the element its index names. */
const cumExtremeGrad = (op: string): OpDef['grad'] => ({ inputs: [x], outputs: [, idx], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  if (!g) return [k.zerosOf(x!)];
  const v = scanView(xs, attrs.axis, op);
  return [k.reshape(scatterAlong(k, g, idx, v.axis, v.shape), xs)];
};

/**
 * logcumsumexp: d x_i = sum_{j >= i} g_j exp(x_i - out_j), computed as
 * exp(x_i - c) * revcumsum(g_j exp(c - out_j)) with c the slice's smallest output (out_0 = x_0),
 * so exp(c - out_j) <= 1 never overflows.
 */
const logcumsumexpGrad: OpDef['grad'] = ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!);
  const v = scanView(xs, attrs.axis, 'logcumsumexp');
  const xx = k.reshape(k.cast(x!, k.dtype(out)), v.shape);
  const c = k.op('amin', [out], { axis: [v.axis], keepdim: true });
  const acc = revCumsum(k, k.mul(g!, k.exp(k.sub(c, out))), v.axis);
  return [k.reshape(k.mul(k.exp(k.sub(xx, c)), acc), xs)];
};

export const SCAN_GRADS: Readonly<Record<string, Pick<OpDef, 'grad' | 'gradReads'>>> = {
  cumprod: { grad: cumprodGrad, gradReads: { inputs: [0], outputs: [0] } },
  cummax: { grad: cumExtremeGrad('cummax'), gradReads: { outputs: [1] } },
  cummin: { grad: cumExtremeGrad('cummin'), gradReads: { outputs: [1] } },
  logcumsumexp: { grad: logcumsumexpGrad, gradReads: { inputs: [0], outputs: [0] } },
};
