// paddle.static.data and paddle.static.create_parameter: the two ways a program gets values
// that are not op results (feeds and persistable parameters).
import { runOp } from '../ops/dispatch.js';
import { tensorType, type Value } from '../pir/index.js';
import { type DType, isFloating, toDType } from '../tensor/dtype.js';
import { to_tensor } from '../tensor/creation.js';
import { type Dim, shapeStr, SymDim, sym } from '../tensor/shape.js';
import { scope, Tensor, untracked } from '../tensor/tensor.js';
import { currentProgram, eagerly } from './mode.js';
import { global_scope } from './scope.js';

/** A dim of paddle.static.data: a size, -1 / null / undefined (a fresh symbol), a symbol name or a SymDim. */
export type DataDim = number | null | undefined | string | SymDim;

/**
 * A feed of the current program (pd_op.data). Unknown dims (None, -1) become symbols (s0, s1, ...),
 * so one program runs at any batch size.
 * @example const x = paddle.static.data('x', [null, 784], 'float32');
 */
export function data(name: string, shape: readonly DataDim[], dtype: DType | string = 'float32', _lod_level = 0): Value {
  if (typeof name !== 'string' || !name) throw new TypeError('paddle.static.data: name must be a non-empty string');
  if (!Array.isArray(shape)) throw new TypeError(`paddle.static.data('${name}'): shape must be a list of dims`);
  const prog = currentProgram();
  const prev = prog.valueByName(name);
  if (prev?.definingOp?.name === 'pd_op.data') throw new Error(`paddle.static.data: the program already has a feed named '${name}'`);
  const dims: Dim[] = shape.map((d, i) => {
    if (d === null || d === undefined || d === -1) return prog.newSymbol();
    if (d instanceof SymDim) return d;
    if (typeof d === 'string') return sym(d);
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 0) throw new TypeError(`paddle.static.data('${name}'): dim ${i} must be a size >= 0, -1 or None, got ${JSON.stringify(d)}`);
    return d;
  });
  const v = prog.builder.data(name, dims, toDType(dtype));
  prog._name(v, name);
  return v;
}

/** Fills a new parameter: a function of (shape, dtype), a Tensor or nested array to copy, or a number. */
export type Initializer = ((shape: number[], dtype: DType) => Tensor) | Tensor | number | unknown[];
export interface ParamAttr { readonly name?: string; readonly initializer?: Initializer; readonly trainable?: boolean }
export interface CreateParameterOptions {
  readonly name?: string;
  readonly attr?: ParamAttr | string;
  readonly is_bias?: boolean;
  readonly default_initializer?: Initializer;
}

let parameterCount = 0;

/**
 * A persistable parameter of the current program (builtin.parameter), initialized now, eagerly:
 * by attr.initializer, else default_initializer, else Paddle's defaults (zeros for a bias,
 * Xavier-uniform otherwise). Its tensor lives in paddle.static.global_scope() under its name.
 * @example
 *   const w = paddle.static.create_parameter([784, 10], 'float32', { name: 'fc.w_0' });
 *   const b = paddle.static.create_parameter([10], 'float32', { is_bias: true });
 */
export function create_parameter(shape: readonly number[], dtype: DType | string = 'float32', nameOrOptions?: string | CreateParameterOptions,
  attr?: ParamAttr | string, is_bias = false, default_initializer?: Initializer): Value {
  const o: CreateParameterOptions = typeof nameOrOptions === 'object' && nameOrOptions !== null
    ? nameOrOptions : { name: nameOrOptions ?? undefined, attr, is_bias, default_initializer };
  const a: ParamAttr = typeof o.attr === 'string' ? { name: o.attr } : o.attr ?? {};
  const dt = toDType(dtype);
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new TypeError(`paddle.static.create_parameter: shape must be a list of sizes >= 0, got ${JSON.stringify(shape)}`);
  }
  const bias = o.is_bias ?? false;
  const name = o.name ?? a.name ?? `create_parameter_${parameterCount++}.${bias ? 'b' : 'w'}_0`;
  const init = a.initializer ?? o.default_initializer;
  const t = untracked(() => scope(() => eagerly(() => initialize([...shape], dt, init, bias, name))));
  t.stop_gradient = a.trainable === false;
  t.name = name;
  try {
    return bindParameter(name, t);
  } finally {
    t.dispose();  // the scope holds its own view
  }
}

/**
 * Makes eager tensor `t` the parameter `name` of the current program: puts (a view of) it in the
 * global scope and returns the builtin.parameter value. Used by create_parameter and the Python bridge.
 */
export function bindParameter(name: string, t: Tensor): Value {
  global_scope().set(name, t);
  const prog = currentProgram();
  const v = prog.builder.parameter(name, tensorType(t.dtype, t.shape));
  prog._name(v, name);
  return v;
}

function initialize(shape: number[], dtype: DType, init: Initializer | undefined, bias: boolean, name: string): Tensor {
  let t: Tensor;
  if (typeof init === 'function') t = init(shape, dtype);
  else if (typeof init === 'number') t = runOp('full', [], { shape, fill_value: init, dtype })[0] as Tensor;
  else if (init instanceof Tensor || Array.isArray(init)) t = to_tensor(init as Tensor, dtype);
  else if (init !== undefined) throw new TypeError(`create_parameter('${name}'): unsupported initializer ${String(init)}`);
  else if (bias || !isFloating(dtype) || shape.includes(0)) t = runOp('full', [], { shape, fill_value: 0, dtype })[0] as Tensor;
  else {
    const [fanIn, fanOut] = fans(shape);
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    t = runOp('uniform', [], { shape, dtype, min: -limit, max: limit })[0] as Tensor;
  }
  if (!(t instanceof Tensor)) throw new TypeError(`create_parameter('${name}'): the initializer must return a Tensor`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
    throw new Error(`create_parameter('${name}'): the initializer gave shape ${shapeStr(t.shape)}, expected ${shapeStr(shape)}`);
  }
  return t.dtype === dtype ? t : (runOp('cast', [t], { dtype })[0] as Tensor);
}

/** Paddle's fan-in/fan-out: [in, out] for matrices, channels times receptive field for conv weights. */
function fans(shape: readonly number[]): [number, number] {
  if (shape.length === 0) return [1, 1];
  if (shape.length === 1) return [shape[0], shape[0]];
  if (shape.length === 2) return [shape[0], shape[1]];
  const rf = shape.slice(2).reduce((a, b) => a * b, 1);
  return [shape[1] * rf, shape[0] * rf];
}
