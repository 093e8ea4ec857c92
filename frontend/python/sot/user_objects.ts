// Instances of plain user classes made in translated code (`obj = Point(x, y)`): the instance is
// its class plus a simulated __dict__ (InstanceVar), __init__ and the methods called on it are
// inlined, and attribute stores change the simulated dict (no side effect: nobody outside can
// see the object yet). The real object is built when the value reaches Python (a step operand,
// a side effect, the return value: SKIFF_NEW 'object' in segment.ts, once per node run so every
// use sees one object); across a break it travels as its class and attributes. Only classes
// whose instances object.__new__ allocates and object's own attribute access serves qualify
// (compat/paddle/jit/sot/queries.py plain_class); anything not modelled here breaks, and the
// break's concrete step builds the object for real.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import type { RtValue } from '../../../sot/values.js';
import { BoundMethodVar, ConstVar, IterVar, ObjectVar, Variable } from '../../../sot/variables.js';
import { callToReturn } from './call_inline.js';
import { fromHostRead } from './semantics.js';
import type { Translator } from './translator.js';

export class InstanceVar extends Variable {
  readonly kind = 'instance';
  /** Its __dict__, in insertion order (mutated in place by attribute stores). */
  constructor(readonly cls: ObjectVar, readonly attrs: Map<string, Variable> = new Map()) { super(null); }
}

/**
 * What `name` is on a class (queries.class_lookup); `value` is set for function/static/value and
 * is a property's getter (`setter`: its Python setter, if any).
 */
interface ClassAttr { readonly kind: string; readonly value: Variable | null; readonly hasGetattr: boolean; readonly setter?: Variable | null }

/** `name` looked up in the MRO of `cls` (after `after`, for super()); guarded when found. */
export function classAttr(tx: Translator, cls: ObjectVar, name: string, after: ObjectVar | null = null): ClassAttr {
  const { kind, value } = tx.host.classLookup(cls.ref, name, after ? after.ref : null);
  const hasGetattr = kind === 'none' && value.k === 'bool' && value.v;
  if (kind === 'function' || kind === 'static') return { kind, value: tx.fromRt(value, null, false), hasGetattr };
  if (kind === 'property' && value.k === 'tuple') {
    const [get, set] = value.items;
    return { kind, value: tx.fromRt(get, null, false), hasGetattr, setter: set.k === 'none' ? null : tx.fromRt(set, null, false) };
  }
  if (kind === 'value') return { kind, value: fromHostRead(tx, value as RtValue, null), hasGetattr };
  return { kind, value: null, hasGetattr };
}

const className = (cls: ObjectVar): string => (cls.info.kind === 'class' ? cls.info.name : cls.ref.typeName);

/**
 * cls(*args, **kwargs) for a plain class: a new instance, its __init__ inlined to its return
 * inside the call instruction (a break inside runs the whole call concretely). null when the
 * class is not plain (the caller breaks as before).
 */
export function userClassCall(tx: Translator, cls: ObjectVar, args: Variable[], kwargs: [string, Variable][]): InstanceVar | null {
  if (!tx.host.plainClass(cls.ref)) return null;
  const inst = new InstanceVar(cls);
  const init = classAttr(tx, cls, '__init__');
  if (init.kind === 'object') {
    // object.__init__ with arguments raises TypeError: the concrete call says so
    if (args.length || kwargs.length) throw new GraphBreak('SOT007', `${className(cls)}() takes no arguments`);
    return inst;
  }
  if (init.kind !== 'function') throw new GraphBreak('SOT005', `call of ${className(cls)}: its __init__ is not a Python function`);
  const r = callToReturn(tx, init.value!, [inst, ...args], kwargs);
  if (!(r instanceof ConstVar && r.value.k === 'none')) throw new GraphBreak('SOT007', `__init__() of ${className(cls)} should return None`);
  return inst;
}

/** A missing attribute: the concrete step raises the user's AttributeError (getattr/hasattr catch it). */
function missing(inst: InstanceVar, name: string): GraphBreak {
  const e = new GraphBreak('SOT007', `AttributeError: '${className(inst.cls)}' object has no attribute '${name}'`);
  e.pyRaises = true;
  return e;
}

/** inst.name, in CPython's order: data descriptors of the class, the instance dict, other class attributes. */
export function instanceAttr(tx: Translator, inst: InstanceVar, name: string): Variable {
  if (name === '__class__') return inst.cls;
  const a = classAttr(tx, inst.cls, name);
  if (a.kind === 'property') return callToReturn(tx, a.value!, [inst], []);
  if (a.kind === 'data') throw new GraphBreak('SOT007', `attribute '${name}' is a data descriptor of ${className(inst.cls)}`);
  const own = inst.attrs.get(name);
  if (own) return own;
  switch (a.kind) {
    case 'function': return new BoundMethodVar(inst, name, a.value);
    case 'static': case 'value': return a.value!;
    // object's own methods (__init__, __eq__, ...): calling one breaks; other uses read it for real
    case 'object': return new BoundMethodVar(inst, name, null);
    case 'none':
      if (a.hasGetattr) throw new GraphBreak('SOT007', `attribute '${name}' of an object whose class has __getattr__`);
      throw missing(inst, name);
    default: throw new GraphBreak('SOT007', `attribute '${name}' is a descriptor of ${className(inst.cls)}`);
  }
}

/** inst.name = value: a store into the simulated __dict__ unless a data descriptor (property) takes it. */
export function setInstanceAttr(tx: Translator, inst: InstanceVar, name: string, value: Variable): void {
  const a = classAttr(tx, inst.cls, name);
  // a property's Python setter, inlined to its return (its result is dropped, as STORE_ATTR does)
  if (a.kind === 'property' && a.setter) { callToReturn(tx, a.setter, [inst, value], []); return; }
  if (a.kind === 'property' || a.kind === 'data') throw new GraphBreak('SOT007', `setting attribute '${name}' through a data descriptor`);
  inst.attrs.set(name, value);
}

export function delInstanceAttr(tx: Translator, inst: InstanceVar, name: string): void {
  const a = classAttr(tx, inst.cls, name);
  if (a.kind === 'property' || a.kind === 'data') throw new GraphBreak('SOT007', `deleting attribute '${name}' through a data descriptor`);
  if (!inst.attrs.has(name)) throw missing(inst, name);
  inst.attrs.delete(name);
}

/**
 * A special method of the instance's class called now (inlined to its return), or null when the
 * class does not define it in Python (object's default, or no such name).
 */
export function callDunder(tx: Translator, inst: InstanceVar, name: string, args: Variable[]): Variable | null {
  const a = classAttr(tx, inst.cls, name);
  if (a.kind === 'function') return callToReturn(tx, a.value!, [inst, ...args], []);
  if (a.kind === 'none' || a.kind === 'object') return null;
  throw new GraphBreak('SOT007', `${name} of ${className(inst.cls)} is not a Python function`);
}

/** iter(inst): its Python __iter__, which must give an iterator the translator holds. */
export function instanceIter(tx: Translator, inst: InstanceVar): Variable {
  const it = callDunder(tx, inst, '__iter__', []);
  if (it instanceof IterVar) return it;
  throw new GraphBreak('SOT009', `iteration over ${className(inst.cls)}${it ? ` (its __iter__ returned ${it.kind})` : ''}`);
}

/** bool(inst): __bool__, else __len__ != 0, else True. */
export function instanceTruth(tx: Translator, inst: InstanceVar): boolean {
  const b = callDunder(tx, inst, '__bool__', []);
  if (b) {
    if (!(b instanceof ConstVar && b.value.k === 'bool')) throw new GraphBreak('SOT007', '__bool__ should return bool');
    return b.value.v;
  }
  const n = callDunder(tx, inst, '__len__', []);
  if (!n) return true;
  if (!(n instanceof ConstVar && (n.value.k === 'int' || n.value.k === 'bool')) || Number(n.value.v) < 0) throw new GraphBreak('SOT007', '__len__ should return an int >= 0');
  return Number(n.value.v) !== 0;
}

/**
 * a == b / a != b with an instance on either side. object's default compares identity (and an
 * instance made here is no other object); a Python __eq__ / __ne__ of the left instance is
 * inlined when it answers with a bool. Anything else (NotImplemented, reflected operands of other
 * types) breaks.
 */
export function instanceCompare(tx: Translator, sym: '==' | '!=', a: Variable, b: Variable): Variable {
  const eqOf = (v: Variable) => (v instanceof InstanceVar ? classAttr(tx, v.cls, '__eq__').kind : null);
  const ka = eqOf(a), kb = eqOf(b);
  const bool = (v: boolean) => new ConstVar({ k: 'bool', v });
  const defaultOrConst = (k: string | null, v: Variable) => k === 'object' || (k === null && v instanceof ConstVar);
  if (defaultOrConst(ka, a) && defaultOrConst(kb, b)) return bool((a === b) === (sym === '=='));
  if (a instanceof InstanceVar && ka === 'function') {
    const ne = sym === '!=' ? callDunder(tx, a, '__ne__', [b]) : null;
    const r = ne ?? callDunder(tx, a, '__eq__', [b]);
    if (r instanceof ConstVar && r.value.k === 'bool') return ne ? r : bool(r.value.v === (sym === '=='));
    throw new GraphBreak('SOT007', `${className(a.cls)}.__eq__ returned ${r?.kind ?? 'nothing'}`);
  }
  throw new GraphBreak('SOT007', `comparison ${sym} with an object made in translated code`);
}
