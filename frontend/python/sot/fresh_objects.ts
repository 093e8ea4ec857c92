// Entry objects that are new on every call: an instance of a plain user class passed as an
// argument or as `self` (`to_static(B().method)`, `f(x, Config(scale=2))`). An identity guard
// would never hold again, so, as Paddle does, such an object is guarded by its type and by what
// the translation read of it: each attribute read is a source `sN.name` (the instance's own
// __dict__ entry, SotPythonHost.resolve) guarded as that kind of value is (a tensor by its meta
// and fed to the graph from this call's object, a constant by value, a plain object again by
// type and reads, another object by identity, a missing entry by its absence). Methods come
// from the class (guarded there), attribute writes are side effects replayed on this call's
// object through the source.
//
// Identity still matters wherever the real object is used for itself, and those uses are many
// and spread out (host queries, `is`, hashing, concrete steps). So the variable hands its real
// ref's id out only through a getter that records the use: any such use, an escape (step operand,
// return value, stored in an effect) or a second name for the same object makes the node guard
// the object's identity as before (`finishFresh`). Only the paths here read it silently.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { absentGuard, checkDistinct, checkGuard, distinctGuard, type Guard, type GuardSet, identityGuard, resolveLocal, typeGuard } from '../../../sot/guards.js';
import { attrSource, rootSlot, type Source } from '../../../sot/sources.js';
import type { HostRef, RtValue } from '../../../sot/values.js';
import { BoundMethodVar, DictVar, ListVar, type ObjInfo, ObjectVar, SetVar, SuperVar, TRAIT_EXCEPTION, TupleVar, type Variable } from '../../../sot/variables.js';
import type { Effect } from '../../../sot/trace_tree.js';
import type { SymDim } from '../../../src/tensor/shape.js';
import { callToReturn } from './call_inline.js';
import { classAttr, InstanceVar } from './user_objects.js';
import type { Translator } from './translator.js';

export class EntryInstanceVar extends ObjectVar {
  /** Set when the real object was used for itself: the node then guards its identity. */
  identityUsed = false;
  constructor(readonly real: HostRef, info: ObjInfo, source: Source, readonly cls: ObjectVar) {
    super(real, info, source);
    // (its type name and type read as the real ref's; only its id says which object it is)
    const watched = Object.create(real, { id: { get: () => { this.identityUsed = true; return real.id; } } }) as HostRef;
    Object.defineProperty(this, 'ref', { value: watched });
  }
  declare readonly source: Source;
}

/**
 * The variable of a plain instance at an entry source (guarded by type), or of a super object
 * (by type and what it binds: `f(super())`); null when it is neither.
 */
export function freshEntryVar(tx: Translator, ref: HostRef, source: Source): Variable | null {
  if (ref.typeName === 'super') return superEntryVar(tx, ref, source);
  const info = tx.host.describe(ref);
  if (info.kind !== 'other' || (info.traits & TRAIT_EXCEPTION)) return null;
  const typeId = ref.typeId;
  if (typeof typeId !== 'number') return null;
  const cls = tx.host.object(typeId);
  if (!tx.host.plainClass(cls)) return null;
  // Two names for one object must stay one object on later calls: identity for both.
  const seen = tx.freshByReal.get(ref.id as number);
  if (seen) { seen.identityUsed = true; return null; }
  tx.guards.add(typeGuard(source, typeId, ref.typeName));
  const v = new EntryInstanceVar(ref, info, source, tx.objectVar(cls, null));
  tx.freshByReal.set(ref.id as number, v);
  return v;
}

/** super(cls, obj) passed in: its class and object, each guarded through its source. */
function superEntryVar(tx: Translator, ref: HostRef, source: Source): Variable | null {
  const typeId = ref.typeId;
  if (typeId !== tx.host.builtinId('super')) return null;
  const cls = tx.host.instanceAttr(ref, '__thisclass__'), obj = tx.host.instanceAttr(ref, '__self__');
  if (cls?.k !== 'obj' || obj?.k !== 'obj') return null;   // (unbound super: as any object)
  tx.guards.add(typeGuard(source, typeId, 'super'));
  const part = (name: string, v: RtValue): Variable => {
    const src = attrSource(source, name);
    tx.host.noteResolved(tx.entry, src, v);
    return tx.fromRt(v, src, true);
  };
  return new SuperVar(part('__thisclass__', cls), part('__self__', obj));
}

/** Another variable of an object already held as a fresh entry: its identity matters now. */
export function noteOtherName(tx: Translator, ref: HostRef): void {
  const seen = tx.freshByReal.get(ref.id as number);
  if (seen) seen.identityUsed = true;
}

/** Values a translation may read from a fresh object's attribute and guard through its source. */
function sourceGuardable(v: RtValue): boolean {
  switch (v.k) {
    case 'tensor': case 'int': case 'float': case 'bool': case 'none': case 'str': return true;
    case 'tuple': return v.items.every(sourceGuardable);
    case 'obj': return !v.np;
    default: return false;   // lists, dicts: written through / aliased (guarded by the container)
  }
}

const missingAttr = (obj: EntryInstanceVar, name: string): GraphBreak => {
  const e = new GraphBreak('SOT007', `AttributeError: '${obj.real.typeName}' object has no attribute '${name}'`);
  e.pyRaises = true;
  return e;
};

/**
 * obj.name in CPython's order: data descriptors of the class (a property's getter is inlined),
 * the instance dict (read through the source, guarded), then class attributes (guarded on the
 * class). null: read it as any other object (the caller guards it by the container's identity).
 */
export function freshAttr(tx: Translator, obj: EntryInstanceVar, name: string): Variable | null {
  if (name === '__class__') return obj.cls;
  if (name.startsWith('__') && name.endsWith('__')) return null;
  const a = classAttr(tx, obj.cls, name);
  if (a.kind === 'property') return callToReturn(tx, a.value!, [obj], []);
  if (a.kind === 'data' || a.kind === 'descriptor') return null;
  const src = attrSource(obj.source, name);
  // (one variable per path: a second read is the same object, not a second name for it)
  const known = tx.freshReads.get(src);
  if (known) return known;
  const raw = tx.host.instanceAttr(obj.real, name);
  if (raw !== undefined) {
    if (!sourceGuardable(raw)) return null;
    tx.host.noteResolved(tx.entry, src, raw);
    const v = tx.fromRt(raw, src, true);
    tx.freshReads.set(src, v);
    return v;
  }
  tx.host.noteResolved(tx.entry, src, undefined);
  tx.guards.add(absentGuard(src));
  switch (a.kind) {
    case 'function': return new BoundMethodVar(obj, name, a.value);
    case 'static': case 'value': return a.value!;
    case 'none':
      if (a.hasGetattr) return null;
      throw missingAttr(obj, name);
    default: return null;   // object's own methods: read for real
  }
}

/**
 * obj.name = value: 'store' for a plain store into the instance dict (logged by the caller),
 * 'done' when a property's Python setter was inlined, null otherwise (as any object).
 */
export function freshSetAttr(tx: Translator, obj: EntryInstanceVar, name: string, value: Variable): 'store' | 'done' | null {
  const a = classAttr(tx, obj.cls, name);
  if (a.kind === 'property' && a.setter) { callToReturn(tx, a.setter, [obj, value], []); return 'done'; }
  return a.kind === 'property' || a.kind === 'data' || a.kind === 'descriptor' ? null : 'store';
}

/** Fresh entry objects inside values handed to Python (step operands, effects, the return value) escape. */
export function markEscapes(v: Variable, seen = new Set<Variable>()): void {
  if (seen.has(v)) return;
  seen.add(v);
  if (v instanceof EntryInstanceVar) { v.identityUsed = true; return; }
  if (v instanceof TupleVar || v instanceof ListVar || v instanceof SetVar) for (const x of v.items) markEscapes(x, seen);
  else if (v instanceof DictVar) { for (const x of v.keys) markEscapes(x, seen); for (const x of v.values) markEscapes(x, seen); }
  else if (v instanceof BoundMethodVar) markEscapes(v.self, seen);
  else if (v instanceof SuperVar) markEscapes(v.obj, seen);
  else if (v instanceof InstanceVar) for (const x of v.attrs.values()) markEscapes(x, seen);
}

/** The effects' values that escape: all operands but the target object of an attribute write. */
export function markEffectEscapes(effects: readonly Effect[], operandVar: (t: unknown) => Variable | null): void {
  for (const e of effects) {
    const target = e.step.opname === 'SKIFF_SETATTR' || e.step.opname === 'SKIFF_DELATTR';
    e.operands.forEach((o, i) => { const v = operandVar(o); if (v && !(target && i === 0)) markEscapes(v); });
  }
}

/**
 * At the end of a translation: fresh objects whose identity was used are guarded by it; the
 * others must be different objects on later calls too, and none of the objects the translation
 * read or wrote attributes of by identity (a later call may pass one of those: `c.v = 1; G.v`).
 */
export function finishFresh(tx: Translator): void {
  const members: Source[] = [];
  for (const v of tx.freshByReal.values()) {
    if (!v.identityUsed) { members.push(v.source); continue; }
    tx.guards.add(identityGuard(v.source, v.real.id, v.real.typeName));
    tx.host.pinForTree(v.real);
  }
  if (!members.length) return;
  const others = new Set<number>();
  for (const g of tx.host.pendingGuards) if (g.kind === 1) others.add(g.container);
  for (const k of tx.attrOverlay.keys()) others.add(Number(k.slice(0, k.indexOf('.'))));
  for (const v of tx.freshByReal.values()) if (!v.identityUsed) others.delete(v.real.id as number);
  if (members.length > 1 || others.size) tx.guards.add(distinctGuard(members, [...others]));
}

/**
 * The check of a node's guards on attribute paths of entry objects (GuardSet.host guards rooted
 * at a slot), resolved by the host on each call; null when there are none.
 */
export function attrGuardCheck(tx: Translator, guards: GuardSet): ((entry: readonly RtValue[]) => boolean) | null {
  const gs: Guard[] = guards.host.filter((g) => rootSlot(g.source) >= 0 && g.kind !== 'aliasing' && g.kind !== 'sole_storage' && g.kind !== 'unaliased_written');
  if (!gs.length) return null;
  const host = tx.host;
  return (entry) => {
    const bindings = new Map<SymDim, number>();
    const at = (s: Source) => resolveLocal(s, entry) ?? host.resolve(s, entry);
    for (const g of gs) {
      if (g.kind === 'distinct' ? !checkDistinct(g, at) : !checkGuard(g, host.resolve(g.source, entry), bindings)) return false;
    }
    return true;
  };
}
