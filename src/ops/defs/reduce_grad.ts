// Gradient rules of amax/amin (reduce_more.ts), p_norm/frobenius_norm (reduce_norm.ts) and the
// order statistics median/nanmedian/quantile/mode (reduce_order.ts), with public ops through
// GradKit.
//
// The order statistics have no index output to route gradients with (mode has), so the rules
// find the elements an output came from by value: the largest element <= out and the smallest
// >= out of each slice are the two order statistics it interpolates (the same element when out
// is one). Elements equal to such a value share its gradient equally, as amax/amin do.
import { type GradKit, kit } from '../grad_kit.js';
import { reduceAxes } from '../infer.js';
import type { Attrs, OpDef } from '../types.js';
import { normAxis } from '../../tensor/shape.js';
import { scatterAlong } from './scan_grad.js';

type Rule = Pick<OpDef, 'grad' | 'gradReads'>;

const axesOf = (op: string, axis: Attrs[string], rank: number): number[] => reduceAxes(op, axis, rank).filter((a) => a < rank);

/** m (bool, x's shape) as x's dtype divided by its count per slice: equal shares of 1 (0 where the slice has none). */
function shares<T>(k: GradKit<T>, m: T, like: T, axes: readonly number[]): T {
  const f = k.cast(m, k.dtype(like));
  const n = k.op('maximum', [k.sum(f, axes, true), k.scalar(1, like)]);
  return k.div(f, n);
}

/** amax/amin: Paddle splits the gradient equally between the elements equal to the extremum. */
const extremum = (op: string): Rule => ({
  grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf(op, attrs.axis, xs.length);
    const w = shares(k, k.cmp('equal', x!, k.unreduce(out, xs, axes)), x!, axes);
    return [k.mul(k.unreduce(g!, xs, axes), w)];
  },
  gradReads: { inputs: [0], outputs: [0] },
});

/** p_norm: g sign(x) |x|^(p-1) / out^(p-1); inf norms send g (signed) to the extreme |x|; p = 0 has none. */
const pNorm: Rule = {
  grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!), p = attrs.porder as number;
    const axes = attrs.asvector ? [...xs.keys()] : axesOf('p_norm', attrs.axis, xs.length);
    if (p === 0) return [k.zerosOf(x!)];
    const gu = k.unreduce(g!, xs, axes), ou = k.unreduce(out, xs, axes);
    const sgn = k.op('sign', [x!]);
    if (!Number.isFinite(p)) {
      const ax = k.op('abs', [x!]);
      return [k.mul(k.mul(gu, sgn), shares(k, k.cmp('equal', ax, ou), x!, axes))];
    }
    // Paddle keeps the denominator away from 0 with epsilon.
    const den = k.op('maximum', [ou, k.scalar(attrs.epsilon as number, ou)]);
    if (p === 2) return [k.div(k.mul(gu, x!), den)];
    const num = k.mul(sgn, k.op('elementwise_pow', [k.op('abs', [x!]), k.scalar(p - 1, x!)]));
    return [k.div(k.mul(gu, num), k.op('elementwise_pow', [den, k.scalar(p - 1, x!)]))];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

const frobenius: Rule = {
  grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = attrs.reduce_all ? [...xs.keys()] : axesOf('frobenius_norm', attrs.axis, xs.length);
    return [k.div(k.mul(k.unreduce(g!, xs, axes), x!), k.unreduce(out, xs, axes))];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

/** The slice's largest element <= v and smallest >= v (v in keepdim form, NaNs never chosen). */
function around<T>(k: GradKit<T>, x: T, v: T, axes: readonly number[]): [T, T] {
  const lo = k.op('amax', [k.where(k.cmp('less_equal', x, v), x, k.scalar(-Infinity, x))], { axis: [...axes], keepdim: true });
  const hi = k.op('amin', [k.where(k.cmp('greater_equal', x, v), x, k.scalar(Infinity, x))], { axis: [...axes], keepdim: true });
  return [lo, hi];
}

/** Gradient of (1 - w) lo + w hi, where lo and hi are the slice's elements of those values. */
function interp<T>(k: GradKit<T>, x: T, gu: T, lo: T, hi: T, w: number, axes: readonly number[]): T {
  const part = (v: T) => shares(k, k.cmp('equal', x, v), x, axes);
  if (w === 0) return k.mul(gu, part(lo));
  return k.mul(gu, k.add(k.scale(part(lo), 1 - w), k.scale(part(hi), w)));
}

/** median: 'avg' averages the two middle order statistics (the same one for odd counts), 'min' takes the lower. */
const median: Rule = {
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = attrs.axis === null ? [...xs.keys()] : [normAxis(attrs.axis as number, xs.length, 'median')].filter((a) => a < xs.length);
    const gu = k.unreduce(k.cast(g!, k.dtype(x!)), xs, axes);
    const low = (t: typeof gu) => k.op('median', [t], { axis: attrs.axis, keepdim: true, mode: 'min' });
    const lo = low(x!);
    if (attrs.mode === 'min') return [interp(k, x!, gu, lo, lo, 0, axes)];
    // The upper middle of x is minus the lower middle of -x.
    const hi = k.neg(low(k.neg(x!)));
    return [interp(k, x!, gu, lo, hi, 0.5, axes)];
  },
  gradReads: { inputs: [0] },
};

const nanmedian: Rule = {
  grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf('nanmedian', attrs.axis, xs.length);
    const [lo, hi] = around(k, x!, k.unreduce(out, xs, axes), axes);
    return [interp(k, x!, k.unreduce(g!, xs, axes), lo, hi, 0.5, axes)];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

/** quantile: output q interpolates order statistics floor(q (n-1)) and the next with weight frac(q (n-1)). */
const quantile: Rule = {
  grad: ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf('quantile', attrs.axis, xs.length);
    const n = axes.reduce((a, d) => a * xs[d], 1);
    const qs = attrs.q as number[];
    let dx: ReturnType<typeof k.zerosOf> | null = null;
    qs.forEach((q, i) => {
      const pick = (t: typeof out) => k.op('squeeze', [k.op('slice', [t], { axes: [0], starts: [i], ends: [i + 1] })], { axis: [0] });
      const pos = q * (n - 1);
      const [lo, hi] = around(k, x!, k.unreduce(pick(out), xs, axes), axes);
      const d = interp(k, x!, k.unreduce(pick(g!), xs, axes), lo, hi, pos - Math.floor(pos), axes);
      dx = dx ? k.add(dx, d) : d;
    });
    return [dx];
  },
  gradReads: { inputs: [0], outputs: [0] },
};

/** mode: the value's gradient goes to the occurrence its index names. */
const mode: Rule = {
  grad: ({ inputs: [x], outputs: [, idx], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    if (!g) return [k.zerosOf(x!)];
    if (xs.length === 0) return [g];
    const axis = normAxis(attrs.axis as number, xs.length, 'mode');
    const keep = (t: typeof idx) => (attrs.keepdim ? t : k.op('unsqueeze', [t], { axis: [axis] }));
    return [scatterAlong(k, keep(g), keep(idx), axis, xs)];
  },
  gradReads: { outputs: [1] },
};

export const REDUCE_GRADS: Readonly<Record<string, Rule>> = {
  amax: extremum('amax'), amin: extremum('amin'), p_norm: pNorm, frobenius_norm: frobenius, median, nanmedian, quantile, mode,
};
