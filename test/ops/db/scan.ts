// Records for the scans (src/ops/defs/scan.ts) and amax/amin/count_nonzero (src/ops/defs/reduce_more.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { castValue, nd, type NDArray, rand, size } from '../ref.js';
import { finalize } from './unary.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');

/** Splits a shape at `axis` (null: flattened) into [outer, n, inner]. */
function geom(shape: number[], axis: number | null | undefined): [number, number, number, number[]] {
  if (axis === null || axis === undefined) return [1, size(shape), 1, [size(shape)]];
  if (shape.length === 0) return [1, 1, 1, []];
  const a = axis < 0 ? axis + shape.length : axis;
  return [size(shape.slice(0, a)), shape[a], size(shape.slice(a + 1)), shape];
}

/** Runs `step(acc, v, j)` along the axis; returns per-element [value, index] pairs. */
function scan(x: NDArray, axis: number | null | undefined, init: (v: number) => number, step: (acc: number, v: number) => number): { shape: number[]; data: number[] } {
  const [outer, n, inner, shape] = geom(x.shape, axis);
  const data = new Array<number>(x.data.length);
  for (let o = 0; o < outer; o++) for (let k = 0; k < inner; k++) {
    let acc = 0;
    for (let j = 0; j < n; j++) {
      const p = (o * n + j) * inner + k;
      acc = j === 0 ? init(x.data[p]) : step(acc, x.data[p]);
      data[p] = acc;
    }
  }
  return { shape, data };
}

const AXES_SAMPLES = (mk: (shape: number[], seed: number) => NDArray): Sample[] => [
  { inputs: [mk([2, 3, 4], 1)], attrs: { axis: 1 } },
  { inputs: [mk([2, 3, 4], 2)], attrs: { axis: -1 } },
  { inputs: [mk([2, 3, 4], 3)], attrs: { axis: 0 } },
  { inputs: [mk([3, 4], 4)], note: 'axis None flattens' },
  { inputs: [mk([], 5)], attrs: { axis: 0 }, note: '0-dim' },
  { inputs: [mk([0, 3], 6)], attrs: { axis: 0 }, note: 'empty' },
  { inputs: [mk([4, 5], 7)], attrs: { axis: 1 }, strided: true },
  { inputs: [mk([3, 300, 70], 8)], attrs: { axis: 1 }, note: 'threaded, inner chunks' },
];
const rename = (samples: Sample[], key: string): Sample[] =>
  samples.map((s) => (s.attrs && 'axis' in s.attrs ? { ...s, attrs: { [key]: s.attrs.axis } } : s));

const isFloat = (d: DType): boolean => d.startsWith('float') || d === 'bfloat16';

addRecords({
  op: 'cumprod',
  samples: [
    ...rename(AXES_SAMPLES((s, k) => r32(s, k, 0.5, 1.5)), 'dim'),
    { inputs: [nd([6], [1, NaN, 2, Infinity, 0, 3])], attrs: { dim: 0 }, note: 'NaN, inf, zero' },
    { inputs: [rand([3, 4], 'int32', 9, -5, 5)], attrs: { dim: 1 }, strided: true },
    { inputs: [nd([5], [100, 100, 100, 100, 100], 'int32')], attrs: { dim: 0 }, note: 'int32 wraps' },
    { inputs: [nd([4], [1, 0, 1, 1], 'bool')], attrs: { dim: 0, dtype: 'int64' }, note: 'bool with dtype' },
    { inputs: [r32([2, 3], 10)], attrs: { dim: 1, dtype: 'float64' }, note: 'float32 to float64' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const dt = (attrs.dtype as DType | undefined) ?? X.dtype;
    const wrap = (v: number): number => (isFloat(dt) ? v : Number(BigInt.asIntN(dt === 'int32' ? 32 : 64, BigInt(v))));
    const r = scan(X, attrs.dim as number | null | undefined, (v) => v, (a, v) => wrap(a * v));
    return { shape: r.shape, data: r.data.map((v) => finalize(v, dt)), dtype: dt };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  atol: 1e-6,
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], error: /cumprod: bool input needs a dtype/ },
    { inputs: [r32([2, 3], 1)], attrs: { dim: 2 }, error: /cumprod: .*axis 2.*out of range|cumprod:.*2/ },
  ],
});

addRecords({
  op: 'logcumsumexp',
  samples: [
    ...AXES_SAMPLES((s, k) => r32(s, k, -30, 30)),
    { inputs: [nd([6], [-Infinity, 1, Infinity, 2, -Infinity, 3])], attrs: { axis: 0 }, note: 'infinities' },
    { inputs: [nd([4], [1, NaN, 2, 3])], attrs: { axis: 0 }, note: 'NaN' },
    { inputs: [nd([3], [1000, 1000, -1000])], attrs: { axis: 0 }, note: 'no overflow' },
    { inputs: [r32([2, 3], 10)], attrs: { axis: 1, dtype: 'float64' }, note: 'dtype' },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const dt = (attrs.dtype as DType | undefined) ?? X.dtype;
    const lse = (a: number, v: number): number => {
      if (Number.isNaN(a) || Number.isNaN(v)) return NaN;
      const hi = Math.max(a, v), lo = Math.min(a, v);
      return lo === -Infinity ? hi : hi === Infinity ? Infinity : hi + Math.log1p(Math.exp(lo - hi));
    };
    const r = scan(X, attrs.axis as number | null | undefined, (v) => v, lse);
    return { shape: r.shape, data: r.data.map((v) => finalize(v, dt)), dtype: dt };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'int32')], error: /logcumsumexp: expected a floating-point input, got int32/ },
    { inputs: [r32([2], 1)], attrs: { dtype: 'int32' }, error: /logcumsumexp: dtype must be a floating type, got int32/ },
  ],
});

for (const op of ['cummax', 'cummin'] as const) {
  const max = op === 'cummax';
  addRecords({
    op,
    samples: [
      ...AXES_SAMPLES((s, k) => r32(s, k)),
      { inputs: [nd([7], [1, 3, 3, NaN, 5, NaN, 0])], attrs: { axis: 0 }, note: 'ties take the later index, NaN propagates' },
      { inputs: [rand([3, 4], 'int32', 11, -3, 3)], attrs: { axis: 1 }, strided: true },
      { inputs: [rand([2, 5], 'int64', 12, -3, 3)], attrs: { axis: 0, dtype: 'int32' }, note: 'int32 indices' },
      { inputs: [nd([4], [-128, 5, 127, -1], 'int8')], attrs: { axis: 0 } },
    ],
    ref: ([x], attrs) => {
      const X = x as NDArray;
      const [outer, n, inner, shape] = geom(X.shape, attrs.axis as number | null | undefined);
      const vals = new Array<number>(X.data.length), idx = new Array<number>(X.data.length);
      for (let o = 0; o < outer; o++) for (let k = 0; k < inner; k++) {
        let acc = 0, at = 0;
        for (let j = 0; j < n; j++) {
          const p = (o * n + j) * inner + k, v = X.data[p];
          if (j === 0 || Number.isNaN(v) || (!Number.isNaN(acc) && (max ? v >= acc : v <= acc))) { acc = v; at = j; }
          vals[p] = acc;
          idx[p] = at;
        }
      }
      return [{ shape, data: vals, dtype: X.dtype }, { shape, data: idx, dtype: (attrs.dtype as DType | undefined) ?? 'int64' }];
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: bool input is not supported`) },
      { inputs: [r32([2], 1)], attrs: { dtype: 'float32' }, error: new RegExp(`${op}: dtype must be int32 or int64, got float32`) },
    ],
  });
}

// amax / amin / count_nonzero.
export function reduceRef(x: NDArray, axis: unknown, keepdim: boolean, f: (vals: number[]) => number): { shape: number[]; data: number[] } {
  const rank = x.shape.length;
  const list = axis === null || axis === undefined ? [] : Array.isArray(axis) ? (axis as number[]) : [axis as number];
  const axes = (list.length ? list.map((a) => (a < 0 ? a + Math.max(rank, 1) : a)) : [...Array(rank).keys()]).filter((a) => a < rank);
  const outShape = x.shape.flatMap((d, i) => (axes.includes(i) ? (keepdim ? [1] : []) : [d]));
  const keptDims = x.shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const groups = new Map<number, number[]>();
  const st = x.shape.map((_, i) => size(x.shape.slice(i + 1)));
  for (let p = 0; p < x.data.length; p++) {
    let key = 0;
    for (const d of keptDims) key = key * x.shape[d] + (Math.floor(p / st[d]) % x.shape[d]);
    const g = groups.get(key);
    if (g) g.push(x.data[p]); else groups.set(key, [x.data[p]]);
  }
  const n = size(outShape);
  const data = Array.from({ length: n }, (_, k) => f(groups.get(k) ?? []));
  return { shape: outShape, data };
}

const RED_SAMPLES = (mk: (shape: number[], seed: number) => NDArray): Sample[] => [
  { inputs: [mk([2, 3, 4], 1)] },
  { inputs: [mk([2, 3, 4], 2)], attrs: { axis: 1 } },
  { inputs: [mk([2, 3, 4], 3)], attrs: { axis: [0, 2], keepdim: true } },
  { inputs: [mk([2, 3, 4], 4)], attrs: { axis: -1 } },
  { inputs: [mk([], 5)], note: '0-dim' },
  { inputs: [mk([4, 5], 6)], attrs: { axis: 0 }, strided: true },
  { inputs: [mk([3, 70000], 7)], attrs: { axis: 1 }, note: 'long rows, chunked' },
];

for (const op of ['amax', 'amin'] as const) {
  addRecords({
    op,
    samples: [
      ...RED_SAMPLES((s, k) => r32(s, k)),
      { inputs: [nd([2, 3], [1, NaN, 3, 4, 5, 6])], attrs: { axis: 1 }, note: 'NaN propagates' },
      { inputs: [rand([3, 4], 'int32', 9, -50, 50)], attrs: { axis: 1 } },
      { inputs: [nd([0, 3], [])], attrs: { axis: 1 }, note: 'empty output' },
    ],
    ref: ([x], attrs) => {
      const X = x as NDArray;
      const r = reduceRef(X, attrs.axis, Boolean(attrs.keepdim), (v) => v.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : op === 'amax' ? Math.max(a, b) : Math.min(a, b))));
      return { ...r, dtype: X.dtype };
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: bool input is not supported`) },
      { inputs: [nd([2, 0], [])], attrs: { axis: 1 }, error: new RegExp(`${op}: cannot reduce over an empty dimension`) },
    ],
  });
}

addRecords({
  op: 'count_nonzero',
  samples: [
    ...RED_SAMPLES((s, k) => asDType({ ...rand(s, 'float32', k, -1, 2), data: rand(s, 'float32', k, -1, 2).data.map((v) => (v < 0.5 ? 0 : v)) }, 'float32')),
    { inputs: [nd([4], [NaN, 0, -0, Infinity])], note: 'NaN counts' },
    { inputs: [rand([3, 4], 'int32', 9, -2, 2)], attrs: { axis: 1 } },
    { inputs: [rand([3, 4], 'bool', 10)], attrs: { axis: 0, keepdim: true } },
    { inputs: [nd([0, 3], [])], attrs: { axis: 0 }, note: 'empty: zeros' },
  ],
  ref: ([x], attrs) => {
    const r = reduceRef(x as NDArray, attrs.axis, Boolean(attrs.keepdim), (v) => v.filter((e) => e !== 0).length);
    return { ...r, data: r.data.map((v) => castValue(v, 'int64')), dtype: 'int64' };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [{ inputs: [r32([2, 3], 1)], attrs: { axis: 3 }, error: /count_nonzero: .*3/ }],
});
