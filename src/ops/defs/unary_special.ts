// More elementwise unary ops: inverse/hyperbolic trig, log/exp variants, special functions and
// the parametrized activations (Paddle 2.6 names, argument order and defaults).
// Native: native/kernels/unary_special.cc.
//
// Dtypes: float16/bfloat16/float32/float64 (halves compute in float32), same dtype out; integer
// or bool input raises a TypeError naming the op. trunc and frac also take int32/int64 (trunc
// is the identity there, frac is 0), as Paddle's kernels do.
// NaN propagates through every op (activations included: relu6(NaN) is NaN).
// Special values follow the C library (acosh(x<1), atanh(|x|>1) and log of negatives are NaN);
// digamma is +inf at 0 and the negative integers; erfinv(+-1) is +-inf and NaN outside [-1, 1].
// Ops marked `inplace` have Paddle's `<name>_` variant (paddle.tan_, x.tan_(), F.leaky_relu_).
import { registerOp } from '../registry.js';
import { requireFloat } from '../infer.js';
import type { ApiSpec, Attrs, AttrSpec, OpDef, TensorMeta } from '../types.js';
import type { DType } from '../../tensor/dtype.js';
import { SPECIAL_GRADS } from './unary_special_grad.js';

interface Extra {
  api?: ApiSpec;
  attrs?: AttrSpec[];
  /** Validates attributes (throws naming the op). */
  check?: (a: Attrs) => void;
  /** Native attribute layout (defaults to the attributes in order). */
  encode?: (a: Attrs, ins: readonly TensorMeta[]) => number[];
  ints?: boolean;
  /** Paddle has `<name>_` (output aliases x). */
  inplace?: OpDef['inplace'];
}

function special(name: string, extra: Extra = {}): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: extra.attrs ?? [],
    outputs: ['out'],
    infer: ([x], a): TensorMeta[] => {
      if (!(extra.ints && (x.dtype === 'int32' || x.dtype === 'int64'))) {
        if (extra.ints && !x.dtype.startsWith('float') && x.dtype !== 'bfloat16')
          throw new TypeError(`${name}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got ${x.dtype}`);
        requireFloat(name, x.dtype);
      }
      extra.check?.(a);
      return [{ dtype: x.dtype, shape: x.shape }];
    },
    encode: extra.encode,
    api: extra.api,
    inplace: extra.inplace,
    // Gradient rules live in unary_special_grad.ts (digamma and i0 have none: see there).
    grad: SPECIAL_GRADS[name]?.grad,
    gradReads: SPECIAL_GRADS[name]?.reads,
  });
}

const F = (name: string): ApiSpec => ({ names: [`nn.functional.${name}`], methods: [] });
const num = (op: string, a: Attrs, k: string): number => {
  const v = a[k];
  if (typeof v !== 'number') throw new TypeError(`${op}: '${k}' must be a number, got ${JSON.stringify(v)}`);
  return v;
};
const float = (name: string, def: number): AttrSpec => ({ name, type: 'float', default: def });
/** Ops with a Paddle inplace variant `<name>_`. */
const I: Extra = { inplace: true };

export const expm1 = special('expm1', I);
export const log1p = special('log1p', I);
export const log2 = special('log2', I);
export const log10 = special('log10', I);
export const reciprocal = special('reciprocal', I);
export const tan = special('tan', I);
export const asin = special('asin', I);
export const acos = special('acos', I);
export const atan = special('atan', I);
export const sinh = special('sinh', I);
export const cosh = special('cosh', I);
export const asinh = special('asinh', I);
export const acosh = special('acosh', I);
export const atanh = special('atanh', I);
export const erfinv = special('erfinv', I);
export const lgamma = special('lgamma', I);
export const digamma = special('digamma', I);
export const trunc = special('trunc', { ints: true, inplace: true });
export const frac = special('frac', { ints: true, inplace: true });
/** sinc(x) = sin(pi x) / (pi x), 1 at 0. */
export const sinc = special('sinc', { inplace: 'assign' });
/** i0: modified Bessel function of the first kind, order 0. */
export const i0 = special('i0', I);

/** logit(x, eps=None): log(x / (1 - x)) with x clamped to [eps, 1 - eps]; None (or 0): no clamp, NaN outside [0, 1]. */
export const logit = special('logit', {
  inplace: true,
  attrs: [{ name: 'eps', type: 'float', default: null }],
  check: (a) => {
    if (a.eps !== null && !(num('logit', a, 'eps') >= 0 && (a.eps as number) < 0.5)) throw new RangeError(`logit: eps must be in [0, 0.5), got ${a.eps}`);
  },
  encode: (a) => [a.eps === null ? 0 : (a.eps as number)],
});

/** Largest finite value of a float dtype (nan_to_num's posinf/neginf defaults). */
const FINITE_MAX: Partial<Record<DType, number>> = { float32: 3.4028234663852886e38, float64: Number.MAX_VALUE, float16: 65504, bfloat16: 3.3895313892515355e38 };

/** nan_to_num(x, nan=0.0, posinf=None, neginf=None): None means the dtype's largest (lowest) finite value. */
export const nan_to_num = special('nan_to_num', {
  inplace: true,
  attrs: [float('nan', 0), { name: 'posinf', type: 'float', default: null }, { name: 'neginf', type: 'float', default: null }],
  check: (a) => {
    num('nan_to_num', a, 'nan');
    if (a.posinf !== null) num('nan_to_num', a, 'posinf');
    if (a.neginf !== null) num('nan_to_num', a, 'neginf');
  },
  encode: (a, [x]) => {
    const big = FINITE_MAX[x.dtype] ?? Number.MAX_VALUE;
    return [a.nan as number, a.posinf === null ? big : (a.posinf as number), a.neginf === null ? -big : (a.neginf as number)];
  },
});

// Activations (paddle.nn.functional only).
export const relu6 = special('relu6', { api: F('relu6') });
export const leaky_relu = special('leaky_relu', { inplace: true, attrs: [float('negative_slope', 0.01)], api: F('leaky_relu'), check: (a) => { num('leaky_relu', a, 'negative_slope'); } });
export const elu = special('elu', { inplace: true, attrs: [float('alpha', 1.0)], api: F('elu'), check: (a) => { num('elu', a, 'alpha'); } });
export const selu = special('selu', {
  attrs: [float('scale', 1.0507009873554804934193349852946), float('alpha', 1.6732632423543772848170429916717)],
  api: F('selu'),
  check: (a) => {
    if (!(num('selu', a, 'scale') > 1)) throw new RangeError(`selu: scale must be greater than 1.0, got ${a.scale}`);
    if (!(num('selu', a, 'alpha') >= 0)) throw new RangeError(`selu: alpha must be no less than zero, got ${a.alpha}`);
  },
});
export const celu = special('celu', {
  inplace: true,
  attrs: [float('alpha', 1.0)],
  api: F('celu'),
  check: (a) => { if (num('celu', a, 'alpha') === 0) throw new RangeError('celu: alpha cannot be 0'); },
});
/** mish(x) = x tanh(softplus(x)), softplus(x) taken as x above 20. */
export const mish = special('mish', { api: F('mish') });
/** softplus(x, beta=1, threshold=20): log(1 + exp(beta x)) / beta, or x where beta x > threshold. */
export const softplus = special('softplus', {
  attrs: [float('beta', 1), float('threshold', 20)],
  api: F('softplus'),
  check: (a) => { if (num('softplus', a, 'beta') === 0) throw new RangeError('softplus: beta cannot be 0'); num('softplus', a, 'threshold'); },
});
export const softsign = special('softsign', { api: F('softsign') });
/** hardswish(x) = x min(max(x + 3, 0), 6) / 6. */
export const hardswish = special('hardswish', { api: F('hardswish') });
/** hardsigmoid(x, slope=0.1666667, offset=0.5) = max(0, min(1, slope x + offset)). */
export const hardsigmoid = special('hardsigmoid', {
  attrs: [float('slope', 0.1666667), float('offset', 0.5)],
  api: F('hardsigmoid'),
  check: (a) => { num('hardsigmoid', a, 'slope'); num('hardsigmoid', a, 'offset'); },
});
/** hardtanh(x, min=-1.0, max=1.0): x clipped to [min, max]. */
export const hardtanh = special('hardtanh', { inplace: true,
  attrs: [float('min', -1), float('max', 1)],
  api: F('hardtanh'),
  check: (a) => { num('hardtanh', a, 'min'); num('hardtanh', a, 'max'); },
});
/** thresholded_relu(x, threshold=1.0) = x where x > threshold, else 0. */
export const thresholded_relu = special('thresholded_relu', { inplace: true,
  attrs: [float('threshold', 1.0)],
  api: F('thresholded_relu'),
  check: (a) => { num('thresholded_relu', a, 'threshold'); },
});
