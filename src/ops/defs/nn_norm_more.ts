// group_norm and instance_norm (one native kernel, nn_norm_more.cc: instance_norm is group_norm
// with a group per channel). The ops follow Paddle's: inputs x, scale, bias; outputs y, mean and
// variance ([N, groups]; float32 for half inputs). The public functions take Paddle 2.6's
// argument order, which is not inputs-then-attributes, so they are bound by hand (`normMorePublic`):
//   F.group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format='NCHW')
//   F.instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
//                   use_input_stats=True, momentum=0.9, eps=1e-05, data_format='NCHW')
// (instance_norm always normalises with the input's statistics, as Paddle's dynamic mode does).
import { isFloating } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { bindArgs } from './nn_util.js';
import { NN_MISC_GRADS } from './nn_misc_grad.js';

const GN_FORMATS = ['NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC'];
const IN_FORMATS = ['NC', 'NCL', 'NCHW', 'NCDHW'];

function channelLast(op: string, a: Attrs, formats: string[], _rank: number): boolean {
  const f = a.data_format as string;
  if (!formats.includes(f)) throw new RangeError(`${op}: data_format must be one of ${formats.join(', ')}, got ${JSON.stringify(a.data_format)}`);
  return f[1] !== 'C';
}

function normInfer(op: string, ins: readonly (TensorMeta | null)[], a: Attrs, groups: number | null, cl: boolean): TensorMeta[] {
  const x = ins[0]!;
  if (x.shape.length < 2) throw new ShapeError(`${op}: input should have at least 2 dims [N, C, ...], got shape ${shapeStr(x.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
  const c = cl ? x.shape[x.shape.length - 1] : x.shape[1];
  const eps = a.epsilon as number;
  if (typeof eps !== 'number' || !(eps >= 0)) throw new RangeError(`${op}: epsilon must be a non-negative number, got ${JSON.stringify(a.epsilon)}`);
  if (groups !== null) {
    if (!Number.isInteger(groups) || groups <= 0) throw new RangeError(`${op}: num_groups must be a positive int, got ${JSON.stringify(groups)}`);
    if (typeof c === 'number' && c % groups !== 0) throw new ShapeError(`${op}: the number of channels ${c} of input ${shapeStr(x.shape)} must be divisible by num_groups ${groups}`);
  }
  for (const [i, what] of [[1, 'weight'], [2, 'bias']] as const) {
    const p = ins[i];
    if (!p) continue;
    if (p.dtype !== x.dtype) throw new TypeError(`${op}: ${what} dtype ${p.dtype} differs from input dtype ${x.dtype}`);
    if (p.shape.length !== 1 || (typeof c === 'number' && typeof p.shape[0] === 'number' && p.shape[0] !== c))
      throw new ShapeError(`${op}: ${what} must have shape [${c}] (the channels of x ${shapeStr(x.shape)}), got ${shapeStr(p.shape)}`);
  }
  const stat = { dtype: x.dtype === 'float64' ? 'float64' as const : 'float32' as const, shape: [x.shape[0], groups ?? c] };
  return [{ dtype: x.dtype, shape: x.shape }, stat, stat];
}

export const group_norm = registerOp({
  name: 'group_norm',
  inputs: [{ name: 'x' }, { name: 'scale', optional: true }, { name: 'bias', optional: true }],
  // groups has a default only because the optional scale/bias inputs precede it (Python signatures
  // allow no required parameter after defaulted ones); the public functions always pass it.
  attrs: [{ name: 'groups', type: 'int', default: 1 }, { name: 'epsilon', type: 'float', default: 1e-5 }, { name: 'data_format', type: 'str', default: 'NCHW' }],
  outputs: ['y', 'mean', 'variance'],
  infer: (ins: readonly (TensorMeta | null)[], a) => normInfer('group_norm', ins, a, a.groups as number, channelLast('group_norm', a, GN_FORMATS, ins[0]!.shape.length)),
  /** [epsilon, groups, channelLast, hasScale, hasBias] */
  encode: (a, ins) => [a.epsilon as number, a.groups as number, channelLast('group_norm', a, GN_FORMATS, ins[0].shape.length) ? 1 : 0, ins[1] ? 1 : 0, ins[2] ? 1 : 0],
  ...NN_MISC_GRADS.group_norm,  // nn_misc_grad.ts
  api: { names: [] },
});

export const instance_norm = registerOp({
  name: 'instance_norm',
  inputs: [{ name: 'x' }, { name: 'scale', optional: true }, { name: 'bias', optional: true }],
  attrs: [{ name: 'epsilon', type: 'float', default: 1e-5 }, { name: 'data_format', type: 'str', default: 'NCHW' }],
  outputs: ['y', 'saved_mean', 'saved_variance'],
  infer: (ins: readonly (TensorMeta | null)[], a) => normInfer('instance_norm', ins, a, null, channelLast('instance_norm', a, IN_FORMATS, ins[0]!.shape.length)),
  /** the group_norm kernel's layout with groups 0 (one per channel): [epsilon, 0, 0, hasScale, hasBias] */
  encode: (a, ins) => [a.epsilon as number, 0, 0, ins[1] ? 1 : 0, ins[2] ? 1 : 0],
  ...NN_MISC_GRADS.instance_norm,
  api: { names: [] },
});

function isTensorish(v: unknown): v is TensorMeta {
  return v !== null && typeof v === 'object' && 'shape' in (v as object) && 'dtype' in (v as object);
}

/** F.group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format='NCHW'). */
export function group_norm_api(...args: unknown[]): unknown {
  const p = bindArgs('group_norm', ['x', 'num_groups', 'epsilon', 'weight', 'bias', 'data_format'], args);
  if (!isTensorish(p.x)) throw new TypeError("group_norm() missing required argument 'x' (a Tensor)");
  const outs = callOp(group_norm, [p.x, p.weight ?? null, p.bias ?? null, { epsilon: p.epsilon ?? 1e-5, groups: p.num_groups, data_format: p.data_format ?? 'NCHW' }]);
  return (outs as unknown[])[0];
}

/** F.instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.9, eps=1e-05, data_format='NCHW'). */
export function instance_norm_api(...args: unknown[]): unknown {
  const p = bindArgs('instance_norm', ['x', 'running_mean', 'running_var', 'weight', 'bias', 'use_input_stats', 'momentum', 'eps', 'data_format'], args);
  if (!isTensorish(p.x)) throw new TypeError("instance_norm() missing required argument 'x' (a Tensor)");
  const outs = callOp(instance_norm, [p.x, p.weight ?? null, p.bias ?? null, { epsilon: p.eps ?? 1e-5, data_format: p.data_format ?? 'NCHW' }]);
  return (outs as unknown[])[0];
}

/** Public functions whose binding is written by hand, by dotted path below `paddle`. */
export const normMorePublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'nn.functional.group_norm': group_norm_api,
  'nn.functional.instance_norm': instance_norm_api,
};

const LRN_FORMATS: Record<number, string[]> = { 3: ['NCL', 'NLC'], 4: ['NCHW', 'NHWC'], 5: ['NCDHW', 'NDHWC'] };
function lrnChannelLast(x: TensorMeta, a: Attrs): boolean {
  const rank = x.shape.length;
  if (rank < 3 || rank > 5) throw new ShapeError(`local_response_norm: input should be a 3-D, 4-D or 5-D tensor, got shape ${shapeStr(x.shape)}`);
  const fmts = LRN_FORMATS[rank];
  if (!fmts.includes(a.data_format as string)) throw new RangeError(`local_response_norm: data_format must be '${fmts[0]}' or '${fmts[1]}' for a ${rank}-D input, got ${JSON.stringify(a.data_format)}`);
  return a.data_format === fmts[1];
}

/**
 * F.local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format='NCHW'):
 * x / (k + alpha * avg over `size` zero-padded channels of x^2) ^ beta, as Paddle composes it.
 */
export const local_response_norm = registerOp({
  name: 'local_response_norm',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'size', type: 'int' }, { name: 'alpha', type: 'float', default: 1e-4 }, { name: 'beta', type: 'float', default: 0.75 },
    { name: 'k', type: 'float', default: 1.0 }, { name: 'data_format', type: 'str', default: 'NCHW' }],
  outputs: ['out'],
  infer: (ins, a) => {
    const x = ins[0];
    lrnChannelLast(x, a);
    if (!isFloating(x.dtype)) throw new TypeError(`local_response_norm: expected a floating-point input, got ${x.dtype}`);
    if (!Number.isInteger(a.size) || (a.size as number) <= 0) throw new RangeError(`local_response_norm: size must be a positive int, got ${JSON.stringify(a.size)}`);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  /** [size, alpha, beta, k, channelLast] */
  encode: (a, ins) => [a.size as number, a.alpha as number, a.beta as number, a.k as number, lrnChannelLast(ins[0], a) ? 1 : 0],
  ...NN_MISC_GRADS.local_response_norm,
  api: { names: ['nn.functional.local_response_norm'] },
});
