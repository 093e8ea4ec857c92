// Records for the elementwise unary ops (src/ops/defs/unary.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { roundTo } from '../harness.js';
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { castValue, nd, type NDArray, rand } from '../ref.js';

/** erf to ~1e-15: 2/sqrt(pi) e^{-x^2} sum 2^n x^{2n+1} / (1*3*...*(2n+1)); every term is positive. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x);
  let term = ax, sum = ax;
  for (let n = 1; n < 400 && term > sum * 1e-18; n++) { term *= (2 * ax * ax) / (2 * n + 1); sum += term; }
  const r = (2 / Math.sqrt(Math.PI)) * Math.exp(-ax * ax) * sum;
  return x < 0 ? -r : r;
}

/** Converts an exact result to what a `dtype` output holds. */
export function finalize(v: number, dtype: DType): number {
  if (dtype === 'bool') return v ? 1 : 0;
  if (dtype.startsWith('float') || dtype === 'bfloat16') return roundTo(v, dtype);
  return castValue(v, dtype);
}

const SPECIAL = nd([10], [NaN, Infinity, -Infinity, 0, -0, 0.5, -1.5, 2.5, -2.5, 1e-3]);

type Kind = 'float' | 'numeric' | 'predicate';

interface UnaryOpts {
  /** Input range of the random samples (float ops). */
  lo?: number;
  hi?: number;
  attrs?: Record<string, unknown>[];
  extraSamples?: Sample[];
}

function floatSamples(o: UnaryOpts): Sample[] {
  const lo = o.lo ?? -2, hi = o.hi ?? 2;
  const base: Sample[] = [
    { inputs: [rand([2, 3], 'float32', 1, lo, hi)] },
    { inputs: [rand([], 'float32', 2, lo, hi)], note: '0-dim' },
    { inputs: [rand([0, 3], 'float32', 3, lo, hi)], note: 'empty' },
    { inputs: [rand([3, 4], 'float32', 4, lo, hi)], strided: true },
    { inputs: [rand([1037], 'float32', 5, 4 * lo, 4 * hi)], note: 'vector body and tail' },
    { inputs: [SPECIAL], note: 'NaN, inf, signed zeros' },
    ...(o.extraSamples ?? []),
  ];
  if (!o.attrs) return base;
  return o.attrs.flatMap((attrs) => base.map((s) => ({ ...s, attrs })));
}

const INT_SAMPLES: Sample[] = [
  { inputs: [rand([2, 3], 'int32', 6, -50, 50)] },
  { inputs: [rand([4, 3], 'int64', 7, -50, 50)], strided: true },
  { inputs: [nd([4], [-128, -1, 0, 127], 'int8')], note: 'int8 wraps' },
  { inputs: [nd([3], [0, 1, 255], 'uint8')] },
];

function unaryRecord(op: string, kind: Kind, f: (v: number, attrs: Record<string, unknown>) => number, opts: UnaryOpts = {}): void {
  const samples = kind === 'float' ? floatSamples(opts) : [...floatSamples(opts), ...INT_SAMPLES];
  if (kind === 'predicate') samples.push({ inputs: [nd([3], [1, 0, 1], 'bool')] });
  const bad: BadInput[] = kind === 'float'
    ? [{ inputs: [nd([2], [1, 2], 'int32')], error: new RegExp(`${op}: expected a floating-point input, got int32`) },
       { inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: expected a floating-point input, got bool`) }]
    : kind === 'numeric'
      ? [{ inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: expected a numeric input, got bool`) }]
      : [];
  addRecords({
    op,
    samples,
    ref: ([x], attrs) => {
      const X = x as NDArray;
      const dt: DType = kind === 'predicate' ? 'bool' : X.dtype;
      return { shape: X.shape, data: X.data.map((v) => finalize(f(v, attrs), dt)), dtype: dt };
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    bad,
  });
}

const sigmoid = (v: number): number => 1 / (1 + Math.exp(-v));
const roundHalfAway = (v: number): number => {
  const t = Math.trunc(v);
  return Math.abs(v - t) >= 0.5 ? t + Math.sign(v) : t;
};
const sign = (v: number): number => (v > 0 ? 1 : v < 0 ? -1 : v);

unaryRecord('abs', 'numeric', Math.abs);
unaryRecord('neg', 'numeric', (v) => -v);
unaryRecord('square', 'numeric', (v) => v * v);
unaryRecord('sign', 'numeric', sign);
unaryRecord('exp', 'float', Math.exp, { extraSamples: [{ inputs: [rand([203], 'float32', 8, -110, 95)], note: 'overflow and underflow' }] });
unaryRecord('log', 'float', Math.log, { lo: 0.01, hi: 4 });
unaryRecord('sqrt', 'float', Math.sqrt, { lo: 0, hi: 4 });
unaryRecord('rsqrt', 'float', (v) => 1 / Math.sqrt(v), { lo: 0.01, hi: 4 });
unaryRecord('sin', 'float', Math.sin);
unaryRecord('cos', 'float', Math.cos);
unaryRecord('tanh', 'float', Math.tanh);
unaryRecord('sigmoid', 'float', sigmoid);
unaryRecord('relu', 'float', (v) => (v <= 0 ? 0 : v));
unaryRecord('silu', 'float', (v) => v / (1 + Math.exp(-v)));
unaryRecord('gelu', 'float', (v, a) =>
  a.approximate ? 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v))) : 0.5 * v * (1 + erf(v / Math.SQRT2)),
{ attrs: [{ approximate: false }, { approximate: true }] });
unaryRecord('erf', 'float', erf);
unaryRecord('floor', 'float', Math.floor);
unaryRecord('ceil', 'float', Math.ceil);
unaryRecord('round', 'float', roundHalfAway);
unaryRecord('logical_not', 'predicate', (v) => (v === 0 ? 1 : 0));
unaryRecord('isnan', 'predicate', (v) => (Number.isNaN(v) ? 1 : 0));
unaryRecord('isinf', 'predicate', (v) => (Math.abs(v) === Infinity ? 1 : 0));
unaryRecord('isfinite', 'predicate', (v) => (Number.isFinite(v) ? 1 : 0));
