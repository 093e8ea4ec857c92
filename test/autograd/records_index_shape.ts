// Gradient-check records for issue 6's indexing and shape ops: scatter family, take/put_along_axis,
// index_fill, roll, repeat_interleave, chunk, the diagonal ops, select_scatter, meshgrid, the
// stride views and pad's edge modes. Indices are distinct where the op overwrites (a repeated
// assign has no well-defined derivative); accumulating ops get repeats on purpose.
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { GradRecord } from './gradcheck.js';

const P = paddle as unknown as Record<string, (...a: unknown[]) => unknown>;
const F = paddle.nn.functional as unknown as Record<string, (...a: unknown[]) => unknown>;
const T = (v: unknown) => v as Tensor;
const Ts = (v: unknown) => v as Tensor[];
const ints = (data: number[], shape = [data.length], dtype: 'int64' | 'int32' = 'int64') => ({ data, shape, dtype });
const tr = (x: Tensor) => T(paddle.transpose(x, [1, 0]));
/** Distinct values in (lo, hi): amin/amax need no ties to be differentiable. */
const spread = (shape: number[], seed = 1) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { data: Array.from({ length: n }, (_, i) => -1 + ((i * 7 + seed * 3) % n) * 2 / n + 0.013 * i), shape, dtype: 'float64' as const };
};

export const INDEX_SHAPE_RECORDS: GradRecord[] = [
  { op: 'scatter', inputs: [{ shape: [4, 3] }, ints([2, 0]), { shape: [2, 3] }], fn: (x, i, u) => T(P.scatter(x, i, u)) },
  { op: 'scatter', label: 'accumulate', inputs: [{ shape: [4, 3] }, ints([1, 1, 3]), { shape: [3, 3] }], fn: (x, i, u) => T(P.scatter(x, i, u, false)) },
  { op: 'scatter_nd_add', inputs: [{ shape: [3, 4] }, ints([0, 1, 2, -1, 0, 1], [3, 2]), { shape: [3] }], fn: (x, i, u) => T(P.scatter_nd_add(x, i, u)) },
  { op: 'scatter_nd_add', label: 'rows', inputs: [{ shape: [3, 2] }, ints([2, 0], [2, 1], 'int32'), { shape: [2, 2] }], fn: (x, i, u) => T(P.scatter_nd_add(tr(tr(x)), i, u)) },
  { op: 'scatter_nd', inputs: [ints([1, 3, 1], [3, 1]), { shape: [3, 2] }], fn: (i, u) => T(P.scatter_nd(i, u, [4, 2])) },
  { op: 'take_along_axis', inputs: [{ shape: [3, 4] }, ints([0, 3, -1, 2, 1, 1], [3, 2])], fn: (x, i) => T(P.take_along_axis(x, i, 1)) },
  { op: 'take_along_axis', label: 'broadcast both', inputs: [{ shape: [1, 4] }, ints([1, 2, 2], [3, 1])], fn: (x, i) => T(P.take_along_axis(x, i, 1)) },
  { op: 'take_along_axis', label: 'no broadcast', inputs: [{ shape: [3, 4] }, ints([1, 2], [2, 1])], fn: (x, i) => T(P.take_along_axis(x, i, 1, false)) },
  { op: 'put_along_axis', label: 'assign', inputs: [{ shape: [3, 4] }, ints([0, 3, 2, 1, 1, 0], [3, 2]), { shape: [3, 2] }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1)) },
  { op: 'put_along_axis', label: 'add, broadcast values', inputs: [{ shape: [3, 4] }, ints([1, 1], [1, 2]), { shape: [2] }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'add')) },
  { op: 'put_along_axis', label: 'add without self', inputs: [{ shape: [3, 4] }, ints([1, 1, 2, 0, 3, 3], [3, 2]), { shape: [3, 2] }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'add', false)) },
  { op: 'put_along_axis', label: 'mean', inputs: [{ shape: [3, 4] }, ints([1, 1, 2, 0, 3, 3], [3, 2]), { shape: [3, 2] }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'mean')) },
  { op: 'put_along_axis', label: 'mean without self', inputs: [{ shape: [3, 4] }, ints([1, 1, 2, 0, 3, 3], [3, 2]), { shape: [3, 2] }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'mean', false)) },
  { op: 'put_along_axis', label: 'mul', inputs: [{ shape: [3, 4], lo: 0.5, hi: 1.5 }, ints([1, 1, 2, 0, 3, 3], [3, 2]), { shape: [3, 2], lo: 0.5, hi: 1.5 }], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'mul')) },
  { op: 'put_along_axis', label: 'amax', inputs: [spread([3, 4]), ints([1, 1, 2, 0, 3, 3], [3, 2]), spread([3, 2], 5)], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'amax')) },
  { op: 'put_along_axis', label: 'amin without self', inputs: [spread([3, 4]), ints([1, 1, 2, 0, 3, 3], [3, 2]), spread([3, 2], 5)], fn: (x, i, v) => T(P.put_along_axis(x, i, v, 1, 'amin', false)) },
  { op: 'index_fill', inputs: [{ shape: [3, 4] }, ints([0, -1])], fn: (x, i) => T(P.index_fill(x, i, 1, 2.5)) },
  { op: 'roll', inputs: [{ shape: [3, 4] }], fn: (x) => T(P.roll(x, [1, -2], [0, 1])) },
  { op: 'roll', label: 'flattened, strided', inputs: [{ shape: [3, 4] }], fn: (x) => T(P.roll(tr(x), 5)) },
  { op: 'repeat_interleave', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.repeat_interleave(x, 2, 1)) },
  { op: 'repeat_interleave', label: 'flattened', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.repeat_interleave(x, 3)) },
  { op: 'repeat_interleave_with_tensor_index', inputs: [{ shape: [3, 2] }, ints([2, 0, 3])], fn: (x, r) => T(P.repeat_interleave(x, r, 0)) },
  { op: 'repeat_interleave_with_tensor_index', label: 'flattened', inputs: [{ shape: [2, 2] }, ints([1, 2, 0, 1], [4], 'int32')], fn: (x, r) => T(P.repeat_interleave(x, r)) },
  { op: 'chunk', inputs: [{ shape: [4, 3] }], fn: (x) => Ts(P.chunk(x, 2, 0)) },
  { op: 'diag', inputs: [{ shape: [3] }], fn: (x) => T(P.diag(x, 1, 5)) },
  { op: 'diag', label: 'matrix', inputs: [{ shape: [3, 4] }], fn: (x) => T(P.diag(x, -1)) },
  { op: 'diag', label: '0-dim', inputs: [{ shape: [] }], fn: (x) => T(P.diag(x)) },
  { op: 'diag_embed', inputs: [{ shape: [2, 3] }], fn: (x) => T(P.diag_embed(x, 1, 0, 2)) },
  { op: 'diagonal', inputs: [{ shape: [2, 3, 4] }], fn: (x) => T(P.diagonal(x, -1, 2, 1)) },
  { op: 'diagonal', label: 'strided', inputs: [{ shape: [3, 4] }], fn: (x) => T(P.diagonal(tr(x), 1)) },
  { op: 'diagonal_scatter', inputs: [{ shape: [3, 4] }, { shape: [2] }], fn: (x, y) => T(P.diagonal_scatter(x, y, 2)) },
  { op: 'select_scatter', inputs: [{ shape: [3, 4] }, { shape: [3] }], fn: (x, v) => T(P.select_scatter(x, v, 1, -1)) },
  { op: 'meshgrid', inputs: [{ shape: [2] }, { shape: [3] }, { shape: [] }], fn: (a, b, c) => Ts(P.meshgrid([a, b, c])) },
  { op: 'as_strided', inputs: [{ shape: [6] }], fn: (x) => T(P.as_strided(x, [3, 3], [1, 1])) },
  { op: 'as_strided', label: 'offset, stride 0', inputs: [{ shape: [3, 4] }], fn: (x) => T(P.as_strided(x, [2, 3], [0, 4], 1)) },
  { op: 'tensor_unfold', inputs: [{ shape: [2, 7] }], fn: (x) => T(P.unfold(x, 1, 3, 2)) },
  { op: 'tensor_unfold', label: 'overlapping, strided', inputs: [{ shape: [5, 2] }], fn: (x) => T(P.unfold(tr(x), -1, 2, 1)) },
  { op: 'pad', label: 'reflect NCL', inputs: [{ shape: [1, 2, 4] }], fn: (x) => T(F.pad(x, [2, 3], 'reflect', 0, 'NCL')) },
  { op: 'pad', label: 'replicate NHWC', inputs: [{ shape: [1, 3, 3, 2] }], fn: (x) => T(F.pad(x, [1, 0, 0, 2], 'replicate', 0, 'NHWC')) },
  { op: 'pad', label: 'circular NCDHW', inputs: [{ shape: [1, 1, 2, 2, 3] }], fn: (x) => T(F.pad(x, [4, 1, 0, 1, 1, 1], 'circular', 0, 'NCDHW')) },
];

export const INDEX_SHAPE_SECOND_ORDER = ['scatter_nd_add', 'take_along_axis', 'diagonal', 'roll'];
