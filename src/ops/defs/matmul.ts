// matmul(x, y, transpose_x, transpose_y) with numpy/paddle 1-D promotion and batch broadcasting;
// bmm for 3-D without broadcasting. Native: native/kernels/matmul.cc (blocked GEMM in native/gemm).
import { registerOp } from '../registry.js';
import { broadcastShapes, type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { OpDef, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';

function matmulShape(op: string, x: TensorMeta, y: TensorMeta, tx: boolean, ty: boolean): Dim[] {
  if (x.dtype !== y.dtype) throw new TypeError(`${op}: inputs have different dtypes ${x.dtype} and ${y.dtype}`);
  if (x.shape.length === 0 || y.shape.length === 0) throw new ShapeError(`${op}: 0-D inputs are not allowed (got ${shapeStr(x.shape)} and ${shapeStr(y.shape)})`);
  const xs = x.shape.length === 1 ? [1, x.shape[0]] : [...x.shape];
  const ys = y.shape.length === 1 ? [y.shape[0], 1] : [...y.shape];
  const xr = xs.length, yr = ys.length;
  let [m, kx] = [xs[xr - 2], xs[xr - 1]];
  let [ky, n] = [ys[yr - 2], ys[yr - 1]];
  if (tx && x.shape.length > 1) [m, kx] = [kx, m];
  if (ty && y.shape.length > 1) [ky, n] = [n, ky];
  if (typeof kx === 'number' && typeof ky === 'number' && kx !== ky) {
    throw new ShapeError(`${op}: cannot multiply shapes ${shapeStr(x.shape)} and ${shapeStr(y.shape)} (contraction dims ${kx} vs ${ky})`);
  }
  const batch = broadcastShapes(xs.slice(0, -2), ys.slice(0, -2), op);
  const out: Dim[] = [...batch];
  if (x.shape.length > 1) out.push(m);
  if (y.shape.length > 1) out.push(n);
  return out;
}

/**
 * Gradients of out = op(X) @ op(Y) (op = transpose when flagged). 1-D operands are first made
 * matrices as the forward does ([k] -> [1, k] for x, [k, 1] for y, flags ignored), g gets the
 * dropped dims back; results are summed over broadcast batch dims by sumTo.
 */
const matmulGrad: OpDef['grad'] = ({ inputs: [x0, y0], outGrads: [g0], attrs, needsGrad }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x0!), ys = k.shape(y0!);
  const x: typeof x0 = xs.length === 1 ? k.reshape(x0!, [1, xs[0]]) : x0!;
  const y: typeof x0 = ys.length === 1 ? k.reshape(y0!, [ys[0], 1]) : y0!;
  const tx = xs.length > 1 && Boolean(attrs.transpose_x), ty = ys.length > 1 && Boolean(attrs.transpose_y);
  let g: typeof x = g0!;
  const gs = k.shape(g);
  if (xs.length === 1 && ys.length === 1) g = k.reshape(g, [1, 1]);
  else if (xs.length === 1) g = k.reshape(g, [...gs.slice(0, -1), 1, gs[gs.length - 1]]);
  else if (ys.length === 1) g = k.reshape(g, [...gs, 1]);
  const mm = (a: typeof x0, b: typeof x0, ta: boolean, tb: boolean) => k.op('matmul', [a, b], { transpose_x: ta, transpose_y: tb });
  // out = X Y: dX = G Y^T, dY = X^T G; with X^T: dX = Y G^T, dY = X G; with Y^T: dX = G Y, dY = G^T X; both: dX = Y^T G^T, dY = G^T X^T.
  const dx = !needsGrad[0] ? null : !tx ? mm(g, y, false, !ty) : mm(y, g, ty, true);
  const dy = !needsGrad[1] ? null : !ty ? mm(x, g, !tx, false) : mm(g, x, true, tx);
  return [dx && k.reshape(k.sumTo(dx, k.shape(x)), xs), dy && k.reshape(k.sumTo(dy, k.shape(y)), ys)];
};

export const matmul = registerOp({
  name: 'matmul',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'transpose_x', type: 'bool', default: false }, { name: 'transpose_y', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x, y], a) => [{ dtype: x.dtype, shape: matmulShape('matmul', x, y, Boolean(a.transpose_x), Boolean(a.transpose_y)) }],
  grad: matmulGrad,
  gradReads: { inputs: [0, 1] },
  api: { names: ['matmul', 'linalg.matmul'], methods: ['matmul', 'mm'] },
});

export const bmm = registerOp({
  name: 'bmm',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    if (x.shape.length !== 3 || y.shape.length !== 3) throw new ShapeError(`bmm: inputs must be 3-D, got ${shapeStr(x.shape)} and ${shapeStr(y.shape)}`);
    if (typeof x.shape[0] === 'number' && typeof y.shape[0] === 'number' && x.shape[0] !== y.shape[0]) throw new ShapeError(`bmm: batch sizes differ: ${shapeStr(x.shape)} and ${shapeStr(y.shape)}`);
    return [{ dtype: x.dtype, shape: matmulShape('bmm', x, y, false, false) }];
  },
  gradReads: { inputs: [0, 1] },
  grad: (ctx, ops) => matmulGrad!({ ...ctx, attrs: { transpose_x: false, transpose_y: false } }, ops),
});
