// Searching sorted sequences and counting into bins (Paddle 2.6 signatures): searchsorted,
// bucketize, histogram. Native: native/kernels/search.cc. None is differentiable (integer outputs).
//
//  - searchsorted(sorted_sequence, values, out_int32=False, right=False): for every value, the
//    insertion index into the last dim of sorted_sequence (a 1-D sequence serves every value;
//    an N-D one must share values' leading dims, one row per leading index). Left: first index
//    with seq >= v; right: first with seq > v. As Paddle's kernel, a NaN or infinite value gives
//    the row length. The two inputs may have different dtypes (compared as in C++). Attrs
//    [out_int32, right].
//  - bucketize(x, sorted_sequence, out_int32=False, right=False): searchsorted with a 1-D
//    sequence and the arguments swapped (Paddle's Python function; here an op so that Python
//    gets it from the registry like every other).
//  - histogram(input, bins=100, min=0, max=0): int64 counts of the flattened input in `bins`
//    equal bins over [min, max] (max falls in the last bin, values outside are skipped). min ==
//    max means the data's range (NaNs ignored), widened by 1 each way when that is empty too.
//    Attrs [bins, min, max].
import { registerOp } from '../registry.js';
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import type { DType } from '../../tensor/dtype.js';
import type { Attrs, TensorMeta } from '../types.js';

const SEARCH_DTYPES = new Set<DType>(['float32', 'float64', 'int32', 'int64']);

function searchDType(op: string, what: string, t: TensorMeta): void {
  if (!SEARCH_DTYPES.has(t.dtype)) throw new TypeError(`${op}: ${what} must be float32, float64, int32 or int64, got ${t.dtype}`);
}

function searchInfer(op: string, seq: TensorMeta, vals: TensorMeta, a: Attrs, seqName: string, valName: string): TensorMeta[] {
  searchDType(op, seqName, seq);
  searchDType(op, valName, vals);
  const sr = seq.shape.length;
  if (sr === 0) throw new ShapeError(`${op}: ${seqName} must have at least one dim, got shape []`);
  if (sr > 1) {
    const lead = seq.shape.slice(0, -1), vlead = vals.shape.slice(0, -1);
    if (vals.shape.length !== sr || lead.some((d, i) => d !== vlead[i]))
      throw new ShapeError(`${op}: ${seqName} of shape ${shapeStr(seq.shape)} needs ${valName} with the same leading dims ${shapeStr(lead)}, got ${shapeStr(vals.shape)}`);
  }
  const n = seq.shape[sr - 1];
  if (a.out_int32 && typeof n === 'number' && n > 2 ** 31 - 1)
    throw new RangeError(`${op}: ${seqName} has ${n} elements per row, too many for out_int32`);
  return [{ dtype: a.out_int32 ? 'int32' : 'int64', shape: vals.shape }];
}

const searchAttrs = [{ name: 'out_int32', type: 'bool', default: false }, { name: 'right', type: 'bool', default: false }] as const;

/** searchsorted(sorted_sequence, values, out_int32=False, right=False). */
export const searchsorted = registerOp({
  name: 'searchsorted',
  inputs: [{ name: 'sorted_sequence' }, { name: 'values' }],
  attrs: searchAttrs,
  outputs: ['out'],
  infer: ([seq, vals], a) => searchInfer('searchsorted', seq, vals, a, 'sorted_sequence', 'values'),
  encode: (a) => [a.out_int32 ? 1 : 0, a.right ? 1 : 0],
});

/** bucketize(x, sorted_sequence, out_int32=False, right=False): sorted_sequence is 1-D. */
export const bucketize = registerOp({
  name: 'bucketize',
  inputs: [{ name: 'x' }, { name: 'sorted_sequence' }],
  attrs: searchAttrs,
  outputs: ['out'],
  infer: ([x, seq], a) => {
    if (seq.shape.length !== 1) throw new ShapeError(`bucketize: sorted_sequence must be 1-D, got shape ${shapeStr(seq.shape)}`);
    return searchInfer('bucketize', seq, x, a, 'sorted_sequence', 'x');
  },
  encode: (a) => [a.out_int32 ? 1 : 0, a.right ? 1 : 0],
});

/** histogram(input, bins=100, min=0, max=0): int64 counts, shape [bins]. */
export const histogram = registerOp({
  name: 'histogram',
  inputs: [{ name: 'input' }],
  attrs: [{ name: 'bins', type: 'int', default: 100 }, { name: 'min', type: 'float', default: 0 }, { name: 'max', type: 'float', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => {
    searchDType('histogram', 'input', x);
    const bins = a.bins as number;
    if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`histogram: bins must be a positive int, got ${JSON.stringify(a.bins)}`);
    const lo = a.min as number, hi = a.max as number;
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new RangeError(`histogram: min and max must be finite, got min=${lo}, max=${hi}`);
    if (hi < lo) throw new RangeError(`histogram: max must be larger than or equal to min, got min=${lo}, max=${hi}`);
    return [{ dtype: 'int64', shape: [bins] }];
  },
  encode: (a) => [a.bins as number, a.min as number, a.max as number],
});
