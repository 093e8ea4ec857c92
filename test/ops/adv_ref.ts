// Plain-array references for advanced indexing: the ops (gather_nd, index_put, masked_select,
// masked_scatter, nonzero) and numpy's x[index] / x[index] = v with mixed basic and advanced
// items. Used by test/ops/db/index_adv.ts and test/ops/adv_index.test.ts.
import type { DType } from '../../src/tensor/dtype.js';
import { atBroadcast, broadcastShape, type NDArray, size, stridesOf, unravel } from './ref.js';

const offsetOf = (shape: readonly number[], idx: readonly number[]): number => {
  const st = stridesOf(shape);
  return idx.reduce((p, v, i) => p + v * st[i], 0);
};
const wrap = (v: number, n: number): number => {
  if (v < -n || v >= n) throw new RangeError(`index ${v} out of range for size ${n}`);
  return v < 0 ? v + n : v;
};

export function refNonzero(x: NDArray): NDArray {
  const rank = x.shape.length;
  const data: number[] = [];
  let n = 0;
  x.data.forEach((v, i) => { if (v !== 0) { data.push(...unravel(i, x.shape)); n++; } });
  return { shape: [n, rank], data, dtype: 'int64' };
}

export function refMaskedSelect(x: NDArray, mask: NDArray): NDArray {
  const shape = broadcastShape(x.shape, mask.shape);
  const data: number[] = [];
  for (let i = 0; i < size(shape); i++) {
    const idx = unravel(i, shape);
    if (atBroadcast(mask, idx)) data.push(atBroadcast(x, idx));
  }
  return { shape: [data.length], data, dtype: x.dtype };
}

export function refMaskedScatter(x: NDArray, mask: NDArray, value: NDArray): NDArray {
  let k = 0;
  const data = x.data.map((v, i) => (atBroadcast(mask, unravel(i, x.shape)) ? value.data[k++] : v));
  return { shape: [...x.shape], data, dtype: x.dtype };
}

export function refGatherNd(x: NDArray, index: NDArray): NDArray {
  const k = index.shape[index.shape.length - 1];
  const lead = index.shape.slice(0, -1), tail = x.shape.slice(k);
  const data: number[] = [];
  for (let r = 0; r < size(lead); r++) {
    const head = index.data.slice(r * k, r * k + k).map((v, j) => wrap(v, x.shape[j]));
    for (let t = 0; t < size(tail); t++) data.push(x.data[offsetOf(x.shape, [...head, ...unravel(t, tail)])]);
  }
  return { shape: [...lead, ...tail], data, dtype: x.dtype };
}

/** Int index columns of index_put's indices (bool masks expanded to their true coordinates). */
function intColumns(indices: readonly NDArray[]): NDArray[] {
  const cols: NDArray[] = [];
  for (const t of indices) {
    if (t.dtype !== 'bool') { cols.push(t); continue; }
    const nz = refNonzero(t);
    const n = nz.shape[0], r = t.shape.length;
    for (let j = 0; j < r; j++) cols.push({ shape: [n], data: Array.from({ length: n }, (_, q) => nz.data[q * r + j]), dtype: 'int64' });
  }
  return cols;
}

export function refIndexPut(x: NDArray, indices: readonly NDArray[], value: NDArray, accumulate: boolean): NDArray {
  const cols = intColumns(indices);
  const b = cols.reduce<number[]>((s, c) => broadcastShape(s, c.shape), []);
  const tail = x.shape.slice(cols.length);
  const region = [...b, ...tail];
  const data = [...x.data];
  for (let i = 0; i < size(region); i++) {
    const idx = unravel(i, region);
    const head = cols.map((c, j) => wrap(atBroadcast(c, idx.slice(0, b.length)), x.shape[j]));
    const off = offsetOf(x.shape, [...head, ...idx.slice(b.length)]);
    const v = atBroadcast(value, idx);
    data[off] = accumulate ? data[off] + v : v;
  }
  return { shape: [...x.shape], data, dtype: x.dtype };
}

// ---- numpy's x[index] ----------------------------------------------------------------------------

/** One index item: an int, 'a:b:c' slice text, null (newaxis), '...', or an advanced index (int or bool array). */
export type RefItem = number | string | null | NDArray;

const isArr = (v: RefItem): v is NDArray => v !== null && typeof v === 'object';

/** Python's slice.indices, then the walk, for `a:b:c` text on a dim of size n (setitem.test.ts uses it too). */
export function sliceRange(n: number, text: string): number[] {
  const [a, b, c] = text.split(':').map((p) => (p === undefined || p.trim() === '' ? null : Number(p)));
  const step = c ?? 1;
  const norm = (v: number | null, dflt: number, lo: number, hi: number): number => {
    if (v === null) return dflt;
    const w = v < 0 ? v + n : v;
    return Math.min(Math.max(w, lo), hi);
  };
  const s = step > 0 ? norm(a, 0, 0, n) : norm(a, n - 1, -1, n - 1);
  const e = step > 0 ? norm(b ?? null, n, 0, n) : norm(b ?? null, -1, -1, n - 1);
  const out: number[] = [];
  for (let i = s; step > 0 ? i < e : i > e; i += step) out.push(i);
  return out;
}

interface Plan {
  /** Output dims and, per dim, how it maps to x: a basic x dim with its positions, a newaxis, or the advanced block. */
  shape: number[];
  /** For an output multi-index, x's multi-index. */
  source(idx: number[]): number[];
}

/** numpy's rules: bool arrays become their nonzero columns; advanced dims go where the first advanced item is when they are adjacent, else to the front. */
export function refPlan(xshape: readonly number[], index: readonly RefItem[]): Plan {
  // Expand bools and the ellipsis first.
  const items: ({ kind: 'int'; v: number } | { kind: 'slice'; t: string } | { kind: 'new' } | { kind: 'adv'; a: NDArray })[] = [];
  const nReal = index.reduce<number>((p, it) => p + (it === null || it === '...' ? 0 : isArr(it) && it.dtype === 'bool' ? Math.max(it.shape.length, 1) : 1), 0);
  for (const it of index) {
    if (it === '...') { for (let k = 0; k < xshape.length - nReal; k++) items.push({ kind: 'slice', t: ':' }); continue; }
    if (it === null) items.push({ kind: 'new' });
    else if (typeof it === 'number') items.push({ kind: 'int', v: it });
    else if (typeof it === 'string') items.push({ kind: 'slice', t: it });
    else if (it.dtype === 'bool') for (const c of intColumns([it])) items.push({ kind: 'adv', a: c });
    else items.push({ kind: 'adv', a: it });
  }
  while (items.filter((i) => i.kind !== 'new').length < xshape.length) items.push({ kind: 'slice', t: ':' });
  const advPos = items.map((it, i) => (it.kind === 'adv' ? i : -1)).filter((i) => i >= 0);
  const adjacent = advPos.length > 0 && advPos[advPos.length - 1] - advPos[0] === advPos.length - 1;
  const bshape = items.reduce<number[]>((s, it) => (it.kind === 'adv' ? broadcastShape(s, it.a.shape) : s), []);
  // Output layout: a list of parts.
  type Part = { kind: 'basic'; xdim: number; picks: number[] } | { kind: 'new' } | { kind: 'adv' };
  const parts: Part[] = [];
  const xOf: ({ kind: 'int'; v: number } | { kind: 'basic'; part: number } | { kind: 'adv'; a: NDArray })[] = [];
  let d = 0;
  let advPlaced = false;
  if (advPos.length && !adjacent) { parts.push({ kind: 'adv' }); advPlaced = true; }
  for (const it of items) {
    if (it.kind === 'new') { parts.push({ kind: 'new' }); continue; }
    const n = xshape[d];
    if (it.kind === 'int') xOf.push({ kind: 'int', v: wrap(it.v, n) });
    else if (it.kind === 'slice') { xOf.push({ kind: 'basic', part: parts.length }); parts.push({ kind: 'basic', xdim: d, picks: sliceRange(n, it.t) }); }
    else {
      xOf.push({ kind: 'adv', a: it.a });
      if (!advPlaced) { parts.push({ kind: 'adv' }); advPlaced = true; }
    }
    d++;
  }
  const shape: number[] = [];
  const partStart: number[] = [];
  for (const p of parts) {
    partStart.push(shape.length);
    if (p.kind === 'basic') shape.push(p.picks.length);
    else if (p.kind === 'new') shape.push(1);
    else shape.push(...bshape);
  }
  const advAt = parts.findIndex((p) => p.kind === 'adv');
  return {
    shape,
    source(idx) {
      const bidx = advAt < 0 ? [] : idx.slice(partStart[advAt], partStart[advAt] + bshape.length);
      return xOf.map((o, j) => {
        if (o.kind === 'int') return o.v;
        if (o.kind === 'basic') return (parts[o.part] as { picks: number[] }).picks[idx[partStart[o.part]]];
        return wrap(atBroadcast(o.a, bidx), xshape[j]);
      });
    },
  };
}

export function refGetItem(x: NDArray, index: readonly RefItem[]): NDArray {
  const plan = refPlan(x.shape, index);
  const data = Array.from({ length: size(plan.shape) }, (_, i) => x.data[offsetOf(x.shape, plan.source(unravel(i, plan.shape)))]);
  return { shape: plan.shape, data, dtype: x.dtype };
}

export function refSetItem(x: NDArray, index: readonly RefItem[], v: NDArray, dtype: DType = x.dtype): NDArray {
  const plan = refPlan(x.shape, index);
  const data = [...x.data];
  for (let i = 0; i < size(plan.shape); i++) {
    const idx = unravel(i, plan.shape);
    data[offsetOf(x.shape, plan.source(idx))] = atBroadcast(v, idx);
  }
  return { shape: [...x.shape], data, dtype };
}
