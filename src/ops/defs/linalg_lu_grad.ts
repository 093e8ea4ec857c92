// Gradient rules of the LU/Cholesky family (linalg_lu.ts), with public ops through GradKit so
// they are differentiable again. Batch dims that broadcast (solve, triangular_solve,
// cholesky_solve) are summed back with sumTo. Textbook formulas:
//  - det: g det inv(x)^T; slogdet: g_logabs inv(x)^T (the sign is piecewise constant).
//  - inverse: -inv^T g inv^T. solve (X = A^-1 B): dB = A^-T G, dA = -dB X^T.
//  - triangular_solve: the same with op(A), kept to the triangle the kernel reads.
//  - cholesky (A = L L^T): S = L^-T Phi(L^T dL) L^-1, dA = (S + S^T) / 2, where Phi keeps the
//    lower triangle and halves the diagonal. Symmetric, as the input is taken to be.
//  - cholesky_solve: dB as solve; the factor gets (dA + dA^T) L (lower) or U (dA + dA^T)
//    (upper), kept to its triangle.
//  - matrix_power: sum_k (X^T)^k G (X^T)^(n-1-k); negative n through the inverse's rule.
//  - lu (square x): dA = P L^-T (tril(L^T dL, -1) + triu(dU U^T)) U^-T with dL, dU the strict
//    lower and upper parts of the packed gradient; lu_unpack routes dL/dU back to the packing.
import { type GradKit, kit } from '../grad_kit.js';
import { matMul, matT } from './linalg_grad_common.js';
import type { OpDef } from '../types.js';

type Rule = Pick<OpDef, 'grad' | 'gradReads'>;

/** Helpers over batched matrices [..., r, c]. */
function lin<T>(k: GradKit<T>) {
  const mT = (x: T): T => matT(k, x);
  const mm = (a: T, b: T, ta = false, tb = false): T => matMul(k, a, b, ta, tb);
  const last = (x: T): number => k.shape(x)[k.rank(x) - 1];
  const eye = (n: number, like: T): T => k.op('eye', [], { num_rows: n, num_columns: n, dtype: k.dtype(like) });
  const tri = (x: T, upper: boolean, diagonal = 0): T => k.op(upper ? 'triu' : 'tril', [x], { diagonal });
  const trsm = (a: T, b: T, upper: boolean, transpose: boolean, unitriangular = false): T =>
    k.op('triangular_solve', [a, b], { upper, transpose, unitriangular });
  /** g (batch shape) as [..., 1, 1], to scale whole matrices. */
  const perMatrix = (g: T): T => k.reshape(g, [...k.shape(g), 1, 1]);
  return { mT, mm, last, eye, tri, trsm, perMatrix };
}

const determinant: Rule = {
  grad: ({ inputs: [x], outputs: [d], outGrads: [g] }, ops) => {
    const k = kit(ops), L = lin(k);
    return [k.mul(L.perMatrix(k.mul(g!, d)), L.mT(k.op('inverse', [x!])))];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

const slogdeterminant: Rule = {
  grad: ({ inputs: [x], outGrads: [g] }, ops) => {
    const k = kit(ops), L = lin(k);
    const gl = k.reshape(k.op('slice', [g!], { axes: [0], starts: [1], ends: [2] }), k.shape(g!).slice(1));
    return [k.mul(L.perMatrix(gl), L.mT(k.op('inverse', [x!])))];
  },
  gradReads: { inputs: [0] },
};

const inverse: Rule = {
  grad: ({ outputs: [y], outGrads: [g] }, ops) => {
    const k = kit(ops), L = lin(k);
    return [k.neg(L.mm(y, L.mm(g!, y, false, true), true, false))];
  },
  gradReads: { outputs: [0] },
};

const solve: Rule = {
  grad: ({ inputs: [a, b], outputs: [x], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops), L = lin(k);
    const as = k.shape(a!), bs = k.shape(b!);
    const vec = bs.length === 1 || (bs.length === as.length - 1 && bs.every((d, i) => d === as[i]));
    // A vector right-hand side is a one-column matrix here, so broadcasting works as for matrices.
    const col = (t: typeof x) => (vec ? k.op('unsqueeze', [t], { axis: [-1] }) : t);
    const G = col(g!), X = col(x);
    const dB = k.op('solve', [L.mT(a!), G]);
    const dA = needsGrad[0] ? k.sumTo(k.neg(L.mm(dB, X, false, true)), as) : null;
    const bMat = vec ? [...bs, 1] : bs;
    const db = needsGrad[1] ? k.reshape(k.sumTo(dB, bMat), bs) : null;
    return [dA, db];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

const triangular_solve: Rule = {
  grad: ({ inputs: [a, b], outputs: [x], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops), L = lin(k);
    const upper = Boolean(attrs.upper), trans = Boolean(attrs.transpose), unit = Boolean(attrs.unitriangular);
    const dB = L.trsm(a!, g!, upper, !trans, unit);
    let dA = null;
    if (needsGrad[0]) {
      const full = k.neg(trans ? L.mm(x, dB, false, true) : L.mm(dB, x, false, true));
      dA = k.sumTo(L.tri(full, upper, unit ? (upper ? 1 : -1) : 0), k.shape(a!));
    }
    return [dA, needsGrad[1] ? k.sumTo(dB, k.shape(b!)) : null];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

const cholesky: Rule = {
  grad: ({ outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops), L = lin(k);
    const upper = Boolean(attrs.upper);
    const l = upper ? L.mT(out) : out, gl = upper ? L.mT(g!) : g!;
    const c = L.mm(l, gl, true, false);
    const phi = k.sub(L.tri(c, false), k.scale(k.mul(c, L.eye(L.last(c), c)), 0.5));
    // S = L^-T phi L^-1: two solves with L^T, the second on the transpose.
    const y = L.trsm(l, phi, false, true);
    const s = L.mT(L.trsm(l, L.mT(y), false, true));
    return [k.scale(k.add(s, L.mT(s)), 0.5)];
  },
  gradReads: { outputs: [0] },
};

const cholesky_solve: Rule = {
  grad: ({ inputs: [b, f], outputs: [x], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops), L = lin(k);
    const upper = Boolean(attrs.upper);
    const dB = k.op('cholesky_solve', [g!, f!], { upper });
    let dF = null;
    if (needsGrad[1]) {
      const dA = k.neg(L.mm(dB, x, false, true));
      const sym = k.add(dA, L.mT(dA));
      const t = L.tri(f!, upper);  // the factor is the triangle the kernel reads, not all of y
      dF = k.sumTo(L.tri(upper ? L.mm(t, sym) : L.mm(sym, t), upper), k.shape(f!));
    }
    return [needsGrad[0] ? k.sumTo(dB, k.shape(b!)) : null, dF];
  },
  gradReads: { inputs: [1], outputs: [0] },
};

/** d(X^n) for n >= 1 against g: sum over k of (X^T)^k g (X^T)^(n-1-k). */
function powerGrad<T>(k: GradKit<T>, x: T, g: T, n: number): T {
  const L = lin(k);
  const xt = L.mT(x);
  const pw = (e: number): T | null => (e === 0 ? null : e === 1 ? xt : k.op('matrix_power', [xt], { n: e }));
  let acc: T | null = null;
  for (let e = 0; e < n; e++) {
    const left = pw(e), right = pw(n - 1 - e);
    let t = left ? L.mm(left, g) : g;
    if (right) t = L.mm(t, right);
    acc = acc ? k.add(acc, t) : t;
  }
  return acc!;
}

const matrix_power: Rule = {
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops), L = lin(k);
    const n = attrs.n as number;
    if (n === 0) return [k.zerosOf(x!)];
    if (n > 0) return [powerGrad(k, x!, g!, n)];
    const a = k.op('inverse', [x!]);
    const ga = powerGrad(k, a, g!, -n);
    return [k.neg(L.mm(a, L.mm(ga, a, false, true), true, false))];
  },
  gradReads: { inputs: [0] },
};

const lu: Rule = {
  grad: ({ inputs: [x], outputs: [packed, pivots], outGrads: [g] }, ops) => {
    const k = kit(ops), L = lin(k);
    const xs = k.shape(x!), r = xs.length;
    if (xs[r - 1] !== xs[r - 2]) throw new Error(`lu: the gradient is implemented for square matrices only, got shape [${xs.join(', ')}]`);
    if (!g) return [k.zerosOf(x!)];
    const [p, l, u] = ops.run('lu_unpack', [packed, pivots]);
    const c = k.add(L.tri(L.mm(l, L.tri(g, false, -1), true, false), false, -1), L.tri(L.mm(L.tri(g, true), u, false, true), true));
    // P L^-T c U^-T: solve with the unit-lower L transposed, then with U on the transposed side.
    const left = L.trsm(l, c, false, true, true);
    const right = L.mT(L.trsm(u, L.mT(left), true, false));
    return [L.mm(p, right)];
  },
  gradReads: { inputs: [], outputs: [0, 1] },
};

const lu_unpack: Rule = {
  grad: ({ inputs: [x], outGrads: [, gl, gu] }, ops) => {
    const k = kit(ops), L = lin(k);
    const xs = k.shape(x!), r = xs.length, m = xs[r - 2], n = xs[r - 1], kk = Math.min(m, n);
    // pad the last two dims of t ([..., a, b]) to [..., m, n] at the end.
    const fit = (t: typeof gl) => {
      const ts = k.shape(t!);
      if (ts[r - 2] === m && ts[r - 1] === n) return t!;
      const pads = new Array<number>(2 * r).fill(0);
      pads[2 * (r - 2) + 1] = m - ts[r - 2];
      pads[2 * (r - 1) + 1] = n - ts[r - 1];
      return k.op('pad', [t!], { pad: pads });
    };
    let dx = null;
    if (gl && kk > 0) dx = fit(L.tri(gl, false, -1));
    if (gu && kk > 0) { const t = fit(L.tri(gu, true)); dx = dx ? k.add(dx, t) : t; }
    return [dx ?? k.zerosOf(x!), null];
  },
  gradReads: { inputs: [] },
};

export const LINALG_LU_GRADS: Readonly<Record<string, Rule>> = {
  lu, lu_unpack, determinant, slogdeterminant, inverse, solve, triangular_solve, cholesky, cholesky_solve, matrix_power,
};
