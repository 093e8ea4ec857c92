// JavaScript value semantics on variables: truthiness, typeof, operators, equality, member
// reads and iteration. Concrete operands are computed with the real JS operator on the real
// primitives (so `+` on strings, `%` on negatives, `==` vs `===`, bigint rules are exactly the
// engine's). JS has no operator overloading: an operator on a tensor object converts it with
// Tensor.toString, which reads its values: interp.ts makes that conversion a split first
// (calls.ts convertTensor); a tensor still reaching an operator here is a break (SOT001). A
// tensor's truthiness (always true, it is an object) reads nothing.
import type * as E from 'estree';
import { LayerList } from '../../src/nn/container.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import { attrSource } from '../../sot/sources.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import type { Translation } from './translation.js';
import { isPrimitive, JsArray, JsClosure, JsMap, JsObject, JsValue, LazyValue, UNDEFINED, js } from './vars.js';

export function truthy(v: Variable): boolean {
  if (v instanceof JsValue) return Boolean(v.value);
  return true;   // tensors, arrays, objects, functions: objects are truthy in JS
}

export function typeOf(v: Variable): string {
  if (v instanceof LazyValue) return typeof v.raw;   // a split result's type is fixed by its path: no value guard
  if (v instanceof JsValue) return typeof v.value;
  if (v instanceof JsClosure) return 'function';
  return 'object';
}

/** The primitive an operator sees (ToPrimitive), for values whose conversion runs no user code. */
function toPrimitive(v: Variable, op: string): unknown {
  if (v instanceof JsValue) {
    if (isPrimitive(v.value)) return v.value;
    if (Array.isArray(v.value) && v.value.every(isPrimitive)) return String(v.value);
    throw new GraphBreak('SOT007', `operator ${op} on an object (its conversion may run user code)`);
  }
  if (v instanceof TensorVar) throw new GraphBreak('SOT001', `operator ${op} on a tensor (JS converts it with toString, which reads its values)`);
  if (v instanceof JsArray && v.items.every((x) => x instanceof JsValue && isPrimitive(x.value))) return String(v.items.map((x) => (x as JsValue).value));
  if (v instanceof JsObject && !v.props.has('toString') && !v.props.has('valueOf')) return '[object Object]';
  throw new GraphBreak('SOT007', `operator ${op} on a value the translator cannot convert`);
}

function compute(op: string, a: any, b: any): unknown {   // eslint-disable-line @typescript-eslint/no-explicit-any
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return a % b;
    case '**': return a ** b;
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
    case '<<': return a << b;
    case '>>': return a >> b;
    case '>>>': return a >>> b;
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '==': return a == b;   // eslint-disable-line eqeqeq
    case '!=': return a != b;   // eslint-disable-line eqeqeq
    default: throw new GraphBreak('SOT007', `operator ${op}`);
  }
}

export function binary(op: E.BinaryOperator, l: Variable, r: Variable): Variable {
  switch (op) {
    case '===': return js(strictEqual(l, r));
    case '!==': return js(!strictEqual(l, r));
    case '==': return js(looseEqual(l, r));
    case '!=': return js(!looseEqual(l, r));
    case 'instanceof': return js(instanceOf(l, r));
    case 'in': return js(hasKey(l, r));
  }
  const a = toPrimitive(l, op), b = toPrimitive(r, op);
  try {
    return js(compute(op, a, b));
  } catch (e) {
    if (e instanceof GraphBreak) throw e;
    throw new GraphBreak('SOT007', `${op}: ${(e as Error).message} (raises eagerly)`);
  }
}

export function unary(op: E.UnaryOperator, v: Variable): Variable {
  switch (op) {
    case '!': return js(!truthy(v));
    case 'typeof': return js(typeOf(v));
    case 'void': return UNDEFINED;
  }
  const a = toPrimitive(v, op) as any;   // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    switch (op) {
      case '-': return js(-a);
      case '+': return js(+a);
      case '~': return js(~a);
      default: throw new GraphBreak('SOT007', `unary ${op}`);
    }
  } catch (e) {
    if (e instanceof GraphBreak) throw e;
    throw new GraphBreak('SOT007', `${op}: ${(e as Error).message} (raises eagerly)`);
  }
}

export function strictEqual(l: Variable, r: Variable): boolean {
  if (l instanceof JsValue && r instanceof JsValue) return l.value === r.value;
  if (l instanceof TensorVar && r instanceof TensorVar) return l.sym === r.sym;
  return l === r;
}

export function looseEqual(l: Variable, r: Variable): boolean {
  const nullish = (v: Variable) => v instanceof JsValue && (v.value === null || v.value === undefined);
  if (nullish(l) || nullish(r)) return nullish(l) && nullish(r);
  if (l instanceof JsValue && r instanceof JsValue && (isPrimitive(l.value) === isPrimitive(r.value))) return l.value == r.value;   // eslint-disable-line eqeqeq
  const lp = l instanceof JsValue && isPrimitive(l.value), rp = r instanceof JsValue && isPrimitive(r.value);
  if (!lp && !rp) return strictEqual(l, r);
  return Boolean(compute('==', toPrimitive(l, '=='), toPrimitive(r, '==')));
}

function instanceOf(l: Variable, r: Variable): boolean {
  if (!(r instanceof JsValue) || typeof r.value !== 'function') throw new GraphBreak('SOT007', 'instanceof with a right-hand side that is not a class');
  const C = r.value as { prototype: object };
  if (l instanceof TensorVar) return C.prototype === Tensor.prototype || Object.prototype.isPrototypeOf.call(C.prototype, Tensor.prototype);
  if (l instanceof JsValue) return l.value instanceof (C as unknown as new () => unknown);
  if (l instanceof JsArray) return C === (Array as unknown) || C === (Object as unknown);
  if (l instanceof JsMap) return C === (Map as unknown) || C === (Object as unknown);
  if (l instanceof JsClosure) return C === (Function as unknown) || C === (Object as unknown);
  return C === (Object as unknown);
}

function hasKey(k: Variable, o: Variable): boolean {
  const key = toPrimitive(k, 'in') as string;
  if (o instanceof JsObject) return o.props.has(String(key));
  if (o instanceof JsArray) return key === 'length' || (Number(key) >= 0 && Number(key) < o.items.length);
  if (o instanceof JsValue && o.value !== null && typeof o.value === 'object') return (key as PropertyKey) in (o.value as object);
  throw new GraphBreak('SOT007', "'in' on a value the translator does not model");
}

/** A host value read without a source (a constant of this translation): arrays become JsArrays that remember the real one. */
export function wrapHost(v: unknown): Variable {
  if (Array.isArray(v)) return new JsArray(v.map(wrapHost), null, v);
  return new JsValue(v);
}

const isIndex = (k: string | number): number | null => {
  const n = typeof k === 'number' ? k : /^(0|[1-9]\d*)$/.test(k) ? Number(k) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
};

export function getMember(tr: Translation, obj: Variable, key: string | number): Variable {
  if (obj instanceof TensorVar) return tensorAttr(obj, key);
  if (obj instanceof JsArray) {
    if (key === 'length') return js(obj.items.length);
    const i = isIndex(key);
    if (i !== null) return obj.items[i] ?? UNDEFINED;
    if (String(key) in Array.prototype) throw new GraphBreak('SOT007', `array method ${String(key)} used as a value`);
    return UNDEFINED;
  }
  if (obj instanceof JsObject) {
    const v = obj.props.get(String(key));
    if (v) return v;
    if (String(key) in Object.prototype) throw new GraphBreak('SOT007', `${String(key)} of an object literal`);
    return UNDEFINED;
  }
  if (obj instanceof JsMap) {
    if (key === 'size') return js(obj.entries.size);
    throw new GraphBreak('SOT007', `Map member ${String(key)} used as a value`);
  }
  if (!(obj instanceof JsValue)) throw new GraphBreak('SOT007', `member ${String(key)} of a ${obj.kind}`);
  const v = obj.value;
  if (v === null || v === undefined) throw new GraphBreak('SOT007', `reading '${String(key)}' of ${String(v)} (TypeError eagerly)`);
  if (isPrimitive(v)) return js((Object(v) as Record<string | number, unknown>)[key]);
  if (v instanceof Tensor) return tensorAttr(new TensorVar(tr.graph.bind(v)), key);
  const written = tr.overlay.get(v as object)?.get(String(key));
  if (written) return written;
  const val = Reflect.get(v as object, key);
  if (obj.source) return tr.track(val, attrSource(obj.source, String(key)));
  return wrapHost(val);
}

function tensorAttr(t: TensorVar, key: string | number): Variable {
  const s = t.sym;
  switch (key) {
    case 'shape': return new JsArray(s.shape.map((d, i) => {
      if (typeof d !== 'number') throw new GraphBreak('SOT008', `dim ${i} of a tensor is symbolic (${String(d)})`);
      return js(d);
    }));
    case 'ndim': return js(s.shape.length);
    case 'dtype': return js(s.dtype);
    case 'stop_gradient': return js(s.stop_gradient);
    case 'size': {
      let n = 1;
      for (const d of s.shape) { if (typeof d !== 'number') throw new GraphBreak('SOT008', 'size of a tensor with a symbolic dim'); n *= d; }
      return js(n);
    }
    default: throw new GraphBreak('SOT007', `tensor member ${String(key)} is not modelled (only shape, ndim, dtype, stop_gradient, size and methods)`);
  }
}

/** iterate, plus Skiff's iterable containers (LayerList: its layers, read through `_items` and guarded). */
export function iterateVar(tr: Translation, v: Variable): Variable[] {
  if (v instanceof JsValue && v.value instanceof LayerList) return iterate(getMember(tr, v, '_items'));
  return iterate(v);
}

/** The items a for...of / spread / array pattern sees. */
export function iterate(v: Variable): Variable[] {
  if (v instanceof JsArray) return [...v.items];
  if (v instanceof JsMap) return [...v.entries].map(([k, x]) => new JsArray([js(k), x]));
  if (v instanceof JsValue) {
    if (typeof v.value === 'string') return [...v.value].map((c) => js(c));
    if (Array.isArray(v.value)) return v.value.map(wrapHost);
  }
  if (v instanceof TensorVar) throw new GraphBreak('SOT009', 'iteration over a tensor');
  throw new GraphBreak('SOT009', `iteration over a ${v instanceof JsValue ? typeof v.value : v.kind} the translator does not model`);
}
