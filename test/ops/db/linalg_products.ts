// Records for dot, outer, kron and cross (src/ops/defs/linalg_products.ts). References are plain
// loops in float64, rounded to the output dtype.
import type { DType } from '../../../src/tensor/dtype.js';
import { roundTo } from '../harness.js';
import { addRecords } from '../op_db.js';
import { nd, type NDArray, rand, size, stridesOf, unravel } from '../ref.js';

const out = (shape: number[], data: number[], dtype: DType): NDArray => ({ shape, data: data.map((v) => roundTo(v, dtype)), dtype });
const HALVES: DType[] = ['float64', 'float16', 'bfloat16'];

function refDot([x, y]: NDArray[]): NDArray {
  const n = x.shape[x.shape.length - 1] ?? 1, rows = x.shape.length === 2 ? x.shape[0] : 1;
  const data: number[] = [];
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += x.data[r * n + i] * y.data[r * n + i];
    data.push(s);
  }
  return out(x.shape.length === 2 ? [rows] : [], data, x.dtype);
}

function refOuter([x, y]: NDArray[]): NDArray {
  const data: number[] = [];
  for (const a of x.data) for (const b of y.data) data.push(a * b);
  return out([x.data.length, y.data.length], data, x.dtype);
}

function refKron([x, y]: NDArray[]): NDArray {
  const r = Math.max(x.shape.length, y.shape.length);
  const pad = (s: number[]) => [...Array(r - s.length).fill(1), ...s];
  const xs = pad(x.shape), ys = pad(y.shape), os = xs.map((d, i) => d * ys[i]);
  const xst = stridesOf(xs), yst = stridesOf(ys);
  const data = Array.from({ length: size(os) }, (_, e) => {
    const idx = unravel(e, os);
    let xi = 0, yi = 0;
    idx.forEach((v, d) => { xi += Math.floor(v / ys[d]) * xst[d]; yi += (v % ys[d]) * yst[d]; });
    return x.data[xi] * y.data[yi];
  });
  return out(os, data, x.dtype);
}

function refCross([x, y]: NDArray[], a: Record<string, unknown>): NDArray {
  let axis = (a.axis as number | undefined) ?? 9;
  if (axis === 9) axis = x.shape.indexOf(3);
  if (axis < 0) axis += x.shape.length;
  const inner = size(x.shape.slice(axis + 1)), outer = size(x.shape.slice(0, axis));
  const data = new Array<number>(x.data.length);
  for (let o = 0; o < outer; o++) for (let i = 0; i < inner; i++) {
    const b = o * 3 * inner + i;
    const [x0, x1, x2] = [0, 1, 2].map((k) => x.data[b + k * inner]);
    const [y0, y1, y2] = [0, 1, 2].map((k) => y.data[b + k * inner]);
    data[b] = x1 * y2 - x2 * y1;
    data[b + inner] = x2 * y0 - x0 * y2;
    data[b + 2 * inner] = x0 * y1 - x1 * y0;
  }
  return out([...x.shape], data, x.dtype);
}

const f = (shape: number[], seed: number) => rand(shape, 'float32', seed);
const i32 = (shape: number[], seed: number) => rand(shape, 'int32', seed, -9, 9);
const i64 = (shape: number[], seed: number) => rand(shape, 'int64', seed, -9, 9);

addRecords({
  op: 'dot',
  samples: [
    { inputs: [f([5], 1), f([5], 2)], note: '1-D -> 0-dim' },
    { inputs: [f([4, 7], 3), f([4, 7], 4)], note: 'rows' },
    { inputs: [f([3, 37], 5), f([3, 37], 6)], strided: true, note: 'vector body and tail' },
    { inputs: [f([0], 7), f([0], 8)], note: 'empty: 0' },
    { inputs: [f([0, 3], 7), f([0, 3], 8)], note: 'no rows' },
    { inputs: [i32([6], 9), i32([6], 10)] },
    { inputs: [i64([2, 5], 11), i64([2, 5], 12)] },
  ],
  ref: (ins) => refDot(ins as NDArray[]),
  dtypes: HALVES,
  atol: 1e-4, rtol: 1e-4,
  bad: [
    { inputs: [f([3], 1), f([4], 2)], error: /dot: x and y must be 1-D or 2-D tensors of the same shape, got \[3\] and \[4\]/ },
    { inputs: [f([2, 2, 2], 1), f([2, 2, 2], 2)], error: /dot: x and y must be 1-D or 2-D/ },
    { inputs: [f([], 1), f([], 2)], error: /dot: x and y must be 1-D or 2-D/ },
    { inputs: [f([3], 1), i32([3], 2)], error: /dot: x and y must have the same dtype, got float32 and int32/ },
    { inputs: [nd([2], [1, 0], 'bool'), nd([2], [1, 1], 'bool')], error: /dot: expected float16, bfloat16, float32, float64, int32 or int64 inputs, got bool/ },
  ],
}, {
  op: 'outer',
  samples: [
    { inputs: [f([3], 1), f([4], 2)] },
    { inputs: [f([2, 3], 3), f([2], 4)], strided: true, note: 'inputs are flattened' },
    { inputs: [f([], 5), f([3], 6)], note: '0-dim' },
    { inputs: [f([0], 7), f([3], 8)], note: 'empty' },
    { inputs: [i32([3], 9), i32([2], 10)] },
    { inputs: [i64([2], 11), i64([2], 12)] },
  ],
  ref: (ins) => refOuter(ins as NDArray[]),
  dtypes: HALVES,
  bad: [
    { inputs: [f([3], 1), rand([3], 'float64', 2)], error: /outer: x and y must have the same dtype, got float32 and float64/ },
    { inputs: [nd([1], [1], 'int8'), nd([1], [1], 'int8')], error: /outer: expected float16, bfloat16, float32, float64, int32 or int64/ },
  ],
}, {
  op: 'kron',
  samples: [
    { inputs: [f([2, 2], 1), f([2, 3], 2)] },
    { inputs: [f([2, 3, 2], 3), f([3, 1], 4)], strided: true, note: 'ranks differ' },
    { inputs: [f([3], 5), f([2, 2], 6)], note: 'x of lower rank' },
    { inputs: [f([], 7), f([2, 3], 8)], note: '0-dim' },
    { inputs: [f([0, 2], 9), f([2, 2], 10)], note: 'empty' },
    { inputs: [i32([2, 2], 11), i32([2], 12)] },
    { inputs: [i64([2], 13), i64([3], 14)] },
  ],
  ref: (ins) => refKron(ins as NDArray[]),
  dtypes: HALVES,
  bad: [
    { inputs: [f([2], 1), i64([2], 2)], error: /kron: x and y must have the same dtype/ },
  ],
}, {
  op: 'cross',
  samples: [
    { inputs: [f([3], 1), f([3], 2)] },
    { inputs: [f([4, 3], 3), f([4, 3], 4)], note: 'axis=9: first axis of size 3' },
    { inputs: [f([3, 3], 5), f([3, 3], 6)], attrs: { axis: 1 } },
    { inputs: [f([2, 3, 5], 7), f([2, 3, 5], 8)], strided: true, note: 'inner stride' },
    { inputs: [f([2, 4, 3], 9), f([2, 4, 3], 10)], attrs: { axis: -1 } },
    { inputs: [f([0, 3], 11), f([0, 3], 12)], attrs: { axis: 1 }, note: 'empty' },
    { inputs: [i32([3, 2], 13), i32([3, 2], 14)] },
    { inputs: [i64([3], 15), i64([3], 16)] },
  ],
  ref: (ins, a) => refCross(ins as NDArray[], a),
  dtypes: HALVES,
  atol: 1e-5,
  bad: [
    { inputs: [f([4, 2], 1), f([4, 2], 2)], error: /cross: no axis of size 3 in shape \[4, ?2\]/ },
    { inputs: [f([3, 4], 1), f([3, 4], 2)], attrs: { axis: 1 }, error: /cross: the size of axis 1 must be 3/ },
    { inputs: [f([3, 2], 1), f([3, 1], 2)], error: /cross: x and y must have the same shape/ },
    { inputs: [f([3], 1), f([3], 2)], attrs: { axis: 2 }, error: /cross: .*axis/ },
    { inputs: [f([3], 1), rand([3], 'float64', 2)], error: /cross: x and y must have the same dtype/ },
  ],
});
