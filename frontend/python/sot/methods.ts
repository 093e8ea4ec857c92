// Methods of the values the translator models itself: lists, dicts, dict views, sets, tuples,
// strings and numbers. Mutations of host containers mark them mutated (their contents are
// replaced after the graph runs); pure methods of constants are computed once on the host.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import type { RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, ConstVar, DictVar, DictViewVar, IterVar, ListVar, ObjectVar, SetVar, SliceVar, TensorVar, TupleVar,
  type Variable,
} from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { callVar, compareOp, fromComputed, getIter, isConstLike, isOp, takeAll, toRt, truthy } from './semantics.js';
import { entryTensorEquals } from './value_guards.js';
import { InstanceVar } from './user_objects.js';
import { EntryInstanceVar } from './fresh_objects.js';
import { sliceIndices } from './objects.js';
import { tensorMethodCall } from './tensor_attrs.js';
import { drain, generatorMethod, GeneratorVar } from './generators.js';

const NONE = (): ConstVar => new ConstVar({ k: 'none' });

export function callMethod(tx: Translator, m: BoundMethodVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const self = m.self;
  if (self instanceof TensorVar) return tensorMethodCall(tx, self, m.name, args, kwargs);
  // a method of an object made in translated code: its function, inlined with self
  if ((self instanceof InstanceVar || self instanceof EntryInstanceVar) && m.func) return callVar(tx, m.func, [self, ...args], kwargs);
  if (self instanceof ListVar) return listMethod(tx, self, m.name, args, kwargs);
  if (self instanceof DictVar) return dictMethod(tx, self, m.name, args, kwargs);
  if (self instanceof SetVar) return setMethod(tx, self, m.name, args, kwargs);
  if (self instanceof GeneratorVar) return generatorMethod(tx, self, m.name, args, kwargs);
  if (self instanceof TupleVar && (m.name === 'index' || m.name === 'count') && !kwargs.length) {
    const found = indexOrCount(tx, self.items, m.name, args);
    if (found) return found;
    const r = toRt(tx, self), a = args.map((x) => toRt(tx, x));
    if (r && a.every(Boolean)) return fromComputed(tx, callOnHost(tx, r, m.name, a as RtValue[]));
  }
  if (self instanceof ConstVar) {
    // a generator argument (', '.join(g)) is consumed whole by the method: its values are passed
    const a = [...args, ...kwargs.map(([, v]) => v)].map((x) => toRt(tx, x instanceof GeneratorVar ? new TupleVar(drain(tx, x)) : x));
    if (a.every(Boolean)) return fromComputed(tx, callOnHost(tx, self.value, m.name, a as RtValue[], kwargs.map(([k]) => k)));
  }
  if (self instanceof SliceVar && m.name === 'indices' && args.length === 1 && args[0] instanceof ConstVar) {
    const n = Number((args[0].value as { v: number }).v);
    const r = sliceIndices(tx, self, n);
    return new TupleVar([r.start, r.stop, r.step].map((x) => new ConstVar({ k: 'int', v: x })));
  }
  throw new GraphBreak('SOT007', `method ${m.name} of ${self.kind}`);
}

/** Calls a pure method of a builtin value (str.upper, int.bit_length, tuple.index) on the host. */
export function callOnHost(tx: Translator, self: RtValue, name: string, args: RtValue[], kwNames: string[] = []): RtValue {
  try {
    const method = tx.host.getattr(self, name);
    const nul: RtValue = { k: 'obj', ref: tx.host.nullRef };
    const argval: RtValue | undefined = kwNames.length ? { k: 'tuple', items: kwNames.map((v) => ({ k: 'str', v })) } : undefined;
    return tx.host.concrete({ opname: 'CALL', arg: args.length, argval }, tx.v.callableFirst ? [method, nul, ...args] : [nul, method, ...args])[1];
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
}

/**
 * Python's sequence membership test (list.remove/index/count, tuple too): identity first, then
 * ==; a one-element entry tensor against a number is answered from its value, guarded.
 */
const seqEq = (tx: Translator, x: Variable, target: Variable): boolean =>
  isOp(x, target) === true || (entryTensorEquals(tx, x, target) ?? truthy(tx, compareOp(tx, '==', x, target)));

/** seq.index(x) / seq.count(x) on modelled items; null when the concrete call must decide (a ValueError, start/stop). */
function indexOrCount(tx: Translator, items: readonly Variable[], name: string, args: Variable[]): ConstVar | null {
  if (args.length !== 1) return null;
  const [t] = args;
  if (name === 'count') return new ConstVar({ k: 'int', v: items.filter((x) => seqEq(tx, x, t)).length });
  const i = items.findIndex((x) => seqEq(tx, x, t));
  return i < 0 ? null : new ConstVar({ k: 'int', v: i });
}

const intArg = (v: Variable | undefined): number | null =>
  v instanceof ConstVar && (v.value.k === 'int' || v.value.k === 'bool') ? Number(v.value.v) : null;

export function setListItems(tx: Translator, l: ListVar, items: Variable[]): void {
  l.items = items;
  if (l.ref) tx.mutated.add(l);
}

/** The items an iterable yields now (lists, tuples, ranges, dict keys, sets in the host's order); consumes an iterator. */
export const itemsOf = takeAll;

function listMethod(tx: Translator, l: ListVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (name === 'sort') {
    const sorted = sortedConstants(l.items, args, kwargs);
    if (!sorted) throw new GraphBreak('SOT007', 'list.sort of values other than numbers or strings, or with a key');
    setListItems(tx, l, sorted);
    return NONE();
  }
  if (kwargs.length) throw new GraphBreak('SOT007', `list.${name} with keywords`);
  const items = l.items.slice();
  switch (name) {
    case 'append': items.push(args[0]); setListItems(tx, l, items); return NONE();
    case 'extend': items.push(...itemsOf(tx, args[0])); setListItems(tx, l, items); return NONE();
    case 'insert': {
      const i = intArg(args[0]);
      if (i === null || args.length !== 2) break;
      items.splice(i < 0 ? Math.max(0, items.length + i) : Math.min(i, items.length), 0, args[1]);
      setListItems(tx, l, items);
      return NONE();
    }
    case 'pop': {
      let i = args.length ? intArg(args[0]) : items.length - 1;
      if (i === null) break;
      if (i < 0) i += items.length;
      if (i < 0 || i >= items.length) break;   // IndexError from the concrete call
      const [v] = items.splice(i, 1);
      setListItems(tx, l, items);
      return v;
    }
    case 'remove': {
      const i = items.findIndex((x) => seqEq(tx, x, args[0]));
      if (i < 0) break;
      items.splice(i, 1);
      setListItems(tx, l, items);
      return NONE();
    }
    case 'clear': setListItems(tx, l, []); return NONE();
    case 'copy': return new ListVar(items);
    case 'reverse': items.reverse(); setListItems(tx, l, items); return NONE();
    case 'index': case 'count': {
      const found = indexOrCount(tx, items, name, args);
      if (found) return found;
      const r = toRt(tx, l), a = args.map((x) => toRt(tx, x));
      if (r && r.k === 'list' && a.every(Boolean)) return fromComputed(tx, callOnHost(tx, { k: 'list', items: r.items }, name, a as RtValue[]));
      break;
    }
    default: break;
  }
  throw new GraphBreak('SOT007', `list.${name}`);
}

/**
 * list.sort() of Python numbers (int, float, bool; no NaN) or of strings, with `reverse=` and no
 * key: a stable sort, as Python's (equal items keep their order, reversed or not). Null when
 * Python would compare anything else (the call then runs concretely, raising as Python does).
 */
function sortedConstants(items: readonly Variable[], args: Variable[], kwargs: [string, Variable][]): Variable[] | null {
  if (args.length) return null;   // sort() takes keyword arguments only: Python raises
  let reverse = false;
  for (const [k, v] of kwargs) {
    if (!(v instanceof ConstVar)) return null;
    if (k === 'reverse' && (v.value.k === 'bool' || v.value.k === 'int')) reverse = Boolean(Number(v.value.v));
    else if (!(k === 'key' && v.value.k === 'none')) return null;
  }
  const consts = items.map((x) => (x instanceof ConstVar ? x.value : null));
  const num = (c: (typeof consts)[number]): number | bigint | null => (c && (c.k === 'int' || c.k === 'bool' || c.k === 'float') ? (c.k === 'bool' ? (c.v ? 1 : 0) : c.v) : null);
  let cmp: (a: number, b: number) => number;
  if (consts.every((c) => num(c) !== null && !Number.isNaN(num(c)))) {
    const keys = consts.map(num) as (number | bigint)[];
    cmp = (a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0);
  } else if (consts.every((c) => c?.k === 'str')) {
    // code points, as Python compares str (JS compares UTF-16 units)
    const keys = consts.map((c) => Array.from((c as { v: string }).v, (ch) => ch.codePointAt(0)!));
    cmp = (a, b) => {
      const x = keys[a], y = keys[b];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    };
  } else return null;
  const order = items.map((_, i) => i).sort((a, b) => (reverse ? cmp(b, a) : cmp(a, b)));
  return order.map((i) => items[i]);
}

function findKey(tx: Translator, d: DictVar, key: Variable): number {
  if (!isConstLike(key)) throw new GraphBreak('SOT007', 'dict key is not a constant');
  return d.keys.findIndex((k) => truthy(tx, compareOp(tx, '==', k, key)));
}

function dictMethod(tx: Translator, d: DictVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  switch (name) {
    case 'keys': case 'values': case 'items': return new DictViewVar(d, name);
    case 'get': {
      const i = findKey(tx, d, args[0]);
      return i >= 0 ? d.values[i] : args.length > 1 ? args[1] : NONE();
    }
    case 'setdefault': {
      const i = findKey(tx, d, args[0]);
      if (i >= 0) return d.values[i];
      const v = args.length > 1 ? args[1] : NONE();
      dictSet(tx, d, args[0], v);
      return v;
    }
    case 'pop': {
      const i = findKey(tx, d, args[0]);
      if (i < 0) { if (args.length > 1) return args[1]; break; }   // KeyError from the concrete call
      const v = d.values[i];
      dictDelete(tx, d, i);
      return v;
    }
    case 'update': {
      const other = args[0];
      if (other instanceof DictVar) other.keys.forEach((k, i) => dictSet(tx, d, k, other.values[i]));
      else if (other) for (const kv of itemsOf(tx, other)) { const [k, v] = itemsOf(tx, kv); dictSet(tx, d, k, v); }
      for (const [k, v] of kwargs) dictSet(tx, d, new ConstVar({ k: 'str', v: k }), v);
      return NONE();
    }
    case 'copy': return new DictVar(d.keys.slice(), d.values.slice());
    case 'popitem': {
      if (!d.keys.length || args.length || kwargs.length) break;   // KeyError / TypeError from the concrete call
      const i = d.keys.length - 1;
      const item = new TupleVar([d.keys[i], d.values[i]]);
      dictDelete(tx, d, i);
      return item;
    }
    case 'clear': d.keys = []; d.values = []; if (d.ref) tx.mutated.add(d); return NONE();
    default: break;
  }
  throw new GraphBreak('SOT007', `dict.${name}`);
}

export function dictSet(tx: Translator, d: DictVar, key: Variable, value: Variable): void {
  const i = findKey(tx, d, key);
  const keys = d.keys.slice(), values = d.values.slice();
  if (i >= 0) values[i] = value; else { keys.push(key); values.push(value); }
  d.keys = keys;
  d.values = values;
  if (d.ref) tx.mutated.add(d);
}

export function dictDelete(tx: Translator, d: DictVar, i: number): void {
  d.keys = d.keys.filter((_, j) => j !== i);
  d.values = d.values.filter((_, j) => j !== i);
  if (d.ref) tx.mutated.add(d);
}

/** The items a dict view yields now. */
export function viewItems(v: DictViewVar): Variable[] {
  const d = v.dict;
  if (v.view === 'keys') return d.keys.slice();
  if (v.view === 'values') return d.values.slice();
  return d.keys.map((k, i) => new TupleVar([k, d.values[i]]));
}

// ---- sets ---------------------------------------------------------------------------------

/** Set elements must be hashable constants (compared by value, as Python's hash/eq do for them). */
export function setElement(v: Variable): Variable {
  // builtin types and functions (int, float, len) hash and compare by identity: set(map(type, xs))
  const byIdentity = v instanceof ObjectVar && v.info.kind === 'builtin';
  if (!isConstLike(v) && !byIdentity) throw new GraphBreak('SOT007', `set element of kind ${v.kind}`);
  return v;
}

export function setHas(tx: Translator, s: SetVar, v: Variable): boolean {
  return s.items.some((x) => truthy(tx, compareOp(tx, '==', x, v)));
}

export function setAdd(tx: Translator, s: SetVar, v: Variable): void {
  if (!setHas(tx, s, setElement(v))) s.items = [...s.items, v];
}

/** A real set with the same elements (translation time only: pure, for host-computed results). */
function hostSet(tx: Translator, s: SetVar): RtValue {
  const items = toRt(tx, new TupleVar(s.items));
  if (!items) throw new GraphBreak('SOT007', 'set of non-constants');
  return tx.host.concrete({ opname: 'SKIFF_NEW', arg: 0, argval: { k: 'str', v: 'set' } }, [items])[1];
}

/** The elements of a host set or frozenset, in its iteration order. */
export function fromHostSet(tx: Translator, v: RtValue): SetVar {
  const t = tx.host.concrete({ opname: 'GET_ITER', arg: 0 }, [v])[1];
  if (t.k !== 'tuple') throw new GraphBreak('SOT007', 'set contents');
  return new SetVar(t.items.map((x) => fromComputed(tx, x)));
}

/** Iteration order of a set is the host's (hash order), not insertion order. */
export function setOrder(tx: Translator, s: SetVar): Variable[] {
  return fromHostSet(tx, hostSet(tx, s)).items;
}

/** An operator on sets (| & - ^ and comparisons), computed on the host. */
export function setBinary(tx: Translator, opname: 'BINARY_OP' | 'COMPARE_OP', arg: number, a: Variable, b: Variable): Variable {
  const ra = a instanceof SetVar ? hostSet(tx, a) : toRt(tx, a), rb = b instanceof SetVar ? hostSet(tx, b) : toRt(tx, b);
  if (!ra || !rb) throw new GraphBreak('SOT007', 'set operator on non-constants');
  const r = callHost(tx, () => tx.host.concrete({ opname, arg }, [ra, rb])[1]);
  return r.k === 'obj' && (r.ref.typeName === 'set' || r.ref.typeName === 'frozenset') ? fromHostSet(tx, r) : fromComputed(tx, r);
}

function callHost<T>(_tx: Translator, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
}

function setMethod(tx: Translator, s: SetVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length) throw new GraphBreak('SOT007', `set.${name} with keywords`);
  switch (name) {
    case 'add': setAdd(tx, s, args[0]); return NONE();
    case 'update': for (const a of args) for (const x of itemsOf(tx, a)) setAdd(tx, s, x); return NONE();
    case 'discard': case 'remove': {
      const i = s.items.findIndex((x) => truthy(tx, compareOp(tx, '==', x, args[0])));
      if (i < 0) { if (name === 'discard') return NONE(); break; }   // KeyError from the concrete call
      s.items = s.items.filter((_, j) => j !== i);
      return NONE();
    }
    case 'clear': s.items = []; return NONE();
    case 'copy': return new SetVar(s.items.slice());
    case 'union': case 'intersection': case 'difference': case 'symmetric_difference':
    case 'issubset': case 'issuperset': case 'isdisjoint': {
      const a = args.map((x) => (x instanceof SetVar ? hostSet(tx, x) : toRt(tx, x)));
      if (!a.every(Boolean)) break;
      const r = callOnHost(tx, hostSet(tx, s), name, a as RtValue[]);
      return r.k === 'obj' ? fromHostSet(tx, r) : fromComputed(tx, r);
    }
    default: break;
  }
  throw new GraphBreak('SOT007', `set.${name}`);
}

export { ObjectVar };
