// Records of roll, repeat_interleave, chunk, diag, diag_embed, diagonal, diagonal_scatter,
// select_scatter, meshgrid, as_strided, tensor_unfold, and pad's reflect/replicate/circular modes.
import { addRecords } from '../op_db.js';
import { castValue, nd, rand, size } from '../ref.js';
import { arr, arrs, at, build, iota, normAx } from './shape_util.js';
import type { NDArray } from '../ref.js';

const FLOATS = ['float64', 'float16', 'bfloat16'] as const;
const mod = (a: number, n: number) => ((a % n) + n) % n;
const flat = (x: NDArray): NDArray => ({ shape: [size(x.shape)], data: x.data, dtype: x.dtype });
const diagLen = (m: number, n: number, o: number) => Math.max(0, o >= 0 ? Math.min(m, n - o) : Math.min(m + o, n));

function rollRef(x: NDArray, shifts: number[], axis: number[] | null | undefined): NDArray {
  if (axis === null || axis === undefined) {
    const f = flat(x), n = f.data.length;
    return { shape: x.shape, data: f.data.map((_, i) => f.data[mod(i - shifts[0], n)]), dtype: x.dtype };
  }
  const sh = x.shape.map(() => 0);
  axis.forEach((a, i) => { sh[normAx(a, x.shape.length)] += shifts[i]; });
  return build(x.shape, x.dtype, (p) => at(x, p.map((v, d) => mod(v - sh[d], x.shape[d]))));
}

/** The diagonal of dims a1, a2 at offset o: other dims first, then the diagonal. */
function diagonalRef(x: NDArray, o: number, a1: number, a2: number): NDArray {
  const r = x.shape.length;
  a1 = normAx(a1, r); a2 = normAx(a2, r);
  const rest = x.shape.filter((_, i) => i !== a1 && i !== a2);
  const len = diagLen(x.shape[a1], x.shape[a2], o);
  return build([...rest, len], x.dtype, (p) => {
    const src = new Array<number>(r);
    let j = 0;
    for (let d = 0; d < r; d++) if (d !== a1 && d !== a2) src[d] = p[j++];
    const i = p[p.length - 1];
    src[a1] = o >= 0 ? i : i - o;
    src[a2] = o >= 0 ? i + o : i;
    return at(x, src);
  });
}

/** x with its (o, a1, a2) diagonal replaced by y (y = null: read-only positions map). */
function diagonalScatterRef(x: NDArray, y: NDArray, o: number, a1: number, a2: number): NDArray {
  const r = x.shape.length;
  a1 = normAx(a1, r); a2 = normAx(a2, r);
  return build(x.shape, x.dtype, (p) => {
    const i = o >= 0 ? p[a1] : p[a2];
    if (p[a2] - p[a1] !== o) return at(x, p);
    const rest = p.filter((_, d) => d !== a1 && d !== a2);
    return at(y, [...rest, i]);
  });
}

function edge(j: number, n: number, mode: string): number {
  if (mode === 'reflect') return j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
  if (mode === 'replicate') return Math.min(Math.max(j, 0), n - 1);
  return mod(j, n);
}

addRecords({
  op: 'roll',
  samples: [
    { inputs: [rand([3, 4])], attrs: { shifts: [1] }, strided: true, note: 'flattened' },
    { inputs: [rand([3, 4])], attrs: { shifts: [1, -5], axis: [0, 1] }, strided: true },
    { inputs: [rand([3, 4])], attrs: { shifts: [2, 3], axis: [1, -1] }, note: 'repeated axis adds' },
    { inputs: [nd([], [3])], attrs: { shifts: [4] }, note: '0-D' },
    { inputs: [nd([0, 3], [])], attrs: { shifts: [1], axis: [1] }, note: 'empty' },
    { inputs: [rand([5], 'int64', 3, -9, 9)], attrs: { shifts: [-7] } },
    { inputs: [rand([2, 3], 'bool', 3)], attrs: { shifts: [1], axis: [1] } },
  ],
  ref: ([x], a) => rollRef(arr(x), a.shifts as number[], a.axis as number[] | null | undefined),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4])], attrs: { shifts: [1, 2], axis: [0] }, error: /roll: shifts \[1,2\] and axis \[0\] must have the same length/ },
    { inputs: [rand([3, 4])], attrs: { shifts: [1], axis: [2] }, error: /roll: .*axis 2/ },
    { inputs: [rand([3, 4])], attrs: { shifts: [1, 2] }, error: /roll: shifts must have one entry when axis is None/ },
  ],
}, {
  op: 'repeat_interleave',
  samples: [
    { inputs: [rand([2, 3])], attrs: { repeats: 2, axis: 1 }, strided: true },
    { inputs: [rand([2, 3])], attrs: { repeats: 3 }, strided: true, note: 'axis None flattens' },
    { inputs: [rand([2, 3])], attrs: { repeats: 0, axis: 0 }, note: 'zero repeats' },
    { inputs: [nd([], [4])], attrs: { repeats: 2 }, note: '0-D' },
    { inputs: [nd([0, 2], [])], attrs: { repeats: 2, axis: -1 }, note: 'empty' },
    { inputs: [rand([3], 'int32', 3, -9, 9)], attrs: { repeats: 2, axis: 0 } },
  ],
  ref: ([x], a) => {
    const X = arr(x), r = a.repeats as number;
    if (a.axis === null || a.axis === undefined) { const f = flat(X); return { shape: [f.data.length * r], data: f.data.flatMap((v) => new Array(r).fill(v)), dtype: X.dtype }; }
    const ax = normAx(a.axis as number, X.shape.length);
    return build(X.shape.map((d, i) => (i === ax ? d * r : d)), X.dtype, (p) => at(X, p.map((v, i) => (i === ax ? Math.floor(v / r) : v))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([2, 3])], attrs: { repeats: -1, axis: 0 }, error: /repeat_interleave: repeats must be non-negative, got -1/ },
    { inputs: [rand([2, 3])], attrs: { repeats: 2, axis: 2 }, error: /repeat_interleave: .*axis 2/ },
  ],
}, {
  op: 'repeat_interleave_with_tensor_index',
  noStatic: 'data-dependent output length: compiled programs refuse it (runs eagerly only)',
  samples: [
    { inputs: [rand([3, 2]), nd([3], [2, 0, 1], 'int64')], attrs: { axis: 0 }, strided: true },
    { inputs: [rand([2, 3]), nd([3], [1, 3, 2], 'int32')], attrs: { axis: -1 }, strided: true },
    { inputs: [rand([2, 2]), nd([4], [1, 0, 2, 1], 'int64')], note: 'axis None flattens' },
    { inputs: [rand([2, 2]), nd([2], [0, 0], 'int64')], attrs: { axis: 1 }, note: 'all zero: empty output' },
    { inputs: [nd([0, 2], []), nd([0], [], 'int64')], attrs: { axis: 0 }, note: 'empty' },
    { inputs: [rand([3], 'bool', 2), nd([3], [1, 2, 1], 'int64')], attrs: { axis: 0 } },
  ],
  ref: ([x, r], a) => {
    const X = arr(x), R = arr(r).data;
    const base = a.axis === null || a.axis === undefined ? flat(X) : X;
    const ax = a.axis === null || a.axis === undefined ? 0 : normAx(a.axis as number, X.shape.length);
    const src: number[] = [];
    R.forEach((n, k) => { for (let i = 0; i < n; i++) src.push(k); });
    return build(base.shape.map((d, i) => (i === ax ? src.length : d)), X.dtype, (p) => at(base, p.map((v, i) => (i === ax ? src[v] : v))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 2]), nd([2], [1, 1], 'int64')], attrs: { axis: 0 }, error: /repeat_interleave_with_tensor_index: repeats \[2\] must be 1-D with one entry per element of axis 0 \(size 3\)/ },
    { inputs: [rand([3]), nd([3], [1, -1, 1], 'int64')], attrs: { axis: 0 }, error: /repeat_interleave_with_tensor_index: repeats must be non-negative, got -1 at position 1/ },
    { inputs: [rand([3]), nd([3], [1, 1, 1])], attrs: { axis: 0 }, error: /repeat_interleave_with_tensor_index: repeats must be int32 or int64, got float32/ },
  ],
}, {
  op: 'chunk',
  samples: [
    { inputs: [rand([4, 3])], attrs: { chunks: 2 }, strided: true },
    { inputs: [rand([2, 6])], attrs: { chunks: 3, axis: -1 }, strided: true },
    { inputs: [nd([0, 2], [])], attrs: { chunks: 2, axis: 0 }, note: 'empty' },
    { inputs: [rand([3], 'int64', 2, -9, 9)], attrs: { chunks: 1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x), n = a.chunks as number, ax = normAx((a.axis as number | undefined) ?? 0, X.shape.length);
    const s = X.shape[ax] / n;
    return Array.from({ length: n }, (_, k) => build(X.shape.map((d, i) => (i === ax ? s : d)), X.dtype, (p) => at(X, p.map((v, i) => (i === ax ? v + k * s : v)))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([4, 3])], attrs: { chunks: 2, axis: 1 }, error: /chunk: axis 1 of x \[4, 3\] has size 3, which 2 chunks do not divide evenly/ },
    { inputs: [rand([4, 3])], attrs: { chunks: 0 }, error: /chunk: chunks must be positive, got 0/ },
  ],
}, {
  op: 'diag',
  samples: [
    { inputs: [rand([3])], strided: true },
    { inputs: [rand([3])], attrs: { offset: -1, padding_value: 7 }, strided: true },
    { inputs: [rand([3, 4])], attrs: { offset: 1 }, strided: true },
    { inputs: [rand([3, 4])], attrs: { offset: -2 } },
    { inputs: [rand([3, 4])], attrs: { offset: 5 }, note: 'empty diagonal' },
    { inputs: [nd([], [2])], attrs: { offset: 1 }, note: '0-D' },
    { inputs: [nd([0], [])], attrs: { offset: 1, padding_value: 3 }, note: 'empty vector' },
    { inputs: [rand([3], 'int32', 5, -9, 9)], attrs: { padding_value: -1 } },
  ],
  ref: ([x], a) => {
    const X = arr(x), o = (a.offset as number | undefined) ?? 0, pv = castValue((a.padding_value as number | undefined) ?? 0, X.dtype);
    if (X.shape.length <= 1) {
      const v = X.shape.length === 0 ? [X.data[0]] : X.data, m = v.length + Math.abs(o);
      return build([m, m], X.dtype, ([i, j]) => (j - i === o ? v[o >= 0 ? i : j] : pv));
    }
    return diagonalRef(X, o, 0, 1);
  },
  dtypes: [...FLOATS],
  bad: [{ inputs: [rand([2, 2, 2])], error: /diag: x must be 0-D, 1-D or 2-D, got \[2, 2, 2\]/ }],
}, {
  op: 'diag_embed',
  samples: [
    { inputs: [rand([2, 3])], strided: true },
    { inputs: [rand([2, 3])], attrs: { offset: 1, dim1: 0, dim2: 2 }, strided: true },
    { inputs: [rand([2, 3])], attrs: { offset: -1, dim1: -1, dim2: 0 }, note: 'dim1 after dim2' },
    { inputs: [rand([3])], attrs: { offset: 2 } },
    { inputs: [nd([2, 0], [])], note: 'empty' },
    { inputs: [rand([2], 'int64', 3, -9, 9)] },
  ],
  ref: ([x], a) => {
    const X = arr(x), o = (a.offset as number | undefined) ?? 0, r = X.shape.length + 1;
    const d1 = normAx((a.dim1 as number | undefined) ?? -2, r), d2 = normAx((a.dim2 as number | undefined) ?? -1, r);
    const m = X.shape[X.shape.length - 1] + Math.abs(o);
    const shape: number[] = [];
    for (let d = 0, j = 0; d < r; d++) shape.push(d === d1 || d === d2 ? m : X.shape[j++]);
    return build(shape, X.dtype, (p) => {
      if (p[d2] - p[d1] !== o) return 0;
      return at(X, [...p.filter((_, d) => d !== d1 && d !== d2), o >= 0 ? p[d1] : p[d2]]);
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [nd([], [1])], error: /diag_embed: input must have at least one dim/ },
    { inputs: [rand([2, 3])], attrs: { dim1: 1, dim2: -2 }, error: /diag_embed: dim1 and dim2 must differ/ },
  ],
}, {
  op: 'diagonal',
  samples: [
    { inputs: [rand([3, 4])], strided: true },
    { inputs: [rand([3, 4])], attrs: { offset: 2 }, strided: true },
    { inputs: [rand([2, 3, 4])], attrs: { offset: -1, axis1: 2, axis2: 1 }, strided: true },
    { inputs: [rand([3, 4])], attrs: { offset: 4 }, note: 'empty diagonal' },
    { inputs: [rand([3, 3], 'bool', 2)] },
  ],
  ref: ([x], a) => diagonalRef(arr(x), (a.offset as number | undefined) ?? 0, (a.axis1 as number | undefined) ?? 0, (a.axis2 as number | undefined) ?? 1),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3])], error: /diagonal: x must have at least 2 dims/ },
    { inputs: [rand([3, 3])], attrs: { axis1: 1, axis2: -1 }, error: /diagonal: axis1 and axis2 must differ/ },
  ],
}, {
  op: 'diagonal_scatter',
  samples: [
    { inputs: [rand([3, 4]), rand([3], 'float32', 2)], strided: true },
    { inputs: [rand([3, 4]), rand([2], 'float32', 2)], attrs: { offset: 2 }, strided: true },
    { inputs: [rand([2, 3, 4]), rand([2, 3], 'float32', 3)], attrs: { offset: -1, axis1: 2, axis2: 1 } },
    { inputs: [rand([2, 2]), nd([0], [])], attrs: { offset: 3 }, note: 'empty diagonal' },
    { inputs: [rand([2, 2], 'int64', 2, -9, 9), nd([2], [5, 6], 'int64')] },
  ],
  ref: ([x, y], a) => diagonalScatterRef(arr(x), arr(y), (a.offset as number | undefined) ?? 0, (a.axis1 as number | undefined) ?? 0, (a.axis2 as number | undefined) ?? 1),
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), rand([2])], error: /diagonal_scatter: y shape \[2\] must be the diagonal's \[3\]/ },
    { inputs: [rand([3, 4]), rand([3], 'float64')], error: /diagonal_scatter: y dtype float64 differs from x dtype float32/ },
  ],
}, {
  op: 'select_scatter',
  samples: [
    { inputs: [rand([3, 4]), rand([4], 'float32', 2)], attrs: { axis: 0, index: 1 }, strided: true },
    { inputs: [rand([3, 4]), rand([3], 'float32', 2)], attrs: { axis: 1, index: -1 }, strided: true },
    { inputs: [rand([4]), nd([], [9])], attrs: { axis: 0, index: 2 }, note: '0-D values' },
    { inputs: [nd([2, 0], []), nd([0], [])], attrs: { axis: 0, index: 1 }, note: 'empty' },
    { inputs: [rand([2, 2], 'int32', 2, -9, 9), nd([2], [5, 6], 'int32')], attrs: { axis: 1, index: 0 } },
  ],
  ref: ([x, v], a) => {
    const X = arr(x), V = arr(v), ax = normAx(a.axis as number, X.shape.length), i = mod(a.index as number, X.shape[ax]);
    return build(X.shape, X.dtype, (p) => (p[ax] === i ? at(V, p.filter((_, d) => d !== ax)) : at(X, p)));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3, 4]), rand([4])], attrs: { axis: 0, index: 3 }, error: /select_scatter: index 3 is out of range for axis 0 of size 3/ },
    { inputs: [rand([3, 4]), rand([3])], attrs: { axis: 0, index: 0 }, error: /select_scatter: values shape \[3\] must be \[4\]/ },
  ],
}, {
  op: 'meshgrid',
  samples: [
    { inputs: [[rand([2]), rand([3], 'float32', 2)]] },
    { inputs: [[rand([2]), nd([], [5]), rand([0], 'float32', 3)]], note: '0-D and empty inputs' },
    { inputs: [[rand([3])]], note: 'one input' },
    { inputs: [[rand([2], 'int64', 2, -9, 9), rand([2], 'int64', 3, -9, 9)]] },
  ],
  ref: ([xs]) => {
    const X = arrs(xs);
    const shape = X.map((t) => (t.shape.length === 0 ? 1 : t.shape[0]));
    return X.map((t, k) => build(shape, t.dtype, (p) => t.data[t.shape.length === 0 ? 0 : p[k]]));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [[rand([2, 2]), rand([2])]], error: /meshgrid: inputs must be 0-D or 1-D, got \[2, 2\] for input 0/ },
    { inputs: [[rand([2]), rand([2], 'float64')]], error: /meshgrid: all inputs must have the same dtype/ },
  ],
}, {
  op: 'as_strided',
  samples: [
    { inputs: [iota([3, 4])], attrs: { shape: [2, 2], stride: [1, 4], offset: 1 }, strided: true, note: 'strided x: a gathered copy' },
    { inputs: [iota([6])], attrs: { shape: [3, 3], stride: [1, 1] }, strided: true, note: 'overlapping windows' },
    { inputs: [iota([6])], attrs: { shape: [2, 3], stride: [0, 2] }, note: 'stride 0' },
    { inputs: [iota([2])], attrs: { shape: [], stride: [], offset: 1 }, note: '0-D' },
    { inputs: [iota([2])], attrs: { shape: [0, 5], stride: [9, 9] }, note: 'empty' },
  ],
  ref: ([x], a) => {
    const X = arr(x), st = a.stride as number[], off = (a.offset as number | undefined) ?? 0;
    return build(a.shape as number[], X.dtype, (p) => X.data[off + p.reduce((s, v, d) => s + v * st[d], 0)]);
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [iota([6])], attrs: { shape: [3, 3], stride: [2, 1] }, error: /as_strided: shape \[3,3\] with stride \[2,1\] and offset 0 reaches element 6, but x \[6\] holds 6 elements/ },
    { inputs: [iota([6])], attrs: { shape: [3], stride: [1, 1] }, error: /as_strided: shape \[3\] and stride \[1,1\] must have the same length/ },
    { inputs: [iota([6])], attrs: { shape: [2], stride: [-1] }, error: /as_strided: stride \[-1\] has a negative entry/ },
  ],
}, {
  op: 'tensor_unfold',
  samples: [
    { inputs: [rand([7])], attrs: { axis: 0, size: 3, step: 2 }, strided: true },
    { inputs: [rand([2, 5])], attrs: { axis: -1, size: 2, step: 1 }, strided: true },
    { inputs: [rand([4, 3])], attrs: { axis: 0, size: 4, step: 3 }, strided: true, note: 'one window' },
    { inputs: [rand([3, 2])], attrs: { axis: 0, size: 0, step: 1 }, note: 'empty windows' },
    { inputs: [rand([5], 'int32', 2, -9, 9)], attrs: { axis: 0, size: 2, step: 2 } },
  ],
  ref: ([x], a) => {
    const X = arr(x), ax = normAx(a.axis as number, X.shape.length), sz = a.size as number, st = a.step as number;
    const w = Math.floor((X.shape[ax] - sz) / st) + 1;
    return build([...X.shape.map((d, i) => (i === ax ? w : d)), sz], X.dtype, (p) => {
      const j = p[p.length - 1];
      return at(X, p.slice(0, -1).map((v, i) => (i === ax ? v * st + j : v)));
    });
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([3])], attrs: { axis: 0, size: 4, step: 1 }, error: /unfold: size 4 must be in \[0, 3\]/ },
    { inputs: [rand([3])], attrs: { axis: 0, size: 2, step: 0 }, error: /unfold: step must be positive, got 0/ },
  ],
}, {
  op: 'pad',
  samples: [
    { inputs: [rand([1, 2, 4])], attrs: { pad: [2, 3], mode: 'reflect', data_format: 'NCL' }, strided: true, note: 'reflect NCL' },
    { inputs: [rand([1, 2, 3, 3])], attrs: { pad: [1, 2, 2, 0], mode: 'reflect' }, strided: true, note: 'reflect NCHW' },
    { inputs: [rand([1, 3, 3, 2])], attrs: { pad: [1, 0, 0, 2], mode: 'replicate', data_format: 'NHWC' }, strided: true, note: 'replicate NHWC' },
    { inputs: [rand([1, 1, 2, 2, 3])], attrs: { pad: [1, 1, 0, 3, 2, 1], mode: 'replicate', data_format: 'NCDHW' }, note: 'replicate NCDHW' },
    { inputs: [rand([2, 2, 3])], attrs: { pad: [4, 1], mode: 'circular', data_format: 'NLC' }, note: 'circular NLC, pad beyond the size' },
    { inputs: [rand([1, 1, 2, 3])], attrs: { pad: [2, 1, 1, 1], mode: 'circular' }, strided: true, note: 'circular NCHW' },
    { inputs: [rand([1, 2, 2, 2, 1])], attrs: { pad: [0, 1, 1, 1, 1, 0], mode: 'circular', data_format: 'NDHWC' }, note: 'circular NDHWC' },
    { inputs: [nd([0, 1, 3], [])], attrs: { pad: [1, 1], mode: 'reflect', data_format: 'NCL' }, note: 'empty batch' },
    { inputs: [rand([1, 1, 3], 'int64', 4, -9, 9)], attrs: { pad: [2, 2], mode: 'reflect', data_format: 'NCL' } },
  ],
  ref: ([x], a) => {
    const X = arr(x), r = X.shape.length, p = a.pad as number[], mode = String(a.mode);
    const cl = String(a.data_format ?? 'NCHW').endsWith('C');
    const pairs: [number, number][] = X.shape.map(() => [0, 0]);
    const last = cl ? r - 2 : r - 1;
    for (let k = 0; k < p.length / 2; k++) pairs[last - k] = [p[2 * k], p[2 * k + 1]];
    return build(X.shape.map((d, i) => d + pairs[i][0] + pairs[i][1]), X.dtype, (q) => at(X, q.map((v, i) => edge(v - pairs[i][0], X.shape[i], mode))));
  },
  dtypes: [...FLOATS],
  bad: [
    { inputs: [rand([1, 1, 3])], attrs: { pad: [3, 0], mode: 'reflect', data_format: 'NCL' }, error: /pad: mode 'reflect' needs paddings smaller than the padded dim/ },
    { inputs: [rand([1, 1, 0])], attrs: { pad: [1, 0], mode: 'replicate', data_format: 'NCL' }, error: /pad: mode 'replicate' cannot pad axis 2 of size 0/ },
    { inputs: [rand([3, 3])], attrs: { pad: [1, 1, 1, 1], mode: 'circular' }, error: /pad: pad has 4 entries, so x must be 3-, 4- or 5-D/ },
    { inputs: [rand([1, 1, 3])], attrs: { pad: [1, 1], mode: 'wrap', data_format: 'NCL' }, error: /pad: mode must be one of/ },
  ],
});


