// Linear algebra built on LU and Cholesky (Paddle 2.6 op names and signatures; float32/float64,
// computed in the input dtype; inputs [..., M, N] batched over the leading dims).
// Native: native/kernels/linalg_lu.cc. Gradients: linalg_lu_grad.ts.
//  - lu(x, pivot=True, get_infos=False): packed LU (unit-lower L below the diagonal, U on and
//    above), 1-based int32 pivots [..., min(M, N)], and with get_infos the int32 infos ([...],
//    [1] for a single matrix: 0, or the 1-based index of the first exactly-zero pivot).
//    x may be rectangular. Kernel attrs: [pivot].
//  - lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True): (P [..., M, M], L [..., M, K],
//    U [..., K, N]) with x = P L U; an output not asked for is zeros.
//  - det / slogdet (ops determinant / slogdeterminant): slogdet returns one stacked tensor
//    [2, ...] of (sign, log|det|), as Paddle 2.6 (later versions return a tuple).
//  - inverse (paddle.inverse, paddle.linalg.inv), solve(x, y) (y a vector when 1-D or of x's
//    shape without the last dim; batch dims broadcast), triangular_solve(x, y, upper=True,
//    transpose=False, unitriangular=False), cholesky(x, upper=False), cholesky_solve(x, y,
//    upper=False) where x is the right-hand side and y the factor (Paddle's order), and
//    matrix_power(x, n) (negative n through the inverse).
// Singular inputs raise for inverse, solve, the triangular solves and negative powers; cholesky
// raises when x is not positive definite; det/slogdet return 0 / (0, -inf).
import { registerOp } from '../registry.js';
import { broadcastShapes, type Dim, ShapeError, shapeStr, SymDim } from '../../tensor/shape.js';
import type { TensorMeta } from '../types.js';
import { LINALG_LU_GRADS as G } from './linalg_lu_grad.js';

/** [..., M, N] of a float32/float64 operand, or an error naming the op. */
function mat(op: string, x: TensorMeta, what = 'x'): { lead: Dim[]; m: Dim; n: Dim } {
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${op}: expected ${what} of dtype float32 or float64, got ${x.dtype}`);
  if (x.shape.length < 2) throw new ShapeError(`${op}: ${what} must have at least 2 dimensions [*, M, N], got shape ${shapeStr(x.shape)}`);
  const r = x.shape.length;
  return { lead: x.shape.slice(0, r - 2), m: x.shape[r - 2], n: x.shape[r - 1] };
}

function square(op: string, x: TensorMeta, what = 'x'): { lead: Dim[]; n: Dim } {
  const { lead, m, n } = mat(op, x, what);
  if (typeof m === 'number' && typeof n === 'number' && m !== n)
    throw new ShapeError(`${op}: ${what} must be a square matrix or a batch of square matrices, got shape ${shapeStr(x.shape)}`);
  return { lead, n };
}

function sameDtype(op: string, x: TensorMeta, y: TensorMeta): void {
  if (x.dtype !== y.dtype) throw new TypeError(`${op}: x and y must have the same dtype, got ${x.dtype} and ${y.dtype}`);
}

function rowsMatch(op: string, n: Dim, rows: Dim, a: TensorMeta, b: TensorMeta, aName: string, bName: string): void {
  if (typeof n === 'number' && typeof rows === 'number' && n !== rows)
    throw new ShapeError(`${op}: ${aName} of shape ${shapeStr(a.shape)} needs ${bName} with ${n} rows, got shape ${shapeStr(b.shape)}`);
}

const minDim = (a: Dim, b: Dim): Dim =>
  typeof a === 'number' && typeof b === 'number' ? Math.min(a, b) : a === b ? a : SymDim.of(`min(${String(a)}, ${String(b)})`);

/** solve's rule for a vector right-hand side (Paddle's): 1-D, or x's shape without its last dim. */
export const isVectorRhs = (x: { shape: readonly Dim[] }, y: { shape: readonly Dim[] }): boolean =>
  y.shape.length === 1 || (y.shape.length === x.shape.length - 1 && y.shape.every((d, i) => d === x.shape[i]));

/** paddle.linalg.lu(x, pivot=True, get_infos=False): (LU, pivots) or (LU, pivots, infos). */
export const lu = registerOp({
  name: 'lu',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'pivot', type: 'bool', default: true }, { name: 'get_infos', type: 'bool', default: false }],
  outputs: ['out', 'pivots', 'infos'],
  infer: ([x], a) => {
    const { lead, m, n } = mat('lu', x);
    const outs: TensorMeta[] = [{ dtype: x.dtype, shape: [...x.shape] }, { dtype: 'int32', shape: [...lead, minDim(m, n)] }];
    if (a.get_infos) outs.push({ dtype: 'int32', shape: lead.length ? lead : [1] });
    return outs;
  },
  numOutputs: (_ins, a) => (a.get_infos ? 3 : 2),
  encode: (a) => [a.pivot ? 1 : 0],
  ...G.lu,
  api: { names: ['linalg.lu'], methods: ['lu'] },
});

/** paddle.linalg.lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True): (P, L, U). */
export const lu_unpack = registerOp({
  name: 'lu_unpack',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'unpack_ludata', type: 'bool', default: true }, { name: 'unpack_pivots', type: 'bool', default: true }],
  outputs: ['pmat', 'l', 'u'],
  infer: ([x, y]) => {
    const { lead, m, n } = mat('lu_unpack', x, 'x (the packed LU)');
    const k = minDim(m, n);
    if (y.dtype !== 'int32' && y.dtype !== 'int64') throw new TypeError(`lu_unpack: pivots y must be int32 or int64, got ${y.dtype}`);
    const want = [...lead, k];
    if (y.shape.length !== want.length || y.shape.some((d, i) => typeof d === 'number' && typeof want[i] === 'number' && d !== want[i]))
      throw new ShapeError(`lu_unpack: pivots y must have shape ${shapeStr(want)} for LU of shape ${shapeStr(x.shape)}, got ${shapeStr(y.shape)}`);
    return [{ dtype: x.dtype, shape: [...lead, m, m] }, { dtype: x.dtype, shape: [...lead, m, k] }, { dtype: x.dtype, shape: [...lead, k, n] }];
  },
  encode: (a) => [a.unpack_ludata ? 1 : 0, a.unpack_pivots ? 1 : 0],
  ...G.lu_unpack,
  api: { names: ['linalg.lu_unpack'], methods: ['lu_unpack'] },
});

/** paddle.linalg.det(x): the determinant of each matrix, shape [...]. */
export const determinant = registerOp({
  name: 'determinant',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => [{ dtype: x.dtype, shape: square('determinant', x).lead }],
  ...G.determinant,
  api: { names: ['linalg.det'], methods: [] },
});

/** paddle.linalg.slogdet(x): [2, ...] holding sign(det) and log|det|. */
export const slogdeterminant = registerOp({
  name: 'slogdeterminant',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => [{ dtype: x.dtype, shape: [2, ...square('slogdeterminant', x).lead] }],
  ...G.slogdeterminant,
  api: { names: ['linalg.slogdet'], methods: [] },
});

/** paddle.inverse(x) / paddle.linalg.inv(x). */
export const inverse = registerOp({
  name: 'inverse',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => { square('inverse', x); return [{ dtype: x.dtype, shape: [...x.shape] }]; },
  ...G.inverse,
  api: { names: ['inverse', 'linalg.inv'], methods: ['inverse'] },
});

/** paddle.linalg.solve(x, y): x^-1 y for square x [..., M, M] and y [..., M, K] or a vector. */
export const solve = registerOp({
  name: 'solve',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    const { lead, n } = square('solve', x);
    sameDtype('solve', x, y);
    if (y.shape.length === 0) throw new ShapeError(`solve: y must have at least 1 dimension, got shape ${shapeStr(y.shape)}`);
    const vec = isVectorRhs(x, y), r = y.shape.length;
    rowsMatch('solve', n, vec ? y.shape[r - 1] : y.shape[r - 2], x, y, 'x', 'y');
    const batch = broadcastShapes(lead, y.shape.slice(0, vec ? r - 1 : r - 2), 'solve');
    return [{ dtype: x.dtype, shape: vec ? [...batch, n] : [...batch, n, y.shape[r - 1]] }];
  },
  ...G.solve,
  api: { names: ['linalg.solve'], methods: ['solve'] },
});

/** Shapes of a triangular system: A [..., N, N] and B [..., N, K]; the result [..., N, K]. */
function triInfer(op: string, a: TensorMeta, b: TensorMeta, aName: string, bName: string): TensorMeta[] {
  const { lead, n } = square(op, a, aName);
  const B = mat(op, b, bName);
  sameDtype(op, a, b);
  rowsMatch(op, n, B.m, a, b, aName, bName);
  return [{ dtype: a.dtype, shape: [...broadcastShapes(lead, B.lead, op), n, B.n] }];
}

/** paddle.linalg.triangular_solve(x, y, upper=True, transpose=False, unitriangular=False). */
export const triangular_solve = registerOp({
  name: 'triangular_solve',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [
    { name: 'upper', type: 'bool', default: true },
    { name: 'transpose', type: 'bool', default: false },
    { name: 'unitriangular', type: 'bool', default: false },
  ],
  outputs: ['out'],
  infer: ([x, y]) => triInfer('triangular_solve', x, y, 'x', 'y'),
  encode: (a) => [a.upper ? 1 : 0, a.transpose ? 1 : 0, a.unitriangular ? 1 : 0],
  ...G.triangular_solve,
  api: { names: ['linalg.triangular_solve'], methods: ['triangular_solve'] },
});

/** paddle.linalg.cholesky(x, upper=False): L with x = L L^T (or U with x = U^T U); reads x's lower triangle. */
export const cholesky = registerOp({
  name: 'cholesky',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'upper', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x]) => { square('cholesky', x); return [{ dtype: x.dtype, shape: [...x.shape] }]; },
  encode: (a) => [a.upper ? 1 : 0],
  ...G.cholesky,
  api: { names: ['cholesky', 'linalg.cholesky'], methods: ['cholesky'] },
});

/** paddle.linalg.cholesky_solve(x, y, upper=False): solves (y y^T) out = x, y the Cholesky factor. */
export const cholesky_solve = registerOp({
  name: 'cholesky_solve',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'upper', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x, y]) => triInfer('cholesky_solve', y, x, 'y (the Cholesky factor)', 'x'),
  encode: (a) => [a.upper ? 1 : 0],
  ...G.cholesky_solve,
  api: { names: ['linalg.cholesky_solve'], methods: ['cholesky_solve'] },
});

/** paddle.linalg.matrix_power(x, n): x multiplied by itself n times (n < 0: of its inverse). */
export const matrix_power = registerOp({
  name: 'matrix_power',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'n', type: 'int' }],
  outputs: ['out'],
  infer: ([x], a) => {
    if (!Number.isSafeInteger(a.n)) throw new TypeError(`matrix_power: n must be an int, got ${JSON.stringify(a.n)}`);
    square('matrix_power', x);
    return [{ dtype: x.dtype, shape: [...x.shape] }];
  },
  encode: (a) => [a.n as number],
  ...G.matrix_power,
  api: { names: ['matrix_power', 'linalg.matrix_power'], methods: ['matrix_power'] },
});
