// JavaScript values as the translator sees them, on sot's Variable base: tensors made or read in
// the translation are sot TensorVars (graph values); every other value is concrete. A concrete
// value is either a real JS value (JsValue: primitives and host objects, with the source it was
// read from) or a container made by the translated code (JsArray, JsObject, JsMap) whose items
// may be tensors, or a function made by the translated code (JsClosure).
import type { Node } from 'estree';
import { SymTensor } from '../../sot/function_graph.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import type { Source } from '../../sot/sources.js';
import { TensorVar, Variable } from '../../sot/variables.js';
import type { FnNode, ParsedFunction } from './parse.js';

export class JsValue extends Variable {
  readonly kind = 'js_value';
  constructor(readonly value: unknown, source: Source | null = null) { super(source); }
}

/**
 * A primitive that a split step returned (split.ts: `t.item()`, an item of `t.tolist()`, a
 * tensor's string): guarded by value only once the translation reads `.value` (a branch, an
 * operator, a constant given to library code, a key). Passed through untouched (returned,
 * printed, written to an object or an array) it is read again from its entry slot by the leaf
 * (`raw` is the value this translation saw), so a value that differs on every call (a logged
 * loss) does not take a new child per value.
 */
export class LazyValue extends JsValue {
  constructor(
    readonly raw: unknown, source: Source | null, onRead: () => void,
    /**
     * A string the translation made from such values, rebuilt by the leaf from its parts
     * (constants and lazy values); reading it reads them all. `method` null: the parts
     * concatenated (`'loss ' + v`, a template literal); else that method of parts[0] called with
     * the other parts (`v.toFixed(4)`).
     */
    readonly parts: readonly JsValue[] | null = null,
    readonly method: string | null = null,
  ) {
    super(raw, source);
    let guarded = false;
    Object.defineProperty(this, 'value', {
      get: () => {
        if (!guarded) { guarded = true; onRead(); }
        return raw;
      },
      enumerable: true,
    });
  }
}

/**
 * The string JS makes of `parts` (a template literal, `+` with a string operand: String() of
 * each, concatenated), kept lazy when a part is. The type of a lazy value is known without
 * reading it (a step's result type is fixed by its tensor's dtype, which the path guards).
 */
export function lazyConcat(parts: readonly JsValue[]): JsValue {
  const flat = parts.flatMap((p) => (p instanceof LazyValue && p.parts && !p.method ? p.parts : [p]));
  const raw = flat.map((p) => String(p instanceof LazyValue ? p.raw : p.value)).join('');
  if (!flat.some((p) => p instanceof LazyValue)) return new JsValue(raw);
  return new LazyValue(raw, null, () => { for (const p of flat) void p.value; }, flat);
}

/** Methods of primitives that give a string whatever the value (the result's type needs no guard). */
const STRING_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  number: new Set(['toFixed', 'toPrecision', 'toExponential', 'toString']),
  boolean: new Set(['toString']),
  string: new Set(['padStart', 'padEnd', 'trim', 'trimStart', 'trimEnd', 'toUpperCase', 'toLowerCase', 'toString']),
};

/**
 * `recv.name(...args)` on a lazy primitive, kept lazy when the method always gives a string
 * (`loss.toFixed(4)` for a log line); null when it does not apply (the caller reads the value) or
 * raises here (the caller's concrete call reports it).
 */
export function lazyMethod(recv: LazyValue, name: string, args: readonly Variable[]): LazyValue | null {
  if (!STRING_METHODS[typeof recv.raw]?.has(name) || !args.every((a) => primitiveType(a) !== null && primitiveType(a) !== 'symbol')) return null;
  const parts = [recv, ...(args as JsValue[])];
  const raws = parts.map((p) => (p instanceof LazyValue ? p.raw : p.value));
  let raw: unknown;
  try {
    raw = (Object(raws[0]) as Record<string, (...a: unknown[]) => unknown>)[name](...raws.slice(1));
  } catch {
    return null;
  }
  if (typeof raw !== 'string') return null;
  return new LazyValue(raw, null, () => { for (const p of parts) void p.value; }, parts, name);
}

/** The primitive type of a concrete value, without reading a lazy one (null: not a primitive JsValue). */
export function primitiveType(v: Variable): string | null {
  if (v instanceof LazyValue) return typeof v.raw;
  if (v instanceof JsValue && isPrimitive(v.value)) return typeof v.value;
  return null;
}

/** An array made by the translated code (or a host array read and copied: `ref` is then the real array). */
export class JsArray extends Variable {
  readonly kind = 'js_array';
  constructor(public items: Variable[], source: Source | null = null, readonly ref: unknown[] | null = null) { super(source); }
}

export class JsObject extends Variable {
  readonly kind = 'js_object';
  constructor(readonly props: Map<string, Variable>) { super(null); }
}

/** new Map() made by the translated code; keys are concrete (primitives or objects by identity). */
export class JsMap extends Variable {
  readonly kind = 'js_map';
  constructor(readonly entries: Map<unknown, Variable>) { super(null); }
}

/** A binding: a variable slot in a scope (let/const/var/param). */
export interface Binding { v: Variable | null; readonly kind: 'let' | 'const' | 'var' | 'param' | 'function' }

export class Scope {
  readonly vars = new Map<string, Binding>();
  constructor(readonly parent: Scope | null) {}
  lookup(name: string): Binding | null {
    for (let s: Scope | null = this; s; s = s.parent) {
      const b = s.vars.get(name);
      if (b) return b;
    }
    return null;
  }
}

/** A function or arrow made inside the translated code: never a real function unless it escapes. */
export class JsClosure extends Variable {
  readonly kind = 'js_closure';
  constructor(
    readonly node: FnNode,
    readonly parsed: ParsedFunction,
    readonly scope: Scope,
    /** An arrow's lexical `this` (null for `function`, which gets its own). */
    readonly lexicalThis: Variable | null,
    readonly frame: unknown,
  ) { super(null); }
}

export const UNDEFINED = new JsValue(undefined);
export const js = (v: unknown, source: Source | null = null): JsValue => new JsValue(v, source);

/** The real JS value passed to library code: graph values stay symbolic. */
export function materialize(v: Variable, where: Node | string = 'value'): unknown {
  if (v instanceof TensorVar) return v.sym;
  if (v instanceof JsValue) return v.value;
  if (v instanceof JsArray) return v.items.map((x) => materialize(x, where));
  if (v instanceof JsObject) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.props) o[k] = materialize(x, where);
    return o;
  }
  if (v instanceof JsMap) {
    const m = new Map<unknown, unknown>();
    for (const [k, x] of v.entries) m.set(k, materialize(x, where));
    return m;
  }
  throw new GraphBreak('SOT005', `a function made in the translated code cannot be passed to library code (${typeof where === 'string' ? where : where.type})`);
}

const containsSym = (x: unknown, depth = 0): boolean => {
  if (x instanceof SymTensor) return true;
  if (depth > 4) return false;
  if (Array.isArray(x)) return x.some((y) => containsSym(y, depth + 1));
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) return Object.values(x).some((y) => containsSym(y, depth + 1));
  return false;
};

/** A value returned by library code, as a variable (graph values become TensorVars). */
export function wrap(x: unknown): Variable {
  if (x instanceof SymTensor) return new TensorVar(x);
  if (Array.isArray(x)) return new JsArray(x.map(wrap));
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype && containsSym(x)) {
    return new JsObject(new Map(Object.entries(x).map(([k, y]) => [k, wrap(y)])));
  }
  return new JsValue(x);
}

export const isPrimitive = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');
