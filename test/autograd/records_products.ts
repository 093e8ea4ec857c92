// Gradient-check records for issue 6: dot, outer, kron, cross (linalg_products.ts), polygamma
// (special_more.ts), and the composites einsum and multigammaln, whose gradients come from the
// registry ops they are built of (their records check that composition end to end).
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const T = (v: unknown) => v as Tensor;
const tr = (x: Tensor) => T(paddle.transpose(x, [1, 0]));  // a strided view

export const PRODUCT_RECORDS: GradRecord[] = [
  { op: 'dot', inputs: [{ shape: [5] }, { shape: [5] }], fn: (x, y) => T(P.dot(x, y)) },
  { op: 'dot', label: 'rows, strided', inputs: [{ shape: [4, 3] }, { shape: [3, 4] }], fn: (x, y) => T(P.dot(tr(x), y)) },
  { op: 'outer', inputs: [{ shape: [3] }, { shape: [2, 2] }], fn: (x, y) => T(P.outer(x, y)) },
  { op: 'outer', label: '0-dim x', inputs: [{ shape: [] }, { shape: [3] }], fn: (x, y) => T(P.outer(x, y)) },
  { op: 'kron', inputs: [{ shape: [2, 3] }, { shape: [2, 2] }], fn: (x, y) => T(P.kron(x, y)) },
  { op: 'kron', label: 'ranks differ, strided', inputs: [{ shape: [3, 2] }, { shape: [2, 1, 2] }], fn: (x, y) => T(P.kron(tr(x), y)) },
  { op: 'cross', inputs: [{ shape: [4, 3] }, { shape: [4, 3] }], fn: (x, y) => T(P.cross(x, y)) },
  { op: 'cross', label: 'axis 0, strided', inputs: [{ shape: [2, 3] }, { shape: [3, 2] }], fn: (x, y) => T(P.cross(tr(x), y, 0)) },
  { op: 'polygamma', inputs: [{ shape: [2, 3], lo: 0.3, hi: 5 }], fn: (x) => T(P.polygamma(x, 1)) },
  { op: 'polygamma', label: 'n=0', inputs: [{ shape: [4], lo: 0.3, hi: 5 }], fn: (x) => T(P.polygamma(x, 0)) },
  { op: 'polygamma', label: 'n=3, negative x', inputs: [{ data: [-0.4, -1.6, -2.3], shape: [3], dtype: 'float64' }], fn: (x) => T(P.polygamma(x, 3)), rtol: 1e-3 },
  { op: 'polygamma', label: '0-dim', inputs: [{ shape: [], lo: 1, hi: 3 }], fn: (x) => T(P.polygamma(x, 2)) },
];

/** Rules differentiated again through create_graph. */
export const PRODUCT_SECOND_ORDER = ['dot', 'outer', 'kron', 'cross', 'polygamma'];

/** Records of composite functions (not registry ops): labelled by the ops they exercise. */
export const COMPOSITE_RECORDS: GradRecord[] = [
  { op: 'matmul', label: 'einsum ij,jk->ik', inputs: [{ shape: [2, 3] }, { shape: [3, 2] }], fn: (x, y) => T(P.einsum('ij,jk->ik', x, y)) },
  { op: 'matmul', label: 'einsum bij,bkj->bik (batch, transposed)', inputs: [{ shape: [2, 2, 3] }, { shape: [2, 4, 3] }], fn: (x, y) => T(P.einsum('bij,bkj->bik', x, y)) },
  { op: 'multiply', label: 'einsum ii->i (diagonal)', inputs: [{ shape: [3, 3] }], fn: (x) => T(P.einsum('ii->i', x)) },
  { op: 'sum', label: 'einsum ...ij,...j (ellipsis broadcast)', inputs: [{ shape: [2, 1, 3, 2] }, { shape: [4, 2] }], fn: (x, y) => T(P.einsum('...ij,...j', x, y)) },
  { op: 'lgamma', label: 'multigammaln', inputs: [{ shape: [2, 2], lo: 2, hi: 5 }], fn: (x) => T(P.multigammaln(x, 3)) },
];
