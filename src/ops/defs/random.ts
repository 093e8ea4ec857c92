// Random ops and the generator behind them. Native: native/kernels/random.cc on the
// counter-based Philox generator in native/src/generator.{h,cc}; the state (seed, offset)
// lives natively so eager ops and compiled programs draw from the same stream.
//
// paddle.seed / get_rng_state / set_rng_state are plain functions (not ops); they are listed
// in `randomPublic` for src/paddle.ts to mount.
import { native } from '../../native.js';
import { DTYPE_CODE, type DType, isFloating, toDType } from '../../tensor/dtype.js';
import { normAxis } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrSpec, OpDef, TensorMeta } from '../types.js';
import { shapeList, u64Halves } from './nn_util.js';
import { kit } from '../grad_kit.js';

function floatDType(op: string, a: Attrs): DType {
  const d = a.dtype === null || a.dtype === undefined ? 'float32' : toDType(a.dtype as string);  // normal has no dtype
  if (!isFloating(d)) throw new TypeError(`${op}: dtype must be a floating type (float16, bfloat16, float32, float64), got ${d}`);
  return d;
}

function num(op: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || Number.isNaN(v)) {
    const what = v !== null && typeof v === 'object' ? 'a Tensor' : JSON.stringify(v);
    throw new TypeError(`${op}: ${name} must be a number, got ${what}${what === 'a Tensor' ? ' (Tensor mean/std are not supported yet)' : ''}`);
  }
  return v;
}

function seedAttr(op: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`${op}: seed must be an integer, got ${JSON.stringify(v)}`);
  return v;
}

const SHAPE: AttrSpec = { name: 'shape', type: 'int[]' };
const DTYPE: AttrSpec = { name: 'dtype', type: 'dtype', default: null };

/** A random creation op: output from attributes, kernel attrs [seed, a, b]. */
function creator(name: string, attrs: AttrSpec[], names: string[], params: (a: Attrs) => [number, number, number]): OpDef {
  return registerOp({
    name,
    inputs: [],
    attrs,
    outputs: ['out'],
    random: true,
    infer: (_ins, a) => { params(a); return [{ dtype: floatDType(name, a), shape: shapeList(name, a.shape) }]; },
    encode: (a) => params(a),
    api: { names },
  });
}

/** paddle.uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0): values in [min, max). */
export const uniform = creator('uniform',
  [SHAPE, DTYPE, { name: 'min', type: 'float', default: -1.0 }, { name: 'max', type: 'float', default: 1.0 }, { name: 'seed', type: 'int', default: 0 }],
  ['uniform'],
  (a) => {
    const lo = num('uniform', 'min', a.min), hi = num('uniform', 'max', a.max);
    if (!(lo < hi)) throw new RangeError(`uniform: min must be less than max, got min=${lo} max=${hi}`);
    return [seedAttr('uniform', a.seed), lo, hi];
  });

/** paddle.rand(shape, dtype=None): uniform in [0, 1). */
export const rand = creator('rand', [SHAPE, DTYPE], ['rand'], () => [0, 0, 1]);

/** paddle.randn(shape, dtype=None) and paddle.standard_normal: N(0, 1). */
export const randn = creator('randn', [SHAPE, DTYPE], ['randn', 'standard_normal'], () => [0, 0, 1]);

/** paddle.normal(mean=0.0, std=1.0, shape=None): N(mean, std^2) of float32 (float mean/std only). */
export const normal = creator('normal',
  [{ name: 'mean', type: 'float', default: 0.0 }, { name: 'std', type: 'float', default: 1.0 }, { name: 'shape', type: 'int[]', default: null }],
  ['normal'],
  (a) => {
    const m = num('normal', 'mean', a.mean), s = num('normal', 'std', a.std);
    if (!(s >= 0)) throw new RangeError(`normal: std must be >= 0, got ${s}`);
    if (a.shape === null) throw new TypeError('normal: shape is required when mean and std are numbers');
    return [0, m, s];
  });

/** randint bounds: high=None means [0, low). */
function randintRange(a: Attrs): [number, number] {
  let lo = a.low as number, hi = a.high as number | null;
  if (hi === null) { hi = lo; lo = 0; }
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) throw new TypeError(`randint: low and high must be integers, got low=${a.low} high=${a.high}`);
  if (lo >= hi) throw new RangeError(`randint: low must be less than high, but received low = ${lo}, high = ${hi}`);
  return [lo, hi];
}

/** paddle.randint(low=0, high=None, shape=[1], dtype=None): int64 by default. */
export const randint = registerOp({
  name: 'randint',
  inputs: [],
  attrs: [{ name: 'low', type: 'int', default: 0 }, { name: 'high', type: 'int', default: null }, { name: 'shape', type: 'int[]', default: [1] }, DTYPE],
  outputs: ['out'],
  random: true,
  infer: (_ins, a) => {
    randintRange(a);
    const d = a.dtype === null ? 'int64' : toDType(a.dtype as string);
    if (d !== 'int32' && d !== 'int64') throw new TypeError(`randint: dtype must be int32 or int64, got ${d}`);
    return [{ dtype: d, shape: shapeList('randint', a.shape) }];
  },
  encode: (a) => randintRange(a),
  api: { names: ['randint'] },
});

const DROPOUT_MODES = ['upscale_in_train', 'downscale_in_infer'];

function dropoutAxes(a: Attrs, rank: number): number[] {
  if (a.axis === null) return [];
  const list = Array.isArray(a.axis) ? (a.axis as number[]) : [a.axis as number];
  const out = list.map((ax) => normAxis(ax, rank, 'dropout'));
  if (new Set(out).size !== out.length) throw new RangeError(`dropout: duplicate axis in ${JSON.stringify(a.axis)}`);
  return out;
}

function dropoutCheck(a: Attrs): void {
  if (typeof a.p !== 'number') throw new TypeError(`dropout: p argument should be a number, got ${JSON.stringify(a.p)}`);
  if (!(a.p >= 0 && a.p <= 1)) throw new RangeError(`dropout: p argument should between 0 and 1, got ${a.p}`);
  if (!DROPOUT_MODES.includes(a.mode as string)) throw new RangeError(`dropout: mode argument should be 'downscale_in_infer' or 'upscale_in_train', got ${JSON.stringify(a.mode)}`);
}

/**
 * F.dropout(x, p=0.5, axis=None, training=True, mode='upscale_in_train'). p == 0, and eval mode
 * with 'upscale_in_train', return x itself (a view), as Paddle does; p == 1 in training gives zeros.
 */
export const dropout = registerOp({
  name: 'dropout',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'p', type: 'float', default: 0.5 }, { name: 'axis', type: 'int[]', default: null },
    { name: 'training', type: 'bool', default: true }, { name: 'mode', type: 'str', default: 'upscale_in_train' }],
  outputs: ['out'],
  random: true,
  infer: (ins: readonly TensorMeta[], a) => {
    dropoutCheck(a);
    if (!isFloating(ins[0].dtype)) throw new TypeError(`dropout: expected a floating-point input, got ${ins[0].dtype}`);
    dropoutAxes(a, ins[0].shape.length);
    return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
  },
  view: (x, a) => (a.p === 0 || (!a.training && a.mode === 'upscale_in_train')
    ? { shape: [...x.shape], strides: [...x.strides], offset: x.offset } : null),
  encode: (a, ins) => {
    const axes = dropoutAxes(a, ins[0].shape.length);
    return [a.p as number, a.training ? 1 : 0, DROPOUT_MODES.indexOf(a.mode as string), axes.length, ...axes];
  },
  gradReads: { outputs: [0] },
  // The kernel keeps no mask, so kept elements are read off the output (out != 0). That is exact
  // except where x itself was 0 and was kept: there the gradient comes out 0 instead of 1/(1-p).
  grad: ({ outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const p = attrs.p as number, up = attrs.mode === 'upscale_in_train';
    if (p === 0 || (!attrs.training && up)) return [g];
    if (!attrs.training) return [k.scale(g!, 1 - p)];
    if (p === 1) return [k.zerosLike(g!)];
    const kept = k.cmp('not_equal', out, k.scalar(0, out));
    return [k.mask(kept, up ? k.scale(g!, 1 / (1 - p)) : g!)];
  },
  api: { names: ['nn.functional.dropout'] },
});

// ---- the generator ------------------------------------------------------------------------

function runControl(kernel: string, attrs: number[], out?: number): void {
  const id = native.kernelId(kernel);
  if (id < 0) throw new Error(`${kernel}: native kernel missing (rebuild the addon)`);
  native.run(id, [], out === undefined ? [] : [out], attrs);
}

function toSeed(fn: string, s: unknown): bigint {
  if (typeof s === 'bigint') return s;
  if (typeof s === 'number' && Number.isSafeInteger(s)) return BigInt(s);
  throw new TypeError(`${fn}: seed must be an integer, got ${String(s)}`);
}

/** The generator's state: its seed and how many Philox blocks have been drawn since. */
export interface GeneratorState { readonly seed: bigint; readonly offset: bigint }

/** The default CPU generator (Paddle's core.Generator surface, minus devices). */
export class Generator {
  /** Reseeds and rewinds; returns this generator (paddle.seed's result). */
  manual_seed(s: number | bigint): Generator {
    runControl('generator_seed', u64Halves(toSeed('manual_seed', s)));
    return this;
  }
  initial_seed(): number | bigint {
    const s = this.get_state().seed;
    return s <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(s) : s;
  }
  get_state(): GeneratorState {
    const h = native.empty(DTYPE_CODE.int64, [2]);
    try {
      runControl('generator_get_state', [], h);
      const v = new BigInt64Array(native.toBytes(h));
      return Object.freeze({ seed: BigInt.asUintN(64, v[0]), offset: BigInt.asUintN(64, v[1]) });
    } finally {
      native.release(h);
    }
  }
  set_state(st: GeneratorState): Generator {
    if (!st || typeof st.seed !== 'bigint' || typeof st.offset !== 'bigint') throw new TypeError('set_state: expected a GeneratorState from get_state()');
    runControl('generator_set_state', [...u64Halves(st.seed), ...u64Halves(st.offset)]);
    return this;
  }
}

const defaultGenerator = new Generator();

/**
 * Seeds the global generator; every random op after it repeats the same values.
 * @example paddle.seed(102); const a = paddle.rand([3]); paddle.seed(102); const b = paddle.rand([3]); // a equals b
 */
export function seed(s: number | bigint): Generator { return defaultGenerator.manual_seed(s); }
/** [state] of the (only) CPU generator, for set_rng_state. */
export function get_rng_state(_device?: unknown): GeneratorState[] { return [defaultGenerator.get_state()]; }
export function set_rng_state(states: readonly GeneratorState[], _device?: unknown): void {
  if (!Array.isArray(states) || states.length !== 1) throw new TypeError('set_rng_state: expected the list returned by get_rng_state()');
  defaultGenerator.set_state(states[0]);
}
export function default_generator(): Generator { return defaultGenerator; }

/** Public functions that are not ops, by dotted path below `paddle`. */
export const randomPublic: Readonly<Record<string, (...args: never[]) => unknown>> = {
  seed, get_rng_state, set_rng_state,
};
