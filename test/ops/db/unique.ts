// Records for unique, unique_consecutive and bincount (src/ops/defs/unique.ts): outputs whose
// length depends on the values.
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand, size } from '../ref.js';

/** Few distinct values, so repeats (and repeated slices) are common. */
const coarse = (shape: number[], seed: number, dtype: DType = 'float32', span = 3): NDArray =>
  asDType({ ...rand(shape, dtype, seed, -span, span), data: rand(shape, 'float32', seed, -span, span).data.map(Math.round) }, dtype);

/** The slices of x along axis (null: its elements), each in (outer, inner) order. */
function slicesOf(x: NDArray, axis: number | null): number[][] {
  if (axis === null) return x.data.map((v) => [v]);
  const a = axis < 0 ? axis + x.shape.length : axis;
  const outer = size(x.shape.slice(0, a)), n = x.shape[a], inner = size(x.shape.slice(a + 1));
  return Array.from({ length: n }, (_, j) => {
    const row: number[] = [];
    for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) row.push(x.data[(o * n + j) * inner + i]);
    return row;
  });
}

/** out, laid out with the axis dim u, from representative slice numbers. */
function gatherSlices(x: NDArray, axis: number | null, reps: number[]): NDArray {
  if (axis === null) return { shape: [reps.length], data: reps.map((j) => x.data[j]), dtype: x.dtype };
  const a = axis < 0 ? axis + x.shape.length : axis;
  const outer = size(x.shape.slice(0, a)), n = x.shape[a], inner = size(x.shape.slice(a + 1)), u = reps.length;
  const data = new Array<number>(outer * u * inner);
  for (let o = 0; o < outer; o++) for (let g = 0; g < u; g++) for (let i = 0; i < inner; i++) data[(o * u + g) * inner + i] = x.data[(o * n + reps[g]) * inner + i];
  return { shape: x.shape.map((d, i) => (i === a ? u : d)), data, dtype: x.dtype };
}

const cmpNum = (a: number, b: number): number => {
  const an = Number.isNaN(a), bn = Number.isNaN(b);
  if (an !== bn) return an ? 1 : -1;
  return an || a === b ? 0 : a < b ? -1 : 1;
};
const cmpRow = (a: number[], b: number[]): number => { for (let s = 0; s < a.length; s++) { const c = cmpNum(a[s], b[s]); if (c) return c; } return 0; };
const eqRow = (a: number[], b: number[]): boolean => a.every((v, s) => v === b[s]);

/** Groups slices in `order`; returns the outputs flagged in attrs. */
function groupRef(x: NDArray, attrs: Record<string, unknown>, sorted: boolean): NDArray[] {
  const axis = (attrs.axis as number | null | undefined) ?? null;
  const sl = slicesOf(x, axis);
  const order = sl.map((_, j) => j);
  if (sorted) order.sort((a, b) => cmpRow(sl[a], sl[b]) || a - b);
  const groups: number[][] = [];
  order.forEach((j, k) => { if (k === 0 || !eqRow(sl[order[k - 1]], sl[j])) groups.push([j]); else groups[groups.length - 1].push(j); });
  const idt = ((attrs.dtype as DType | undefined) ?? 'int64');
  const inverse = new Array<number>(sl.length);
  groups.forEach((g, gi) => g.forEach((j) => { inverse[j] = gi; }));
  const outs: NDArray[] = [gatherSlices(x, axis, groups.map((g) => g[0]))];
  if (attrs.return_index) outs.push({ shape: [groups.length], data: groups.map((g) => g[0]), dtype: idt });
  if (attrs.return_inverse) outs.push({ shape: [sl.length], data: inverse, dtype: idt });
  if (attrs.return_counts) outs.push({ shape: [groups.length], data: groups.map((g) => g.length), dtype: idt });
  return outs;
}

const ALL = { return_index: true, return_inverse: true, return_counts: true };
const uniqueSamples: Sample[] = [
  { inputs: [coarse([3, 7], 1)] },
  { inputs: [coarse([3, 7], 2)], attrs: ALL },
  { inputs: [coarse([2, 3, 4], 3)], attrs: { return_counts: true } },
  { inputs: [coarse([6, 3], 4, 'float32', 1)], attrs: { ...ALL, axis: 0 }, note: 'unique rows' },
  { inputs: [coarse([2, 6, 2], 5, 'float32', 1)], attrs: { ...ALL, axis: 1 }, note: 'middle axis' },
  { inputs: [coarse([3, 8], 6, 'float32', 1)], attrs: { return_inverse: true, axis: -1 }, note: 'columns' },
  { inputs: [nd([], [2.5])], attrs: ALL, note: '0-dim' },
  { inputs: [nd([0, 3], [])], attrs: ALL, note: 'empty' },
  { inputs: [nd([0, 3], [])], attrs: { ...ALL, axis: 1 }, note: 'empty slices are all equal' },
  { inputs: [coarse([4, 6], 7)], attrs: ALL, strided: true },
  { inputs: [coarse([6, 4], 8, 'float32', 1)], attrs: { ...ALL, axis: 0 }, strided: true },
  { inputs: [nd([7], [2, NaN, -0, 0, NaN, 2, -Infinity])], attrs: ALL, note: 'NaNs stay distinct, -0 == 0' },
  { inputs: [coarse([3, 9], 9, 'int32')], attrs: { ...ALL, dtype: 'int32' } },
  { inputs: [{ shape: [4], data: [2 ** 53 + 1, 2 ** 53, 2 ** 53 + 1, 5], dtype: 'int64' }], attrs: ALL, note: 'int64 beyond 2^53' },
  { inputs: [coarse([300, 400], 10, 'float32', 50)], attrs: ALL, note: 'threaded merge sort' },
];
addRecords({
  op: 'unique',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: uniqueSamples,
  ref: ([x], attrs) => groupRef(x as NDArray, attrs, true),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], error: /unique: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool/ },
    { inputs: [coarse([2, 3], 1)], attrs: { axis: 2 }, error: /unique: axis 2 is out of range for a tensor of rank 2/ },
    { inputs: [nd([], [1])], attrs: { axis: 0 }, error: /unique: axis must be None for a 0-dim input/ },
    { inputs: [coarse([2, 3], 1)], attrs: { dtype: 'float32' }, error: /unique: dtype must be int32 or int64, got float32/ },
  ],
});

const consecutiveSamples: Sample[] = [
  { inputs: [nd([8], [1, 1, 2, 2, 3, 1, 1, 2])] },
  { inputs: [nd([8], [1, 1, 2, 2, 3, 1, 1, 2])], attrs: { return_inverse: true, return_counts: true } },
  { inputs: [coarse([3, 7], 2, 'float32', 1)], attrs: { return_counts: true } },
  { inputs: [nd([5, 2], [1, 2, 1, 2, 3, 3, 1, 2, 1, 2])], attrs: { return_inverse: true, return_counts: true, axis: 0 }, note: 'rows' },
  { inputs: [coarse([2, 6, 2], 5, 'float32', 1)], attrs: { return_inverse: true, return_counts: true, axis: 1 } },
  { inputs: [nd([], [2.5])], attrs: { return_inverse: true, return_counts: true }, note: '0-dim' },
  { inputs: [nd([0], [])], attrs: { return_inverse: true, return_counts: true }, note: 'empty' },
  { inputs: [coarse([4, 6], 7, 'float32', 1)], attrs: { return_inverse: true, return_counts: true }, strided: true },
  { inputs: [nd([5], [NaN, NaN, 1, 1, NaN])], attrs: { return_counts: true }, note: 'NaNs stay distinct' },
  { inputs: [coarse([40], 9, 'int64', 1)], attrs: { return_inverse: true, dtype: 'int32' } },
  { inputs: [coarse([200000], 10, 'float32', 1)], attrs: { return_inverse: true, return_counts: true }, note: 'large' },
];
addRecords({
  op: 'unique_consecutive',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: consecutiveSamples,
  ref: ([x], attrs) => groupRef(x as NDArray, attrs, false),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'uint8')], error: /unique_consecutive: expected a float16, bfloat16, float32, float64, int32 or int64 input, got uint8/ },
    { inputs: [coarse([2, 3], 1)], attrs: { axis: -3 }, error: /unique_consecutive: axis -3 is out of range/ },
  ],
});

function bincountRef(x: NDArray, w: NDArray | null, minlength: number): NDArray {
  const len = Math.max(minlength, x.data.reduce((m, v) => Math.max(m, v + 1), 0));
  const out = new Array<number>(len).fill(0);
  x.data.forEach((v, i) => { out[v] += w ? w.data[i] : 1; });
  return { shape: [len], data: out, dtype: w ? (w.dtype === 'float32' ? 'float32' : 'float64') : 'int64' };
}
const ints = (n: number, seed: number, hi: number, dtype: DType = 'int64'): NDArray => rand([n], dtype, seed, 0, hi);
addRecords({
  op: 'bincount',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: [
    { inputs: [ints(20, 1, 6)] },
    { inputs: [ints(20, 2, 6, 'int32')], attrs: { minlength: 10 }, note: 'minlength' },
    { inputs: [ints(20, 3, 6), rand([20], 'float32', 4, 0, 1)], note: 'float32 weights' },
    { inputs: [ints(20, 5, 6), rand([20], 'float64', 6, -1, 1)], note: 'float64 weights' },
    { inputs: [ints(20, 7, 6), rand([20], 'int32', 8, -5, 5)], note: 'int weights give float64' },
    { inputs: [nd([0], [], 'int64')], attrs: { minlength: 3 }, note: 'empty' },
    { inputs: [nd([0], [], 'int64')], note: 'empty, no minlength' },
    { inputs: [ints(12, 9, 5)], strided: true },
    { inputs: [ints(300000, 10, 1000)], note: 'threaded private rows' },
    { inputs: [ints(300000, 11, 1000), rand([300000], 'float64', 12, 0, 1)], note: 'threaded weights' },
  ],
  ref: ([x, w], attrs) => bincountRef(x as NDArray, (w as NDArray | null) ?? null, (attrs.minlength as number | undefined) ?? 0),
  atol: 1e-6,
  rtol: 1e-5,
  bad: [
    { inputs: [nd([3], [1, -2, 0], 'int64')], error: /bincount: the elements of x must be non-negative, got -2/ },
    { inputs: [nd([2], [1, 2])], error: /bincount: x must be int32 or int64, got float32/ },
    { inputs: [nd([2, 1], [1, 2], 'int64')], error: /bincount: x must be 1-D, got shape \[2, 1\]/ },
    { inputs: [nd([2], [1, 2], 'int64'), nd([3], [1, 1, 1])], error: /bincount: weights of shape \[3\] must have x's shape \[2\]/ },
    { inputs: [nd([2], [1, 2], 'int64')], attrs: { minlength: -1 }, error: /bincount: minlength must be a non-negative int, got -1/ },
    { inputs: [nd([2], [1, 2], 'int64'), nd([2], [1, 0], 'bool')], error: /bincount: weights must be float32, float64, int32 or int64, got bool/ },
  ],
});
