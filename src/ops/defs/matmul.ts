// matmul(x, y, transpose_x, transpose_y) with numpy/paddle 1-D promotion and batch broadcasting;
// bmm for 3-D without broadcasting. Native: native/kernels/matmul.cc (blocked GEMM in native/gemm).
import { registerOp } from '../registry.js';
import { broadcastShapes, type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { TensorMeta } from '../types.js';

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

export const matmul = registerOp({
  name: 'matmul',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'transpose_x', type: 'bool', default: false }, { name: 'transpose_y', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x, y], a) => [{ dtype: x.dtype, shape: matmulShape('matmul', x, y, Boolean(a.transpose_x), Boolean(a.transpose_y)) }],
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
});
