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

type Out = 'same' | 'bool';

function binary(name: string, out: Out, extra: { bool?: boolean; api?: Omit<ApiSpec, 'promote'>; inplace?: boolean } = {}): OpDef {
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
    inplace: extra.inplace ?? out === 'same',
  });
}

export const add = binary('add', 'same');
export const subtract = binary('subtract', 'same', { bool: false });
export const multiply = binary('multiply', 'same');
export const divide = binary('divide', 'same', { bool: false });
export const floor_divide = binary('floor_divide', 'same', { bool: false });
export const remainder = binary('remainder', 'same', {
  bool: false,
  api: { names: ['remainder', 'mod', 'floor_mod'], methods: ['remainder', 'mod', 'floor_mod'] },
});
export const elementwise_pow = binary('elementwise_pow', 'same', { bool: false, api: { names: ['pow'], methods: ['pow'] }, inplace: false });
export const maximum = binary('maximum', 'same', { bool: false, inplace: false });
export const minimum = binary('minimum', 'same', { bool: false, inplace: false });

export const equal = binary('equal', 'bool');
export const not_equal = binary('not_equal', 'bool');
export const less_than = binary('less_than', 'bool');
export const less_equal = binary('less_equal', 'bool');
export const greater_than = binary('greater_than', 'bool');
export const greater_equal = binary('greater_equal', 'bool');
export const logical_and = binary('logical_and', 'bool');
export const logical_or = binary('logical_or', 'bool');
export const logical_xor = binary('logical_xor', 'bool');
