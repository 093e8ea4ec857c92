// Gradient-check records for addmm, renorm, t, fill_diagonal and fill_diagonal_tensor
// (src/ops/defs/matrix_more.ts), spread into MORE_RECORDS. renorm's inputs keep every slice's
// norm well away from max_norm (the rule is piecewise there).
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const T = (v: unknown) => v as Tensor;
const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const op = (name: string, ins: (Tensor | null)[], attrs: Record<string, unknown> = {}) => T(runOp(name, ins, attrs)[0]);
const tr = (x: Tensor) => T(paddle.transpose(x, [1, 0]));  // a strided view
const data = (shape: number[], f: (i: number) => number) =>
  ({ data: Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => f(i)), shape, dtype: 'float64' as const });

export const MATRIX_MORE_RECORDS: GradRecord[] = [
  { op: 'addmm', inputs: [{ shape: [3, 4] }, { shape: [3, 5] }, { shape: [5, 4] }], fn: (i, x, y) => T(P.addmm(i, x, y, 0.5, 2)) },
  { op: 'addmm', label: '1-D input, strided x', inputs: [{ shape: [4] }, { shape: [5, 3] }, { shape: [5, 4] }], fn: (i, x, y) => T(P.addmm(i, tr(x), y)) },
  { op: 'addmm', label: '[M, 1] input, negative alpha', inputs: [{ shape: [3, 1] }, { shape: [3, 2] }, { shape: [2, 4] }], fn: (i, x, y) => T(P.addmm(i, x, y, { alpha: -1.5, beta: 3 })) },
  // Slice norms (axis 0, p 2): row 0 ~0.4 (kept), rows 1 and 2 ~2.6 and ~4.5 (scaled to 1).
  { op: 'renorm', inputs: [data([3, 4], (i) => (i < 4 ? 0.1 + 0.05 * i : (i < 8 ? 1 : 2) * (1.1 + 0.17 * i) * (i % 2 ? -1 : 1) / 2.2))], fn: (x) => T(P.renorm(x, 2, 0, 1)) },
  { op: 'renorm', label: 'p 3, axis 1, 3-D', inputs: [data([2, 3, 2], (i) => (i % 3 === 0 ? 0.05 : 0.9 + 0.1 * i) * (i % 2 ? 1 : -1))], fn: (x) => T(P.renorm(x, 3, 1, 1)) },
  { op: 'renorm', label: 'p 1, strided', inputs: [data([4, 3], (i) => (0.3 + 0.21 * i) * (i % 3 ? 1 : -1))], fn: (x) => T(P.renorm(tr(x), 1, -1, 2.5)) },
  { op: 't', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.t(x)) },
  { op: 't', label: '1-D', inputs: [{ shape: [4] }], fn: (x) => T(paddle.multiply(P.t(x), x)) },
  { op: 'fill_diagonal', inputs: [{ shape: [4, 3] }], fn: (x) => op('fill_diagonal', [x], { value: 2, offset: 1 }) },
  { op: 'fill_diagonal', label: 'tall, wrap', inputs: [{ shape: [7, 3] }], fn: (x) => op('fill_diagonal', [x], { value: -1, wrap: true }) },
  {
    op: 'fill_diagonal', label: 'Tensor.fill_diagonal_ on a non-leaf', inputs: [{ shape: [3, 3] }],
    fn: (x) => { const y = T(paddle.scale(x, 2)); (y as unknown as { fill_diagonal_(v: number): Tensor }).fill_diagonal_(0.5); return T(paddle.multiply(y, x)); },
  },
  { op: 'fill_diagonal_tensor', inputs: [{ shape: [3, 4] }, { shape: [3] }], fn: (x, y) => op('fill_diagonal_tensor', [x, y]) },
  { op: 'fill_diagonal_tensor', label: 'batched, offset', inputs: [{ shape: [2, 4, 3] }, { shape: [2, 2] }], fn: (x, y) => op('fill_diagonal_tensor', [x, y], { offset: 1, dim1: 1, dim2: 2 }) },
];

export const MATRIX_MORE_SECOND_ORDER = ['addmm', 'renorm', 'fill_diagonal_tensor'];
