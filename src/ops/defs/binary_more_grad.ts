// Gradient rules of the differentiable ops in binary_more.ts (Paddle 2.6's backward kernels),
// written with public ops through GradKit. Every input gradient goes back through sumTo, which
// undoes broadcasting. Integer inputs (ldexp's exponent, masked_fill's mask) get none.
import { kit } from '../grad_kit.js';
import type { OpDef } from '../types.js';

interface Rule { grad: OpDef['grad']; gradReads: OpDef['gradReads'] }

/** fmax/fmin: x gets the gradient where it was chosen (x >= y, or y is NaN), y elsewhere. */
function fExtremum(cmp: 'greater_equal' | 'less_equal'): Rule {
  return {
    grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      const m = k.op('logical_or', [k.cmp(cmp, x!, y!), k.op('isnan', [y!])]);
      const zero = k.scalar(0, g!);
      return [needsGrad[0] ? k.sumTo(k.where(m, g!, zero), k.shape(x!)) : null, needsGrad[1] ? k.sumTo(k.where(m, zero, g!), k.shape(y!)) : null];
    },
    gradReads: { inputs: [0, 1] },
  };
}

export const BINARY_MORE_GRADS: Readonly<Record<string, Rule>> = {
  // atan2(x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2).
  atan2: {
    grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      const r = k.div(g!, k.add(k.square(x!), k.square(y!)));
      return [needsGrad[0] ? k.sumTo(k.mul(r, y!), k.shape(x!)) : null, needsGrad[1] ? k.sumTo(k.neg(k.mul(r, x!)), k.shape(y!)) : null];
    },
    gradReads: { inputs: [0, 1] },
  },
  // hypot = sqrt(x^2 + y^2): d/dx = x / out.
  hypot: {
    grad: ({ inputs: [x, y], outputs: [out], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      const r = k.div(g!, out);
      return [needsGrad[0] ? k.sumTo(k.mul(r, x!), k.shape(x!)) : null, needsGrad[1] ? k.sumTo(k.mul(r, y!), k.shape(y!)) : null];
    },
    gradReads: { inputs: [0, 1], outputs: [0] },
  },
  fmax: fExtremum('greater_equal'),
  fmin: fExtremum('less_equal'),
  // copysign(x, y) = |x| sign(y): d/dx = out / x (0 at x = 0, as Paddle), nothing to y.
  copysign: {
    grad: ({ inputs: [x, y], outputs: [out], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      const zero = k.cmp('equal', x!, k.scalar(0, x!));
      const safe = k.where(zero, k.scalar(1, x!), x!);
      const dx = k.mask(k.op('logical_not', [zero]), k.mul(g!, k.div(out, safe)));
      return [k.sumTo(dx, k.shape(x!)), needsGrad[1] ? k.zerosOf(y!) : null];
    },
    gradReads: { inputs: [0], outputs: [0] },
  },
  // A step function: zero gradient to both inputs.
  heaviside: { grad: ({ inputs: [x, y] }, ops) => { const k = kit(ops); return [k.zerosOf(x!), k.zerosOf(y!)]; }, gradReads: {} },
  // ldexp(x, y) = x 2^y is linear in x: d/dx = ldexp(g, y) (summed back over broadcasting).
  ldexp: {
    grad: ({ inputs: [x, y], outGrads: [g] }, ops) => { const k = kit(ops); return [k.sumTo(k.op('ldexp', [g!, y!]), k.shape(x!)), null]; },
    gradReads: { inputs: [1] },
  },
  // lerp = x + w (y - x): d/dx = 1 - w, d/dy = w, d/dw = y - x.
  lerp: {
    grad: ({ inputs: [x, y, w], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      return [
        needsGrad[0] ? k.sumTo(k.mul(g!, k.scale(w!, -1, 1)), k.shape(x!)) : null,
        needsGrad[1] ? k.sumTo(k.mul(g!, w!), k.shape(y!)) : null,
        needsGrad[2] ? k.sumTo(k.mul(g!, k.sub(y!, x!)), k.shape(w!)) : null,
      ];
    },
    gradReads: { inputs: [0, 1, 2] },
  },
  // masked_fill: x keeps the gradient where mask is false; value collects it where true.
  masked_fill: {
    grad: ({ inputs: [x, mask, v], outGrads: [g], needsGrad }, ops) => {
      const k = kit(ops);
      const zero = k.scalar(0, g!);
      const dx = needsGrad[0] ? k.sumTo(k.where(mask!, zero, g!), k.shape(x!)) : null;
      const dv = needsGrad[2] ? k.reshape(k.op('sum', [k.where(mask!, g!, zero)], { axis: null }), k.shape(v!)) : null;
      return [dx, null, dv];
    },
    gradReads: { inputs: [1] },
  },
};

/** The {grad, gradReads} pair of an op, spread into its registerOp call. */
export const gradOf = (name: string): Partial<Rule> => BINARY_MORE_GRADS[name] ?? {};
