// Record for polygamma (src/ops/defs/special_more.ts). The reference shifts x up by the
// recurrence psi^(n)(x) = psi^(n)(x+1) + (-1)^(n+1) n! / x^(n+1) to x >= 40 + n and sums the
// asymptotic series there (a different route from the kernel's Hurwitz zeta).
import type { DType } from '../../../src/tensor/dtype.js';
import { asDType } from '../harness.js';
import { addRecords } from '../op_db.js';
import { nd, type NDArray, rand } from '../ref.js';
import { finalize } from './unary.js';
import { digamma } from './unary_special.js';

const B2K = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510];
const logFact = (k: number): number => { let s = 0; for (let i = 2; i <= k; i++) s += Math.log(i); return s; };

export function polygammaRef(x: number, n: number): number {
  if (n === 0) return digamma(x);
  if (Number.isNaN(x) || x === -Infinity) return NaN;
  if (x === Infinity) return 0;
  const sign = n % 2 === 1 ? 1 : -1;
  if (x <= 0 && Math.floor(x) === x) return sign * Infinity;
  const nf = Math.exp(logFact(n));
  let acc = 0;
  while (x < 40 + n) { acc += nf / x ** (n + 1); x += 1; }
  // (n-1)!/x^n + n!/(2 x^(n+1)) + sum_k B_2k (2k+n-1)! / ((2k)! x^(2k+n))
  let series = Math.exp(logFact(n - 1)) / x ** n + nf / (2 * x ** (n + 1));
  B2K.forEach((b, i) => {
    const k = i + 1;
    series += b * Math.exp(logFact(2 * k + n - 1) - logFact(2 * k)) / x ** (2 * k + n);
  });
  return sign * (acc + series);
}

const r32 = (shape: number[], seed: number, lo: number, hi: number): NDArray => asDType(rand(shape, 'float32', seed, lo, hi), 'float32');
const SPECIAL = nd([9], [NaN, Infinity, -Infinity, 0, -1, 0.5, -1.5, 2.5, 1e-3]);

addRecords({
  op: 'polygamma',
  samples: [
    { inputs: [r32([2, 3], 1, 0.1, 6)], attrs: { n: 1 } },
    { inputs: [r32([2, 3], 2, 0.1, 6)], attrs: { n: 0 }, note: 'n=0: digamma' },
    { inputs: [r32([4], 3, 0.2, 30)], attrs: { n: 2 } },
    { inputs: [r32([4], 4, 0.5, 8)], attrs: { n: 5 } },
    { inputs: [r32([3], 5, 2, 20)], attrs: { n: 12 }, note: 'high order' },
    { inputs: [nd([4], [-0.5, -1.25, -2.7, -3.5])], attrs: { n: 1 }, note: 'negative x' },
    { inputs: [nd([4], [-0.5, -1.25, -2.7, -3.5])], attrs: { n: 2 }, note: 'negative x, even n' },
    { inputs: [r32([], 6, 0.5, 3)], attrs: { n: 3 }, note: '0-dim' },
    { inputs: [r32([0, 2], 7, 0.5, 3)], attrs: { n: 1 }, note: 'empty' },
    { inputs: [r32([3, 4], 8, 0.5, 3)], attrs: { n: 1 }, strided: true },
    { inputs: [r32([5, 1037], 9, 0.5, 50)], attrs: { n: 1 }, strided: true, note: 'threaded' },
    { inputs: [SPECIAL], attrs: { n: 1 }, note: 'NaN, inf, poles' },
    { inputs: [SPECIAL], attrs: { n: 2 }, note: 'poles of even order' },
  ],
  ref: ([x], a) => {
    const X = x as NDArray, n = a.n as number;
    return { shape: X.shape, data: X.data.map((v) => finalize(polygammaRef(v, n), X.dtype)), dtype: X.dtype as DType };
  },
  dtypes: ['float64', 'float16', 'bfloat16'],
  rtol: 1e-9,
  bad: [
    { inputs: [nd([2], [1, 2], 'int32')], attrs: { n: 1 }, error: /polygamma: expected a floating-point input, got int32/ },
    { inputs: [nd([2], [1, 2])], attrs: { n: -1 }, error: /polygamma: n must be a non-negative integer, got -1/ },
    { inputs: [nd([2], [1, 2])], attrs: { n: 1.5 }, error: /polygamma: n must be a non-negative integer, got 1.5/ },
    { inputs: [nd([2], [1, 2])], error: /polygamma: missing required attribute 'n'/ },
  ],
});
