// Records for the LU/Cholesky family (src/ops/defs/linalg_lu.ts): lu, lu_unpack, determinant,
// slogdeterminant, inverse, solve, triangular_solve, cholesky, cholesky_solve, matrix_power.
// References are plain double-precision loops (Gaussian elimination with the same partial
// pivoting rule, so pivots match exactly). Matrices are kept well-conditioned (a dominant
// diagonal), so float32 results agree to ~1e-5; 0-dim inputs are bad inputs (rank >= 2 needed).
import { addRecords } from '../op_db.js';
import { broadcastShape, nd, type NDArray, rand, size, unravel } from '../ref.js';

type M = number[];  // one row-major matrix

/** A random batch of well-conditioned square matrices: values in [-1, 1) plus `boost` on the diagonal. */
function wc(shape: number[], seed: number, boost = 3): NDArray {
  const x = rand(shape, 'float32', seed, -1, 1);
  const n = shape[shape.length - 1], r = shape[shape.length - 2];
  const data = x.data.map((v, i) => (Math.floor(i / n) % r === i % n ? v + boost : v));
  return { ...x, data: data.map(Math.fround) };
}
/** Symmetric positive definite: a a^T + n I of a random a. */
function spd(shape: number[], seed: number): NDArray {
  const a = rand(shape, 'float32', seed, -1, 1);
  const { lead, r, c, mats: ms } = split(a);
  return join(lead, r, c, ms.map((m) => mm(m, tr(m, r, c), r, c, r).map((v, i) => Math.fround(v + (Math.floor(i / r) === i % r ? r : 0)))), 'float32');
}

function split(x: NDArray): { lead: number[]; r: number; c: number; mats: M[] } {
  const s = x.shape, r = s[s.length - 2], c = s[s.length - 1], lead = s.slice(0, -2);
  const mats: M[] = [];
  for (let b = 0; b < size(lead); b++) mats.push(x.data.slice(b * r * c, (b + 1) * r * c));
  return { lead, r, c, mats };
}
const join = (lead: number[], r: number, c: number, ms: M[], dtype: NDArray['dtype'] = 'float32'): NDArray =>
  ({ shape: [...lead, r, c], data: ms.flat(), dtype });
/** Index into a batch of shape `lead` for broadcast batch index b of shape `out`. */
function bidx(lead: number[], out: number[], b: number): number {
  const idx = unravel(b, out), off = out.length - lead.length;
  let p = 0;
  for (let i = 0; i < lead.length; i++) p = p * lead[i] + (lead[i] === 1 ? 0 : idx[off + i]);
  return p;
}

const tr = (a: M, r: number, c: number): M => Array.from({ length: r * c }, (_, i) => a[(i % r) * c + Math.floor(i / r)]);
function mm(a: M, b: M, m: number, k: number, n: number): M {
  const o = new Array<number>(m * n).fill(0);
  for (let i = 0; i < m; i++) for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) o[i * n + j] += a[i * k + p] * b[p * n + j];
  return o;
}
const eye = (n: number): M => Array.from({ length: n * n }, (_, i) => (Math.floor(i / n) === i % n ? 1 : 0));

/** LAPACK-style getrf: returns packed LU, 0-based pivots and info. */
function luRef(a0: M, m: number, n: number, pivot = true): { lu: M; piv: number[]; info: number } {
  const a = [...a0], k = Math.min(m, n), piv: number[] = [];
  let info = 0;
  for (let j = 0; j < k; j++) {
    let p = j;
    if (pivot) for (let i = j + 1; i < m; i++) if (Math.abs(a[i * n + j]) > Math.abs(a[p * n + j])) p = i;
    piv.push(p);
    for (let q = 0; q < n; q++) [a[j * n + q], a[p * n + q]] = [a[p * n + q], a[j * n + q]];
    const d = a[j * n + j];
    if (d === 0) { info ||= j + 1; continue; }
    for (let i = j + 1; i < m; i++) {
      const l = a[i * n + j] / d;
      a[i * n + j] = l;
      for (let q = j + 1; q < n; q++) a[i * n + q] -= l * a[j * n + q];
    }
  }
  return { lu: a, piv, info };
}
/** A^-1 B (A n x n, B n x k) by LU; throws on singular A. */
function solveRef(A: M, B: M, n: number, k: number): M {
  const { lu, piv, info } = luRef(A, n, n);
  if (info) throw new Error('ref: singular');
  const x = [...B];
  for (let i = 0; i < n; i++) for (let q = 0; q < k; q++) [x[i * k + q], x[piv[i] * k + q]] = [x[piv[i] * k + q], x[i * k + q]];
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) for (let q = 0; q < k; q++) x[i * k + q] -= lu[i * n + j] * x[j * k + q];
  for (let i = n - 1; i >= 0; i--) {
    for (let j = i + 1; j < n; j++) for (let q = 0; q < k; q++) x[i * k + q] -= lu[i * n + j] * x[j * k + q];
    for (let q = 0; q < k; q++) x[i * k + q] /= lu[i * n + i];
  }
  return x;
}
/** The triangle of A (with ones on the diagonal when unit), as a full matrix. */
const triOf = (A: M, n: number, upper: boolean, unit: boolean): M =>
  A.map((v, i) => { const r = Math.floor(i / n), c = i % n; return r === c ? (unit ? 1 : v) : (upper ? c > r : c < r) ? v : 0; });
function cholRef(A: M, n: number): M {
  const L = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
    let s = A[i * n + j];
    for (let p = 0; p < j; p++) s -= L[i * n + p] * L[j * n + p];
    L[i * n + j] = i === j ? Math.sqrt(s) : s / L[j * n + j];
  }
  return L;
}

/** Runs f over the broadcast batch of (A [.., n, n], B [.., n, k]); returns [batch.., n, k]. */
function pairRef(A: NDArray, B: NDArray, f: (a: M, b: M, n: number, k: number) => M): NDArray {
  const sa = split(A), sb = split(B);
  const lead = broadcastShape(sa.lead, sb.lead);
  const out: M[] = [];
  for (let b = 0; b < size(lead); b++) out.push(f(sa.mats[bidx(sa.lead, lead, b)], sb.mats[bidx(sb.lead, lead, b)], sa.r, sb.c));
  return join(lead, sa.r, sb.c, out, A.dtype);
}
const R = (shape: number[], seed: number) => rand(shape, 'float32', seed, -1, 1);
const TOL = { atol: 1e-4, rtol: 1e-4 };
const BAD_DTYPE = (op: string, n = 1) => ({ inputs: Array(n).fill(nd([2, 2], [1, 0, 0, 1], 'int32')), error: new RegExp(`${op}: expected x of dtype float32 or float64, got int32`) });
const BAD_0DIM = (op: string, n = 1) => ({ inputs: Array(n).fill(nd([], [1])), error: new RegExp(`${op}: .*at least 2 dimensions`) });
const BAD_RECT = (op: string) => ({ inputs: [R([2, 3], 1)], error: new RegExp(`${op}: x must be a square matrix`) });

addRecords({
  op: 'lu',
  samples: [
    { inputs: [R([3, 3], 1)] },
    { inputs: [R([2, 4, 3], 2)], attrs: { get_infos: true } },
    { inputs: [R([3, 5], 3)], attrs: { get_infos: true }, note: 'wide' },
    { inputs: [nd([2, 2], [1, 2, 2, 4])], attrs: { get_infos: true }, note: 'singular: infos 2' },
    { inputs: [wc([3, 3], 4)], attrs: { pivot: false }, note: 'no pivoting' },
    { inputs: [R([4, 4], 5)], strided: true },
    { inputs: [nd([0, 3, 3], [])], attrs: { get_infos: true }, note: 'empty batch' },
    { inputs: [nd([2, 0, 0], [])], attrs: { get_infos: true }, note: '0 x 0 matrices' },
    { inputs: [R([64, 12, 12], 6)], note: 'threaded batch' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray, { lead, r, c, mats: ms } = split(X), k = Math.min(r, c);
    const res = ms.map((m) => luRef(m, r, c, attrs.pivot !== false));
    const outs = [join(lead, r, c, res.map((q) => q.lu), X.dtype), nd([...lead, k], res.flatMap((q) => q.piv.map((p) => p + 1)), 'int32')];
    if (attrs.get_infos) outs.push(nd(lead.length ? lead : [1], lead.length ? res.map((q) => q.info) : [res[0]?.info ?? 0], 'int32'));
    return outs;
  },
  dtypes: ['float64'],
  ...TOL,
  bad: [BAD_DTYPE('lu'), BAD_0DIM('lu')],
});

function packed(seed: number, shape: number[]): [NDArray, NDArray] {
  const X = R(shape, seed), { lead, r, c, mats: ms } = split(X);
  const res = ms.map((m) => luRef(m, r, c));
  return [join(lead, r, c, res.map((q) => q.lu.map(Math.fround))), nd([...lead, Math.min(r, c)], res.flatMap((q) => q.piv.map((p) => p + 1)), 'int32')];
}
addRecords({
  op: 'lu_unpack',
  samples: [
    { inputs: packed(1, [3, 3]) },
    { inputs: packed(2, [2, 4, 3]), note: 'tall' },
    { inputs: packed(3, [3, 5]), strided: true, note: 'wide' },
    { inputs: packed(4, [3, 3]), attrs: { unpack_ludata: false } },
    { inputs: packed(5, [3, 3]), attrs: { unpack_pivots: false } },
    { inputs: [nd([3, 2], [5, 6, 0.2, 0.8, 0.6, 0.5]), nd([2], [3, 3], 'int64')], note: "Paddle's example, int64 pivots" },
    { inputs: [nd([0, 2, 2], []), nd([0, 2], [], 'int32')], note: 'empty' },
  ],
  ref: ([x, p], attrs) => {
    const X = x as NDArray, piv = p as NDArray, { lead, r: m, c: n, mats: ms } = split(X), k = Math.min(m, n);
    const Ps: M[] = [], Ls: M[] = [], Us: M[] = [];
    ms.forEach((a, b) => {
      const perm = Array.from({ length: m }, (_, i) => i);
      for (let i = 0; i < k; i++) { const j = piv.data[b * k + i] - 1; [perm[i], perm[j]] = [perm[j], perm[i]]; }
      const P = new Array<number>(m * m).fill(0);
      if (attrs.unpack_pivots !== false) perm.forEach((row, col) => { P[row * m + col] = 1; });
      const ld = attrs.unpack_ludata !== false;
      Ps.push(P);
      Ls.push(Array.from({ length: m * k }, (_, i) => { const rr = Math.floor(i / k), cc = i % k; return !ld ? 0 : cc < rr ? a[rr * n + cc] : cc === rr ? 1 : 0; }));
      Us.push(Array.from({ length: k * n }, (_, i) => { const rr = Math.floor(i / n), cc = i % n; return ld && cc >= rr ? a[rr * n + cc] : 0; }));
    });
    return [join(lead, m, m, Ps, X.dtype), join(lead, m, k, Ls, X.dtype), join(lead, k, n, Us, X.dtype)];
  },
  dtypes: ['float64'],
  bad: [
    { inputs: [R([3, 3], 1), nd([2], [1, 2], 'int32')], error: /lu_unpack: pivots y must have shape \[3\]/ },
    { inputs: [R([3, 3], 1), nd([3], [1, 2, 3], 'float32')], error: /lu_unpack: pivots y must be int32 or int64/ },
    { inputs: [R([3, 3], 1), nd([3], [1, 7, 3], 'int32')], error: /lu_unpack: pivot 7 at position 1 of matrix 0 is out of range \[1, 3\]/ },
  ],
});

function detOf(a: M, n: number): [number, number, number] {
  const { lu, piv, info } = luRef(a, n, n);
  if (info) return [0, 0, -Infinity];
  let det = 1, sign = 1, la = 0;
  for (let i = 0; i < n; i++) {
    const d = lu[i * n + i];
    det *= piv[i] !== i ? -d : d;
    sign *= (piv[i] !== i ? -1 : 1) * Math.sign(d);
    la += Math.log(Math.abs(d));
  }
  return [det, sign, la];
}
const SQUARE_SAMPLES = [
  { inputs: [wc([3, 3], 1)] },
  { inputs: [R([2, 4, 4], 2)] },
  { inputs: [wc([1, 1], 3)], note: '1 x 1' },
  { inputs: [wc([5, 5], 4)], strided: true },
  { inputs: [nd([0, 3, 3], [])], note: 'empty batch' },
  { inputs: [wc([40, 6, 6], 5)], note: 'threaded batch' },
];
addRecords({
  op: 'determinant',
  samples: [...SQUARE_SAMPLES, { inputs: [nd([2, 2, 2], [1, 2, 2, 4, 0, 1, 1, 0])], note: 'singular, negative' }, { inputs: [nd([0, 0], [])], note: '0 x 0: 1' }],
  ref: ([x]) => { const X = x as NDArray, s = split(X); return { shape: s.lead, data: s.mats.map((m) => detOf(m, s.r)[0]), dtype: X.dtype }; },
  dtypes: ['float64'],
  ...TOL,
  bad: [BAD_DTYPE('determinant'), BAD_0DIM('determinant'), BAD_RECT('determinant')],
});
addRecords({
  op: 'slogdeterminant',
  samples: [...SQUARE_SAMPLES, { inputs: [nd([2, 2, 2], [1, 2, 2, 4, 0, 1, 1, 0])], note: 'singular: (0, -inf)' }],
  ref: ([x]) => {
    const X = x as NDArray, s = split(X), d = s.mats.map((m) => detOf(m, s.r));
    return { shape: [2, ...s.lead], data: [...d.map((v) => v[1]), ...d.map((v) => v[2])], dtype: X.dtype };
  },
  dtypes: ['float64'],
  ...TOL,
  bad: [BAD_DTYPE('slogdeterminant'), BAD_0DIM('slogdeterminant'), BAD_RECT('slogdeterminant')],
});
addRecords({
  op: 'inverse',
  samples: [...SQUARE_SAMPLES, { inputs: [nd([0, 0], [])], note: '0 x 0' }],
  ref: ([x]) => { const X = x as NDArray, s = split(X); return join(s.lead, s.r, s.r, s.mats.map((m) => solveRef(m, eye(s.r), s.r, s.r)), X.dtype); },
  dtypes: ['float64'],
  ...TOL,
  bad: [
    BAD_DTYPE('inverse'), BAD_0DIM('inverse'), BAD_RECT('inverse'),
    { inputs: [nd([2, 2, 2], [1, 0, 0, 1, 1, 2, 2, 4])], error: /inverse: matrix 1 of the batch \[2\] is singular/ },
  ],
});

addRecords({
  op: 'solve',
  samples: [
    { inputs: [wc([3, 3], 1), R([3, 2], 2)] },
    { inputs: [wc([3, 3], 3), R([3], 4)], note: 'vector rhs' },
    { inputs: [wc([2, 3, 3], 5), R([2, 3], 6)], note: 'batched vector rhs' },
    { inputs: [wc([2, 1, 3, 3], 7), R([4, 3, 2], 8)], note: 'broadcast batch' },
    { inputs: [wc([4, 4], 9), R([4, 3], 10)], strided: true },
    { inputs: [wc([3, 3], 11), nd([3, 0], [])], note: 'no columns' },
    { inputs: [wc([0, 2, 2], 12), R([2, 1], 13)], note: 'empty batch' },
  ],
  ref: ([x, y]) => {
    const X = x as NDArray, Y = y as NDArray;
    const vec = Y.shape.length === 1 || (Y.shape.length === X.shape.length - 1 && Y.shape.every((d, i) => d === X.shape[i]));
    if (!vec) return pairRef(X, Y, (a, b, n, k) => solveRef(a, b, n, k));
    const r = pairRef(X, { ...Y, shape: [...Y.shape, 1] }, (a, b, n, k) => solveRef(a, b, n, k));
    return { ...r, shape: r.shape.slice(0, -1) };
  },
  dtypes: ['float64'],
  ...TOL,
  bad: [
    BAD_DTYPE('solve', 2),
    { inputs: [R([2, 3], 1), R([2, 1], 2)], error: /solve: x must be a square matrix/ },
    { inputs: [wc([3, 3], 1), R([2, 1], 2)], error: /solve: x of shape \[3, 3\] needs y with 3 rows, got shape \[2, 1\]/ },
    { inputs: [wc([2, 3, 3], 1), R([3, 3, 1], 2)], error: /solve: .*cannot be broadcast/ },
    { inputs: [nd([2, 2], [1, 2, 2, 4]), R([2, 1], 2)], error: /solve: the matrix is singular/ },
    { inputs: [wc([2, 2], 1), nd([2, 1], [1, 2], 'float64')], error: /solve: x and y must have the same dtype/ },
  ],
});

const triRef = (upper: boolean, trans: boolean, unit: boolean) => (a: M, b: M, n: number, k: number): M => {
  const T = triOf(a, n, upper, unit);
  return solveRef(trans ? tr(T, n, n) : T, b, n, k);
};
addRecords({
  op: 'triangular_solve',
  samples: [
    { inputs: [wc([3, 3], 1), R([3, 2], 2)] },
    { inputs: [wc([3, 3], 3), R([3, 2], 4)], attrs: { upper: false } },
    { inputs: [wc([3, 3], 5), R([3, 2], 6)], attrs: { transpose: true } },
    { inputs: [wc([3, 3], 7), R([3, 2], 8)], attrs: { upper: false, transpose: true, unitriangular: true } },
    { inputs: [R([3, 3], 9), R([3, 1], 10)], attrs: { unitriangular: true }, note: 'unit diagonal ignores the stored one' },
    { inputs: [wc([2, 1, 3, 3], 11), R([4, 3, 2], 12)], note: 'broadcast batch' },
    { inputs: [wc([4, 4], 13), R([4, 3], 14)], attrs: { upper: false }, strided: true },
    { inputs: [wc([0, 2, 2], 15), R([2, 0], 16)], note: 'empty' },
  ],
  ref: ([x, y], a) => pairRef(x as NDArray, y as NDArray, triRef(a.upper !== false, Boolean(a.transpose), Boolean(a.unitriangular))),
  dtypes: ['float64'],
  ...TOL,
  bad: [
    BAD_DTYPE('triangular_solve', 2), BAD_0DIM('triangular_solve', 2),
    { inputs: [wc([3, 3], 1), R([2, 2], 2)], error: /triangular_solve: x of shape \[3, 3\] needs y with 3 rows/ },
    { inputs: [nd([2, 2], [1, 2, 0, 0]), R([2, 1], 2)], error: /triangular_solve: the matrix is singular \(the diagonal entry 1 is zero\)/ },
  ],
});

addRecords({
  op: 'cholesky',
  samples: [
    { inputs: [spd([3, 3], 1)] },
    { inputs: [spd([2, 4, 4], 2)], attrs: { upper: true } },
    { inputs: [spd([5, 5], 3)], strided: true },
    { inputs: [nd([0, 3, 3], [])], note: 'empty batch' },
    { inputs: [spd([32, 8, 8], 4)], note: 'threaded batch' },
  ],
  ref: ([x], a) => {
    const X = x as NDArray, s = split(X);
    return join(s.lead, s.r, s.r, s.mats.map((m) => { const L = cholRef(m, s.r); return a.upper ? tr(L, s.r, s.r) : L; }), X.dtype);
  },
  dtypes: ['float64'],
  ...TOL,
  bad: [
    BAD_DTYPE('cholesky'), BAD_0DIM('cholesky'), BAD_RECT('cholesky'),
    { inputs: [nd([2, 2, 2], [2, 0, 0, 2, 1, 2, 2, 1])], error: /cholesky: matrix 1 of the batch \[2\] is not positive definite \(its leading minor of order 2/ },
  ],
});

const cholFactor = (shape: number[], seed: number, upper = false): NDArray => {
  const A = spd(shape, seed), s = split(A);
  return join(s.lead, s.r, s.r, s.mats.map((m) => { const L = cholRef(m, s.r).map(Math.fround); return upper ? tr(L, s.r, s.r) : L; }));
};
addRecords({
  op: 'cholesky_solve',
  samples: [
    { inputs: [R([3, 2], 1), cholFactor([3, 3], 2)] },
    { inputs: [R([2, 4, 1], 3), cholFactor([2, 4, 4], 4, true)], attrs: { upper: true } },
    { inputs: [R([4, 3, 2], 5), cholFactor([2, 1, 3, 3], 6)], note: 'broadcast batch' },
    { inputs: [R([3, 3], 7), cholFactor([3, 3], 8)], strided: true },
    { inputs: [nd([0, 2, 1], []), cholFactor([2, 2], 9)], note: 'empty' },
  ],
  ref: ([x, y], a) => pairRef(y as NDArray, x as NDArray, (f, b, n, k) => {
    const T = triOf(f, n, Boolean(a.upper), false);
    const A = a.upper ? mm(tr(T, n, n), T, n, n, n) : mm(T, tr(T, n, n), n, n, n);
    return solveRef(A, b, n, k);
  }),
  dtypes: ['float64'],
  ...TOL,
  bad: [
    { inputs: [R([3, 2], 1), R([2, 3], 2)], error: /cholesky_solve: y \(the Cholesky factor\) must be a square matrix/ },
    { inputs: [R([2, 2], 1), R([3, 3], 2)], error: /cholesky_solve: y \(the Cholesky factor\) of shape \[3, 3\] needs x with 3 rows/ },
    { inputs: [R([2, 1], 1), nd([2, 2], [1, 0, 1, 0])], error: /cholesky_solve: the matrix is singular/ },
  ],
});

function powRef(a: M, n: number, e: number): M {
  const base = e < 0 ? solveRef(a, eye(n), n, n) : a;
  let r = eye(n);
  for (let i = 0; i < Math.abs(e); i++) r = mm(r, base, n, n, n);
  return r;
}
addRecords({
  op: 'matrix_power',
  samples: [
    { inputs: [R([3, 3], 1)], attrs: { n: 3 } },
    { inputs: [R([2, 4, 4], 2)], attrs: { n: 0 } },
    { inputs: [R([3, 3], 3)], attrs: { n: 1 } },
    { inputs: [wc([2, 3, 3], 4)], attrs: { n: -2 } },
    { inputs: [R([4, 4], 5)], attrs: { n: 6 }, strided: true },
    { inputs: [nd([0, 2, 2], [])], attrs: { n: 2 }, note: 'empty batch' },
    { inputs: [nd([0, 0], [])], attrs: { n: -1 }, note: '0 x 0' },
  ],
  ref: ([x], a) => { const X = x as NDArray, s = split(X); return join(s.lead, s.r, s.r, s.mats.map((m) => powRef(m, s.r, a.n as number)), X.dtype); },
  dtypes: ['float64'],
  ...TOL,
  bad: [
    { ...BAD_DTYPE('matrix_power'), attrs: { n: 2 } }, { ...BAD_RECT('matrix_power'), attrs: { n: 2 } },
    { inputs: [R([2, 2], 1)], attrs: { n: 1.5 }, error: /matrix_power: n must be an int/ },
    { inputs: [nd([2, 2], [1, 2, 2, 4])], attrs: { n: -1 }, error: /matrix_power: the matrix is singular/ },
  ],
});
