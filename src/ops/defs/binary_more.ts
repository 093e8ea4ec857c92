// More broadcasting binary (and a few ternary) elementwise ops, Paddle 2.6 names and argument
// order. Native: native/kernels/binary_more.cc (float math, selection, closeness) and
// native/kernels/binary_int.cc (gcd/lcm, bitwise ops, shifts).
//
// Dtypes (inputs are promoted to one dtype by the API layer, as for add):
//  - atan2: floats, and int32/int64 with a float64 result (Paddle's atan2 kernel).
//  - hypot, lerp, isclose, allclose: floats only.
//  - fmax, fmin, copysign, heaviside: every dtype but bool. fmax/fmin ignore a NaN operand
//    (NaN only when both are NaN); heaviside(x, y) = y where x == 0, else (x > 0), so NaN gives 0.
//  - gcd, lcm: integers (results are non-negative, wrapping on overflow; lcm(0, y) = 0).
//  - bitwise_and/or/xor/not: bool and integers. bitwise_left/right_shift: integers; a shift
//    count outside [0, bits) gives 0, or the sign fill for an arithmetic right shift.
//  - ldexp(x, y): x float (int32/int64 x gives float32), y int32/int64; x * 2^y.
//  - masked_fill(x, mask, value): any x dtype, bool mask broadcast with x, value a number or a
//    one-element tensor converted to x's dtype.
// Inplace variants (`<name>_`, x keeps its shape and dtype): hypot, copysign, gcd, lcm, the
// bitwise ops and shifts, ldexp, lerp, masked_fill.
import { registerOp } from '../registry.js';
import { requireFloat } from '../infer.js';
import { isFloating, type DType } from '../../tensor/dtype.js';
import { broadcastShapes, type Dim, numel, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { ApiSpec, AttrSpec, OpDef, TensorMeta } from '../types.js';
import { gradOf } from './binary_more_grad.js';

type Rule = 'float' | 'atan2' | 'nonbool' | 'int' | 'intbool';

const INTS: readonly DType[] = ['int8', 'uint8', 'int32', 'int64'];

function checkDtype(op: string, d: DType, rule: Rule): void {
  if (rule === 'float') requireFloat(op, d);
  else if (rule === 'atan2') { if (!isFloating(d) && d !== 'int32' && d !== 'int64') throw new TypeError(`${op}: expected float or int32/int64 inputs, got ${d}`); }
  else if (rule === 'nonbool') { if (d === 'bool') throw new TypeError(`${op}: bool inputs are not supported (dtype bool)`); }
  else if (rule === 'int') { if (!INTS.includes(d)) throw new TypeError(`${op}: expected integer inputs, got ${d}`); }
  else if (!INTS.includes(d) && d !== 'bool') throw new TypeError(`${op}: expected integer or bool inputs, got ${d}`);
}

function binary(name: string, rule: Rule, extra: { out?: (d: DType) => DType; attrs?: AttrSpec[]; api?: Omit<ApiSpec, 'promote'>; inplace?: boolean } = {}): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }, { name: 'y' }],
    attrs: extra.attrs ?? [],
    outputs: ['out'],
    infer: ([x, y]): TensorMeta[] => {
      if (x.dtype !== y.dtype) throw new TypeError(`${name}: inputs have different dtypes ${x.dtype} and ${y.dtype}`);
      checkDtype(name, x.dtype, rule);
      return [{ dtype: extra.out ? extra.out(x.dtype) : x.dtype, shape: broadcastShapes(x.shape, y.shape, name) }];
    },
    api: { promote: true, ...extra.api },
    inplace: extra.inplace,
    ...gradOf(name),  // binary_more_grad.ts
  });
}

export const atan2 = binary('atan2', 'atan2', { out: (d) => (isFloating(d) ? d : 'float64') });
export const hypot = binary('hypot', 'float', { inplace: true });
export const fmax = binary('fmax', 'nonbool');
export const fmin = binary('fmin', 'nonbool');
export const copysign = binary('copysign', 'nonbool', { inplace: true });
export const heaviside = binary('heaviside', 'nonbool');
export const gcd = binary('gcd', 'int', { inplace: true });
export const lcm = binary('lcm', 'int', { inplace: true });
export const bitwise_and = binary('bitwise_and', 'intbool', { inplace: true });
export const bitwise_or = binary('bitwise_or', 'intbool', { inplace: true });
export const bitwise_xor = binary('bitwise_xor', 'intbool', { inplace: true });
const IS_ARITH: AttrSpec = { name: 'is_arithmetic', type: 'bool', default: true };
export const bitwise_left_shift = binary('bitwise_left_shift', 'int', { attrs: [IS_ARITH], inplace: true });
export const bitwise_right_shift = binary('bitwise_right_shift', 'int', { attrs: [IS_ARITH], inplace: true });

/** bitwise_not(x): bool and integers. */
export const bitwise_not = registerOp({
  name: 'bitwise_not',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => { checkDtype('bitwise_not', x.dtype, 'intbool'); return [{ dtype: x.dtype, shape: x.shape }]; },
  inplace: true,
});

const CLOSE_ATTRS: AttrSpec[] = [
  { name: 'rtol', type: 'float', default: 1e-5 },
  { name: 'atol', type: 'float', default: 1e-8 },
  { name: 'equal_nan', type: 'bool', default: false },
];

function checkTol(op: string, a: Readonly<Record<string, unknown>>): void {
  for (const k of ['rtol', 'atol']) {
    const v = a[k];
    if (typeof v !== 'number' || !(v >= 0)) throw new RangeError(`${op}: ${k} must be a non-negative number, got ${JSON.stringify(v)}`);
  }
}

function closeness(name: 'isclose' | 'allclose'): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }, { name: 'y' }],
    attrs: CLOSE_ATTRS,
    outputs: ['out'],
    infer: ([x, y], a) => {
      if (x.dtype !== y.dtype) throw new TypeError(`${name}: inputs have different dtypes ${x.dtype} and ${y.dtype}`);
      requireFloat(name, x.dtype);
      checkTol(name, a);
      const shape = broadcastShapes(x.shape, y.shape, name);
      return [{ dtype: 'bool', shape: name === 'isclose' ? shape : [] }];
    },
    api: { promote: true },
  });
}
/** isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False): |x - y| <= atol + rtol |y| (equal infinities are close). */
export const isclose = closeness('isclose');
/** allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False): a 0-dim bool, isclose everywhere. */
export const allclose = closeness('allclose');

/** ldexp(x, y): x * 2^y for an integer exponent tensor y (broadcast). */
export const ldexp = registerOp({
  name: 'ldexp',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y]) => {
    if (!isFloating(x.dtype) && x.dtype !== 'int32' && x.dtype !== 'int64') throw new TypeError(`ldexp: x must be a float, int32 or int64 tensor, got ${x.dtype}`);
    if (y.dtype !== 'int32' && y.dtype !== 'int64') throw new TypeError(`ldexp: y must be an int32 or int64 tensor, got ${y.dtype}`);
    return [{ dtype: isFloating(x.dtype) ? x.dtype : 'float32', shape: broadcastShapes(x.shape, y.shape, 'ldexp') }];
  },
  inplace: true,
  ...gradOf('ldexp'),
});

/** lerp(x, y, weight): x + weight (y - x), the three broadcast together; weight may be a number. */
export const lerp = registerOp({
  name: 'lerp',
  inputs: [{ name: 'x' }, { name: 'y' }, { name: 'weight' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, y, w]) => {
    if (x.dtype !== y.dtype || x.dtype !== w.dtype) throw new TypeError(`lerp: inputs have different dtypes ${x.dtype}, ${y.dtype} and ${w.dtype}`);
    requireFloat('lerp', x.dtype);
    let shape: Dim[];
    try {
      shape = broadcastShapes(broadcastShapes(x.shape, y.shape, 'lerp'), w.shape, 'lerp');
    } catch {
      throw new ShapeError(`lerp: shapes ${shapeStr(x.shape)}, ${shapeStr(y.shape)} and ${shapeStr(w.shape)} cannot be broadcast`);
    }
    return [{ dtype: x.dtype, shape }];
  },
  api: { promote: true },
  inplace: true,
  ...gradOf('lerp'),
});

/** masked_fill(x, mask, value): value where mask is true, else x (x and mask broadcast). */
export const masked_fill = registerOp({
  name: 'masked_fill',
  inputs: [{ name: 'x' }, { name: 'mask' }, { name: 'value' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, mask, v]) => {
    if (mask.dtype !== 'bool') throw new TypeError(`masked_fill: mask must have dtype bool, got ${mask.dtype}`);
    const n = numel(v.shape);
    if (typeof n === 'number' && n !== 1) throw new ShapeError(`masked_fill: value must have one element, got shape ${shapeStr(v.shape)}`);
    return [{ dtype: x.dtype, shape: broadcastShapes(x.shape, mask.shape, 'masked_fill') }];
  },
  inplace: true,
  ...gradOf('masked_fill'),
});
