// Records for argsort, sort, topk and kthvalue (src/ops/defs/sort.ts).
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand, size } from '../ref.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
/** Few distinct values, so ties (and their index order) are exercised. */
const coarse = (shape: number[], seed: number): NDArray => ({ ...rand(shape, 'float32', seed, -3, 3), data: rand(shape, 'float32', seed, -3, 3).data.map(Math.round) });

/** The reference order: NaN above every number, ties by index (stable), ascending or descending. */
function order(v: number[], desc: boolean): number[] {
  const rank = (a: number, b: number): number => {
    const an = Number.isNaN(a), bn = Number.isNaN(b);
    if (an !== bn) return an ? 1 : -1;
    return an || a === b ? 0 : a < b ? -1 : 1;
  };
  return v.map((_, i) => i).sort((i, j) => (desc ? rank(v[j], v[i]) : rank(v[i], v[j])) || i - j);
}

/**
 * Applies f to every lane of x along axis (a 0-dim input is one lane of length 1); f returns the
 * lane's [values, indices] of length m (default n); results are laid out with the axis dim m (dropped when
 * `drop`).
 */
function lanes(x: NDArray, axisIn: number, f: (v: number[]) => [number[], number[]], mIn?: number, drop = false): [NDArray, NDArray] {
  const shape = x.shape;
  const axis = shape.length ? (axisIn < 0 ? axisIn + shape.length : axisIn) : 0;
  const outer = size(shape.slice(0, axis)), n = shape.length ? shape[axis] : 1, inner = size(shape.slice(axis + 1));
  const m = mIn ?? n;
  const vals = new Array<number>(outer * m * inner), idx = new Array<number>(outer * m * inner);
  for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) {
    const v = Array.from({ length: n }, (_, j) => x.data[(o * n + j) * inner + i]);
    const [ov, oi] = f(v);
    for (let j = 0; j < m; j++) { vals[(o * m + j) * inner + i] = ov[j]; idx[(o * m + j) * inner + i] = oi[j]; }
  }
  const oshape = shape.length ? shape.flatMap((d, i) => (i !== axis ? [d] : drop ? [] : [m])) : [];
  return [{ shape: oshape, data: vals, dtype: x.dtype }, { shape: oshape, data: idx, dtype: 'int64' }];
}

const AXIS_SAMPLES = (mk: (shape: number[], seed: number) => NDArray): Sample[] => [
  { inputs: [mk([3, 7], 1)] },
  { inputs: [mk([2, 5, 4], 2)], attrs: { axis: 1 } },
  { inputs: [mk([4, 3], 3)], attrs: { axis: 0 } },
  { inputs: [mk([], 4)], note: '0-dim' },
  { inputs: [mk([4, 6], 5)], attrs: { axis: 1 }, strided: true },
  { inputs: [mk([4, 6], 6)], attrs: { axis: 0 }, strided: true },
];

const SPECIAL: NDArray[] = [
  nd([7], [3, NaN, -1, Infinity, NaN, -Infinity, 3]),
  nd([2, 4], [0, -0, 1, 0, 2, 2, 2, 2]),
];

const sortSamples: Sample[] = [
  ...AXIS_SAMPLES(coarse), ...AXIS_SAMPLES(r32),
  ...SPECIAL.map((x) => ({ inputs: [x], note: 'NaN, inf, ties' })),
  { inputs: [nd([0, 3], [])], attrs: { axis: 0 }, note: 'empty axis' },
  { inputs: [nd([3, 0], [])], note: 'empty lanes' },
  { inputs: [rand([3, 9], 'int32', 7, -5, 5)], attrs: { axis: 1 } },
  { inputs: [{ shape: [4], data: [2 ** 53 + 1, 2 ** 53, -3, 2 ** 53 + 1], dtype: 'int64' }], note: 'int64 beyond 2^53 keeps its bits' },
  { inputs: [r32([64, 700], 8)], note: 'threaded' },
  { inputs: [r32([3, 500, 9], 9)], attrs: { axis: 1 }, note: 'threaded, strided lanes' },
  { inputs: [r32([100000], 10)], note: 'one long lane: parallel merge sort' },
  { inputs: [coarse([70000], 11)], note: 'one long lane with ties' },
];
const withDesc = (ss: Sample[]): Sample[] => [...ss, ...ss.map((s) => ({ ...s, attrs: { ...s.attrs, descending: true }, note: `${s.note ?? ''} descending` })),
  ...ss.slice(0, 2).map((s) => ({ ...s, attrs: { ...s.attrs, stable: true }, note: 'stable' }))];

const sortRef = (x: NDArray, attrs: Record<string, unknown>): [NDArray, NDArray] =>
  lanes(x, (attrs.axis as number | undefined) ?? -1, (v) => { const o = order(v, Boolean(attrs.descending)); return [o.map((i) => v[i]), o]; });
const sortBad = (op: string) => [
  { inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool`) },
  { inputs: [r32([2, 3], 1)], attrs: { axis: 2 }, error: new RegExp(`${op}: axis 2 is out of range for a tensor of rank 2`) },
  { inputs: [r32([2, 3], 1)], attrs: { axis: 0.5 }, error: new RegExp(`${op}: axis must be an int`) },
];

addRecords({
  op: 'argsort',
  samples: withDesc(sortSamples),
  ref: ([x], attrs) => sortRef(x as NDArray, attrs),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: sortBad('argsort'),
});

addRecords({
  op: 'sort',
  samples: withDesc(sortSamples),
  ref: ([x], attrs) => sortRef(x as NDArray, attrs),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: sortBad('sort'),
});

const topkSamples: Sample[] = [
  { inputs: [coarse([3, 7], 1)], attrs: { k: 3 } },
  { inputs: [r32([2, 5, 4], 2)], attrs: { k: 2, axis: 1 } },
  { inputs: [r32([4, 3], 3)], attrs: { k: 4, axis: 0 }, note: 'k = n' },
  { inputs: [r32([4, 3], 3)], attrs: { k: 0 }, note: 'k = 0' },
  { inputs: [nd([], [1.5])], attrs: { k: 1 }, note: '0-dim' },
  { inputs: [nd([0, 3], [])], attrs: { k: 2 }, note: 'empty lanes' },
  { inputs: [r32([4, 6], 5)], attrs: { k: 2, axis: 1 }, strided: true },
  { inputs: [r32([4, 6], 6)], attrs: { k: 3, axis: 0 }, strided: true },
  { inputs: [SPECIAL[0]], attrs: { k: 4 }, note: 'NaN, inf, ties' },
  { inputs: [rand([3, 9], 'int32', 7, -5, 5)], attrs: { k: 4 } },
  { inputs: [rand([3, 9], 'int64', 8, -5, 5)], attrs: { k: 4, sorted: false } },
  { inputs: [r32([64, 700], 8)], attrs: { k: 10 }, note: 'threaded' },
];
addRecords({
  op: 'topk',
  samples: [...topkSamples, ...topkSamples.map((s) => ({ ...s, attrs: { ...s.attrs, largest: false }, note: `${s.note ?? ''} smallest` }))],
  ref: ([x], attrs) => {
    const k = attrs.k as number;
    return lanes(x as NDArray, (attrs.axis as number | undefined) ?? -1, (v) => {
      const o = order(v, attrs.largest !== false).slice(0, k);
      return [o.map((i) => v[i]), o];
    }, k);
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], attrs: { k: 1 }, error: /topk: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool/ },
    { inputs: [r32([2, 3], 1)], attrs: { k: 4 }, error: /topk: k = 4 is out of range \[0, 3\] for input shape \[2, 3\] along axis 1/ },
    { inputs: [r32([2, 3], 1)], attrs: { k: -1 }, error: /topk: k = -1 is out of range/ },
    { inputs: [r32([2, 3], 1)], attrs: { k: 1, axis: -3 }, error: /topk: axis -3 is out of range/ },
  ],
});

const kthSamples: Sample[] = [
  { inputs: [coarse([3, 7], 1)], attrs: { k: 3 } },
  { inputs: [r32([2, 5, 4], 2)], attrs: { k: 5, axis: 1 } },
  { inputs: [r32([2, 5, 4], 2)], attrs: { k: 1, axis: 1, keepdim: true } },
  { inputs: [r32([4, 3], 3)], attrs: { k: 2, axis: 0 } },
  { inputs: [nd([], [1.5])], attrs: { k: 1 }, note: '0-dim' },
  { inputs: [nd([], [1.5])], attrs: { k: 1, keepdim: true }, note: '0-dim keepdim' },
  { inputs: [nd([0, 3], [])], attrs: { k: 2 }, note: 'empty output' },
  { inputs: [r32([4, 6], 5)], attrs: { k: 2, axis: 1 }, strided: true },
  { inputs: [r32([4, 6], 6)], attrs: { k: 3, axis: 0, keepdim: true }, strided: true },
  { inputs: [SPECIAL[0]], attrs: { k: 6 }, note: 'NaN, inf, ties' },
  { inputs: [rand([3, 9], 'int64', 7, -5, 5)], attrs: { k: 4 } },
  { inputs: [r32([64, 700], 8)], attrs: { k: 350 }, note: 'threaded' },
];
addRecords({
  op: 'kthvalue',
  samples: kthSamples,
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const k = attrs.k as number;
    const axis = (attrs.axis as number | undefined) ?? -1;
    const [v, i] = lanes(X, axis, (lane) => { const o = order(lane, false); return [[lane[o[k - 1]]], [o[k - 1]]]; }, 1, !attrs.keepdim);
    if (X.shape.length === 0) { v.shape = []; i.shape = []; }
    return [v, i];
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'uint8')], attrs: { k: 1 }, error: /kthvalue: expected a float16, bfloat16, float32, float64, int32 or int64 input, got uint8/ },
    { inputs: [r32([2, 3], 1)], attrs: { k: 0 }, error: /kthvalue: k = 0 is out of range \[1, 3\]/ },
    { inputs: [r32([2, 0], 1)], attrs: { k: 1 }, error: /kthvalue: k = 1 is out of range \[1, 0\]/ },
  ],
});
