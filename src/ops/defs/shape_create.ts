// Tensors made from attributes or from another tensor's shape: arange, zeros, ones, eye and the
// *_like family, plus tril/triu. zeros/ones reuse the `full` kernel; the rest live in
// native/kernels/shape_create.cc.
import { registerOp } from '../registry.js';
import { type DType, isFloating, toDType } from '../../tensor/dtype.js';
import { bf16ToNumber, f16ToNumber, numberToBf16, numberToF16 } from '../../tensor/half.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, OpDef } from '../types.js';
import { intAttr, intList, metaOf } from './shape_common.js';

const dtypeOr = (v: Attrs[string], dflt: DType): DType => (v === null || v === undefined ? dflt : toDType(String(v)));

function shapeOf(op: string, v: Attrs[string]): number[] {
  const shape = intList(op, 'shape', v);
  for (const d of shape) if (d < 0) throw new ShapeError(`${op}: shape ${JSON.stringify(v)} has a negative dim`);
  return shape;
}

/** zeros(shape, dtype=None) and ones(shape, dtype=None): the `full` kernel with a fixed value. */
function filled(name: string, value: number): OpDef {
  return registerOp({
    name,
    inputs: [],
    attrs: [{ name: 'shape', type: 'int[]' }, { name: 'dtype', type: 'dtype', default: null }],
    outputs: ['out'],
    infer: (_ins, a) => [{ dtype: dtypeOr(a.dtype, 'float32'), shape: shapeOf(name, a.shape) }],
    kernel: 'full',
    encode: () => [value],
    api: { names: [name], methods: [] },
  });
}
export const zeros = filled('zeros', 0);
export const ones = filled('ones', 1);

/** full_like(x, fill_value, dtype=None). Kernel attrs: [value]. */
export const full_like = registerOp({
  name: 'full_like',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'fill_value', type: 'scalar' }, { name: 'dtype', type: 'dtype', default: null }],
  outputs: ['out'],
  infer: ([x], a) => {
    if (typeof a.fill_value !== 'number' && typeof a.fill_value !== 'boolean') throw new TypeError(`full_like: fill_value must be a number or bool, got ${JSON.stringify(a.fill_value)}`);
    return [{ dtype: dtypeOr(a.dtype, x.dtype), shape: [...x.shape] }];
  },
  encode: (a) => [Number(a.fill_value)],
  api: { names: ['full_like'], methods: [] },
});

function filledLike(name: string, value: number): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'dtype', type: 'dtype', default: null }],
    outputs: ['out'],
    infer: ([x], a) => [{ dtype: dtypeOr(a.dtype, x.dtype), shape: [...x.shape] }],
    kernel: 'full_like',
    encode: () => [value],
    api: { names: [name], methods: [] },
  });
}
export const zeros_like = filledLike('zeros_like', 0);
export const ones_like = filledLike('ones_like', 1);

const ARANGE_DTYPES: DType[] = ['float32', 'float64', 'int32', 'int64', 'float16', 'bfloat16'];

/** Rounds like a store into dtype, so sizes are computed in the dtype's own arithmetic as Paddle does. */
function storeAs(d: DType, v: number): number {
  switch (d) {
    case 'float32': return Math.fround(v);
    case 'float16': return f16ToNumber(numberToF16(v));
    case 'bfloat16': return bf16ToNumber(numberToBf16(v));
    case 'float64': return v;
    default: return Math.trunc(v);
  }
}

/** arange's dtype, start/step in that dtype, and length (Paddle's GetSize, with its sign checks). */
function arangePlan(a: Attrs): { dtype: DType; start: number; step: number; size: number } {
  let start = a.start, end = a.end;
  const step0 = a.step;
  if (end === null) { end = start; start = 0; }
  for (const [k, v] of [['start', start], ['end', end], ['step', step0]] as const)
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`arange: ${k} must be a finite number, got ${JSON.stringify(v)}`);
  const ints = [start, end, step0].every((v) => Number.isInteger(v));
  const dtype = dtypeOr(a.dtype, ints ? 'int64' : 'float32');
  if (!ARANGE_DTYPES.includes(dtype)) throw new TypeError(`arange: dtype must be one of ${ARANGE_DTYPES.join(', ')}, got ${dtype}`);
  const s = storeAs(dtype, start as number), e = storeAs(dtype, end as number), st = storeAs(dtype, step0 as number);
  if (st === 0) throw new RangeError(`arange: step must not be 0 (start ${start}, end ${end}, step ${step0} as ${dtype})`);
  if (s < e && st < 0) throw new RangeError(`arange: step ${st} must be positive when start ${s} < end ${e}`);
  if (s > e && st > 0) throw new RangeError(`arange: step ${st} must be negative when start ${s} > end ${e}`);
  const size = isFloating(dtype)
    ? Math.ceil(Math.abs(storeAs(dtype, storeAs(dtype, e - s) / st)))
    : Math.floor((Math.abs(e - s) + Math.abs(st) - 1) / Math.abs(st));
  return { dtype, start: s, step: st, size };
}

/** arange(start=0, end=None, step=1, dtype=None). Kernel attrs: [start, step] (values accumulate, as in Paddle). */
export const arange = registerOp({
  name: 'arange',
  inputs: [],
  attrs: [
    { name: 'start', type: 'scalar', default: 0 }, { name: 'end', type: 'scalar', default: null },
    { name: 'step', type: 'scalar', default: 1 }, { name: 'dtype', type: 'dtype', default: null },
  ],
  outputs: ['out'],
  infer: (_ins, a) => { const p = arangePlan(a); return [{ dtype: p.dtype, shape: [p.size] }]; },
  encode: (a) => { const p = arangePlan(a); return [p.start, p.step]; },
  api: { names: ['arange'], methods: [] },
});

/** eye(num_rows, num_columns=None, dtype=None). No kernel attrs (the output shape says it all). */
export const eye = registerOp({
  name: 'eye',
  inputs: [],
  attrs: [{ name: 'num_rows', type: 'int' }, { name: 'num_columns', type: 'int', default: null }, { name: 'dtype', type: 'dtype', default: null }],
  outputs: ['out'],
  infer: (_ins, a) => {
    const rows = intAttr('eye', 'num_rows', a.num_rows);
    const cols = a.num_columns === null ? rows : intAttr('eye', 'num_columns', a.num_columns);
    if (rows < 0) throw new TypeError(`eye: num_rows should be a non-negative int, got ${rows}`);
    if (cols < 0) throw new TypeError(`eye: num_columns should be a non-negative int, got ${cols}`);
    return [{ dtype: dtypeOr(a.dtype, 'float32'), shape: [rows, cols] }];
  },
  encode: () => [],
  api: { names: ['eye'], methods: [] },
});

/** tril(x, diagonal=0) / triu(x, diagonal=0) over the last two dims. Kernel attrs: [diagonal]. */
function triangle(name: 'tril' | 'triu'): OpDef {
  return registerOp({
    name,
    inplace: 'assign',
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'diagonal', type: 'int', default: 0 }],
    outputs: ['out'],
    infer: ([x], a) => {
      intAttr(name, 'diagonal', a.diagonal);
      if (x.shape.length < 2) throw new ShapeError(`${name}: x must have at least 2 dims, got shape ${shapeStr(x.shape)}`);
      return [metaOf(x, [...x.shape])];
    },
    encode: (a) => [a.diagonal as number],
    gradReads: {},
    grad: ({ outGrads: [g], attrs }, ops) => [ops.run(name, [g], { diagonal: attrs.diagonal })[0]],
  });
}
export const tril = triangle('tril');
export const triu = triangle('triu');
