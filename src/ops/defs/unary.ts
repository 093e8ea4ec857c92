// Elementwise unary ops (Paddle 2.6 names and public paths). Native: native/kernels/unary.cc.
//
// Dtypes, following Paddle 2.6's kernels:
//  - float only (integer or bool input raises a TypeError naming the op): exp, log, sqrt, rsqrt,
//    sin, cos, tanh, sigmoid, relu, gelu, silu, erf, floor, ceil, round. (Paddle 2.6 registers
//    these for float16/bfloat16/float32/float64; floor/ceil/round on ints came later.)
//  - every dtype but bool, same dtype out: abs, neg, square, sign (integers wrap on overflow).
//  - any dtype, bool out: logical_not, isnan, isinf, isfinite.
// NaN propagates through every float op (sign(NaN) and relu(NaN) are NaN); round is half away
// from zero; float32 exp/tanh/sigmoid/silu/gelu(approximate) use vectorized approximations
// within 2 ulp of the correctly rounded result.
import { registerOp } from '../registry.js';
import { requireFloat } from '../infer.js';
import type { ApiSpec, AttrSpec, OpDef, TensorMeta } from '../types.js';

type Kind = 'float' | 'numeric' | 'predicate';

function unary(name: string, kind: Kind, extra: { api?: ApiSpec; attrs?: AttrSpec[]; inplace?: boolean } = {}): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: extra.attrs ?? [],
    outputs: ['out'],
    infer: ([x]): TensorMeta[] => {
      if (kind === 'float') requireFloat(name, x.dtype);
      else if (kind === 'numeric' && x.dtype === 'bool') throw new TypeError(`${name}: expected a numeric input, got bool`);
      return [{ dtype: kind === 'predicate' ? 'bool' : x.dtype, shape: x.shape }];
    },
    inplace: extra.inplace,
    api: extra.api,
  });
}

/** Ops Paddle exposes only under paddle.nn.functional, plus a Tensor method of the same name. */
const functional = (name: string, method = true): ApiSpec => ({ names: [`nn.functional.${name}`], methods: method ? [name] : [] });

export const abs = unary('abs', 'numeric');
export const neg = unary('neg', 'numeric');
export const square = unary('square', 'numeric');
export const sign = unary('sign', 'numeric');

export const exp = unary('exp', 'float', { inplace: true });
export const log = unary('log', 'float');
export const sqrt = unary('sqrt', 'float', { inplace: true });
export const rsqrt = unary('rsqrt', 'float', { inplace: true });
export const sin = unary('sin', 'float');
export const cos = unary('cos', 'float');
export const tanh = unary('tanh', 'float', { inplace: true, api: { names: ['tanh', 'nn.functional.tanh'], methods: ['tanh'] } });
export const sigmoid = unary('sigmoid', 'float', { api: functional('sigmoid') });
export const relu = unary('relu', 'float', { inplace: true, api: functional('relu') });
export const silu = unary('silu', 'float', { api: functional('silu', false) });
/** gelu(x, approximate=False): exact 0.5x(1 + erf(x/sqrt 2)), or the tanh form when approximate. */
export const gelu = unary('gelu', 'float', { attrs: [{ name: 'approximate', type: 'bool', default: false }], api: functional('gelu', false) });
export const erf = unary('erf', 'float');
export const floor = unary('floor', 'float', { inplace: true });
export const ceil = unary('ceil', 'float', { inplace: true });
export const round = unary('round', 'float', { inplace: true });

export const logical_not = unary('logical_not', 'predicate');
export const isnan = unary('isnan', 'predicate');
export const isinf = unary('isinf', 'predicate');
export const isfinite = unary('isfinite', 'predicate');
