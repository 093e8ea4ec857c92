// Tensor indexing with Paddle 2.6's rules for the TS API: `x.get(...items)` is x[items] and
// `x.set(items, value)` is x[items] = value; `setitem(x, items, value)` (paddle.static.setitem)
// is the out-of-place form. compat/paddle/_adv_indexing.py is the Python twin (keep them in step).
//
// Items (docs/indexing.md): number, slice text '1:3' / '::-1' or { start, stop, step }, null
// (newaxis), '...', an int32/int64 Tensor or number array (advanced), a bool Tensor or boolean
// array (mask). Basic items alone give a view (strided_slice / squeeze / unsqueeze). With
// advanced items:
//  1. ints are applied first as basic indices (they drop their dim), slices and None too, so the
//     advanced items index dims of that view y (as Paddle 2.6 does);
//  2. bool masks become their nonzero coordinates (one int index per dim they cover); all int
//     indices broadcast together to B and are stacked into one gather_nd over y's advanced dims
//     moved to the front (a copy);
//  3. B stays in front when the advanced items are separated by a slice/None, otherwise it moves
//     to where the first advanced item was (numpy's rule).
// Assignment builds the same region and writes it with index_put on y, then writes y back into
// x with set_value_with_tensor (the basic part), so autograd sees two functional-on-the-tape ops
// and gradients reach both x and value.
import { to_tensor, type TensorData } from '../tensor/creation.js';
import type { DType } from '../tensor/dtype.js';
import { broadcastShapes, type Dim } from '../tensor/shape.js';
import { Tensor } from '../tensor/tensor.js';
import { resolveAttrs, runOp, runOpInplace, type TensorLike } from './dispatch.js';
import { getOp } from './registry.js';
import { scalarTensor } from './scalar.js';
import { ELLIPSIS, type IndexItem, indexPlan, type SetItemValue, type SliceSpec, toItem } from './setitem.js';

/** An index item of x.get / x.set / paddle.static.setitem. */
export type AdvIndexItem = IndexItem | TensorLike | readonly unknown[];

/** Python's IndexError: Skiff's Python bridge maps RangeErrors to IndexError. */
export class IndexError extends RangeError {
  constructor(message: string) { super(message); this.name = 'IndexError'; }
}

type Norm =
  | { k: 'int'; v: number }
  | { k: 'slice'; s: SliceSpec }
  | { k: 'new' }
  | { k: 'adv'; t: TensorLike; rank: number };

const isTensorLike = (v: unknown): v is TensorLike =>
  v instanceof Tensor || (v !== null && typeof v === 'object' && !Array.isArray(v) && 'dtype' in v && 'shape' in v);

function firstLeaf(a: readonly unknown[]): unknown {
  let v: unknown = a;
  while (Array.isArray(v) && v.length) v = v[0];
  return v;
}

/** Items with the ellipsis expanded; arrays and tensors become advanced items (temps owned by the caller). */
function normalize(what: string, rank: number, items: readonly AdvIndexItem[], temps: Tensor[]): Norm[] {
  const out: (Norm | typeof ELLIPSIS)[] = [];
  for (const it of items) {
    if (isTensorLike(it)) {
      const dt = it.dtype;
      if (dt !== 'bool' && dt !== 'int32' && dt !== 'int64')
        throw new IndexError(`${what}: tensors used as indices must be int32, int64 or bool, got ${dt}`);
      out.push({ k: 'adv', t: it, rank: dt === 'bool' ? it.shape.length : 1 });
    } else if (Array.isArray(it)) {
      const leaf = firstLeaf(it);
      const dt: DType = typeof leaf === 'boolean' ? 'bool' : 'int64';
      if (leaf !== undefined && typeof leaf !== 'boolean' && !(typeof leaf === 'number' && Number.isInteger(leaf)))
        throw new IndexError(`${what}: a list index must hold integers or booleans, got ${JSON.stringify(leaf)}`);
      const t = to_tensor(it as TensorData, dt) as Tensor;
      temps.push(t);
      out.push({ k: 'adv', t, rank: dt === 'bool' ? t.shape.length : 1 });
    } else if (typeof it === 'boolean') {
      throw new IndexError(`${what}: a bare boolean is not a valid index; use a bool tensor`);
    } else {
      const b = toItem(it as IndexItem);
      if (b === ELLIPSIS) out.push(ELLIPSIS);
      else if (b === null) out.push({ k: 'new' });
      else if (typeof b === 'number') {
        if (!Number.isInteger(b)) throw new TypeError(`${what}: index ${b} is not an integer`);
        out.push({ k: 'int', v: b });
      } else out.push({ k: 'slice', s: b });
    }
  }
  if (out.filter((i) => i === ELLIPSIS).length > 1) throw new IndexError(`${what}: an index can only have a single ellipsis (...)`);
  const nReal = out.reduce((p, i) => p + (i === ELLIPSIS || i.k === 'new' ? 0 : i.k === 'adv' ? i.rank : 1), 0);
  if (nReal > rank) throw new IndexError(`${what}: too many indices for tensor: tensor is ${rank}-dimensional, but ${nReal} were indexed`);
  const full = (): Norm => ({ k: 'slice', s: {} });
  const res: Norm[] = [];
  for (const i of out) {
    if (i === ELLIPSIS) for (let k = 0; k < rank - nReal; k++) res.push(full());
    else res.push(i);
  }
  return res;
}

/** Python's slice.indices(n): the [start, stop, step] strided_slice reads. */
function sliceIndices(what: string, s: SliceSpec, n: number): [number, number, number] {
  const step = s.step ?? 1;
  if (step === 0) throw new RangeError(`${what}: slice step cannot be zero`);
  const clamp = (v: number | null | undefined, dflt: number, lo: number, hi: number): number => {
    if (v === null || v === undefined) return dflt;
    const w = v < 0 ? v + n : v;
    return Math.min(Math.max(w, lo), hi);
  };
  return step > 0 ? [clamp(s.start, 0, 0, n), clamp(s.stop, n, 0, n), step] : [clamp(s.start, n - 1, -1, n - 1), clamp(s.stop, -1, -1, n - 1), step];
}

interface Plan {
  /** The basic part as strided_slice attributes, plus the dims ints drop and where None inserts. */
  axes: number[]; starts: number[]; ends: number[]; steps: number[]; squeeze: number[]; insert: number[];
  /** Advanced items: their tensor, the x axis they start at and the y (basic view) axis. */
  adv: { t: TensorLike; rank: number; xAxis: number; yAxis: number }[];
  /** y axes that None inserted (assignment leaves them out of y). */
  yNew: number[];
}

function planOf(what: string, shape: readonly Dim[], items: readonly Norm[]): Plan {
  const p: Plan = { axes: [], starts: [], ends: [], steps: [], squeeze: [], insert: [], adv: [], yNew: [] };
  let d = 0, y = 0;
  for (const it of items) {
    if (it.k === 'new') { p.insert.push(y); p.yNew.push(y++); continue; }
    if (it.k === 'adv') {
      if (it.t.dtype === 'bool') {
        const ms = it.t.shape as number[];
        ms.forEach((m, j) => {
          if (m !== shape[d + j])
            throw new IndexError(`${what}: boolean index of shape [${ms.join(', ')}] does not match the indexed tensor's dims [${shape.slice(d, d + ms.length).join(', ')}] at axis ${d}`);
        });
      }
      p.adv.push({ t: it.t, rank: it.rank, xAxis: d, yAxis: y });
      d += it.rank; y += it.rank;
      continue;
    }
    const n = shape[d];
    // A symbolic dim (a traced program value) allows what needs no size: a non-negative int or ':'.
    if (typeof n !== 'number') {
      const full = it.k === 'slice' && it.s.start == null && it.s.stop == null && (it.s.step ?? 1) === 1;
      if (it.k === 'int' && it.v >= 0) { p.axes.push(d); p.starts.push(it.v); p.ends.push(it.v + 1); p.steps.push(1); p.squeeze.push(d); d++; continue; }
      if (!full) throw new TypeError(`${what}: axis ${d} has a symbolic size; only ':' or a non-negative int can index it`);
      d++; y++;
      continue;
    }
    if (it.k === 'int') {
      if (it.v < -n || it.v >= n) throw new IndexError(`${what}: index ${it.v} is out of bounds for axis ${d} with size ${n}`);
      const i = it.v < 0 ? it.v + n : it.v;
      p.axes.push(d); p.starts.push(i); p.ends.push(i + 1); p.steps.push(1); p.squeeze.push(d);
      d++;
      continue;
    }
    const [s, e, st] = sliceIndices(what, it.s, n);
    if (s !== 0 || e !== n || st !== 1) { p.axes.push(d); p.starts.push(s); p.ends.push(e); p.steps.push(st); }
    d++; y++;
  }
  return p;
}

const run1 = (name: string, ins: (TensorLike | null)[], attrs: Record<string, unknown> = {}): TensorLike => runOp(name, ins, attrs)[0];

/** The basic part of a plan applied to x as views; `withNew` adds None's dims (getitem) or not (assignment). */
function basicView(x: TensorLike, p: Plan, withNew: boolean, temps: Tensor[]): TensorLike {
  let y = x;
  const keep = (t: TensorLike): TensorLike => { if (t instanceof Tensor && t !== x) temps.push(t); return t; };
  if (p.axes.length) {
    y = keep(p.steps.some((s) => s !== 1)
      ? run1('strided_slice', [y], { axes: p.axes, starts: p.starts, ends: p.ends, strides: p.steps })
      : run1('slice', [y], { axes: p.axes, starts: p.starts, ends: p.ends }));
  }
  if (p.squeeze.length) y = keep(run1('squeeze', [y], { axis: p.squeeze }));
  if (withNew && p.insert.length) y = keep(run1('unsqueeze', [y], { axis: p.insert }));
  return y;
}

/** The advanced part: int64 index columns broadcast and stacked, y's advanced axes, and where B goes. */
interface Gathered { index: TensorLike; perm: number[]; bRank: number; place: number; cols: number; colAxis: number[] }

/** `placeAxes`: the advanced axes counting None's dims (assignment's y has none), for numpy's placement rule. */
function advancedIndex(what: string, y: TensorLike, adv: Plan['adv'], yAxes: (a: Plan['adv'][number]) => number, temps: Tensor[], placeAxes?: number[]): Gathered {
  const keep = (t: TensorLike): TensorLike => { if (t instanceof Tensor) temps.push(t); return t; };
  const cols: TensorLike[] = [];
  const colAxis: number[] = [];  // x axis of each column (error messages)
  const axes: number[] = [];     // y axis of each column
  for (const a of adv) {
    const ya = yAxes(a);
    if (a.t.dtype === 'bool') {
      const nz = keep(run1('nonzero', [a.t]));
      for (let j = 0; j < a.rank; j++) {
        cols.push(keep(run1('squeeze', [keep(run1('slice', [nz], { axes: [1], starts: [j], ends: [j + 1] }))], { axis: [1] })));
        colAxis.push(a.xAxis + j); axes.push(ya + j);
      }
    } else {
      cols.push(a.t.dtype === 'int64' ? a.t : keep(run1('cast', [a.t], { dtype: 'int64' })));
      colAxis.push(a.xAxis); axes.push(ya);
    }
  }
  let b: readonly Dim[] = [];
  try {
    for (const c of cols) b = broadcastShapes(b, c.shape, what);
  } catch {
    throw new IndexError(`${what}: shape mismatch: indexing tensors could not be broadcast together with shapes ${cols.map((c) => `[${c.shape.join(', ')}]`).join(' ')}`);
  }
  const bShape = b as number[];
  const full = cols.map((c) => (c.shape.length === bShape.length && c.shape.every((d, i) => d === bShape[i]) ? c : keep(run1('expand', [c], { shape: bShape }))));
  const index = keep(run1('stack', full, { axis: -1 }));
  const rank = y.shape.length;
  const rest = [...Array(rank).keys()].filter((i) => !axes.includes(i));
  const pa = placeAxes ?? axes;
  const adjacent = pa.every((a, i) => i === 0 || a === pa[i - 1] + 1);
  return { index, perm: [...axes, ...rest], bRank: bShape.length, place: adjacent ? pa[0] : 0, cols: cols.length, colAxis };
}

const isIdentity = (perm: readonly number[]): boolean => perm.every((p, i) => p === i);
const inverse = (perm: readonly number[]): number[] => { const r = new Array<number>(perm.length); perm.forEach((p, i) => { r[p] = i; }); return r; };
/** Moves dims [0, n) to start at `place` (n = B's rank; the other dims keep their order). */
const moveFront = (rank: number, n: number, place: number): number[] => {
  const others = [...Array(rank - n).keys()].map((i) => i + n);
  return [...others.slice(0, place), ...[...Array(n).keys()], ...others.slice(place)];
};

/** Kernel index errors name the stacked column; users want their own axis. */
function remapIndexError(what: string, e: unknown, g: Gathered, shape: readonly number[]): unknown {
  const m = e instanceof Error ? /value (-?\d+) is out of range for axis (\d+) with size (\d+)/.exec(e.message) : null;
  if (!m) return e;
  const axis = g.colAxis[Number(m[2])] ?? Number(m[2]);
  return new IndexError(`${what}: index ${m[1]} is out of bounds for axis ${axis} with size ${shape[axis] ?? m[3]}`);
}

function staticShape(what: string, x: TensorLike): number[] {
  return x.shape.map((d) => {
    if (typeof d !== 'number') throw new TypeError(`${what}: x has symbolic shape; indexing needs concrete dims`);
    return d;
  });
}

/**
 * x[items] with Paddle 2.6's rules: a view for basic items, a copy when an advanced item
 * (int/bool tensor or array) is present.
 * @example x.get(0, '1:')            // x[0, 1:]
 * @example x.get([2, 0], null, '...') // x[[2, 0], None, ...]
 * @example x.get(mask)               // x[mask] (bool tensor of x's shape: masked_select)
 */
export function get_item(x: TensorLike, items: readonly AdvIndexItem[]): TensorLike {
  const what = 'Tensor.get';
  const temps: Tensor[] = [];
  let result: TensorLike | null = null;
  try {
    const plan = planOf(what, x.shape, normalize(what, x.shape.length, items, temps));
    const y = basicView(x, plan, true, temps);
    if (!plan.adv.length) return (result = y);
    const shape = staticShape(what, x);
    // One bool mask covering every dim of y: masked_select gives the 1-D result directly.
    const a0 = plan.adv[0];
    if (plan.adv.length === 1 && a0.t.dtype === 'bool' && a0.rank === y.shape.length && a0.rank > 0) return (result = run1('masked_select', [y, a0.t]));
    const g = advancedIndex(what, y, plan.adv, (a) => a.yAxis, temps);
    const yt = isIdentity(g.perm) ? y : run1('transpose', [y], { perm: g.perm });
    if (yt !== y && yt instanceof Tensor) temps.push(yt);
    let out: TensorLike;
    try {
      out = run1('gather_nd', [yt, g.index]);
    } catch (e) {
      throw remapIndexError(what, e, g, shape);
    }
    if (g.place > 0) {
      const perm = moveFront(out.shape.length, g.bRank, g.place);
      const moved = run1('transpose', [out], { perm });
      if (out instanceof Tensor) temps.push(out);
      out = moved;
    }
    return (result = out);
  } finally {
    for (const t of temps) if (t !== result && t !== x && !t.isDisposed) t.dispose();
  }
}

function valueTensor(value: SetItemValue, dtype: DType, temps: Tensor[]): TensorLike {
  if (isTensorLike(value)) {
    if (value.dtype === dtype) return value;
    const c = run1('cast', [value], { dtype });
    if (c instanceof Tensor) temps.push(c);
    return c;
  }
  const t = typeof value === 'number' || typeof value === 'boolean' ? scalarTensor(value, dtype) : to_tensor(value as TensorData, dtype);
  temps.push(t as Tensor);
  return t;
}

/**
 * The new value of x after x[items] = value: `inplace` writes into x (returned), otherwise a new
 * tensor is returned and x is untouched (paddle.static.setitem).
 */
function assign(what: string, x: TensorLike, items: readonly AdvIndexItem[], value: SetItemValue, inplace: boolean): TensorLike {
  const shape = staticShape(what, x);
  const temps: Tensor[] = [];
  let result: TensorLike | null = null;
  try {
    const norm = normalize(what, shape.length, items, temps);
    const v0 = valueTensor(value, x.dtype, temps);
    const setDef = getOp('set_value_with_tensor');
    if (!norm.some((i) => i.k === 'adv')) {
      // Basic only: set_value_with_tensor with the plan set_item builds (None dims included).
      const basic = indexPlan(shape, items as readonly IndexItem[]);
      const attrs = resolveAttrs(setDef, { ...basic });
      return (result = inplace ? runOpInplace(setDef, [x, v0], attrs) : run1('set_value_with_tensor', [x, v0], attrs));
    }
    const plan = planOf(what, shape, norm);
    // set_value normalises bounds as Python does: "through index 0" with a negative step is -n-1, not -1.
    const fix = (v: number, j: number) => (plan.steps[j] < 0 && v < 0 ? -shape[plan.axes[j]] - 1 : v);
    const basic = { starts: plan.starts.map(fix), ends: plan.ends.map(fix), steps: plan.steps, axes: plan.axes, decrease_axes: plan.squeeze, none_axes: [] as number[] };
    // y: x's basic view without None's dims; index_put writes its advanced dims (moved to the front).
    const y = basicView(x, plan, false, temps);
    const noNew = (a: number): number => a - plan.yNew.filter((n) => n < a).length;
    // The region x[items] as get_item lays it out (None dims as 1s, B at g.place), tagged by y axis.
    const advWithNew = plan.adv.flatMap((a) => Array.from({ length: a.t.dtype === 'bool' ? a.rank : 1 }, (_, j) => a.yAxis + j));
    const g = advancedIndex(what, y, plan.adv, (a) => noNew(a.yAxis), temps, advWithNew);
    const totalWithNew = y.shape.length + plan.yNew.length;
    const restTags: (number | 'N')[] = [];
    for (let i = 0; i < totalWithNew; i++) if (!advWithNew.includes(i)) restTags.push(plan.yNew.includes(i) ? 'N' : noNew(i));
    const b = g.index.shape.slice(0, -1) as number[];
    const tags: (number | 'B' | 'N')[] = [...b.map(() => 'B' as const), ...restTags];
    const layout = g.place > 0 ? moveFront(tags.length, b.length, g.place).map((i) => tags[i]) : tags;
    let bi = 0;
    const full = layout.map((t) => (t === 'N' ? 1 : t === 'B' ? b[bi++] : y.shape[t] as number));
    const kept = layout.map((t, i) => (t === 'N' ? -1 : i)).filter((i) => i >= 0);
    const region = kept.map((i) => full[i]);
    const placeNoNew = layout.slice(0, layout.indexOf('B')).filter((t) => t !== 'N').length;
    let v = fitValue(v0, full, temps);
    if (region.length !== full.length) v = keepT(temps, run1('reshape', [v], { shape: region }));
    if (placeNoNew > 0 && b.length) v = keepT(temps, run1('transpose', [v], { perm: inverse(moveFront(region.length, b.length, placeNoNew)) }));
    const cols = splitIndex(g, temps);
    let out: TensorLike;
    try {
      if (isIdentity(g.perm) && y === x) {
        const def = getOp('index_put');
        const attrs = resolveAttrs(def, { accumulate: false });
        return (result = inplace ? runOpInplace(def, [x, ...cols, v], attrs) : run1('index_put', [x, ...cols, v], attrs));
      }
      const yt = isIdentity(g.perm) ? y : keepT(temps, run1('transpose', [y], { perm: g.perm }));
      out = keepT(temps, run1('index_put', [yt, ...cols, v], { accumulate: false }));
    } catch (e) {
      throw remapIndexError(what, e, g, shape);
    }
    const ynew = isIdentity(g.perm) ? out : keepT(temps, run1('transpose', [out], { perm: inverse(g.perm) }));
    const attrs = resolveAttrs(setDef, basic);
    return (result = inplace ? runOpInplace(setDef, [x, ynew], attrs) : run1('set_value_with_tensor', [x, ynew], attrs));
  } finally {
    for (const t of temps) if (t !== result && t !== x && !t.isDisposed) t.dispose();
  }
}

const keepT = (temps: Tensor[], t: TensorLike): TensorLike => { if (t instanceof Tensor) temps.push(t); return t; };

/** value broadcast to `want` (extra leading 1s dropped, as numpy allows); a ShapeError naming Tensor.set otherwise. */
function fitValue(v: TensorLike, want: number[], temps: Tensor[]): TensorLike {
  if (v.shape.length === want.length && v.shape.every((d, i) => d === want[i])) return v;
  const lead = Math.max(0, v.shape.length - want.length);
  const bad = (): Error => Object.assign(new Error(`Tensor.set: value of shape [${v.shape.join(', ')}] cannot be broadcast to the indexed shape [${want.join(', ')}]`), { name: 'ShapeError' });
  if (v.shape.slice(0, lead).some((d) => d !== 1)) throw bad();
  const vs = v.shape.slice(lead) as number[];
  vs.forEach((d, i) => { const w = want[want.length - vs.length + i]; if (d !== 1 && d !== w) throw bad(); });
  let r = v;
  if (lead) r = keepT(temps, run1('reshape', [r], { shape: vs }));
  return keepT(temps, run1('expand', [r], { shape: want }));
}

/** The stacked index split back into its columns (index_put takes one tensor per indexed dim). */
function splitIndex(g: Gathered, temps: Tensor[]): TensorLike[] {
  const r = g.index.shape.length;
  const cols: TensorLike[] = [];
  for (let j = 0; j < g.cols; j++) {
    const s = keepT(temps, run1('slice', [g.index], { axes: [r - 1], starts: [j], ends: [j + 1] }));
    cols.push(keepT(temps, run1('squeeze', [s], { axis: [r - 1] })));
  }
  return cols;
}

/**
 * x[items] = value in place (returns x; while a static program is built, the value standing for x).
 * @example x.set([[0, 2]], 5)         // x[[0, 2]] = 5
 * @example x.set([mask], 0)           // x[mask] = 0
 * @example x.set(['...', idx], v)     // x[..., idx] = v
 */
export function set_item_adv(x: TensorLike, items: AdvIndexItem | readonly AdvIndexItem[], value: SetItemValue): TensorLike {
  return assign('Tensor.set', x, asItems(items), value, true);
}

/** paddle.static.setitem(x, index, value): x[index] = value out of place; returns the new tensor. */
export function setitem(x: TensorLike, index: AdvIndexItem | readonly AdvIndexItem[], value: SetItemValue): TensorLike {
  return assign('paddle.static.setitem', x, asItems(index), value, false);
}

/** A lone item or an array of items (the array is Python's tuple; a list index is [[0, 2]]). */
function asItems(index: AdvIndexItem | readonly AdvIndexItem[]): readonly AdvIndexItem[] {
  if (Array.isArray(index)) return index as readonly AdvIndexItem[];
  if (typeof index === 'string' && index.includes(',')) return index.split(',');
  return [index as AdvIndexItem];
}

/** paddle.nonzero(x, as_tuple=False): int64 [n, rank], or with as_tuple rank tensors of shape [n, 1]. */
export function nonzero(x: TensorLike, as_tuple: boolean | { as_tuple?: boolean } = false): TensorLike | TensorLike[] {
  const tuple = typeof as_tuple === 'object' ? Boolean(as_tuple.as_tuple) : as_tuple;
  const out = run1('nonzero', [x]);
  if (!tuple) return out;
  const r = x.shape.length;
  if (r <= 1) return [out];
  const parts = Array.from({ length: r }, (_, j) => run1('slice', [out], { axes: [1], starts: [j], ends: [j + 1] }));
  if (out instanceof Tensor) out.dispose();
  return parts;
}

export const advIndexPublic: Readonly<Record<string, (...a: any[]) => unknown>> = { nonzero };

declare module '../tensor/tensor.js' {
  interface Tensor {
    /** x[items] (docs/indexing.md): a view for basic items, a copy with advanced ones. */
    get(...items: AdvIndexItem[]): TensorLike;
    /** x[items] = value in place; an array is the tuple of items (a list index is [[0, 2]]). */
    set(items: AdvIndexItem | readonly AdvIndexItem[], value: SetItemValue): TensorLike;
  }
}

const METHODS: Record<string, (this: Tensor, ...a: any[]) => unknown> = {
  get(this: Tensor, ...items: AdvIndexItem[]) { return get_item(this, items.length === 1 && typeof items[0] === 'string' ? asItems(items[0]) : items); },
  set(this: Tensor, items: AdvIndexItem | readonly AdvIndexItem[], value: SetItemValue) { return set_item_adv(this, items, value); },
  nonzero(this: Tensor, as_tuple?: boolean) { return nonzero(this, as_tuple); },
};
for (const [name, fn] of Object.entries(METHODS)) {
  if (Object.prototype.hasOwnProperty.call(Tensor.prototype, name)) continue;  // hand-written members win
  Object.defineProperty(Tensor.prototype, name, { value: fn, writable: true, configurable: true });
}
