// Instances of collections.namedtuple / typing.NamedTuple classes made in translated code. The
// class's generated __new__ only packs its arguments into a tuple (tuple.__new__(cls, args)), so
// the instance is its items plus the class; the real object is built when a value leaves the
// translation (segment.ts: SKIFF_NEW 'namedtuple'). Anything not modelled here breaks as before.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import type { RtValue } from '../../../sot/values.js';
import { ConstVar, ObjectVar, TupleVar, Variable } from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { fromHostRead } from './semantics.js';

export class NamedTupleVar extends Variable {
  readonly kind = 'namedtuple';
  constructor(readonly cls: ObjectVar, readonly fields: readonly string[], readonly items: readonly Variable[]) { super(null); }
}

interface Spec { readonly fields: string[]; readonly defaults: Map<string, RtValue> }

/** The class's fields and defaults when it is a plain namedtuple class (bases exactly (tuple,), generated __new__), else null. */
function namedTupleSpec(tx: Translator, cls: ObjectVar): Spec | null {
  const c: RtValue = { k: 'obj', ref: cls.ref };
  const read = (o: RtValue, name: string, guard: boolean): RtValue | null => {
    try {
      const { value, id } = tx.host.getattrWithId(o, name);
      if (guard && o.k === 'obj') tx.host.recordAttrGuard(o.ref, name, id);
      return value;
    } catch (e) {
      if (e instanceof HostError) return null;
      throw e;
    }
  };
  const mro = read(c, '__mro__', false);
  const builtinId = (name: string) => (tx.host.builtinVar(tx, name) as ObjectVar).ref.id;
  if (!mro || mro.k !== 'tuple' || mro.items.length !== 3) return null;
  const [, b1, b2] = mro.items;
  if (b1.k !== 'obj' || b2.k !== 'obj' || b1.ref.id !== builtinId('tuple') || b2.ref.id !== builtinId('object')) return null;
  // collections.namedtuple builds __new__ in a namespace named 'namedtuple_<typename>'
  const nw = read(c, '__new__', true);
  const mod = nw && nw.k === 'obj' ? read(nw, '__module__', false) : null;
  if (!mod || mod.k !== 'str' || !mod.v.startsWith('namedtuple_')) return null;
  const fields = read(c, '_fields', true);
  const defaults = read(c, '_field_defaults', true);
  if (!fields || fields.k !== 'tuple' || !fields.items.every((f) => f.k === 'str')) return null;
  if (!defaults || defaults.k !== 'dict' || !defaults.keys.every((k) => k.k === 'str')) return null;
  const dm = new Map<string, RtValue>();
  defaults.keys.forEach((k, i) => dm.set((k as { v: string }).v, defaults.values[i]));
  return { fields: fields.items.map((f) => (f as { v: string }).v), defaults: dm };
}

/** cls(*args, **kwargs) for a namedtuple class, bound as its __new__ binds; null for other classes. */
export function namedTupleCall(tx: Translator, cls: ObjectVar, args: Variable[], kwargs: [string, Variable][]): NamedTupleVar | null {
  const spec = namedTupleSpec(tx, cls);
  if (!spec) return null;
  const { fields } = spec;
  // wrong arguments: the call runs concretely and raises eager's TypeError
  const bad = (why: string): never => { throw new GraphBreak('SOT007', `${cls.ref.typeName}(): ${why}`); };
  if (args.length > fields.length) bad('too many positional arguments');
  const bound: (Variable | undefined)[] = fields.map((_, i) => args[i]);
  for (const [k, v] of kwargs) {
    const i = fields.indexOf(k);
    if (i < 0) bad(`unexpected keyword argument '${k}'`);
    if (bound[i] !== undefined) bad(`multiple values for argument '${k}'`);
    bound[i] = v;
  }
  const items = fields.map((f, i) => {
    const v = bound[i];
    if (v !== undefined) return v;
    const d = spec.defaults.get(f);
    return d === undefined ? bad(`missing argument '${f}'`) : fromHostRead(tx, d, null);
  });
  return new NamedTupleVar(cls, fields, items);
}

/** nt.field and nt._fields; other attributes (methods) run concretely. */
export function namedTupleAttr(nt: NamedTupleVar, name: string): Variable {
  const i = nt.fields.indexOf(name);
  if (i >= 0) return nt.items[i];
  if (name === '_fields') return new TupleVar(nt.fields.map((f) => new ConstVar({ k: 'str', v: f })));
  throw new GraphBreak('SOT007', `attribute '${name}' of a namedtuple made in translated code`);
}

/** As a plain tuple, for what a namedtuple does exactly as tuple does (indexing, slicing, iteration). */
export const asTuple = (nt: NamedTupleVar): TupleVar => new TupleVar(nt.items.slice());
