// Dynamic (symbolic) dims of entry tensors. A translation normally specializes every tensor to
// its concrete shape; a dim made symbolic here becomes a SymDim in the graph input and in the
// tensor guard, so one translation serves every size of that dim (guards.ts binds symbols
// consistently, the executor specializes its plan per concrete signature).
//
// Where symbolic dims come from, at a root (entry) translation only:
//  - InputSpec dims given as None/-1 (paddle.jit.to_static(input_spec=...)), by argument;
//  - paddle.jit.marker.dynamic_dims(x, dims) on the tensor object passed in;
//  - automatically: a root miss whose only failing guards are tensor dims (same dtype, rank and
//    stop_gradient) re-translates with those dims symbolic (dimsOnlyMiss).
// Children (after a break) inherit the shapes of the values their parent hands them: an entry
// tensor passed through keeps its parent's symbolic shape, a graph output has the shape the
// graph inferred. A child tensor whose shape cannot be traced back is guarded concretely, so a
// symbolic parent never feeds a child that silently assumed one size.
import type { Tensor } from '../src/tensor/tensor.js';
import { type Dim, type Shape, SymDim } from '../src/tensor/shape.js';
import { checkAliasing, checkGuard, checkSoleStorage, checkUnaliasedWritten, nontrivialSyms, resolveLocal } from './guards.js';
import { itemSource, type Source } from './sources.js';
import type { Template, TreeNode } from './trace_tree.js';
import type { RtValue } from './values.js';

/** Symbolic dims wanted per entry source key (slot/item sources). */
export type DimSpec = Map<string, Set<number>>;

/** Dims marked on tensor objects by paddle.jit.marker.dynamic_dims (they die with the tensor). */
const marks = new WeakMap<Tensor, readonly number[]>();
export function markDynamicDims(t: Tensor, dims: readonly number[]): void {
  const r = t.shape.length;
  const norm = dims.map((d) => {
    if (!Number.isInteger(d) || d < -r || d >= r) throw new RangeError(`dynamic_dims: dim ${d} is out of range for a tensor of shape [${t.shape.join(', ')}]`);
    return d < 0 ? d + r : d;
  });
  marks.set(t, [...new Set([...(marks.get(t) ?? []), ...norm])]);
}
export const markedDims = (t: Tensor): readonly number[] | undefined => marks.get(t);

/**
 * What a translation knows about the symbolic shapes of its entry tensors. `propose` gives the
 * shape to use for the tensor at a local source: a Shape (possibly all numbers: known exactly
 * without a guard) or undefined (not known: the translator guards it concretely when `strict`).
 */
export interface EntryShapes {
  propose(source: Source, t: Tensor): Shape | undefined;
  /** The tree above has symbolic dims: unguarded entry tensors of unknown shape must be guarded. */
  readonly strict: boolean;
}

/**
 * A root translation: symbols for the dims in `spec` (InputSpec) and the tensors' own marks,
 * which bind any size, and for the dims in `auto` (a dims-only miss), which bind sizes >= 2.
 */
export function rootEntryShapes(spec: DimSpec, miss: { auto: DimSpec; any: DimSpec } | null): EntryShapes {
  const auto = miss?.auto;
  let n = 0;
  return {
    strict: false,
    propose(source, t) {
      const want = new Set<number>([...(spec.get(source.key) ?? []), ...(miss?.any.get(source.key) ?? [])]);
      for (const d of markedDims(t) ?? []) want.add(d);
      const automatic = auto?.get(source.key);
      const dims = [...new Set([...want, ...(automatic ?? [])])].filter((d) => d >= 0 && d < t.shape.length);
      if (!dims.length) return undefined;
      // Names unlike source keys (s0, s1) so guard listings stay readable: S0, S1 (any size),
      // N0, N1 (sizes >= 2, see guards.ts nontrivialSyms).
      return t.shape.map((d, i): Dim => {
        if (!dims.includes(i)) return d;
        if (want.has(i)) return SymDim.of(`S${n++}`);
        const s = SymDim.of(`N${n++}`);
        nontrivialSyms.add(s);
        return s;
      });
    },
  };
}

/** A child of `parent`: shapes of its entry slots traced back through the parent's exit templates. */
export function childEntryShapes(parent: TreeNode): EntryShapes | null {
  const known = parent.entryShapes;
  if (!known) return null;
  const exit = parent.exit;
  if (exit.k !== 'step') return null;
  const viaTemplate = (tpl: Template, path: RtValue[], t: Tensor): Shape | undefined => {
    switch (tpl.k) {
      case 'local': {
        let src = tpl.source;
        for (const p of path) src = itemSource(src, p);
        // Not in the parent's table: the parent had it concretely (guarded or known exactly).
        return known.get(src.key) ?? t.shape;
      }
      case 'gout': {
        if (path.length || !parent.graph) return undefined;
        return parent.graph.values[parent.graph.outputs[tpl.i]]?.shape;
      }
      case 'const': return path.length ? undefined : t.shape;
      case 'tuple': case 'list': {
        if (!path.length || path[0].k !== 'int') return undefined;
        const item = tpl.items[Number(path[0].v)];
        return item ? viaTemplate(item, path.slice(1), t) : undefined;
      }
      default: return undefined;   // step results and re-read containers are guarded anyway
    }
  };
  return {
    strict: true,
    propose(source, t) {
      const path: RtValue[] = [];
      let s = source;
      while (s.k === 'item') { path.unshift(s.index); s = s.base; }
      if (s.k !== 'slot' || s.i >= exit.resume.length) return undefined;
      const shape = viaTemplate(exit.resume[s.i], path, t);
      // A shape of another rank means the trace-back went wrong: let the guard decide.
      return shape && shape.length === t.shape.length ? shape : undefined;
    },
  };
}

/**
 * The dims that differ when `root` misses only on tensor dims (dtype, rank and stop_gradient
 * hold, every non-tensor guard holds), together with the root's already symbolic dims; null
 * when the miss has any other cause (then a plain re-translation is right).
 */
export function dimsOnlyMiss(root: TreeNode, entry: readonly RtValue[]): { auto: DimSpec; any: DimSpec } | null {
  const spec: DimSpec = new Map(), any: DimSpec = new Map();
  let differs = false;
  const put = (m: DimSpec, key: string, i: number) => { let s = m.get(key); if (!s) m.set(key, s = new Set()); s.add(i); };
  const add = (key: string, i: number) => put(spec, key, i);
  for (const g of root.guards.local) {
    if (g.kind === 'aliasing') { if (!checkAliasing(g, entry)) return null; continue; }
    if (g.kind === 'sole_storage') { if (!checkSoleStorage(g, entry)) return null; continue; }
    if (g.kind === 'unaliased_written') { if (!checkUnaliasedWritten(g.written, entry)) return null; continue; }
    const v = resolveLocal(g.source, entry);
    if (g.kind !== 'tensor') { if (!checkGuard(g, v, new Map())) return null; continue; }
    if (!v || v.k !== 'tensor') return null;
    const t = v.t;
    if (t.dtype !== g.dtype || t.stop_gradient !== g.stopGradient || t.shape.length !== g.shape.length) return null;
    for (let i = 0; i < g.shape.length; i++) {
      const d = g.shape[i];
      if (typeof d !== 'number') {
        if (nontrivialSyms.has(d) && t.shape[i] < 2) return null;   // 0 and 1 stay concrete
        if (nontrivialSyms.has(d)) add(g.source.key, i);
        else put(any, g.source.key, i);   // InputSpec / marker dims keep binding any size
      } else if (d !== t.shape[i]) {
        if (t.shape[i] < 2) return null;
        add(g.source.key, i);
        differs = true;
      }
    }
  }
  if (root.hostCheck && !root.hostCheck(entry)) return null;
  return differs ? { auto: spec, any } : null;
}

