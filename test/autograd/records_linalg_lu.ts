// Gradient-check records for the LU/Cholesky family (src/ops/defs/linalg_lu_grad.ts), spread
// into MORE_RECORDS. Inputs are made well-conditioned inside each record (x + c I, or x x^T + c I
// for cholesky, whose kernel reads one triangle: a symmetric parametrization checks the usual
// symmetric gradient). Several records broadcast batch dims or pass transposed (strided) views.
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const T = (v: unknown) => v as Tensor;
const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const LA = paddle.linalg as unknown as Record<string, (...a: unknown[]) => unknown>;
const outsOf = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}) => runOp(name, ins, attrs) as Tensor[];
const mT = (x: Tensor) => { const r = x.shape.length; return T(paddle.transpose(x, [...Array(r - 2).keys(), r - 1, r - 2])); };
/** x + c I (x [..., n, n]). */
const wc = (x: Tensor, c = 2.5) => T(paddle.add(x, paddle.scale(T(P.eye(x.shape[x.shape.length - 1], x.shape[x.shape.length - 1], 'float64')), c)));
/** x x^T + n I: symmetric positive definite. */
const spd = (x: Tensor) => wc(T(paddle.matmul(x, x, false, true)), x.shape[x.shape.length - 1]);
const sq = (...s: number[]) => ({ shape: s });

export const LINALG_LU_RECORDS: GradRecord[] = [
  { op: 'determinant', inputs: [sq(3, 3)], fn: (x) => T(LA.det(wc(x))) },
  { op: 'determinant', label: 'batched, strided, negative det', inputs: [sq(2, 3, 3)], fn: (x) => T(LA.det(wc(mT(x), -2.5))) },
  { op: 'slogdeterminant', inputs: [sq(2, 3, 3)], fn: (x) => T(LA.slogdet(wc(x))) },
  { op: 'slogdeterminant', label: 'negative det', inputs: [sq(3, 3)], fn: (x) => T(LA.slogdet(wc(x, -2.5))) },
  { op: 'inverse', inputs: [sq(3, 3)], fn: (x) => T(LA.inv(wc(x))) },
  { op: 'inverse', label: 'batched, strided', inputs: [sq(2, 3, 3)], fn: (x) => T(paddle.inverse(wc(mT(x)))) },
  { op: 'solve', inputs: [sq(3, 3), sq(3, 2)], fn: (a, b) => T(LA.solve(wc(a), b)) },
  { op: 'solve', label: 'vector rhs', inputs: [sq(3, 3), sq(3)], fn: (a, b) => T(LA.solve(wc(a), b)) },
  { op: 'solve', label: 'batched vector rhs', inputs: [sq(2, 3, 3), sq(2, 3)], fn: (a, b) => T(LA.solve(wc(a), b)) },
  { op: 'solve', label: 'broadcast batch', inputs: [sq(2, 1, 3, 3), sq(2, 3, 1)], fn: (a, b) => T(LA.solve(wc(a), b)) },
  { op: 'triangular_solve', inputs: [sq(3, 3), sq(3, 2)], fn: (a, b) => T(LA.triangular_solve(wc(a), b)) },
  { op: 'triangular_solve', label: 'lower, transpose', inputs: [sq(3, 3), sq(3, 2)], fn: (a, b) => T(LA.triangular_solve(wc(a), b, false, true)) },
  { op: 'triangular_solve', label: 'upper, transpose, unit', inputs: [sq(3, 3), sq(3, 2)], fn: (a, b) => T(LA.triangular_solve(a, b, true, true, true)) },
  { op: 'triangular_solve', label: 'lower, unit, broadcast', inputs: [sq(2, 1, 3, 3), sq(2, 3, 2)], fn: (a, b) => T(LA.triangular_solve(a, b, { upper: false, unitriangular: true })) },
  { op: 'cholesky', inputs: [sq(3, 3)], fn: (x) => T(LA.cholesky(spd(x))) },
  { op: 'cholesky', label: 'upper, batched', inputs: [sq(2, 3, 3)], fn: (x) => T(LA.cholesky(spd(x), true)) },
  { op: 'cholesky_solve', inputs: [sq(3, 2), sq(3, 3)], fn: (b, f) => T(LA.cholesky_solve(b, wc(f))) },
  { op: 'cholesky_solve', label: 'upper, broadcast', inputs: [sq(2, 3, 1), sq(2, 1, 3, 3)], fn: (b, f) => T(LA.cholesky_solve(b, wc(f), true)) },
  { op: 'matrix_power', inputs: [sq(3, 3)], fn: (x) => T(LA.matrix_power(x, 3)) },
  { op: 'matrix_power', label: 'n = 1, batched', inputs: [sq(2, 2, 2)], fn: (x) => T(LA.matrix_power(x, 1)) },
  { op: 'matrix_power', label: 'n = 0', inputs: [sq(3, 3)], fn: (x) => T(paddle.add(LA.matrix_power(x, 0), x)) },
  { op: 'matrix_power', label: 'n = -2', inputs: [sq(3, 3)], fn: (x) => T(LA.matrix_power(wc(x), -2)) },
  { op: 'lu', inputs: [sq(3, 3)], fn: (x) => outsOf('lu', [x]) },
  { op: 'lu', label: 'batched, strided', inputs: [sq(2, 4, 4)], fn: (x) => outsOf('lu', [mT(x)]) },
  { op: 'lu_unpack', inputs: [sq(3, 3), { data: [3, 3, 3], shape: [3], dtype: 'int32' }], wrt: [0], fn: (x, p) => outsOf('lu_unpack', [x, p]) },
  { op: 'lu_unpack', label: 'tall', inputs: [sq(4, 2), { data: [2, 4], shape: [2], dtype: 'int32' }], wrt: [0], fn: (x, p) => outsOf('lu_unpack', [x, p]) },
  { op: 'lu_unpack', label: 'wide, batched', inputs: [sq(2, 2, 3), { data: [1, 2, 2, 2], shape: [2, 2], dtype: 'int32' }], wrt: [0], fn: (x, p) => outsOf('lu_unpack', [x, p]) },
];

/** Ops whose rules are differentiated again through create_graph (second order). */
export const LINALG_LU_SECOND_ORDER = ['determinant', 'slogdeterminant', 'inverse', 'solve', 'triangular_solve', 'cholesky', 'cholesky_solve', 'matrix_power', 'lu_unpack'];
