// Records for where, clip and scale (src/ops/defs/ternary.ts).
import { addRecords } from '../op_db.js';
import { mapN, nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';

const isInt = (x: NDArray): boolean => x.dtype.startsWith('int') || x.dtype === 'uint8';

addRecords({
  op: 'where',
  samples: [
    { inputs: [rand([2, 3], 'bool', 1), rand([2, 3], 'float32', 2), rand([2, 3], 'float32', 3)] },
    { inputs: [rand([3, 1], 'bool', 4), rand([1, 4], 'float32', 5), rand([4], 'float32', 6)], note: 'broadcast of all three' },
    { inputs: [rand([], 'bool', 7), rand([], 'float32', 8), rand([], 'float32', 9)], note: '0-dim' },
    { inputs: [rand([0, 3], 'bool', 10), rand([3], 'float32', 11), rand([], 'float32', 12)], note: 'empty' },
    { inputs: [rand([3, 4], 'bool', 13), rand([3, 4], 'float32', 14), rand([3, 4], 'float32', 15)], strided: true },
    { inputs: [rand([1037], 'bool', 16), rand([1037], 'float32', 17), rand([1037], 'float32', 18)], note: 'vector body and tail' },
    { inputs: [nd([3], [1, 0, 1], 'bool'), nd([3], [NaN, 1, Infinity]), nd([3], [2, NaN, 3])], note: 'NaN' },
    { inputs: [rand([2, 3], 'bool', 19), rand([2, 3], 'int64', 20, -9, 9), rand([1], 'int64', 21, -9, 9)], strided: true },
    { inputs: [rand([4], 'bool', 22), rand([4], 'bool', 23), rand([4], 'bool', 24)], note: 'bool values' },
  ],
  ref: ([c, x, y]) => {
    const X = x as NDArray;
    return { ...mapN([c as NDArray, X, y as NDArray], (cv, xv, yv) => (cv ? xv : yv)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [rand([2], 'float32', 1), rand([2]), rand([2])], error: /where: condition must have dtype bool, got float32/ },
    { inputs: [rand([2], 'bool', 1), rand([2]), rand([2], 'int32', 2)], error: /where: x and y have different dtypes float32 and int32/ },
    { inputs: [rand([2], 'bool', 1), rand([3]), rand([2])], error: /where: shapes \[2\], \[3\] and \[2\] cannot be broadcast/ },
  ],
});

const SPECIAL = nd([6], [NaN, Infinity, -Infinity, -0, 0.5, 7]);

addRecords({
  op: 'clip',
  samples: [
    { inputs: [rand([2, 3], 'float32', 1)], attrs: { min: -0.5, max: 0.5 } },
    { inputs: [rand([2, 3], 'float32', 2)], attrs: { min: -0.5 }, note: 'no max' },
    { inputs: [rand([2, 3], 'float32', 3)], attrs: { max: 0.25 }, note: 'no min' },
    { inputs: [rand([2, 3], 'float32', 4)], note: 'no bounds' },
    { inputs: [rand([2, 3], 'float32', 5)], attrs: { min: 1, max: -1 }, note: 'min > max: values below min become min, as in Paddle' },
    { inputs: [rand([], 'float32', 6)], attrs: { min: 0, max: 1 }, note: '0-dim' },
    { inputs: [rand([0, 2], 'float32', 7)], attrs: { min: 0, max: 1 }, note: 'empty' },
    { inputs: [rand([3, 4], 'float32', 8)], attrs: { min: -1, max: 1 }, strided: true },
    { inputs: [SPECIAL], attrs: { min: -1, max: 1 }, note: 'NaN passes through' },
    { inputs: [rand([2, 5], 'int32', 9, -20, 20)], attrs: { min: -5.7, max: 5.7 }, note: 'integer bounds truncate' },
    { inputs: [rand([5], 'int64', 10, -20, 20)], attrs: { min: 0 }, strided: true },
  ],
  ref: ([x], a) => {
    const X = x as NDArray;
    const conv = (v: unknown, dflt: number): number => (v === undefined || v === null ? dflt : isInt(X) ? Math.trunc(v as number) : (v as number));
    const lo = conv(a.min, -Infinity), hi = conv(a.max, Infinity);
    return { shape: X.shape, data: X.data.map((v) => finalize(v < lo ? lo : v > hi ? hi : v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], attrs: { min: 0 }, error: /clip: expected a numeric input, got bool/ },
    { inputs: [rand([2])], attrs: { min: 'a' }, error: /clip: 'min' must be a number or None/ },
  ],
});

addRecords({
  op: 'scale',
  samples: [
    { inputs: [rand([2, 3], 'float32', 1)], attrs: { scale: 2.5, bias: 1 } },
    { inputs: [rand([2, 3], 'float32', 2)], attrs: { scale: 2.5, bias: 1, bias_after_scale: false }, note: 'bias first' },
    { inputs: [rand([], 'float32', 3)], attrs: { scale: -1 }, note: '0-dim' },
    { inputs: [rand([0, 3], 'float32', 4)], attrs: { scale: 3 }, note: 'empty' },
    { inputs: [rand([3, 4], 'float32', 5)], attrs: { scale: 0.5, bias: -0.25 }, strided: true },
    { inputs: [SPECIAL], attrs: { scale: 2, bias: 1 }, note: 'NaN and inf' },
    { inputs: [rand([2, 3], 'int32', 6, -20, 20)], attrs: { scale: 2.5, bias: 1.5 }, note: 'integer: scale and bias truncate' },
    { inputs: [rand([4], 'int64', 7, -20, 20)], attrs: { scale: -3, bias: 2, bias_after_scale: false }, strided: true },
  ],
  ref: ([x], a) => {
    const X = x as NDArray;
    const conv = (v: number): number => (isInt(X) ? Math.trunc(v) : v);
    const s = conv((a.scale as number | undefined) ?? 1), b = conv((a.bias as number | undefined) ?? 0);
    const after = a.bias_after_scale ?? true;
    return { shape: X.shape, data: X.data.map((v) => finalize(after ? v * s + b : (v + b) * s, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [nd([2], [1, 0], 'bool')], attrs: { scale: 2 }, error: /scale: expected a numeric input, got bool/ },
    { inputs: [rand([2])], attrs: { scale: 'x' }, error: /scale: 'scale' must be a number/ },
  ],
});
