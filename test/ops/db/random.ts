// Random op records: `check: 'custom'` refs assert statistics of the output (passed after the
// inputs) and reproducibility: the same seed repeats values, another seed differs, the stream
// does not depend on the thread count, and get/set_rng_state replays.
import { expect } from 'vitest';
import { runOp } from '../../../src/ops/index.js';
import { get_rng_state, seed, set_rng_state } from '../../../src/ops/defs/random.js';
import { native } from '../../../src/native.js';
import { scope, type Tensor } from '../../../src/tensor/tensor.js';
import { addRecords } from '../op_db.js';
import { type NDArray, rand } from '../ref.js';
import { tensorOf } from '../harness.js';

type Attrs = Record<string, unknown>;
type In = (NDArray | NDArray[] | null)[];

const mean = (v: number[]) => v.reduce((p, x) => p + x, 0) / v.length;
const std = (v: number[]) => { const m = mean(v); return Math.sqrt(v.reduce((p, x) => p + (x - m) ** 2, 0) / v.length); };

/** Runs op on inputs with attrs and returns the flat values of output 0. */
export function draw(op: string, inputs: In, attrs: Attrs): number[] {
  return scope(() => {
    const ts = inputs.map((x) => (x ? tensorOf(x as NDArray) : null));
    return (runOp(op, ts, attrs)[0] as Tensor).dataSync().map(Number);
  });
}

/** Same seed -> same values (also with one thread); other seed -> different; state replays. */
export function reproducible(op: string, inputs: In, attrs: Attrs): void {
  seed(2024);
  const a = draw(op, inputs, attrs);
  const b = draw(op, inputs, attrs);
  expect(b, `${op}: consecutive draws differ`).not.toEqual(a);
  seed(2024);
  expect(draw(op, inputs, attrs), `${op}: same seed repeats`).toEqual(a);
  const threads = native.numThreads();
  try {
    native.numThreads(1);
    seed(2024);
    expect(draw(op, inputs, attrs), `${op}: thread count does not matter`).toEqual(a);
  } finally {
    native.numThreads(threads);
  }
  seed(2025);
  expect(draw(op, inputs, attrs), `${op}: another seed differs`).not.toEqual(a);
  const st = get_rng_state();
  const c = draw(op, inputs, attrs);
  set_rng_state(st);
  expect(draw(op, inputs, attrs), `${op}: set_rng_state replays`).toEqual(c);
}

/** A custom check of output statistics: expected shape/dtype, range, mean and std. */
function stats(op: string, o: { lo?: number; hi?: number; mean: number; std: number; tol: number; int?: boolean }) {
  return (all: In, attrs: Attrs): NDArray => {
    const got = all[all.length - 1] as NDArray;
    const v = got.data;
    if (o.lo !== undefined) expect(Math.min(...v), `${op}: min`).toBeGreaterThanOrEqual(o.lo);
    if (o.hi !== undefined) expect(Math.max(...v), `${op}: max`).toBeLessThan(o.hi);
    if (o.int) expect(v.every(Number.isInteger), `${op}: integers`).toBe(true);
    expect(Math.abs(mean(v) - o.mean), `${op}: mean ${mean(v)} vs ${o.mean}`).toBeLessThan(o.tol);
    expect(Math.abs(std(v) - o.std), `${op}: std ${std(v)} vs ${o.std}`).toBeLessThan(o.tol);
    reproducible(op, all.slice(0, -1), attrs);
    return got;
  };
}

const N = 10000;
addRecords({
  op: 'rand',
  samples: [{ inputs: [], attrs: { shape: [100, 100] } }],
  check: 'custom',
  ref: (all, attrs) => {
    const got = all[all.length - 1] as NDArray;
    expect(got.shape).toEqual([100, 100]);
    expect(got.dtype).toBe('float32');
    return stats('rand', { lo: 0, hi: 1, mean: 0.5, std: Math.sqrt(1 / 12), tol: 0.015 })(all, attrs);
  },
  bad: [
    { inputs: [], attrs: { shape: [-1, 3] }, error: /rand: invalid shape \[-1,3\]/ },
    { inputs: [], attrs: { shape: [3], dtype: 'int32' }, error: /rand: dtype must be a floating type/ },
  ],
}, {
  op: 'uniform',
  samples: [
    { inputs: [], attrs: { shape: [N], min: -3, max: 5 } },
    { inputs: [], attrs: { shape: [N], dtype: 'float64', min: 2, max: 2.5 } },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const lo = attrs.min as number, hi = attrs.max as number;
    // seed != 0 draws its own stream: equal seeds give equal tensors, whatever the global state.
    const s1 = draw('uniform', [], { ...attrs, seed: 77 });
    seed(1);
    expect(draw('uniform', [], { ...attrs, seed: 77 })).toEqual(s1);
    return stats('uniform', { lo, hi, mean: (lo + hi) / 2, std: (hi - lo) / Math.sqrt(12), tol: 0.03 * (hi - lo) })(all, attrs);
  },
  bad: [{ inputs: [], attrs: { shape: [3], min: 1, max: 1 }, error: /uniform: min must be less than max, got min=1 max=1/ }],
}, {
  op: 'randn',
  samples: [{ inputs: [], attrs: { shape: [N] } }, { inputs: [], attrs: { shape: [N], dtype: 'float64' } }, { inputs: [], attrs: { shape: [0, 3] } }],
  check: 'custom',
  ref: (all, attrs) => {
    const got = all[all.length - 1] as NDArray;
    if (got.data.length === 0) { expect(got.shape).toEqual([0, 3]); return got; }
    return stats('randn', { mean: 0, std: 1, tol: 0.05 })(all, attrs);
  },
  bad: [{ inputs: [], attrs: { shape: 'x' }, error: /randn: invalid shape/ }],
}, {
  op: 'normal',
  samples: [{ inputs: [], attrs: { mean: 3, std: 0.5, shape: [N] } }, { inputs: [], attrs: { shape: [N] } }],
  check: 'custom',
  ref: (all, attrs) => {
    const m = (attrs.mean as number | undefined) ?? 0, s = (attrs.std as number | undefined) ?? 1;
    return stats('normal', { mean: m, std: s, tol: 0.08 * s })(all, attrs);
  },
  bad: [
    { inputs: [], attrs: { mean: 0, std: -1, shape: [3] }, error: /normal: std must be >= 0/ },
    { inputs: [], attrs: { mean: 0, std: 1 }, error: /normal: shape is required/ },
  ],
}, {
  op: 'randint',
  samples: [
    { inputs: [], attrs: { low: -5, high: 5, shape: [N] } },
    { inputs: [], attrs: { low: 7, shape: [N], dtype: 'int32' }, note: 'high=None: [0, low)' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const got = all[all.length - 1] as NDArray;
    let lo = attrs.low as number, hi = attrs.high as number | undefined;
    if (hi === undefined) { hi = lo; lo = 0; }
    expect(got.dtype).toBe(attrs.dtype ?? 'int64');
    const n = hi - lo;
    expect(new Set(got.data).size, 'randint: every value appears').toBe(n);
    return stats('randint', { lo, hi, int: true, mean: (lo + hi - 1) / 2, std: Math.sqrt((n * n - 1) / 12), tol: 0.15 })(all, attrs);
  },
  bad: [
    { inputs: [], attrs: { low: 3, high: 3 }, error: /randint: low must be less than high, but received low = 3, high = 3/ },
    { inputs: [], attrs: { low: 0, high: 3, dtype: 'float32' }, error: /randint: dtype must be int32 or int64/ },
  ],
}, {
  op: 'dropout',
  samples: [
    { inputs: [rand([100, 100], 'float32', 1, 0.5, 2)], attrs: { p: 0.3 } },
    { inputs: [rand([100, 100], 'float64', 2, 0.5, 2)], attrs: { p: 0.5, mode: 'downscale_in_infer' } },
    { inputs: [rand([50, 200], 'float32', 3, 0.5, 2)], attrs: { p: 0.4, axis: 1 }, note: 'axis: whole columns drop' },
    { inputs: [rand([20, 30], 'float32', 4, 0.5, 2)], attrs: { p: 1 }, note: 'p=1: zeros' },
    { inputs: [rand([20, 30], 'float32', 5, 0.5, 2)], attrs: { p: 0.3, training: false }, strided: true, note: 'eval: x' },
    { inputs: [rand([20, 30], 'float32', 6, 0.5, 2)], attrs: { p: 0.3, training: false, mode: 'downscale_in_infer' }, note: 'eval downscale: x*(1-p)' },
    { inputs: [rand([20, 30], 'float32', 7, 0.5, 2)], attrs: { p: 0 }, strided: true, note: 'p=0: x' },
  ],
  check: 'custom',
  ref: (all, attrs) => {
    const [x, got] = all as [NDArray, NDArray];
    const p = attrs.p as number, training = attrs.training ?? true, up = (attrs.mode ?? 'upscale_in_train') === 'upscale_in_train';
    const f = x.dtype === 'float32' ? Math.fround : (v: number) => v;
    if (!training || p === 0) {
      const k = !training && !up ? 1 - p : 1;
      got.data.forEach((v, i) => expect(v).toBeCloseTo(f(x.data[i] * k), 5));
      return got;
    }
    let kept = 0;
    got.data.forEach((v, i) => {
      if (v === 0) return;
      kept++;
      expect(v).toBeCloseTo(up ? f(x.data[i] / (1 - p)) : x.data[i], 5);
    });
    const frac = kept / got.data.length;
    const units = attrs.axis === 1 ? x.shape[1] : got.data.length;  // independent keep/drop draws
    expect(Math.abs(frac - (1 - p)), `dropout: kept fraction ${frac}`).toBeLessThanOrEqual(5 * Math.sqrt((p * (1 - p)) / units));
    if (attrs.axis === 1) {  // a column is kept or dropped as a whole
      const [R, C] = x.shape;
      for (let c = 0; c < C; c++) {
        const zeros = Array.from({ length: R }, (_, r) => got.data[r * C + c] === 0).filter(Boolean).length;
        expect(zeros === 0 || zeros === R, `dropout: column ${c}`).toBe(true);
      }
    }
    if (p > 0 && p < 1) reproducible('dropout', [x], attrs);
    return got;
  },
  bad: [
    { inputs: [rand([3], 'float32', 1)], attrs: { p: 1.5 }, error: /dropout: p argument should between 0 and 1, got 1.5/ },
    { inputs: [rand([3], 'float32', 1)], attrs: { p: -0.1 }, error: /dropout: p argument should between 0 and 1/ },
    { inputs: [rand([3], 'float32', 1)], attrs: { mode: 'scale' }, error: /dropout: mode argument should be/ },
    { inputs: [rand([3], 'float32', 1)], attrs: { axis: 2 }, error: /dropout: axis 2 is out of range/ },
    { inputs: [rand([3], 'int64', 1)], error: /dropout: expected a floating-point input/ },
  ],
});
