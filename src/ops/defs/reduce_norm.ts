// Vector norms: Paddle's p_norm and frobenius_norm ops, and the public paddle.linalg.norm /
// paddle.norm (`normApi`, which picks the op as Paddle 2.6's Python function does).
// Native: native/kernels/reduce_norm.cc. Floats only; accumulation in double.
//
//  - p_norm(x, porder=2, axis=-1, epsilon=1e-12, keepdim=False, asvector=False): along one axis,
//    or over every element with asvector. porder inf: max |x|; -inf: min |x|; 0: the number of
//    nonzeros; otherwise (sum |x|^p)^(1/p). Kernel attrs: [n_axes, axis..., keepdim, porder].
//    epsilon only matters for gradients (kept for Paddle's attribute list).
//  - frobenius_norm(x, axis, keep_dim=False, reduce_all=False): sqrt(sum x^2) over axes.
//    Kernel attrs: [n_axes, axis..., keepdim, 2].
//  - linalg.norm(x, p='fro', axis=None, keepdim=False): 'fro' with axis None or two axes is
//    frobenius_norm; a number p (or 'fro' with one axis, meaning 2) is p_norm, over the
//    flattened input when axis is None. Matrix norms (numeric p or 'nuc' over two axes) are
//    composites over svd / abs sums (matrixNorm in linalg_decomp_api.ts).
import { registerOp } from '../registry.js';
import { reduceAxes, reducedShape, requireFloat } from '../infer.js';
import { normAxis } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { bindArgs } from './nn_util.js';
import type { TensorMeta } from '../types.js';
import { REDUCE_GRADS } from './reduce_grad.js';
import { Tensor } from '../../tensor/tensor.js';
import { matrixNorm } from './linalg_decomp_api.js';
import type { TensorLike } from '../dispatch.js';

/** p_norm(x, porder=2.0, axis=-1, epsilon=1e-12, keepdim=False, asvector=False). */
export const p_norm = registerOp({
  name: 'p_norm',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'porder', type: 'float', default: 2 },
    { name: 'axis', type: 'int', default: -1 },
    { name: 'epsilon', type: 'float', default: 1e-12 },
    { name: 'keepdim', type: 'bool', default: false },
    { name: 'asvector', type: 'bool', default: false },
  ],
  outputs: ['out'],
  infer: ([x], a) => {
    requireFloat('p_norm', x.dtype);
    if (typeof a.porder !== 'number' || Number.isNaN(a.porder)) throw new TypeError(`p_norm: porder must be a number, got ${JSON.stringify(a.porder)}`);
    if (!Number.isInteger(a.axis)) throw new TypeError(`p_norm: axis must be an int, got ${JSON.stringify(a.axis)}`);
    const rank = x.shape.length;
    const axes = a.asvector ? [...Array(rank).keys()] : [normAxis(a.axis as number, rank, 'p_norm')].filter((d) => d < rank);
    return [{ dtype: x.dtype, shape: reducedShape(x.shape, axes, a.keepdim as boolean) }];
  },
  encode: (a, [x]) => {
    const rank = x.shape.length;
    const axes = a.asvector ? [...Array(rank).keys()] : [normAxis(a.axis as number, rank, 'p_norm')].filter((d) => d < rank);
    return [axes.length, ...axes, a.keepdim ? 1 : 0, a.porder as number];
  },
  api: { names: [] },
  ...REDUCE_GRADS.p_norm,  // reduce_grad.ts
});

/** frobenius_norm(x, axis, keep_dim=False, reduce_all=False). */
export const frobenius_norm = registerOp({
  name: 'frobenius_norm',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'axis', type: 'int[]', default: null },
    { name: 'keep_dim', type: 'bool', default: false },
    { name: 'reduce_all', type: 'bool', default: false },
  ],
  outputs: ['out'],
  infer: ([x], a) => {
    requireFloat('frobenius_norm', x.dtype);
    const axes = a.reduce_all ? [...Array(x.shape.length).keys()] : reduceAxes('frobenius_norm', a.axis, x.shape.length).filter((d) => d < x.shape.length);
    return [{ dtype: x.dtype, shape: reducedShape(x.shape, axes, a.keep_dim as boolean) }];
  },
  encode: (a, [x]) => {
    const axes = a.reduce_all ? [...Array(x.shape.length).keys()] : reduceAxes('frobenius_norm', a.axis, x.shape.length).filter((d) => d < x.shape.length);
    return [axes.length, ...axes, a.keep_dim ? 1 : 0, 2];
  },
  api: { names: [] },
  ...REDUCE_GRADS.frobenius_norm,
});

/**
 * paddle.linalg.norm(x, p='fro', axis=None, keepdim=False) (also paddle.norm).
 * @example paddle.linalg.norm(x, 2, -1)
 */
export function normApi(...args: unknown[]): unknown {
  const b = bindArgs('norm', ['x', 'p', 'axis', 'keepdim'], args);
  const x = b.x as TensorMeta;
  if (!x || typeof x !== 'object' || !('shape' in x)) throw new TypeError("norm() missing required argument 'x' (a Tensor)");
  const p = b.p ?? 'fro';
  const keepdim = Boolean(b.keepdim ?? false);
  let axis = b.axis ?? null;
  if (Array.isArray(axis) && axis.length === 1) axis = axis[0];
  if (axis !== null && !Number.isInteger(axis) && !(Array.isArray(axis) && axis.length === 2 && axis.every((d) => Number.isInteger(d))))
    throw new TypeError(`norm: axis must be None, an int or a list of one or two ints, got ${JSON.stringify(axis)}`);
  if (p === 'fro') {
    if (typeof axis === 'number') return callOp(p_norm, [x, { porder: 2, axis, keepdim }]);
    return callOp(frobenius_norm, [x, { axis: axis ?? [], keep_dim: keepdim, reduce_all: axis === null }]);
  }
  if (p === 'nuc' && Array.isArray(axis)) return matrixNorm(x as unknown as TensorLike, 'nuc', axis, keepdim);
  const porder = p === Infinity || p === 'inf' ? Infinity : p === -Infinity || p === '-inf' ? -Infinity : p;
  if (typeof porder !== 'number') throw new TypeError(`norm: p must be 'fro', inf, -inf or a number for vector norms, got ${JSON.stringify(p)}`);
  if (Array.isArray(axis)) return matrixNorm(x as unknown as TensorLike, porder, axis, keepdim);  // linalg_decomp_api.ts
  if (axis === null) return callOp(p_norm, [x, { porder, axis: -1, keepdim, asvector: true }]);
  return callOp(p_norm, [x, { porder, axis, keepdim }]);
}

// x.norm(p='fro', axis=None, keepdim=False), as Paddle's Tensor method.
Object.defineProperty(Tensor.prototype, 'norm', {
  value: function (this: Tensor, ...args: unknown[]) { return normApi(this, ...args); }, writable: true, configurable: true,
});

/** Public functions written by hand (mounted by src/paddle.ts). */
export const normFunctions: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'linalg.norm': normApi,
  norm: normApi,
};
