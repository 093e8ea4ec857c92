// Records of addmm, renorm, t, fill_diagonal, fill_diagonal_tensor (src/ops/defs/matrix_more.ts)
// and check_numerics (src/ops/defs/debugging.ts).
import { addRecords } from '../op_db.js';
import { atBroadcast, castValue, nd, rand, size } from '../ref.js';
import type { NDArray } from '../ref.js';
import { arr, at, build, normAx } from './shape_util.js';

const clone = (x: NDArray): NDArray => ({ shape: [...x.shape], data: [...x.data], dtype: x.dtype });

function addmmRef(inp: NDArray, x: NDArray, y: NDArray, beta: number, alpha: number): NDArray {
  const [m, k] = x.shape, n = y.shape[1];
  return build([m, n], x.dtype, ([i, j]) => {
    let s = 0;
    for (let p = 0; p < k; p++) s += at(x, [i, p]) * at(y, [p, j]);
    const b = beta === 0 ? 0 : beta * atBroadcast(inp, [i, j]);
    return b + alpha * s;
  });
}

function renormRef(x: NDArray, p: number, axis: number, maxNorm: number): NDArray {
  const ax = normAx(axis, x.shape.length);
  const dim = x.shape[ax];
  const sums = new Array<number>(dim).fill(0);
  const idx = (i: number) => Math.floor(i / size(x.shape.slice(ax + 1))) % dim;
  x.data.forEach((v, i) => { sums[idx(i)] += Math.abs(v) ** p; });
  const scale = sums.map((s) => { const nrm = s ** (1 / p); return nrm > maxNorm ? maxNorm / (nrm + 1e-6) : 1; });
  return { shape: [...x.shape], dtype: x.dtype, data: x.data.map((v, i) => castValue(v * scale[idx(i)], x.dtype)) };
}

/** Paddle's fill_diagonal positions: flat i stepping by 1 + d + d^2 ..., the offset kept in the row. */
function fillDiagRef(x: NDArray, value: number, offset: number, wrap: boolean): NDArray {
  const out = clone(x);
  const r = x.shape.length, cols = x.shape[1];
  let step = 0, prod = 1;
  for (let d = r - 1; d >= 0; d--) { step += prod; prod *= x.shape[d]; }
  const n = size(x.shape);
  const lim = wrap || r > 2 ? n : Math.min(n, cols * cols);
  for (let i = 0; i < lim; i += step) {
    const c = (i % cols) + offset;
    if (c >= 0 && c < cols) out.data[i + offset] = castValue(value, x.dtype);
  }
  return out;
}

function fillDiagTensorRef(x: NDArray, y: NDArray, offset: number, dim1: number, dim2: number): NDArray {
  const r = x.shape.length;
  const a1 = normAx(dim1, r), a2 = normAx(dim2, r);
  return build(x.shape, x.dtype, (p) => {
    if (p[a2] - p[a1] !== offset) return at(x, p);
    const rest = p.filter((_, i) => i !== a1 && i !== a2);
    return at(y, [...rest, offset >= 0 ? p[a1] : p[a2]]);
  });
}

function numericsRef(x: NDArray): NDArray[] {
  let nan = 0, inf = 0, zero = 0, mx = -Infinity, mn = Infinity, sum = 0, any = false;
  for (const v of x.data) {
    sum += v;
    if (Number.isNaN(v)) { nan++; continue; }
    if (!Number.isFinite(v)) inf++;
    else if (v === 0) zero++;
    mx = Math.max(mx, v); mn = Math.min(mn, v); any = true;
  }
  const n = x.data.length;
  return [nd([3], [nan, inf, zero], 'int64'),
    nd([3], [any ? mx : -3.4028234663852886e38, any ? mn : 3.4028234663852886e38, n ? Math.fround(sum / n) : 0], 'float32')];
}

const f64 = (shape: number[], seed: number) => rand(shape, 'float64', seed);

addRecords(
  {
    op: 'addmm',
    samples: [
      { inputs: [rand([3, 4], 'float32', 1), rand([3, 5], 'float32', 2), rand([5, 4], 'float32', 3)], attrs: { beta: 0.5, alpha: 2 }, strided: true },
      { inputs: [rand([4], 'float32', 4), rand([3, 5], 'float32', 5), rand([5, 4], 'float32', 6)], note: '1-D input broadcast', strided: true },
      { inputs: [rand([1, 4], 'float32', 7), rand([2, 3], 'float32', 8), rand([3, 4], 'float32', 9)], attrs: { alpha: -1 }, note: '[1, N] input' },
      { inputs: [rand([2, 1], 'float32', 7), rand([2, 3], 'float32', 8), rand([3, 4], 'float32', 9)], attrs: { beta: 3 }, note: '[M, 1] input' },
      { inputs: [rand([1], 'float32', 7), rand([2, 3], 'float32', 8), rand([3, 4], 'float32', 9)], note: '[1] input' },
      { inputs: [nd([2, 2], [NaN, 1, 2, 3]), rand([2, 3], 'float32', 8), rand([3, 2], 'float32', 9)], attrs: { beta: 0 }, note: 'beta 0 ignores input (BLAS)' },
      { inputs: [rand([2, 4], 'float32', 10), nd([2, 0], []), nd([0, 4], [])], attrs: { beta: 2 }, note: 'empty K' },
      { inputs: [nd([0, 4], []), nd([0, 3], []), rand([3, 4], 'float32', 11)], note: 'empty M' },
      { inputs: [rand([20, 40], 'float32', 12), rand([20, 33], 'float32', 13), rand([33, 40], 'float32', 14)], attrs: { beta: -1, alpha: 0.25 }, note: 'larger' },
    ],
    ref: ([i, x, y], a) => addmmRef(arr(i), arr(x), arr(y), Number(a.beta ?? 1), Number(a.alpha ?? 1)),
    dtypes: ['float64'],
    atol: 1e-4, rtol: 1e-4,
    bad: [
      { inputs: [rand([3, 4]), rand([3, 5]), rand([4, 4])], error: /addmm: x's width must equal y's height/ },
      { inputs: [rand([3, 4]), rand([3]), rand([3, 4])], error: /addmm: the dimension of x and y should be 2/ },
      { inputs: [rand([2, 4]), rand([3, 5]), rand([5, 4])], error: /addmm: input must broadcast to the product's shape \[3, 4\]/ },
      { inputs: [rand([3]), rand([3, 5]), rand([5, 4])], error: /addmm: a 1-D input must have size 4 or 1/ },
      { inputs: [rand([1, 3, 4]), rand([3, 5]), rand([5, 4])], error: /addmm: the dimension of input should be 2 or 1/ },
      { inputs: [rand([3, 4], 'float64'), rand([3, 5]), rand([5, 4])], error: /addmm: input, x and y must share a dtype/ },
      { inputs: [rand([3, 4], 'int32'), rand([3, 5], 'int32'), rand([5, 4], 'int32')], error: /addmm: unsupported dtype int32/ },
      { inputs: [rand([3, 4]), rand([3, 5]), rand([5, 4])], attrs: { beta: 'x' }, error: /addmm: 'beta' must be a number/ },
    ],
  },
  {
    op: 'renorm',
    samples: [
      { inputs: [rand([3, 4], 'float32', 1)], attrs: { p: 2, axis: 0, max_norm: 2 }, strided: true },
      { inputs: [rand([3, 4, 2], 'float32', 2)], attrs: { p: 1, axis: 1, max_norm: 1.5 }, strided: true },
      { inputs: [rand([2, 3, 5], 'float32', 3)], attrs: { p: 3.5, axis: -1, max_norm: 1 } },
      { inputs: [rand([4, 3], 'float32', 4)], attrs: { p: 2, axis: 1, max_norm: 100 }, note: 'no slice over max_norm' },
      { inputs: [nd([0, 3], [])], attrs: { p: 2, axis: 1, max_norm: 1 }, note: 'empty' },
      { inputs: [rand([5], 'float32', 5)], attrs: { p: 2, axis: 0, max_norm: 0.5 }, note: '1-D: one element per slice' },
      { inputs: [rand([3, 20000], 'float32', 6)], attrs: { p: 2, axis: 0, max_norm: 10 }, note: 'large slices (split reduction)' },
    ],
    ref: ([x], a) => renormRef(arr(x), Number(a.p), Number(a.axis), Number(a.max_norm)),
    dtypes: ['float64', 'float16', 'bfloat16'],
    atol: 1e-4, rtol: 1e-4,
    bad: [
      { inputs: [rand([3, 4])], attrs: { p: 2, axis: 2, max_norm: 1 }, error: /renorm: the axis 2 should be less than the shape's size 2/ },
      { inputs: [nd([], [1])], attrs: { p: 2, axis: 0, max_norm: 1 }, error: /renorm: the axis 0 should be less than the shape's size 0/ },
      { inputs: [rand([3, 4])], attrs: { p: 0, axis: 0, max_norm: 1 }, error: /renorm: p must be a positive finite number, got 0/ },
      { inputs: [rand([3, 4])], attrs: { p: 2, axis: 0, max_norm: -1 }, error: /renorm: max_norm must be non-negative/ },
      { inputs: [rand([3, 4], 'int32')], attrs: { p: 2, axis: 0, max_norm: 1 }, error: /renorm: unsupported dtype int32/ },
      { inputs: [rand([3, 4])], attrs: { p: 2, axis: 0.5, max_norm: 1 }, error: /renorm: 'axis' must be an int/ },
    ],
  },
  {
    op: 't',
    samples: [
      { inputs: [rand([3, 4], 'float32', 1)], strided: true },
      { inputs: [rand([5], 'float32', 2)], note: '1-D is returned as is' },
      { inputs: [nd([], [2.5])], note: '0-D' },
      { inputs: [nd([0, 3], [])], note: 'empty' },
      { inputs: [rand([2, 3], 'int64', 3, -9, 9)] },
    ],
    ref: ([x]) => { const X = arr(x); return X.shape.length < 2 ? clone(X) : build([X.shape[1], X.shape[0]], X.dtype, ([i, j]) => at(X, [j, i])); },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [{ inputs: [rand([2, 2, 2])], error: /t: Input\(input\) only support N-D \(N<=2\) tensor, but received length of Input\(input\) is 3/ }],
  },
  {
    op: 'fill_diagonal',
    samples: [
      { inputs: [rand([4, 4], 'float32', 1)], attrs: { value: 2 }, strided: true },
      { inputs: [rand([7, 3], 'float32', 2)], attrs: { value: -1, wrap: true }, note: 'tall, wrap', strided: true },
      { inputs: [rand([7, 3], 'float32', 2)], attrs: { value: -1 }, note: 'tall, no wrap' },
      { inputs: [rand([3, 6], 'float32', 3)], attrs: { value: 5, offset: 2 }, note: 'wide, offset' },
      { inputs: [rand([4, 4], 'float32', 4)], attrs: { value: 5, offset: -1 }, note: 'negative offset' },
      { inputs: [rand([3, 3, 3], 'float32', 5)], attrs: { value: 9 }, note: '3-D cube (always wraps)' },
      { inputs: [nd([0, 3], [])], attrs: { value: 1 }, note: 'empty' },
      { inputs: [rand([3, 4], 'int32', 6, -9, 9)], attrs: { value: 7 } },
      { inputs: [rand([3, 3], 'bool', 7)], attrs: { value: 1 } },
    ],
    ref: ([x], a) => fillDiagRef(arr(x), Number(a.value ?? 0), Number(a.offset ?? 0), Boolean(a.wrap)),
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [rand([4])], attrs: { value: 1 }, error: /fill_diagonal: Tensor dims should >= 2/ },
      { inputs: [rand([2, 3, 2])], attrs: { value: 1 }, error: /fill_diagonal: Tensor dims should be equal while input dims > 2/ },
      { inputs: [rand([2, 2], 'int32')], attrs: { value: 1e20 }, error: /fill_diagonal: value .* is out of range for int32/ },
      { inputs: [rand([2, 2])], attrs: { value: 'a' }, error: /fill_diagonal: value must be a number/ },
      { inputs: [rand([2, 2])], attrs: { value: 1, offset: 0.5 }, error: /fill_diagonal: 'offset' must be an int/ },
    ],
  },
  {
    op: 'fill_diagonal_tensor',
    samples: [
      { inputs: [rand([3, 4], 'float32', 1), rand([3], 'float32', 2)], strided: true },
      { inputs: [rand([2, 4, 3], 'float32', 3), rand([2, 2], 'float32', 4)], attrs: { offset: 1, dim1: 1, dim2: 2 }, note: 'batched, offset', strided: true },
      { inputs: [rand([4, 3], 'float32', 5), rand([2], 'float32', 6)], attrs: { offset: -2 }, note: 'negative offset' },
      { inputs: [rand([3, 4, 2], 'float32', 7), rand([4, 2], 'float32', 8)], attrs: { dim1: -1, dim2: 0 }, note: 'dims reversed' },
      { inputs: [nd([0, 3], []), nd([0], [])], note: 'empty' },
      { inputs: [rand([3, 3], 'int64', 9, -9, 9), rand([3], 'int64', 10, -9, 9)] },
    ],
    ref: ([x, y], a) => fillDiagTensorRef(arr(x), arr(y), Number(a.offset ?? 0), Number(a.dim1 ?? 0), Number(a.dim2 ?? 1)),
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [rand([3, 4]), rand([4])], error: /fill_diagonal_tensor: the y shape should be \[3\]/ },
      { inputs: [rand([3]), rand([3])], error: /fill_diagonal_tensor: Tensor dims should >= 2/ },
      { inputs: [rand([3, 4]), rand([3])], attrs: { dim1: 1, dim2: 1 }, error: /fill_diagonal_tensor: dim1 and dim2 must differ/ },
      { inputs: [rand([3, 4]), rand([3])], attrs: { dim1: 2 }, error: /fill_diagonal_tensor: dim1 2 should be in \[-2, 2\)/ },
      { inputs: [rand([3, 4]), rand([3], 'float64')], error: /fill_diagonal_tensor: y dtype float64 differs from x dtype float32/ },
    ],
  },
  {
    op: 'check_numerics',
    samples: [
      { inputs: [nd([2, 3], [1, 0, 3, -2, 0, 0.5])], attrs: { op_type: 'pow', var_name: 'res' }, strided: true },
      { inputs: [nd([5], [1, NaN, Infinity, 0, -Infinity])], attrs: { check_nan_inf_level: 1 }, note: 'NaN and Inf counted (no abort in the op)' },
      { inputs: [nd([], [0])], note: '0-D' },
      { inputs: [nd([0, 2], [])], note: 'empty' },
      { inputs: [f64([300, 400], 3)], note: 'large (chunked)' },
    ],
    ref: ([x]) => numericsRef(arr(x)),
    dtypes: ['float64', 'float16', 'bfloat16'],
    atol: 1e-5, rtol: 1e-5,
    bad: [
      { inputs: [rand([3], 'int32')], error: /check_numerics: tensor must be a floating type, got int32/ },
      { inputs: [rand([3])], attrs: { check_nan_inf_level: 7 }, error: /check_numerics: check_nan_inf_level must be a DebugMode value 0\.\.5/ },
      { inputs: [rand([3])], attrs: { op_type: 3 }, error: /check_numerics: op_type must be a str/ },
    ],
  },
);
