// Gradient-check records for qr, svd, eigh, eigvalsh, pinv and lstsq (src/ops/defs/linalg_decomp_grad.ts),
// spread into MORE_RECORDS. Singular/eigen vectors are unique only up to sign, so those records
// differentiate sign-invariant functions of them: squares of entries and sums of outer products
// u_i w_i vh_i. Random inputs have distinct singular values and eigenvalues (the rules need that).
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const T = (v: unknown) => v as Tensor;
const outsOf = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}) => runOp(name, ins, attrs) as Tensor[];
const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const mT = (x: Tensor) => { const r = x.shape.length; return T(paddle.transpose(x, [...Array(r - 2).keys(), r - 1, r - 2])); };
const w = (n: number) => ({ data: Array.from({ length: n }, (_, i) => 1 + i), shape: [n], dtype: 'float64' as const });
/** s, u o u, vh o vh and U diag(c) Vh: all invariant to flipping a singular pair's signs. */
const svdInvariants = (x: Tensor, c: Tensor, attrs: Record<string, unknown> = {}) => {
  const [u, s, vh] = outsOf('svd', [x], attrs);
  return [s, T(P.square(u)), T(P.square(vh)), T(paddle.matmul(paddle.multiply(u, c), vh))];
};
const eighInvariants = (x: Tensor, c: Tensor, UPLO = 'L') => {
  const [ev, v] = outsOf('eigh', [x], { UPLO });
  return [ev, T(P.square(v)), T(paddle.matmul(paddle.multiply(v, c), mT(v)))];
};

export const LINALG_DECOMP_RECORDS: GradRecord[] = [
  { op: 'qr', inputs: [{ shape: [4, 3] }], fn: (x) => outsOf('qr', [x]) },
  { op: 'qr', label: 'batched square, complete', inputs: [{ shape: [2, 3, 3] }], fn: (x) => outsOf('qr', [x], { mode: 'complete' }) },
  { op: 'qr', label: 'strided', inputs: [{ shape: [3, 5] }], fn: (x) => outsOf('qr', [mT(x)]) },
  { op: 'svd', inputs: [{ shape: [4, 3] }, w(3)], wrt: [0], fn: (x, c) => svdInvariants(x, c) },
  { op: 'svd', label: 'wide', inputs: [{ shape: [3, 5] }, w(3)], wrt: [0], fn: (x, c) => svdInvariants(x, c) },
  { op: 'svd', label: 'batched square, full_matrices', inputs: [{ shape: [2, 3, 3] }, w(3)], wrt: [0], fn: (x, c) => svdInvariants(x, c, { full_matrices: true }) },
  { op: 'svd', label: 'singular values only', inputs: [{ shape: [5, 4] }], fn: (x) => outsOf('svd', [x])[1] },
  { op: 'eigh', inputs: [{ shape: [4, 4] }, w(4)], wrt: [0], fn: (x, c) => eighInvariants(x, c) },
  { op: 'eigh', label: 'UPLO U, batched', inputs: [{ shape: [2, 3, 3] }, w(3)], wrt: [0], fn: (x, c) => eighInvariants(x, c, 'U') },
  { op: 'eigh', label: 'symmetric parametrization', inputs: [{ shape: [3, 3] }, w(3)], wrt: [0], fn: (x, c) => eighInvariants(T(paddle.add(x, mT(x))), c) },
  { op: 'eigvalsh', inputs: [{ shape: [4, 4] }], fn: (x) => outsOf('eigvalsh', [x])[0] },
  { op: 'pinv', inputs: [{ shape: [3, 4] }], fn: (x) => outsOf('pinv', [x])[0] },
  { op: 'pinv', label: 'tall, batched', inputs: [{ shape: [2, 4, 2] }], fn: (x) => outsOf('pinv', [x])[0] },
  { op: 'pinv', label: 'hermitian', inputs: [{ shape: [3, 3] }], fn: (x) => outsOf('pinv', [x], { hermitian: true })[0] },
  { op: 'lstsq', inputs: [{ shape: [5, 3] }, { shape: [5, 2] }], fn: (x, y) => outsOf('lstsq', [x, y])[0] },
  { op: 'lstsq', label: 'wide (minimum norm)', inputs: [{ shape: [2, 4] }, { shape: [2, 1] }], fn: (x, y) => outsOf('lstsq', [x, y], { driver: 'gelsd' })[0] },
];
