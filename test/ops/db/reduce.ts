// Records for the reductions and cumsum (src/ops/defs/reduce.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { nd, type NDArray, rand, size, stridesOf, unravel } from '../ref.js';
import { finalize } from './unary.js';

type Axis = number | number[] | null | undefined;

function normAxes(axis: Axis, rank: number): number[] {
  if (axis === null || axis === undefined || (Array.isArray(axis) && axis.length === 0)) return [...Array(rank).keys()];
  const list = Array.isArray(axis) ? axis : [axis];
  return list.map((a) => (a < 0 ? a + Math.max(rank, 1) : a)).filter((a) => a < rank);
}

/** Groups the elements of x by output position and applies f to each group (in index order). */
function reduceRef(x: NDArray, axis: Axis, keepdim: boolean, f: (vals: number[]) => number, dtype: DType): NDArray {
  const axes = normAxes(axis, x.shape.length);
  const outShape: number[] = [];
  const kept: number[] = [];
  x.shape.forEach((d, i) => {
    if (axes.includes(i)) { if (keepdim) outShape.push(1); } else { outShape.push(d); kept.push(i); }
  });
  const keptShape = kept.map((i) => x.shape[i]);
  const keptStrides = stridesOf(keptShape);
  const groups: number[][] = Array.from({ length: size(keptShape) }, () => []);
  for (let i = 0; i < x.data.length; i++) {
    const idx = unravel(i, x.shape);
    let o = 0;
    kept.forEach((d, k) => { o += idx[d] * keptStrides[k]; });
    groups[o].push(x.data[i]);
  }
  return { shape: outShape, data: groups.map((g) => finalize(f(g), dtype)), dtype };
}

const isInt = (d: DType): boolean => d.startsWith('int') || d === 'uint8';
const sumOf = (v: number[]): number => v.reduce((a, b) => a + b, 0);
const meanOf = (v: number[]): number => sumOf(v) / v.length;
const nanAware = (pick: (a: number, b: number) => number) => (v: number[]): number =>
  v.some(Number.isNaN) ? NaN : v.reduce((a, b) => pick(a, b));
const lse = (v: number[]): number => {
  const m = nanAware(Math.max)(v.length ? v : [-Infinity]);
  if (!Number.isFinite(m)) return m;
  return m + Math.log(sumOf(v.map((x) => Math.exp(x - m))));
};
const variance = (ddof: number) => (v: number[]): number => {
  const m = meanOf(v);
  return sumOf(v.map((x) => (x - m) * (x - m))) / Math.max(v.length - ddof, 0);
};
const argBest = (better: (a: number, b: number) => boolean) => (v: number[]): number => {
  let bi = 0;
  for (let i = 1; i < v.length; i++) {
    const a = v[i], b = v[bi];
    if (better(a, b) || (Number.isNaN(a) && !Number.isNaN(b))) bi = i;
  }
  return bi;
};

/** Samples every axis reduction shares: several axis sets, 0-dim, empty, strided, sizes that take each loop shape. */
function reduceSamples(lo = -2, hi = 2, extra: Record<string, unknown> = {}): Sample[] {
  const x = rand([2, 3, 4], 'float32', 1, lo, hi);
  const s = (inputs: NDArray[], attrs: Record<string, unknown>, more: Partial<Sample> = {}): Sample => ({ inputs, attrs: { ...extra, ...attrs }, ...more });
  return [
    s([x], {}),
    s([x], { axis: 1 }),
    s([x], { axis: [0, 2] }),
    s([x], { axis: -1, keepdim: true }),
    s([x], { axis: [] }, { note: 'empty axis list reduces all' }),
    s([x], { axis: [1, 2], keepdim: true }),
    s([rand([], 'float32', 2, lo, hi)], {}, { note: '0-dim' }),
    s([rand([], 'float32', 3, lo, hi)], { axis: 0, keepdim: true }, { note: '0-dim axis 0' }),
    s([rand([3, 4], 'float32', 4, lo, hi)], { axis: 0 }, { strided: true }),
    s([rand([3, 4], 'float32', 5, lo, hi)], { axis: 1, keepdim: true }, { strided: true }),
    s([rand([2, 1, 5], 'float32', 6, lo, hi)], { axis: 1 }, { note: 'size-1 axis' }),
    s([rand([300, 37], 'float32', 7, lo, hi)], { axis: 0 }, { note: 'outer layout' }),
    s([rand([37, 300], 'float32', 8, lo, hi)], { axis: 1 }, { note: 'inner layout' }),
    s([rand([70001], 'float32', 9, lo, hi)], {}, { note: 'long reduction split in chunks' }),
    s([rand([3, 30001], 'float32', 10, lo, hi)], { axis: 1 }, { note: 'few long rows' }),
    s([rand([30001, 3], 'float32', 11, lo, hi)], { axis: 0 }, { note: 'few long columns' }),
    s([rand([4, 5, 6], 'float32', 12, lo, hi)], { axis: [0, 2] }, { note: 'alternating groups' }),
  ];
}

const emptySamples = (extra: Record<string, unknown> = {}): Sample[] => [
  { inputs: [rand([0, 3])], attrs: { ...extra, axis: 0 }, note: 'empty reduction' },
  { inputs: [rand([0, 3])], attrs: { ...extra, axis: 1 }, note: 'empty output' },
  { inputs: [rand([0])], attrs: { ...extra }, note: 'empty to 0-dim' },
];

const badAxis = (op: string, extra: Record<string, unknown> = {}): BadInput[] => [
  { inputs: [rand([2, 3])], attrs: { ...extra, axis: 2 }, error: new RegExp(`${op}: axis 2 is out of range for a tensor of rank 2`) },
  { inputs: [rand([2, 3])], attrs: { ...extra, axis: [0, -2] }, error: new RegExp(`${op}: duplicate axis`) },
  { inputs: [rand([2, 3])], attrs: { ...extra, axis: 'x' }, error: new RegExp(`${op}: axis must be an int`) },
];

interface ReduceRec {
  f: (vals: number[]) => number;
  outDtype?: (x: DType, attrs: Record<string, unknown>) => DType;
  samples: Sample[];
  bad?: BadInput[];
  atol?: number;
  rtol?: number;
}

function reduceRecord(op: string, r: ReduceRec): void {
  addRecords({
    op,
    samples: r.samples,
    ref: ([x], a) => {
      const X = x as NDArray;
      return reduceRef(X, a.axis as Axis, Boolean(a.keepdim), r.f, r.outDtype ? r.outDtype(X.dtype, a) : X.dtype);
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [...badAxis(op), ...(r.bad ?? [])],
    atol: r.atol,
    rtol: r.rtol,
  });
}

const intSamples = (extra: Record<string, unknown> = {}): Sample[] => [
  { inputs: [rand([3, 4], 'int32', 20, -50, 50)], attrs: { ...extra, axis: 1 } },
  { inputs: [rand([3, 4], 'int64', 21, -50, 50)], attrs: { ...extra }, strided: true },
  { inputs: [nd([4], [100, 100, 50, 7], 'int8')], attrs: { ...extra }, note: 'int8' },
];
const floatBad = (op: string): BadInput => ({ inputs: [nd([2], [1, 2], 'int32')], error: new RegExp(`${op}: expected a floating-point input, got int32`) });
const boolBad = (op: string): BadInput => ({ inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: bool input is not supported`) });
const emptyBad = (op: string): BadInput => ({ inputs: [rand([0, 3])], attrs: { axis: 0 }, error: new RegExp(`${op}: cannot reduce over an empty dimension`) });
const SPECIAL: Sample = { inputs: [nd([2, 4], [NaN, 1, 2, 3, Infinity, -Infinity, 1, 2])], attrs: { axis: 1 }, note: 'NaN and inf' };

const sumDtype = (x: DType, a: Record<string, unknown>): DType => (a.dtype ? (a.dtype as DType) : x === 'bool' || x === 'int32' ? 'int64' : x);

reduceRecord('sum', {
  f: sumOf,
  outDtype: sumDtype,
  samples: [
    ...reduceSamples(), ...emptySamples(), ...intSamples(), SPECIAL,
    { inputs: [nd([2, 3], [1, 0, 1, 1, 1, 0], 'bool')], attrs: { axis: 1 }, note: 'bool gives int64' },
    { inputs: [rand([3, 4], 'int32', 22, -50, 50)], attrs: { dtype: 'float64' }, note: 'dtype attribute' },
    { inputs: [rand([1000000], 'float32', 23, 0, 1)], note: '1e6 float32 values sum accurately' },
  ],
});
reduceRecord('mean', { f: meanOf, samples: [...reduceSamples(), ...emptySamples(), SPECIAL], bad: [floatBad('mean')] });
reduceRecord('max', { f: nanAware(Math.max), samples: [...reduceSamples(), ...intSamples(), SPECIAL], bad: [boolBad('max'), emptyBad('max')] });
reduceRecord('min', { f: nanAware(Math.min), samples: [...reduceSamples(), ...intSamples(), SPECIAL], bad: [boolBad('min'), emptyBad('min')] });
reduceRecord('prod', {
  f: (v) => v.reduce((a, b) => a * b, 1),
  outDtype: (x, a) => (a.dtype ? (a.dtype as DType) : x),
  samples: [
    ...reduceSamples(0.9, 1.1).filter((s) => !/long/.test(s.note ?? '')), ...emptySamples(), SPECIAL,
    { inputs: [rand([3, 4], 'int32', 24, -5, 5)], attrs: { axis: 1 } },
    { inputs: [nd([3], [16, 16, 3], 'int8')], note: 'int8 wraps' },
    { inputs: [rand([2, 3], 'int32', 25, -5, 5)], attrs: { dtype: 'float32' }, note: 'dtype attribute' },
  ],
  bad: [boolBad('prod')],
});
const boolSamples: Sample[] = [
  { inputs: [nd([2, 3], [1, 0, 1, 1, 1, 1], 'bool')], attrs: { axis: 1 } },
  { inputs: [nd([2, 3], [0, 0, 0, 1, 0, 1], 'bool')], attrs: { axis: 0, keepdim: true }, strided: true },
  { inputs: [nd([4], [NaN, 0, -0, 2])], attrs: {}, note: 'NaN is true' },
  { inputs: [rand([3, 4], 'int32', 26, -1, 2)], attrs: { axis: 0 } },
];
reduceRecord('any', { f: (v) => (v.some((x) => x !== 0) ? 1 : 0), outDtype: () => 'bool', samples: [...reduceSamples(), ...emptySamples(), ...boolSamples] });
reduceRecord('all', { f: (v) => (v.every((x) => x !== 0) ? 1 : 0), outDtype: () => 'bool', samples: [...reduceSamples(), ...emptySamples(), ...boolSamples] });
reduceRecord('logsumexp', {
  f: lse,
  samples: [
    ...reduceSamples(-20, 20), ...emptySamples(), SPECIAL,
    { inputs: [nd([2, 2], [-Infinity, -Infinity, Infinity, 1])], attrs: { axis: 1 }, note: 'all -inf, +inf' },
    { inputs: [nd([3], [1000, 1000, 999])], note: 'no overflow' },
  ],
  bad: [floatBad('logsumexp')],
});
for (const op of ['var', 'std'] as const) {
  const root = op === 'std';
  addRecords({
    op,
    samples: [
      ...reduceSamples(), ...reduceSamples(-2, 2, { unbiased: false }), ...emptySamples(), SPECIAL,
      { inputs: [nd([2, 1], [3, 4])], attrs: { axis: 1 }, note: 'one element, unbiased: NaN' },
    ],
    ref: ([x], a) => {
      const X = x as NDArray;
      const f = (v: number[]): number => { const r = variance(a.unbiased === false ? 0 : 1)(v); return root ? Math.sqrt(r) : r; };
      return reduceRef(X, a.axis as Axis, Boolean(a.keepdim), f, X.dtype);
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [...badAxis(op), floatBad(op)],
  });
}

for (const op of ['argmax', 'argmin'] as const) {
  const better = op === 'argmax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  const x = rand([2, 3, 4], 'float32', 30);
  addRecords({
    op,
    samples: [
      { inputs: [x] },
      { inputs: [x], attrs: { axis: 1 } },
      { inputs: [x], attrs: { axis: -1, keepdim: true } },
      { inputs: [x], attrs: { keepdim: true }, note: 'flattened, keepdim' },
      { inputs: [rand([], 'float32', 31)], note: '0-dim' },
      { inputs: [rand([], 'float32', 32)], attrs: { axis: 0 }, note: '0-dim axis 0' },
      { inputs: [rand([0, 3])], attrs: { axis: 1 }, note: 'empty output' },
      { inputs: [rand([3, 4], 'float32', 33)], attrs: { axis: 0 }, strided: true },
      { inputs: [nd([2, 4], [1, 3, 3, 1, 2, NaN, 5, NaN])], attrs: { axis: 1 }, note: 'ties and NaN: first wins' },
      { inputs: [rand([300, 37], 'float32', 34)], attrs: { axis: 0 }, note: 'outer layout' },
      { inputs: [rand([70001], 'float32', 35)], note: 'long' },
      { inputs: [rand([3, 4], 'int32', 36, -3, 3)], attrs: { axis: 1, dtype: 'int32' }, note: 'int32 output' },
    ],
    ref: ([xx], a) => {
      const X = xx as NDArray;
      const dtype = (a.dtype as DType | undefined) ?? 'int64';
      if (a.axis === undefined || a.axis === null) {
        const flat = { shape: [X.data.length], data: X.data, dtype: X.dtype };
        const r = reduceRef(flat, null, false, argBest(better), dtype);
        return { ...r, shape: a.keepdim ? X.shape.map(() => 1) : [] };
      }
      return reduceRef(X, a.axis as number, Boolean(a.keepdim), argBest(better), dtype);
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [rand([2, 3])], attrs: { axis: 2 }, error: new RegExp(`${op}: axis 2 is out of range for a tensor of rank 2`) },
      { inputs: [rand([2, 3])], attrs: { axis: [0, 1] }, error: new RegExp(`${op}: axis must be an int or None`) },
      { inputs: [rand([2, 3])], attrs: { dtype: 'float32' }, error: new RegExp(`${op}: dtype must be int32 or int64, got float32`) },
      { inputs: [rand([0, 3])], attrs: { axis: 0 }, error: new RegExp(`${op}: cannot take the index over an empty dimension`) },
      boolBad(op),
    ],
  });
}

function cumsumRef(x: NDArray, axis: number | null, dtype: DType): NDArray {
  if (axis === null || x.shape.length === 0) {
    let acc = 0;
    const data = x.data.map((v) => finalize((acc += isInt(dtype) ? Math.trunc(v) : v), dtype));
    return { shape: axis === null ? [x.data.length] : x.shape, data, dtype };
  }
  const ax = axis < 0 ? axis + x.shape.length : axis;
  const st = stridesOf(x.shape);
  const data = new Array<number>(x.data.length);
  for (let i = 0; i < x.data.length; i++) {
    const idx = unravel(i, x.shape);
    let acc = 0;
    for (let k = 0; k <= idx[ax]; k++) acc += x.data[i + (k - idx[ax]) * st[ax]];
    data[i] = finalize(acc, dtype);
  }
  return { shape: x.shape, data, dtype };
}

addRecords({
  op: 'cumsum',
  samples: [
    { inputs: [rand([2, 3, 4], 'float32', 40)] },
    { inputs: [rand([2, 3, 4], 'float32', 41)], attrs: { axis: 1 } },
    { inputs: [rand([2, 3, 4], 'float32', 42)], attrs: { axis: -1 } },
    { inputs: [rand([2, 3, 4], 'float32', 43)], attrs: { axis: 0 } },
    { inputs: [rand([], 'float32', 44)], note: '0-dim flattened' },
    { inputs: [rand([], 'float32', 45)], attrs: { axis: 0 }, note: '0-dim' },
    { inputs: [rand([0, 3])], attrs: { axis: 1 }, note: 'empty' },
    { inputs: [rand([3, 4], 'float32', 46)], attrs: { axis: 0 }, strided: true },
    { inputs: [rand([5, 300], 'float32', 47)], attrs: { axis: 0 }, note: 'wide rows' },
    { inputs: [nd([4], [1, NaN, 2, Infinity])], note: 'NaN' },
    { inputs: [rand([3, 4], 'int32', 48, -50, 50)], attrs: { axis: 1 } },
    { inputs: [rand([3, 4], 'int64', 49, -50, 50)], attrs: { axis: 0, dtype: 'float64' }, note: 'dtype attribute' },
    { inputs: [nd([3], [1, 0, 1], 'bool')], attrs: { dtype: 'int64' }, note: 'bool with dtype' },
  ],
  ref: ([x], a) => {
    const X = x as NDArray;
    return cumsumRef(X, (a.axis as number | undefined) ?? null, (a.dtype as DType | undefined) ?? X.dtype);
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [rand([2, 3])], attrs: { axis: 2 }, error: /cumsum: axis 2 is out of range for a tensor of rank 2/ },
    { inputs: [rand([2, 3])], attrs: { axis: [0] }, error: /cumsum: axis must be an int or None/ },
    { inputs: [nd([2], [1, 0], 'bool')], error: /cumsum: bool input needs a dtype/ },
  ],
});
