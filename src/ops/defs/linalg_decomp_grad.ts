// Gradient rules of qr, svd, eigh/eigvalsh, pinv and lstsq (linalg_decomp.ts), with public ops
// through GradKit so they are differentiable again. All are the textbook first-order
// perturbation formulas; they hold where the decomposition is smooth:
//  - qr: reduced (or complete with M == N) and M >= N with x of full column rank.
//  - svd: distinct nonzero singular values (the 1/(s_j^2 - s_i^2) and 1/s terms blow up
//    otherwise), and full_matrices only for square x. Signs of singular vectors are not unique,
//    so only sign-invariant functions of u, vh have meaningful gradients.
//  - eigh: distinct eigenvalues. The op reads one triangle, so the gradient lands there:
//    tril(G + G^T) - diag(G) for UPLO 'L' (the same total for symmetric parametrizations).
//  - pinv: constant rank near x (the Golub-Pereyra derivative). lstsq's solution is pinv(x) y.
import { type GradKit, kit } from '../grad_kit.js';
import { matMul, matT } from './linalg_grad_common.js';
import type { Attrs, OpDef } from '../types.js';

type Rule = Pick<OpDef, 'grad' | 'gradReads'>;

/** Helpers over batched matrices [..., r, c]. */
function lin<T>(k: GradKit<T>) {
  const mT = (x: T): T => matT(k, x);
  const mm = (a: T, b: T, ta = false, tb = false): T => matMul(k, a, b, ta, tb);
  const eyeLike = (n: number, like: T): T => k.op('eye', [], { num_rows: n, num_columns: n, dtype: k.dtype(like) });
  /** x * v[..., None, :] (scales columns by v). */
  const colScale = (x: T, v: T): T => k.mul(x, k.op('unsqueeze', [v], { axis: [-2] }));
  /** x * v[..., :, None] (scales rows by v). */
  const rowScale = (x: T, v: T): T => k.mul(x, k.op('unsqueeze', [v], { axis: [-1] }));
  /** F_ij = 1 / (v_j - v_i) off the diagonal, 0 on it (v: [..., n]). */
  const gapInv = (v: T): T => {
    const n = k.shape(v)[k.rank(v) - 1];
    const I = eyeLike(n, v);
    const d = k.sub(k.op('unsqueeze', [v], { axis: [-2] }), k.op('unsqueeze', [v], { axis: [-1] }));
    return k.mul(k.div(k.scalar(1, v), k.add(d, I)), k.sub(k.scalar(1, v), I));
  };
  /** The gradient with respect to the entries of x a symmetric-input op read (one triangle). */
  const toTriangle = (G: T, upper: boolean): T => {
    const S = k.add(G, mT(G));
    const n = k.shape(G)[k.rank(G) - 1];
    const diag = k.mul(G, eyeLike(n, G));
    return k.sub(k.op(upper ? 'triu' : 'tril', [S], { diagonal: 0 }), diag);
  };
  return { mT, mm, eyeLike, colScale, rowScale, gapInv, toTriangle };
}

const zerosIfNull = <T>(k: GradKit<T>, g: T | null, like: T): T => g ?? k.zerosOf(like);

/**
 * qr (M >= N, reduced): with M = R gR^T - gQ^T Q and copyltu(M) = tril(M, -1) + tril(M, -1)^T + diag(M),
 * gA = (gQ + Q copyltu(M)) R^{-T}. R^{-1} comes from pinv (R is square and invertible here).
 */
const qrRule: Rule = {
  grad: ({ outputs, outGrads, attrs }, ops) => {
    const k = kit(ops);
    const L = lin(k);
    if (attrs.mode === 'r') throw new Error("qr: the gradient is not defined for mode='r' (Q is needed)");
    const [q, r] = outputs;
    const qs = k.shape(q), rs = k.shape(r);
    const m = qs[qs.length - 2], n = rs[rs.length - 1];
    if (m < n || (attrs.mode === 'complete' && m !== n))
      throw new Error(`qr: the gradient needs M >= N (and mode 'reduced' unless square), got a ${m}x${n} input with mode '${String(attrs.mode)}'`);
    const gq = zerosIfNull(k, outGrads[0], q), gr = zerosIfNull(k, outGrads[1], r);
    const M = k.sub(L.mm(r, gr, false, true), L.mm(gq, q, true, false));
    const low = k.op('tril', [M], { diagonal: -1 });
    const copyltu = k.add(k.add(low, L.mT(low)), k.mul(M, L.eyeLike(n, M)));
    const b = k.add(gq, L.mm(q, copyltu));
    const rinv = k.op('pinv', [r], { rcond: 0 });
    return [L.mm(b, rinv, false, true)];
  },
  gradReads: { inputs: [], outputs: [0, 1] },
};

/**
 * svd (reduced): gA = U [diag(gS) + (F o (U^T gU - gU^T U)) S + S (F o (V^T gV - gV^T V))] Vh
 * + (gU - U U^T gU) S^{-1} Vh + U S^{-1} (gVh - gVh Vh^T Vh), F_ij = 1/(s_j^2 - s_i^2).
 */
const svdRule: Rule = {
  grad: ({ outputs: [u, s, vh], outGrads: [gu, gs, gvh], attrs }, ops) => {
    const k = kit(ops);
    const L = lin(k);
    const us = k.shape(u), vs = k.shape(vh), ss = k.shape(s);
    const kk = ss[ss.length - 1], m = us[us.length - 2], n = vs[vs.length - 1];
    if (attrs.full_matrices && m !== n)
      throw new Error(`svd: the gradient with full_matrices=True is only defined for square inputs, got ${m}x${n}`);
    let inner = gs ? k.mul(L.eyeLike(kk, s), k.op('unsqueeze', [gs], { axis: [-2] })) : k.full([...ss, kk], 0, k.dtype(s));
    const F = L.gapInv(k.square(s));
    if (gu) {
      const utgu = L.mm(u, gu, true, false);
      inner = k.add(inner, L.colScale(k.mul(F, k.sub(utgu, L.mT(utgu))), s));
    }
    if (gvh) {
      const vtgv = L.mm(vh, gvh, false, true);  // V^T gV = Vh gVh^T
      inner = k.add(inner, L.rowScale(k.mul(F, k.sub(vtgv, L.mT(vtgv))), s));
    }
    let out = L.mm(L.mm(u, inner), vh);
    if (gu && m > kk) {
      const perp = k.sub(gu, L.mm(u, L.mm(u, gu, true, false)));
      out = k.add(out, L.mm(L.colScale(perp, k.op('reciprocal', [s])), vh));
    }
    if (gvh && n > kk) {
      const perp = k.sub(gvh, L.mm(L.mm(gvh, vh, false, true), vh));
      out = k.add(out, L.mm(u, L.rowScale(perp, k.op('reciprocal', [s]))));
    }
    return [out];
  },
  gradReads: { inputs: [], outputs: [0, 1, 2] },
};

/** eigh: G = V (diag(gw) + F o (V^T gV)) V^T, F_ij = 1/(w_j - w_i); then onto the read triangle. */
const eighRule: Rule = {
  grad: ({ outputs: [w, v], outGrads: [gw, gv], attrs }, ops) => {
    const k = kit(ops);
    const L = lin(k);
    const n = k.shape(w)[k.rank(w) - 1];
    let inner = gw ? k.mul(L.eyeLike(n, w), k.op('unsqueeze', [gw], { axis: [-2] })) : k.zerosOf(v);
    if (gv) inner = k.add(inner, k.mul(L.gapInv(w), L.mm(v, gv, true, false)));
    const G = L.mm(L.mm(v, inner), v, false, true);
    return [L.toTriangle(G, attrs.UPLO === 'U')];
  },
  gradReads: { inputs: [], outputs: [0, 1] },
};

/**
 * d pinv(A) = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P (P = pinv(A)), so
 * gA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A).
 */
function pinvGrad<T>(k: GradKit<T>, a: T, p: T, g: T): T {
  const L = lin(k);
  const t1 = k.neg(L.mm(L.mm(p, g, true, false), p, false, true));
  const x = L.mm(L.mm(g, p, true, false), p, false, true);         // G^T P P^T  [m, n]
  const t2 = k.sub(x, L.mm(a, L.mm(p, x)));                         // (I - A P) X
  const y = L.mm(L.mm(p, p, true, false), g, false, true);         // P^T P G^T  [m, n]
  const t3 = k.sub(y, L.mm(L.mm(y, p), a));                         // Y (I - P A)
  return k.add(k.add(t1, t2), t3);
}

const pinvRule: Rule = {
  grad: ({ inputs: [a], outputs: [p], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    if (!attrs.hermitian) return [pinvGrad(k, a!, p, g!)];
    // The kernel inverted the symmetric matrix built from x's lower triangle.
    const low = k.op('tril', [a!], { diagonal: -1 });
    const sym = k.add(k.op('tril', [a!], { diagonal: 0 }), lin(k).mT(low));
    return [lin(k).toTriangle(pinvGrad(k, sym, p, g!), false)];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

/** lstsq: solution = pinv(x) y; the gradient goes through the solution only. */
const lstsqRule: Rule = {
  grad: ({ inputs: [a, y], outGrads: [gsol, gres, , gsv], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const L = lin(k);
    if (gres || gsv) throw new Error('lstsq: gradients flow through the solution only, not residuals or singular_values');
    const rc = (attrs as Attrs).rcond;
    const p = k.op('pinv', [a!], { rcond: typeof rc === 'number' ? rc : 1e-15 });
    const gy = needsGrad[1] ? L.mm(p, gsol!, true, false) : null;        // P^T G
    const ga = needsGrad[0] ? pinvGrad(k, a!, p, L.mm(gsol!, y!, false, true)) : null;  // through P with gP = G y^T
    return [ga, gy];
  },
  gradReads: { inputs: [0, 1], outputs: [] },
};

export const LINALG_DECOMP_GRADS = { qr: qrRule, svd: svdRule, eigh: eighRule, pinv: pinvRule, lstsq: lstsqRule };
