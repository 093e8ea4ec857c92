// Ops that only re-describe their input: each returns a view of the input's storage (OpDef.view)
// when the layout allows, else its native kernel copies (native/kernels/shape_copy.cc).
// reshape/flatten copy only when the input's strides cannot express the new shape; transpose,
// squeeze, unsqueeze and expand are always views; contiguous copies only non-contiguous input.
import { registerOp } from '../registry.js';
import { type Dim, dimMul, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, StridedMeta, TensorMeta, ViewSpec } from '../types.js';
import type { OpDef } from '../types.js';
import { kit } from '../grad_kit.js';
import { axisList, intAttr, intList, metaOf, reshapeStrides, reshapeTarget } from './shape_common.js';

/** Ops that only reshape: the gradient is g in x's shape. */
const reshapeBack: OpDef['grad'] = ({ inputs: [x], outGrads: [g] }, ops) => { const k = kit(ops); return [k.reshape(g!, k.shape(x!))]; };

const asView = (x: StridedMeta, shape: number[], strides: number[] | null): ViewSpec | null =>
  strides ? { shape, strides, offset: x.offset } : null;

/** reshape(x, shape): 0 copies the input dim, one -1 is inferred (Paddle's rules). */
export const reshape = registerOp({
  name: 'reshape',
  inplace: 'rebind',   // reshape_: x itself becomes the view (Paddle's inplace view op)
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'shape', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, reshapeTarget('reshape', x.shape, intList('reshape', 'shape', a.shape)))],
  encode: () => [],
  view: (x, a) => {
    const shape = reshapeTarget('reshape', x.shape, intList('reshape', 'shape', a.shape)) as number[];
    return asView(x, shape, reshapeStrides(x.shape, x.strides, shape));
  },
  grad: reshapeBack,
  gradReads: {},
});

function permOf(x: TensorMeta, a: Attrs): number[] {
  const perm = intList('transpose', 'perm', a.perm, false);
  if (perm.length !== x.shape.length)
    throw new ShapeError(`transpose: perm ${JSON.stringify(perm)} has ${perm.length} entries but x ${shapeStr(x.shape)} has rank ${x.shape.length}`);
  return axisList('transpose', perm, x.shape.length);
}

/** transpose(x, perm): always a view (strides permuted). */
export const transpose = registerOp({
  name: 'transpose',
  inplace: 'rebind',   // transpose_: x itself becomes the view (Paddle's inplace view op)
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'perm', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, permOf(x, a).map((p) => x.shape[p]))],
  view: (x, a) => {
    const p = permOf(x, a);
    return { shape: p.map((i) => x.shape[i]), strides: p.map((i) => x.strides[i]), offset: x.offset };
  },
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const p = permOf(kit(ops).o.meta(x!), attrs);
    const inv = new Array<number>(p.length);
    p.forEach((q, i) => { inv[q] = i; });
    return [kit(ops).transpose(g!, inv)];
  },
});

// Axes squeezed: the listed ones (or all) whose size is 1. Symbolic dims are never squeezed:
// they stand for batch/sequence sizes, and a size-1 run is caught by the graph's guards.
function squeezeKeep(shape: readonly Dim[], axis: Attrs[string]): boolean[] {
  if (axis === null || (Array.isArray(axis) && axis.length === 0)) return shape.map((d) => d !== 1);
  const axes = new Set(axisList('squeeze', intList('squeeze', 'axis', axis), shape.length, true));
  return shape.map((d, i) => !(axes.has(i) && d === 1));
}

/** squeeze(x, axis=None): drops size-1 dims (listed axes whose size is not 1 are left alone, as in Paddle). */
export const squeeze = registerOp({
  name: 'squeeze',
  inplace: 'rebind',   // squeeze_: x itself becomes the view (Paddle's inplace view op)
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int[]', default: null }],
  outputs: ['out'],
  infer: ([x], a) => { const keep = squeezeKeep(x.shape, a.axis); return [metaOf(x, x.shape.filter((_, i) => keep[i]))]; },
  view: (x, a) => {
    const keep = squeezeKeep(x.shape, a.axis);
    return { shape: x.shape.filter((_, i) => keep[i]), strides: x.strides.filter((_, i) => keep[i]), offset: x.offset };
  },
  grad: reshapeBack,
  gradReads: {},
});

/** Positions of the inserted dims in the output, applying axes one after another as Paddle does. */
function unsqueezeSlots(rank: number, axis: Attrs[string]): (number | null)[] {
  const axes = intList('unsqueeze', 'axis', axis);
  const slots: (number | null)[] = [...Array(rank).keys()];
  for (const ax of axes) {
    const cur = slots.length;
    const p = ax < 0 ? ax + cur + 1 : ax;
    if (p < 0 || p > cur) throw new RangeError(`unsqueeze: axis ${ax} is out of range for a tensor of rank ${cur} (expected [${-cur - 1}, ${cur}])`);
    slots.splice(p, 0, null);
  }
  return slots;
}

/** unsqueeze(x, axis): inserts size-1 dims; always a view. */
export const unsqueeze = registerOp({
  name: 'unsqueeze',
  inplace: 'rebind',   // unsqueeze_: x itself becomes the view (Paddle's inplace view op)
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, unsqueezeSlots(x.shape.length, a.axis).map((s) => (s === null ? 1 : x.shape[s])))],
  view: (x, a) => {
    const slots = unsqueezeSlots(x.shape.length, a.axis);
    const shape = slots.map((s) => (s === null ? 1 : x.shape[s]));
    const strides = new Array<number>(slots.length);
    for (let i = slots.length - 1; i >= 0; i--) {
      const s = slots[i];
      strides[i] = s !== null ? x.strides[s] : i + 1 < slots.length ? strides[i + 1] * shape[i + 1] : 1;
    }
    return { shape, strides, offset: x.offset };
  },
  grad: reshapeBack,
  gradReads: {},
});

function flattenShape(shape: readonly Dim[], a: Attrs): Dim[] {
  const rank = shape.length;
  const start = intAttr('flatten', 'start_axis', a.start_axis), stop = intAttr('flatten', 'stop_axis', a.stop_axis);
  if (rank === 0) {
    if (![0, -1].includes(start) || ![0, -1].includes(stop)) throw new RangeError(`flatten: start_axis and stop_axis must be 0 or -1 for a 0-D tensor, got ${start} and ${stop}`);
    return [1];
  }
  const s = normAxis(start, rank, 'flatten'), e = normAxis(stop, rank, 'flatten');
  if (s > e) throw new ShapeError(`flatten: stop_axis ${stop} must not come before start_axis ${start} for x ${shapeStr(shape)}`);
  let mid: Dim = 1;
  for (let i = s; i <= e; i++) mid = dimMul(mid, shape[i]);
  return [...shape.slice(0, s), mid, ...shape.slice(e + 1)];
}

/** flatten(x, start_axis=0, stop_axis=-1): a view when the flattened dims are contiguous with each other. */
export const flatten = registerOp({
  name: 'flatten',
  inplace: 'rebind',   // flatten_: x itself becomes the view (Paddle's inplace view op)
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'start_axis', type: 'int', default: 0 }, { name: 'stop_axis', type: 'int', default: -1 }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, flattenShape(x.shape, a))],
  encode: () => [],
  view: (x, a) => {
    const shape = flattenShape(x.shape, a) as number[];
    return asView(x, shape, reshapeStrides(x.shape, x.strides, shape));
  },
  grad: reshapeBack,
  gradReads: {},
});

/** Paddle's expand rules: -1 keeps a dim, new leading dims must be positive, only size-1 dims grow. */
function expandShape(x: readonly Dim[], a: Attrs): Dim[] {
  const target = intList('expand', 'shape', a.shape, false);
  const diff = target.length - x.length;
  if (diff < 0) throw new ShapeError(`expand: shape ${JSON.stringify(target)} has fewer dims than x ${shapeStr(x)}`);
  return target.map((t, i) => {
    if (t === 0) throw new ShapeError(`expand: the expanded size cannot be zero (shape ${JSON.stringify(target)})`);
    if (i < diff) {
      if (t < 0) throw new ShapeError(`expand: the size ${t} of new leading dim ${i} must be positive (shape ${JSON.stringify(target)})`);
      return t;
    }
    const d = x[i - diff];
    if (t === -1) return d;
    if (t < 0) throw new ShapeError(`expand: only -1 may be negative in shape ${JSON.stringify(target)}`);
    if (d === 1 || d === t || typeof d !== 'number') return t;
    throw new ShapeError(`expand: dim ${i - diff} of x ${shapeStr(x)} has size ${d} and cannot be expanded to ${t} (shape ${JSON.stringify(target)})`);
  });
}

/** expand(x, shape), also paddle.broadcast_to: always a view with stride 0 on the grown dims. */
export const expand = registerOp({
  name: 'expand',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'shape', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => [metaOf(x, expandShape(x.shape, a))],
  view: (x, a) => {
    const shape = expandShape(x.shape, a) as number[];
    const diff = shape.length - x.shape.length;
    const strides = shape.map((d, i) => (i < diff || x.shape[i - diff] !== d ? 0 : x.strides[i - diff]));
    return { shape, strides, offset: x.offset };
  },
  grad: ({ inputs: [x], outGrads: [g] }, ops) => { const k = kit(ops); return [k.sumTo(g!, k.shape(x!))]; },
  gradReads: {},
  api: { names: ['expand', 'broadcast_to'], methods: ['expand', 'broadcast_to'] },
});

const isContiguous = (x: StridedMeta): boolean => {
  let expect = 1;
  for (let i = x.shape.length - 1; i >= 0; i--) {
    if (x.shape[i] !== 1 && x.strides[i] !== expect) return false;
    expect *= x.shape[i];
  }
  return true;
};

/** Tensor.contiguous(): an alias (a view of the same layout) when already contiguous, else a dense copy. */
export const contiguous = registerOp({
  name: 'contiguous',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x]) => [metaOf(x, [...x.shape])],
  encode: () => [],
  view: (x) => (isContiguous(x) ? { shape: [...x.shape], strides: [...x.strides], offset: x.offset } : null),
  grad: ({ outGrads: [g] }) => [g],
  gradReads: {},
  api: { names: [], methods: ['contiguous'] },
});
