// More random ops (issue 6): sampling from tensors of parameters (bernoulli, poisson,
// standard_gamma, multinomial), randperm, truncated_gaussian_random (nn.initializer.TruncatedNormal)
// and the inplace fills behind Tensor.uniform_ / normal_ / bernoulli_ / exponential_.
// Native: native/kernels/random_more.cc on the same Philox generator as random.ts, so
// paddle.seed and get/set_rng_state cover these too.
//
// Values are validated natively before anything is drawn (probabilities in [0, 1], rates >= 0,
// non-zero multinomial rows); the errors name the op and the first bad value.
//
// The fills are registry ops with `inplace: true` but no public functional name (Paddle has no
// paddle.exponential); their public `<name>_` functions and Tensor methods are below in
// `randomMorePublic` (mounted by src/paddle.ts; Python: compat/paddle/_random_api.py).
import { isFloating, toDType, type DType } from '../../tensor/dtype.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { Tensor } from '../../tensor/tensor.js';
import { callOp } from '../api.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, OpDef, TensorMeta } from '../types.js';
import { bindArgs, shapeList } from './nn_util.js';

function floatInput(op: string, x: TensorMeta): void {
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a float16, bfloat16, float32 or float64 input, got ${x.dtype}`);
}

function finite(op: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`${op}: ${name} must be a finite number, got ${JSON.stringify(v)}`);
  return v;
}

function seedOf(op: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`${op}: seed must be an integer, got ${JSON.stringify(v)}`);
  return v;
}

/** An op drawing one value per element of x from a law parametrized by x itself. */
function sampler(name: string, names: string[]): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [],
    outputs: ['out'],
    random: true,
    infer: ([x]) => { floatInput(name, x); return [{ dtype: x.dtype, shape: x.shape }]; },
    api: { names, methods: [] },
  });
}

/** paddle.bernoulli(x): 1 with probability x, else 0 (x's dtype); every x must be in [0, 1]. */
export const bernoulli = sampler('bernoulli', ['bernoulli']);
/** paddle.poisson(x): Poisson(x) counts as floats of x's dtype; rates must be >= 0. */
export const poisson = sampler('poisson', ['poisson']);
/** paddle.standard_gamma(x): Gamma(x, 1) draws; every x must be > 0. */
export const standard_gamma = sampler('standard_gamma', ['standard_gamma']);

/** A fill of x's shape and dtype (x's values unused); `check` validates and returns the kernel attrs. */
function fill(name: string, attrs: AttrSpec[], check: (a: Attrs) => number[]): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs,
    outputs: ['out'],
    random: true,
    inplace: true,
    infer: ([x], a) => { floatInput(name, x); check(a); return [{ dtype: x.dtype, shape: x.shape }]; },
    encode: (a) => check(a),
    api: { names: [], methods: [] },
  });
}

/** Tensor.uniform_(min=-1.0, max=1.0, seed=0): Paddle's uniform_inplace. */
export const uniform_inplace = fill('uniform_inplace',
  [{ name: 'min', type: 'float', default: -1.0 }, { name: 'max', type: 'float', default: 1.0 }, { name: 'seed', type: 'int', default: 0 }],
  (a) => {
    const lo = finite('uniform_inplace', 'min', a.min), hi = finite('uniform_inplace', 'max', a.max);
    if (!(lo < hi)) throw new RangeError(`uniform_inplace: min must be less than max, got min=${lo} max=${hi}`);
    return [lo, hi, seedOf('uniform_inplace', a.seed)];
  });

/** paddle.normal_(x, mean=0.0, std=1.0): Paddle's gaussian_inplace. */
export const gaussian_inplace = fill('gaussian_inplace',
  [{ name: 'mean', type: 'float', default: 0.0 }, { name: 'std', type: 'float', default: 1.0 }, { name: 'seed', type: 'int', default: 0 }],
  (a) => {
    const m = finite('gaussian_inplace', 'mean', a.mean), s = finite('gaussian_inplace', 'std', a.std);
    if (!(s >= 0)) throw new RangeError(`gaussian_inplace: std must be >= 0, got ${s}`);
    return [m, s, seedOf('gaussian_inplace', a.seed)];
  });

/** paddle.bernoulli_(x, p=0.5): x filled with Bernoulli(p) draws. */
export const bernoulli_inplace = fill('bernoulli_inplace', [{ name: 'p', type: 'float', default: 0.5 }], (a) => {
  const p = finite('bernoulli_inplace', 'p', a.p);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`bernoulli_inplace: p must be in [0, 1], got ${p}`);
  return [p];
});

/** paddle.exponential_(x, lam=1.0): x filled with Exp(lam) draws (Paddle's exponential_ op). */
export const exponential = fill('exponential', [{ name: 'lam', type: 'float', default: 1.0 }], (a) => {
  const lam = finite('exponential', 'lam', a.lam);
  if (!(lam > 0)) throw new RangeError(`exponential: lam must be > 0, got ${lam}`);
  return [lam];
});

/** paddle.multinomial(x, num_samples=1, replacement=False): int64 category indices, [k] or [rows, k]. */
export const multinomial = registerOp({
  name: 'multinomial',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'num_samples', type: 'int', default: 1 }, { name: 'replacement', type: 'bool', default: false }],
  outputs: ['out'],
  random: true,
  infer: ([x], a) => {
    floatInput('multinomial', x);
    const k = a.num_samples;
    if (typeof k !== 'number' || !Number.isInteger(k) || k <= 0) throw new RangeError(`multinomial: num_samples must be a positive integer, got ${JSON.stringify(k)}`);
    if (x.shape.length !== 1 && x.shape.length !== 2) throw new ShapeError(`multinomial: x must be 1-D or 2-D, got shape ${shapeStr(x.shape)}`);
    const cats = x.shape[x.shape.length - 1];
    if (typeof cats === 'number' && !a.replacement && k > cats)
      throw new RangeError(`multinomial: when replacement is False, num_samples (${k}) must be at most the number of categories (${cats})`);
    return [{ dtype: 'int64', shape: x.shape.length === 2 ? [x.shape[0], k] : [k] }];
  },
  encode: (a) => [a.num_samples as number, a.replacement ? 1 : 0],
  api: { names: ['multinomial'], methods: ['multinomial'] },
});

const PERM_DTYPES: readonly DType[] = ['int32', 'int64', 'float32', 'float64'];

/** paddle.randperm(n, dtype='int64'): a random permutation of 0 .. n-1. */
export const randperm = registerOp({
  name: 'randperm',
  inputs: [],
  attrs: [{ name: 'n', type: 'int' }, { name: 'dtype', type: 'dtype', default: 'int64' }],
  outputs: ['out'],
  random: true,
  infer: (_ins, a) => {
    const n = a.n;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new RangeError(`randperm: n must be a non-negative integer, got ${JSON.stringify(n)}`);
    const d = toDType((a.dtype ?? 'int64') as string);
    if (!PERM_DTYPES.includes(d)) throw new TypeError(`randperm: dtype must be int32, int64, float32 or float64, got ${d}`);
    return [{ dtype: d, shape: [n] }];
  },
  encode: (a) => [a.n as number],
  api: { names: ['randperm'], methods: [] },
});

function truncParams(a: Attrs): number[] {
  const op = 'truncated_gaussian_random';
  const mean = finite(op, 'mean', a.mean), std = finite(op, 'std', a.std), lo = finite(op, 'a', a.a), hi = finite(op, 'b', a.b);
  if (!(std > 0)) throw new RangeError(`${op}: std must be > 0, got ${std}`);
  if (!(lo < hi)) throw new RangeError(`${op}: a must be less than b, got a=${lo} b=${hi}`);
  return [mean, std, seedOf(op, a.seed), lo, hi];
}

/**
 * truncated_gaussian_random(shape, mean=0, std=1, seed=0, a=-2, b=2, dtype='float32'): N(mean, std^2)
 * restricted to [a, b] (absolute cutoffs, as Paddle's op). Internal: the public face is
 * paddle.nn.initializer.TruncatedNormal, which passes mean + a std and mean + b std.
 */
export const truncated_gaussian_random = registerOp({
  name: 'truncated_gaussian_random',
  inputs: [],
  attrs: [{ name: 'shape', type: 'int[]' }, { name: 'mean', type: 'float', default: 0.0 }, { name: 'std', type: 'float', default: 1.0 },
    { name: 'seed', type: 'int', default: 0 }, { name: 'a', type: 'float', default: -2.0 }, { name: 'b', type: 'float', default: 2.0 },
    { name: 'dtype', type: 'dtype', default: 'float32' }],
  outputs: ['out'],
  random: true,
  infer: (_ins, a) => {
    truncParams(a);
    const d = toDType((a.dtype ?? 'float32') as string);
    if (!isFloating(d)) throw new TypeError(`truncated_gaussian_random: dtype must be a floating type, got ${d}`);
    return [{ dtype: d, shape: shapeList('truncated_gaussian_random', a.shape) }];
  },
  encode: (a) => truncParams(a),
  api: { names: [] },
});

// ---- public inplace fills ------------------------------------------------------------------

type Fn = (...args: unknown[]) => unknown;
function inplaceApi(def: OpDef, pub: string, params: string[]): Fn {
  const f = (...args: unknown[]): unknown => {
    const b = bindArgs(pub, ['x', ...params], args);
    if (!(b.x instanceof Tensor)) throw new TypeError(`${pub}(): x must be a Tensor`);
    const attrs: Record<string, unknown> = {};
    for (const p of params) if (b[p] !== undefined && b[p] !== null) attrs[p] = b[p];
    return callOp(def, [b.x, attrs], true);
  };
  Object.defineProperty(f, 'name', { value: pub });
  return f;
}

/** Public functions that are not generated from the registry (mounted by src/paddle.ts). */
export const randomMorePublic: Readonly<Record<string, Fn>> = {
  uniform_: inplaceApi(uniform_inplace, 'uniform_', ['min', 'max', 'seed']),
  normal_: inplaceApi(gaussian_inplace, 'normal_', ['mean', 'std']),
  bernoulli_: inplaceApi(bernoulli_inplace, 'bernoulli_', ['p']),
  exponential_: inplaceApi(exponential, 'exponential_', ['lam']),
};

// x.uniform_(), x.normal_(), x.bernoulli_(p), x.exponential_(lam), as Paddle's Tensor methods.
for (const [m, fn] of Object.entries(randomMorePublic)) {
  if (Object.prototype.hasOwnProperty.call(Tensor.prototype, m)) continue;
  Object.defineProperty(Tensor.prototype, m, {
    value: function (this: Tensor, ...args: unknown[]) { return fn(this, ...args); }, writable: true, configurable: true,
  });
}
