// Records for src/ops/defs/binary_more.ts (float math, integer and bitwise ops, closeness, ldexp, lerp, masked_fill).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { castValue, mapN, nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';

const r32 = (shape: number[], seed: number, lo = -2, hi = 2): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
const SHAPES: [number[], number[]][] = [[[2, 3], [2, 3]], [[2, 3], [3]], [[4, 1, 3], [2, 1]], [[], []], [[0, 3], [3]], [[5], []], [[], [4]]];
const isInt = (d: DType): boolean => d.startsWith('int') || d === 'uint8';

function floatSamples(lo = -2, hi = 2): Sample[] {
  return [
    ...SHAPES.map(([a, b], i) => ({ inputs: [r32(a, i + 1, lo, hi), r32(b, i + 11, lo, hi)] })),
    { inputs: [r32([3, 4], 3, lo, hi), r32([3, 4], 4, lo, hi)], strided: true },
    { inputs: [r32([3, 20000], 21, lo, hi), r32([20000], 22, lo, hi)], note: 'threaded broadcast' },
    { inputs: [r32([2, 515], 23, lo, hi), r32([1], 24, lo, hi)], note: 'scalar right' },
  ];
}

const intSamples = (lo: number, hi: number, dts: DType[] = ['int32', 'int64', 'int8', 'uint8']): Sample[] => [
  { inputs: [rand([2, 3], dts[0], 5, lo, hi), rand([3], dts[0], 6, lo, hi)] },
  { inputs: [rand([4, 3], dts[1], 7, lo, hi), rand([4, 3], dts[1], 8, lo, hi)], strided: true },
  ...(dts.includes('int8') ? [{ inputs: [nd([5], [-128, 127, -7, 7, 0], 'int8'), nd([5], [-1, 2, 3, -2, 0], 'int8')], note: 'int8' }] : []),
  ...(dts.includes('uint8') ? [{ inputs: [nd([4], [250, 7, 0, 12], 'uint8'), nd([4], [3, 2, 9, 18], 'uint8')], note: 'uint8' }] : []),
];

const bcastBad = (op: string, int = false): BadInput[] => int
  ? [{ inputs: [rand([2, 3], 'int32', 1, -9, 9), rand([4], 'int32', 2, -9, 9)], error: new RegExp(`${op}: shapes \\[2, 3\\] and \\[4\\] cannot be broadcast`) },
    { inputs: [rand([3], 'int32', 1, -9, 9), nd([3], [1, 2, 3], 'int64')], error: new RegExp(`${op}: inputs have different dtypes int32 and int64`) }]
  : [{ inputs: [r32([2, 3], 1), r32([4], 2)], error: new RegExp(`${op}: shapes \\[2, 3\\] and \\[4\\] cannot be broadcast`) },
    { inputs: [r32([2, 3], 1), nd([3], [1, 2, 3], 'int32')], error: new RegExp(`${op}: inputs have different dtypes float32 and int32`) }];

interface Opts {
  samples: Sample[];
  out?: (d: DType) => DType;
  /** Float dtypes to repeat float samples in. */
  dtypes?: DType[];
  bad?: BadInput[];
  atol?: number;
  attrs?: Record<string, unknown>[];
}

function record(op: string, f: (a: number, b: number, dt: DType, attrs: Record<string, unknown>) => number, o: Opts): void {
  const samples = o.attrs ? o.attrs.flatMap((attrs) => o.samples.map((s) => ({ ...s, attrs }))) : o.samples;
  addRecords({
    op,
    samples,
    ref: ([x, y], attrs) => {
      const X = x as NDArray, Y = y as NDArray;
      const dt = o.out ? o.out(X.dtype) : X.dtype;
      const r = mapN([X, Y], (a, b) => f(a, b, X.dtype, attrs));
      return { shape: r.shape, data: r.data.map((v) => finalize(v, dt)), dtype: dt };
    },
    dtypes: o.dtypes ?? ['float64', 'float16', 'bfloat16'],
    atol: o.atol,
    bad: [...bcastBad(op, o.dtypes?.length === 0), ...(o.bad ?? [])],
  });
}

const boolIn = (): NDArray[] => [nd([4], [1, 1, 0, 0], 'bool'), nd([4], [1, 0, 1, 0], 'bool')];
const SPECIAL: Sample = { inputs: [nd([8], [NaN, 1, Infinity, -Infinity, 0, -0, 3, NaN]), nd([8], [1, NaN, 2, Infinity, -0, 5, -Infinity, NaN])], note: 'NaN, inf, signed zeros' };

record('atan2', (a, b) => Math.atan2(a, b), {
  samples: [...floatSamples(), SPECIAL, ...intSamples(-9, 9, ['int32', 'int64'])],
  out: (d) => (isInt(d) ? 'float64' : d),
  bad: [{ inputs: boolIn(), error: /atan2: expected float or int32\/int64 inputs, got bool/ }],
});
record('hypot', (a, b) => Math.hypot(a, b), {
  samples: [...floatSamples(), SPECIAL],
  bad: [{ inputs: [nd([1], [1], 'int32'), nd([1], [2], 'int32')], error: /hypot: expected a floating-point input, got int32/ }],
});
const fm = (max: boolean) => (a: number, b: number): number => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : max ? Math.max(a, b) : Math.min(a, b));
const boolBad = (op: string): BadInput => ({ inputs: boolIn(), error: new RegExp(`${op}: bool inputs are not supported`) });
record('fmax', fm(true), { samples: [...floatSamples(), SPECIAL, ...intSamples(-50, 50)], bad: [boolBad('fmax')] });
record('fmin', fm(false), { samples: [...floatSamples(), SPECIAL, ...intSamples(-50, 50)], bad: [boolBad('fmin')] });
record('copysign', (a, b, dt) => {
  if (isInt(dt)) return b < 0 ? -Math.abs(a) : Math.abs(a);
  const neg = b < 0 || Object.is(b, -0) || (Number.isNaN(b) && false);
  return neg ? -Math.abs(a) : Math.abs(a);
}, {
  samples: [...floatSamples(), { inputs: [nd([6], [NaN, 1, Infinity, -Infinity, 0, 3]), nd([6], [-1, -0, 2, 1, -5, -Infinity])], note: 'signed zeros, inf' },
    ...intSamples(-50, 50, ['int32', 'int64', 'int8'])],
  bad: [boolBad('copysign')],
});
record('heaviside', (a, b) => (a === 0 ? b : a > 0 ? 1 : 0), { samples: [...floatSamples(), SPECIAL, ...intSamples(-3, 3)], bad: [boolBad('heaviside')] });

const gcdN = (a: number, b: number): number => { a = Math.abs(a); b = Math.abs(b); while (b) [a, b] = [b, a % b]; return a; };
const intBad = (op: string): BadInput => ({ inputs: [r32([2], 1), r32([2], 2)], error: new RegExp(`${op}: expected integer inputs, got float32`) });
const intOnly = (op: string): BadInput[] => [intBad(op), { inputs: boolIn(), error: new RegExp(`${op}: expected integer inputs, got bool`) }];
const INT_EDGE: Sample = { inputs: [nd([6], [0, 0, 12, -18, 7, -2147483648], 'int32'), nd([6], [0, 5, 18, 12, 0, 4], 'int32')], note: 'zeros and INT_MIN' };
record('gcd', (a, b) => gcdN(a, b), { samples: [...intSamples(-60, 60), INT_EDGE], dtypes: [], bad: intOnly('gcd') });
record('lcm', (a, b) => { const g = gcdN(a, b); return g === 0 ? 0 : Math.abs((a / g) * b); }, {
  samples: [...intSamples(-30, 30, ['int32', 'int64', 'int8']), { inputs: [nd([5], [0, 0, 12, -18, 7], 'int32'), nd([5], [0, 5, 18, 12, 0], 'int32')] }],
  dtypes: [], bad: intOnly('lcm'),
});

/** Two's complement bit ops on 32-bit-safe values (int64 samples stay small). */
const bitSamples = (): Sample[] => [...intSamples(-100, 100), { inputs: boolIn(), note: 'bool' }];
const intBoolBad = (op: string): BadInput => ({ inputs: [r32([2], 1), r32([2], 2)], error: new RegExp(`${op}: expected integer or bool inputs, got float32`) });
const toBits = (v: number, dt: DType): number => castValue(v, dt);
record('bitwise_and', (a, b, dt) => toBits(a & b, dt), { samples: bitSamples(), dtypes: [], bad: [intBoolBad('bitwise_and')] });
record('bitwise_or', (a, b, dt) => toBits(a | b, dt), { samples: bitSamples(), dtypes: [], bad: [intBoolBad('bitwise_or')] });
record('bitwise_xor', (a, b, dt) => toBits(a ^ b, dt), { samples: bitSamples(), dtypes: [], bad: [intBoolBad('bitwise_xor')] });

const BITS: Partial<Record<DType, number>> = { int8: 8, uint8: 8, int32: 32, int64: 64 };
/** Shifts by exact integer arithmetic (BigInt), wrapped to the dtype. */
function shift(left: boolean) {
  return (a: number, b: number, dt: DType, attrs: Record<string, unknown>): number => {
    const bits = BITS[dt]!;
    const arith = (attrs.is_arithmetic as boolean | undefined) ?? true;
    const out = b < 0 || b >= bits;
    const wrap = (v: bigint): number => Number(dt === 'uint8' ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v));
    if (left) return out ? 0 : wrap(BigInt(a) << BigInt(b));
    if (arith && dt !== 'uint8') return out ? (a < 0 ? -1 : 0) : wrap(BigInt(a) >> BigInt(b));
    return out ? 0 : wrap(BigInt.asUintN(bits, BigInt(a)) >> BigInt(b));
  };
}
const SHIFT_SAMPLES: Sample[] = [
  { inputs: [rand([2, 3], 'int32', 5, -1000, 1000), rand([3], 'int32', 6, -2, 34)] },
  { inputs: [rand([4, 3], 'int64', 7, -1000, 1000), rand([4, 3], 'int64', 8, 0, 70)], strided: true },
  { inputs: [nd([6], [-45, -86, 1, -128, 127, -1], 'int8'), nd([6], [2, 1, 7, 1, 9, 3], 'int8')], note: 'int8 overflow' },
  { inputs: [nd([4], [250, 7, 0, 12], 'uint8'), nd([4], [3, 2, 9, 1], 'uint8')], note: 'uint8' },
  { inputs: [nd([], [-7], 'int32'), nd([], [1], 'int32')], note: '0-dim' },
  { inputs: [nd([0, 2], [], 'int32'), nd([2], [1, 2], 'int32')], note: 'empty' },
];
for (const op of ['bitwise_left_shift', 'bitwise_right_shift']) {
  record(op, shift(op === 'bitwise_left_shift'), { samples: SHIFT_SAMPLES, dtypes: [], attrs: [{}, { is_arithmetic: false }], bad: intOnly(op) });
}

addRecords({
  op: 'bitwise_not',
  samples: [
    { inputs: [rand([2, 3], 'int32', 1, -100, 100)] }, { inputs: [rand([4, 3], 'int64', 2, -100, 100)], strided: true },
    { inputs: [nd([3], [-128, 0, 127], 'int8')] }, { inputs: [nd([3], [0, 7, 255], 'uint8')] }, { inputs: [nd([2], [1, 0], 'bool')] },
    { inputs: [nd([], [5], 'int32')], note: '0-dim' }, { inputs: [nd([0], [], 'int64')], note: 'empty' },
  ],
  ref: ([x]) => {
    const X = x as NDArray;
    return { shape: X.shape, dtype: X.dtype, data: X.data.map((v) => (X.dtype === 'bool' ? (v ? 0 : 1) : castValue(~v, X.dtype))) };
  },
  bad: [{ inputs: [r32([2], 1)], error: /bitwise_not: expected integer or bool inputs, got float32/ }],
});

// Closeness (numpy's rule), computed from the stored values.
function close(a: number, b: number, attrs: Record<string, unknown>): boolean {
  const rtol = (attrs.rtol as number | undefined) ?? 1e-5, atol = (attrs.atol as number | undefined) ?? 1e-8;
  if (a === b) return true;
  if (Number.isNaN(a) || Number.isNaN(b)) return Boolean(attrs.equal_nan) && Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}
const nearly = (x: NDArray, seed: number, eps: number): NDArray => {
  const r = rand(x.shape, 'float32', seed, -eps, eps);
  return asDType({ ...x, data: x.data.map((v, i) => v * (1 + r.data[i])) }, 'float32');
};
const base = r32([4, 5], 31);
const CLOSE_SAMPLES: Sample[] = [
  { inputs: [base, nearly(base, 32, 3e-5)] },
  { inputs: [r32([3, 1], 33), r32([4], 34)], note: 'broadcast' },
  { inputs: [base, nearly(base, 35, 1e-3)], strided: true },
  { inputs: [nd([], [1]), nd([], [1.000001])], note: '0-dim' },
  { inputs: [nd([0, 2], []), nd([2], [1, 2])], note: 'empty' },
  { inputs: [nd([5], [NaN, Infinity, -Infinity, Infinity, 1]), nd([5], [NaN, Infinity, Infinity, 1e38, 1 + 1e-9])], note: 'NaN and inf' },
];
const CLOSE_ATTRS = [{}, { rtol: 1e-3, atol: 1e-2, equal_nan: true }];
const closeBad = (op: string): BadInput[] => [
  { inputs: [nd([1], [1], 'int32'), nd([1], [1], 'int32')], error: new RegExp(`${op}: expected a floating-point input, got int32`) },
  { inputs: [nd([1], [1]), nd([1], [1])], attrs: { rtol: -1 }, error: new RegExp(`${op}: rtol must be a non-negative number`) },
];
record('isclose', (a, b, _dt, attrs) => (close(a, b, attrs) ? 1 : 0), { samples: CLOSE_SAMPLES, attrs: CLOSE_ATTRS, out: () => 'bool', dtypes: ['float64'], bad: closeBad('isclose') });
addRecords({
  op: 'allclose',
  samples: CLOSE_ATTRS.flatMap((attrs) => CLOSE_SAMPLES.map((s) => ({ ...s, attrs }))),
  ref: ([x, y], attrs) => {
    const r = mapN([x as NDArray, y as NDArray], (a, b) => (close(a, b, attrs) ? 1 : 0));
    return { shape: [], data: [r.data.every((v) => v === 1) ? 1 : 0], dtype: 'bool' };
  },
  dtypes: ['float64'],
  bad: [...bcastBad('allclose').slice(0, 1), ...closeBad('allclose')],
});

addRecords({
  op: 'ldexp',
  samples: [
    { inputs: [r32([2, 3], 1), rand([3], 'int32', 2, -10, 10)] },
    { inputs: [r32([4, 3], 3), rand([4, 3], 'int64', 4, -10, 10)], strided: true },
    { inputs: [r32([], 5), nd([], [3], 'int32')], note: '0-dim' },
    { inputs: [r32([0, 3], 6), nd([3], [1, 2, 3], 'int32')], note: 'empty' },
    { inputs: [nd([5], [1, 1, 3, NaN, -Infinity]), nd([5], [200, -200, -1074, 1, 2], 'int64')], note: 'overflow, underflow, NaN' },
    { inputs: [nd([3], [1, -3, 5], 'int32'), nd([3], [2, 1, -1], 'int32')], note: 'int x gives float32' },
  ],
  ref: ([x, y]) => {
    const X = x as NDArray, Y = y as NDArray;
    const dt: DType = isInt(X.dtype) ? 'float32' : X.dtype;
    const r = mapN([X, Y], (a, b) => a * 2 ** b);
    return { shape: r.shape, data: r.data.map((v) => finalize(v, dt)), dtype: dt };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r32([2], 1), r32([2], 2)], error: /ldexp: y must be an int32 or int64 tensor, got float32/ },
    { inputs: [r32([2, 3], 1), nd([4], [1, 2, 3, 4], 'int32')], error: /ldexp: shapes \[2, 3\] and \[4\] cannot be broadcast/ },
  ],
});

addRecords({
  op: 'lerp',
  samples: [
    { inputs: [r32([2, 3], 1), r32([2, 3], 2), r32([2, 3], 3, 0, 1)] },
    { inputs: [r32([4, 1, 3], 4), r32([2, 1], 5), r32([], 6, 0, 1)], note: 'broadcast, 0-dim weight' },
    { inputs: [r32([3, 4], 7), r32([3, 4], 8), r32([4], 9, 0, 1)], strided: true },
    { inputs: [r32([], 10), r32([], 11), r32([], 12)], note: '0-dim' },
    { inputs: [r32([0, 3], 13), r32([3], 14), r32([1], 15)], note: 'empty' },
    { inputs: [r32([3, 9000], 16), r32([9000], 17), r32([3, 1], 18)], note: 'threaded' },
  ],
  ref: ([x, y, w]) => {
    const X = x as NDArray;
    const r = mapN([X, y as NDArray, w as NDArray], (a, b, t) => a + t * (b - a));
    return { ...r, data: r.data.map((v) => finalize(v, X.dtype)), dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r32([2, 3], 1), r32([4], 2), r32([], 3)], error: /lerp: shapes \[2, 3\], \[4\] and \[\] cannot be broadcast/ },
    { inputs: [nd([1], [1], 'int32'), nd([1], [1], 'int32'), nd([1], [1], 'int32')], error: /lerp: expected a floating-point input, got int32/ },
  ],
});

addRecords({
  op: 'masked_fill',
  samples: [
    { inputs: [r32([2, 3], 1), rand([2, 3], 'bool', 2), nd([], [7.5])] },
    { inputs: [r32([4, 3], 3), rand([3], 'bool', 4), nd([1], [-1])], strided: true, note: 'broadcast mask' },
    { inputs: [r32([3], 5), rand([2, 1], 'bool', 6), nd([], [0])], note: 'mask broadcasts x' },
    { inputs: [r32([], 7), nd([], [1], 'bool'), nd([], [2])], note: '0-dim' },
    { inputs: [r32([0, 3], 8), nd([3], [1, 0, 1], 'bool'), nd([], [2])], note: 'empty' },
    { inputs: [rand([2, 3], 'int32', 9, -9, 9), rand([2, 3], 'bool', 10), nd([], [2.7])], note: 'int x, float value' },
    { inputs: [nd([3], [1, 0, 1], 'bool'), nd([3], [1, 1, 0], 'bool'), nd([], [0], 'bool')], note: 'bool x' },
  ],
  ref: ([x, m, v]) => {
    const X = x as NDArray, V = (v as NDArray).data[0];
    const fill = finalize(X.dtype.startsWith('float') || X.dtype === 'bfloat16' ? V : Math.trunc(V), X.dtype);
    const r = mapN([X, m as NDArray], (a, k) => (k ? fill : a));
    return { shape: r.shape, data: r.data, dtype: X.dtype };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r32([2], 1), nd([2], [1, 0], 'int32'), nd([], [1])], error: /masked_fill: mask must have dtype bool, got int32/ },
    { inputs: [r32([2], 1), nd([2], [1, 0], 'bool'), nd([2], [1, 2])], error: /masked_fill: value must have one element, got shape \[2\]/ },
    { inputs: [r32([2, 3], 1), nd([4], [1, 0, 1, 0], 'bool'), nd([], [1])], error: /masked_fill: shapes \[2, 3\] and \[4\] cannot be broadcast/ },
  ],
});
