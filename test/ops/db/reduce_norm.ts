// Records for p_norm and frobenius_norm (src/ops/defs/reduce_norm.ts).
import { asDType } from '../harness.js';
import { addRecords, type Sample } from '../op_db.js';
import { nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';
import { reduceRef } from './scan.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');

function pnorm(vals: number[], p: number): number {
  const a = vals.map(Math.abs);
  if (p === 0) return a.filter((v) => v !== 0).length;  // NaN is nonzero
  if (a.some(Number.isNaN)) return NaN;
  if (p === Infinity) return a.reduce((m, v) => Math.max(m, v), 0);
  if (p === -Infinity) return a.reduce((m, v) => Math.min(m, v), Infinity);
  return a.reduce((s, v) => s + v ** p, 0) ** (1 / p);
}

const P_SAMPLES: Sample[] = [
  { inputs: [r32([3, 4], 1)] },
  { inputs: [r32([2, 3, 4], 2)], attrs: { axis: 1, keepdim: true } },
  { inputs: [r32([2, 3, 4], 3)], attrs: { asvector: true } },
  { inputs: [r32([2, 3, 4], 4)], attrs: { asvector: true, keepdim: true } },
  { inputs: [r32([], 5)], note: '0-dim' },
  { inputs: [nd([0, 3], [])], attrs: { axis: 0 }, note: 'empty reduction' },
  { inputs: [r32([5, 4], 6)], attrs: { axis: 0 }, strided: true },
  { inputs: [r32([2, 70000], 7)], attrs: { axis: 1 }, note: 'long rows' },
  { inputs: [nd([2, 3], [1, NaN, 0, 3, -4, 0])], attrs: { axis: 1 }, note: 'NaN and zeros' },
];
const ORDERS = [2, 1, 3, 0.5, 0, Infinity, -Infinity];

addRecords({
  op: 'p_norm',
  samples: ORDERS.flatMap((porder) => P_SAMPLES.map((s) => ({ ...s, attrs: { ...s.attrs, porder } }))),
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const axis = attrs.asvector ? null : ((attrs.axis as number | undefined) ?? -1);
    const r = reduceRef(X, axis, Boolean(attrs.keepdim), (v) => pnorm(v, (attrs.porder as number | undefined) ?? 2));
    let shape = r.shape;
    if (attrs.asvector && attrs.keepdim) shape = X.shape.map(() => 1);
    return { shape, data: r.data.map((v) => finalize(v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  rtol: 1e-5,
  bad: [
    { inputs: [nd([2], [1, 2], 'int32')], error: /p_norm: expected a floating-point input, got int32/ },
    { inputs: [r32([2, 3], 1)], attrs: { axis: 2 }, error: /p_norm: .*2/ },
  ],
});

addRecords({
  op: 'frobenius_norm',
  samples: [
    { inputs: [r32([3, 4], 1)], attrs: { axis: [0, 1] } },
    { inputs: [r32([2, 3, 4], 2)], attrs: { axis: [1, 2], keep_dim: true } },
    { inputs: [r32([2, 3, 4], 3)], attrs: { reduce_all: true } },
    { inputs: [r32([], 4)], attrs: { reduce_all: true }, note: '0-dim' },
    { inputs: [nd([0, 3], [])], attrs: { axis: [0] }, note: 'empty' },
    { inputs: [r32([5, 4], 5)], attrs: { axis: [-1] }, strided: true },
  ],
  ref: ([x], attrs) => {
    const X = x as NDArray;
    const r = reduceRef(X, attrs.reduce_all ? null : attrs.axis, Boolean(attrs.keep_dim), (v) => pnorm(v, 2));
    return { ...r, data: r.data.map((v) => finalize(v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [{ inputs: [nd([2], [1, 2], 'int64')], attrs: { axis: [0] }, error: /frobenius_norm: expected a floating-point input, got int64/ }],
});
