// Attributes and items: obj.name, obj[key] and their stores and deletes, slices, and super().
// Host objects are read once at translation time (the read is guarded); writes are logged as
// side effects and replayed after the graph, and later reads in the segment see them.
import { GraphBreak, userRaise } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { attrSource, itemSource } from '../../../sot/sources.js';
import type { RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, CellVar, ConstVar, DictVar, FunctionVar, ListVar, ObjectVar, RangeVar, SetVar, SliceVar, SuperVar, TensorVar,
  TRAIT_EXCEPTION, TupleVar, type Variable,
} from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { compareOp, fromComputed, fromHostRead, isConstLike, toRt, truthy } from './semantics.js';
import { dictSet, itemsOf, setListItems } from './methods.js';
import { ctxAttr, PyLayerCtxVar, setCtxAttr } from './pylayer.js';
import { tensorAttr, tensorMethodCall } from './tensor_attrs.js';
import { asTuple, namedTupleAttr, NamedTupleVar } from './namedtuple.js';
import { generatorAttr, GeneratorVar } from './generators.js';
import { callToReturn } from './call_inline.js';
import { callDunder, classAttr, delInstanceAttr, InstanceVar, instanceAttr, setInstanceAttr } from './user_objects.js';
import { attrUnguarded, isNumpyArray, numpyAttr } from './numpy_values.js';
import { EntryInstanceVar, freshAttr, freshSetAttr } from './fresh_objects.js';

/** Data attributes of numbers (everything else on a constant is a method). */
const NUMBER_ATTRS = new Set(['real', 'imag', 'numerator', 'denominator']);

const attributeError = (detail: string): GraphBreak => new GraphBreak('SOT007', `AttributeError: ${detail}`);

/** Key of an object's attribute in tx.attrOverlay (a fresh entry object's own id is read silently). */
const overlayKey = (obj: ObjectVar, name: string): string => `${(obj instanceof EntryInstanceVar ? obj.real.id : obj.ref.id) as number}.${name}`;

export function getAttr(tx: Translator, obj: Variable, name: string): Variable {
  if (obj instanceof PyLayerCtxVar) return ctxAttr(obj, name);
  if (obj instanceof NamedTupleVar) return namedTupleAttr(obj, name);
  if (obj instanceof InstanceVar) return instanceAttr(tx, obj, name);
  if (obj instanceof TensorVar) return tensorAttr(tx, obj, name);
  if (obj instanceof ObjectVar) {
    // An exception is new on every call (guarded by its type only): its attributes are read for real.
    if (obj.info.kind === 'other' && (obj.info.traits & TRAIT_EXCEPTION)) throw new GraphBreak('SOT007', `attribute '${name}' of an exception`);
    const np = numpyAttr(tx, obj, name);   // an entry ndarray: .shape/.ndim/.size/.dtype, else SOT030
    if (np) return np;
    const shadow = tx.attrOverlay.get(overlayKey(obj, name));
    if (shadow) return shadow;
    if (shadow === null) throw attributeError(`'${name}' was deleted`);
    // a plain instance new on every call: read through its source (null: as any object, by identity)
    const fresh = obj instanceof EntryInstanceVar ? freshAttr(tx, obj, name) : null;
    if (fresh) return fresh;
    let v: RtValue, id: number;
    try {
      ({ value: v, id } = tx.host.getattrWithId({ k: 'obj', ref: obj.ref }, name));
    } catch (e) {
      if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
      throw e;
    }
    // Layer attributes are covered by the layer version guard; others are re-checked by the wrapper.
    // (a value-guarded numpy scalar's attributes follow from its dtype and value)
    if (obj.info.kind !== 'layer') { if (!attrUnguarded(obj)) tx.host.recordAttrGuard(obj.ref, name, id); }
    else tx.layerDependent = true;
    const src = obj.source ? attrSource(obj.source, name) : null;
    return fromHostRead(tx, v, src, obj.info.kind === 'layer' && (name === '_sub_layers' || name === '_parameters' || name === '_buffers'));
  }
  if (obj instanceof ConstVar && NUMBER_ATTRS.has(name) && obj.value.k !== 'str' && obj.value.k !== 'none') {
    return fromComputed(tx, tx.host.getattr(obj.value, name));
  }
  if (obj instanceof ConstVar || obj instanceof TupleVar || obj instanceof ListVar || obj instanceof DictVar || obj instanceof SetVar) {
    // only names the builtin type really has: hasattr([], 'x') is False, [].x an AttributeError
    const typeName = builtinTypeName(obj);
    if (!tx.host.builtinTypeHasAttr(typeName, name)) throw attributeError(`'${typeName}' object has no attribute '${name}'`);
    return new BoundMethodVar(obj, name);
  }
  if (obj instanceof SliceVar) {
    if (name === 'start') return obj.start;
    if (name === 'stop') return obj.stop;
    if (name === 'step') return obj.step;
    return new BoundMethodVar(obj, name);
  }
  if (obj instanceof RangeVar && (name === 'start' || name === 'stop' || name === 'step')) return new ConstVar({ k: 'int', v: obj[name] });
  if (obj instanceof FunctionVar) {
    if (name === '__name__') return new ConstVar({ k: 'str', v: obj.name.slice(obj.name.lastIndexOf('.') + 1) });
    if (name === '__qualname__') return new ConstVar({ k: 'str', v: obj.name });
  }
  if (obj instanceof SuperVar) return superAttr(tx, obj, name);
  if (obj instanceof GeneratorVar) return generatorAttr(obj, name);
  throw new GraphBreak('SOT007', `attribute '${name}' of ${obj.kind}`);
}

const CONST_TYPES: Record<string, string> = { int: 'int', float: 'float', bool: 'bool', str: 'str', none: 'NoneType', bytes: 'bytes', complex: 'complex' };
function builtinTypeName(obj: Variable): string {
  if (obj instanceof ConstVar) return CONST_TYPES[obj.value.k] ?? obj.value.k;
  if (obj instanceof TupleVar) return 'tuple';
  if (obj instanceof ListVar) return 'list';
  if (obj instanceof DictVar) return 'dict';
  return 'set';
}

/** Objects whose attributes the translator writes as side effects (their types are plain Python). */
const writable = (obj: Variable): obj is ObjectVar =>
  obj instanceof ObjectVar && (obj.info.kind === 'layer' || obj.info.kind === 'other' || obj.info.kind === 'module');

/** obj.name = value: logged, replayed after the graph; later reads see it. */
export function setAttr(tx: Translator, obj: Variable, name: string, value: Variable): void {
  if (obj instanceof PyLayerCtxVar) { setCtxAttr(obj, name, value); return; }
  if (obj instanceof InstanceVar) { setInstanceAttr(tx, obj, name, value); return; }
  if (!writable(obj)) throw new GraphBreak('SOT007', `setting attribute '${name}' of ${obj.kind}`);
  // A fresh entry object's store replays on this call's object (its source); a property's
  // Python setter is inlined.
  const fresh = obj instanceof EntryInstanceVar ? freshSetAttr(tx, obj, name, value) : null;
  if (fresh === 'done') return;
  // A property setter or a custom __setattr__ may store something else: run it concretely.
  if (fresh !== 'store' && !tx.host.plainAttr(obj.ref, name)) throw new GraphBreak('SOT007', `attribute '${name}' is not plain storage`);
  tx.attrOverlay.set(overlayKey(obj, name), value);
  tx.logEffect('SKIFF_SETATTR', [obj, new ConstVar({ k: 'str', v: name }), value]);
}

/** del obj.name: the attribute must exist now (else the concrete step raises AttributeError). */
export function delAttr(tx: Translator, obj: Variable, name: string): void {
  if (obj instanceof InstanceVar) { delInstanceAttr(tx, obj, name); return; }
  if (!writable(obj)) throw new GraphBreak('SOT007', `deleting attribute '${name}' of ${obj.kind}`);
  getAttr(tx, obj, name);
  tx.attrOverlay.set(overlayKey(obj, name), null);
  tx.logEffect('SKIFF_DELATTR', [obj, new ConstVar({ k: 'str', v: name })]);
}

/** getattr(super(cls, obj), name): bound to obj when the class attribute is a function. */
function superAttr(tx: Translator, s: SuperVar, name: string): Variable {
  if ((s.obj instanceof InstanceVar || s.obj instanceof EntryInstanceVar) && s.cls instanceof ObjectVar) return instanceSuperAttr(tx, s.obj, s.cls, name);
  const cls = toRt(tx, s.cls), obj = toRt(tx, s.obj);
  if (!cls || !obj || cls.k !== 'obj' || obj.k !== 'obj') throw new GraphBreak('SOT007', 'super() of values the translator cannot name');
  let v: RtValue;
  try {
    v = tx.host.superAttr(cls, obj, name);
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
  if (v.k === 'tensor') return tx.constTensor(v.t);
  return fromHostRead(tx, v, null);
}

/** super(cls, inst).name for an instance made in translated code or a fresh entry one: the MRO of its class after cls. */
function instanceSuperAttr(tx: Translator, inst: InstanceVar | EntryInstanceVar, cls: ObjectVar, name: string): Variable {
  let a;
  try {
    a = classAttr(tx, inst.cls, name, cls);
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
  if (a.kind === 'function') return new BoundMethodVar(inst, name, a.value);
  if (a.kind === 'static' || a.kind === 'value') return a.value!;
  if (a.kind === 'object') return new BoundMethodVar(inst, name, null);
  if (a.kind === 'property') return callToReturn(tx, a.value!, [inst], []);
  throw new GraphBreak('SOT007', `super().${name} (${a.kind}) of an object made in translated code`);
}

/** super() with no arguments inside a method: the frame's __class__ cell and its first argument. */
export function zeroArgSuper(tx: Translator): SuperVar {
  const f = tx.frame;
  const names = f.code.wire.localsplus;
  const ci = names.indexOf('__class__');
  const cell = ci >= 0 ? f.locals[ci] : undefined;
  if (!(cell instanceof CellVar) || !cell.contents || f.code.wire.argcount === 0) {
    throw new GraphBreak('SOT007', 'super() without a __class__ cell', { type: 'RuntimeError', message: 'super(): __class__ cell not found' });
  }
  let self = f.locals[0];
  if (self instanceof CellVar) self = self.contents ?? undefined;
  if (!self) throw new GraphBreak('SOT007', 'super(): arg[0] deleted', { type: 'RuntimeError', message: 'super(): arg[0] deleted' });
  return new SuperVar(cell.contents, self);
}

/** A real slice object (a constant, an argument) as a slice variable; other values unchanged. */
export function asSlice(tx: Translator, v: Variable): Variable {
  if (!(v instanceof ObjectVar) || v.info.kind !== 'other' || v.ref.typeName !== 'slice') return v;
  const part = (name: string) => fromComputed(tx, tx.host.getattr({ k: 'obj', ref: v.ref }, name));
  return new SliceVar(part('start'), part('stop'), part('step'));
}

export function getItem(tx: Translator, obj: Variable, key: Variable): Variable | undefined {
  key = asSlice(tx, key);
  if (obj instanceof NamedTupleVar) obj = asTuple(obj);   // (a slice of one is a plain tuple, as in Python)
  if (obj instanceof TensorVar) return tensorMethodCall(tx, obj, '__getitem__', [key], []);
  if (obj instanceof InstanceVar) {
    const r = callDunder(tx, obj, '__getitem__', [key]);
    if (r) return r;
    throw new GraphBreak('SOT007', `subscript of ${obj.cls.ref.typeName} without __getitem__`);
  }
  // Enum classes: Color['RED'] looks a member up by name (pure, computed once on the host)
  if (obj instanceof ObjectVar && obj.info.kind === 'class' && obj.info.pureCall && key instanceof ConstVar && key.value.k === 'str') {
    const o = toRt(tx, obj)!;
    return fromComputed(tx, tx.host.concrete({ opname: 'BINARY_SUBSCR', arg: 0 }, [o, key.value])[1]);   // ([0]: the layer version)
  }
  if (obj instanceof TupleVar || obj instanceof ListVar) {
    if (key instanceof ConstVar && (key.value.k === 'int' || key.value.k === 'bool')) {
      const n = obj.items.length;
      let i = Number(key.value.v);
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw userRaise('SOT007', `index ${Number(key.value.v)} out of range`);
      return obj.items[i];
    }
    if (key instanceof SliceVar) {
      const idx = sliceIndices(tx, key, obj.items.length);
      const items: Variable[] = [];
      for (let i = idx.start; idx.step > 0 ? i < idx.stop : i > idx.stop; i += idx.step) items.push(obj.items[i]);
      return obj instanceof TupleVar ? new TupleVar(items) : new ListVar(items);
    }
  }
  if (obj instanceof DictVar && isConstLike(key)) {
    for (let i = 0; i < obj.keys.length; i++) if (truthy(tx, compareOp(tx, '==', obj.keys[i], key))) return obj.values[i];
    throw userRaise('SOT007', 'missing dict key');
  }
  if (obj instanceof RangeVar && key instanceof SliceVar) {
    const r = sliceIndices(tx, key, obj.length);
    return new RangeVar(obj.start + r.start * obj.step, obj.start + r.stop * obj.step, obj.step * r.step);
  }
  if (obj instanceof RangeVar && key instanceof ConstVar && key.value.k === 'int') {
    let i = Number(key.value.v);
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw new GraphBreak('SOT007', 'range index out of range');
    return new ConstVar({ k: 'int', v: obj.at(i) });
  }
  if (obj instanceof ConstVar && obj.value.k === 'str') {
    if (key instanceof SliceVar) {
      const idx = sliceIndices(tx, key, [...obj.value.v].length);
      const chars = [...obj.value.v];
      let out = '';
      for (let i = idx.start; idx.step > 0 ? i < idx.stop : i > idx.stop; i += idx.step) out += chars[i];
      return new ConstVar({ k: 'str', v: out });
    }
    const r = toRt(tx, key);
    if (r) return fromComputed(tx, tx.host.concrete({ opname: 'BINARY_SUBSCR', arg: 0 }, [obj.value, r])[1]);
  }
  if (obj instanceof ObjectVar && obj.info.kind === 'layer') {
    tx.layerDependent = true;
    const r = toRt(tx, key);
    if (r && isConstLike(key)) {
      const v = tx.host.concrete({ opname: 'BINARY_SUBSCR', arg: 0 }, [{ k: 'obj', ref: obj.ref }, r])[1];
      if (v.k === 'tensor') return tx.constTensor(v.t);
      return tx.fromRt(v, obj.source && r.k !== 'obj' ? itemSource(obj.source, r) : null, false);
    }
  }
  if (isNumpyArray(obj)) throw new GraphBreak('SOT030', 'ndarray indexing');
  throw new GraphBreak('SOT007', `subscript of ${obj.kind}`);
}

/** obj[key] = v on lists and dicts the translator holds; anything else runs concretely. */
export function setItem(tx: Translator, obj: Variable, key: Variable, v: Variable): void {
  key = asSlice(tx, key);
  if (obj instanceof ListVar && key instanceof ConstVar && (key.value.k === 'int' || key.value.k === 'bool')) {
    const items = obj.items.slice();
    let i = Number(key.value.v);
    if (i < 0) i += items.length;
    if (i < 0 || i >= items.length) throw new GraphBreak('SOT007', 'list assignment index out of range');
    items[i] = v;
    setListItems(tx, obj, items);
    return;
  }
  if (obj instanceof ListVar && key instanceof SliceVar) {
    const vals = itemsOf(tx, v);
    const idx = sliceIndices(tx, key, obj.items.length);
    const items = obj.items.slice();
    if (idx.step === 1) items.splice(idx.start, Math.max(0, idx.stop - idx.start), ...vals);
    else {
      const at: number[] = [];
      for (let i = idx.start; idx.step > 0 ? i < idx.stop : i > idx.stop; i += idx.step) at.push(i);
      if (at.length !== vals.length) throw new GraphBreak('SOT007', 'extended slice assignment of the wrong size');
      at.forEach((i, j) => { items[i] = vals[j]; });
    }
    setListItems(tx, obj, items);
    return;
  }
  if (obj instanceof DictVar) { dictSet(tx, obj, key, v); return; }
  if (isNumpyArray(obj)) throw new GraphBreak('SOT030', 'ndarray item assignment');
  throw new GraphBreak('SOT007', `item assignment on ${obj.kind}`);
}

/** del obj[key] on lists and dicts the translator holds. */
export function delItem(tx: Translator, obj: Variable, key: Variable): void {
  key = asSlice(tx, key);
  if (obj instanceof DictVar) {
    const i = obj.keys.findIndex((k) => truthy(tx, compareOp(tx, '==', k, key)));
    if (i < 0) throw userRaise('SOT007', 'del of a missing dict key');
    obj.keys = obj.keys.filter((_, j) => j !== i);
    obj.values = obj.values.filter((_, j) => j !== i);
    if (obj.ref) tx.mutated.add(obj);
    return;
  }
  if (obj instanceof ListVar && key instanceof ConstVar && (key.value.k === 'int' || key.value.k === 'bool')) {
    let i = Number(key.value.v);
    if (i < 0) i += obj.items.length;
    if (i < 0 || i >= obj.items.length) throw new GraphBreak('SOT007', 'list deletion index out of range');
    setListItems(tx, obj, obj.items.filter((_, j) => j !== i));
    return;
  }
  if (obj instanceof ListVar && key instanceof SliceVar) {
    const idx = sliceIndices(tx, key, obj.items.length);
    const drop = new Set<number>();
    for (let i = idx.start; idx.step > 0 ? i < idx.stop : i > idx.stop; i += idx.step) drop.add(i);
    setListItems(tx, obj, obj.items.filter((_, j) => !drop.has(j)));
    return;
  }
  throw new GraphBreak('SOT007', `del of an item of ${obj.kind}`);
}

/** slice.indices(n) with Python's clamping (stop is -1 for a negative step reaching index 0). */
export function sliceIndices(tx: Translator, s: SliceVar, n: number): { start: number; stop: number; step: number } {
  const num = (v: Variable): number | null => {
    if (v instanceof ConstVar && v.value.k === 'none') return null;
    if (v instanceof ConstVar && (v.value.k === 'int' || v.value.k === 'bool')) return Number(v.value.v);
    throw new GraphBreak('SOT007', 'slice bound is not an int');
  };
  const step = num(s.step) ?? 1;
  if (step === 0) throw new GraphBreak('SOT007', 'slice step cannot be zero');
  const clamp = (v: number | null, dflt: number, lo: number, hi: number) => {
    if (v === null) return dflt;
    if (v < 0) v += n;
    return Math.min(Math.max(v, lo), hi);
  };
  const start = step > 0 ? clamp(num(s.start), 0, 0, n) : clamp(num(s.start), n - 1, -1, n - 1);
  const stop = step > 0 ? clamp(num(s.stop), n, 0, n) : clamp(num(s.stop), -1, -1, n - 1);
  void tx;
  return { start, stop, step };
}
