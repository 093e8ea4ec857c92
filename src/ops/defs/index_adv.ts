// Advanced-indexing ops (Paddle 2.6): gather_nd, index_put (+ index_put_), masked_select,
// masked_scatter (+ masked_scatter_), nonzero. Native: native/kernels/index_adv.cc. Integer
// indices wrap once when negative (Paddle's gather_nd / index_put) and are checked before any
// write. masked_select and nonzero have data-dependent output lengths (OpDef.dynamicShape; the
// kernel allocates them), so they run eagerly only: compiled graphs refuse them, SOT breaks.
// Tensor indexing (x[idx], x.get / x.set) is built from these in src/ops/adv_index.ts.
import type { DType } from '../../tensor/dtype.js';
import { broadcastShapes, type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import { type GradKit, kit } from '../grad_kit.js';
import { dataDim } from '../infer.js';
import { registerOp } from '../registry.js';
import type { TensorMeta } from '../types.js';

const isInt = (d: DType): boolean => d === 'int32' || d === 'int64';

function gatherNdInfer(x: TensorMeta, index: TensorMeta): TensorMeta {
  if (!isInt(index.dtype)) throw new TypeError(`gather_nd: index must be int32 or int64, got ${index.dtype}`);
  const r = index.shape.length;
  if (r === 0) throw new ShapeError('gather_nd: index must have at least one dim, got a 0-D tensor');
  const k = index.shape[r - 1];
  if (typeof k !== 'number') throw new ShapeError(`gather_nd: the last dim of index ${shapeStr(index.shape)} must be static`);
  if (k > x.shape.length) throw new ShapeError(`gather_nd: index ${shapeStr(index.shape)} has a last dim of ${k}, more than x ${shapeStr(x.shape)} has dims`);
  return { dtype: x.dtype, shape: [...index.shape.slice(0, -1), ...x.shape.slice(k)] };
}

/** Where index_put's indices point: how many x dims they cover and the broadcast shape of the index positions. */
function putRegion(x: TensorMeta, indices: readonly TensorMeta[]): { k: number; region: Dim[] } {
  if (indices.length === 0) throw new ShapeError('index_put: indices must hold at least one tensor');
  let k = 0;
  let b: Dim[] = [];
  for (const t of indices) {
    if (t.dtype === 'bool') {
      if (t.shape.length === 0) throw new ShapeError('index_put: a 0-D bool index is not supported');
      t.shape.forEach((d, j) => {
        if (k + j >= x.shape.length || (typeof d === 'number' && typeof x.shape[k + j] === 'number' && d !== x.shape[k + j]))
          throw new ShapeError(`index_put: bool index ${shapeStr(t.shape)} does not match x ${shapeStr(x.shape)} at axis ${k + j}`);
      });
      b = broadcastShapes(b, [dataDim('index_put')], 'index_put');
      k += t.shape.length;
    } else if (isInt(t.dtype)) {
      b = broadcastShapes(b, t.shape, 'index_put');
      k += 1;
    } else throw new TypeError(`index_put: indices must be int32, int64 or bool, got ${t.dtype}`);
  }
  if (k > x.shape.length) throw new ShapeError(`index_put: too many indices for x ${shapeStr(x.shape)}: they cover ${k} dims`);
  return { k, region: [...b, ...x.shape.slice(k)] };
}

/**
 * g[indices] for a tuple of int/bool index tensors, as one gather_nd: bool masks become their
 * nonzero coordinates, every index is broadcast to the common shape and stacked on a last axis.
 */
export function gatherIndexed<T>(k: GradKit<T>, g: T, indices: readonly T[]): T {
  const cols: T[] = [];
  for (const t of indices) {
    if (k.dtype(t) !== 'bool') { cols.push(k.cast(t, 'int64')); continue; }
    const nz = k.op('nonzero', [t]);
    const r = k.rank(t);
    for (let j = 0; j < r; j++) cols.push(k.op('squeeze', [k.op('slice', [nz], { axes: [1], starts: [j], ends: [j + 1] })], { axis: [1] }));
  }
  let shape: Dim[] = [];
  for (const c of cols) shape = broadcastShapes(shape, k.shape(c), 'index_put');
  const full = cols.map((c) => k.expandTo(c, shape as number[]));
  return k.op('gather_nd', [g, k.op('stack', full, { axis: -1 })]);
}

/** gather_nd(x, index): index [..., k] picks x[i0, ..., ik-1] (a slice of the trailing dims). */
export const gather_nd = registerOp({
  name: 'gather_nd',
  inputs: [{ name: 'x' }, { name: 'index' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, index]) => [gatherNdInfer(x, index)],
  gradReads: { inputs: [1] },
  // Scatter-add g back: index_put(zeros, (index[..., 0], ...), g, accumulate=True).
  grad: ({ inputs: [x, index], outGrads: [g] }, ops) => {
    const k = kit(ops);
    const r = k.rank(index!), n = k.shape(index!)[r - 1];
    if (n === 0) return [k.sumTo(g!, k.shape(x!)), null];
    const cols: any[] = [];
    for (let j = 0; j < n; j++) cols.push(k.op('squeeze', [k.op('slice', [index!], { axes: [r - 1], starts: [j], ends: [j + 1] })], { axis: [r - 1] }));
    return [k.op('index_put', [k.zerosOf(x!), ...cols, g!], { accumulate: true }), null];
  },
});

/** index_put(x, indices, value, accumulate=False): out = x with x[indices] = value (or += value). */
export const index_put = registerOp({
  name: 'index_put',
  inputs: [{ name: 'x' }, { name: 'indices', variadic: true }, { name: 'value' }],
  attrs: [{ name: 'accumulate', type: 'bool', default: false }],
  outputs: ['out'],
  infer: (ins, a) => {
    const x = ins[0], value = ins[ins.length - 1];
    if (ins.length < 3) throw new TypeError('index_put: expected x, indices and value');
    const { region } = putRegion(x, ins.slice(1, -1));
    if (value.dtype !== x.dtype) throw new TypeError(`index_put: value dtype ${value.dtype} differs from x dtype ${x.dtype}`);
    if (a.accumulate && x.dtype === 'bool') throw new TypeError('index_put: accumulate=True is not supported for bool x');
    if (value.shape.length > region.length) throw new ShapeError(`index_put: value ${shapeStr(value.shape)} cannot be broadcast to the indexed shape ${shapeStr(region)}`);
    value.shape.forEach((d, j) => {
      const r = region[region.length - value.shape.length + j];
      if (typeof d === 'number' && typeof r === 'number' && d !== 1 && d !== r)
        throw new ShapeError(`index_put: value ${shapeStr(value.shape)} cannot be broadcast to the indexed shape ${shapeStr(region)}`);
    });
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: (a) => [a.accumulate ? 1 : 0],
  inplace: true,
  // The rule reads only the indices (flat inputs 1..n; value comes last and is read as shape
  // only). Not reading x matters: x[adv] = v writes x after index_put ran on a view of it.
  // gradReads lists flat positions, so 1..64 covers any index count (value's storage may be kept).
  gradReads: { inputs: Array.from({ length: 64 }, (_, i) => i + 1) },
  // dx: g, with the written positions zeroed unless accumulating; dvalue: g gathered at the
  // indices, summed back to value's shape (undoing its broadcast).
  grad: ({ inputs, outGrads: [g], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const indices = inputs.slice(1, -1) as any[];
    const value = inputs[inputs.length - 1]!;
    const dx = !needsGrad[0] ? null : attrs.accumulate ? g! : k.op('index_put', [g!, ...indices, k.scalar(0, g!)], { accumulate: false });
    const dv = needsGrad[inputs.length - 1] ? k.sumTo(gatherIndexed(k, g!, indices), k.shape(value)) : null;
    return [dx, ...indices.map(() => null), dv];
  },
});

/** masked_select(x, mask): the elements of x (broadcast with mask) where mask is true, as 1-D. */
export const masked_select = registerOp({
  name: 'masked_select',
  inputs: [{ name: 'x' }, { name: 'mask' }],
  attrs: [],
  outputs: ['out'],
  dynamicShape: true,
  infer: ([x, mask]) => {
    if (mask.dtype !== 'bool') throw new TypeError(`masked_select: mask must be bool, got ${mask.dtype}`);
    broadcastShapes(x.shape, mask.shape, 'masked_select');
    return [{ dtype: x.dtype, shape: [dataDim('masked_select')] }];
  },
  gradReads: { inputs: [1] },
  // dx: g scattered back into the (broadcast) mask's true positions, summed to x's shape.
  grad: ({ inputs: [x, mask], outGrads: [g] }, ops) => {
    const k = kit(ops);
    const shape = broadcastShapes(k.shape(x!), k.shape(mask!), 'masked_select') as number[];
    return [k.sumTo(k.op('masked_scatter', [k.full(shape, 0, k.dtype(g!)), mask!, g!]), k.shape(x!)), null];
  },
});

/** masked_scatter(x, mask, value): x with mask's k-th true position (mask broadcast to x) set to value.flatten()[k]. */
export const masked_scatter = registerOp({
  name: 'masked_scatter',
  inputs: [{ name: 'x' }, { name: 'mask' }, { name: 'value' }],
  attrs: [],
  outputs: ['out'],
  infer: ([x, mask, value]) => {
    if (mask.dtype !== 'bool') throw new TypeError(`masked_scatter: mask must be bool, got ${mask.dtype}`);
    if (value.dtype !== x.dtype) throw new TypeError(`masked_scatter: value dtype ${value.dtype} differs from x dtype ${x.dtype}`);
    const b = broadcastShapes(x.shape, mask.shape, 'masked_scatter');
    if (b.length !== x.shape.length || b.some((d, i) => d !== x.shape[i]))
      throw new ShapeError(`masked_scatter: mask ${shapeStr(mask.shape)} must broadcast to x ${shapeStr(x.shape)}`);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  inplace: true,
  gradReads: { inputs: [1] },
  // dx: g where mask is false; dvalue: g's masked elements in order, zero-padded to value's size.
  grad: ({ inputs: [, mask, value], outGrads: [g], needsGrad }, ops) => {
    const k = kit(ops);
    const dx = needsGrad[0] ? k.where(mask!, k.scalar(0, g!), g!) : null;
    let dv = null;
    if (needsGrad[2]) {
      const vs = k.shape(value!);
      const nv = vs.reduce((p, d) => p * d, 1);
      let sel = k.op('masked_select', [g!, mask!]);
      const n = k.shape(sel)[0];
      if (n < nv) sel = k.op('concat', [sel, k.full([nv - n], 0, k.dtype(g!))], { axis: 0 });
      dv = k.reshape(sel, vs);
    }
    return [dx, null, dv];
  },
});

/**
 * nonzero(x): int64 [n, rank] coordinates of x's non-zero elements, in row-major order. The
 * public paddle.nonzero(x, as_tuple=False) is hand-written (src/ops/adv_index.ts): as_tuple
 * returns rank tensors of shape [n, 1], which is not one output count per op.
 */
export const nonzero = registerOp({
  name: 'nonzero',
  inputs: [{ name: 'x' }],
  attrs: [],
  outputs: ['out'],
  dynamicShape: true,
  infer: ([x]) => [{ dtype: 'int64', shape: [dataDim('nonzero'), x.shape.length] }],
  api: { names: [], methods: [] },
});
