// Simple products (Paddle 2.6 signatures): dot, outer, kron, cross. Native:
// native/kernels/linalg_products.cc. einsum is a composite of registry ops (einsum.ts).
//
// Dtypes: float16, bfloat16, float32, float64, int32, int64; x and y must share one (Paddle's
// kernels do not promote). Gradients are written with public ops: dot and outer through
// multiply/matmul, kron by viewing the output as [x0, y0, x1, y1, ...], cross through cross.
import { type Dim, dimMul, isStatic, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import { kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { TensorMeta } from '../types.js';

const NUMERIC = ['float16', 'bfloat16', 'float32', 'float64', 'int32', 'int64'];

function pairDType(op: string, x: TensorMeta, y: TensorMeta): void {
  if (x.dtype !== y.dtype) throw new TypeError(`${op}: x and y must have the same dtype, got ${x.dtype} and ${y.dtype}`);
  if (!NUMERIC.includes(x.dtype)) throw new TypeError(`${op}: expected float16, bfloat16, float32, float64, int32 or int64 inputs, got ${x.dtype}`);
}

const sameDims = (a: readonly Dim[], b: readonly Dim[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/** paddle.dot(x, y): [N]·[N] -> 0-dim; [B, N]·[B, N] -> [B] (row-wise). */
export const dot = registerOp({
  name: 'dot',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    pairDType('dot', x, y);
    if (x.shape.length < 1 || x.shape.length > 2 || !sameDims(x.shape, y.shape))
      throw new ShapeError(`dot: x and y must be 1-D or 2-D tensors of the same shape, got ${shapeStr(x.shape)} and ${shapeStr(y.shape)}`);
    return [{ dtype: x.dtype, shape: x.shape.length === 2 ? [x.shape[0]] : [] }];
  },
  gradReads: { inputs: [0, 1] },
  grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    // g has one value per row: unsqueeze it over the row's elements.
    const gg = k.rank(x!) === 2 ? k.op('unsqueeze', [g!], { axis: [-1] }) : g!;
    return [needsGrad[0] ? k.mul(gg, y!) : null, needsGrad[1] ? k.mul(gg, x!) : null];
  },
  api: { names: ['dot', 'linalg.dot'], methods: ['dot'] },
});

/** paddle.outer(x, y): x and y flattened, out[i, j] = x[i] y[j]. */
export const outer = registerOp({
  name: 'outer',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    pairDType('outer', x, y);
    const n = (s: readonly Dim[]): Dim => s.reduce<Dim>((p, d) => dimMul(p, d), 1);
    return [{ dtype: x.dtype, shape: [n(x.shape), n(y.shape)] }];
  },
  gradReads: { inputs: [0, 1] },
  grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!), ys = k.shape(y!);
    const xf = k.reshape(x!, [-1]), yf = k.reshape(y!, [-1]);
    // dx = g y, dy = g^T x (matrix-vector products as matmul with a vector).
    return [
      needsGrad[0] ? k.reshape(k.op('matmul', [g!, yf]), xs) : null,
      needsGrad[1] ? k.reshape(k.op('matmul', [g!, xf], { transpose_x: true }), ys) : null,
    ];
  },
  api: { names: ['outer'], methods: ['outer'] },
});

/** Shapes of x and y padded with leading 1s to the output's rank. */
function kronShapes(x: readonly number[], y: readonly number[]): [number[], number[]] {
  const r = Math.max(x.length, y.length);
  return [[...Array(r - x.length).fill(1), ...x], [...Array(r - y.length).fill(1), ...y]];
}

/** paddle.kron(x, y): the Kronecker product; ranks aligned at the right, out dim = x dim * y dim. */
export const kron = registerOp({
  name: 'kron',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    pairDType('kron', x, y);
    const r = Math.max(x.shape.length, y.shape.length);
    const at = (s: readonly Dim[], i: number): Dim => (i < r - s.length ? 1 : s[i - (r - s.length)]);
    return [{ dtype: x.dtype, shape: Array.from({ length: r }, (_, i) => dimMul(at(x.shape, i), at(y.shape, i))) }];
  },
  gradReads: { inputs: [0, 1] },
  // out viewed as [x0, y0, x1, y1, ...] is x[a] * y[b] with x at the even axes and y at the odd
  // ones: dx sums g * y over the odd axes, dy sums g * x over the even ones.
  grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const [xs, ys] = kronShapes(k.shape(x!), k.shape(y!));
    const r = xs.length;
    const split = k.reshape(g!, xs.flatMap((d, i) => [d, ys[i]]));
    const even = Array.from({ length: r }, (_, i) => 2 * i), odd = even.map((i) => i + 1);
    const xe = k.reshape(x!, xs.flatMap((d) => [d, 1])), ye = k.reshape(y!, ys.flatMap((d) => [1, d]));
    return [
      needsGrad[0] ? k.reshape(k.sum(k.mul(split, ye), odd), k.shape(x!)) : null,
      needsGrad[1] ? k.reshape(k.sum(k.mul(split, xe), even), k.shape(y!)) : null,
    ];
  },
  api: { names: ['kron'], methods: ['kron'] },
});

/** Paddle's cross axis: 9 (the default) is the first axis of size 3; others must have size 3. */
function crossAxis(shape: readonly Dim[], axis: unknown): number {
  if (typeof axis !== 'number' || !Number.isInteger(axis)) throw new TypeError(`cross: axis must be an int, got ${JSON.stringify(axis)}`);
  if (axis === 9) {
    const i = shape.findIndex((d) => d === 3);
    if (i < 0) throw new ShapeError(`cross: no axis of size 3 in shape ${shapeStr(shape)} (axis=9 picks the first one)`);
    return i;
  }
  const a = normAxis(axis, shape.length, 'cross');
  if (isStatic([shape[a]]) && shape[a] !== 3) throw new ShapeError(`cross: the size of axis ${axis} must be 3, got shape ${shapeStr(shape)}`);
  return a;
}

/** paddle.cross(x, y, axis=9) and paddle.linalg.cross: the cross product of 3-vectors along axis. */
export const cross = registerOp({
  name: 'cross',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'axis', type: 'int', default: 9 }],
  outputs: ['out'],
  infer: ([x, y], a) => {
    pairDType('cross', x, y);
    if (!sameDims(x.shape, y.shape)) throw new ShapeError(`cross: x and y must have the same shape, got ${shapeStr(x.shape)} and ${shapeStr(y.shape)}`);
    crossAxis(x.shape, a.axis);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: (a, [x]) => [crossAxis(x.shape, a.axis)],
  gradReads: { inputs: [0, 1] },
  // <g, x × y> = <x, y × g> = <y, g × x>.
  grad: ({ inputs: [x, y], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const axis = crossAxis(k.shape(x!), attrs.axis);
    return [
      needsGrad[0] ? k.op('cross', [y!, g!], { axis }) : null,
      needsGrad[1] ? k.op('cross', [g!, x!], { axis }) : null,
    ];
  },
  api: { names: ['cross', 'linalg.cross'], methods: ['cross'] },
});
