// Records for the random ops of src/ops/defs/random_more.ts. As in random.ts, `check: 'custom'`
// refs assert statistics of large samples (mean/variance within a few standard errors, support),
// reproducibility (seed, thread count, get/set_rng_state) and the validation errors; never the
// exact stream of another library.
import { expect } from 'vitest';
import { addRecords } from '../op_db.js';
import { nd, type NDArray } from '../ref.js';
import { draw, reproducible } from './random.js';

type In = (NDArray | NDArray[] | null)[];
const mean = (v: number[]) => v.reduce((p, x) => p + x, 0) / v.length;
const variance = (v: number[]) => { const m = mean(v); return v.reduce((p, x) => p + (x - m) ** 2, 0) / v.length; };
const fill = (n: number, v: number, dtype: NDArray['dtype'] = 'float32'): NDArray => nd([n], new Array(n).fill(v), dtype);
const out = (all: In): NDArray => all[all.length - 1] as NDArray;

/** Mean and variance of `v` against the law's, within k standard errors (var of the mean: s2/n). */
function moments(op: string, v: number[], m: number, s2: number, k = 5): void {
  const n = v.length;
  expect(Math.abs(mean(v) - m), `${op}: mean ${mean(v)} vs ${m}`).toBeLessThan(k * Math.sqrt(s2 / n) + 1e-12);
  // The variance estimate's standard error is about s2 sqrt(2/n) (exact for normals; heavier tails get 2k).
  expect(Math.abs(variance(v) - s2), `${op}: variance ${variance(v)} vs ${s2}`).toBeLessThan(2 * k * s2 * Math.sqrt(2 / n) + 1e-12);
}

const N = 20000;

addRecords({
  op: 'bernoulli',
  samples: [
    { inputs: [fill(N, 0.3)] },
    { inputs: [fill(N, 0.8, 'float64')] },
    { inputs: [nd([2, 3], [0, 1, 0, 1, 1, 0])], strided: true, note: '0 and 1 are certain' },
    { inputs: [nd([], [1])], note: '0-dim' },
    { inputs: [nd([0, 2], [])], note: 'empty' },
  ],
  check: 'custom',
  ref: (all) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    expect(got.shape).toEqual(x.shape);
    expect(got.dtype).toBe(x.dtype);
    expect(got.data.every((v) => v === 0 || v === 1), 'bernoulli: 0/1 values').toBe(true);
    if (x.data.length > 100) {
      const p = x.data[0];
      moments('bernoulli', got.data, p, p * (1 - p));
      reproducible('bernoulli', [x], {});
    } else got.data.forEach((v, i) => { if (x.data[i] === 0 || x.data[i] === 1) expect(v).toBe(x.data[i]); });
    return got;
  },
  bad: [
    { inputs: [nd([3], [0.5, 1.5, 0.2])], error: /bernoulli: every probability must be in \[0, 1\], got 1\.5 \(element 1 of x\)/ },
    { inputs: [nd([2], [-0.1, 0.2])], error: /bernoulli: every probability must be in \[0, 1\], got -0\.1/ },
    { inputs: [nd([2], [NaN, 0.2])], error: /bernoulli: every probability must be in \[0, 1\], got nan/i },
    { inputs: [nd([2], [0, 1], 'int32')], error: /bernoulli: expected a float16, bfloat16, float32 or float64 input, got int32/ },
  ],
}, {
  op: 'poisson',
  samples: [
    { inputs: [fill(N, 3)], note: 'small rate: multiplication method' },
    { inputs: [fill(N, 40, 'float64')], note: 'large rate: transformed rejection' },
    { inputs: [fill(N, 1e4)], note: 'very large rate' },
    { inputs: [nd([2, 2], [0, 0, 0, 0])], strided: true, note: 'rate 0 gives 0' },
    { inputs: [nd([], [2])], note: '0-dim' },
    { inputs: [nd([0], [])], note: 'empty' },
  ],
  check: 'custom',
  ref: (all) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    expect(got.shape).toEqual(x.shape);
    expect(got.dtype).toBe(x.dtype);
    expect(got.data.every((v) => Number.isInteger(v) && v >= 0), 'poisson: non-negative integers').toBe(true);
    if (x.data.length > 100) {
      moments('poisson', got.data, x.data[0], x.data[0]);
      reproducible('poisson', [x], {});
    } else if (x.data.every((v) => v === 0)) expect(got.data.every((v) => v === 0)).toBe(true);
    return got;
  },
  bad: [
    { inputs: [nd([2], [1, -2])], error: /poisson: every rate must be a finite number >= 0, got -2 \(element 1 of x\)/ },
    { inputs: [nd([1], [Infinity])], error: /poisson: every rate must be a finite number >= 0, got inf/ },
  ],
}, {
  op: 'standard_gamma',
  samples: [
    { inputs: [fill(N, 0.4)], note: 'alpha < 1 (boosted)' },
    { inputs: [fill(N, 2.5, 'float64')] },
    { inputs: [fill(N, 50)] },
    { inputs: [nd([], [1])], note: '0-dim' },
    { inputs: [nd([2, 0], [])], note: 'empty' },
    { inputs: [nd([2, 3], [1, 2, 3, 4, 5, 6])], strided: true },
  ],
  check: 'custom',
  ref: (all) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    expect(got.shape).toEqual(x.shape);
    expect(got.data.every((v) => v >= 0 && Number.isFinite(v)), 'standard_gamma: finite, >= 0').toBe(true);
    if (x.data.length > 100) {
      moments('standard_gamma', got.data, x.data[0], x.data[0]);  // Gamma(a, 1): mean = var = a
      reproducible('standard_gamma', [x], {});
    }
    return got;
  },
  bad: [
    { inputs: [nd([2], [1, 0])], error: /standard_gamma: every alpha must be a finite number > 0, got 0 \(element 1 of x\)/ },
  ],
}, {
  op: 'exponential',
  samples: [
    { inputs: [fill(N, 0)], attrs: { lam: 2 } },
    { inputs: [fill(N, 0, 'float64')] },
    { inputs: [nd([], [5])], attrs: { lam: 3 }, note: '0-dim' },
    { inputs: [nd([0, 3], [])], note: 'empty' },
    { inputs: [nd([3, 2], [1, 2, 3, 4, 5, 6])], strided: true, note: "x's values are not used" },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    const lam = (attrs.lam as number | undefined) ?? 1;
    expect(got.shape).toEqual(x.shape);
    expect(got.dtype).toBe(x.dtype);
    expect(got.data.every((v) => v >= 0 && Number.isFinite(v)), 'exponential: finite, >= 0').toBe(true);
    if (x.data.length > 100) {
      moments('exponential', got.data, 1 / lam, 1 / lam ** 2);
      reproducible('exponential', [x], attrs);
    }
    return got;
  },
  bad: [
    { inputs: [fill(3, 0)], attrs: { lam: 0 }, error: /exponential: lam must be > 0, got 0/ },
    { inputs: [fill(3, 0)], attrs: { lam: -1 }, error: /exponential: lam must be > 0/ },
    { inputs: [nd([1], [0], 'int64')], error: /exponential: expected a float16, bfloat16, float32 or float64 input, got int64/ },
  ],
}, {
  op: 'uniform_inplace',
  samples: [
    { inputs: [fill(N, 7)], attrs: { min: -3, max: 5 } },
    { inputs: [fill(N, 7, 'float64')] },
    { inputs: [nd([], [1])], attrs: { min: 0, max: 1 }, note: '0-dim' },
    { inputs: [nd([0], [])], note: 'empty' },
    { inputs: [nd([2, 3], [1, 2, 3, 4, 5, 6])], strided: true },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    const lo = (attrs.min as number | undefined) ?? -1, hi = (attrs.max as number | undefined) ?? 1;
    expect(got.shape).toEqual(x.shape);
    expect(got.data.every((v) => v >= lo && v < hi), 'uniform_inplace: in [min, max)').toBe(true);
    if (x.data.length > 100) {
      moments('uniform_inplace', got.data, (lo + hi) / 2, (hi - lo) ** 2 / 12);
      reproducible('uniform_inplace', [x], attrs);
      // A nonzero seed draws its own stream.
      expect(draw('uniform_inplace', [x], { ...attrs, seed: 5 })).toEqual(draw('uniform_inplace', [x], { ...attrs, seed: 5 }));
    }
    return got;
  },
  bad: [
    { inputs: [fill(3, 0)], attrs: { min: 1, max: 1 }, error: /uniform_inplace: min must be less than max, got min=1 max=1/ },
    { inputs: [fill(3, 0)], attrs: { seed: 0.5 }, error: /uniform_inplace: seed must be an integer/ },
  ],
}, {
  op: 'gaussian_inplace',
  samples: [
    { inputs: [fill(N, 7)], attrs: { mean: 2, std: 3 } },
    { inputs: [fill(N + 1, 7, 'float64')], note: 'odd count' },
    { inputs: [nd([], [1])], note: '0-dim' },
    { inputs: [nd([0], [])], note: 'empty' },
    { inputs: [nd([2, 3], [1, 2, 3, 4, 5, 6])], strided: true },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    const m = (attrs.mean as number | undefined) ?? 0, s = (attrs.std as number | undefined) ?? 1;
    expect(got.shape).toEqual(x.shape);
    expect(got.data.every(Number.isFinite)).toBe(true);
    if (x.data.length > 100) {
      moments('gaussian_inplace', got.data, m, s * s);
      reproducible('gaussian_inplace', [x], attrs);
    }
    return got;
  },
  bad: [{ inputs: [fill(3, 0)], attrs: { std: -1 }, error: /gaussian_inplace: std must be >= 0, got -1/ }],
}, {
  op: 'bernoulli_inplace',
  samples: [
    { inputs: [fill(N, 7)], attrs: { p: 0.25 } },
    { inputs: [fill(N, 7, 'float64')] },
    { inputs: [nd([], [1])], attrs: { p: 1 }, note: '0-dim, p=1' },
    { inputs: [nd([0], [])], note: 'empty' },
    { inputs: [nd([2, 3], [1, 2, 3, 4, 5, 6])], attrs: { p: 0 }, strided: true, note: 'p=0' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    const p = (attrs.p as number | undefined) ?? 0.5;
    expect(got.shape).toEqual(x.shape);
    expect(got.data.every((v) => v === 0 || v === 1)).toBe(true);
    if (p === 0 || p === 1) expect(got.data.every((v) => v === p)).toBe(true);
    if (x.data.length > 100) {
      moments('bernoulli_inplace', got.data, p, p * (1 - p));
      reproducible('bernoulli_inplace', [x], attrs);
    }
    return got;
  },
  bad: [{ inputs: [fill(3, 0)], attrs: { p: 1.2 }, error: /bernoulli_inplace: p must be in \[0, 1\], got 1.2/ }],
}, {
  op: 'multinomial',
  samples: [
    { inputs: [nd([4], [1, 2, 3, 4])], attrs: { num_samples: N, replacement: true }, note: 'frequencies follow weights' },
    { inputs: [nd([2, 3], [0, 1, 3, 5, 0, 5], 'float64')], attrs: { num_samples: 2 }, note: 'without replacement: distinct, non-zero' },
    { inputs: [nd([3, 5], [1, 1, 1, 1, 1, 9, 0, 0, 0, 1, 2, 2, 2, 2, 2])], attrs: { num_samples: 1 }, strided: true },
    { inputs: [nd([3], [0.2, 0.3, 0.5])], attrs: { num_samples: 3 }, note: 'a full permutation' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = [all[0] as NDArray, out(all)];
    const k = attrs.num_samples as number, C = x.shape[x.shape.length - 1], R = x.shape.length === 2 ? x.shape[0] : 1;
    expect(got.dtype).toBe('int64');
    expect(got.shape).toEqual(x.shape.length === 2 ? [R, k] : [k]);
    for (let r = 0; r < R; r++) {
      const row = got.data.slice(r * k, (r + 1) * k);
      expect(row.every((c) => Number.isInteger(c) && c >= 0 && c < C && x.data[r * C + c] > 0), 'multinomial: non-zero categories only').toBe(true);
      if (!attrs.replacement) expect(new Set(row).size, 'multinomial: no repeats without replacement').toBe(k);
    }
    if (k >= 1000) {
      const total = x.data.reduce((a, b) => a + b, 0);
      x.data.forEach((w, c) => {
        const p = w / total, freq = got.data.filter((v) => v === c).length / k;
        expect(Math.abs(freq - p), `multinomial: frequency of ${c}`).toBeLessThan(5 * Math.sqrt(p * (1 - p) / k));
      });
      reproducible('multinomial', [x], attrs);
    }
    return got;
  },
  bad: [
    { inputs: [nd([3], [0.5, 0, 0.5])], attrs: { num_samples: 3 }, error: /multinomial: when replacement is False, num_samples \(3\) must be at most the number of non-zero categories \(2\)/ },
    { inputs: [nd([3], [0.5, 0.5, 0.5])], attrs: { num_samples: 4 }, error: /multinomial: when replacement is False, num_samples \(4\) must be at most the number of categories \(3\)/ },
    { inputs: [nd([2, 2], [1, 1, 0, 0])], attrs: { replacement: true }, error: /multinomial: the probabilities of row 1 sum to 0/ },
    { inputs: [nd([2], [1, -1])], error: /multinomial: every probability must be a finite number >= 0, got -1 in row 0 at category 1/ },
    { inputs: [nd([1, 1, 2], [1, 1])], error: /multinomial: x must be 1-D or 2-D/ },
    { inputs: [nd([2], [1, 1])], attrs: { num_samples: 0 }, error: /multinomial: num_samples must be a positive integer/ },
    { inputs: [nd([0], [])], attrs: { replacement: true }, error: /multinomial: x has no categories/ },
  ],
}, {
  op: 'randperm',
  samples: [
    { inputs: [], attrs: { n: 1000 } },
    { inputs: [], attrs: { n: 7, dtype: 'int32' } },
    { inputs: [], attrs: { n: 5, dtype: 'float64' } },
    { inputs: [], attrs: { n: 1 } },
    { inputs: [], attrs: { n: 0 }, note: 'empty' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const got = out(all), n = attrs.n as number;
    expect(got.dtype).toBe(attrs.dtype ?? 'int64');
    expect(got.shape).toEqual([n]);
    expect([...got.data].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    if (n >= 1000) {
      // Position 0 is uniform over n values: its mean over many draws is (n-1)/2.
      const firsts = Array.from({ length: 400 }, () => draw('randperm', [], attrs)[0]);
      moments('randperm', firsts, (n - 1) / 2, (n * n - 1) / 12);
      reproducible('randperm', [], attrs);
    }
    return got;
  },
  bad: [
    { inputs: [], attrs: { n: -1 }, error: /randperm: n must be a non-negative integer, got -1/ },
    { inputs: [], attrs: { n: 3, dtype: 'bool' }, error: /randperm: dtype must be int32, int64, float32 or float64, got bool/ },
  ],
}, {
  op: 'truncated_gaussian_random',
  samples: [
    { inputs: [], attrs: { shape: [N] }, note: 'defaults: N(0, 1) on [-2, 2]' },
    { inputs: [], attrs: { shape: [100, 200], mean: 1, std: 2, a: -3, b: 5, dtype: 'float64' } },
    { inputs: [], attrs: { shape: [N], a: 5, b: 6 }, note: 'far tail' },
    { inputs: [], attrs: { shape: [N], a: -7, b: -6.5, dtype: 'float64' }, note: 'far left tail' },
    { inputs: [], attrs: { shape: [] }, note: '0-dim' },
    { inputs: [], attrs: { shape: [0, 4] }, note: 'empty' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const got = out(all);
    const m = (attrs.mean as number | undefined) ?? 0, s = (attrs.std as number | undefined) ?? 1;
    const a = (attrs.a as number | undefined) ?? -2, b = (attrs.b as number | undefined) ?? 2;
    expect(got.dtype).toBe(attrs.dtype ?? 'float32');
    expect(got.data.every((v) => v >= a && v <= b), 'truncated_gaussian_random: inside [a, b]').toBe(true);
    if (got.data.length > 100) {
      // Moments of the truncated normal: alpha, beta standardized cutoffs, Z their mass.
      const pdf = (z: number) => Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
      const al = (a - m) / s, be = (b - m) / s;
      const Z = normalMass(al, be);
      const mu = m + s * (pdf(al) - pdf(be)) / Z;
      const v = s * s * (1 + (al * pdf(al) - be * pdf(be)) / Z - ((pdf(al) - pdf(be)) / Z) ** 2);
      moments('truncated_gaussian_random', got.data, mu, v);
      reproducible('truncated_gaussian_random', [], attrs);
      expect(draw('truncated_gaussian_random', [], { ...attrs, seed: 9 })).toEqual(draw('truncated_gaussian_random', [], { ...attrs, seed: 9 }));
    }
    return got;
  },
  bad: [
    { inputs: [], attrs: { shape: [3], a: 1, b: 1 }, error: /truncated_gaussian_random: a must be less than b, got a=1 b=1/ },
    { inputs: [], attrs: { shape: [3], std: 0 }, error: /truncated_gaussian_random: std must be > 0, got 0/ },
    { inputs: [], attrs: { shape: [3], dtype: 'int32' }, error: /truncated_gaussian_random: dtype must be a floating type/ },
    { inputs: [], attrs: { shape: [-2] }, error: /truncated_gaussian_random: invalid shape/ },
  ],
});

/** P(alpha <= Z <= beta) for a standard normal, by the complementary tail nearer zero. */
function normalMass(al: number, be: number): number {
  const tail = (z: number) => 0.5 * erfc(z / Math.SQRT2);  // P(Z > z)
  return al > 0 ? tail(al) - tail(be) : be < 0 ? tail(-be) - tail(-al) : 1 - tail(-al) - tail(be);
}

/** erfc with relative precision in the tails (continued fraction above 2, series below). */
function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    // erf by its Taylor series, 1 - erf: fine for x < 2 (no deep cancellation).
    let term = x, sum = x;
    for (let k = 1; k < 60; k++) { term *= -x * x / k; sum += term / (2 * k + 1); }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Lentz's continued fraction for sqrt(pi) e^{x^2} erfc(x) = 1 / (x + 1/2 / (x + 1 / (x + 3/2 / (x + ...)))).
  let f = x, c = x, d = 0;
  for (let k = 1; k < 200; k++) {
    const a = k / 2;
    d = x + a * d; d = 1 / d;
    c = x + a / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (f * Math.sqrt(Math.PI));
}
