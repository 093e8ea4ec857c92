// Paddle 2.6 matrix helpers that finish the inplace list (issue 7): addmm (+ addmm_), renorm
// (+ renorm_), t (+ t_), Tensor.fill_diagonal_ and fill_diagonal_tensor (+ _). Kernels:
// native/kernels/matrix_more.cc (addmm on the shared packed GEMM, renorm, fill_diagonal);
// fill_diagonal_tensor is diagonal_scatter's kernel under Paddle's op name and attribute names.
// Hand-bound public names (Tensor.fill_diagonal_, atleast_*d, amp.debugging) are in
// matrix_more_api.ts.
import { registerOp } from '../registry.js';
import { kit } from '../grad_kit.js';
import type { GradContext } from '../types.js';
import type { GradOps } from '../grad_kit.js';
import type { Attrs, TensorMeta } from '../types.js';
import { type Dim, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import { intAttr, metaOf, staticDim } from './shape_common.js';

const known = (a: Dim, b: Dim): boolean => typeof a !== 'number' || typeof b !== 'number' || a === b;

function floatAttr(op: string, name: string, v: Attrs[string]): number {
  if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`${op}: '${name}' must be a number, got ${JSON.stringify(v)}`);
  return v;
}

// ---- addmm ---------------------------------------------------------------------------------

/** Paddle's addmm checks (python/paddle/tensor/math.py): 2-D x and y, a 1-D or 2-D input that broadcasts to [M, N]. */
function addmmShape(input: TensorMeta, x: TensorMeta, y: TensorMeta): Dim[] {
  const op = 'addmm';
  const shapes = `input ${shapeStr(input.shape)}, x ${shapeStr(x.shape)}, y ${shapeStr(y.shape)}`;
  if (x.dtype !== y.dtype || x.dtype !== input.dtype) throw new TypeError(`${op}: input, x and y must share a dtype, got ${input.dtype}, ${x.dtype}, ${y.dtype}`);
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new TypeError(`${op}: unsupported dtype ${x.dtype} (float32 or float64)`);
  if (x.shape.length !== 2 || y.shape.length !== 2) throw new ShapeError(`${op}: the dimension of x and y should be 2, got ${shapes}`);
  const [m, k] = x.shape, [ky, n] = y.shape;
  if (!known(k, ky)) throw new ShapeError(`${op}: x's width must equal y's height, got ${shapes}`);
  const fits = (d: Dim, want: Dim) => d === 1 || known(d, want);
  const r = input.shape.length;
  if (r === 2) {
    if (!fits(input.shape[0], m) || !fits(input.shape[1], n))
      throw new ShapeError(`${op}: input must broadcast to the product's shape [${m}, ${n}] (each dim equal or 1), got ${shapes}`);
  } else if (r === 1) {
    if (!fits(input.shape[0], n)) throw new ShapeError(`${op}: a 1-D input must have size ${n} or 1 (the product's columns), got ${shapes}`);
  } else throw new ShapeError(`${op}: the dimension of input should be 2 or 1, got ${shapes}`);
  return [m, n];
}

/** addmm(input, x, y, beta=1.0, alpha=1.0) = beta * input + alpha * (x @ y). Kernel attrs: [beta, alpha]. */
export const addmm = registerOp({
  name: 'addmm',
  // addmm_: the GEMM writes C while it still reads input (broadcast), so the result goes
  // through a temporary copied into input by set_value (OpDef.inplace 'assign').
  inplace: 'assign',
  inputs: [{ name: 'input' }, { name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'beta', type: 'float', default: 1.0 }, { name: 'alpha', type: 'float', default: 1.0 }],
  outputs: ['out'],
  infer: ([input, x, y], a) => {
    floatAttr('addmm', 'beta', a.beta);
    floatAttr('addmm', 'alpha', a.alpha);
    return [metaOf(x, addmmShape(input, x, y))];
  },
  gradReads: { inputs: [1, 2] },
  grad: addmmGrad,
});

function addmmGrad<T>({ inputs: [input, x, y], outGrads: [g], attrs, needsGrad }: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const k = kit(ops);
  const beta = Number(attrs.beta), alpha = Number(attrs.alpha);
  const scaled = (t: T, s: number) => (s === 1 ? t : k.scale(t, s));
  const di = needsGrad[0] ? k.sumTo(scaled(g!, beta), k.shape(input!)) : null;
  const dx = needsGrad[1] ? scaled(k.op('matmul', [g!, y!], { transpose_y: true }), alpha) : null;
  const dy = needsGrad[2] ? scaled(k.op('matmul', [x!, g!], { transpose_x: true }), alpha) : null;
  return [di, dx, dy];
}

// ---- renorm --------------------------------------------------------------------------------

/** Paddle's renorm scales a slice by max_norm / (norm + 1e-6) (phi renorm kernels). */
export const RENORM_EPS = 1e-6;

function renormParams(x: TensorMeta, a: Attrs): { axis: number; p: number; maxNorm: number } {
  const op = 'renorm';
  if (x.dtype !== 'float32' && x.dtype !== 'float64' && x.dtype !== 'float16' && x.dtype !== 'bfloat16')
    throw new TypeError(`${op}: unsupported dtype ${x.dtype} (a floating type)`);
  const r = x.shape.length;
  const ax = intAttr(op, 'axis', a.axis);
  if (ax >= r || ax < -r) throw new RangeError(`${op}: the axis ${ax} should be less than the shape's size ${r} of x ${shapeStr(x.shape)} (expected [${-r}, ${r}))`);
  const p = floatAttr(op, 'p', a.p), maxNorm = floatAttr(op, 'max_norm', a.max_norm);
  if (!(p > 0) || !Number.isFinite(p)) throw new RangeError(`${op}: p must be a positive finite number, got ${p}`);
  if (!(maxNorm >= 0)) throw new RangeError(`${op}: max_norm must be non-negative, got ${maxNorm}`);
  return { axis: normAxis(ax, r, op), p, maxNorm };
}

/**
 * renorm(x, p, axis, max_norm): every slice x[.., i, ..] along axis whose p-norm (over all its
 * elements) exceeds max_norm is scaled to norm max_norm. Kernel attrs: [p, axis (normalized), max_norm].
 */
export const renorm = registerOp({
  name: 'renorm',
  inplace: 'assign',   // renorm_: every output element depends on its whole slice's norm
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'p', type: 'float' }, { name: 'axis', type: 'int' }, { name: 'max_norm', type: 'float' }],
  outputs: ['out'],
  infer: ([x], a) => { renormParams(x, a); return [metaOf(x, [...x.shape])]; },
  encode: (a, [x]) => { const r = renormParams(x, a); return [r.p, r.axis, r.maxNorm]; },
  gradReads: { inputs: [0] },
  grad: renormGrad,
});

/**
 * out = s(n) x with n the slice's p-norm and s = max_norm / (n + eps) where n > max_norm, else 1:
 * dx = s g + x' where x' = [n > max_norm] * (-max_norm / (n + eps)^2) * sum(g x) * dn/dx and
 * dn/dx = sign(x) |x|^(p-1) / n^(p-1) (the sums run over each slice).
 */
function renormGrad<T>({ inputs: [x], outGrads: [g], attrs }: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const k = kit(ops);
  const { axis, p, maxNorm } = renormParams(ops.meta(x!), attrs);
  const rank = k.rank(x!);
  const others = [...Array(rank).keys()].filter((i) => i !== axis);
  const pow = (t: T, e: number) => (e === 1 ? t : k.op('elementwise_pow', [t, k.scalar(e, t)]));
  const ax = k.op('abs', [x!]);
  const n = pow(k.sum(pow(ax, p), others, true), 1 / p);
  const over = k.cmp('greater_than', n, k.scalar(maxNorm, n));
  const ne = k.scale(n, 1, RENORM_EPS);
  const s = k.where(over, k.div(k.scalar(maxNorm, n), ne), k.scalar(1, n));
  const coef = k.mask(over, k.div(k.scalar(-maxNorm, n), k.square(ne)));
  const dot = k.sum(k.mul(g!, x!), others, true);
  const dn = p === 1 ? k.op('sign', [x!]) : k.div(k.mul(k.op('sign', [x!]), pow(ax, p - 1)), pow(n, p - 1));
  return [k.add(k.mul(g!, s), k.mul(k.mul(coef, dot), dn))];
}

// ---- t -------------------------------------------------------------------------------------

function tCheck(x: TensorMeta): void {
  if (x.shape.length > 2)
    throw new ShapeError(`t: Input(input) only support N-D (N<=2) tensor, but received length of Input(input) is ${x.shape.length} (x ${shapeStr(x.shape)}). Perhaps you can use paddle.tensor.transpose() instead.`);
}

/** t(input): the transpose of a 0-D, 1-D (both returned as they are) or 2-D tensor; always a view. */
export const t = registerOp({
  name: 't',
  inplace: 'rebind',   // t_: x itself becomes the transposed view (Paddle's inplace view op)
  inputs: [{ name: 'input' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => { tCheck(x); return [metaOf(x, [...x.shape].reverse())]; },
  view: (x) => ({ shape: [...x.shape].reverse(), strides: [...x.strides].reverse(), offset: x.offset }),
  gradReads: {},
  grad: ({ outGrads: [g] }, ops) => [kit(ops).op('t', [g!])],
});

// ---- fill_diagonal / fill_diagonal_tensor --------------------------------------------------

function fillDiagCheck(x: TensorMeta, a: Attrs): void {
  const op = 'fill_diagonal';
  if (x.shape.length < 2) throw new ShapeError(`${op}: Tensor dims should >= 2, got x ${shapeStr(x.shape)}`);
  if (x.shape.length > 2 && x.shape.some((d) => d !== x.shape[0]))
    throw new ShapeError(`${op}: Tensor dims should be equal while input dims > 2, got x ${shapeStr(x.shape)}`);
  for (const [i, d] of x.shape.entries()) staticDim(op, d, `dim ${i}`);
  // A float attribute as in Paddle (the public Tensor.fill_diagonal_ turns a bool value into 0/1).
  if (typeof a.value !== 'number') throw new TypeError(`${op}: value must be a number, got ${JSON.stringify(a.value)}`);
  intAttr(op, 'offset', a.offset);
  if (typeof a.wrap !== 'boolean') throw new TypeError(`${op}: wrap must be a bool, got ${JSON.stringify(a.wrap)}`);
}

/**
 * fill_diagonal(x, value=0, offset=0, wrap=False): Paddle's op behind Tensor.fill_diagonal_.
 * Elements i * (1 + d1 + d1 d2 + ...) of the flat tensor (whose column plus offset stays in the
 * row) get value; a tall 2-D matrix restarts below with wrap, and more than 2 dims always wrap
 * (Paddle's Python passes wrap=True there). Kernel attrs: [value, offset, wrap].
 */
export const fill_diagonal = registerOp({
  name: 'fill_diagonal',
  inplace: true,   // the kernel copies x and then writes the chosen positions: same index in and out
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'value', type: 'float', default: 0 }, { name: 'offset', type: 'int', default: 0 }, { name: 'wrap', type: 'bool', default: false }],
  outputs: ['out'],
  infer: ([x], a) => { fillDiagCheck(x, a); return [metaOf(x, [...x.shape])]; },
  encode: (a) => [Number(a.value), Number(a.offset), a.wrap ? 1 : 0],
  gradReads: {},
  // The filled positions no longer depend on x: the gradient is g with them zeroed (Paddle's fill_diagonal_grad).
  grad: ({ outGrads: [g], attrs }, ops) => [kit(ops).op('fill_diagonal', [g!], { value: 0, offset: attrs.offset, wrap: attrs.wrap })],
  api: { names: [], methods: [] },
});

function fillDiagTensorPlan(x: TensorMeta, y: TensorMeta, a: Attrs): number[] {
  const op = 'fill_diagonal_tensor';
  const r = x.shape.length;
  if (r < 2) throw new ShapeError(`${op}: Tensor dims should >= 2, got x ${shapeStr(x.shape)}`);
  const d1 = intAttr(op, 'dim1', a.dim1), d2 = intAttr(op, 'dim2', a.dim2);
  for (const [nm, d] of [['dim1', d1], ['dim2', d2]] as const)
    if (d < -r || d >= r) throw new RangeError(`${op}: ${nm} ${d} should be in [${-r}, ${r}) for x ${shapeStr(x.shape)}`);
  const a1 = normAxis(d1, r, op), a2 = normAxis(d2, r, op);
  if (a1 === a2) throw new ShapeError(`${op}: dim1 and dim2 must differ, both are ${a1}`);
  const off = intAttr(op, 'offset', a.offset);
  if (y.dtype !== x.dtype) throw new TypeError(`${op}: y dtype ${y.dtype} differs from x dtype ${x.dtype}`);
  const m = staticDim(op, x.shape[a1], 'dim1'), n = staticDim(op, x.shape[a2], 'dim2');
  const len = Math.max(0, Math.min(Math.min(m, m + off), Math.min(n, n - off)));
  const want: Dim[] = [...x.shape.filter((_, i) => i !== a1 && i !== a2), len];
  if (y.shape.length !== want.length || y.shape.some((d, i) => !known(d, want[i])))
    throw new ShapeError(`${op}: the y shape should be ${shapeStr(want)} (x ${shapeStr(x.shape)} without dim1 ${a1} and dim2 ${a2}, then the diagonal), got ${shapeStr(y.shape)}`);
  return [off, a1, a2];
}

/**
 * fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1): x with the diagonal of (dim1, dim2) set
 * to y. The same op as diagonal_scatter (its kernel, which already copies x and writes the
 * diagonal, inplace-safe), under Paddle's name, argument names and messages.
 */
export const fill_diagonal_tensor = registerOp({
  name: 'fill_diagonal_tensor',
  kernel: 'diagonal_scatter',
  inplace: true,
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'offset', type: 'int', default: 0 }, { name: 'dim1', type: 'int', default: 0 }, { name: 'dim2', type: 'int', default: 1 }],
  outputs: ['out'],
  infer: ([x, y], a) => { fillDiagTensorPlan(x, y, a); return [metaOf(x, [...x.shape])]; },
  encode: (a, [x, y]) => fillDiagTensorPlan(x, y, a),
  gradReads: {},
  grad: ({ inputs: [, y], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const dx = needsGrad[0] ? k.op('fill_diagonal_tensor', [g!, k.zerosOf(y!)], attrs) : null;
    const dy = needsGrad[1] ? k.op('diagonal', [g!], { offset: attrs.offset, axis1: attrs.dim1, axis2: attrs.dim2 }) : null;
    return [dx, dy];
  },
  api: { names: [], methods: ['fill_diagonal_tensor'] },
});
