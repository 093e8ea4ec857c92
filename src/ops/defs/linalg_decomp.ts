// Matrix decompositions and what is built on them (Paddle 2.6 signatures, float32/float64,
// inputs [..., M, N] batched over the leading dims). Native: native/kernels/linalg_decomp.cc.
//  - qr(x, mode='reduced'): q [..., M, K], r [..., K, N] (K = min(M, N)); 'complete': q
//    [..., M, M], r [..., M, N]; 'r': r [..., K, N] only. Kernel attrs: [mode code].
//  - svd(x, full_matrices=False): u, s (descending), vh. Attrs: [full_matrices].
//  - eigh(x, UPLO='L'): eigenvalues ascending, eigenvectors as columns; reads only the UPLO
//    triangle. eigvalsh(x, UPLO='L') returns the eigenvalues (the op also outputs the vectors,
//    which its gradient needs, as Paddle's does). Attrs: [upper].
//  - matrix_rank(x, tol=None, hermitian=False): int64; tol is absolute, None means
//    max(sigma) * max(M, N) * eps. Attrs: [has_tol, tol, hermitian].
//  - pinv(x, rcond=1e-15, hermitian=False): [..., N, M], singular values <= rcond * max dropped.
//  - lstsq(x, y, rcond=None, driver=None): solution, residuals, rank (int32), singular_values.
//    Shapes follow the driver as Paddle's: rank is empty for 'gels', singular_values only for
//    'gelsd'/'gelss', residuals [..., K] when M > N (Paddle leaves them empty for rank-deficient
//    inputs; shapes here must not depend on values, so they are always the squared residual
//    norms). Every driver returns the minimum-norm solution (computed through the SVD).
// Gradients (linalg_decomp_grad.ts) hold for distinct singular values / eigenvalues and for
// qr with M >= N (reduced), as Paddle's.
import { registerOp } from '../registry.js';
import { type Dim, ShapeError, shapeStr, SymDim } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { LINALG_DECOMP_GRADS } from './linalg_decomp_grad.js';

/** [..., M, N] of a float32/float64 input, or a TypeError/ShapeError naming the op. */
export function matrixDims(op: string, x: TensorMeta, what = 'x'): { lead: Dim[]; m: Dim; n: Dim } {
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${op}: expected ${what} of dtype float32 or float64, got ${x.dtype}`);
  if (x.shape.length < 2) throw new ShapeError(`${op}: expected ${what} of rank >= 2 ([..., M, N]), got shape ${shapeStr(x.shape)}`);
  const r = x.shape.length;
  return { lead: x.shape.slice(0, r - 2), m: x.shape[r - 2], n: x.shape[r - 1] };
}

const minDim = (a: Dim, b: Dim): Dim =>
  typeof a === 'number' && typeof b === 'number' ? Math.min(a, b) : a === b ? a : SymDim.of(`min(${String(a)}, ${String(b)})`);

function squareDims(op: string, x: TensorMeta): { lead: Dim[]; n: Dim } {
  const { lead, m, n } = matrixDims(op, x);
  if (typeof m === 'number' && typeof n === 'number' && m !== n) throw new ShapeError(`${op}: expected square matrices, got shape ${shapeStr(x.shape)}`);
  return { lead, n };
}

const QR_MODES: Record<string, number> = { reduced: 0, complete: 1, r: 2 };
function qrMode(a: Attrs): number {
  const code = QR_MODES[a.mode as string];
  if (code === undefined) throw new RangeError(`qr: mode must be 'reduced', 'complete' or 'r', got ${JSON.stringify(a.mode)}`);
  return code;
}

/** qr(x, mode='reduced'): (q, r), or r alone for mode 'r'. */
export const qr = registerOp({
  name: 'qr',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'mode', type: 'str', default: 'reduced' }],
  outputs: ['q', 'r'],
  infer: ([x], a) => {
    const { lead, m, n } = matrixDims('qr', x);
    const mode = qrMode(a), k = minDim(m, n);
    const r = { dtype: x.dtype, shape: [...lead, mode === 1 ? m : k, n] };
    return mode === 2 ? [r] : [{ dtype: x.dtype, shape: [...lead, m, mode === 1 ? m : k] }, r];
  },
  numOutputs: (_ins, a) => (qrMode(a) === 2 ? 1 : 2),
  encode: (a) => [qrMode(a)],
  ...LINALG_DECOMP_GRADS.qr,
  api: { names: ['linalg.qr'], methods: [], unwrapSingle: true },
});

/** svd(x, full_matrices=False): (u, s, vh) with x = u diag(s) vh. */
export const svd = registerOp({
  name: 'svd',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'full_matrices', type: 'bool', default: false }],
  outputs: ['u', 's', 'vh'],
  infer: ([x], a) => {
    const { lead, m, n } = matrixDims('svd', x);
    const k = minDim(m, n), full = Boolean(a.full_matrices);
    return [
      { dtype: x.dtype, shape: [...lead, m, full ? m : k] },
      { dtype: x.dtype, shape: [...lead, k] },
      { dtype: x.dtype, shape: [...lead, full ? n : k, n] },
    ];
  },
  encode: (a) => [a.full_matrices ? 1 : 0],
  ...LINALG_DECOMP_GRADS.svd,
  api: { names: ['linalg.svd'], methods: [] },
});

function uplo(op: string, a: Attrs): number {
  if (a.UPLO !== 'L' && a.UPLO !== 'U') throw new RangeError(`${op}: UPLO must be 'L' or 'U', got ${JSON.stringify(a.UPLO)}`);
  return a.UPLO === 'U' ? 1 : 0;
}
const eigInfer = (op: string) => ([x]: readonly TensorMeta[], a: Attrs): TensorMeta[] => {
  uplo(op, a);
  const { lead, n } = squareDims(op, x);
  return [{ dtype: x.dtype, shape: [...lead, n] }, { dtype: x.dtype, shape: [...lead, n, n] }];
};

/** eigh(x, UPLO='L'): (eigenvalues ascending, eigenvectors as columns) of a symmetric matrix. */
export const eigh = registerOp({
  name: 'eigh',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'UPLO', type: 'str', default: 'L' }],
  outputs: ['out_w', 'out_v'],
  infer: eigInfer('eigh'),
  encode: (a) => [uplo('eigh', a)],
  ...LINALG_DECOMP_GRADS.eigh,
  api: { names: ['linalg.eigh'], methods: [] },
});

/** eigvalsh(x, UPLO='L'): the eigenvalues, ascending. */
export const eigvalsh = registerOp({
  name: 'eigvalsh',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'UPLO', type: 'str', default: 'L' }],
  outputs: ['eigenvalues', 'eigenvectors'],
  infer: eigInfer('eigvalsh'),
  encode: (a) => [uplo('eigvalsh', a)],
  ...LINALG_DECOMP_GRADS.eigh,
  api: { names: ['linalg.eigvalsh'], methods: [], returnOutput: 0 },
});

function tolOf(a: Attrs): number | null {
  if (a.tol === null || a.tol === undefined) return null;
  if (typeof a.tol !== 'number' || Number.isNaN(a.tol)) throw new TypeError(`matrix_rank: tol must be a number or None, got ${JSON.stringify(a.tol)}`);
  return a.tol;
}

/** matrix_rank(x, tol=None, hermitian=False): int64 [...]. */
export const matrix_rank = registerOp({
  name: 'matrix_rank',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'tol', type: 'float', default: null }, { name: 'hermitian', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x], a) => {
    tolOf(a);
    const { lead } = a.hermitian ? squareDims('matrix_rank', x) : matrixDims('matrix_rank', x);
    return [{ dtype: 'int64', shape: lead }];
  },
  encode: (a) => { const t = tolOf(a); return [t === null ? 0 : 1, t ?? 0, a.hermitian ? 1 : 0]; },
  api: { names: ['linalg.matrix_rank'], methods: [] },
});

function rcondOf(op: string, v: Attrs[string], optional: boolean): number {
  if (optional && (v === null || v === undefined)) return NaN;
  if (typeof v !== 'number' || Number.isNaN(v) || (!optional && v < 0)) throw new TypeError(`${op}: rcond must be a ${optional ? 'number or None' : 'number >= 0'}, got ${JSON.stringify(v)}`);
  return v;
}

/** pinv(x, rcond=1e-15, hermitian=False): the Moore-Penrose pseudo-inverse, [..., N, M]. */
export const pinv = registerOp({
  name: 'pinv',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'rcond', type: 'float', default: 1e-15 }, { name: 'hermitian', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x], a) => {
    rcondOf('pinv', a.rcond, false);
    if (a.hermitian) { const { lead, n } = squareDims('pinv', x); return [{ dtype: x.dtype, shape: [...lead, n, n] }]; }
    const { lead, m, n } = matrixDims('pinv', x);
    return [{ dtype: x.dtype, shape: [...lead, n, m] }];
  },
  encode: (a) => [rcondOf('pinv', a.rcond, false), a.hermitian ? 1 : 0],
  ...LINALG_DECOMP_GRADS.pinv,
  api: { names: ['linalg.pinv'], methods: [] },
});

const DRIVERS: Record<string, number> = { gels: 0, gelsy: 1, gelsd: 2, gelss: 3 };
function driverOf(a: Attrs): number {
  const d = a.driver ?? 'gelsy';
  const code = DRIVERS[d as string];
  if (code === undefined) throw new RangeError(`lstsq: driver must be None, 'gels', 'gelsy', 'gelsd' or 'gelss', got ${JSON.stringify(a.driver)}`);
  return code;
}

/** lstsq(x, y, rcond=None, driver=None): (solution, residuals, rank, singular_values). */
export const lstsq = registerOp({
  name: 'lstsq',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'rcond', type: 'float', default: null }, { name: 'driver', type: 'str', default: null }],
  outputs: ['solution', 'residuals', 'rank', 'singular_values'],
  infer: ([x, y], a) => {
    rcondOf('lstsq', a.rcond, true);
    const drv = driverOf(a);
    const X = matrixDims('lstsq', x, 'x'), Y = matrixDims('lstsq', y, 'y');
    if (x.dtype !== y.dtype) throw new TypeError(`lstsq: x and y must have the same dtype, got ${x.dtype} and ${y.dtype}`);
    const sameLead = X.lead.length === Y.lead.length && X.lead.every((d, i) => typeof d !== 'number' || typeof Y.lead[i] !== 'number' || d === Y.lead[i]);
    if (!sameLead || (typeof X.m === 'number' && typeof Y.m === 'number' && X.m !== Y.m))
      throw new ShapeError(`lstsq: y must be [..., M, K] with x's batch dims and M, got x ${shapeStr(x.shape)} and y ${shapeStr(y.shape)}`);
    const tall = typeof X.m === 'number' && typeof X.n === 'number' ? X.m > X.n : true;
    return [
      { dtype: x.dtype, shape: [...X.lead, X.n, Y.n] },
      { dtype: x.dtype, shape: tall ? [...X.lead, Y.n] : [0] },
      { dtype: 'int32', shape: drv === 0 ? [0] : X.lead },
      { dtype: x.dtype, shape: drv >= 2 ? [...X.lead, minDim(X.m, X.n)] : [0] },
    ];
  },
  encode: (a) => [rcondOf('lstsq', a.rcond, true), driverOf(a)],
  ...LINALG_DECOMP_GRADS.lstsq,
  api: { names: ['linalg.lstsq'], methods: [] },
});
