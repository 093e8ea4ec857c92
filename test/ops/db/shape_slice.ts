// Records of slice and strided_slice. The references restate Paddle's bound rules in the plainest
// form: clamp, then walk the indices.
import { addRecords } from '../op_db.js';
import { nd, rand } from '../ref.js';
import { arr, at, build, iota } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;

/** Indices taken on one dim of size n. */
function walk(n: number, start: number, end: number, step: number): number[] {
  const out: number[] = [];
  if (n === 0) return out;
  if (step > 0) {
    const s = Math.min(Math.max(start < 0 ? start + n : start, 0), n);
    const e = Math.min(Math.max(end < 0 ? end + n : end, 0), n);
    for (let i = s; i < e; i += step) out.push(i);
  } else {
    const s = Math.min(start < 0 ? Math.max(start + n, 0) : start, n - 1);
    const e = end === -1 ? -1 : end < 0 ? Math.max(end + n, 0) : end;
    for (let i = s; i > e; i += step) out.push(i);
  }
  return out;
}

function sliced(x: unknown, axes: number[], starts: number[], ends: number[], steps: number[]) {
  const X = arr(x);
  const picks = X.shape.map((n) => [...Array(n).keys()]);
  axes.forEach((ax, i) => {
    const a = ax < 0 ? ax + X.shape.length : ax;
    picks[a] = walk(X.shape[a], starts[i], ends[i], steps[i]);
  });
  return build(picks.map((p) => p.length), X.dtype, (idx) => at(X, idx.map((k, d) => picks[d][k])));
}

addRecords({
  op: 'slice',
  samples: [
    { inputs: [rand([4, 5, 6])], attrs: { axes: [0, 1, 2], starts: [-3, 0, 2], ends: [3, 2, 4] }, strided: true },
    { inputs: [rand([4, 5])], attrs: { axes: [1], starts: [2], ends: [100] }, note: 'end clamps to the dim', strided: true },
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [-100], ends: [-1] }, note: 'start clamps to 0' },
    { inputs: [rand([4, 5])], attrs: { axes: [-1], starts: [1], ends: [1] }, note: 'empty result, negative axis' },
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [7], ends: [9] }, note: 'start past the end' },
    { inputs: [nd([0, 3], [])], attrs: { axes: [0], starts: [1], ends: [2] }, note: 'empty input' },
    { inputs: [rand([6, 2], 'int64', 4, -9, 9)], attrs: { axes: [0], starts: [1], ends: [5] }, strided: true },
    { inputs: [iota([3, 3], 'bool')], attrs: { axes: [1], starts: [1], ends: [3] } },
  ],
  ref: ([x], a) => {
    const axes = a.axes as number[];
    return sliced(x, axes, a.starts as number[], a.ends as number[], axes.map(() => 1));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [3], ends: [1] }, error: /slice: on axis 0 \(size 4\) end 1 resolves to 1, before start 3/ },
    { inputs: [rand([4, 5])], attrs: { axes: [0, 1], starts: [0], ends: [1, 2] }, error: /slice: axes, starts and ends must have the same length/ },
    { inputs: [nd([], [1])], attrs: { axes: [0], starts: [0], ends: [1] }, error: /slice: input is a 0-D tensor/ },
  ],
}, {
  op: 'strided_slice',
  samples: [
    { inputs: [rand([4, 5, 6])], attrs: { axes: [0, 1, 2], starts: [-3, 0, 2], ends: [3, 2, 4], strides: [1, 1, 1] }, strided: true },
    { inputs: [rand([4, 5, 6], 'float32', 2)], attrs: { axes: [1, 2], starts: [0, 1], ends: [5, 6], strides: [2, 3] }, strided: true, note: 'positive steps: a view' },
    { inputs: [rand([4, 5], 'float32', 3)], attrs: { axes: [1], starts: [4], ends: [-1], strides: [-1] }, strided: true, note: 'end -1 with a negative step runs to index 0' },
    { inputs: [rand([4, 5], 'float32', 4)], attrs: { axes: [0, 1], starts: [10, 3], ends: [-1, 0], strides: [-2, -2] }, strided: true, note: 'negative steps: a copy' },
    { inputs: [rand([6], 'float32', 5)], attrs: { axes: [0], starts: [-2], ends: [-10], strides: [-1] }, note: 'end below -1 clamps to 0 and excludes it (Paddle)' },
    { inputs: [rand([4, 5], 'float32', 6)], attrs: { axes: [0], starts: [2], ends: [2], strides: [1] }, note: 'empty result' },
    { inputs: [rand([4], 'float32', 7)], attrs: { axes: [0], starts: [3], ends: [2], strides: [-1] }, note: 'one element, negative step' },
    { inputs: [nd([0, 2], [])], attrs: { axes: [0], starts: [0], ends: [3], strides: [2] }, note: 'empty input' },
    { inputs: [nd([], [3])], attrs: { axes: [], starts: [], ends: [], strides: [] }, note: '0-D, no axes' },
    { inputs: [rand([7, 3], 'int32', 8, -50, 50)], attrs: { axes: [0], starts: [6], ends: [-1], strides: [-3] }, strided: true },
    { inputs: [rand([7], 'int64', 9, -50, 50)], attrs: { axes: [0], starts: [1], ends: [7], strides: [2] } },
  ],
  ref: ([x], a) => sliced(x, a.axes as number[], a.starts as number[], a.ends as number[], a.strides as number[]),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [0], ends: [3], strides: [0] }, error: /strided_slice: stride on axis 0 must not be 0/ },
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [3], ends: [1], strides: [1] }, error: /strided_slice: start 3 and end 1 are invalid for stride 1/ },
    { inputs: [rand([4, 5])], attrs: { axes: [0], starts: [1], ends: [3], strides: [-1] }, error: /strided_slice: start 1 and end 3 are invalid for stride -1/ },
    { inputs: [rand([4, 5])], attrs: { axes: [2], starts: [0], ends: [1], strides: [1] }, error: /strided_slice: axis 2 is out of range/ },
  ],
});
