// Records for median, nanmedian, quantile and mode (src/ops/defs/reduce_order.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';
import { reduceRef } from './scan.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
/** Few distinct values, so medians of even counts and modes have ties. */
const coarse = (shape: number[], seed: number): NDArray => ({ ...rand(shape, 'float32', seed, -3, 3), data: rand(shape, 'float32', seed, -3, 3).data.map(Math.round) });
const sorted = (v: number[]): number[] => [...v].sort((a, b) => a - b);

function med(v: number[], lower: boolean): number {
  if (v.length === 0 || v.some(Number.isNaN)) return NaN;
  const s = sorted(v), k = (s.length - 1) >> 1;
  return lower || s.length % 2 ? s[k] : (s[k] + s[k + 1]) / 2;
}

const AXIS_SAMPLES = (mk: (shape: number[], seed: number) => NDArray): Sample[] => [
  { inputs: [mk([3, 4], 1)] },
  { inputs: [mk([2, 3, 4], 2)], attrs: { axis: 1 } },
  { inputs: [mk([2, 3, 4], 3)], attrs: { axis: -1, keepdim: true } },
  { inputs: [mk([2, 5], 4)], attrs: { axis: 0 } },
  { inputs: [mk([], 5)], note: '0-dim' },
  { inputs: [mk([4, 5], 6)], attrs: { axis: 1 }, strided: true },
  { inputs: [mk([40, 3000], 7)], attrs: { axis: 1 }, note: 'threaded' },
];

const medianSamples: Sample[] = [
  ...AXIS_SAMPLES(coarse), ...AXIS_SAMPLES(r32),
  { inputs: [nd([2, 3], [1, NaN, 3, 4, 5, 6])], attrs: { axis: 1 }, note: 'NaN' },
  { inputs: [rand([3, 4], 'int32', 8, -9, 9)], attrs: { axis: 1 } },
  { inputs: [nd([0, 3], [])], attrs: { axis: 0 }, note: 'empty slices give NaN' },
];
addRecords({
  op: 'median',
  samples: [...medianSamples, ...medianSamples.map((s) => ({ ...s, attrs: { ...s.attrs, mode: 'min' } }))],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const lower = attrs.mode === 'min';
    const dt: DType = lower ? X.dtype : X.dtype === 'float64' ? 'float64' : 'float32';
    const r = reduceRef(X, attrs.axis ?? null, Boolean(attrs.keepdim), (v) => med(v, lower));
    return { ...r, data: r.data.map((v) => (Number.isNaN(v) && !dt.includes('float') ? 0 : finalize(v, dt))), dtype: dt };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], error: /median: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool/ },
    { inputs: [r32([2, 3], 1)], attrs: { mode: 'max' }, error: /median: mode must be 'avg' or 'min'/ },
    { inputs: [r32([2, 3], 1)], attrs: { axis: [0, 1] }, error: /median: axis must be an int or None/ },
  ],
});

addRecords({
  op: 'nanmedian',
  samples: [
    ...AXIS_SAMPLES(coarse), ...AXIS_SAMPLES(r32),
    { inputs: [nd([2, 4], [1, NaN, 3, 2, NaN, NaN, NaN, NaN])], attrs: { axis: 1 }, note: 'NaN ignored, all-NaN row' },
    { inputs: [r32([2, 3, 4], 9)], attrs: { axis: [0, 2], keepdim: false }, note: 'axis list' },
    { inputs: [rand([3, 4], 'int64', 10, -9, 9)], attrs: { axis: 1 }, note: 'int averages truncate' },
    { inputs: [nd([0, 3], [])], attrs: { axis: 0 }, note: 'empty' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const r = reduceRef(X, attrs.axis ?? null, Boolean(attrs.keepdim), (v) => med(v.filter((e) => !Number.isNaN(e)), false));
    return { ...r, data: r.data.map((v) => finalize(v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [{ inputs: [nd([2], [1, 0], 'uint8')], error: /nanmedian: expected a float16, bfloat16, float32, float64, int32 or int64 input, got uint8/ }],
});

function quant(v: number[], q: number): number {
  if (v.length === 0 || v.some(Number.isNaN)) return NaN;
  const s = sorted(v), pos = q * (s.length - 1), lo = Math.floor(pos), hi = Math.min(s.length - 1, lo + 1);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const QS = [[0.5], [0, 0.25, 1], [0.9, 0.1]];
addRecords({
  op: 'quantile',
  samples: [
    ...QS.flatMap((q) => AXIS_SAMPLES(r32).map((s) => ({ ...s, attrs: { ...s.attrs, q } }))),
    { inputs: [r32([2, 3, 4], 9)], attrs: { q: [0.3], axis: [0, 2] }, note: 'axis list' },
    { inputs: [nd([2, 3], [1, NaN, 3, 4, 5, 6])], attrs: { q: [0.5], axis: 1 }, note: 'NaN' },
    { inputs: [nd([0, 3], [])], attrs: { q: [0.5], axis: 0 }, note: 'empty' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const qs = attrs.q as number[];
    const parts = qs.map((q) => reduceRef(X, attrs.axis ?? null, Boolean(attrs.keepdim), (v) => quant(v, q)));
    return { shape: [qs.length, ...parts[0].shape], data: parts.flatMap((p) => p.data).map((v) => finalize(v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 2], 'int32')], attrs: { q: [0.5] }, error: /quantile: expected a floating-point input, got int32/ },
    { inputs: [r32([2, 3], 1)], attrs: { q: [1.5] }, error: /quantile: q must be a number or a non-empty list of numbers in \[0, 1\]/ },
  ],
});

function modeOf(v: number[]): [number, number] {
  const idx = v.map((_, i) => i).sort((a, b) => (v[a] - v[b]) || (a - b));
  let best = -1, bestLen = 0;
  for (let i = 0; i < idx.length;) {
    let j = i + 1;
    while (j < idx.length && v[idx[j]] === v[idx[i]]) j++;
    if (j - i > bestLen) { bestLen = j - i; best = idx[j - 1]; }
    i = j;
  }
  return [v[best], best];
}
addRecords({
  op: 'mode',
  samples: [
    { inputs: [coarse([3, 8], 1)] },
    { inputs: [coarse([2, 6, 4], 2)], attrs: { axis: 1 } },
    { inputs: [coarse([2, 6, 4], 3)], attrs: { axis: 0, keepdim: true } },
    { inputs: [nd([], [2.5])], note: '0-dim' },
    { inputs: [nd([0, 3], [])], note: 'empty output' },
    { inputs: [coarse([4, 9], 4)], strided: true },
    { inputs: [rand([3, 10], 'int32', 5, -3, 3)] },
    { inputs: [nd([6], [3, 1, 3, 1, 2, 2])], note: 'tie: smallest value, last index' },
    { inputs: [coarse([64, 500], 6)], note: 'threaded' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const axis = (attrs.axis as number | undefined) ?? -1;
    const vals = reduceRef(X, X.shape.length ? axis : null, Boolean(attrs.keepdim), (v) => modeOf(v)[0]);
    const idx = reduceRef(X, X.shape.length ? axis : null, Boolean(attrs.keepdim), (v) => modeOf(v)[1]);
    return [{ ...vals, dtype: X.dtype }, { ...idx, dtype: 'int64' }];
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], error: /mode: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool/ },
    { inputs: [nd([3, 0], [])], error: /mode: cannot take the mode of an empty dimension/ },
  ],
});
