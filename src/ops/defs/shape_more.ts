// More shape ops (issue 6): roll, repeat_interleave, chunk, diag, diag_embed, diagonal,
// diagonal_scatter, select_scatter, meshgrid, and the stride views as_strided and unfold
// (Paddle's tensor_unfold). diagonal, as_strided and tensor_unfold are always views (OpDef.view,
// no kernel), as in Paddle 2.6's stride mechanism; the others copy in
// native/kernels/shape_more.cc, and chunk reuses split's kernel.
import { registerOp } from '../registry.js';
import { type Dim, dimMul, normAxis, numel, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, StridedMeta, TensorMeta, ViewSpec } from '../types.js';
import { kit } from '../grad_kit.js';
import { intAttr, intList, metaOf, staticDim } from './shape_common.js';
import { dataDim } from '../infer.js';

// ---- roll --------------------------------------------------------------------------------------

/** roll's kernel attrs: [1, s] for the flattened x (axis None), else [0, shift per dim] normalised to [0, n). */
function rollPlan(x: TensorMeta, a: Attrs): number[] {
  const shifts = intList('roll', 'shifts', a.shifts);
  if (a.axis === null || (Array.isArray(a.axis) && a.axis.length === 0)) {
    if (shifts.length !== 1) throw new ShapeError(`roll: shifts must have one entry when axis is None, got ${JSON.stringify(shifts)}`);
    const n = staticDim('roll', numel(x.shape), 'the size of x');
    return [1, n === 0 ? 0 : ((shifts[0] % n) + n) % n];
  }
  const axes = intList('roll', 'axis', a.axis);
  if (axes.length !== shifts.length) throw new ShapeError(`roll: shifts ${JSON.stringify(shifts)} and axis ${JSON.stringify(axes)} must have the same length`);
  const total = x.shape.map(() => 0);
  axes.forEach((ax, i) => { total[normAxis(ax, x.shape.length, 'roll')] += shifts[i]; });
  return [0, ...total.map((s, d) => { const n = staticDim('roll', x.shape[d], `dim ${d}`); return n === 0 ? 0 : ((s % n) + n) % n; })];
}

/** roll(x, shifts, axis=None). */
export const roll = registerOp({
  name: 'roll',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'shifts', type: 'int[]' }, { name: 'axis', type: 'int[]', default: null }],
  outputs: ['out'],
  infer: ([x], a) => { rollPlan(x, a); return [metaOf(x, [...x.shape])]; },
  encode: (a, [x]) => { const p = rollPlan(x, a); return p[0] === 1 ? p : [0, ...p.slice(1)]; },
  gradReads: {},
  grad: ({ outGrads: [g], attrs }, ops) => [kit(ops).op('roll', [g], { shifts: intList('roll', 'shifts', attrs.shifts).map((s) => -s), axis: attrs.axis })],
});

// ---- repeat_interleave -------------------------------------------------------------------------

function repeatPlan(x: TensorMeta, a: Attrs): { axis: number | null; reps: number } {
  const reps = intAttr('repeat_interleave', 'repeats', a.repeats);
  if (reps < 0) throw new ShapeError(`repeat_interleave: repeats must be non-negative, got ${reps}`);
  if (a.axis === null) return { axis: null, reps };
  if (x.shape.length === 0) throw new ShapeError(`repeat_interleave: axis ${String(a.axis)} given for a 0-D x (use axis=None)`);
  return { axis: normAxis(intAttr('repeat_interleave', 'axis', a.axis), x.shape.length, 'repeat_interleave'), reps };
}

/** repeat_interleave(x, repeats, axis=None) with an int repeats; axis None works on the flattened x. Kernel attrs: [axis or -1, repeats]. */
export const repeat_interleave = registerOp({
  name: 'repeat_interleave',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'repeats', type: 'int' }, { name: 'axis', type: 'int', default: null }],
  outputs: ['out'],
  infer: ([x], a) => {
    const { axis, reps } = repeatPlan(x, a);
    if (axis === null) return [metaOf(x, [dimMul(numel(x.shape), reps)])];
    return [metaOf(x, x.shape.map((d, i) => (i === axis ? dimMul(d, reps) : d)))];
  },
  encode: (a, [x]) => { const p = repeatPlan(x, a); return [p.axis ?? -1, p.reps]; },
  gradReads: {},
  // Each input element's copies are adjacent: view g as [.., n, reps, ..] and sum the reps dim.
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const { axis, reps } = repeatPlan(ops.meta(x!), attrs);
    if (axis === null) return [k.reshape(k.sum(k.reshape(g!, [xs.reduce((p, d) => p * d, 1), reps]), [1]), xs)];
    const split = [...xs.slice(0, axis + 1), reps, ...xs.slice(axis + 1)];
    return [k.reshape(k.sum(k.reshape(g!, split), [axis + 1]), xs)];
  },
  // Public paddle.repeat_interleave / Tensor.repeat_interleave pick this op or the tensor one (shape_more_api.ts).
  api: { names: [], methods: [] },
});

function tensorRepeatAxis(x: TensorMeta, reps: TensorMeta, a: Attrs): number | null {
  const op = 'repeat_interleave_with_tensor_index';
  if (reps.dtype !== 'int32' && reps.dtype !== 'int64') throw new TypeError(`${op}: repeats must be int32 or int64, got ${reps.dtype}`);
  const axis = a.axis === null ? null : x.shape.length === 0 ? (() => { throw new ShapeError(`${op}: axis ${String(a.axis)} given for a 0-D x (use axis=None)`); })()
    : normAxis(intAttr(op, 'axis', a.axis), x.shape.length, op);
  const n = axis === null ? numel(x.shape) : x.shape[axis];
  if (reps.shape.length !== 1 || (typeof n === 'number' && typeof reps.shape[0] === 'number' && reps.shape[0] !== n))
    throw new ShapeError(`${op}: repeats ${shapeStr(reps.shape)} must be 1-D with one entry per element of ${axis === null ? 'the flattened x' : `axis ${axis}`} (size ${String(n)})`);
  return axis;
}

/** repeat_interleave with a 1-D repeats tensor (Paddle's repeat_interleave_with_tensor_index): the output length is the sum of repeats. */
export const repeat_interleave_with_tensor_index = registerOp({
  name: 'repeat_interleave_with_tensor_index',
  inputs: [{ name: 'x' }, { name: 'repeats' }],
  attrs: [{ name: 'axis', type: 'int', default: null }],
  outputs: ['out'],
  dynamicShape: true,
  infer: ([x, reps], a) => {
    const axis = tensorRepeatAxis(x, reps, a);
    const len = dataDim('repeat_interleave_with_tensor_index');
    return [metaOf(x, axis === null ? [len] : x.shape.map((d, i) => (i === axis ? len : d)))];
  },
  encode: (a, [x, reps]) => [tensorRepeatAxis(x, reps, a) ?? -1],
  gradReads: { inputs: [1] },
  // out[j] = x[src[j]] along the axis, with src = the same op applied to arange(n): add g back at src.
  grad: ({ inputs: [x, reps], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    const axis = tensorRepeatAxis(ops.meta(x!), ops.meta(reps!), attrs);
    const n = axis === null ? xs.reduce((p, d) => p * d, 1) : xs[axis];
    const src = k.op('repeat_interleave_with_tensor_index', [k.op('arange', [], { start: 0, end: n, step: 1, dtype: 'int64' }), reps!], { axis: 0 });
    if (axis === null) return [k.reshape(k.op('index_add', [k.full([n], 0, k.dtype(g!)), src, g!], { axis: 0 }), xs), null];
    return [k.op('index_add', [k.zerosOf(x!), src, g!], { axis }), null];
  },
  api: { names: [], methods: [] },
});

// ---- chunk -------------------------------------------------------------------------------------

function chunkPlan(x: TensorMeta, a: Attrs): { axis: number; size: number; n: number } {
  const n = intAttr('chunk', 'chunks', a.chunks);
  if (n <= 0) throw new ShapeError(`chunk: chunks must be positive, got ${n}`);
  if (x.shape.length === 0) throw new ShapeError('chunk: x must have at least one dim, got a 0-D tensor');
  const axis = normAxis(intAttr('chunk', 'axis', a.axis), x.shape.length, 'chunk');
  const d = staticDim('chunk', x.shape[axis], `the size of axis ${axis}`);
  if (d % n !== 0) throw new ShapeError(`chunk: axis ${axis} of x ${shapeStr(x.shape)} has size ${d}, which ${n} chunks do not divide evenly`);
  return { axis, size: d / n, n };
}

/** chunk(x, chunks, axis=0): split into `chunks` equal parts (split's kernel, attrs [axis]). */
export const chunk = registerOp({
  name: 'chunk',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'chunks', type: 'int' }, { name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => {
    const { axis, size, n } = chunkPlan(x, a);
    return Array.from({ length: n }, () => metaOf(x, x.shape.map((d, i) => (i === axis ? size : d))));
  },
  numOutputs: ([x], a) => chunkPlan(x, a).n,
  kernel: 'split',
  encode: (a, [x]) => [chunkPlan(x, a).axis],
  gradReads: {},
  grad: ({ inputs: [x], outputs, outGrads, attrs }, ops) => {
    const k = kit(ops);
    const parts = outGrads.map((g, i) => g ?? k.zerosOf(outputs[i]));
    return [parts.length === 1 ? parts[0] : k.op('concat', parts, { axis: chunkPlan(ops.meta(x!), attrs).axis })];
  },
});

// ---- diagonals ---------------------------------------------------------------------------------

const diagLen = (m: number, n: number, off: number) => Math.max(0, off >= 0 ? Math.min(m, n - off) : Math.min(m + off, n));

function diagAxes(op: string, rank: number, a1: Attrs[string], a2: Attrs[string], n1 = 'axis1', n2 = 'axis2'): [number, number] {
  const x1 = normAxis(intAttr(op, n1, a1), rank, op), x2 = normAxis(intAttr(op, n2, a2), rank, op);
  if (x1 === x2) throw new ShapeError(`${op}: ${n1} and ${n2} must differ, both are ${x1}`);
  return [x1, x2];
}

/** The diagonal's shape: the other dims in order, then the diagonal. */
function diagonalShape(op: string, x: TensorMeta, a: Attrs): { axes: [number, number]; off: number; shape: Dim[] } {
  if (x.shape.length < 2) throw new ShapeError(`${op}: x must have at least 2 dims, got ${shapeStr(x.shape)}`);
  const axes = diagAxes(op, x.shape.length, a.axis1, a.axis2);
  const off = intAttr(op, 'offset', a.offset);
  const m = staticDim(op, x.shape[axes[0]], 'axis1'), n = staticDim(op, x.shape[axes[1]], 'axis2');
  return { axes, off, shape: [...x.shape.filter((_, i) => i !== axes[0] && i !== axes[1]), diagLen(m, n, off)] };
}

/** diag(x, offset=0, padding_value=0): a vector (or 0-D) to a matrix, a matrix to its diagonal. Kernel attrs: [offset, padding_value]. */
export const diag = registerOp({
  name: 'diag',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'offset', type: 'int', default: 0 }, { name: 'padding_value', type: 'float', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => {
    const off = intAttr('diag', 'offset', a.offset);
    if (typeof a.padding_value !== 'number') throw new TypeError(`diag: padding_value must be a number, got ${JSON.stringify(a.padding_value)}`);
    if (x.shape.length <= 1) {
      const n = x.shape.length === 0 ? 1 : staticDim('diag', x.shape[0], 'the size of x');
      return [metaOf(x, [n + Math.abs(off), n + Math.abs(off)])];
    }
    if (x.shape.length !== 2) throw new ShapeError(`diag: x must be 0-D, 1-D or 2-D, got ${shapeStr(x.shape)}`);
    return [metaOf(x, [diagLen(staticDim('diag', x.shape[0], 'dim 0'), staticDim('diag', x.shape[1], 'dim 1'), off)])];
  },
  encode: (a) => [a.offset as number, a.padding_value as number],
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!);
    if (xs.length <= 1) return [k.reshape(k.op('diag', [g!], { offset: attrs.offset }), xs)];
    return [k.op('diagonal_scatter', [k.zerosOf(x!), g!], { offset: attrs.offset, axis1: 0, axis2: 1 })];
  },
});

function embedPlan(x: TensorMeta, a: Attrs): { off: number; d1: number; d2: number; shape: Dim[] } {
  if (x.shape.length === 0) throw new ShapeError('diag_embed: input must have at least one dim, got a 0-D tensor');
  const r = x.shape.length + 1;
  const [d1, d2] = diagAxes('diag_embed', r, a.dim1, a.dim2, 'dim1', 'dim2');
  const off = intAttr('diag_embed', 'offset', a.offset);
  const m = staticDim('diag_embed', x.shape[x.shape.length - 1], 'the last dim') + Math.abs(off);
  const rest = x.shape.slice(0, -1);
  const shape: Dim[] = [];
  for (let d = 0, j = 0; d < r; d++) shape.push(d === d1 || d === d2 ? m : rest[j++]);
  return { off, d1, d2, shape };
}

/** diag_embed(input, offset=0, dim1=-2, dim2=-1): the last dim becomes the diagonal of dims dim1, dim2 of the output. */
export const diag_embed = registerOp({
  name: 'diag_embed',
  inputs: [{ name: 'input' }],
  attrs: [{ name: 'offset', type: 'int', default: 0 }, { name: 'dim1', type: 'int', default: -2 }, { name: 'dim2', type: 'int', default: -1 }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, embedPlan(x, a).shape)],
  encode: (a, [x]) => { const p = embedPlan(x, a); return [p.off, p.d1, p.d2]; },
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const p = embedPlan(ops.meta(x!), attrs);
    return [kit(ops).op('diagonal', [g!], { offset: p.off, axis1: p.d1, axis2: p.d2 })];
  },
  api: { names: ['diag_embed', 'nn.functional.diag_embed'], methods: ['diag_embed'] },
});

/** diagonal(x, offset=0, axis1=0, axis2=1): always a view (the diagonal's stride is the sum of the two axes'). */
export const diagonal = registerOp({
  name: 'diagonal',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'offset', type: 'int', default: 0 }, { name: 'axis1', type: 'int', default: 0 }, { name: 'axis2', type: 'int', default: 1 }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, diagonalShape('diagonal', x, a).shape)],
  view: (x, a): ViewSpec => {
    const { axes: [a1, a2], off, shape } = diagonalShape('diagonal', x, a);
    const strides = [...x.strides.filter((_, i) => i !== a1 && i !== a2), x.strides[a1] + x.strides[a2]];
    const len = shape[shape.length - 1] as number;
    const start = len === 0 ? 0 : off >= 0 ? off * x.strides[a2] : -off * x.strides[a1];
    return { shape: shape as number[], strides, offset: x.offset + start };
  },
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    return [k.op('diagonal_scatter', [k.zerosOf(x!), g!], { offset: attrs.offset, axis1: attrs.axis1, axis2: attrs.axis2 })];
  },
});

/** diagonal_scatter(x, y, offset=0, axis1=0, axis2=1): x with its diagonal replaced by y. Kernel attrs: [offset, axis1, axis2]. */
export const diagonal_scatter = registerOp({
  name: 'diagonal_scatter',
  inputs: [{ name: 'x' }, { name: 'y' }],
  attrs: [{ name: 'offset', type: 'int', default: 0 }, { name: 'axis1', type: 'int', default: 0 }, { name: 'axis2', type: 'int', default: 1 }],
  outputs: ['out'],
  infer: ([x, y], a) => {
    const { shape } = diagonalShape('diagonal_scatter', x, a);
    if (y.dtype !== x.dtype) throw new TypeError(`diagonal_scatter: y dtype ${y.dtype} differs from x dtype ${x.dtype}`);
    if (y.shape.length !== shape.length || y.shape.some((d, i) => d !== shape[i]))
      throw new ShapeError(`diagonal_scatter: y shape ${shapeStr(y.shape)} must be the diagonal's ${shapeStr(shape)} of x ${shapeStr(x.shape)}`);
    return [metaOf(x, [...x.shape])];
  },
  encode: (a, [x]) => { const { axes, off } = diagonalShape('diagonal_scatter', x, a); return [off, ...axes]; },
  gradReads: {},
  grad: ({ inputs: [, y], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const at = { offset: attrs.offset, axis1: attrs.axis1, axis2: attrs.axis2 };
    return [needsGrad[0] ? k.op('diagonal_scatter', [g!, k.zerosOf(y!)], at) : null, needsGrad[1] ? k.op('diagonal', [g!], at) : null];
  },
});

function selectPlan(x: TensorMeta, a: Attrs): { axis: number; index: number } {
  if (x.shape.length === 0) throw new ShapeError('select_scatter: x must have at least one dim, got a 0-D tensor');
  const axis = normAxis(intAttr('select_scatter', 'axis', a.axis), x.shape.length, 'select_scatter');
  const n = staticDim('select_scatter', x.shape[axis], `the size of axis ${axis}`);
  const i = intAttr('select_scatter', 'index', a.index);
  if (i < -n || i >= n) throw new RangeError(`select_scatter: index ${i} is out of range for axis ${axis} of size ${n} of x ${shapeStr(x.shape)}`);
  return { axis, index: i < 0 ? i + n : i };
}

/** select_scatter(x, values, axis, index): x with x[.., index, ..] (along axis) replaced by values. Kernel attrs: [axis, index]. */
export const select_scatter = registerOp({
  name: 'select_scatter',
  inputs: [{ name: 'x' }, { name: 'values' }],
  attrs: [{ name: 'axis', type: 'int' }, { name: 'index', type: 'int' }],
  outputs: ['out'],
  infer: ([x, v], a) => {
    const { axis } = selectPlan(x, a);
    if (v.dtype !== x.dtype) throw new TypeError(`select_scatter: values dtype ${v.dtype} differs from x dtype ${x.dtype}`);
    const want = x.shape.filter((_, i) => i !== axis);
    if (v.shape.length !== want.length || v.shape.some((d, i) => d !== want[i]))
      throw new ShapeError(`select_scatter: values shape ${shapeStr(v.shape)} must be ${shapeStr(want)} (x ${shapeStr(x.shape)} without axis ${axis})`);
    return [metaOf(x, [...x.shape])];
  },
  encode: (a, [x]) => { const p = selectPlan(x, a); return [p.axis, p.index]; },
  gradReads: {},
  grad: ({ inputs: [x, v], outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const { axis, index } = selectPlan(ops.meta(x!), attrs);
    const dx = needsGrad[0] ? k.op('select_scatter', [g!, k.zerosOf(v!)], { axis, index }) : null;
    const dv = needsGrad[1] ? k.reshape(k.op('slice', [g!], { axes: [axis], starts: [index], ends: [index + 1] }), k.shape(v!)) : null;
    return [dx, dv];
  },
});

// ---- meshgrid ----------------------------------------------------------------------------------

function meshShape(xs: readonly TensorMeta[]): Dim[] {
  if (xs.length === 0) throw new ShapeError('meshgrid: expected at least one input');
  return xs.map((t, i) => {
    if (t.shape.length > 1) throw new ShapeError(`meshgrid: inputs must be 0-D or 1-D, got ${shapeStr(t.shape)} for input ${i}`);
    if (t.dtype !== xs[0].dtype) throw new TypeError(`meshgrid: all inputs must have the same dtype, got ${xs[0].dtype} and ${t.dtype}`);
    return t.shape.length === 0 ? 1 : t.shape[0];
  });
}

/** meshgrid(*args): output i repeats input i along every other dim ('ij' indexing, as Paddle). */
export const meshgrid = registerOp({
  name: 'meshgrid',
  inputs: [{ name: 'inputs', variadic: true }],
  attrs: [],
  outputs: ['out'],
  infer: (xs) => { const s = meshShape(xs); return xs.map((x) => metaOf(x, [...s])); },
  numOutputs: (xs) => xs.length,
  encode: () => [],
  gradReads: {},
  grad: ({ inputs, outGrads }, ops) => {
    const k = kit(ops);
    return inputs.map((x, i) => {
      const g = outGrads[i];
      if (!g || !x) return null;
      return k.reshape(k.sum(g, k.shape(g).map((_, d) => d).filter((d) => d !== i)), k.shape(x));
    });
  },
  // paddle.meshgrid(*args) takes tensors or one list: bound by hand (shape_more_api.ts).
  api: { names: [], methods: [] },
});

// ---- stride views ------------------------------------------------------------------------------

const isContig = (x: StridedMeta): boolean => {
  let expect = 1;
  for (let i = x.shape.length - 1; i >= 0; i--) {
    if (x.shape[i] !== 1 && x.strides[i] !== expect) return false;
    expect *= x.shape[i];
  }
  return true;
};

function stridedPlan(x: TensorMeta, a: Attrs): { shape: number[]; stride: number[]; offset: number } {
  const shape = intList('as_strided', 'shape', a.shape), stride = intList('as_strided', 'stride', a.stride);
  const offset = intAttr('as_strided', 'offset', a.offset);
  if (shape.length !== stride.length) throw new ShapeError(`as_strided: shape ${JSON.stringify(shape)} and stride ${JSON.stringify(stride)} must have the same length`);
  if (shape.some((d) => d < 0)) throw new ShapeError(`as_strided: shape ${JSON.stringify(shape)} has a negative dim`);
  if (stride.some((s) => s < 0)) throw new ShapeError(`as_strided: stride ${JSON.stringify(stride)} has a negative entry`);
  if (offset < 0) throw new ShapeError(`as_strided: offset ${offset} is negative`);
  const n = staticDim('as_strided', numel(x.shape), 'the size of x');
  // The last element reached must lie inside x's own elements (x's storage from x's first element on).
  if (!shape.includes(0)) {
    const last = offset + shape.reduce((p, d, i) => p + (d - 1) * stride[i], 0);
    if (last >= n) throw new RangeError(`as_strided: shape ${JSON.stringify(shape)} with stride ${JSON.stringify(stride)} and offset ${offset} reaches element ${last}, but x ${shapeStr(x.shape)} holds ${n} elements`);
  }
  return { shape, stride, offset };
}

/**
 * as_strided(x, shape, stride, offset=0): x's row-major elements (from x's first one) seen with
 * the given element strides. A view when x is contiguous (then positions are storage positions);
 * a gathered copy otherwise.
 */
export const as_strided = registerOp({
  name: 'as_strided',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'shape', type: 'int[]' }, { name: 'stride', type: 'int[]' }, { name: 'offset', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, stridedPlan(x, a).shape)],
  view: (x, a): ViewSpec | null => {
    const p = stridedPlan(x, a);
    // A non-contiguous x has no single stride pattern for its row-major elements: the kernel gathers a copy.
    return isContig(x) ? { shape: p.shape, strides: p.stride, offset: x.offset + p.offset } : null;
  },
  encode: (a, [x]) => { const p = stridedPlan(x, a); return [p.offset, ...p.stride]; },
  gradReads: {},
  // Every output element reads x's element offset + sum(i_d * stride_d); add g back there (overlaps accumulate).
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!), n = xs.reduce((p, d) => p * d, 1);
    const { shape, stride, offset } = stridedPlan(ops.meta(x!), attrs);
    const total = shape.reduce((p, d) => p * d, 1);
    if (total === 0) return [k.zerosOf(x!)];
    let pos = k.full([], offset, 'int64');
    shape.forEach((d, i) => {
      const r = k.op('arange', [], { start: 0, end: d * Math.max(stride[i], 1), step: Math.max(stride[i], 1), dtype: 'int64' });
      const col = stride[i] === 0 ? k.full([d], 0, 'int64') : r;
      pos = k.add(pos, k.reshape(col, shape.map((_, j) => (j === i ? d : 1))));
    });
    const flat = k.op('index_add', [k.full([n], 0, k.dtype(g!)), k.reshape(pos, [total]), k.reshape(g!, [total])], { axis: 0 });
    return [k.reshape(flat, xs)];
  },
});

function unfoldPlan(x: TensorMeta, a: Attrs): { axis: number; size: number; step: number; windows: number } {
  if (x.shape.length === 0) throw new ShapeError('unfold: x must have at least one dim, got a 0-D tensor');
  const axis = normAxis(intAttr('unfold', 'axis', a.axis), x.shape.length, 'unfold');
  const size = intAttr('unfold', 'size', a.size), step = intAttr('unfold', 'step', a.step);
  const n = staticDim('unfold', x.shape[axis], `the size of axis ${axis}`);
  if (size < 0 || size > n) throw new ShapeError(`unfold: size ${size} must be in [0, ${n}] for axis ${axis} of x ${shapeStr(x.shape)}`);
  if (step <= 0) throw new ShapeError(`unfold: step must be positive, got ${step}`);
  return { axis, size, step, windows: Math.floor((n - size) / step) + 1 };
}

/** Tensor.unfold(axis, size, step) (Paddle's tensor_unfold): the windows along axis, each as a trailing dim; a view. */
export const tensor_unfold = registerOp({
  name: 'tensor_unfold',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int' }, { name: 'size', type: 'int' }, { name: 'step', type: 'int' }],
  outputs: ['out'],
  infer: ([x], a) => {
    const p = unfoldPlan(x, a);
    return [metaOf(x, [...x.shape.map((d, i) => (i === p.axis ? p.windows : d)), p.size])];
  },
  view: (x, a): ViewSpec => {
    const p = unfoldPlan(x, a);
    return {
      shape: [...x.shape.map((d, i) => (i === p.axis ? p.windows : d)), p.size],
      strides: [...x.strides.map((s, i) => (i === p.axis ? s * p.step : s)), x.strides[p.axis]],
      offset: x.offset,
    };
  },
  gradReads: {},
  // Window w, element j reads x[w*step + j]: move the window dim next to the axis and index_add g back.
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const xs = k.shape(x!), gs = k.shape(g!);
    const { axis, size, step, windows } = unfoldPlan(ops.meta(x!), attrs);
    if (windows * size === 0) return [k.zerosOf(x!)];
    const r = xs.length;
    const perm = [...Array(r).keys()];
    perm.splice(axis + 1, 0, r);
    const moved = k.transpose(g!, perm);
    const flat = k.reshape(moved, [...gs.slice(0, axis), windows * size, ...gs.slice(axis + 1, r)]);
    const starts = k.reshape(k.op('arange', [], { start: 0, end: windows * step, step, dtype: 'int64' }), [windows, 1]);
    const offs = k.reshape(k.op('arange', [], { start: 0, end: size, step: 1, dtype: 'int64' }), [1, size]);
    const index = k.reshape(k.add(starts, offs), [windows * size]);
    return [k.op('index_add', [k.zerosOf(x!), index, flat], { axis })];
  },
  api: { names: ['unfold'], methods: ['unfold'] },
});
