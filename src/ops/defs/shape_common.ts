// Helpers shared by the shape and indexing families (shape_*.ts, index_*.ts): attribute parsing,
// axis lists, Paddle's slice-bound rules, and the stride arithmetic that decides when a reshape
// can alias its input. Every rule works on Dim so captured graphs with symbolic sizes infer too.
import { type Dim, dimAdd, dimFloorDiv, dimMul, dimSub, normAxis, numel, type Shape, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { AttrValue, TensorMeta } from '../types.js';

/** An int or a list of ints as a list (typed arrays too); rejects anything else naming the op. */
export function intList(op: string, name: string, v: AttrValue | undefined, scalarOk = true): number[] {
  let list: unknown = v;
  if (typeof v === 'number' && scalarOk) list = [v];
  else if (ArrayBuffer.isView(v)) list = Array.from(v as unknown as ArrayLike<number>);
  if (!Array.isArray(list) || list.some((d) => typeof d !== 'number' || !Number.isInteger(d)))
    throw new TypeError(`${op}: '${name}' must be ${scalarOk ? 'an int or ' : ''}a list of ints, got ${JSON.stringify(v)}`);
  return list as number[];
}

export function intAttr(op: string, name: string, v: AttrValue | undefined): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${op}: '${name}' must be an int, got ${JSON.stringify(v)}`);
  return v;
}

/** Normalised axes (negative count from the end); duplicates rejected unless allowed. */
export function axisList(op: string, axes: readonly number[], rank: number, dupOk = false): number[] {
  const out = axes.map((a) => normAxis(a, rank, op));
  if (!dupOk && new Set(out).size !== out.length) throw new ShapeError(`${op}: duplicate axis in ${JSON.stringify(axes)}`);
  return out;
}

/** A static dim or an error saying which op needs it concrete. */
export function staticDim(op: string, d: Dim, what: string): number {
  if (typeof d !== 'number') throw new ShapeError(`${op}: ${what} must be static, got symbolic dim ${d.expr}`);
  return d;
}

export const metaOf = (m: TensorMeta, shape: Dim[]): TensorMeta => ({ dtype: m.dtype, shape });

/**
 * numel(num) / numel(den): symbolic factors present in both cancel, so [B, 4] -> [-1, 2] gives
 * B*2 rather than an opaque quotient. Falls back to a floor-division expression.
 */
export function divideDims(num: Shape, den: Shape): Dim {
  let pn = 1, pd = 1;
  const syms: Dim[] = [];
  for (const d of num) if (typeof d === 'number') pn *= d; else syms.push(d);
  const rest = [...syms];
  for (const d of den) {
    if (typeof d === 'number') { pd *= d; continue; }
    const k = rest.indexOf(d);
    if (k < 0) return dimFloorDiv(numel(num), numel(den));
    rest.splice(k, 1);
  }
  if (pd === 0 || pn % pd !== 0) return dimFloorDiv(numel(num), numel(den));
  let out: Dim = pn / pd;
  for (const s of rest) out = dimMul(out, s);
  return out;
}

/** Paddle's reshape target: 0 copies the input dim at that index, one -1 is inferred. */
export function reshapeTarget(op: string, x: Shape, target: readonly number[]): Dim[] {
  let unknown = -1;
  const out: Dim[] = target.map((t, i) => {
    if (t === -1) {
      if (unknown >= 0) throw new ShapeError(`${op}: only one dimension of shape can be -1, got ${JSON.stringify(target)}`);
      unknown = i;
      return 1;
    }
    if (t === 0) {
      if (i >= x.length) throw new ShapeError(`${op}: shape[${i}] is 0 (copy the input dim) but x ${shapeStr(x)} has rank ${x.length}`);
      return x[i];
    }
    if (t < 0) throw new ShapeError(`${op}: shape[${i}] = ${t} is negative; only one -1 is allowed, got ${JSON.stringify(target)}`);
    return t;
  });
  const size = numel(x);
  if (unknown >= 0) {
    const others = out.filter((_, i) => i !== unknown);
    const cap = numel(others);
    if (cap === 0) {
      if (size === 0) throw new ShapeError(`${op}: cannot reshape x ${shapeStr(x)} of 0 elements into ${JSON.stringify(target)}: the -1 dim could be any size`);
      throw new ShapeError(`${op}: cannot reshape x ${shapeStr(x)} into ${JSON.stringify(target)}`);
    }
    const d = divideDims(x, others);
    if (typeof size === 'number' && typeof cap === 'number' && size % cap !== 0)
      throw new ShapeError(`${op}: x ${shapeStr(x)} has ${size} elements, not divisible by ${cap} (shape ${JSON.stringify(target)})`);
    out[unknown] = d;
  } else {
    const cap = numel(out);
    if (typeof size === 'number' && typeof cap === 'number' && size !== cap)
      throw new ShapeError(`${op}: cannot reshape x ${shapeStr(x)} of ${size} elements into shape ${JSON.stringify(target)} of ${cap} elements`);
  }
  return out;
}

/**
 * Strides that show a tensor of `shape`/`strides` as `newShape` without copying, or null when
 * its layout does not allow it. Runs of input dims that are contiguous with each other must
 * map onto consecutive output dims with the same element count.
 */
export function reshapeStrides(shape: readonly number[], strides: readonly number[], newShape: readonly number[]): number[] | null {
  const out = new Array<number>(newShape.length);
  if (shape.some((d) => d === 0)) {
    let acc = 1;
    for (let i = newShape.length - 1; i >= 0; i--) { out[i] = acc; acc *= Math.max(newShape[i], 1); }
    return out;
  }
  const dims: [number, number][] = [];
  shape.forEach((d, i) => { if (d !== 1) dims.push([d, strides[i]]); });
  let k = 0;
  for (let i = 0; i < dims.length;) {
    let j = i + 1, run = dims[i][0];
    while (j < dims.length && dims[j - 1][1] === dims[j][1] * dims[j][0]) { run *= dims[j][0]; j++; }
    const first = k;
    let prod = 1;
    while (k < newShape.length && prod < run) prod *= newShape[k++];
    if (prod !== run) return null;
    let st = dims[j - 1][1];
    for (let t = k - 1; t >= first; t--) { out[t] = st; st *= newShape[t]; }
    i = j;
  }
  for (; k < newShape.length; k++) { if (newShape[k] !== 1) return null; out[k] = 1; }
  return out;
}

/** Paddle's slice bounds on a static dim (CheckAndUpdateSliceAttrs): clamped to [0, dim]; end < start is an error. */
export function sliceBounds(op: string, dim: number, start: number, end: number, axis: number): [number, number] {
  if (dim === 0) return [0, 0];
  let s = start < 0 ? start + dim : start;
  s = Math.min(Math.max(s, 0), dim);
  let e = end < 0 ? end + dim : end;
  e = Math.max(Math.min(e, dim), 0);
  if (e < s) throw new ShapeError(`${op}: on axis ${axis} (size ${dim}) end ${end} resolves to ${e}, before start ${start} (${s})`);
  return [s, e];
}

/**
 * Paddle's strided_slice bounds on a static dim (StridedSliceOutDims): negative starts/ends
 * count from the end and clamp at 0; with a negative step an end of -1 means "through index 0".
 * Returns the first index and the element count.
 */
export function stridedBounds(op: string, dim: number, start: number, end: number, step: number, axis: number): { first: number; count: number } {
  if (step === 0) throw new ShapeError(`${op}: stride on axis ${axis} must not be 0`);
  let s = start < 0 ? Math.max(start + dim, 0) : start;
  let e = end < 0 && !(end === -1 && step < 0) ? Math.max(end + dim, 0) : end;
  if (step < 0) { s += 1; e += 1; }
  if ((step < 0 && s < e) || (step > 0 && s > e))
    throw new ShapeError(`${op}: start ${start} and end ${end} are invalid for stride ${step} on axis ${axis} (size ${dim})`);
  const left = Math.max(0, Math.min(s, e)), right = Math.min(dim, Math.max(s, e));
  const n = Math.abs(step);
  // Paddle takes |right - left| here, which reads past the end when start > dim; an empty slice is what it means.
  const count = right > left ? Math.ceil((right - left) / n) : 0;
  return { first: step > 0 ? left : right - 1, count };
}

// Bounds on a symbolic dim D are affine in D: {rel: 1, c} is D + c, {rel: 0, c} is c. Small
// non-negative bounds are taken literally, huge ones mean "to the end", negatives count from D
// (the sizes they assume are checked by guards when the graph runs).
interface Affine { rel: number; c: number }
const BIG = 2 ** 31 - 1;
const bound = (b: number): Affine => (b >= BIG ? { rel: 1, c: 0 } : b < 0 ? { rel: 1, c: b } : { rel: 0, c: b });

function affineLen(op: string, dim: Dim, from: Affine, to: Affine, axis: number): Dim {
  const rel = to.rel - from.rel, c = to.c - from.c;
  if (rel === 0) {
    if (c < 0) throw new ShapeError(`${op}: empty or reversed bounds on symbolic axis ${axis} (${dimStrOf(dim)})`);
    return c;
  }
  if (rel < 0) throw new ShapeError(`${op}: cannot infer the length of a slice of symbolic axis ${axis} (${dimStrOf(dim)})`);
  return c >= 0 ? dimAdd(dim, c) : dimSub(dim, -c);
}
const dimStrOf = (d: Dim): string => (typeof d === 'number' ? String(d) : d.expr);

/** Length of slice(start, end) on a dim that may be symbolic. */
export function sliceLen(op: string, dim: Dim, start: number, end: number, axis: number): Dim {
  if (typeof dim === 'number') { const [s, e] = sliceBounds(op, dim, start, end, axis); return e - s; }
  return affineLen(op, dim, bound(start), bound(end), axis);
}

/** Length of strided_slice(start, end, step) on a dim that may be symbolic. */
export function stridedLen(op: string, dim: Dim, start: number, end: number, step: number, axis: number): Dim {
  if (typeof dim === 'number') return stridedBounds(op, dim, start, end, step, axis).count;
  if (step === 0) throw new ShapeError(`${op}: stride on axis ${axis} must not be 0`);
  let len: Dim;
  if (step > 0) len = affineLen(op, dim, bound(start), bound(end), axis);
  else {
    const from: Affine = start >= BIG ? { rel: 1, c: -1 } : bound(start);
    const to: Affine = end === -1 ? { rel: 0, c: -1 } : bound(end);
    len = affineLen(op, dim, to, from, axis);
  }
  const n = Math.abs(step);
  if (typeof len === 'number') return Math.ceil(len / n);
  return n === 1 ? len : dimFloorDiv(dimAdd(len, n - 1), n);
}

/** Dims that must agree across inputs (concat, stack): equal, or symbolic (then the static one wins). */
export function unifyDim(op: string, a: Dim, b: Dim, what: string): Dim {
  if (a === b) return a;
  if (typeof a === 'number' && typeof b === 'number') throw new ShapeError(`${op}: ${what}`);
  return typeof a === 'number' ? a : b;
}
