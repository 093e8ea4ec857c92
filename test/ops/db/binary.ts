// Records for the broadcasting binary ops (src/ops/defs/binary.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { mapN, nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';

const shapes: [number[], number[]][] = [[[2, 3], [2, 3]], [[2, 3], [3]], [[4, 1, 3], [2, 1]], [[], []], [[0, 3], [3]], [[5], []], [[], [4]]];

/** Replaces zeros so integer divisors are valid. */
const nonzero = (x: NDArray): NDArray => ({ ...x, data: x.data.map((v) => (v === 0 ? 1 : v)) });

interface BinOpts {
  out?: 'same' | 'bool';
  /** Input ranges for the float samples. */
  x?: [number, number];
  y?: [number, number];
  ints?: boolean;
  bools?: boolean;
  divisor?: boolean;
  special?: [number[], number[]];
  bad?: BadInput[];
  /** Replaces the default integer samples. */
  intSamples?: Sample[];
  /** Integer reference, when it differs from the float one (wrapping, truncation). */
  intRef?: (a: number, b: number) => number;
}

function binaryRecord(op: string, f: (a: number, b: number) => number, o: BinOpts = {}): void {
  const [xl, xh] = o.x ?? [-2, 2], [yl, yh] = o.y ?? [-2, 2];
  const fixY = (y: NDArray): NDArray => (o.divisor ? nonzero(y) : y);
  const samples: Sample[] = [
    ...shapes.map(([a, b], i) => ({ inputs: [rand(a, 'float32', i + 1, xl, xh), rand(b, 'float32', i + 11, yl, yh)] })),
    { inputs: [rand([3, 4], 'float32', 3, xl, xh), rand([3, 4], 'float32', 4, yl, yh)], strided: true },
    { inputs: [rand([515], 'float32', 21, xl, xh), rand([515], 'float32', 22, yl, yh)], note: 'vector body and tail' },
    { inputs: [rand([2, 515], 'float32', 23, xl, xh), rand([1], 'float32', 24, yl, yh)], note: 'scalar right' },
    { inputs: [rand([1, 1], 'float32', 25, xl, xh), rand([3, 515], 'float32', 26, yl, yh)], note: 'scalar left' },
  ];
  if (o.special) samples.push({ inputs: [nd([o.special[0].length], o.special[0]), nd([o.special[1].length], o.special[1])], note: 'NaN and inf' });
  if (o.intSamples) samples.push(...o.intSamples);
  else if (o.ints !== false) {
    samples.push(
      { inputs: [rand([2, 3], 'int32', 5, -50, 50), fixY(rand([3], 'int32', 6, -9, 9))] },
      { inputs: [rand([4, 3], 'int64', 7, -50, 50), fixY(rand([4, 3], 'int64', 8, -9, 9))], strided: true },
      { inputs: [nd([4], [-128, 127, -7, 7], 'int8'), nd([4], [-1, 2, 2, -2], 'int8')], note: 'int8' },
      { inputs: [nd([3], [250, 7, 0], 'uint8'), nd([3], [3, 2, 9], 'uint8')], note: 'uint8' },
    );
  }
  if (o.bools) samples.push({ inputs: [nd([4], [1, 1, 0, 0], 'bool'), nd([4], [1, 0, 1, 0], 'bool')], note: 'bool' });
  const outDtype = (x: DType): DType => (o.out === 'bool' ? 'bool' : x);
  addRecords({
    op,
    samples,
    ref: ([x, y]) => {
      const X = x as NDArray, Y = y as NDArray;
      const g = X.dtype.startsWith('int') || X.dtype === 'uint8' ? (o.intRef ?? f) : f;
      const r = mapN([X, Y], g);
      return { shape: r.shape, data: r.data.map((v) => finalize(v, outDtype(X.dtype))), dtype: outDtype(X.dtype) };
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad: [
      { inputs: [rand([2, 3]), rand([4])], error: new RegExp(`${op}: shapes \\[2, 3\\] and \\[4\\] cannot be broadcast`) },
      { inputs: [rand([2, 3]), nd([3], [1, 2, 3], 'int32')], error: new RegExp(`${op}: inputs have different dtypes float32 and int32`) },
      ...(o.bad ?? []),
    ],
  });
}

const boolBad = (op: string): BadInput => ({ inputs: [nd([2], [1, 0], 'bool'), nd([2], [1, 1], 'bool')], error: new RegExp(`${op}: bool inputs are not supported`) });
const zeroDiv = (op: string): BadInput => ({ inputs: [nd([3], [1, 2, 3], 'int32'), nd([3], [1, 0, 1], 'int32')], error: new RegExp(`${op}: integer division by zero`) });

/** Python's float floor division: exact remainder first, then the quotient (as the kernel). */
function floorDiv(a: number, b: number): number {
  if (b === 0) return a / b;
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && (b < 0) !== (mod < 0)) div -= 1;
  if (div === 0) return Math.sign(a / b) * 0;
  const fl = Math.floor(div);
  return div - fl > 0.5 ? fl + 1 : fl;
}
const pyMod = (a: number, b: number): number => {
  const r = a % b;
  return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
};
/** C's pow where it differs from Math.pow: pow(1, y) = 1 and pow(-1, +-inf) = 1. */
const cPow = (a: number, b: number): number => (a === 1 || (a === -1 && !Number.isFinite(b) && !Number.isNaN(b)) ? 1 : Math.pow(a, b));
const intPow = (a: number, b: number): number => (b >= 0 ? a ** b : a === 1 ? 1 : a === -1 ? (b % 2 ? -1 : 1) : 0);
const nanMax = (a: number, b: number): number => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b));
const nanMin = (a: number, b: number): number => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b));
/** int8 products and powers wrap at 8 bits (finalize does the wrap); int32 ones below 2^53 stay exact here. */
const intMul = (a: number, b: number): number => a * b;

const SPECIAL: [number[], number[]] = [[NaN, 1, Infinity, -Infinity, 0, -0, 3, Infinity], [1, NaN, 2, Infinity, 0, 5, -Infinity, Infinity]];

binaryRecord('add', (a, b) => a + b, { bools: true, special: SPECIAL });
binaryRecord('subtract', (a, b) => a - b, { special: SPECIAL, bad: [boolBad('subtract')] });
binaryRecord('multiply', intMul, { bools: true, special: SPECIAL });
binaryRecord('divide', (a, b) => a / b, {
  divisor: true, special: SPECIAL, intRef: (a, b) => Math.trunc(a / b), bad: [boolBad('divide'), zeroDiv('divide')],
});
binaryRecord('floor_divide', floorDiv, {
  divisor: true, special: SPECIAL, intRef: (a, b) => Math.floor(a / b), bad: [boolBad('floor_divide'), zeroDiv('floor_divide')],
});
binaryRecord('remainder', pyMod, { divisor: true, special: SPECIAL, bad: [boolBad('remainder'), zeroDiv('remainder')] });
binaryRecord('elementwise_pow', cPow, {
  x: [0.1, 3],
  intSamples: [
    { inputs: [rand([2, 3], 'int32', 5, 1, 30), rand([3], 'int32', 6, -3, 7)] },
    { inputs: [rand([4, 3], 'int64', 7, -30, 30), rand([4, 3], 'int64', 8, 0, 9)], strided: true },
    { inputs: [nd([5], [-128, 127, -7, 7, -1], 'int8'), nd([5], [-1, 2, 2, -2, -3], 'int8')], note: 'int8' },
    { inputs: [nd([3], [250, 7, 0], 'uint8'), nd([3], [3, 2, 9], 'uint8')], note: 'uint8' },
  ],
  special: [[-2, 0, NaN, 1, -1, 2, 0], [0.5, -1, 0, NaN, Infinity, -Infinity, 0]], intRef: intPow,
  bad: [boolBad('elementwise_pow'), { inputs: [nd([2], [0, 2], 'int32'), nd([2], [-1, 1], 'int32')], error: /elementwise_pow: 0 cannot be raised to a negative integer power/ }],
});
binaryRecord('maximum', nanMax, { special: SPECIAL, bad: [boolBad('maximum')] });
binaryRecord('minimum', nanMin, { special: SPECIAL, bad: [boolBad('minimum')] });

const CMP_SPECIAL: [number[], number[]] = [[NaN, 1, Infinity, 0, -0, 2], [NaN, NaN, Infinity, -0, 0, 1]];
const cmp = (op: string, f: (a: number, b: number) => boolean): void =>
  binaryRecord(op, (a, b) => (f(a, b) ? 1 : 0), { out: 'bool', bools: true, special: CMP_SPECIAL, y: [-2, 2] });
cmp('equal', (a, b) => a === b);
cmp('not_equal', (a, b) => a !== b);
cmp('less_than', (a, b) => a < b);
cmp('less_equal', (a, b) => a <= b);
cmp('greater_than', (a, b) => a > b);
cmp('greater_equal', (a, b) => a >= b);
cmp('logical_and', (a, b) => a !== 0 && b !== 0);
cmp('logical_or', (a, b) => a !== 0 || b !== 0);
cmp('logical_xor', (a, b) => (a !== 0) !== (b !== 0));
