// Gradient rules of the ops in unary_special.ts, kept apart so that file stays the forward
// definitions. Each rule is written with public registry ops through GradKit (so it is
// differentiable again under create_graph and can emit PIR later) and follows Paddle 2.6's
// backward kernels at the kinks: the side a piecewise op's mask takes at a breakpoint is the one
// Paddle's `*_grad` functor takes.
//
// Derivatives with no op of their own are built below from public ops: trigamma (digamma's,
// there is no polygamma op) and i1 (i0's, there is no i1 op).
import { type GradKit, kit } from '../grad_kit.js';
import type { OpDef } from '../types.js';

interface Rule { grad: OpDef['grad']; reads: OpDef['gradReads'] }

/** d(in) = g * f'(x, out), f' built from public ops. */
function chain(local: <T>(k: GradKit<T>, x: T, out: T, attrs: Readonly<Record<string, unknown>>) => T, reads: OpDef['gradReads']): Rule {
  return {
    grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
      const k = kit(ops);
      return [k.mul(g!, local(k, x!, out, attrs))];
    },
    reads,
  };
}
const X = { inputs: [0] }, OUT = { outputs: [0] };

/** g where m(x, out), else 0 (the derivative of piecewise-identity ops). */
function pass(m: <T>(k: GradKit<T>, x: T, out: T, attrs: Readonly<Record<string, unknown>>) => T, reads: OpDef['gradReads']): Rule {
  return {
    grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => { const k = kit(ops); return [k.mask(m(k, x!, out, attrs), g!)]; },
    reads,
  };
}

const c = <T>(k: GradKit<T>, v: number, like: T): T => k.scalar(v, like);
const and = <T>(k: GradKit<T>, a: T, b: T): T => k.op('logical_and', [a, b]);
const sqrt = <T>(k: GradKit<T>, x: T): T => k.op('sqrt', [x]);
const recip = <T>(k: GradKit<T>, x: T): T => k.op('reciprocal', [x]);
const sigmoid = <T>(k: GradKit<T>, x: T): T => k.op('sigmoid', [x]);
/** 1 where cond else v (the "linear side" of an activation). */
const oneOr = <T>(k: GradKit<T>, cond: T, v: T): T => k.where(cond, c(k, 1, v), v);
const num = (a: Readonly<Record<string, unknown>>, n: string): number => a[n] as number;

/**
 * trigamma(x) = psi'(x): for x >= 0.5, shift x up by 10 with psi'(x) = psi'(x+1) + 1/x^2, then
 * the asymptotic series 1/z + 1/(2z^2) + sum_k B_2k / z^(2k+1) through B_12 (next term < 1e-15
 * relative at z >= 10.5); below 0.5 the reflection psi'(1-x) + psi'(x) = pi^2 / sin^2(pi x).
 */
const BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730];
export function trigamma<T>(k: GradKit<T>, x: T): T {
  const small = k.cmp('less_than', x, c(k, 0.5, x));
  const y = k.where(small, k.scale(x, -1, 1), x);  // >= 0.5 everywhere
  let acc = k.zerosLike(y);
  let z = y;
  for (let i = 0; i < 10; i++) { acc = k.add(acc, recip(k, k.square(z))); z = k.scale(z, 1, 1); }
  const iz = recip(k, z), iz2 = k.square(iz);
  // 1/z (1 + u sum_k B_2k u^(k-1)) with u = 1/z^2, the sum in Horner form.
  let poly = k.full([], BERNOULLI[BERNOULLI.length - 1], k.dtype(x));
  for (let i = BERNOULLI.length - 2; i >= 0; i--) poly = k.scale(k.mul(poly, iz2), 1, BERNOULLI[i]);
  const series = k.add(k.mul(iz, k.scale(k.mul(poly, iz2), 1, 1)), k.scale(iz2, 0.5));
  const big = k.add(acc, series);
  const s = k.op('sin', [k.scale(x, Math.PI)]);
  const reflected = k.sub(k.div(c(k, Math.PI * Math.PI, x), k.square(s)), big);
  return k.where(small, reflected, big);
}

/** Where i1 switches from its power series to the asymptotic expansion. */
const I1_SWITCH = 25;
/** 1 / (k! (k+1)!), k = 0..40: the power series of i1(x) / (x/2) in t = x^2 / 4 (term 40 < 1e-16 relative at |x| = 25). */
const I1_SERIES = (() => {
  const c = [1];
  for (let k = 1; k <= 40; k++) c.push(c[k - 1] / (k * (k + 1)));
  return c;
})();
/** Hankel's expansion of i1: e^x / sqrt(2 pi x) sum_k c_k x^-k, c_k = (-1)^k prod_{j<=k} (4 - (2j-1)^2) / (k! 8^k), 14 terms. */
const I1_ASYMPTOTIC = (() => {
  const c = [1];
  for (let k = 1; k <= 14; k++) c.push(-c[k - 1] * (4 - (2 * k - 1) ** 2) / (k * 8));
  return c;
})();

/**
 * i1(x), the modified Bessel function of order 1 (i0' = i1): the power series up to |x| = 25,
 * Hankel's asymptotic expansion above; each branch sees only inputs on its side, so the unused
 * one never makes inf/NaN (also under create_graph).
 */
export function i1<T>(k: GradKit<T>, x: T): T {
  const lim = c(k, I1_SWITCH, x);
  const small = k.cmp('less_equal', k.op('abs', [x]), lim);
  const xs = k.op('minimum', [k.op('maximum', [x, c(k, -I1_SWITCH, x)]), lim]);
  const t = k.scale(k.square(xs), 0.25);
  let s = k.full([], I1_SERIES[I1_SERIES.length - 1], k.dtype(x));
  for (let i = I1_SERIES.length - 2; i >= 0; i--) s = k.scale(k.mul(s, t), 1, I1_SERIES[i]);
  const series = k.mul(k.scale(xs, 0.5), s);
  const xl = k.op('maximum', [k.op('abs', [x]), lim]);
  const u = recip(k, xl);
  let p = k.full([], I1_ASYMPTOTIC[I1_ASYMPTOTIC.length - 1], k.dtype(x));
  for (let i = I1_ASYMPTOTIC.length - 2; i >= 0; i--) p = k.scale(k.mul(p, u), 1, I1_ASYMPTOTIC[i]);
  const big = k.mul(k.op('sign', [x]), k.div(k.mul(k.exp(xl), p), sqrt(k, k.scale(xl, 2 * Math.PI))));
  return k.where(small, series, big);
}

const LN2 = Math.LN2, LN10 = Math.LN10;

export const SPECIAL_GRADS: Readonly<Record<string, Rule>> = {
  expm1: chain((k, _x, out) => k.scale(out, 1, 1), OUT),
  log1p: chain((k, x) => recip(k, k.scale(x, 1, 1)), X),
  log2: chain((k, x) => recip(k, k.scale(x, LN2)), X),
  log10: chain((k, x) => recip(k, k.scale(x, LN10)), X),
  reciprocal: chain((k, _x, out) => k.neg(k.square(out)), OUT),
  tan: chain((k, _x, out) => k.scale(k.square(out), 1, 1), OUT),
  asin: chain((k, x) => recip(k, sqrt(k, k.scale(k.square(x), -1, 1))), X),
  acos: chain((k, x) => k.neg(recip(k, sqrt(k, k.scale(k.square(x), -1, 1)))), X),
  atan: chain((k, x) => recip(k, k.scale(k.square(x), 1, 1)), X),
  sinh: chain((k, x) => k.op('cosh', [x]), X),
  cosh: chain((k, x) => k.op('sinh', [x]), X),
  asinh: chain((k, x) => recip(k, sqrt(k, k.scale(k.square(x), 1, 1))), X),
  acosh: chain((k, x) => recip(k, sqrt(k, k.scale(k.square(x), 1, -1))), X),
  atanh: chain((k, x) => recip(k, k.scale(k.square(x), -1, 1)), X),
  // erfinv' = sqrt(pi)/2 exp(erfinv(x)^2).
  erfinv: chain((k, _x, out) => k.scale(k.exp(k.square(out)), Math.sqrt(Math.PI) / 2), OUT),
  lgamma: chain((k, x) => k.op('digamma', [x]), X),
  digamma: chain((k, x) => trigamma(k, x), X),
  i0: chain((k, x) => i1(k, x), X),
  // trunc is piecewise constant; frac = x - trunc(x) passes the gradient through.
  trunc: { grad: ({ inputs: [x] }, ops) => [kit(ops).zerosOf(x!)], reads: {} },
  frac: { grad: ({ outGrads: [g] }, _ops) => [g], reads: {} },
  // sinc' = (cos(pi x) - sinc(x)) / x, 0 at x = 0.
  sinc: chain((k, x, out) => {
    const zero = k.cmp('equal', x, c(k, 0, x));
    const safe = k.where(zero, c(k, 1, x), x);
    return k.mask(k.op('logical_not', [zero]), k.div(k.sub(k.op('cos', [k.scale(x, Math.PI)]), out), safe));
  }, { inputs: [0], outputs: [0] }),
  // logit' = 1 / (x (1 - x)); with eps the clamped region has zero gradient (Paddle's logit_grad).
  logit: {
    grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
      const k = kit(ops), xx = x!;
      const d = k.div(g!, k.mul(xx, k.scale(xx, -1, 1)));
      const eps = attrs.eps as number | null;
      if (!eps) return [d];
      return [k.mask(and(k, k.cmp('greater_equal', xx, c(k, eps, xx)), k.cmp('less_equal', xx, c(k, 1 - eps, xx))), d)];
    },
    reads: X,
  },
  // Non-finite inputs were replaced by constants: no gradient there.
  nan_to_num: pass((k, x) => k.op('isfinite', [x]), X),
  relu6: pass((k, _x, out) => and(k, k.cmp('greater_than', out, c(k, 0, out)), k.cmp('less_than', out, c(k, 6, out))), OUT),
  leaky_relu: chain((k, x, _o, a) => oneOr(k, k.cmp('greater_than', x, c(k, 0, x)), k.full([], num(a, 'negative_slope'), k.dtype(x))), X),
  elu: chain((k, x, _o, a) => oneOr(k, k.cmp('greater_than', x, c(k, 0, x)), k.scale(k.exp(x), num(a, 'alpha'))), X),
  selu: chain((k, x, _o, a) => k.scale(oneOr(k, k.cmp('greater_than', x, c(k, 0, x)), k.scale(k.exp(x), num(a, 'alpha'))), num(a, 'scale')), X),
  celu: chain((k, x, _o, a) => oneOr(k, k.cmp('greater_than', x, c(k, 0, x)), k.exp(k.scale(x, 1 / num(a, 'alpha')))), X),
  // mish = x tanh(sp(x)), sp = softplus (x itself above 20, where sp' = 1).
  mish: chain((k, x) => {
    const t = k.op('tanh', [k.op('softplus', [x])]);
    const dsp = oneOr(k, k.cmp('greater_than', x, c(k, 20, x)), sigmoid(k, x));
    return k.add(t, k.mul(k.mul(x, k.scale(k.square(t), -1, 1)), dsp));
  }, X),
  softplus: chain((k, x, _o, a) => {
    const bx = k.scale(x, num(a, 'beta'));
    return oneOr(k, k.cmp('greater_than', bx, c(k, num(a, 'threshold'), x)), sigmoid(k, bx));
  }, X),
  softsign: chain((k, x) => recip(k, k.square(k.scale(k.op('abs', [x]), 1, 1))), X),
  // hardswish' = 0 below -3, 1 from 3 up, (2x + 3) / 6 between.
  hardswish: chain((k, x) => {
    const lin = k.mask(k.cmp('greater_than', x, c(k, -3, x)), k.scale(x, 1 / 3, 0.5));
    return oneOr(k, k.cmp('greater_equal', x, c(k, 3, x)), lin);
  }, X),
  hardsigmoid: {
    grad: ({ outputs: [out], outGrads: [g], attrs }, ops) => {
      const k = kit(ops);
      const inside = and(k, k.cmp('greater_than', out, c(k, 0, out)), k.cmp('less_than', out, c(k, 1, out)));
      return [k.mask(inside, k.scale(g!, num(attrs, 'slope')))];
    },
    reads: OUT,
  },
  hardtanh: pass((k, x, _o, a) => and(k, k.cmp('greater_than', x, c(k, num(a, 'min'), x)), k.cmp('less_than', x, c(k, num(a, 'max'), x))), X),
  thresholded_relu: pass((k, x, _o, a) => k.cmp('greater_than', x, c(k, num(a, 'threshold'), x)), X),
};
