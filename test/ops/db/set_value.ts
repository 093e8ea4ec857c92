// Record of set_value_with_tensor (the functional form of x[index] = values; the inplace form is
// tested in test/ops/setitem.test.ts). The reference walks Python's slice indices per dim and
// writes values, broadcast against the assigned shape, into a copy of x.
import { addRecords } from '../op_db.js';
import { atBroadcast, nd, type NDArray, rand, size, stridesOf, unravel } from '../ref.js';
import { arr, iota } from './shape_util.js';

/** The indices slice(start, stop, step) takes on a dim of size n (Python's slice.indices, spelled out). */
function pyIndices(n: number, start: number, stop: number, step: number): number[] {
  const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);
  let s = start < 0 ? start + n : start, e = stop < 0 ? stop + n : stop;
  if (step > 0) { s = clamp(s, 0, n); e = clamp(e, 0, n); } else { s = clamp(s, -1, n - 1); e = clamp(e, -1, n - 1); }
  const out: number[] = [];
  for (let i = s; step > 0 ? i < e : i > e; i += step) out.push(i);
  return out;
}

function setValueRef(x: NDArray, v: NDArray, a: Record<string, unknown>): NDArray {
  const rank = x.shape.length;
  const picks = x.shape.map((n) => [...Array(n).keys()]);
  const axes = (a.axes as number[]).map((ax) => (ax < 0 ? ax + rank : ax));
  axes.forEach((ax, i) => { picks[ax] = pyIndices(x.shape[ax], (a.starts as number[])[i], (a.ends as number[])[i], (a.steps as number[])[i]); });
  const dec = new Set(((a.decrease_axes as number[] | undefined) ?? []).map((ax) => (ax < 0 ? ax + rank : ax)));
  const none = (a.none_axes as number[] | undefined) ?? [];
  const out = { shape: [...x.shape], dtype: x.dtype, data: [...x.data] };
  const region = picks.map((p) => p.length);
  const st = stridesOf(x.shape);
  for (let i = 0; i < size(region); i++) {
    const idx = unravel(i, region);
    const assignIdx: number[] = [];
    for (let d = 0; d <= rank; d++) {
      for (const p of none) if (p === d) assignIdx.push(0);
      if (d < rank && !dec.has(d)) assignIdx.push(idx[d]);
    }
    let off = 0;
    idx.forEach((k, d) => { off += picks[d][k] * st[d]; });
    out.data[off] = atBroadcast(v, assignIdx);
  }
  return out;
}

const A = (axes: number[], starts: number[], ends: number[], steps: number[], extra: Record<string, number[]> = {}) => ({ axes, starts, ends, steps, ...extra });

addRecords({
  op: 'set_value_with_tensor',
  samples: [
    { inputs: [nd([], [1]), nd([], [7])], attrs: A([], [], [], []), note: '0-D x' },
    { inputs: [rand([4, 5]), rand([2, 5], 'float32', 2)], attrs: A([0], [1], [3], [1]), strided: true, note: 'rows 1:3' },
    { inputs: [rand([4, 6]), rand([3], 'float32', 3)], attrs: A([1], [-1], [-7], [-2]), strided: true, note: 'negative step, value broadcast over rows' },
    { inputs: [rand([4, 3, 2]), nd([1], [9])], attrs: A([0, 2], [0, 1], [4, 2], [2, 1]), strided: true, note: 'size-1 value broadcast' },
    { inputs: [rand([3, 4]), rand([4], 'float32', 4)], attrs: A([0], [1], [2], [1], { decrease_axes: [0] }), note: 'integer index (decreased axis)' },
    { inputs: [rand([3, 4]), rand([1, 1, 4], 'float32', 5)], attrs: A([0], [-1], [3], [1], { decrease_axes: [0] }), note: 'extra leading size-1 value dims' },
    { inputs: [rand([3, 4]), rand([3, 1, 2], 'float32', 6)], attrs: A([1], [1], [3], [1], { none_axes: [1] }), note: 'None before axis 1' },
    { inputs: [rand([4, 5]), nd([1], [3])], attrs: A([0], [2], [2], [1]), note: 'empty region' },
    { inputs: [rand([6], 'float32', 7), rand([2], 'float32', 8)], attrs: A([0], [100], [-100], [-4]), note: 'clamped bounds, negative step' },
    { inputs: [rand([5, 2], 'int64', 9, -9, 9), nd([2], [-1, 1], 'int64')], attrs: A([0], [0], [5], [2]), strided: true },
    { inputs: [iota([2, 3], 'bool'), nd([], [1], 'bool')], attrs: A([1], [0], [2], [1]) },
  ],
  ref: ([x, v], a) => setValueRef(arr(x), arr(v), a),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [rand([4, 5]), rand([3])], attrs: A([0], [0], [2], [1]), error: /set_value_with_tensor: values of shape \[3\] cannot be broadcast to the assigned shape \[2, 5\] of x \[4, 5\]/ },
    { inputs: [rand([4, 5]), rand([1])], attrs: A([0], [0], [2], [0]), error: /set_value_with_tensor: step on axis 0 must not be 0/ },
    { inputs: [rand([4, 5]), rand([1], 'int64')], attrs: A([0], [0], [2], [1]), error: /set_value_with_tensor: values dtype int64 differs from x dtype float32/ },
    { inputs: [rand([4, 5]), rand([1])], attrs: A([0], [0], [2], [1], { decrease_axes: [0] }), error: /set_value_with_tensor: decreased axis 0 \(size 4\) must select one element, got 2/ },
    { inputs: [rand([4, 5]), rand([1])], attrs: A([2], [0], [1], [1]), error: /set_value_with_tensor: axis 2 is out of range/ },
  ],
});
