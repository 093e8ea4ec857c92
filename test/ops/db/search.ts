// Records for searchsorted, bucketize and histogram (src/ops/defs/search.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand, size } from '../ref.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
/** Sorted rows along the last dim (ties included when `coarse`). */
function sortedRows(shape: number[], seed: number, dtype: DType = 'float32', coarse = false): NDArray {
  const x = rand(shape, dtype, seed, -3, 3);
  const n = shape[shape.length - 1];
  const data = coarse ? x.data.map(Math.round) : [...x.data];
  for (let r = 0; r * n < data.length; r++) {
    const row = data.slice(r * n, (r + 1) * n).sort((a, b) => a - b);
    data.splice(r * n, n, ...row);
  }
  return asDType({ shape, data, dtype }, dtype);
}

/** Index of the first seq element >= v (right: > v); NaN and infinities give the length, as Paddle. */
function bound(seq: number[], v: number, right: boolean): number {
  if (!Number.isFinite(v)) return seq.length;
  let i = 0;
  while (i < seq.length && (right ? seq[i] <= v : seq[i] < v)) i++;
  return i;
}

function searchRef(seq: NDArray, vals: NDArray, attrs: Record<string, unknown>): NDArray {
  const n = seq.shape[seq.shape.length - 1];
  const row = seq.shape.length === 1 ? Math.max(size(vals.shape), 1) : vals.shape[vals.shape.length - 1];
  const data = vals.data.map((v, i) => {
    const r = Math.floor(i / row);
    return bound(seq.data.slice(r * n, (r + 1) * n), v, Boolean(attrs.right));
  });
  return { shape: vals.shape, data, dtype: attrs.out_int32 ? 'int32' : 'int64' };
}

const searchSamples: Sample[] = [
  { inputs: [sortedRows([8], 1), r32([3, 4], 2, -4, 4)] },
  { inputs: [sortedRows([8], 3, 'float32', true), nd([5], [-3, 0, 1, 2, 3.5])], note: 'ties' },
  { inputs: [sortedRows([2, 6], 4), r32([2, 5], 5, -4, 4)], note: 'one row per leading index' },
  { inputs: [sortedRows([2, 3, 5], 6), r32([2, 3, 4], 7, -4, 4)], note: 'rank 3' },
  { inputs: [sortedRows([5], 8), nd([], [0.25])], note: '0-dim value' },
  { inputs: [sortedRows([5], 9), nd([0, 3], [])], note: 'empty values' },
  { inputs: [nd([0], []), r32([3], 10)], note: 'empty sequence' },
  { inputs: [sortedRows([6], 11), nd([5], [NaN, Infinity, -Infinity, 0, 3])], note: 'non-finite values give the length' },
  { inputs: [sortedRows([4, 7], 12), r32([4, 6], 13, -4, 4)], strided: true },
  { inputs: [sortedRows([9], 14, 'int32'), rand([10], 'int64', 15, -4, 4)], note: 'int32 sequence, int64 values' },
  { inputs: [sortedRows([9], 16, 'int64', true), r32([10], 17, -4, 4)], note: 'int sequence, float values' },
  { inputs: [sortedRows([1000], 18), r32([60, 500], 19, -4, 4)], note: 'threaded' },
];
const both = (ss: Sample[]): Sample[] => [...ss, ...ss.map((s) => ({ ...s, attrs: { ...s.attrs, right: true }, note: `${s.note ?? ''} right` })),
  ...ss.slice(0, 3).map((s) => ({ ...s, attrs: { ...s.attrs, out_int32: true }, note: 'out_int32' }))];

addRecords({
  op: 'searchsorted',
  samples: both(searchSamples),
  ref: ([seq, vals], attrs) => searchRef(seq as NDArray, vals as NDArray, attrs),
  dtypes: ['float64'],
  bad: [
    { inputs: [nd([3], [1, 2, 3], 'float16'), r32([2], 1)], error: /searchsorted: sorted_sequence must be float32, float64, int32 or int64, got float16/ },
    { inputs: [r32([3], 1), nd([2], [1, 0], 'bool')], error: /searchsorted: values must be float32, float64, int32 or int64, got bool/ },
    { inputs: [nd([], [1]), r32([2], 1)], error: /searchsorted: sorted_sequence must have at least one dim/ },
    { inputs: [sortedRows([2, 4], 1), r32([3, 4], 1)], error: /searchsorted: sorted_sequence of shape \[2, 4\] needs values with the same leading dims \[2\], got \[3, 4\]/ },
    { inputs: [sortedRows([2, 4], 1), r32([4], 1)], error: /searchsorted: sorted_sequence of shape \[2, 4\] needs values/ },
  ],
});

addRecords({
  op: 'bucketize',
  samples: both(searchSamples.filter((s) => (s.inputs[0] as NDArray).shape.length === 1).map((s) => ({ ...s, inputs: [s.inputs[1], s.inputs[0]] }))),
  ref: ([x, seq], attrs) => searchRef(seq as NDArray, x as NDArray, attrs),
  dtypes: ['float64'],
  bad: [
    { inputs: [r32([3], 1), sortedRows([2, 4], 1)], error: /bucketize: sorted_sequence must be 1-D, got shape \[2, 4\]/ },
    { inputs: [nd([2], [1, 0], 'uint8'), r32([3], 1)], error: /bucketize: x must be float32, float64, int32 or int64, got uint8/ },
  ],
});

function histRef(x: NDArray, attrs: Record<string, unknown>): NDArray {
  const bins = (attrs.bins as number | undefined) ?? 100;
  const isInt = x.dtype.startsWith('int');
  let lo = (attrs.min as number | undefined) ?? 0, hi = (attrs.max as number | undefined) ?? 0;
  if (isInt) { lo = Math.trunc(lo); hi = Math.trunc(hi); }
  if (lo === hi) {
    const finite = x.data.filter((v) => !Number.isNaN(v));
    lo = finite.length ? finite.reduce((a, b) => Math.min(a, b)) : 0;
    hi = finite.length ? finite.reduce((a, b) => Math.max(a, b)) : 0;
    if (lo === hi) { lo -= 1; hi += 1; }
  }
  const out = new Array<number>(bins).fill(0);
  for (const v of x.data) if (v >= lo && v <= hi) out[Math.min(Math.floor((v - lo) * bins / (hi - lo)), bins - 1)]++;
  return { shape: [bins], data: out, dtype: 'int64' };
}

const histSamples: Sample[] = [
  { inputs: [r32([3, 40], 1)] },
  { inputs: [r32([50], 2)], attrs: { bins: 7, min: -1, max: 1 }, note: 'values outside skipped' },
  { inputs: [nd([6], [0, 1, 2, 3, 4, 4])], attrs: { bins: 4 }, note: 'max in the last bin' },
  { inputs: [nd([], [2.5])], attrs: { bins: 3 }, note: '0-dim: range widened by 1' },
  { inputs: [nd([0, 2], [])], attrs: { bins: 5 }, note: 'empty' },
  { inputs: [nd([5], [1, NaN, 3, Infinity, 2])], attrs: { bins: 4, min: 0, max: 4 }, note: 'NaN and inf skipped' },
  { inputs: [nd([4], [1, NaN, 3, 2])], attrs: { bins: 4 }, note: 'NaN ignored by the data range' },
  { inputs: [r32([6, 8], 3)], attrs: { bins: 10 }, strided: true },
  { inputs: [rand([30], 'int32', 4, -5, 5)], attrs: { bins: 5 } },
  { inputs: [rand([30], 'int64', 5, -5, 5)], attrs: { bins: 4, min: -2.7, max: 3.9 }, note: 'int bounds truncate' },
  { inputs: [r32([300000], 6)], attrs: { bins: 64 }, note: 'threaded chunks' },
];
addRecords({
  op: 'histogram',
  samples: histSamples,
  ref: ([x], attrs) => histRef(x as NDArray, attrs),
  dtypes: ['float64'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], error: /histogram: input must be float32, float64, int32 or int64, got bool/ },
    { inputs: [r32([4], 1)], attrs: { bins: 0 }, error: /histogram: bins must be a positive int, got 0/ },
    { inputs: [r32([4], 1)], attrs: { min: 2, max: 1 }, error: /histogram: max must be larger than or equal to min, got min=2, max=1/ },
    { inputs: [r32([4], 1)], attrs: { min: 0, max: Infinity }, error: /histogram: min and max must be finite/ },
  ],
});
