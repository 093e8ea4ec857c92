// Tensor.__setitem__ for the TS API: `x.set_item(index, value)` / `set_item(x, index, value)`,
// basic indexing as in Python: ints (drop their dim), slices with any step, null (newaxis) and
// '...' (ellipsis). It runs the inplace set_value_with_tensor op, so views of x see the write.
//
// An index is one item or an array of items (the array is Python's tuple, not a tensor index):
//   number          x[2]            '1:3' / '::-1'   x[1:3], x[::-1] (Python slice text)
//   null            x[None]         { start, stop, step }  the same slice as an object
//   '...'           x[...]
// A string may also hold a whole index: x.set_item('1:3, ::2', v) is x[1:3, ::2] = v.
// value: a Tensor (cast to x's dtype, as Paddle does), a number/boolean or nested arrays.
import { to_tensor, type TensorData } from '../tensor/creation.js';
import type { DType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { type TensorLike, runOp, runOpInplace, resolveAttrs } from './dispatch.js';
import { getOp } from './registry.js';
import { scalarTensor } from './scalar.js';

export interface SliceSpec { start?: number | null; stop?: number | null; step?: number | null }
export type IndexItem = number | null | string | SliceSpec;
export type SetItemValue = TensorLike | TensorData;

/** The op attributes of a basic index on a tensor of `shape` (Paddle's set_value layout). */
export interface IndexPlan { starts: number[]; ends: number[]; steps: number[]; axes: number[]; decrease_axes: number[]; none_axes: number[] }

export const ELLIPSIS = Symbol('...');
export type Item = number | null | typeof ELLIPSIS | SliceSpec;

function parseSliceText(s: string): SliceSpec {
  const parts = s.split(':').map((p) => p.trim());
  if (parts.length > 3) throw new SyntaxError(`set_item: bad slice '${s}'`);
  const num = (p: string | undefined): number | null => {
    if (p === undefined || p === '' || p === 'None') return null;
    const v = Number(p);
    if (!Number.isInteger(v)) throw new SyntaxError(`set_item: bad slice bound '${p}' in '${s}'`);
    return v;
  };
  return { start: num(parts[0]), stop: num(parts[1]), step: num(parts[2]) };
}

/** One basic index item (number, slice text or object, null, '...') parsed; src/ops/adv_index.ts shares it. */
export function toItem(it: IndexItem): Item {
  if (it === null || typeof it === 'number') return it;
  if (typeof it === 'string') {
    const t = it.trim();
    if (t === '...' || t === 'Ellipsis') return ELLIPSIS;
    if (t === 'None') return null;
    if (t.includes(':')) return parseSliceText(t);
    const v = Number(t);
    if (t === '' || !Number.isInteger(v)) throw new SyntaxError(`set_item: bad index '${it}'`);
    return v;
  }
  if (typeof it === 'object') return it;
  throw new TypeError(`set_item: only integers, slices, null and '...' are valid indices, got ${typeof it}`);
}

function itemsOf(index: IndexItem | readonly IndexItem[]): Item[] {
  if (Array.isArray(index)) return index.map(toItem);
  if (typeof index === 'string' && index.includes(',')) return index.split(',').map(toItem);
  return [toItem(index as IndexItem)];
}

/** Resolves a basic index against x's shape: Python's rules, IndexError-style RangeErrors. */
export function indexPlan(shape: readonly number[], index: IndexItem | readonly IndexItem[]): IndexPlan {
  const items = itemsOf(index);
  const rank = shape.length;
  const nEll = items.filter((i) => i === ELLIPSIS).length;
  if (nEll > 1) throw new RangeError('set_item: an index can only have a single ellipsis (...)');
  const nReal = items.filter((i) => i !== null && i !== ELLIPSIS).length;
  if (nReal > rank) throw new RangeError(`set_item: too many indices for tensor: tensor is ${rank}-dimensional, but ${nReal} were indexed`);
  const plan: IndexPlan = { starts: [], ends: [], steps: [], axes: [], decrease_axes: [], none_axes: [] };
  let d = 0;
  for (const it of items) {
    if (it === ELLIPSIS) { d += rank - nReal; continue; }
    if (it === null) { plan.none_axes.push(d); continue; }
    const n = shape[d];
    if (typeof it === 'number') {
      if (!Number.isInteger(it)) throw new TypeError(`set_item: index ${it} is not an integer`);
      if (it < -n || it >= n) throw new RangeError(`set_item: index ${it} is out of bounds for axis ${d} with size ${n}`);
      const i = it < 0 ? it + n : it;
      plan.axes.push(d); plan.starts.push(i); plan.ends.push(i + 1); plan.steps.push(1); plan.decrease_axes.push(d);
    } else {
      const step = it.step ?? 1;
      if (step === 0) throw new RangeError('set_item: slice step cannot be zero');
      // Absent bounds take the whole dim in the step's direction; given ones pass through raw
      // (the op normalises them as Python does); "through index 0" needs an end below -n.
      const start = it.start ?? (step > 0 ? 0 : n - 1);
      const stop = it.stop ?? (step > 0 ? n : -n - 1);
      if (!(start === 0 && stop >= n && step === 1)) {
        plan.axes.push(d); plan.starts.push(start); plan.ends.push(stop); plan.steps.push(step);
      }
    }
    d++;
  }
  return plan;
}

/** A tensor of x's dtype holding `value` (Tensors are cast; numbers and arrays converted). */
function valueTensor(value: SetItemValue, dtype: DType): { t: TensorLike; temp: boolean } {
  if (value instanceof Tensor || (value !== null && typeof value === 'object' && 'dtype' in value && 'shape' in value && !Array.isArray(value) && !ArrayBuffer.isView(value))) {
    const v = value as TensorLike;
    return v.dtype === dtype ? { t: v, temp: false } : { t: runOp('cast', [v], { dtype })[0], temp: true };
  }
  if (typeof value === 'number' || typeof value === 'boolean') return { t: scalarTensor(value, dtype), temp: true };
  return { t: to_tensor(value as TensorData, dtype), temp: true };
}

/**
 * x[index] = value, in place; returns x (or, while a static program is being built, the value
 * that now stands for x).
 * @example x.set_item([0, '1:'], 5)   // x[0, 1:] = 5
 */
export function set_item(x: TensorLike, index: IndexItem | readonly IndexItem[], value: SetItemValue): TensorLike {
  const shape = x.shape.map((d) => {
    if (typeof d !== 'number') throw new TypeError(`set_item: x has symbolic shape; only concrete shapes are supported`);
    return d;
  });
  const plan = indexPlan(shape, index);
  const def = getOp('set_value_with_tensor');
  const { t, temp } = valueTensor(value, x.dtype);
  try {
    return runOpInplace(def, [x, t], resolveAttrs(def, { ...plan }));
  } finally {
    if (temp && t instanceof Tensor) t.dispose();
  }
}

/** Paddle's fill-style inplace methods, as whole-tensor writes: x.fill_(v), x.zero_(). */
const METHODS: Record<string, (this: Tensor, ...a: any[]) => unknown> = {
  set_item(this: Tensor, index: IndexItem | readonly IndexItem[], value: SetItemValue) { return set_item(this, index, value); },
  fill_(this: Tensor, value: number | boolean) {
    if (typeof value !== 'number' && typeof value !== 'boolean') throw new TypeError(`fill_: value must be a number or bool, got ${typeof value}`);
    return set_item(this, '...', value);
  },
  zero_(this: Tensor) { return set_item(this, '...', 0); },
};
for (const [name, fn] of Object.entries(METHODS)) {
  if (Object.prototype.hasOwnProperty.call(Tensor.prototype, name)) continue;  // hand-written members win
  Object.defineProperty(Tensor.prototype, name, { value: fn, writable: true, configurable: true });
}
