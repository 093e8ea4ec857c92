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
import { type GradKit, kit } from '../grad_kit.js';

type Kind = 'float' | 'numeric' | 'predicate';

function unary(name: string, kind: Kind, extra: { api?: ApiSpec; attrs?: AttrSpec[]; inplace?: OpDef['inplace']; grad?: OpDef['grad']; gradReads?: OpDef['gradReads'] } = {}): OpDef {
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
    grad: extra.grad,
    gradReads: extra.gradReads,
  });
}

/**
 * An elementwise rule: d(in) = g * f'(x, out). `local` builds f' from x and out with public ops
 * (the kit k), so the rule is differentiable again under create_graph.
 */
function chain(local: <T>(k: GradKit<T>, x: T, out: T) => T): OpDef['grad'] {
  return ({ inputs: [x], outputs: [out], outGrads: [g] }, ops) => {
    const k = kit(ops);
    return [k.mul(g!, local(k, x!, out))];
  };
}
/** Piecewise-constant ops (floor, sign, ...): zero gradient, as Paddle's kernels give. */
const zeroGrad: OpDef['grad'] = ({ inputs: [x] }, ops) => [kit(ops).zerosOf(x!)];
const SQRT_2_PI = Math.sqrt(2 / Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Ops Paddle exposes only under paddle.nn.functional, plus a Tensor method of the same name. */
const functional = (name: string, method = true): ApiSpec => ({ names: [`nn.functional.${name}`], methods: method ? [name] : [] });

export const abs = unary('abs', 'numeric', { inplace: true, grad: chain((k, x) => k.op('sign', [x])), gradReads: { inputs: [0] } });
export const neg = unary('neg', 'numeric', { inplace: true, grad: ({ outGrads: [g] }, ops) => [kit(ops).neg(g!)], gradReads: {} });
export const square = unary('square', 'numeric', { inplace: true, grad: chain((k, x) => k.scale(x, 2)), gradReads: { inputs: [0] } });
export const sign = unary('sign', 'numeric', { grad: zeroGrad, gradReads: {} });

export const exp = unary('exp', 'float', { inplace: true, grad: chain((_k, _x, out) => out), gradReads: { outputs: [0] } });
export const log = unary('log', 'float', { inplace: true, grad: ({ inputs: [x], outGrads: [g] }, ops) => [kit(ops).div(g!, x!)], gradReads: { inputs: [0] } });
export const sqrt = unary('sqrt', 'float', { inplace: true, grad: ({ outputs: [out], outGrads: [g] }, ops) => { const k = kit(ops); return [k.div(k.scale(g!, 0.5), out)]; }, gradReads: { outputs: [0] } });
export const rsqrt = unary('rsqrt', 'float', { inplace: true, grad: chain((k, _x, out) => k.scale(k.mul(out, k.square(out)), -0.5)), gradReads: { outputs: [0] } });
export const sin = unary('sin', 'float', { inplace: true, grad: chain((k, x) => k.op('cos', [x])), gradReads: { inputs: [0] } });
export const cos = unary('cos', 'float', { inplace: true, grad: chain((k, x) => k.neg(k.op('sin', [x]))), gradReads: { inputs: [0] } });
export const tanh = unary('tanh', 'float', { inplace: true, api: { names: ['tanh', 'nn.functional.tanh'], methods: ['tanh'] }, grad: chain((k, _x, out) => k.scale(k.square(out), -1, 1)), gradReads: { outputs: [0] } });
export const sigmoid = unary('sigmoid', 'float', { inplace: 'assign', api: functional('sigmoid'), grad: chain((k, _x, out) => k.mul(out, k.scale(out, -1, 1))), gradReads: { outputs: [0] } });
export const relu = unary('relu', 'float', { inplace: true, api: functional('relu'), grad: ({ outputs: [out], outGrads: [g] }, ops) => { const k = kit(ops); return [k.mask(k.cmp('greater_than', out, k.scalar(0, out)), g!)]; }, gradReads: { outputs: [0] } });
export const silu = unary('silu', 'float', { api: functional('silu', false), grad: chain((k, x) => { const s = k.op('sigmoid', [x]); return k.mul(s, k.scale(k.mul(x, k.scale(s, -1, 1)), 1, 1)); }), gradReads: { inputs: [0] } });
/** d gelu: exact Phi(x) + x phi(x); tanh form 0.5(1+t) + 0.5x(1-t^2) sqrt(2/pi)(1 + 3c x^2). */
const geluGrad: OpDef['grad'] = ({ inputs: [x], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  const xx = x!;
  let d;
  if (attrs.approximate) {
    const inner = k.scale(k.mul(xx, k.scale(k.square(xx), 0.044715, 1)), SQRT_2_PI);
    const t = k.op('tanh', [inner]);
    const dInner = k.scale(k.scale(k.square(xx), 3 * 0.044715, 1), SQRT_2_PI);
    d = k.add(k.scale(t, 0.5, 0.5), k.mul(k.scale(xx, 0.5), k.mul(k.scale(k.square(t), -1, 1), dInner)));
  } else {
    const cdf = k.scale(k.op('erf', [k.scale(xx, Math.SQRT1_2)]), 0.5, 0.5);
    const pdf = k.scale(k.exp(k.scale(k.square(xx), -0.5)), INV_SQRT_2PI);
    d = k.add(cdf, k.mul(xx, pdf));
  }
  return [k.mul(g!, d)];
};
/** gelu(x, approximate=False): exact 0.5x(1 + erf(x/sqrt 2)), or the tanh form when approximate. */
export const gelu = unary('gelu', 'float', { attrs: [{ name: 'approximate', type: 'bool', default: false }], api: functional('gelu', false), grad: geluGrad, gradReads: { inputs: [0] } });
export const erf = unary('erf', 'float', { grad: chain((k, x) => k.scale(k.exp(k.neg(k.square(x))), 2 / Math.sqrt(Math.PI))), gradReads: { inputs: [0] } });
export const floor = unary('floor', 'float', { inplace: true, grad: zeroGrad, gradReads: {} });
export const ceil = unary('ceil', 'float', { inplace: true, grad: zeroGrad, gradReads: {} });
export const round = unary('round', 'float', { inplace: true, grad: zeroGrad, gradReads: {} });

export const logical_not = unary('logical_not', 'predicate', { inplace: 'rebind' });
export const isnan = unary('isnan', 'predicate');
export const isinf = unary('isinf', 'predicate');
export const isfinite = unary('isfinite', 'predicate');
