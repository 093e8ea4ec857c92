// Sorting along one axis (Paddle 2.6 signatures): argsort, sort, topk, kthvalue.
// Native: native/kernels/sort.cc (every lane along the axis is sorted or selected on its own;
// lanes are spread over threads).
//
// Order: NaN counts as greater than every number (last in ascending order, first in descending
// order, first among topk's largest), as Paddle's CPU kernels and numpy order it. Ties keep their
// input order in every op (stable), so `stable=True` costs nothing extra and indices are
// deterministic; topk's sorted=False returns the same sorted result (Paddle leaves the order
// unspecified).
//
// Kernel attribute layouts (axis already normalised):
//   argsort / sort  [axis, descending, stable]      outputs (out, int64 indices)
//   topk            [axis, k, largest, sorted]      outputs (out, int64 indices), axis dim = k
//   kthvalue        [axis, k, keepdim]              outputs (out, int64 indices), axis reduced
// A 0-dim input is one lane of length 1 (axis -1 or 0).
import { registerOp } from '../registry.js';
import { reducedShape } from '../infer.js';
import { type Dim, normAxis, shapeStr } from '../../tensor/shape.js';
import type { Attrs, OpDef, TensorMeta } from '../types.js';
import { type GradKit, kit } from '../grad_kit.js';

const SORT_DTYPES = new Set(['float16', 'bfloat16', 'float32', 'float64', 'int32', 'int64']);

function sortInput(op: string, x: TensorMeta): void {
  if (!SORT_DTYPES.has(x.dtype)) throw new TypeError(`${op}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got ${x.dtype}`);
}

function axisOf(op: string, a: Attrs, x: TensorMeta): number {
  if (!Number.isInteger(a.axis)) throw new TypeError(`${op}: axis must be an int, got ${JSON.stringify(a.axis)}`);
  return normAxis(a.axis as number, x.shape.length, op);
}

/** Length of the lane an op works along (1 for a 0-dim input). */
const laneLen = (x: TensorMeta, axis: number): Dim => (x.shape.length ? x.shape[axis] : 1);

/** k must be an int in [lo, n] (n checked only when static). */
function checkK(op: string, k: Attrs[string], x: TensorMeta, axis: number, lo: number): number {
  if (!Number.isInteger(k)) throw new TypeError(`${op}: k must be an int, got ${JSON.stringify(k)}`);
  const n = laneLen(x, axis);
  const kk = k as number;
  if (kk < lo || (typeof n === 'number' && kk > n))
    throw new RangeError(`${op}: k = ${kk} is out of range [${lo}, ${typeof n === 'number' ? n : 'n'}] for input shape ${shapeStr(x.shape)} along axis ${axis}`);
  return kk;
}

/**
 * Sends g (values taken from x at `idx` along `axis`; same shape as idx) back into zeros of x's
 * shape with put_along_axis (index_scatter.ts): O(size), and a public differentiable op, so the
 * rule differentiates again.
 */
function scatterBack<T>(k: GradKit<T>, g: T, idx: T, axis: number, xs: readonly number[]): T {
  if (xs.length === 0) return g;
  if (xs.some((d) => d === 0) || k.shape(g).some((d) => d === 0)) return k.full(xs, 0, k.dtype(g));
  return k.op('put_along_axis', [k.full(xs, 0, k.dtype(g)), idx, g], { axis, reduce: 'add', include_self: true, broadcast: false });
}

/** The values output's gradient goes to the elements its indices name (sort, topk, kthvalue). */
const routeByIndices = (op: string, reduced: boolean): Pick<OpDef, 'grad' | 'gradReads'> => ({
  grad: ({ inputs: [x], outputs: [, idx], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    if (!g) return [k.zerosOf(x!)];
    const axis = normAxis(attrs.axis as number, xs.length, op);
    const keep = reduced && !attrs.keepdim && xs.length > 0;
    const un = (t: typeof idx) => (keep ? k.op('unsqueeze', [t], { axis: [axis] }) : t);
    return [scatterBack(k, un(g), un(idx), axis, xs)];
  },
  gradReads: { outputs: [1] },
});

function sortDef(name: 'argsort' | 'sort'): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'axis', type: 'int', default: -1 }, { name: 'descending', type: 'bool', default: false }, { name: 'stable', type: 'bool', default: false }],
    outputs: ['out', 'indices'],
    kernel: 'argsort',
    infer: ([x], a) => {
      sortInput(name, x);
      axisOf(name, a, x);
      return [{ dtype: x.dtype, shape: x.shape }, { dtype: 'int64', shape: x.shape }];
    },
    encode: (a, [x]) => [axisOf(name, a, x), a.descending ? 1 : 0, a.stable ? 1 : 0],
    // paddle.argsort returns the indices, paddle.sort the values; both are the same kernel.
    api: { names: [name], methods: [name], returnOutput: name === 'argsort' ? 1 : 0 },
    ...routeByIndices(name, false),
  });
}

/** argsort(x, axis=-1, descending=False, stable=False): int64 indices that sort x along axis. */
export const argsort = sortDef('argsort');
/** sort(x, axis=-1, descending=False, stable=False): the sorted values. */
export const sort = sortDef('sort');

/** topk(x, k, axis=-1, largest=True, sorted=True): (values, int64 indices), axis dim k. */
export const topk = registerOp({
  name: 'topk',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'k', type: 'int' }, { name: 'axis', type: 'int', default: -1 }, { name: 'largest', type: 'bool', default: true }, { name: 'sorted', type: 'bool', default: true }],
  outputs: ['out', 'indices'],
  infer: ([x], a) => {
    sortInput('topk', x);
    const axis = axisOf('topk', a, x);
    const k = checkK('topk', a.k, x, axis, 0);
    if (x.shape.length === 0) return [{ dtype: x.dtype, shape: [] }, { dtype: 'int64', shape: [] }];
    const shape = x.shape.map((d, i) => (i === axis ? k : d));
    return [{ dtype: x.dtype, shape }, { dtype: 'int64', shape }];
  },
  encode: (a, [x]) => [axisOf('topk', a, x), a.k as number, a.largest ? 1 : 0, a.sorted ? 1 : 0],
  ...routeByIndices('topk', false),
});

/** kthvalue(x, k, axis=-1, keepdim=False): the k-th smallest value (1-based) and its int64 index. */
export const kthvalue = registerOp({
  name: 'kthvalue',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'k', type: 'int' }, { name: 'axis', type: 'int', default: -1 }, { name: 'keepdim', type: 'bool', default: false }],
  outputs: ['out', 'indices'],
  infer: ([x], a) => {
    sortInput('kthvalue', x);
    const axis = axisOf('kthvalue', a, x);
    checkK('kthvalue', a.k, x, axis, 1);
    const shape = x.shape.length ? reducedShape(x.shape, [axis], a.keepdim as boolean) : [];
    return [{ dtype: x.dtype, shape }, { dtype: 'int64', shape }];
  },
  encode: (a, [x]) => [axisOf('kthvalue', a, x), a.k as number, a.keepdim ? 1 : 0],
  ...routeByIndices('kthvalue', true),
});
