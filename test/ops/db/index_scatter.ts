// Records of scatter, scatter_nd_add, scatter_nd, take_along_axis, put_along_axis and index_fill.
import { addRecords } from '../op_db.js';
import { castValue, nd, rand, size, stridesOf } from '../ref.js';
import { arr, at, build, normAx } from './shape_util.js';
import type { NDArray } from '../ref.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;
const idx = (data: number[], shape = [data.length], dtype: 'int32' | 'int64' = 'int64') => nd(shape, data, dtype);
const clone = (x: NDArray): NDArray => ({ shape: [...x.shape], data: [...x.data], dtype: x.dtype });
const wrap = (v: number, n: number) => (v < 0 ? v + n : v);

function scatterRef(x: NDArray, index: NDArray, upd: NDArray, overwrite: boolean): NDArray {
  const out = clone(x);
  const row = size(x.shape.slice(1));
  if (!overwrite) for (const i of index.data) for (let j = 0; j < row; j++) out.data[i * row + j] = 0;
  index.data.forEach((i, k) => {
    for (let j = 0; j < row; j++) out.data[i * row + j] = overwrite ? upd.data[k * row + j] : castValue(out.data[i * row + j] + upd.data[k * row + j], x.dtype);
  });
  return out;
}

function scatterNdRef(base: NDArray, index: NDArray, upd: NDArray): NDArray {
  const out = clone(base);
  const k = index.shape[index.shape.length - 1];
  const m = size(index.shape.slice(0, -1));
  const slice = size(base.shape.slice(k));
  for (let r = 0; r < m; r++) {
    let lin = 0;
    for (let j = 0; j < k; j++) lin = lin * base.shape[j] + wrap(index.data[r * k + j], base.shape[j]);
    for (let i = 0; i < slice; i++) out.data[lin * slice + i] = castValue(out.data[lin * slice + i] + upd.data[r * slice + i], base.dtype);
  }
  return out;
}

/** Coordinates of idx read at the broadcast position p (size-1 dims of t repeat). */
const bcAt = (t: NDArray, p: number[]) => at(t, p.map((v, d) => (t.shape[d] === 1 ? 0 : v)));
const bcAtTail = (t: NDArray, p: number[]) => at(t, p.slice(p.length - t.shape.length).map((v, d) => (t.shape[d] === 1 ? 0 : v)));

function takeRef(a: NDArray, ind: NDArray, axis: number, broadcast: boolean): NDArray {
  const ax = normAx(axis, a.shape.length);
  const shape = ind.shape.map((d, i) => (i === ax ? d : broadcast && d === 1 ? a.shape[i] : d));
  return build(shape, a.dtype, (p) => {
    const src = p.map((v, d) => (a.shape[d] === 1 && d !== ax ? 0 : v));
    src[ax] = wrap(bcAt(ind, p), a.shape[ax]);
    return at(a, src);
  });
}

function putRef(a: NDArray, ind: NDArray, val: NDArray, attrs: Record<string, unknown>): NDArray {
  const ax = normAx(attrs.axis as number, a.shape.length);
  const reduce = String(attrs.reduce ?? 'assign'), incl = attrs.include_self ?? true, bc = attrs.broadcast ?? true;
  const S = ind.shape.map((d, i) => (i === ax ? d : bc ? a.shape[i] : d));
  const out = clone(a);
  const st = stridesOf(a.shape);
  const lists = new Map<number, number[]>();
  const n = size(S);
  for (let t = 0; t < n; t++) {
    const p: number[] = [];
    for (let d = S.length - 1, r = t; d >= 0; d--) { p.unshift(r % S[d]); r = Math.floor(r / S[d]); }
    const dst = [...p];
    dst[ax] = wrap(bcAt(ind, p), a.shape[ax]);
    const off = dst.reduce((s, v, d) => s + v * st[d], 0);
    const v = bcAtTail(val, p);
    if (reduce === 'assign') { out.data[off] = v; continue; }
    if (!lists.has(off)) lists.set(off, incl ? [a.data[off]] : []);
    lists.get(off)!.push(v);
  }
  for (const [off, vs] of lists) {
    let r: number;
    if (reduce === 'add') r = vs.reduce((s, v) => castValue(s + v, a.dtype), 0);
    else if (reduce === 'mean') { const s = vs.reduce((p, v) => castValue(p + v, a.dtype), 0); r = a.dtype.startsWith('int') ? Math.trunc(s / vs.length) : s / vs.length; }
    else if (reduce === 'mul' || reduce === 'multiply') r = vs.reduce((s, v) => castValue(s * v, a.dtype), 1);
    else if (reduce === 'amin') r = Math.min(...vs);
    else r = Math.max(...vs);
    out.data[off] = castValue(r, a.dtype);
  }
  return out;
}

addRecords({
  op: 'scatter',
  samples: [
    { inputs: [rand([4, 3]), idx([2, 0]), rand([2, 3], 'float32', 2)], strided: true },
    { inputs: [rand([4, 3]), idx([1, 1, 3], [3], 'int32'), rand([3, 3], 'float32', 3)], attrs: { overwrite: false }, strided: true, note: 'accumulate, repeated index' },
    { inputs: [rand([4, 2]), idx([3, 0], [2, 1]), rand([2, 2], 'float32', 4)], note: 'index [N, 1]' },
    { inputs: [rand([4]), idx([2], []), nd([], [7])], note: '0-D index into 1-D x' },
    { inputs: [rand([4, 2]), idx([]), nd([0, 2], [])], note: 'empty index' },
    { inputs: [nd([3, 0], []), idx([1]), nd([1, 0], [])], note: 'empty rows' },
    { inputs: [rand([3, 2], 'int64', 5, -9, 9), idx([0, 2]), rand([2, 2], 'int64', 6, -9, 9)], attrs: { overwrite: false } },
    { inputs: [rand([3, 2], 'bool', 5), idx([1]), rand([1, 2], 'bool', 6)] },
  ],
  ref: ([x, i, u], a) => scatterRef(arr(x), arr(i), arr(u), (a.overwrite ?? true) as boolean),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 3]), idx([4]), rand([1, 3])], error: /scatter: index 4 \(position 0\) is out of range for axis 0 of size 4/ },
    { inputs: [rand([4, 3]), idx([-1]), rand([1, 3])], error: /scatter: index -1 .*negative indices are not supported/ },
    { inputs: [rand([4, 3]), idx([0, 1]), rand([2, 2])], error: /scatter: updates shape \[2, 2\] must be \[2, 3\]/ },
    { inputs: [rand([4, 3]), nd([1], [0]), rand([1, 3])], error: /scatter: index must be int32 or int64, got float32/ },
    { inputs: [nd([], [1]), idx([0]), nd([1], [1])], error: /scatter: x must have at least one dim/ },
  ],
}, {
  op: 'scatter_nd_add',
  samples: [
    { inputs: [rand([3, 4]), idx([0, 1, 2, -1, 0, 1], [3, 2]), rand([3], 'float32', 2)], strided: true, note: 'elements, repeated and negative' },
    { inputs: [rand([3, 4]), idx([2, 0, 2], [3, 1], 'int32'), rand([3, 4], 'float32', 3)], strided: true, note: 'rows' },
    { inputs: [rand([2, 3]), idx([], [0, 1]), nd([0, 3], [])], note: 'empty index' },
    { inputs: [rand([2, 2]), idx([], [1, 0]), rand([1, 2, 2], 'float32', 4)], note: 'k = 0 adds to everything' },
    { inputs: [rand([2, 3], 'int32', 5, -9, 9), idx([1, 1], [1, 2]), nd([1], [5], 'int32')] },
  ],
  ref: ([x, i, u]) => scatterNdRef(arr(x), arr(i), arr(u)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), idx([0, 4], [1, 2]), rand([1])], error: /scatter_nd_add: index 4 \(position 1\) is out of range for axis 1 of size 4/ },
    { inputs: [rand([3, 4]), idx([0, 1], [1, 2]), rand([2])], error: /scatter_nd_add: updates shape \[2\] must be \[1\]/ },
    { inputs: [rand([3]), idx([0, 1], [1, 2]), rand([1])], error: /scatter_nd_add: index \[1, 2\] indexes 2 dims but x \[3\] has rank 1/ },
    { inputs: [rand([3]), idx([0], []), rand([1])], error: /scatter_nd_add: index must have at least one dim/ },
  ],
}, {
  op: 'scatter_nd',
  samples: [
    { inputs: [idx([1, 3, 1], [3, 1]), rand([3, 2])], attrs: { shape: [4, 2] } },
    { inputs: [idx([0, 0, 1, 1], [2, 2]), rand([2])], attrs: { shape: [2, 2] } },
    { inputs: [idx([], [0, 1]), nd([0], [])], attrs: { shape: [3] }, note: 'empty updates' },
    { inputs: [idx([2], [1, 1], 'int32'), rand([1], 'int64', 3, -9, 9)], attrs: { shape: [3] } },
  ],
  ref: ([i, u], a) => scatterNdRef({ shape: a.shape as number[], data: new Array(size(a.shape as number[])).fill(0), dtype: arr(u).dtype }, arr(i), arr(u)),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [idx([5], [1, 1]), rand([1])], attrs: { shape: [3] }, error: /scatter_nd: index 5 \(position 0\) is out of range for axis 0 of size 3/ },
    { inputs: [idx([1], [1, 1]), rand([1])], attrs: { shape: [-3] }, error: /scatter_nd: shape \[-3\] has a negative dim/ },
  ],
}, {
  op: 'take_along_axis',
  samples: [
    { inputs: [rand([3, 4]), idx([0, 3, -1, 2, 1, 1], [3, 2])], attrs: { axis: 1 }, strided: true },
    { inputs: [rand([3, 4]), idx([2, 0, 1, 1], [1, 4], 'int32')], attrs: { axis: 0 }, strided: true, note: 'one row of indices' },
    { inputs: [rand([3, 4]), idx([1, -2], [1, 2])], attrs: { axis: 1 }, note: 'indices broadcast over dim 0' },
    { inputs: [rand([1, 4]), idx([1, 2, 3], [3, 1])], attrs: { axis: 1 }, note: 'arr broadcasts up to indices' },
    { inputs: [rand([3, 4]), idx([1, 2], [2, 1])], attrs: { axis: 1, broadcast: false }, note: 'no broadcast: smaller indices' },
    { inputs: [rand([3, 4]), idx([], [3, 0])], attrs: { axis: 1 }, note: 'empty' },
    { inputs: [rand([5]), idx([4, 0], [2])], attrs: { axis: 0 } },
    { inputs: [rand([2, 3], 'bool', 4), idx([2, 1], [2, 1])], attrs: { axis: -1 } },
  ],
  ref: ([a, i], at2) => takeRef(arr(a), arr(i), at2.axis as number, (at2.broadcast ?? true) as boolean),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), idx([4], [1, 1])], attrs: { axis: 1 }, error: /take_along_axis: index 4 \(position 0\) is out of range for axis 1 of size 4/ },
    { inputs: [rand([3, 4]), idx([1], [1])], attrs: { axis: 1 }, error: /take_along_axis: indices \[1\] must have the same rank as arr \[3, 4\]/ },
    { inputs: [rand([3, 4]), idx([1, 1], [2, 1])], attrs: { axis: 2 }, error: /take_along_axis: .*axis 2/ },
    { inputs: [rand([3, 4]), idx([1, 1, 1, 1, 1, 1, 1, 1], [4, 2])], attrs: { axis: 1, broadcast: false }, error: /take_along_axis: indices \[4, 2\] do not fit arr \[3, 4\]/ },
  ],
}, {
  op: 'put_along_axis',
  samples: [
    { inputs: [rand([3, 4]), idx([0, 3, 2, 2, 1, 0], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1 }, strided: true },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'add' }, strided: true },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'add', include_self: false } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'mul' } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'multiply', include_self: false } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'mean' } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'mean', include_self: false } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'amin' } },
    { inputs: [rand([3, 4]), idx([1, 1, 2, 0, 3, 3], [3, 2]), rand([3, 2], 'float32', 2)], attrs: { axis: 1, reduce: 'amax', include_self: false } },
    { inputs: [rand([3, 4]), idx([2, 0], [1, 2]), nd([], [9])], attrs: { axis: 1 }, note: 'broadcast indices and a 0-D value' },
    { inputs: [rand([3, 4]), idx([2, 0, 1], [1, 3]), rand([3], 'float32', 5)], attrs: { axis: 0, reduce: 'add', broadcast: false }, note: 'no broadcast, values broadcast' },
    { inputs: [rand([3, 4]), idx([], [3, 0]), nd([3, 0], [])], attrs: { axis: 1 }, note: 'empty indices' },
    { inputs: [rand([2, 3], 'int64', 3, -9, 9), idx([0, -1], [2, 1]), rand([2, 1], 'int64', 4, -9, 9)], attrs: { axis: 1, reduce: 'mean' }, note: 'int mean, negative index' },
  ],
  ref: ([a, i, v], at2) => putRef(arr(a), arr(i), arr(v), at2),
  dtypes: [...FLOATS],
  atol: 1e-2,
  bad: [
    { inputs: [rand([3, 4]), idx([4], [1, 1]), nd([], [1])], attrs: { axis: 1 }, error: /put_along_axis: index 4 \(position 0\) is out of range for axis 1 of size 4/ },
    { inputs: [rand([3, 4]), idx([1], [1, 1]), nd([], [1])], attrs: { axis: 1, reduce: 'max' }, error: /put_along_axis: reduce must be one of/ },
    { inputs: [rand([3, 4]), idx([1, 1], [1, 2]), nd([3], [1, 2, 3])], attrs: { axis: 1 }, error: /put_along_axis: values \[3\] cannot be broadcast to \[3, 2\]/ },
    { inputs: [rand([3, 4]), idx([1, 1], [1, 2]), nd([], [1], 'float64')], attrs: { axis: 1 }, error: /put_along_axis: values dtype float64 differs from arr dtype float32/ },
  ],
}, {
  op: 'index_fill',
  samples: [
    { inputs: [rand([3, 4]), idx([0, 2])], attrs: { axis: 1, value: -1.5 }, strided: true },
    { inputs: [rand([3, 4]), idx([-1], [1], 'int32')], attrs: { axis: 0, value: 2 }, strided: true, note: 'negative index' },
    { inputs: [rand([3, 4]), idx([1], [])], attrs: { axis: -1, value: 0 }, note: '0-D index' },
    { inputs: [rand([3, 4]), idx([])], attrs: { axis: 0, value: 5 }, note: 'empty index' },
    { inputs: [nd([0, 2], []), idx([1])], attrs: { axis: 1, value: 5 }, note: 'empty x' },
    { inputs: [rand([2, 3], 'int32', 4, -9, 9), idx([1])], attrs: { axis: 1, value: 7 } },
    { inputs: [rand([2, 3], 'bool', 4), idx([0])], attrs: { axis: 0, value: true } },
  ],
  ref: ([x, i], a) => {
    const X = arr(x), I = arr(i);
    const ax = normAx(a.axis as number, X.shape.length);
    const hit = new Set(I.data.map((v) => wrap(v, X.shape[ax])));
    return build(X.shape, X.dtype, (p) => (hit.has(p[ax]) ? castValue(Number(a.value), X.dtype) : at(X, p)));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), idx([4])], attrs: { axis: 1, value: 0 }, error: /index_fill: index 4 \(position 0\) is out of range for axis 1 of size 4/ },
    { inputs: [rand([3, 4]), idx([0, 1], [1, 2])], attrs: { axis: 1, value: 0 }, error: /index_fill: index must be 0-D or 1-D/ },
    { inputs: [rand([3, 4]), idx([0])], attrs: { axis: 1, value: 'a' }, error: /index_fill: value must be a number or bool/ },
    { inputs: [rand([2], 'int32'), idx([0])], attrs: { axis: 0, value: 1e20 }, error: /index_fill: value .* is out of range for int32/ },
  ],
});
