// Records for qr, svd, eigh, eigvalsh, matrix_rank, pinv and lstsq (src/ops/defs/linalg_decomp.ts).
// Decompositions are unique only up to signs of their vectors, so their records are custom checks
// of what is unique: reconstruction (Q R = x, U S Vh = x, A V = V diag(w)), orthonormality,
// R upper triangular, and the values (singular values, eigenvalues) against plain Jacobi
// references in double. pinv, lstsq and matrix_rank are unique and compared by value.
import { expect } from 'vitest';
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand, size } from '../ref.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
/** [..., m, n] of rank r: (m x r) (r x n) products of random factors. */
function lowRank(lead: number[], m: number, n: number, r: number, seed: number): NDArray {
  const a = rand([...lead, m, r], 'float64', seed), b = rand([...lead, r, n], 'float64', seed + 100);
  const batch = size(lead), out: number[] = [];
  for (let t = 0; t < batch; t++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < r; p++) s += a.data[t * m * r + i * r + p] * b.data[t * r * n + p * n + j];
        out.push(s);
      }
  return asDType({ shape: [...lead, m, n], data: out, dtype: 'float32' }, 'float32');
}
/** Symmetric [..., n, n]. */
function sym(lead: number[], n: number, seed: number): NDArray {
  const a = r32([...lead, n, n], seed);
  const d = a.data.slice();
  for (let t = 0; t < size(lead); t++)
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) d[t * n * n + j * n + i] = d[t * n * n + i * n + j];
  return { ...a, data: d };
}

// ---- plain references (double) ------------------------------------------------------------------

type Mat = number[];  // row-major
const matAt = (x: NDArray, b: number): { a: Mat; m: number; n: number } => {
  const m = x.shape[x.shape.length - 2], n = x.shape[x.shape.length - 1];
  return { a: x.data.slice(b * m * n, (b + 1) * m * n), m, n };
};
const batchOf = (x: NDArray): number => size(x.shape.slice(0, -2));

/** One-sided Jacobi on the columns: a V = C with orthogonal columns; a = sum_j c_j v_j^T. */
function refSvd(a: Mat, m: number, n: number): { s: number[]; cols: number[][]; vs: number[][] } {
  const cols = Array.from({ length: n }, (_, j) => Array.from({ length: m }, (_, i) => a[i * n + j]));
  const vs = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, i) => (i === j ? 1 : 0)));
  const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i], 0);
  for (let sweep = 0; sweep < 100; sweep++) {
    let rotated = false;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const al = dot(cols[i], cols[i]), be = dot(cols[j], cols[j]), g = dot(cols[i], cols[j]);
        if (Math.abs(g) <= 1e-15 * Math.sqrt(al * be)) continue;
        rotated = true;
        const z = (be - al) / (2 * g), t = Math.sign(z || 1) / (Math.abs(z) + Math.sqrt(1 + z * z));
        const c = 1 / Math.sqrt(1 + t * t), s = c * t;
        for (const [p, q] of [[cols[i], cols[j]], [vs[i], vs[j]]]) for (let k = 0; k < p.length; k++) { const x = p[k], y = q[k]; p[k] = c * x - s * y; q[k] = s * x + c * y; }
      }
    if (!rotated) break;
  }
  const s = cols.map((c) => Math.sqrt(dot(c, c)));
  return { s, cols, vs };
}
const singular = (a: Mat, m: number, n: number): number[] => refSvd(a, m, n).s.sort((x, y) => y - x).slice(0, Math.min(m, n));

/** Eigenvalues (ascending) of a symmetric matrix by cyclic Jacobi. */
function refEig(a0: Mat, n: number): number[] {
  const a = a0.slice();
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const th = (a[q * n + q] - a[p * n + p]) / (2 * apq), t = Math.sign(th || 1) / (Math.abs(th) + Math.sqrt(th * th + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let r = 0; r < n; r++) { const x = a[r * n + p], y = a[r * n + q]; a[r * n + p] = c * x - s * y; a[r * n + q] = s * x + c * y; }
        for (let r = 0; r < n; r++) { const x = a[p * n + r], y = a[q * n + r]; a[p * n + r] = c * x - s * y; a[q * n + r] = s * x + c * y; }
      }
  }
  return Array.from({ length: n }, (_, i) => a[i * n + i]).sort((x, y) => x - y);
}
/** The symmetric matrix the op reads from the UPLO triangle. */
const fromTriangle = (a: Mat, n: number, upper: boolean): Mat =>
  a.map((_, k) => { const i = Math.floor(k / n), j = k % n; return (i >= j) !== upper || i === j ? a[k] : a[j * n + i]; });

function refPinv(a: Mat, m: number, n: number, rcond: number): Mat {
  const { s, cols, vs } = refSvd(a, m, n);
  const cut = rcond * Math.max(0, ...s);
  const out = new Array<number>(n * m).fill(0);
  s.forEach((sv, t) => {
    if (!(sv > cut) || sv === 0) return;
    for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) out[i * m + j] += (vs[t][i] * cols[t][j]) / (sv * sv);
  });
  return out;
}
const matmul = (a: Mat, b: Mat, m: number, k: number, n: number): Mat => {
  const o = new Array<number>(m * n).fill(0);
  for (let i = 0; i < m; i++) for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) o[i * n + j] += a[i * k + p] * b[p * n + j];
  return o;
};
const tr = (a: Mat, m: number, n: number): Mat => Array.from({ length: m * n }, (_, k) => a[(k % m) * n + Math.floor(k / m)]);
const eps = (dt: DType): number => (dt === 'float32' ? 2e-4 : 1e-9);

/** |got - want| <= tol * (1 + max |want|) elementwise. */
function near(got: number[], want: number[], tol: number, what: string): void {
  expect(got.length, `${what}: size`).toBe(want.length);
  const scale = 1 + Math.max(0, ...want.map(Math.abs));
  got.forEach((g, i) => expect(Math.abs(g - want[i]), `${what}[${i}] ${g} vs ${want[i]}`).toBeLessThanOrEqual(tol * scale));
}
const eye = (n: number): Mat => Array.from({ length: n * n }, (_, k) => (Math.floor(k / n) === k % n ? 1 : 0));

const MATRICES = (): Sample[] => [
  { inputs: [r32([3, 3], 1)] },
  { inputs: [r32([5, 3], 2)], note: 'tall' },
  { inputs: [r32([3, 5], 3)], note: 'wide' },
  { inputs: [r32([2, 4, 3], 4)], note: 'batched' },
  { inputs: [lowRank([], 5, 4, 2, 5)], note: 'rank-deficient' },
  { inputs: [lowRank([], 3, 6, 1, 6)], note: 'rank 1 wide' },
  { inputs: [nd([3, 3], [0, 0, 0, 0, 0, 0, 0, 0, 0])], note: 'zero matrix' },
  { inputs: [nd([1, 1], [-2.5])], note: '1x1' },
  { inputs: [nd([0, 3, 3], [])], note: 'empty batch' },
  { inputs: [nd([4, 0], [])], note: 'empty matrix' },
  { inputs: [r32([4, 5], 7)], strided: true },
  { inputs: [r32([48, 6, 5], 8)], note: 'threaded batch' },
  { inputs: [r32([70, 60], 9)], note: 'one large matrix' },
];
const dtypeBad = (op: string) => [
  { inputs: [nd([], [1])], error: new RegExp(`${op}: expected x of rank >= 2 \\(\\[\\.\\.\\., M, N\\]\\), got shape \\[\\]`) },
  { inputs: [nd([2, 2], [1, 2, 3, 4], 'int32')], error: new RegExp(`${op}: expected x of dtype float32 or float64, got int32`) },
  { inputs: [nd([2, 2], [1, 2, 3, 4], 'float16')], error: new RegExp(`${op}: expected x of dtype float32 or float64, got float16`) },
];

addRecords({
  op: 'qr',
  samples: MATRICES().flatMap((s) => [s, { ...s, attrs: { mode: 'complete' } }, { ...s, attrs: { mode: 'r' } }]),
  check: 'custom',
  ref: (all, attrs) => {
    const x = all[0] as NDArray;
    const mode = (attrs.mode as string) ?? 'reduced';
    const outs = all.slice(1) as NDArray[];
    const m = x.shape[x.shape.length - 2], n = x.shape[x.shape.length - 1], k = Math.min(m, n), lead = x.shape.slice(0, -2);
    const qc = mode === 'complete' ? m : k, rr = mode === 'complete' ? m : k;
    const r = outs[mode === 'r' ? 0 : 1];
    expect(outs.length, 'qr: outputs').toBe(mode === 'r' ? 1 : 2);
    expect(r.shape, 'qr: r shape').toEqual([...lead, rr, n]);
    expect(r.dtype).toBe(x.dtype);
    const tol = eps(x.dtype);
    for (let b = 0; b < batchOf(x); b++) {
      const { a } = matAt(x, b);
      const R = r.data.slice(b * rr * n, (b + 1) * rr * n);
      R.forEach((v, i) => { if (i % n < Math.floor(i / n)) expect(v, 'qr: r is upper triangular').toBe(0); });
      near(matmul(tr(R, rr, n), R, n, rr, n), matmul(tr(a, m, n), a, n, m, n), tol, 'qr: R^T R = x^T x');
      if (mode === 'r') continue;
      const q = outs[0];
      expect(q.shape, 'qr: q shape').toEqual([...lead, m, qc]);
      const Q = q.data.slice(b * m * qc, (b + 1) * m * qc);
      near(matmul(tr(Q, m, qc), Q, qc, m, qc), eye(qc), tol, 'qr: Q^T Q = I');
      near(matmul(Q, R, m, qc, n), a, tol, 'qr: Q R = x');
    }
    return r;
  },
  dtypes: ['float64'],
  bad: [...dtypeBad('qr'), { inputs: [r32([2, 2], 1)], attrs: { mode: 'full' }, error: /qr: mode must be 'reduced', 'complete' or 'r'/ }],
});

addRecords({
  op: 'svd',
  samples: MATRICES().flatMap((s) => [s, { ...s, attrs: { full_matrices: true } }]),
  check: 'custom',
  ref: (all, attrs) => {
    const x = all[0] as NDArray;
    const [u, s, vh] = all.slice(1) as NDArray[];
    const m = x.shape[x.shape.length - 2], n = x.shape[x.shape.length - 1], k = Math.min(m, n), lead = x.shape.slice(0, -2);
    const full = Boolean(attrs.full_matrices), uc = full ? m : k, vr = full ? n : k;
    expect(u.shape, 'svd: u shape').toEqual([...lead, m, uc]);
    expect(s.shape, 'svd: s shape').toEqual([...lead, k]);
    expect(vh.shape, 'svd: vh shape').toEqual([...lead, vr, n]);
    const tol = eps(x.dtype);
    for (let b = 0; b < batchOf(x); b++) {
      const { a } = matAt(x, b);
      const S = s.data.slice(b * k, (b + 1) * k), U = u.data.slice(b * m * uc, (b + 1) * m * uc), V = vh.data.slice(b * vr * n, (b + 1) * vr * n);
      S.forEach((v, i) => { expect(v).toBeGreaterThanOrEqual(0); if (i) expect(v, 'svd: descending').toBeLessThanOrEqual(S[i - 1]); });
      near(S, singular(a, m, n), tol, 'svd: singular values');
      near(matmul(tr(U, m, uc), U, uc, m, uc), eye(uc), tol, 'svd: U^T U = I');
      near(matmul(V, tr(V, vr, n), vr, n, vr), eye(vr), tol, 'svd: Vh Vh^T = I');
      const US = U.map((v, i) => (i % uc < k ? v * S[i % uc] : 0));
      near(matmul(US, V.slice(0, uc * n).concat(new Array(Math.max(0, uc - vr) * n).fill(0)), m, uc, n), a, tol, 'svd: U S Vh = x');
    }
    return s;
  },
  dtypes: ['float64'],
  bad: dtypeBad('svd'),
});

const SQUARE = (): Sample[] => [
  { inputs: [sym([], 4, 1)] },
  { inputs: [r32([3, 3], 2)], note: 'not symmetric: the triangle is read' },
  { inputs: [sym([2, 3], 5, 3)], note: 'batched' },
  { inputs: [nd([3, 3], [2, 0, 0, 0, 2, 0, 0, 0, 1])], note: 'repeated eigenvalue' },
  { inputs: [nd([1, 1], [3])], note: '1x1' },
  { inputs: [nd([0, 2, 2], [])], note: 'empty batch' },
  { inputs: [nd([0, 0], [])], note: '0x0' },
  { inputs: [sym([], 5, 4)], strided: true },
  { inputs: [sym([40, 6], 6, 5)], note: 'threaded batch' },
  { inputs: [sym([], 40, 6)], note: 'larger matrix' },
];
const squareBad = (op: string) => [...dtypeBad(op), { inputs: [r32([2, 3], 1)], error: new RegExp(`${op}: expected square matrices, got shape \\[2, 3\\]`) },
  { inputs: [r32([2, 2], 1)], attrs: { UPLO: 'X' }, error: new RegExp(`${op}: UPLO must be 'L' or 'U'`) }];

function eigCheck(op: string, vectorsChecked: boolean) {
  return (all: (NDArray | NDArray[] | null)[], attrs: Record<string, unknown>): NDArray => {
    const x = all[0] as NDArray;
    const [w, v] = all.slice(1) as NDArray[];
    const n = x.shape[x.shape.length - 1], lead = x.shape.slice(0, -2), upper = attrs.UPLO === 'U';
    expect(w.shape, `${op}: eigenvalue shape`).toEqual([...lead, n]);
    expect(v.shape, `${op}: eigenvector shape`).toEqual([...lead, n, n]);
    const tol = eps(x.dtype);
    for (let b = 0; b < batchOf(x); b++) {
      const A = fromTriangle(matAt(x, b).a, n, upper);
      const W = w.data.slice(b * n, (b + 1) * n), V = v.data.slice(b * n * n, (b + 1) * n * n);
      near(W, refEig(A, n), tol, `${op}: eigenvalues`);
      if (!vectorsChecked) continue;
      near(matmul(tr(V, n, n), V, n, n, n), eye(n), tol, `${op}: V^T V = I`);
      near(matmul(A, V, n, n, n), V.map((e, i) => e * W[i % n]), tol, `${op}: A V = V diag(w)`);
    }
    return w;
  };
}
for (const op of ['eigh', 'eigvalsh']) {
  addRecords({
    op,
    samples: SQUARE().flatMap((s) => [s, { ...s, attrs: { UPLO: 'U' } }]),
    check: 'custom',
    ref: eigCheck(op, true),
    dtypes: ['float64'],
    bad: squareBad(op),
  });
}

addRecords({
  op: 'matrix_rank',
  samples: [
    { inputs: [r32([4, 4], 1)] },
    { inputs: [lowRank([], 5, 4, 2, 2)], note: 'rank 2' },
    { inputs: [lowRank([3], 3, 6, 1, 3)], note: 'batched rank 1, wide' },
    { inputs: [nd([2, 2], [1, 0, 0, 1e-3])], attrs: { tol: 0.01 }, note: 'tol' },
    { inputs: [nd([3, 3], [2, 1, 0, 1, 2, 0, 0, 0, 0])], attrs: { hermitian: true }, note: 'hermitian' },
    { inputs: [nd([3, 3], [0, 0, 0, 0, 0, 0, 0, 0, 0])], note: 'zero' },
    { inputs: [nd([0, 3, 3], [])], note: 'empty batch' },
    { inputs: [nd([3, 0], [])], note: 'empty matrix' },
    { inputs: [lowRank([], 6, 5, 3, 4)], strided: true },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray, out: number[] = [];
    for (let b = 0; b < batchOf(X); b++) {
      const { a, m, n } = matAt(X, b);
      const sv = attrs.hermitian ? refEig(fromTriangle(a, n, false), n).map(Math.abs) : singular(a, m, n);
      const e = X.dtype === 'float32' ? 2 ** -23 : 2 ** -52;
      const cut = attrs.tol ?? Math.max(0, ...sv) * Math.max(m, n) * e;
      out.push(sv.filter((s) => s > (cut as number)).length);
    }
    return { shape: X.shape.slice(0, -2), data: out, dtype: 'int64' };
  },
  dtypes: ['float64'],
  bad: [...dtypeBad('matrix_rank'), { inputs: [r32([2, 3], 1)], attrs: { hermitian: true }, error: /matrix_rank: expected square matrices/ }],
});

addRecords({
  op: 'pinv',
  samples: [
    // rcond 1e-15 (the default) would invert the rounding noise of a rank-deficient float32 input.
    ...MATRICES().filter((s) => s.note !== 'one large matrix').map((s) => (s.note?.startsWith('rank') ? { ...s, attrs: { rcond: 1e-5 } } : s)),
    { inputs: [sym([], 4, 11)], attrs: { hermitian: true }, note: 'hermitian' },
    { inputs: [nd([2, 2], [1, 0, 0, 1e-8])], attrs: { rcond: 1e-6 }, note: 'rcond drops the small value' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray, m = X.shape[X.shape.length - 2], n = X.shape[X.shape.length - 1];
    const rcond = (attrs.rcond as number) ?? 1e-15, out: number[] = [];
    for (let b = 0; b < batchOf(X); b++) {
      const { a } = matAt(X, b);
      out.push(...refPinv(attrs.hermitian ? fromTriangle(a, n, false) : a, m, n, rcond));
    }
    return { shape: [...X.shape.slice(0, -2), n, m], data: out, dtype: X.dtype };
  },
  dtypes: ['float64'],
  atol: 1e-3,
  rtol: 1e-3,
  bad: [...dtypeBad('pinv'), { inputs: [r32([2, 2], 1)], attrs: { rcond: -1 }, error: /pinv: rcond must be a number >= 0/ }],
});

function lstsqRef(inputs: (NDArray | NDArray[] | null)[], attrs: Record<string, unknown>): NDArray[] {
  const X = inputs[0] as NDArray, Y = inputs[1] as NDArray;
  const m = X.shape[X.shape.length - 2], n = X.shape[X.shape.length - 1], kk = Y.shape[Y.shape.length - 1], lead = X.shape.slice(0, -2);
  const driver = (attrs.driver as string) ?? 'gelsy';
  const e = X.dtype === 'float32' ? 2 ** -23 : 2 ** -52;
  const rcond = (attrs.rcond as number) ?? Math.max(m, n) * e;
  const sol: number[] = [], res: number[] = [], rank: number[] = [], svs: number[] = [];
  for (let b = 0; b < batchOf(X); b++) {
    const { a } = matAt(X, b);
    const yb = Y.data.slice(b * m * kk, (b + 1) * m * kk);
    const s = matmul(refPinv(a, m, n, rcond), yb, n, m, kk);
    sol.push(...s);
    const fit = matmul(a, s, m, n, kk);
    for (let j = 0; j < kk; j++) { let r2 = 0; for (let i = 0; i < m; i++) r2 += (fit[i * kk + j] - yb[i * kk + j]) ** 2; res.push(r2); }
    const sv = singular(a, m, n), smax = Math.max(0, ...sv);
    rank.push(sv.filter((v) => v > rcond * smax && v !== 0).length);
    svs.push(...sv);
  }
  return [
    { shape: [...lead, n, kk], data: sol, dtype: X.dtype },
    m > n ? { shape: [...lead, kk], data: res, dtype: X.dtype } : { shape: [0], data: [], dtype: X.dtype },
    driver === 'gels' ? { shape: [0], data: [], dtype: 'int32' } : { shape: lead, data: rank, dtype: 'int32' },
    driver === 'gelsd' || driver === 'gelss' ? { shape: [...lead, Math.min(m, n)], data: svs, dtype: X.dtype } : { shape: [0], data: [], dtype: X.dtype },
  ];
}
addRecords({
  op: 'lstsq',
  samples: [
    { inputs: [r32([5, 3], 1), r32([5, 2], 2)] },
    { inputs: [nd([3, 2], [1, 3, 3, 2, 5, 6]), nd([3, 3], [3, 4, 6, 5, 3, 4, 1, 2, 1])], attrs: { driver: 'gelsd' }, note: "Paddle's example" },
    { inputs: [r32([3, 3], 3), r32([3, 1], 4)], attrs: { driver: 'gels' }, note: 'square' },
    { inputs: [r32([2, 5], 5), r32([2, 2], 6)], attrs: { driver: 'gelss' }, note: 'wide: minimum norm' },
    { inputs: [r32([3, 4, 2], 7), r32([3, 4, 3], 8)], note: 'batched' },
    { inputs: [lowRank([], 5, 4, 2, 9), r32([5, 2], 10)], attrs: { driver: 'gelsd' }, note: 'rank-deficient' },
    { inputs: [lowRank([], 4, 3, 1, 11), r32([4, 1], 12)], attrs: { rcond: 1e-3 }, note: 'rcond' },
    { inputs: [nd([0, 3, 2], []), nd([0, 3, 1], [])], note: 'empty batch' },
    { inputs: [r32([6, 3], 13), r32([6, 2], 14)], strided: true },
  ],
  ref: lstsqRef,
  dtypes: ['float64'],
  atol: 1e-3,
  rtol: 1e-3,
  bad: [
    { inputs: [r32([3], 1), r32([3, 1], 2)], error: /lstsq: expected x of rank >= 2/ },
    { inputs: [r32([3, 2], 1), r32([4, 1], 2)], error: /lstsq: y must be \[\.\.\., M, K\] with x's batch dims and M/ },
    { inputs: [r32([3, 2], 1), nd([3, 1], [1, 2, 3], 'float64')], error: /lstsq: x and y must have the same dtype/ },
    { inputs: [r32([3, 2], 1), r32([3, 1], 2)], attrs: { driver: 'gelsx' }, error: /lstsq: driver must be None, 'gels', 'gelsy', 'gelsd' or 'gelss'/ },
  ],
});
