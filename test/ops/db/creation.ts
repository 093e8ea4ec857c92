import { addRecords } from '../op_db.js';
import { size } from '../ref.js';

addRecords({
  op: 'full',
  samples: [
    { inputs: [], attrs: { shape: [2, 3], fill_value: 1.5, dtype: 'float32' } },
    { inputs: [], attrs: { shape: [], fill_value: 7, dtype: 'int64' } },
    { inputs: [], attrs: { shape: [0, 4], fill_value: 1, dtype: 'float64' } },
    { inputs: [], attrs: { shape: [3], fill_value: 1, dtype: 'bool' } },
  ],
  ref: (_i, a) => {
    const shape = a.shape as number[];
    return { shape, data: new Array(size(shape)).fill(Number(a.fill_value)), dtype: a.dtype as 'float32' };
  },
  bad: [{ inputs: [], attrs: { shape: [-1, 2], fill_value: 0 }, error: /full: invalid shape/ }],
}, {
  op: 'cast',
  samples: [
    { inputs: [{ shape: [4], data: [1.7, -2.5, 0, 3], dtype: 'float32' }], attrs: { dtype: 'int32' } },
    { inputs: [{ shape: [2, 2], data: [0, 1, 2, -3], dtype: 'int64' }], attrs: { dtype: 'bool' } },
    { inputs: [{ shape: [3], data: [1, 0, 1], dtype: 'bool' }], attrs: { dtype: 'float64' } },
    { inputs: [{ shape: [2], data: [1.5, 65504], dtype: 'float32' }], attrs: { dtype: 'float16' } },
    { inputs: [{ shape: [2, 3], data: [1, 2, 3, 4, 5, 6], dtype: 'float32' }], attrs: { dtype: 'bfloat16' }, strided: true },
  ],
  ref: ([x], a) => {
    const X = x as { shape: number[]; data: number[] };
    const dt = a.dtype as string;
    return { shape: X.shape, data: X.data.map((v) => (dt === 'bool' ? (v ? 1 : 0) : dt.startsWith('int') ? Math.trunc(v) : v)), dtype: dt as 'float32' };
  },
  bad: [{ inputs: [{ shape: [1], data: [1], dtype: 'float32' }], attrs: { dtype: 'complex64' }, error: /unknown dtype 'complex64'/ }],
});
