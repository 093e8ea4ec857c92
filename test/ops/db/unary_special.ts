// Records for the special-function and parametrized-activation unary ops (src/ops/defs/unary_special.ts).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords, type BadInput, type Sample } from '../op_db.js';
import { nd, type NDArray, rand } from '../ref.js';
import { erf, finalize } from './unary.js';

/** float32 samples hold float32 values, so references see exactly what kernels see. */
const r32 = (shape: number[], seed: number, lo: number, hi: number): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
const SPECIAL = nd([10], [NaN, Infinity, -Infinity, 0, -0, 0.5, -1.5, 2.5, -2.5, 1e-3]);

interface Opts {
  lo?: number;
  hi?: number;
  attrs?: Record<string, unknown>[];
  ints?: boolean;
  /** Extra checks on values only meaningful for some ops. */
  extra?: Sample[];
  atol?: number;
  rtol?: number;
  bad?: BadInput[];
}

function record(op: string, f: (v: number, a: Record<string, unknown>, dt: DType) => number, o: Opts = {}): void {
  const lo = o.lo ?? -2, hi = o.hi ?? 2;
  const base: Sample[] = [
    { inputs: [r32([2, 3], 1, lo, hi)] },
    { inputs: [r32([], 2, lo, hi)], note: '0-dim' },
    { inputs: [r32([0, 3], 3, lo, hi)], note: 'empty' },
    { inputs: [r32([3, 4], 4, lo, hi)], strided: true },
    { inputs: [r32([5, 1037], 5, lo, hi)], strided: true, note: 'threaded, vector body and tail' },
    { inputs: [SPECIAL], note: 'NaN, inf, signed zeros' },
    ...(o.extra ?? []),
  ];
  const samples = o.attrs ? o.attrs.flatMap((attrs) => base.map((s) => ({ ...s, attrs }))) : base;
  if (o.ints) samples.push({ inputs: [rand([2, 3], 'int32', 6, -50, 50)] }, { inputs: [rand([4, 3], 'int64', 7, -50, 50)], strided: true });
  addRecords({
    op,
    samples,
    ref: ([x], attrs) => {
      const X = x as NDArray;
      return { shape: X.shape, data: X.data.map((v) => finalize(f(v, attrs, X.dtype), X.dtype)), dtype: X.dtype };
    },
    dtypes: ['float64', 'float16', 'bfloat16'],
    atol: o.atol,
    rtol: o.rtol,
    bad: [
      o.ints
        ? { inputs: [nd([2], [1, 0], 'bool')], error: new RegExp(`${op}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got bool`) }
        : { inputs: [nd([2], [1, 2], 'int32')], error: new RegExp(`${op}: expected a floating-point input, got int32`) },
      ...(o.bad ?? []),
    ],
  });
}

// Special functions (double-precision references).
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
/** log|Gamma(x)| by the Lanczos approximation (g = 7), reflected below 1/2. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity || x === -Infinity) return Infinity;
  if (x <= 0 && Math.floor(x) === x) return Infinity;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** psi(x): reflection, recurrence to x >= 12, asymptotic series. */
export function digamma(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return NaN;
  if (x <= 0 && Math.floor(x) === x) return Infinity;
  if (x < 0) return digamma(1 - x) - Math.PI / Math.tan(Math.PI * x);
  let acc = 0;
  while (x < 12) { acc -= 1 / x; x += 1; }
  const z = 1 / (x * x);
  // Bernoulli terms B_2k / (2k x^2k), k = 1..6.
  const series = z / 12 - (z * z) / 120 + (z ** 3) / 252 - (z ** 4) / 240 + (z ** 5) / 132 - (691 * z ** 6) / 32760;
  return acc + Math.log(x) - 0.5 / x - series;
}

/** erfinv by bisection on erf (monotone), then Newton polish. */
export function erfinv(y: number): number {
  if (Number.isNaN(y) || y < -1 || y > 1) return NaN;
  if (y === 1) return Infinity;
  if (y === -1) return -Infinity;
  let lo = -6, hi = 6;
  for (let i = 0; i < 200 && hi - lo > 1e-15; i++) { const m = (lo + hi) / 2; if (erf(m) < y) lo = m; else hi = m; }
  let x = (lo + hi) / 2;
  for (let i = 0; i < 2; i++) x -= (erf(x) - y) / ((2 / Math.sqrt(Math.PI)) * Math.exp(-x * x));
  return x;
}

/** I0 by its power series (positive terms). */
export function i0(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (!Number.isFinite(x)) return Infinity;
  const q = (x * x) / 4;
  let term = 1, sum = 1;
  for (let k = 1; k < 5000; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17 && k > Math.abs(x)) break;
  }
  return sum;
}

const sinc = (x: number): number => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));

record('expm1', Math.expm1);
record('log1p', Math.log1p, { lo: -0.9, hi: 4 });
record('log2', Math.log2, { lo: 0.01, hi: 8 });
record('log10', Math.log10, { lo: 0.01, hi: 8 });
record('reciprocal', (v) => 1 / v);
record('tan', Math.tan, { lo: -1.4, hi: 1.4 });
record('asin', Math.asin, { lo: -1, hi: 1 });
record('acos', Math.acos, { lo: -1, hi: 1 });
record('atan', Math.atan, { lo: -6, hi: 6 });
record('sinh', Math.sinh, { lo: -6, hi: 6 });
record('cosh', Math.cosh, { lo: -6, hi: 6 });
record('asinh', Math.asinh, { lo: -6, hi: 6 });
record('acosh', Math.acosh, { lo: 1, hi: 6 });
record('atanh', Math.atanh, { lo: -0.99, hi: 0.99 });
record('erfinv', erfinv, { lo: -0.99, hi: 0.99, extra: [{ inputs: [nd([8], [-1, 1, 0.999, -0.9999, 1e-8, 0.5, 0.75, -0.3])], note: 'tails' }] });
record('lgamma', lgamma, { lo: -4, hi: 8, atol: 1e-4, extra: [{ inputs: [nd([6], [1, 2, -1, 100, 1e-3, 171.5])], note: 'zeros, poles, large' }] });
record('digamma', digamma, { lo: -4, hi: 8, atol: 1e-4, extra: [{ inputs: [nd([6], [1, 2, -1, 100, 1e-3, 1e5])], note: 'poles, large' }] });
record('trunc', (v) => Math.trunc(v), { lo: -6, hi: 6, ints: true });
record('frac', (v, _a, dt) => (dt.startsWith('int') ? 0 : v - Math.trunc(v)), { lo: -6, hi: 6, ints: true });
record('sinc', sinc, { lo: -6, hi: 6, atol: 1e-5 });
record('i0', i0, { lo: -40, hi: 40, extra: [{ inputs: [nd([5], [0, 29.9, 30.1, 700, -90])], note: 'both branches, near overflow' }] });
record('logit', (v, a) => {
  const e = (a.eps as number | null) ?? 0;
  const c = e ? Math.min(Math.max(v, e), 1 - e) : v;
  return Math.log(c / (1 - c));
}, {
  lo: 0.01, hi: 0.99, attrs: [{}, { eps: 0.2 }],
  bad: [{ inputs: [nd([2], [0.5, 0.2])], attrs: { eps: 0.7 }, error: /logit: eps must be in \[0, 0\.5\)/ }],
});

const FMAX: Record<string, number> = { float32: 3.4028234663852886e38, float64: Number.MAX_VALUE, float16: 65504, bfloat16: 3.3895313892515355e38 };
record('nan_to_num', (v, a, dt) => {
  const big = FMAX[dt];
  if (Number.isNaN(v)) return a.nan as number ?? 0;
  if (v === Infinity) return (a.posinf as number | null | undefined) ?? big;
  if (v === -Infinity) return (a.neginf as number | null | undefined) ?? -big;
  return v;
}, { attrs: [{}, { nan: 1.5, posinf: 100, neginf: -7 }] });

// Activations.
const expm1 = Math.expm1;
record('relu6', (v) => (Number.isNaN(v) ? v : Math.min(Math.max(v, 0), 6)), { lo: -3, hi: 9 });
record('leaky_relu', (v, a) => (v > 0 ? v : v * ((a.negative_slope as number | undefined) ?? 0.01)), { attrs: [{}, { negative_slope: 0.2 }] });
record('elu', (v, a) => (v > 0 ? v : ((a.alpha as number | undefined) ?? 1) * expm1(v)), { attrs: [{}, { alpha: 0.5 }] });
const SELU = [1.0507009873554804934193349852946, 1.6732632423543772848170429916717];
record('selu', (v, a) => {
  const s = (a.scale as number | undefined) ?? SELU[0], al = (a.alpha as number | undefined) ?? SELU[1];
  return s * (v > 0 ? v : al * expm1(v));
}, {
  attrs: [{}, { scale: 2, alpha: 0.5 }],
  bad: [{ inputs: [nd([1], [1])], attrs: { scale: 1 }, error: /selu: scale must be greater than 1\.0/ },
    { inputs: [nd([1], [1])], attrs: { alpha: -1 }, error: /selu: alpha must be no less than zero/ }],
});
record('celu', (v, a) => {
  const al = (a.alpha as number | undefined) ?? 1;
  return v > 0 ? v : al * expm1(v / al);
}, { attrs: [{}, { alpha: 0.25 }, { alpha: -2 }], bad: [{ inputs: [nd([1], [1])], attrs: { alpha: 0 }, error: /celu: alpha cannot be 0/ }] });
record('mish', (v) => v * Math.tanh(v > 20 ? v : Math.log1p(Math.exp(v))), { lo: -25, hi: 25 });
record('softplus', (v, a) => {
  const b = (a.beta as number | undefined) ?? 1, t = (a.threshold as number | undefined) ?? 20;
  return v * b > t ? v : Math.log1p(Math.exp(v * b)) / b;
}, { lo: -25, hi: 25, attrs: [{}, { beta: 2, threshold: 5 }], bad: [{ inputs: [nd([1], [1])], attrs: { beta: 0 }, error: /softplus: beta cannot be 0/ }] });
record('softsign', (v) => v / (1 + Math.abs(v)));
record('hardswish', (v) => (v * Math.min(Math.max(v + 3, 0), 6)) / 6, { lo: -5, hi: 5 });
record('hardsigmoid', (v, a) => {
  const t = v * ((a.slope as number | undefined) ?? 0.1666667) + ((a.offset as number | undefined) ?? 0.5);
  return Number.isNaN(t) ? t : Math.min(Math.max(t, 0), 1);
}, { lo: -5, hi: 5, attrs: [{}, { slope: 0.2, offset: 0.3 }] });
record('hardtanh', (v, a) => {
  const mn = (a.min as number | undefined) ?? -1, mx = (a.max as number | undefined) ?? 1;
  return v < mn ? mn : v > mx ? mx : v;
}, { attrs: [{}, { min: -0.5, max: 1.5 }] });
record('thresholded_relu', (v, a) => (v <= ((a.threshold as number | undefined) ?? 1) ? 0 : v), { attrs: [{}, { threshold: 0.5 }] });
