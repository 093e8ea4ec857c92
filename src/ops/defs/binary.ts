// Elementwise binary ops with broadcasting. Inputs are promoted to one dtype by the API layer,
// so kernels see equal dtypes. Native: native/kernels/binary_arith.cc, binary_compare.cc.
//
// Semantics (Paddle 2.6):
//  - divide on integers truncates toward zero (Paddle's divide kernel; the Python `/` operator
//    casts ints to float32 before calling it). floor_divide rounds toward -inf, remainder
//    (paddle.mod, paddle.floor_mod) takes the sign of the divisor, both also on floats.
//    Integer division or remainder by zero raises "<op>: integer division by zero".
//  - elementwise_pow is paddle.pow: a scalar exponent becomes a 0-dim tensor through the API's
//    scalar promotion. Integer powers are exact; 0 to a negative integer power raises.
//  - maximum/minimum return NaN when either input is NaN.
//  - comparisons and logical_and/or/xor return bool; logical ops treat nonzero as true.
//  - bool inputs: add (or), multiply (and), comparisons and logical ops only.
import { registerOp } from '../registry.js';
import { broadcastBinary } from '../infer.js';
import type { ApiSpec, OpDef, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';

type Out = 'same' | 'bool';

function binary(name: string, out: Out, extra: { bool?: boolean; api?: Omit<ApiSpec, 'promote'>; inplace?: OpDef['inplace']; grad?: OpDef['grad']; gradReads?: OpDef['gradReads'] } = {}): OpDef {
  const shapeRule = broadcastBinary(name, out);
  return registerOp({
    name,
    inputs: [{ name: 'x' }, { name: 'y' }],
    attrs: [],
    outputs: ['out'],
    infer: (ins): TensorMeta[] => {
      if (extra.bool === false && ins[0].dtype === 'bool') throw new TypeError(`${name}: bool inputs are not supported (dtype bool)`);
      return shapeRule(ins);
    },
    api: { promote: true, ...extra.api },
    // Comparisons and logical ops: x becomes the bool result (Paddle 2.6's equal_, logical_and_).
    inplace: extra.inplace ?? (out === 'same' ? true : 'rebind'),
    grad: extra.grad,
    gradReads: extra.gradReads,
  });
}

// Gradient rules: each input's gradient is summed back to its own (pre-broadcast) shape by sumTo.
export const add = binary('add', 'same', {
  gradReads: {},
  grad: ({ inputs: [x, y], outGrads: [g] }, ops) => {
    const k = kit(ops);
    return [k.sumTo(g!, k.shape(x!)), k.sumTo(g!, k.shape(y!))];
  },
});
export const subtract = binary('subtract', 'same', {
  bool: false,
  gradReads: {},
  grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    return [k.sumTo(g!, k.shape(x!)), needsGrad[1] ? k.sumTo(k.neg(g!), k.shape(y!)) : null];
  },
});
export const multiply = binary('multiply', 'same', {
  gradReads: { inputs: [0, 1] },
  grad: ({ inputs: [x, y], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    return [needsGrad[0] ? k.sumTo(k.mul(g!, y!), k.shape(x!)) : null, needsGrad[1] ? k.sumTo(k.mul(g!, x!), k.shape(y!)) : null];
  },
});
export const divide = binary('divide', 'same', {
  bool: false,
  gradReads: { inputs: [1], outputs: [0] },
  // d(x/y)/dy = -out / y.
  grad: ({ inputs: [x, y], outputs: [out], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const gx = k.div(g!, y!);
    return [needsGrad[0] ? k.sumTo(gx, k.shape(x!)) : null, needsGrad[1] ? k.sumTo(k.neg(k.mul(gx, out)), k.shape(y!)) : null];
  },
});
export const floor_divide = binary('floor_divide', 'same', { bool: false });
export const remainder = binary('remainder', 'same', {
  bool: false,
  api: { names: ['remainder', 'mod', 'floor_mod'], methods: ['remainder', 'mod', 'floor_mod'] },
});
export const elementwise_pow = binary('elementwise_pow', 'same', {
  bool: false, api: { names: ['pow'], methods: ['pow'] }, inplace: 'assign', gradReads: { inputs: [0, 1], outputs: [0] },
  // d/dx = y * x^(y-1); d/dy = out * log(x) (NaN for x < 0, as in Paddle).
  grad: ({ inputs: [x, y], outputs: [out], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const gx = needsGrad[0] ? k.sumTo(k.mul(g!, k.mul(y!, k.op('elementwise_pow', [x!, k.scale(y!, 1, -1)]))), k.shape(x!)) : null;
    const gy = needsGrad[1] ? k.sumTo(k.mul(g!, k.mul(out, k.op('log', [x!]))), k.shape(y!)) : null;
    return [gx, gy];
  },
});
/** Paddle's rule: the gradient goes to x where x > y (maximum) / x < y (minimum), else to y. */
function extremumGrad(cmp: 'greater_than' | 'less_than'): OpDef['grad'] {
  return ({ inputs: [x, y], outGrads: [g] }, ops) => {
    const k = kit(ops);
    const m = k.cmp(cmp, x!, y!);
    const zero = k.scalar(0, g!);
    return [k.sumTo(k.where(m, g!, zero), k.shape(x!)), k.sumTo(k.where(m, zero, g!), k.shape(y!))];
  };
}
export const maximum = binary('maximum', 'same', { bool: false, inplace: false, grad: extremumGrad('greater_than'), gradReads: { inputs: [0, 1] } });
export const minimum = binary('minimum', 'same', { bool: false, inplace: false, grad: extremumGrad('less_than'), gradReads: { inputs: [0, 1] } });

export const equal = binary('equal', 'bool');
export const not_equal = binary('not_equal', 'bool');
export const less_than = binary('less_than', 'bool');
export const less_equal = binary('less_equal', 'bool');
export const greater_than = binary('greater_than', 'bool');
export const greater_equal = binary('greater_equal', 'bool');
export const logical_and = binary('logical_and', 'bool');
export const logical_or = binary('logical_or', 'bool');
export const logical_xor = binary('logical_xor', 'bool');
