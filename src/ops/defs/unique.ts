// Ops whose output length depends on the values (Paddle 2.6 signatures): unique,
// unique_consecutive, bincount. Native: native/kernels/unique.cc. They use the data-dependent
// shape mechanism (OpDef.dynamicShape; dims from dataDim, allocated by the kernel), so they
// run eagerly only: compiled graphs refuse them and SOT breaks the graph. No gradients (integer
// outputs; Paddle has no rules for them either).
//
//  - unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
//    dtype='int64'): sorted unique values (axis None: of the flattened x; an int axis: unique
//    slices along it, ordered lexicographically), then, as flagged, the index of each one's first
//    occurrence, the inverse (for every element / slice of x, its position in out; 1-D) and the
//    counts. Index outputs are `dtype` (int32 or int64). Order: NaN above every number; NaNs
//    never compare equal, so each is its own entry (Paddle's std::unique does the same).
//  - unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype='int64'):
//    collapses runs of equal consecutive values / slices, no sorting.
//  - bincount(x, weights=None, minlength=0): counts of each value of a 1-D non-negative int
//    tensor, length max(max(x) + 1, minlength). int64 without weights; with weights their sum,
//    float32 for float32 weights and float64 otherwise (Paddle's kernel). An empty x gives
//    minlength zeros (Paddle 2.6 returns [0] there, which drops minlength).
//
// Output order of unique/unique_consecutive: out, then the flagged outputs in argument order;
// the public function returns a lone tensor or a tuple (api.unwrapSingle), as Paddle.
// Kernel attribute layouts:
//   unique              [return_index, return_inverse, return_counts, axis (-1: flattened)]
//   unique_consecutive  [return_inverse, return_counts, axis (-1: flattened)]
//   bincount            [minlength]
import type { DType } from '../../tensor/dtype.js';
import { toDType } from '../../tensor/dtype.js';
import { type Dim, normAxis, numel, ShapeError, shapeStr } from '../../tensor/shape.js';
import { dataDim } from '../infer.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';

const VALUE_DTYPES = new Set<DType>(['float16', 'bfloat16', 'float32', 'float64', 'int32', 'int64']);

function uniqueInput(op: string, x: TensorMeta): void {
  if (!VALUE_DTYPES.has(x.dtype)) throw new TypeError(`${op}: expected a float16, bfloat16, float32, float64, int32 or int64 input, got ${x.dtype}`);
}

/** The normalised axis, or -1 for None (flattened). */
function axisOf(op: string, axis: Attrs[string], x: TensorMeta): number {
  if (axis === null || axis === undefined) return -1;
  const a = Array.isArray(axis) && axis.length === 1 ? axis[0] : axis;  // Paddle's op takes a one-element list
  if (!Number.isInteger(a)) throw new TypeError(`${op}: axis must be an int or None, got ${JSON.stringify(axis)}`);
  if (x.shape.length === 0) throw new ShapeError(`${op}: axis must be None for a 0-dim input, got ${a}`);
  return normAxis(a as number, x.shape.length, op);
}

function indexDType(op: string, d: Attrs[string]): DType {
  const dt = toDType(d as string);
  if (dt !== 'int32' && dt !== 'int64') throw new TypeError(`${op}: dtype must be int32 or int64, got ${dt}`);
  return dt;
}

/** Shapes of out and of the inverse for `axis` (-1: flattened) with `u` unique entries. */
function uniqueShapes(x: TensorMeta, axis: number, u: Dim): { out: Dim[]; inverse: Dim[] } {
  if (axis < 0) {
    return { out: [u], inverse: [numel(x.shape)] };
  }
  return { out: x.shape.map((d, i) => (i === axis ? u : d)), inverse: [x.shape[axis]] };
}

const flagCount = (...f: Attrs[string][]): number => f.filter(Boolean).length;

/** unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None, dtype='int64'). */
export const unique = registerOp({
  name: 'unique',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'return_index', type: 'bool', default: false }, { name: 'return_inverse', type: 'bool', default: false },
    { name: 'return_counts', type: 'bool', default: false }, { name: 'axis', type: 'int', default: null },
    { name: 'dtype', type: 'dtype', default: 'int64' },
  ],
  outputs: ['out', 'indices', 'inverse', 'counts'],
  numOutputs: (_ins, a) => 1 + flagCount(a.return_index, a.return_inverse, a.return_counts),
  dynamicShape: true,
  infer: ([x], a) => {
    uniqueInput('unique', x);
    const axis = axisOf('unique', a.axis, x);
    const idt = indexDType('unique', a.dtype);
    const u = dataDim('unique');
    const s = uniqueShapes(x, axis, u);
    const outs: TensorMeta[] = [{ dtype: x.dtype, shape: s.out }];
    if (a.return_index) outs.push({ dtype: idt, shape: [u] });
    if (a.return_inverse) outs.push({ dtype: idt, shape: s.inverse });
    if (a.return_counts) outs.push({ dtype: idt, shape: [u] });
    return outs;
  },
  encode: (a, [x]) => [a.return_index ? 1 : 0, a.return_inverse ? 1 : 0, a.return_counts ? 1 : 0, axisOf('unique', a.axis, x)],
  api: { names: ['unique'], methods: ['unique'], unwrapSingle: true },
});

/** unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype='int64'). */
export const unique_consecutive = registerOp({
  name: 'unique_consecutive',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'return_inverse', type: 'bool', default: false }, { name: 'return_counts', type: 'bool', default: false },
    { name: 'axis', type: 'int', default: null }, { name: 'dtype', type: 'dtype', default: 'int64' },
  ],
  outputs: ['out', 'inverse', 'counts'],
  numOutputs: (_ins, a) => 1 + flagCount(a.return_inverse, a.return_counts),
  dynamicShape: true,
  infer: ([x], a) => {
    uniqueInput('unique_consecutive', x);
    const axis = axisOf('unique_consecutive', a.axis, x);
    const idt = indexDType('unique_consecutive', a.dtype);
    const u = dataDim('unique_consecutive');
    const s = uniqueShapes(x, axis, u);
    const outs: TensorMeta[] = [{ dtype: x.dtype, shape: s.out }];
    if (a.return_inverse) outs.push({ dtype: idt, shape: s.inverse });
    if (a.return_counts) outs.push({ dtype: idt, shape: [u] });
    return outs;
  },
  encode: (a, [x]) => [a.return_inverse ? 1 : 0, a.return_counts ? 1 : 0, axisOf('unique_consecutive', a.axis, x)],
  api: { names: ['unique_consecutive'], methods: ['unique_consecutive'], unwrapSingle: true },
});

/** bincount(x, weights=None, minlength=0). */
export const bincount = registerOp({
  name: 'bincount',
  inputs: [{ name: 'x' }, { name: 'weights', optional: true }],
  attrs: [{ name: 'minlength', type: 'int', default: 0 }],
  outputs: ['out'],
  dynamicShape: true,
  infer: ([x, w], a) => {
    if (x.dtype !== 'int32' && x.dtype !== 'int64') throw new TypeError(`bincount: x must be int32 or int64, got ${x.dtype}`);
    if (x.shape.length !== 1) throw new ShapeError(`bincount: x must be 1-D, got shape ${shapeStr(x.shape)}`);
    const ml = a.minlength as number;
    if (!Number.isInteger(ml) || ml < 0) throw new RangeError(`bincount: minlength must be a non-negative int, got ${JSON.stringify(a.minlength)}`);
    let dtype: DType = 'int64';
    if (w) {
      if (!['float32', 'float64', 'int32', 'int64'].includes(w.dtype)) throw new TypeError(`bincount: weights must be float32, float64, int32 or int64, got ${w.dtype}`);
      if (w.shape.length !== 1 || w.shape[0] !== x.shape[0])
        throw new ShapeError(`bincount: weights of shape ${shapeStr(w.shape)} must have x's shape ${shapeStr(x.shape)}`);
      dtype = w.dtype === 'float32' ? 'float32' : 'float64';
    }
    return [{ dtype, shape: [dataDim('bincount')] }];
  },
  encode: (a) => [a.minlength as number],
});
