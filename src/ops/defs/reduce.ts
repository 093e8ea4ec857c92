// Reductions and cumsum (Paddle 2.6 signatures). Native: native/kernels/reduce.cc, reduce_stat.cc.
//
// `axis` is an int, a list of ints, or None (= every axis; so is an empty list). Axes are
// normalised here and encoded as [n_axes, axis..., keepdim, op-specific...].
// Dtypes: sum keeps the input dtype except bool/int32 -> int64 (or `dtype` when given); prod
// keeps it (or `dtype`); mean, logsumexp, var, std need floating inputs; max, min, argmax,
// argmin, prod and cumsum reject bool; any/all take every dtype and return bool.
// Empty reductions: sum 0, prod 1, mean/var/std NaN, logsumexp -inf, any False, all True;
// max/min/argmax/argmin raise. max/min propagate NaN; argmax/argmin return the first NaN.
import { registerOp } from '../registry.js';
import { reduceAxes, reducedShape, requireFloat } from '../infer.js';
import { type DType, toDType } from '../../tensor/dtype.js';
import { type Dim, isStatic, normAxis, numel, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { AttrSpec, Attrs, OpDef, TensorMeta } from '../types.js';
import { type GradKit, kit } from '../grad_kit.js';

const AXIS: AttrSpec = { name: 'axis', type: 'int[]', default: null };
const KEEPDIM: AttrSpec = { name: 'keepdim', type: 'bool', default: false };
const DTYPE: AttrSpec = { name: 'dtype', type: 'dtype', default: null };

type InputRule = 'any' | 'nonbool' | 'float';

function checkInput(op: string, x: TensorMeta, rule: InputRule): void {
  if (rule === 'float') requireFloat(op, x.dtype);
  else if (rule === 'nonbool' && x.dtype === 'bool') throw new TypeError(`${op}: bool input is not supported (dtype bool)`);
}

function checkAxisValue(op: string, axis: Attrs[string], listOk: boolean): void {
  if (axis === null) return;
  const ok = Number.isInteger(axis) || (listOk && Array.isArray(axis) && axis.every((a) => Number.isInteger(a)));
  if (!ok) throw new TypeError(`${op}: axis must be an int${listOk ? ', a list of ints' : ''} or None, got ${JSON.stringify(axis)}`);
}

/** Normalised axes that exist in a tensor of `rank` (a 0-dim tensor accepts axis 0 / -1 and reduces nothing). */
function axesOf(op: string, axis: Attrs[string], rank: number): number[] {
  checkAxisValue(op, axis, true);
  return reduceAxes(op, axis, rank).filter((a) => a < rank);
}

/** Rejects reducing an empty range to non-empty outputs, when the shape is known. */
function rejectEmpty(op: string, shape: readonly Dim[], axes: readonly number[], what: string): void {
  if (!isStatic(shape)) return;
  const red = axes.reduce((n, a) => n * (shape[a] as number), 1);
  const out = shape.reduce((n: number, d, i) => (axes.includes(i) ? n : n * (d as number)), 1);
  if (red === 0 && out > 0) throw new ShapeError(`${op}: cannot ${what} over an empty dimension (input shape ${shapeStr(shape)}, axes [${axes.join(', ')}])`);
}

interface ReduceSpec {
  attrs: AttrSpec[];
  input: InputRule;
  outDtype?: (x: DType, a: Attrs) => DType;
  /** Attributes appended after [n_axes, axes..., keepdim]. */
  extra?: (a: Attrs) => number[];
  emptyRaises?: boolean;
  grad?: OpDef['grad'];
  gradReads?: OpDef['gradReads'];
}

function reduction(name: string, spec: ReduceSpec): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: spec.attrs,
    outputs: ['out'],
    infer: ([x], a) => {
      checkInput(name, x, spec.input);
      const axes = axesOf(name, a.axis, x.shape.length);
      if (spec.emptyRaises) rejectEmpty(name, x.shape, axes, 'reduce');
      const dtype = spec.outDtype ? spec.outDtype(x.dtype, a) : x.dtype;
      return [{ dtype, shape: reducedShape(x.shape, axes, a.keepdim as boolean) }];
    },
    encode: (a, [x]) => {
      const axes = axesOf(name, a.axis, x.shape.length);
      return [axes.length, ...axes, a.keepdim ? 1 : 0, ...(spec.extra?.(a) ?? [])];
    },
    grad: spec.grad,
    gradReads: spec.gradReads,
  });
}

/**
 * A reduction's rule from its local derivative: g (and out) are brought back to x's shape
 * (keepdim form, then broadcast) and `local` combines them elementwise.
 */
function reduceGrad(name: string, local: <T>(k: GradKit<T>, x: T, out: T, g: T) => T): OpDef['grad'] {
  return ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf(name, attrs.axis, xs.length);
    return [local(k, x!, k.unreduce(out, xs, axes), k.unreduce(k.cast(g!, k.dtype(x!)), xs, axes))];
  };
}
/** max/min: Paddle gives the gradient to every element equal to the result (ties each get all of it). */
const argExtremumGrad = (name: string) => reduceGrad(name, (k, x, out, g) => k.mask(k.cmp('equal', x, out), g));

const dtypeOr = (a: Attrs, d: DType): DType => (a.dtype === null ? d : toDType(a.dtype as string));

/** sum(x, axis=None, dtype=None, keepdim=False). */
export const sum = reduction('sum', {
  attrs: [AXIS, DTYPE, KEEPDIM],
  input: 'any',
  outDtype: (x, a) => dtypeOr(a, x === 'bool' || x === 'int32' ? 'int64' : x),
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    return [k.unreduce(k.cast(g!, k.dtype(x!)), xs, axesOf('sum', attrs.axis, xs.length))];
  },
  gradReads: {},
});
/** mean(x, axis=None, keepdim=False). */
export const mean = reduction('mean', {
  attrs: [AXIS, KEEPDIM], input: 'float', gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf('mean', attrs.axis, xs.length);
    const count = axes.reduce((n, a) => n * xs[a], 1);
    return [k.unreduce(k.scale(g!, 1 / Math.max(count, 1)), xs, axes)];
  },
});
/** max(x, axis=None, keepdim=False). */
export const max = reduction('max', { attrs: [AXIS, KEEPDIM], input: 'nonbool', emptyRaises: true, grad: argExtremumGrad('max'), gradReads: { inputs: [0], outputs: [0] } });
/** min(x, axis=None, keepdim=False). */
export const min = reduction('min', { attrs: [AXIS, KEEPDIM], input: 'nonbool', emptyRaises: true, grad: argExtremumGrad('min'), gradReads: { inputs: [0], outputs: [0] } });
/** prod(x, axis=None, keepdim=False, dtype=None). */
export const prod = reduction('prod', {
  attrs: [AXIS, KEEPDIM, DTYPE], input: 'nonbool', outDtype: (x, a) => dtypeOr(a, x),
  // out / x: like Paddle's prod_grad, undefined (inf/NaN) where x is 0.
  gradReads: { inputs: [0], outputs: [0] },
  grad: reduceGrad('prod', (k, x, out, g) => k.mul(g, k.div(k.cast(out, k.dtype(x)), x))),
});
/** any(x, axis=None, keepdim=False). */
export const any = reduction('any', { attrs: [AXIS, KEEPDIM], input: 'any', outDtype: () => 'bool' });
/** all(x, axis=None, keepdim=False). */
export const all = reduction('all', { attrs: [AXIS, KEEPDIM], input: 'any', outDtype: () => 'bool' });
/** logsumexp(x, axis=None, keepdim=False): log(sum(exp(x))), computed as max + log(sum(exp(x - max))). */
export const logsumexp = reduction('logsumexp', {
  attrs: [AXIS, KEEPDIM], input: 'float',
  gradReads: { inputs: [0], outputs: [0] },
  grad: reduceGrad('logsumexp', (k, x, out, g) => k.mul(g, k.exp(k.sub(x, out)))),
});
/** var and std: d var = 2 (x - mean) / (n - unbiased); d std = d var / (2 std). */
function spreadGrad(name: 'var' | 'std'): OpDef['grad'] {
  return ({ inputs: [x], outputs: [out], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axes = axesOf(name, attrs.axis, xs.length);
    const n = axes.reduce((a, ax) => a * xs[ax], 1) - (attrs.unbiased ? 1 : 0);
    const xc = k.sub(x!, k.op('mean', [x], { axis: axes, keepdim: true }));
    let d = k.mul(k.unreduce(g!, xs, axes), k.scale(xc, (name === 'var' ? 2 : 1) / n));
    if (name === 'std') d = k.div(d, k.unreduce(out, xs, axes));
    return [d];
  };
}

/** var(x, axis=None, unbiased=True, keepdim=False). */
export const variance = reduction('var', {
  attrs: [AXIS, { name: 'unbiased', type: 'bool', default: true }, KEEPDIM],
  input: 'float',
  extra: (a) => [a.unbiased ? 1 : 0],
  grad: spreadGrad('var'),
  gradReads: { inputs: [0] },
});
/** std(x, axis=None, unbiased=True, keepdim=False). */
export const std = reduction('std', {
  attrs: [AXIS, { name: 'unbiased', type: 'bool', default: true }, KEEPDIM],
  input: 'float',
  extra: (a) => [a.unbiased ? 1 : 0],
  grad: spreadGrad('std'),
  gradReads: { inputs: [0], outputs: [0] },
});

function argReduction(name: 'argmax' | 'argmin'): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'axis', type: 'int', default: null }, KEEPDIM, { name: 'dtype', type: 'dtype', default: 'int64' }],
    outputs: ['out'],
    infer: ([x], a) => {
      checkInput(name, x, 'nonbool');
      checkAxisValue(name, a.axis, false);
      const dtype = toDType(a.dtype as string);
      if (dtype !== 'int32' && dtype !== 'int64') throw new TypeError(`${name}: dtype must be int32 or int64, got ${dtype}`);
      const rank = x.shape.length;
      if (a.axis === null) {
        rejectEmpty(name, x.shape, [...Array(rank).keys()], 'take the index');
        return [{ dtype, shape: a.keepdim ? new Array<Dim>(rank).fill(1) : [] }];
      }
      const axes = [normAxis(a.axis as number, rank, name)].filter((ax) => ax < rank);
      rejectEmpty(name, x.shape, axes, 'take the index');
      return [{ dtype, shape: reducedShape(x.shape, axes, a.keepdim as boolean) }];
    },
    encode: (a, [x]) => [a.axis === null ? NaN : normAxis(a.axis as number, x.shape.length, name), a.keepdim ? 1 : 0],
  });
}

/** argmax(x, axis=None, keepdim=False, dtype='int64'): axis=None indexes the flattened input. */
export const argmax = argReduction('argmax');
/** argmin(x, axis=None, keepdim=False, dtype='int64'). */
export const argmin = argReduction('argmin');

/**
 * cumsum(x, axis=None, dtype=None): running sum along axis; axis=None flattens first (1-D output).
 * @example paddle.cumsum(x, -1)
 */
export const cumsum = registerOp({
  name: 'cumsum',
  inplace: 'assign',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int', default: null }, DTYPE],
  outputs: ['out'],
  infer: ([x], a) => {
    if (x.dtype === 'bool' && a.dtype === null) throw new TypeError('cumsum: bool input needs a dtype (dtype bool)');
    checkAxisValue('cumsum', a.axis, false);
    const dtype = dtypeOr(a, x.dtype);
    if (a.axis === null) return [{ dtype, shape: [numel(x.shape)] }];
    normAxis(a.axis as number, x.shape.length, 'cumsum');
    return [{ dtype, shape: x.shape }];
  },
  encode: (a, [x]) => [a.axis === null ? NaN : normAxis(a.axis as number, x.shape.length, 'cumsum')],
  gradReads: {},
  // A reversed running sum of g (flattened first when axis is None).
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axis = attrs.axis === null ? 0 : normAxis(attrs.axis as number, xs.length, 'cumsum');
    const gx = k.cast(g!, k.dtype(x!));
    const rev = k.op('flip', [k.op('cumsum', [k.op('flip', [gx], { axis: [axis] })], { axis })], { axis: [axis] });
    return [k.reshape(rev, xs)];
  },
});
