// Writing by integer indices (and take_along_axis, its gather): scatter, scatter_nd_add,
// scatter_nd, take_along_axis, put_along_axis, index_fill. Native:
// native/kernels/index_scatter.cc. Shapes are checked here and again in the kernel; index
// values (range, negatives) only in the kernel, which reads them before writing anything.
// Paddle 2.6 semantics: scatter takes no negative indices; the others wrap [-n, 0).
import { registerOp } from '../registry.js';
import { type Dim, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, GradContext, TensorMeta } from '../types.js';
import { type GradKit, type GradOps, kit } from '../grad_kit.js';
import { intAttr, intList, metaOf, staticDim } from './shape_common.js';

function expectIndex(op: string, what: string, t: TensorMeta): void {
  if (t.dtype !== 'int32' && t.dtype !== 'int64') throw new TypeError(`${op}: ${what} must be int32 or int64, got ${t.dtype}`);
}
function sameDtype(op: string, what: string, t: TensorMeta, x: TensorMeta, xName = 'x'): void {
  if (t.dtype !== x.dtype) throw new TypeError(`${op}: ${what} dtype ${t.dtype} differs from ${xName} dtype ${x.dtype}`);
}
const eq = (a: readonly Dim[], b: readonly Dim[]) => a.length === b.length && a.every((d, i) => d === b[i]);

// ---- scatter ---------------------------------------------------------------------------------

function scatterInfer([x, index, updates]: readonly TensorMeta[]): TensorMeta[] {
  if (x.shape.length === 0) throw new ShapeError('scatter: x must have at least one dim, got a 0-D tensor');
  expectIndex('scatter', 'index', index);
  sameDtype('scatter', 'updates', updates, x);
  const r = index.shape.length;
  if (r > 2 || (r === 2 && index.shape[1] !== 1)) throw new ShapeError(`scatter: index must be 0-D, 1-D or of shape [N, 1], got ${shapeStr(index.shape)}`);
  const rest = x.shape.slice(1);
  const want = [r === 0 ? 1 : index.shape[0], ...rest];
  if (!eq(updates.shape, want) && !(r === 0 && eq(updates.shape, rest)))
    throw new ShapeError(`scatter: updates shape ${shapeStr(updates.shape)} must be ${shapeStr(want)} for index ${shapeStr(index.shape)} and x ${shapeStr(x.shape)}`);
  return [metaOf(x, [...x.shape])];
}

/** scatter(x, index, updates, overwrite=True): rows of axis 0. overwrite=False zeroes the indexed rows, then adds. */
export const scatter = registerOp({
  name: 'scatter',
  inplace: true,  // scatter_: the kernel copies x then writes the indexed positions, never reading a written one
  inputs: [{ name: 'x' }, { name: 'index' }, { name: 'updates' }],
  attrs: [{ name: 'overwrite', type: 'bool', default: true }],
  outputs: ['out'],
  infer: scatterInfer,
  encode: (a) => [a.overwrite ? 1 : 0],
  gradReads: { inputs: [1] },
  // Both modes replace the indexed rows of x, so x's gradient is g with those rows zeroed; each
  // update's gradient is its row of g (Paddle's rule, also for repeated indices).
  grad: ({ inputs: [, index, updates], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const dx = needsGrad[0] ? k.op('scatter', [g, index!, k.zerosOf(updates!)], { overwrite: true }) : null;
    const du = needsGrad[2] ? k.reshape(k.op('gather', [g, index!], { axis: 0 }), k.shape(updates!)) : null;
    return [dx, null, du];
  },
});

// ---- scatter_nd_add / scatter_nd --------------------------------------------------------------

function ndInfer(op: string, xShape: readonly Dim[], index: TensorMeta, updates: TensorMeta): void {
  expectIndex(op, 'index', index);
  if (index.shape.length === 0) throw new ShapeError(`${op}: index must have at least one dim, got a 0-D tensor`);
  const k = staticDim(op, index.shape[index.shape.length - 1], 'the last dim of index');
  if (k > xShape.length) throw new ShapeError(`${op}: index ${shapeStr(index.shape)} indexes ${k} dims but x ${shapeStr(xShape)} has rank ${xShape.length}`);
  const want = [...index.shape.slice(0, -1), ...xShape.slice(k)];
  if (!eq(updates.shape, want))
    throw new ShapeError(`${op}: updates shape ${shapeStr(updates.shape)} must be ${shapeStr(want)} (index.shape[:-1] + x.shape[${k}:]) for index ${shapeStr(index.shape)} and x ${shapeStr(xShape)}`);
  if (updates.dtype === 'bool') throw new TypeError(`${op}: bool tensors are not supported (updates are added)`);
}

/** The slices of g that index [..., k] addresses (gather_nd), from public ops: a linear row index, then index_select. */
function gatherRows<T>(k: GradKit<T>, g: T, index: T): T {
  const gs = k.shape(g), is = k.shape(index);
  const depth = is[is.length - 1], lead = gs.slice(0, depth), rest = gs.slice(depth);
  const m = is.slice(0, -1).reduce((a, b) => a * b, 1);
  let lin: T | null = null;
  let stride = 1;
  const idx = k.cast(index, 'int64');
  for (let j = depth - 1; j >= 0; j--) {
    const col = k.reshape(k.op('slice', [idx], { axes: [is.length - 1], starts: [j], ends: [j + 1] }), [m]);
    // remainder wraps negative indices into [0, n), as the kernel does.
    const term = k.mul(k.op('remainder', [col, k.full([], lead[j], 'int64')]), k.full([], stride, 'int64'));
    lin = lin === null ? term : k.add(lin, term);
    stride *= lead[j];
  }
  const rows = k.reshape(g, [stride, ...rest]);
  const taken = k.op('index_select', [rows, lin ?? k.full([m], 0, 'int64')], { axis: 0 });
  return k.reshape(taken, [...is.slice(0, -1), ...rest]);
}

/** scatter_nd_add(x, index, updates): x with updates added at the slices index [..., k] names (repeats accumulate). */
export const scatter_nd_add = registerOp({
  name: 'scatter_nd_add',
  inputs: [{ name: 'x' }, { name: 'index' }, { name: 'updates' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, index, updates]) => {
    sameDtype('scatter_nd_add', 'updates', updates, x);
    ndInfer('scatter_nd_add', x.shape, index, updates);
    return [metaOf(x, [...x.shape])];
  },
  encode: () => [],
  gradReads: { inputs: [1] },
  grad: ({ inputs: [, index], outGrads: [g], needsGrad }, ops) => [g, null, needsGrad[2] ? gatherRows(kit(ops), g!, index!) : null],
});

function ndShape(a: Attrs): number[] {
  const shape = intList('scatter_nd', 'shape', a.shape);
  for (const d of shape) if (d < 0) throw new ShapeError(`scatter_nd: shape ${JSON.stringify(shape)} has a negative dim`);
  return shape;
}

/** scatter_nd(index, updates, shape): scatter_nd_add onto zeros of `shape` (the kernel starts from zeros). */
export const scatter_nd = registerOp({
  name: 'scatter_nd',
  inputs: [{ name: 'index' }, { name: 'updates' }],
  attrs: [{ name: 'shape', type: 'int[]' }],
  outputs: ['out'],
  infer: ([index, updates], a) => {
    const shape = ndShape(a);
    ndInfer('scatter_nd', shape, index, updates);
    return [{ dtype: updates.dtype, shape }];
  },
  encode: (a) => ndShape(a),
  gradReads: { inputs: [0] },
  grad: ({ inputs: [index], outGrads: [g] }, ops) => [null, gatherRows(kit(ops), g!, index!)],
  api: { names: ['scatter_nd'], methods: [] },
});

// ---- take_along_axis / put_along_axis ---------------------------------------------------------

function alongAxis(op: string, arr: TensorMeta, ind: TensorMeta, a: Attrs): number {
  if (arr.shape.length === 0) throw new ShapeError(`${op}: arr must have at least one dim, got a 0-D tensor`);
  expectIndex(op, 'indices', ind);
  if (ind.shape.length !== arr.shape.length)
    throw new ShapeError(`${op}: indices ${shapeStr(ind.shape)} must have the same rank as arr ${shapeStr(arr.shape)}`);
  return normAxis(intAttr(op, 'axis', a.axis), arr.shape.length, op);
}

/** take_along_axis's output shape: indices broadcast against arr outside the axis (or, without broadcast, indices' shape). */
function takeShape(arr: TensorMeta, ind: TensorMeta, a: Attrs): { axis: number; shape: Dim[] } {
  const axis = alongAxis('take_along_axis', arr, ind, a);
  const shape = ind.shape.map((d, i) => {
    if (i === axis) return d;
    const n = arr.shape[i];
    if (a.broadcast) {
      if (d === n || d === 1 || n === 1) return d === 1 ? n : d;
    } else if (typeof d !== 'number' || typeof n !== 'number' || d <= n) return d;
    throw new ShapeError(`take_along_axis: indices ${shapeStr(ind.shape)} do not fit arr ${shapeStr(arr.shape)} on dim ${i}` +
      (a.broadcast ? ' (sizes must match or be 1)' : ' (without broadcast each dim must be at most arr\'s)'));
  });
  return { axis, shape };
}

/** take_along_axis(arr, indices, axis, broadcast=True). */
export const take_along_axis = registerOp({
  name: 'take_along_axis',
  inputs: [{ name: 'arr' }, { name: 'indices' }],
  attrs: [{ name: 'axis', type: 'int' }, { name: 'broadcast', type: 'bool', default: true }],
  outputs: ['out'],
  infer: ([arr, ind], a) => [metaOf(arr, takeShape(arr, ind, a).shape)],
  encode: (a, [arr, ind]) => [takeShape(arr, ind, a).axis],
  gradReads: { inputs: [1] },
  // Adds g back at the indices into zeros of arr's shape broadcast to the output's, then undoes that broadcast.
  grad: ({ inputs: [arr, ind], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const as = k.shape(arr!), gs = k.shape(g!);
    const axis = normAxis(attrs.axis as number, as.length, 'take_along_axis');
    const zshape = attrs.broadcast ? gs.map((d, i) => (i === axis ? as[i] : d)) : as;
    const put = k.op('put_along_axis', [k.full(zshape, 0, k.dtype(g!)), ind!, g!], { axis, reduce: 'add', include_self: true, broadcast: !!attrs.broadcast });
    return [k.sumTo(put, as), null];
  },
});

const REDUCE: Record<string, number> = { assign: 0, add: 1, mul: 2, multiply: 2, mean: 3, amin: 4, amax: 5 };

function putPlan(arr: TensorMeta, ind: TensorMeta, val: TensorMeta, a: Attrs): { axis: number; reduce: number; iter: Dim[] } {
  const op = 'put_along_axis';
  const axis = alongAxis(op, arr, ind, a);
  const reduce = REDUCE[String(a.reduce)];
  if (reduce === undefined) throw new ShapeError(`${op}: reduce must be one of ${Object.keys(REDUCE).join(', ')}, got '${String(a.reduce)}'`);
  sameDtype(op, 'values', val, arr, 'arr');
  const iter = ind.shape.map((d, i) => {
    if (i === axis) return d;
    const n = arr.shape[i];
    const ok = a.broadcast ? d === 1 || d === n : typeof d !== 'number' || typeof n !== 'number' || d <= n;
    if (!ok) throw new ShapeError(`${op}: indices ${shapeStr(ind.shape)} do not fit arr ${shapeStr(arr.shape)} outside axis ${axis}` +
      (a.broadcast ? ' (each dim must be 1 or arr\'s)' : ' (each dim must be at most arr\'s)'));
    return a.broadcast ? n : d;
  });
  const vs = val.shape;
  const fits = vs.length <= iter.length && vs.every((d, i) => d === 1 || d === iter[iter.length - vs.length + i]);
  if (!fits) throw new ShapeError(`${op}: values ${shapeStr(vs)} cannot be broadcast to ${shapeStr(iter)} (the indices' shape${a.broadcast ? ' broadcast to arr' : ''})`);
  return { axis, reduce, iter };
}

/**
 * The gradient of put_along_axis. assign/add: the written positions of arr get 0 (assign, or add
 * without self) and each value gets g at its target. mean divides by the count; mul multiplies by
 * the other factors (out / factor, as Paddle); amin/amax split g evenly among the elements equal
 * to the result.
 */
function putGrad<T>({ inputs: [arr, ind, val], outputs: [out], outGrads: [g0], attrs, needsGrad }: GradContext<T>, ops: GradOps<T>): (T | null)[] {
  const k = kit(ops);
  const g: T = g0!, as = k.shape(arr!);
  const axis = normAxis(attrs.axis as number, as.length, 'put_along_axis');
  const incl = !!attrs.include_self, bc = !!attrs.broadcast;
  const put = (base: T, v: T, reduce: string) => k.op('put_along_axis', [base, ind!, v], { axis, reduce, include_self: true, broadcast: bc });
  const take = (t: T) => k.op('take_along_axis', [t, ind!], { axis, broadcast: bc });
  const vs = k.shape(val!);
  const zero = k.scalar(0, g);
  const touched = k.cmp('greater_than', put(k.zerosOf(arr!), k.scalar(1, g), 'add'), zero);
  const red = String(attrs.reduce);
  let dArr: T, dValIter: T;
  if (red === 'assign' || red === 'add') {
    dArr = red === 'add' && incl ? g : k.where(touched, zero, g);
    dValIter = take(g);
  } else if (red === 'mean') {
    const cnt = put(k.zerosOf(arr!), k.scalar(1, g), 'add');
    const denom = k.where(touched, incl ? k.add(cnt, k.scalar(1, g)) : cnt, k.scalar(1, g));
    const gd = k.div(g, denom);
    dArr = k.where(touched, incl ? gd : zero, g);
    dValIter = take(gd);
  } else if (red === 'mul' || red === 'multiply') {
    const go = k.mul(g, out!);
    dArr = incl ? k.where(touched, k.div(go, arr!), g) : k.where(touched, zero, g);
    dValIter = k.div(take(go), k.expandTo(val!, k.shape(take(g))));
  } else {
    // amin/amax: ties share the gradient.
    const vIter = k.expandTo(val!, k.shape(take(g)));
    const hitV = k.cast(k.cmp('equal', take(out!), vIter), k.dtype(g));
    const hitSelf = incl ? k.cast(k.cmp('equal', arr!, out!), k.dtype(g)) : k.zerosOf(arr!);
    const count = k.add(put(k.zerosOf(arr!), hitV, 'add'), hitSelf);
    const share = k.div(g, k.where(touched, count, k.scalar(1, g)));
    dArr = k.where(touched, k.mul(share, hitSelf), g);
    dValIter = k.mul(take(share), hitV);
  }
  return [needsGrad[0] ? dArr : null, null, needsGrad[2] ? k.sumTo(dValIter, vs) : null];
}

/** put_along_axis(arr, indices, values, axis, reduce='assign', include_self=True, broadcast=True). Kernel attrs: [axis, reduce, include_self, broadcast]. */
export const put_along_axis = registerOp({
  name: 'put_along_axis',
  inplace: true,  // put_along_axis_: the kernel copies x then writes the indexed positions, never reading a written one
  inputs: [{ name: 'arr' }, { name: 'indices' }, { name: 'values' }],
  attrs: [
    { name: 'axis', type: 'int' }, { name: 'reduce', type: 'str', default: 'assign' },
    { name: 'include_self', type: 'bool', default: true }, { name: 'broadcast', type: 'bool', default: true },
  ],
  outputs: ['out'],
  infer: ([arr, ind, val], a) => { putPlan(arr, ind, val, a); return [metaOf(arr, [...arr.shape])]; },
  encode: (a, [arr, ind, val]) => { const p = putPlan(arr, ind, val, a); return [p.axis, p.reduce, a.include_self ? 1 : 0, a.broadcast ? 1 : 0]; },
  grad: putGrad,
});

// ---- index_fill --------------------------------------------------------------------------------

/** index_fill(x, index, axis, value): x with the slices at index along axis set to value. Kernel attrs: [axis, value]. */
export const index_fill = registerOp({
  name: 'index_fill',
  inplace: true,  // index_fill_: the kernel copies x then writes the indexed positions, never reading a written one
  inputs: [{ name: 'x' }, { name: 'index' }],
  attrs: [{ name: 'axis', type: 'int' }, { name: 'value', type: 'scalar' }],
  outputs: ['out'],
  infer: ([x, index], a) => {
    if (x.shape.length === 0) throw new ShapeError('index_fill: x must have at least one dim, got a 0-D tensor');
    expectIndex('index_fill', 'index', index);
    if (index.shape.length > 1) throw new ShapeError(`index_fill: index must be 0-D or 1-D, got ${shapeStr(index.shape)}`);
    normAxis(intAttr('index_fill', 'axis', a.axis), x.shape.length, 'index_fill');
    if (typeof a.value !== 'number' && typeof a.value !== 'boolean') throw new TypeError(`index_fill: value must be a number or bool, got ${JSON.stringify(a.value)}`);
    return [metaOf(x, [...x.shape])];
  },
  encode: (a, [x]) => [normAxis(a.axis as number, x.shape.length, 'index_fill'), Number(a.value)],
  gradReads: { inputs: [1] },
  grad: ({ inputs: [, index], outGrads: [g], attrs }, ops) => [kit(ops).op('index_fill', [g, index!], { axis: attrs.axis, value: 0 }), null],
});
