// Records of the view ops: reshape, transpose, squeeze, unsqueeze, flatten, expand, contiguous.
import { addRecords } from '../op_db.js';
import { nd, rand, size } from '../ref.js';
import { arr, at, build, iota, normAx } from './shape_util.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;

addRecords({
  op: 'reshape',
  samples: [
    { inputs: [rand([2, 3, 4])], attrs: { shape: [6, 4] }, strided: true },
    { inputs: [rand([2, 3, 4], 'float32', 2)], attrs: { shape: [0, -1] }, strided: true },
    { inputs: [rand([2, 3, 4], 'float32', 3)], attrs: { shape: [-1, 2, 1] } },
    { inputs: [nd([], [5])], attrs: { shape: [1] }, note: '0-D to [1]' },
    { inputs: [nd([1, 1], [7])], attrs: { shape: [] }, note: 'to 0-D' },
    { inputs: [nd([], [5])], attrs: { shape: [-1] }, note: '0-D with -1' },
    { inputs: [nd([0, 3], [])], attrs: { shape: [-1, 3, 1] }, note: 'empty' },
    { inputs: [rand([4, 6], 'int64', 4, -100, 100)], attrs: { shape: [3, 8] }, strided: true },
    { inputs: [rand([2, 5], 'bool', 5)], attrs: { shape: [10] } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const t = (a.shape as number[]).map((d, i) => (d === 0 ? X.shape[i] : d));
    const known = t.filter((d) => d !== -1).reduce((p, d) => p * d, 1);
    return { shape: t.map((d) => (d === -1 ? size(X.shape) / known : d)), data: X.data, dtype: X.dtype };
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3])], attrs: { shape: [-1, -1] }, error: /reshape: only one dimension of shape can be -1/ },
    { inputs: [rand([2, 3])], attrs: { shape: [4, 2] }, error: /reshape: cannot reshape x \[2, 3\] of 6 elements/ },
    { inputs: [rand([2, 3])], attrs: { shape: [4, -1] }, error: /reshape: x \[2, 3\] has 6 elements, not divisible by 4/ },
    { inputs: [rand([6])], attrs: { shape: [1, 0, 6] }, error: /reshape: shape\[1\] is 0/ },
    { inputs: [rand([6])], attrs: { shape: [-2, 3] }, error: /reshape: shape\[0\] = -2 is negative/ },
    { inputs: [nd([0, 3], [])], attrs: { shape: [0, -1] }, error: /reshape: .* could be any size/ },
  ],
}, {
  op: 'transpose',
  samples: [
    { inputs: [rand([2, 3, 4])], attrs: { perm: [2, 0, 1] }, strided: true },
    { inputs: [rand([3, 4], 'float32', 2)], attrs: { perm: [-1, 0] }, note: 'negative perm' },
    { inputs: [nd([], [3])], attrs: { perm: [] }, note: '0-D' },
    { inputs: [nd([2, 0, 3], [])], attrs: { perm: [1, 2, 0] }, note: 'empty' },
    { inputs: [rand([2, 3], 'int32', 3, -50, 50)], attrs: { perm: [1, 0] }, strided: true },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const p = (a.perm as number[]).map((d) => normAx(d, X.shape.length));
    return build(p.map((d) => X.shape[d]), X.dtype, (idx) => {
      const src = new Array<number>(idx.length);
      p.forEach((d, i) => { src[d] = idx[i]; });
      return at(X, src);
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3])], attrs: { perm: [0] }, error: /transpose: perm \[0\] has 1 entries but x \[2, 3\] has rank 2/ },
    { inputs: [rand([2, 3])], attrs: { perm: [0, 0] }, error: /transpose: duplicate axis/ },
    { inputs: [rand([2, 3])], attrs: { perm: [0, 2] }, error: /transpose: axis 2 is out of range/ },
  ],
}, {
  op: 'squeeze',
  samples: [
    { inputs: [rand([1, 3, 1, 2])], strided: true },
    { inputs: [rand([1, 3, 1, 2])], attrs: { axis: [0, -2] }, strided: true },
    { inputs: [rand([1, 3, 1, 2])], attrs: { axis: 1 }, note: 'axis of size 3 is left alone' },
    { inputs: [nd([], [4])], attrs: { axis: 0 }, note: '0-D' },
    { inputs: [nd([1, 0, 1], [])], note: 'empty' },
    { inputs: [rand([3, 1], 'int64', 9, -9, 9)], attrs: { axis: -1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const r = X.shape.length;
    const axes = a.axis === undefined || a.axis === null ? null : ([a.axis].flat() as number[]).map((d) => normAx(d, r));
    return { shape: X.shape.filter((d, i) => !(d === 1 && (axes === null || axes.includes(i)))), data: X.data, dtype: X.dtype };
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [rand([1, 2])], attrs: { axis: 2 }, error: /squeeze: axis 2 is out of range/ }],
}, {
  op: 'unsqueeze',
  samples: [
    { inputs: [rand([2, 3])], attrs: { axis: 0 }, strided: true },
    { inputs: [rand([2, 3])], attrs: { axis: [0, 3] }, strided: true },
    { inputs: [rand([2, 3])], attrs: { axis: [-1, 1] } },
    { inputs: [nd([], [4])], attrs: { axis: [0, 0] }, note: '0-D' },
    { inputs: [nd([0], [])], attrs: { axis: 1 }, note: 'empty' },
    { inputs: [rand([3], 'int32', 3, -9, 9)], attrs: { axis: -1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const shape = [...X.shape];
    for (const ax of [a.axis].flat() as number[]) shape.splice(ax < 0 ? ax + shape.length + 1 : ax, 0, 1);
    return { shape, data: X.data, dtype: X.dtype };
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [rand([2, 3])], attrs: { axis: 3 }, error: /unsqueeze: axis 3 is out of range for a tensor of rank 2/ }],
}, {
  op: 'flatten',
  samples: [
    { inputs: [rand([2, 3, 4])], strided: true },
    { inputs: [rand([2, 3, 4, 2])], attrs: { start_axis: 1, stop_axis: 2 }, strided: true },
    { inputs: [rand([2, 3])], attrs: { start_axis: -1 } },
    { inputs: [nd([], [4])], note: '0-D becomes [1]' },
    { inputs: [nd([2, 0, 3], [])], attrs: { start_axis: 1 }, note: 'empty' },
    { inputs: [rand([2, 2, 2], 'int64', 4, -9, 9)], attrs: { stop_axis: 1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const r = X.shape.length;
    if (r === 0) return { shape: [1], data: X.data, dtype: X.dtype };
    const s = normAx((a.start_axis as number) ?? 0, r), e = normAx((a.stop_axis as number) ?? -1, r);
    const shape = [...X.shape.slice(0, s), size(X.shape.slice(s, e + 1)), ...X.shape.slice(e + 1)];
    return { shape, data: X.data, dtype: X.dtype };
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3, 4])], attrs: { start_axis: 2, stop_axis: 1 }, error: /flatten: stop_axis 1 must not come before start_axis 2/ },
    { inputs: [rand([2, 3])], attrs: { start_axis: 5 }, error: /flatten: axis 5 is out of range/ },
  ],
}, {
  op: 'expand',
  samples: [
    { inputs: [rand([3, 1])], attrs: { shape: [3, 4] }, strided: true },
    { inputs: [rand([3, 1], 'float32', 2)], attrs: { shape: [2, -1, 4] }, strided: true },
    { inputs: [nd([], [5])], attrs: { shape: [2, 3] }, note: '0-D' },
    { inputs: [nd([0, 1], [])], attrs: { shape: [2, -1, 3] }, note: 'empty' },
    { inputs: [rand([1, 2], 'int64', 3, -9, 9)], attrs: { shape: [3, 2] } },
    { inputs: [rand([2], 'bool', 4)], attrs: { shape: [2, 2] } },
  ],
  ref: ([x], a) => {
    const X = arr(x);
    const t = a.shape as number[];
    const diff = t.length - X.shape.length;
    const shape = t.map((d, i) => (d === -1 ? X.shape[i - diff] : d));
    return build(shape, X.dtype, (idx) => at(X, X.shape.map((d, i) => (d === 1 ? 0 : idx[i + diff]))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 2])], attrs: { shape: [3, 4] }, error: /expand: dim 1 of x \[3, 2\] has size 2 and cannot be expanded to 4/ },
    { inputs: [rand([3, 2])], attrs: { shape: [2] }, error: /expand: shape \[2\] has fewer dims than x/ },
    { inputs: [rand([3, 1])], attrs: { shape: [-1, 3, 1] }, error: /expand: the size -1 of new leading dim 0 must be positive/ },
    { inputs: [rand([3, 1])], attrs: { shape: [3, 0] }, error: /expand: the expanded size cannot be zero/ },
  ],
}, {
  op: 'contiguous',
  samples: [
    { inputs: [rand([2, 3])], strided: true },
    { inputs: [nd([], [2.5])], note: '0-D' },
    { inputs: [nd([3, 0], [])], note: 'empty' },
    { inputs: [rand([4, 2], 'int32', 2, -9, 9)], strided: true },
    { inputs: [iota([5], 'uint8')], strided: true },
  ],
  ref: ([x]) => arr(x),
  dtypes: [...FLOATS],
});
