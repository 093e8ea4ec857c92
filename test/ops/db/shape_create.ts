// Records of arange, zeros, ones, full_like, zeros_like, ones_like, eye, tril and triu.
import { addRecords } from '../op_db.js';
import { castValue, nd, rand, size } from '../ref.js';
import { roundTo } from '../harness.js';
import type { DType } from '../../../src/tensor/dtype.js';
import { arr, at, build } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;
const filled = (shape: number[], v: number, dtype: DType) => ({ shape, data: new Array<number>(size(shape)).fill(castValue(v, dtype)), dtype });

/** Paddle's arange: values accumulate in the output dtype. */
function arangeRef(a: Record<string, unknown>) {
  let start = a.start as number ?? 0, end = a.end as number | null ?? null;
  const step = (a.step as number) ?? 1;
  if (end === null) { end = start; start = 0; }
  const dtype = (a.dtype as DType) ?? ([start, end, step].every(Number.isInteger) ? 'int64' : 'float32');
  const r = (v: number) => (dtype.startsWith('int') ? Math.trunc(v) : roundTo(v, dtype));
  const s = r(start), e = r(end), st = r(step);
  const n = dtype.startsWith('int') ? Math.max(0, Math.ceil((e - s) / st)) : Math.ceil(Math.abs(r(r(e - s) / st)));
  const data: number[] = [];
  for (let i = 0, v = s; i < n; i++, v = r(v + st)) data.push(v);
  return { shape: [n], data, dtype };
}

addRecords({
  op: 'arange',
  samples: [
    { inputs: [], attrs: { start: 5 }, note: 'end=None: [0, 5)' },
    { inputs: [], attrs: { start: 1, end: 10, step: 3 } },
    { inputs: [], attrs: { start: 10, end: 1, step: -4, dtype: 'int32' } },
    { inputs: [], attrs: { start: 0, end: 1, step: 0.1 }, note: 'float32 accumulation' },
    { inputs: [], attrs: { start: -1.5, end: 2, step: 0.5, dtype: 'float64' } },
    { inputs: [], attrs: { start: 0, end: 3, step: 0.5, dtype: 'float16' } },
    { inputs: [], attrs: { start: 3, end: 3 }, note: 'empty' },
    { inputs: [], attrs: { start: 0.5, end: 4, dtype: 'int64' }, note: 'bounds truncate for ints' },
  ],
  ref: (_i, a) => arangeRef(a),
  bad: [
    { inputs: [], attrs: { start: 0, end: 5, step: 0 }, error: /arange: step must not be 0/ },
    { inputs: [], attrs: { start: 0, end: 5, step: -1 }, error: /arange: step -1 must be positive when start 0 < end 5/ },
    { inputs: [], attrs: { start: 5, end: 0, step: 1 }, error: /arange: step 1 must be negative when start 5 > end 0/ },
    { inputs: [], attrs: { start: 0, end: 5, dtype: 'bool' }, error: /arange: dtype must be one of/ },
  ],
}, ...(['zeros', 'ones'] as const).map((op) => ({
  op,
  samples: [
    { inputs: [], attrs: { shape: [2, 3] } },
    { inputs: [], attrs: { shape: [], dtype: 'int64' }, note: '0-D' },
    { inputs: [], attrs: { shape: [0, 4], dtype: 'float64' }, note: 'empty' },
    { inputs: [], attrs: { shape: 3, dtype: 'bool' }, note: 'int shape' },
    { inputs: [], attrs: { shape: [2], dtype: 'float16' } },
  ],
  ref: (_i: unknown, a: Record<string, unknown>) => {
    const shape = [a.shape as number[] | number].flat();
    return filled(shape, op === 'zeros' ? 0 : 1, (a.dtype as DType) ?? 'float32');
  },
  bad: [{ inputs: [], attrs: { shape: [2, -1] }, error: new RegExp(`${op}: shape \\[2,-1\\] has a negative dim`) }],
})), {
  op: 'full_like',
  samples: [
    { inputs: [rand([2, 3])], attrs: { fill_value: 2.5 }, strided: true },
    { inputs: [rand([2, 3], 'float32', 2)], attrs: { fill_value: 7, dtype: 'int32' } },
    { inputs: [nd([], [1], 'int64')], attrs: { fill_value: -3 }, note: '0-D' },
    { inputs: [nd([0, 2], [])], attrs: { fill_value: 1 }, note: 'empty' },
    { inputs: [nd([2], [0, 1], 'bool')], attrs: { fill_value: true } },
  ],
  ref: ([x], a) => { const X = arr(x); const dt = (a.dtype as DType) ?? X.dtype; return filled(X.shape, Number(a.fill_value), dt); },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2])], attrs: { fill_value: 1, dtype: 'complex64' }, error: /full_like: unknown dtype 'complex64'/ },
    { inputs: [rand([2])], attrs: { fill_value: 300, dtype: 'int8' }, error: /full_like: the fill value 300.* is out of range for int8/ },
    { inputs: [rand([2])], attrs: { fill_value: NaN, dtype: 'int32' }, error: /full_like: the fill value nan is out of range for int32/ },
  ],
}, ...(['zeros_like', 'ones_like'] as const).map((op) => ({
  op,
  samples: [
    { inputs: [rand([2, 3])], strided: true },
    { inputs: [rand([2, 3], 'int32', 2, -9, 9)], attrs: { dtype: 'float64' } },
    { inputs: [nd([], [4])], note: '0-D' },
    { inputs: [nd([3, 0], [], 'int64')], note: 'empty' },
  ],
  ref: ([x]: unknown[], a: Record<string, unknown>) => {
    const X = arr(x);
    return filled(X.shape, op === 'zeros_like' ? 0 : 1, (a.dtype as DType) ?? X.dtype);
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [rand([2])], attrs: { dtype: 'complex64' }, error: /unknown dtype 'complex64'/ }],
})), {
  op: 'eye',
  samples: [
    { inputs: [], attrs: { num_rows: 3 } },
    { inputs: [], attrs: { num_rows: 2, num_columns: 4, dtype: 'int32' } },
    { inputs: [], attrs: { num_rows: 4, num_columns: 2, dtype: 'float64' } },
    { inputs: [], attrs: { num_rows: 0, num_columns: 3 }, note: 'empty' },
    { inputs: [], attrs: { num_rows: 2, dtype: 'bool' } },
  ],
  ref: (_i, a) => {
    const rows = a.num_rows as number, cols = (a.num_columns as number) ?? rows;
    return build([rows, cols], (a.dtype as DType) ?? 'float32', ([i, j]) => (i === j ? 1 : 0));
  },
  bad: [
    { inputs: [], attrs: { num_rows: -1 }, error: /eye: num_rows should be a non-negative int, got -1/ },
    { inputs: [], attrs: { num_rows: 2, num_columns: -3 }, error: /eye: num_columns should be a non-negative int/ },
  ],
}, ...(['tril', 'triu'] as const).map((op) => ({
  op,
  samples: [
    { inputs: [rand([3, 4])], strided: true },
    { inputs: [rand([2, 3, 3])], attrs: { diagonal: 1 }, strided: true },
    { inputs: [rand([4, 3])], attrs: { diagonal: -2 } },
    { inputs: [nd([0, 3], [])], note: 'empty' },
    { inputs: [rand([3, 3], 'int64', 5, -9, 9)], attrs: { diagonal: -1 } },
  ],
  ref: ([x]: unknown[], a: Record<string, unknown>) => {
    const X = arr(x);
    const d = (a.diagonal as number) ?? 0;
    const r = X.shape.length;
    return build([...X.shape], X.dtype, (idx) => {
      const keep = op === 'tril' ? idx[r - 1] - idx[r - 2] <= d : idx[r - 1] - idx[r - 2] >= d;
      return keep ? at(X, idx) : 0;
    });
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [rand([3])], error: new RegExp(`${op}: x must have at least 2 dims`) }],
})));
