// Guards, built only from sources. One named builder per guard kind. Guards whose source is
// local (entry slots and items of structured slots) are checked in TypeScript; the rest
// (globals, attributes of host objects) are grouped per tree node and checked by the host in
// one call.
import { native } from '../src/native.js';
import { isGradEnabled } from '../src/autograd/mode.js';
import { tensorScalarTruth, type TypedScalar } from './tensor_semantics.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { type Dim, dimStr, SymDim } from '../src/tensor/shape.js';
import { isLocalSource, type Source } from './sources.js';
import { type RtValue, sameConst, showValue } from './values.js';

export type Guard =
  | { readonly kind: 'kind'; readonly source: Source; readonly expect: RtValue['k'] }
  | { readonly kind: 'const'; readonly source: Source; readonly expect: RtValue }
  | { readonly kind: 'tensor'; readonly source: Source; readonly dtype: string; readonly shape: readonly Dim[]; readonly stopGradient: boolean }
  | { readonly kind: 'length'; readonly source: Source; readonly expect: number }
  | { readonly kind: 'identity'; readonly source: Source; readonly expect: number | object; readonly typeName: string }
  /**
   * An object of exactly this type (by the type's identity, HostRef.typeId): for objects that
   * are new on every call, such as exceptions, where an identity guard would never hold again.
   */
  | { readonly kind: 'type'; readonly source: Source; readonly expect: number | object; readonly typeName: string }
  /**
   * Nothing is at `source` (an attribute the object's own __dict__ does not have): a read that
   * fell through to the class, or raised AttributeError, at translation. The host resolves it to
   * undefined (Host.resolve) while the guards before it (the base's type) hold.
   */
  | { readonly kind: 'absent'; readonly source: Source }
  /**
   * The objects at `members` (entry objects guarded by type, not identity) are different objects,
   * and none of `others` (objects the node knows by id and reads or writes attributes of): the
   * translation modelled them as separate objects. `source` is the first member.
   */
  | { readonly kind: 'distinct'; readonly source: Source; readonly members: readonly Source[]; readonly others: readonly (number | object)[] }
  /**
   * Which of these mutable containers are the same object: `members` are entry sources or
   * fixed host objects (by id), `groups` the partition seen at translation (same number, same
   * object). A node that modelled two names as one list must not run when they are two lists,
   * and the reverse. `source` is the first member that is a source.
   */
  | { readonly kind: 'aliasing'; readonly source: Source; readonly members: readonly (Source | { readonly id: number | object })[]; readonly groups: readonly number[] }
  /**
   * The tensor at `source` shares its storage with no other tensor of the entry (any slot, any
   * depth) and with none of `fixed` (tensors bound into the graph): the node writes it in place
   * (a functionalized inplace op), which is only sound when no other value sees that storage.
   */
  | { readonly kind: 'sole_storage'; readonly source: Source; readonly fixed: readonly Tensor[] }
  /**
   * No tensor of the entry shares its storage with any of `written` (bound tensors — layer
   * buffers — the node writes in place): the graph read them as constants, so an entry alias
   * would miss the write. `source` is slot 0 (for messages only).
   */
  | { readonly kind: 'unaliased_written'; readonly source: Source; readonly written: readonly Tensor[] }
  /**
   * The global grad mode (paddle.is_grad_enabled()) at the node's entry is `expect`. Graphs
   * would serve both modes, but Paddle guards it (a switch re-translates) and its translate
   * counts are part of its API. `source` is slot 0 (for messages only).
   */
  | { readonly kind: 'grad_mode'; readonly source: Source; readonly expect: boolean }
  /**
   * `bool(t <sym> scalar)` of the one-element entry tensor at `source` is `expect`: a value
   * guard, for the few places Python compares a tensor by value where the translator must
   * know the answer (sequence membership: list.remove / index / count, `in`).
   */
  | { readonly kind: 'tensor_truth'; readonly source: Source; readonly sym: string; readonly scalar: TypedScalar; readonly expect: boolean }
  /**
   * A NumPy value at `source` (values.ts NumpyInfo), guarded by what the translator read of it
   * instead of its identity: a scalar by dtype and value (a new np.int64(2) each call still
   * hits), an array by dtype and shape (its data reaches graphs as an input, read each run).
   */
  | { readonly kind: 'numpy'; readonly source: Source; readonly np: 'scalar' | 'array'; readonly dtype: string; readonly value?: RtValue; readonly shape?: readonly number[] };

/**
 * Symbols made symbolic automatically (sot/dynamic_dims.ts) bind only sizes >= 2: sizes 0 and 1
 * change broadcasting and emptiness, so they keep concrete translations of their own.
 */
export const nontrivialSyms = new Set<SymDim>();

export const kindGuard = (source: Source, expect: RtValue['k']): Guard => ({ kind: 'kind', source, expect });
export const constGuard = (source: Source, expect: RtValue): Guard => ({ kind: 'const', source, expect });
export const tensorGuard = (source: Source, t: { dtype: string; shape: readonly Dim[]; stop_gradient: boolean }): Guard =>
  ({ kind: 'tensor', source, dtype: t.dtype, shape: [...t.shape], stopGradient: t.stop_gradient });
export const lengthGuard = (source: Source, expect: number): Guard => ({ kind: 'length', source, expect });
export const identityGuard = (source: Source, expect: number | object, typeName: string): Guard => ({ kind: 'identity', source, expect, typeName });
export const typeGuard = (source: Source, expect: number | object, typeName: string): Guard => ({ kind: 'type', source, expect, typeName });
export const absentGuard = (source: Source): Guard => ({ kind: 'absent', source });
export const distinctGuard = (members: readonly Source[], others: readonly (number | object)[]): Guard => ({ kind: 'distinct', source: members[0], members, others });
export const soleStorageGuard = (source: Source, fixed: readonly Tensor[]): Guard => ({ kind: 'sole_storage', source, fixed });
export const unaliasedWrittenGuard = (source: Source, written: readonly Tensor[]): Guard => ({ kind: 'unaliased_written', source, written });
export const gradModeGuard = (source: Source, expect: boolean): Guard => ({ kind: 'grad_mode', source, expect });
export const tensorTruthGuard = (source: Source, sym: string, scalar: TypedScalar, expect: boolean): Guard => ({ kind: 'tensor_truth', source, sym, scalar, expect });
export const numpyScalarGuard = (source: Source, dtype: string, value: RtValue): Guard => ({ kind: 'numpy', source, np: 'scalar', dtype, value });
export const numpyArrayGuard = (source: Source, dtype: string, shape: readonly number[]): Guard => ({ kind: 'numpy', source, np: 'array', dtype, shape: [...shape] });
/** Item key of a NumPy array's data tensor (resolveLocal): its storage as a graph input. */
export const NUMPY_DATA: RtValue = { k: 'str', v: '<ndarray data>' };
export const aliasingGuard = (members: readonly (Source | { readonly id: number | object })[], groups: readonly number[]): Guard => {
  const first = members.find((m): m is Source => 'key' in m);
  if (!first) throw new Error('aliasing guard without a source');
  return { kind: 'aliasing', source: first, members, groups };
};

export function describeGuard(g: Guard): string {
  const s = g.source.key;
  switch (g.kind) {
    case 'kind': return `type(${s}) is ${g.expect}`;
    case 'const': return `${s} == ${showValue(g.expect)} (${g.expect.k})`;
    case 'tensor': {
      const big = g.shape.filter((d): d is SymDim => typeof d !== 'number' && nontrivialSyms.has(d));
      return `${s}: tensor ${g.dtype}[${g.shape.map(dimStr).join(', ')}] stop_gradient=${g.stopGradient}${big.length ? ` (${big.map(dimStr).join(', ')} >= 2)` : ''}`;
    }
    case 'length': return `len(${s}) == ${g.expect}`;
    case 'identity': return `id(${s}) is the ${g.typeName} seen at translation`;
    case 'type': return `type(${s}) is ${g.typeName}`;
    case 'absent': return `${s} is not set`;
    case 'distinct': return `${g.members.map((m) => m.key).join(', ')} are different objects, none of ${g.others.length} known ones`;
    case 'aliasing': return `same-object groups of ${g.members.map((m) => ('key' in m ? m.key : `<object>`)).join(', ')} are ${g.groups.join(',')}`;
    case 'sole_storage': return `${s} shares its storage with no other entry tensor and none of ${g.fixed.length} bound tensors`;
    case 'unaliased_written': return `no entry tensor shares its storage with the ${g.written.length} bound tensor(s) written in place`;
    case 'grad_mode': return `paddle.is_grad_enabled() is ${g.expect ? 'True' : 'False'}`;
    case 'tensor_truth': return `bool(${s} ${g.sym} ${String(g.scalar.scalar)} (${g.scalar.kind})) is ${g.expect ? 'True' : 'False'}`;
    case 'numpy': return g.np === 'scalar' ? `${s} == np.${g.dtype}(${showValue(g.value!)})` : `${s}: np.ndarray ${g.dtype}[${g.shape!.join(', ')}]`;
  }
}

const guardKey = (g: Guard): string => describeGuard(g);

/** A deduplicated guard list in evaluation order (cheap kind checks first). */
export class GuardSet {
  readonly local: Guard[] = [];
  readonly host: Guard[] = [];
  private keys = new Set<string>();

  add(g: Guard): void {
    const k = guardKey(g);
    if (this.keys.has(k)) return;
    this.keys.add(k);
    const local = g.kind === 'aliasing' ? g.members.every((m) => !('key' in m) || isLocalSource(m))
      : g.kind === 'distinct' ? g.members.every(isLocalSource) : isLocalSource(g.source);
    (local ? this.local : this.host).push(g);
  }

  get size(): number { return this.local.length + this.host.length; }
  describe(): string[] { return [...this.local, ...this.host].map(describeGuard); }
}

/** Resolves a local source against entry slots; undefined when the structure does not match. */
export function resolveLocal(s: Source, slots: readonly RtValue[]): RtValue | undefined {
  switch (s.k) {
    case 'slot': return slots[s.i];
    case 'item': {
      const base = resolveLocal(s.base, slots);
      if (!base) return undefined;
      if (base.k === 'obj') return base.np?.kind === 'array' && s.index.k === 'str' && s.index.v === (NUMPY_DATA as { v: string }).v ? { k: 'tensor', t: base.np.t } : undefined;
      if ((base.k === 'tuple' || base.k === 'list') && s.index.k === 'int') {
        const i = Number(s.index.v);
        return base.items[i < 0 ? base.items.length + i : i];
      }
      if (base.k === 'dict') {
        const j = base.keys.findIndex((key) => sameConst(key, s.index));
        return j < 0 ? undefined : base.values[j];
      }
      return undefined;
    }
    default: return undefined;
  }
}

/**
 * Checks a guard against a resolved value. Symbolic dims in a tensor guard accept any size but
 * must be consistent: the same symbol binds the same size everywhere (bindings is shared
 * across one node's guards).
 */
export function checkGuard(g: Guard, v: RtValue | undefined, bindings: Map<SymDim, number>): boolean {
  if (g.kind === 'grad_mode') return isGradEnabled() === g.expect;
  if (g.kind === 'absent') return v === undefined;
  if (v === undefined) return false;
  switch (g.kind) {
    case 'kind': return v.k === g.expect;
    case 'const': return sameConst(v, g.expect);
    case 'numpy': {
      if (v.k !== 'obj' || !v.np || v.np.kind !== g.np || v.np.dtype !== g.dtype) return false;
      // Object.is: -0.0 and 0.0 are different constants to bake in (1 / s), NaN is itself
      if (v.np.kind === 'scalar') return v.np.value.k === g.value!.k && Object.is((v.np.value as { v: unknown }).v, (g.value as { v: unknown }).v);
      const shape = v.np.t.shape;
      return shape.length === g.shape!.length && shape.every((d, i) => d === g.shape![i]);
    }
    case 'tensor_truth': return v.k === 'tensor' && v.t.size === 1 && tensorScalarTruth(v.t, g.sym, g.scalar) === g.expect;
    case 'length': return (v.k === 'tuple' || v.k === 'list') ? v.items.length === g.expect : v.k === 'dict' ? v.keys.length === g.expect : false;
    case 'identity': return v.k === 'obj' && v.ref.id === g.expect;
    case 'type': { if (v.k !== 'obj') return false; const t = v.ref.typeId; return t !== undefined && t === g.expect; }
    case 'aliasing': case 'sole_storage': case 'unaliased_written': case 'distinct': return true;   // checked with all the entry in firstFailingLocal
    case 'tensor': {
      if (v.k !== 'tensor') return false;
      const t: Tensor = v.t;
      if (t.dtype !== g.dtype || t.stop_gradient !== g.stopGradient || t.shape.length !== g.shape.length) return false;
      for (let i = 0; i < g.shape.length; i++) {
        const d = g.shape[i];
        if (typeof d === 'number') { if (t.shape[i] !== d) return false; }
        else {
          const b = bindings.get(d);
          if (b === undefined) { if (t.shape[i] < 2 && nontrivialSyms.has(d)) return false; bindings.set(d, t.shape[i]); }
          else if (b !== t.shape[i]) return false;
        }
      }
      return true;
    }
  }
}

/** First failing local guard, or null. */
export function firstFailingLocal(set: GuardSet, slots: readonly RtValue[]): Guard | null {
  const bindings = new Map<SymDim, number>();
  for (const g of set.local) {
    if (g.kind === 'aliasing') { if (!checkAliasing(g, slots)) return g; continue; }
    if (g.kind === 'distinct') { if (!checkDistinct(g, (m) => resolveLocal(m, slots))) return g; continue; }
    if (g.kind === 'sole_storage') { if (!checkSoleStorage(g, slots)) return g; continue; }
    if (g.kind === 'unaliased_written') { if (!checkUnaliasedWritten(g.written, slots)) return g; continue; }
    if (!checkGuard(g, resolveLocal(g.source, slots), bindings)) return g;
  }
  return null;
}

export function checkAliasing(g: Extract<Guard, { kind: 'aliasing' }>, slots: readonly RtValue[]): boolean {
  const ids: (number | object | undefined)[] = g.members.map((m) => {
    if (!('key' in m)) return m.id;
    const v = resolveLocal(m, slots);
    // (a list/dict made by the parent node has no host object: the entry value itself is one per run)
    return v && (v.k === 'list' || v.k === 'dict') ? v.ref?.id ?? v : undefined;
  });
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === undefined) return false;
    for (let j = 0; j < i; j++) if ((ids[i] === ids[j]) !== (g.groups[i] === g.groups[j])) return false;
  }
  return true;
}

/** Whether a distinct guard holds, its members resolved by `at`. */
export function checkDistinct(g: Extract<Guard, { kind: 'distinct' }>, at: (s: Source) => RtValue | undefined): boolean {
  const seen = new Set<number | object>(g.others);
  for (const m of g.members) {
    const v = at(m);
    if (!v || v.k !== 'obj' || seen.has(v.ref.id)) return false;
    seen.add(v.ref.id);
  }
  return true;
}

function entryTensors(v: RtValue, out: Tensor[]): void {
  if (v.k === 'tensor') out.push(v.t);
  else if (v.k === 'tuple' || v.k === 'list') for (const x of v.items) entryTensors(x, out);
  else if (v.k === 'dict') for (const x of v.values) entryTensors(x, out);
  else if (v.k === 'obj' && v.np?.kind === 'array') out.push(v.np.t);   // an ndarray's storage (np.asarray(t) may share t's)
}

/** Whether a sole_storage guard holds for these entry slots (also asked at translation time). */
/** No entry tensor (any slot, any depth) shares storage with one of `written`. */
export function checkUnaliasedWritten(written: readonly Tensor[], slots: readonly RtValue[]): boolean {
  const all: Tensor[] = [];
  for (const s of slots) entryTensors(s, all);
  for (const u of all) for (const w of written) if (u === w || native.sameStorage(u.handle, w.handle)) return false;
  return true;
}

export function checkSoleStorage(g: Extract<Guard, { kind: 'sole_storage' }>, slots: readonly RtValue[]): boolean {
  const v = resolveLocal(g.source, slots);
  if (!v || v.k !== 'tensor') return false;
  const all: Tensor[] = [];
  for (const s of slots) entryTensors(s, all);
  const h = v.t.handle;
  let seen = 0;   // the tensor itself is in the entry once; a second sighting is an alias
  for (const u of all) if (u === v.t || native.sameStorage(u.handle, h)) seen++;
  if (seen !== 1) return false;
  for (const u of g.fixed) if (u === v.t || native.sameStorage(u.handle, h)) return false;
  return true;
}
