// paddle.linalg.pca_lowrank and paddle.linalg.cond: composites of registry ops (svd, qr, pinv,
// matmul, ...), so gradients and static recording come with them. Python mirrors this in
// compat/paddle/_linalg_decomp_api.py.
//  - pca_lowrank(x, q=None, center=True, niter=2): Paddle 2.6's randomized low-rank SVD of x
//    (minus its column means with center) -> (U [..., M, q], S [..., q], V [..., N, q]) with
//    x ~ U diag(S) V^T. A Gaussian [N, q] test matrix, a QR range finder, niter power iterations
//    (each re-orthonormalized by QR), then the SVD of the small Q^T x. Wide inputs go through
//    x^T so the basis is always the short side's.
//  - cond(x, p=None): p None/2/-2 from the singular values (any [..., M, N]); 'fro', 'nuc', inf,
//    -inf, 1, -1 as norm(x) * norm(inv(x)) for square x (inv through pinv; singular x gives inf
//    for the singular-value forms and a huge value for the others).
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { runOp, type TensorLike } from '../dispatch.js';
import { bindArgs } from './nn_util.js';

const op = (name: string, ins: TensorLike[], attrs: Record<string, unknown> = {}): TensorLike => runOp(name, ins, attrs)[0];
const mT = (x: TensorLike): TensorLike => {
  const r = x.shape.length;
  return op('transpose', [x], { perm: [...Array(r - 2).keys(), r - 1, r - 2] });
};
const mm = (a: TensorLike, b: TensorLike, ta = false, tb = false) => op('matmul', [a, b], { transpose_x: ta, transpose_y: tb });
const qrQ = (a: TensorLike) => runOp('qr', [a], { mode: 'reduced' })[0];

function requireMatrix(name: string, x: unknown): TensorLike & { shape: readonly number[] } {
  const t = x as TensorLike;
  if (!t || typeof t !== 'object' || !('shape' in t)) throw new TypeError(`${name}() missing required argument 'x' (a Tensor)`);
  if (t.dtype !== 'float32' && t.dtype !== 'float64') throw new TypeError(`${name}: expected x of dtype float32 or float64, got ${t.dtype}`);
  if (t.shape.length < 2) throw new ShapeError(`${name}: expected x of rank >= 2 ([..., M, N]), got shape ${shapeStr(t.shape)}`);
  if (!t.shape.every((d) => typeof d === 'number')) throw new ShapeError(`${name}: needs static matrix dims, got ${shapeStr(t.shape)}`);
  return t as TensorLike & { shape: readonly number[] };
}

/**
 * paddle.linalg.pca_lowrank(x, q=None, center=True, niter=2) -> (U, S, V).
 * @example const [U, S, V] = paddle.linalg.pca_lowrank(x, 3)
 */
export function pca_lowrank(...args: unknown[]): TensorLike[] {
  const b = bindArgs('pca_lowrank', ['x', 'q', 'center', 'niter'], args);
  const x = requireMatrix('pca_lowrank', b.x);
  const m = x.shape[x.shape.length - 2], n = x.shape[x.shape.length - 1];
  const q = (b.q ?? Math.min(6, m, n)) as number;
  if (!Number.isInteger(q) || q < 0 || q > Math.min(m, n)) throw new RangeError(`pca_lowrank: q must be an int in [0, min(M, N)] = [0, ${Math.min(m, n)}], got ${JSON.stringify(b.q)}`);
  const niter = (b.niter ?? 2) as number;
  if (!Number.isInteger(niter) || niter < 0) throw new RangeError(`pca_lowrank: niter must be an int >= 0, got ${JSON.stringify(b.niter)}`);
  const centered = (b.center ?? true) ? op('subtract', [x, op('mean', [x], { axis: [-2], keepdim: true })]) : x;
  // Work on the tall orientation: a [..., L, S] with L >= S, so Q is [..., L, q].
  const wide = m < n;
  const a = wide ? mT(centered) : centered;
  const s = Math.min(m, n);
  let Q = qrQ(mm(a, op('randn', [], { shape: [s, q], dtype: x.dtype })));
  for (let i = 0; i < niter; i++) Q = qrQ(mm(a, qrQ(mm(a, Q, true, false))));
  const [ub, S, vh] = runOp('svd', [mm(Q, a, true, false)], { full_matrices: false });
  const U = mm(Q, ub), V = mT(vh);
  return wide ? [V, S, U] : [U, S, V];
}

/**
 * paddle.linalg.cond(x, p=None): the condition number in norm p.
 * @example paddle.linalg.cond(paddle.to_tensor([[1, 2], [3, 4.]]))
 */
export function cond(...args: unknown[]): TensorLike {
  const b = bindArgs('cond', ['x', 'p'], args);
  const x = requireMatrix('cond', b.x);
  const p = b.p ?? null;
  const sv = () => runOp('svd', [x], { full_matrices: false })[1];
  if (p === null || p === 2 || p === -2) {
    const s = sv(), hi = op('max', [s], { axis: [-1] }), lo = op('min', [s], { axis: [-1] });
    return p === -2 ? op('divide', [lo, hi]) : op('divide', [hi, lo]);
  }
  const m = x.shape[x.shape.length - 2], n = x.shape[x.shape.length - 1];
  if (m !== n) throw new ShapeError(`cond: p=${String(p)} needs square matrices, got shape ${shapeStr(x.shape)}`);
  if (p === 'fro' || p === 'nuc') {
    const s = sv(), inv = op('reciprocal', [s]);
    const f = p === 'fro' ? (t: TensorLike) => op('sqrt', [op('sum', [op('square', [t])], { axis: [-1] })]) : (t: TensorLike) => op('sum', [t], { axis: [-1] });
    return op('multiply', [f(s), f(inv)]);
  }
  const pn = p === 'inf' ? Infinity : p === '-inf' ? -Infinity : p;
  if (pn !== Infinity && pn !== -Infinity && pn !== 1 && pn !== -1)
    throw new RangeError(`cond: p must be None, 2, -2, 'fro', 'nuc', inf, -inf, 1 or -1, got ${JSON.stringify(p)}`);
  // inf: max row sum of |x|; 1: max column sum (the negative orders take the min).
  const axis = pn === Infinity || pn === -Infinity ? -1 : -2;
  const pick = (pn as number) > 0 ? 'max' : 'min';
  const matNorm = (t: TensorLike) => op(pick, [op('sum', [op('abs', [t])], { axis: [axis] })], { axis: [-1] });
  return op('multiply', [matNorm(x), matNorm(op('pinv', [x], { rcond: 0 }))]);
}

/**
 * Matrix norms over two axes for paddle.linalg.norm (reduce_norm.ts): 'nuc' (sum of singular
 * values), 2 / -2 (largest / smallest singular value), 1 / -1 (max / min column sum of |x|),
 * inf / -inf (max / min row sum). 'fro' stays frobenius_norm.
 */
export function matrixNorm(x: TensorLike, p: number | string, axis: readonly number[], keepdim: boolean): TensorLike {
  const r = x.shape.length;
  const [a0, a1] = axis.map((a) => (a < 0 ? a + r : a));
  if (!(a0 >= 0 && a0 < r && a1 >= 0 && a1 < r) || a0 === a1)
    throw new RangeError(`norm: axis ${JSON.stringify(axis)} must be two different dims of an input of rank ${r}`);
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`norm: matrix norms need a float32 or float64 input, got ${x.dtype}`);
  // The matrix dims moved last, rows then columns, as axis gives them.
  const rest = [...Array(r).keys()].filter((d) => d !== a0 && d !== a1);
  const t = op('transpose', [x], { perm: [...rest, a0, a1] });
  let out: TensorLike;
  if (p === 'nuc' || p === 2 || p === -2) {
    const s = runOp('svd', [t], { full_matrices: false })[1];
    out = p === 'nuc' ? op('sum', [s], { axis: [-1] }) : op(p === 2 ? 'max' : 'min', [s], { axis: [-1] });
  } else if (p === 1 || p === -1 || p === Infinity || p === -Infinity) {
    const sums = op('sum', [op('abs', [t])], { axis: [Math.abs(p) === 1 ? -2 : -1] });
    out = op((p as number) > 0 ? 'max' : 'min', [sums], { axis: [-1] });
  } else {
    throw new RangeError(`norm: matrix norms take p in 'fro', 'nuc', 2, -2, 1, -1, inf, -inf, got ${JSON.stringify(p)}`);
  }
  return keepdim ? op('unsqueeze', [out], { axis: [Math.min(a0, a1), Math.max(a0, a1)] }) : out;
}

/** Public functions written by hand (mounted by src/paddle.ts). */
export const linalgDecompPublic: Readonly<Record<string, (...args: never[]) => unknown>> = {
  'linalg.pca_lowrank': pca_lowrank,
  'linalg.cond': cond,
};
