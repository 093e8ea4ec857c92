// What Python operations mean on the translator's variables. Tensor work is recorded into the
// function graph; operations on constants are computed with Python's own semantics (by the
// host, once, at translation time) and guarded through their sources; anything that cannot be
// modelled raises a GraphBreak so the instruction runs concretely.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { attrSource, itemSource, type Source } from '../../../sot/sources.js';
import { BINARY_OPS, binaryOpDef, callWithTypedArgs, isTrueDiv, type TypedScalar } from '../../../sot/tensor_semantics.js';
import type { RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, ConstVar, DictVar, FunctionVar, IterVar, ListVar, NullVar, ObjectVar, RangeVar, SliceVar, TensorVar,
  TupleVar, type Variable,
} from '../../../sot/variables.js';
import { getOp, hasOp } from '../../../src/ops/registry.js';
import type { TensorLike } from '../../../src/ops/dispatch.js';
import { SymTensor } from '../../../sot/function_graph.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import type { Translator } from './translator.js';
import { inlineCall } from './inline.js';
import { callBuiltin } from './builtins.js';
import { tensorAttr, tensorMethodCall } from './tensor_attrs.js';

// ---- conversions ------------------------------------------------------------------------------

/** The real value of a fully concrete variable, or null when it holds symbolic tensors. */
export function toRt(tx: Translator, v: Variable): RtValue | null {
  if (v instanceof ConstVar) return v.value;
  if (v instanceof TupleVar || v instanceof ListVar) {
    const items: RtValue[] = [];
    for (const x of v.items) { const r = toRt(tx, x); if (!r) return null; items.push(r); }
    if (v instanceof ListVar && v.ref && !tx.mutated.has(v)) return { k: 'list', items, ref: v.ref };
    return v instanceof TupleVar ? { k: 'tuple', items } : { k: 'list', items };
  }
  if (v instanceof DictVar) {
    const keys: RtValue[] = [], values: RtValue[] = [];
    for (let i = 0; i < v.keys.length; i++) {
      const k = toRt(tx, v.keys[i]), x = toRt(tx, v.values[i]);
      if (!k || !x) return null;
      keys.push(k); values.push(x);
    }
    return v.ref && !tx.mutated.has(v) ? { k: 'dict', keys, values, ref: v.ref } : { k: 'dict', keys, values };
  }
  if (v instanceof ObjectVar) return { k: 'obj', ref: v.ref };
  if (v instanceof TensorVar) {
    const inp = tx.graph.inputs.find((i) => i.value === v.sym.id);
    if (inp && inp.source.k === 'const') return null;
    return null;
  }
  return null;
}

/**
 * A variable for a value computed at translation time (no source: derived values are not
 * re-read). Lists and dicts it returns are new objects nobody else holds, so they are modelled
 * as fresh containers, not as references to the translation-time objects.
 */
export const fromComputed = (tx: Translator, v: RtValue): Variable => tx.fromRt(stripRefs(v), null, false);

function stripRefs(v: RtValue): RtValue {
  if (v.k === 'list') return { k: 'list', items: v.items.map(stripRefs) };
  if (v.k === 'tuple') return { k: 'tuple', items: v.items.map(stripRefs) };
  if (v.k === 'dict') return { k: 'dict', keys: v.keys, values: v.values.map(stripRefs) };
  return v;
}

/**
 * A value read from outside the frame's arguments (an attribute, a global, a closure cell).
 * Lists and dicts there may be mutated in place between calls without any rebinding, so the
 * wrapper re-checks their contents (a snapshot of element identities) on every call. Layers'
 * own registries (_sub_layers, _parameters, _buffers) change only with the layer version.
 */
export function fromHostRead(tx: Translator, v: RtValue, source: Source | null, layerRegistry = false): Variable {
  if (v.k === 'tensor') return tx.constTensor(v.t);
  if ((v.k === 'list' || v.k === 'dict') && v.ref && !layerRegistry) tx.host.recordContentGuard(v.ref);
  return tx.fromRt(v, source, false);
}

export function isConstLike(v: Variable): boolean {
  return v instanceof ConstVar || ((v instanceof TupleVar) && v.items.every(isConstLike));
}

/** A tensor operand as the graph sees it. */
export function symOf(tx: Translator, v: Variable): SymTensor {
  if (v instanceof TensorVar) return v.sym;
  throw new Error(`sot: expected a tensor, got ${v.kind}`);
}

/** Argument of a tensor op: tensors as graph values, Python scalars with their kind, containers as arrays. */
export function opArg(tx: Translator, v: Variable): TensorLike | TypedScalar | unknown {
  if (v instanceof TensorVar) return v.sym;
  if (v instanceof ConstVar) {
    const c = v.value;
    switch (c.k) {
      case 'int': return { scalar: Number(c.v), kind: 'int' } satisfies TypedScalar;
      case 'float': return { scalar: c.v, kind: 'float' } satisfies TypedScalar;
      case 'bool': return { scalar: c.v, kind: 'bool' } satisfies TypedScalar;
      case 'none': return null;
      case 'str': return c.v;
    }
  }
  if (v instanceof TupleVar || v instanceof ListVar) return v.items.map((x) => attrArg(tx, x));
  if (v instanceof ObjectVar && v.info.kind === 'other') {
    const dt = tx.host.dtypeName(v.ref);
    if (dt) return dt;
  }
  if (v instanceof ObjectVar && v.info.kind === 'class') {
    const dt = tx.host.dtypeName(v.ref);
    if (dt) return dt;
  }
  if (v instanceof ObjectVar && v.info.kind === 'builtin' && ['float', 'int', 'bool'].includes(v.info.name)) {
    return ({ float: 'float32', int: 'int64', bool: 'bool' } as Record<string, string>)[v.info.name];
  }
  throw new GraphBreak('SOT011', `argument of kind ${v.kind} cannot be passed to a graph op`);
}

function attrArg(tx: Translator, v: Variable): unknown {
  const a = opArg(tx, v);
  if (a && typeof a === 'object' && 'scalar' in (a as object)) return (a as TypedScalar).scalar;
  if (a instanceof SymTensor) throw new GraphBreak('SOT008', 'a tensor used where the op needs a Python value');
  return a;
}

/** Wraps op outputs as variables. */
export function tensorResults(outs: readonly TensorLike[]): Variable {
  const vs = outs.map((o) => new TensorVar(o as SymTensor));
  return vs.length === 1 ? vs[0] : new TupleVar(vs);
}

/** Records op `name` with Python-style arguments; input positions first, then attributes by name. */
export function recordOp(tx: Translator, name: string, inputs: readonly unknown[], attrs: Record<string, unknown> = {}): TensorLike[] {
  const def = getOp(name);
  return tx.graph.recording(() => {
    try {
      return callWithTypedArgs(def, inputs as never, attrs);
    } catch (e) {
      // A real error (shapes, dtypes): let the instruction run concretely so Python raises it
      // with its own type, message and the user's line.
      throw new GraphBreak('SOT007', `${def.name}: ${(e as Error).message}`);
    }
  });
}

// ---- operators ----------------------------------------------------------------------------------

export function binaryOp(tx: Translator, sym: string, a: Variable, b: Variable): Variable | undefined {
  if (a instanceof TensorVar || b instanceof TensorVar) return tensorBinary(tx, sym, a, b);
  if (sym === '[]') return getItem(tx, a, b);
  if (a instanceof ConstVar && b instanceof ConstVar) return fromComputed(tx, hostBinary(tx, sym, a.value, b.value));
  // sequences: + and * on tuples/lists built from known items
  const base = sym.endsWith('=') ? sym.slice(0, -1) : sym;
  if ((a instanceof TupleVar || a instanceof ListVar) && base === '+' && b.kind === a.kind) {
    const items = [...(a as TupleVar).items, ...(b as TupleVar).items];
    if (a instanceof ListVar && sym === '+=') { setListItems(tx, a, items); return a; }
    return a instanceof TupleVar ? new TupleVar(items) : new ListVar(items);
  }
  if ((a instanceof TupleVar || a instanceof ListVar) && base === '*' && b instanceof ConstVar && b.value.k === 'int') {
    const n = Math.max(0, Number(b.value.v));
    const items: Variable[] = [];
    for (let i = 0; i < n; i++) items.push(...a.items);
    return a instanceof TupleVar ? new TupleVar(items) : new ListVar(items);
  }
  const ra = toRt(tx, a), rb = toRt(tx, b);
  if (ra && rb && (a instanceof TupleVar || a instanceof ConstVar) && (b instanceof TupleVar || b instanceof ConstVar)) return fromComputed(tx, hostBinary(tx, sym, ra, rb));
  throw new GraphBreak('SOT007', `operator ${sym} on ${a.kind} and ${b.kind}`);
}

function hostBinary(tx: Translator, sym: string, a: RtValue, b: RtValue): RtValue {
  const arg = tx.host.binaryOpArg(sym);
  try {
    return tx.host.concrete({ opname: 'BINARY_OP', arg }, [a, b])[1];
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
}

function tensorBinary(tx: Translator, sym: string, a: Variable, b: Variable): Variable {
  let base = sym;
  if (sym.length > 1 && sym.endsWith('=') && !['==', '!=', '<=', '>='].includes(sym)) base = sym.slice(0, -1);
  let x = a, y = b, reflected = false;
  if (!(a instanceof TensorVar)) {
    // Python tries the left operand first; a non-tensor left operand defers to Tensor.__rop__.
    if (a instanceof ConstVar && (a.value.k === 'int' || a.value.k === 'float' || a.value.k === 'bool')) { x = b; y = a; reflected = true; }
    else throw new GraphBreak('SOT007', `operator ${sym} between ${a.kind} and a tensor`);
    if (base in { '<': 1, '<=': 1, '>': 1, '>=': 1, '==': 1, '!=': 1 }) {
      base = ({ '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' } as Record<string, string>)[base];
      reflected = false;
    }
  }
  if (!(y instanceof TensorVar) && !(y instanceof ConstVar && ['int', 'float', 'bool'].includes(y.value.k))) {
    throw new GraphBreak('SOT007', `operator ${sym} between a tensor and ${y.kind}`);
  }
  const def = binaryOpDef(base);
  if (!def || !BINARY_OPS[base]) throw new GraphBreak('SOT007', `operator ${sym} on tensors`);
  let xs: unknown = opArg(tx, x), ys: unknown = opArg(tx, y);
  if (isTrueDiv(base)) {
    if (x instanceof TensorVar && !['float32', 'float64', 'float16', 'bfloat16'].includes(x.sym.dtype)) xs = recordOp(tx, 'cast', [xs], { dtype: 'float32' })[0];
    if (y instanceof TensorVar && !['float32', 'float64', 'float16', 'bfloat16'].includes(y.sym.dtype)) ys = recordOp(tx, 'cast', [ys], { dtype: 'float32' })[0];
  }
  const inputs = reflected ? [ys, xs] : [xs, ys];
  return tensorResults(recordOp(tx, def.name, inputs));
}

export function unaryOp(tx: Translator, op: 'neg' | 'not' | 'invert' | 'pos', v: Variable): Variable {
  if (v instanceof TensorVar) {
    if (op === 'neg') return tensorResults(recordOp(tx, hasOp('neg') ? 'neg' : 'scale', hasOp('neg') ? [v.sym] : [v.sym], hasOp('neg') ? {} : { scale: -1 }));
    if (op === 'pos') return v;
    if (op === 'invert') return tensorResults(recordOp(tx, hasOp('bitwise_not') ? 'bitwise_not' : 'logical_not', [v.sym]));
    throw new GraphBreak('SOT001', '`not` on a tensor needs its value');
  }
  if (op === 'not') return new ConstVar({ k: 'bool', v: !truthy(tx, v) });
  const r = toRt(tx, v);
  if (r && v instanceof ConstVar) {
    const opname = op === 'neg' ? 'UNARY_NEGATIVE' : op === 'invert' ? 'UNARY_INVERT' : null;
    if (opname) return fromComputed(tx, tx.host.concrete({ opname, arg: 0 }, [r])[1]);
    if (op === 'pos') return v;
  }
  throw new GraphBreak('SOT007', `unary ${op} on ${v.kind}`);
}

export function compareOp(tx: Translator, sym: string, a: Variable, b: Variable): Variable {
  if (a instanceof TensorVar || b instanceof TensorVar) return tensorBinary(tx, sym, a, b);
  if (a instanceof ConstVar && b instanceof ConstVar) return fromComputed(tx, hostCompare(tx, sym, a.value, b.value));
  const ra = toRt(tx, a), rb = toRt(tx, b);
  if (ra && rb && (sym === '==' || sym === '!=') && (a instanceof ObjectVar || b instanceof ObjectVar)) {
    // identity-guarded objects: == on them is stable only for plain objects; be concrete
    throw new GraphBreak('SOT007', `comparison ${sym} of objects`);
  }
  if (ra && rb) return fromComputed(tx, hostCompare(tx, sym, ra, rb));
  throw new GraphBreak('SOT007', `comparison ${sym} of ${a.kind} and ${b.kind}`);
}

function hostCompare(tx: Translator, sym: string, a: RtValue, b: RtValue): RtValue {
  try {
    return tx.host.concrete({ opname: 'COMPARE_OP', arg: tx.host.compareOpArg(sym) }, [a, b])[1];
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
}

export function isOp(a: Variable, b: Variable): boolean | null {
  if (a === b) return true;
  if (a instanceof ConstVar && b instanceof ConstVar) {
    if (a.value.k === 'none' || b.value.k === 'none') return a.value.k === b.value.k;
    if (a.value.k === 'bool' && b.value.k === 'bool') return a.value.v === b.value.v;
    return null;
  }
  if (a instanceof ObjectVar && b instanceof ObjectVar) return a.ref.id === b.ref.id;
  if (a instanceof ConstVar && a.value.k === 'none') return b instanceof NullVar ? null : false;
  if (b instanceof ConstVar && b.value.k === 'none') return a instanceof NullVar ? null : false;
  if (a instanceof TensorVar && b instanceof TensorVar) return a.sym === b.sym;
  if ((a instanceof TensorVar) !== (b instanceof TensorVar)) return false;
  return null;
}

export function containsOp(tx: Translator, needle: Variable, hay: Variable): boolean {
  if (hay instanceof TupleVar || hay instanceof ListVar) {
    for (const x of hay.items) {
      const r = isOp(x, needle);
      if (r) return true;
      const eq = compareOp(tx, '==', x, needle);
      if (eq instanceof TensorVar) throw new GraphBreak('SOT001', '`in` over tensors needs tensor values');
      if (truthy(tx, eq)) return true;
    }
    return false;
  }
  if (hay instanceof DictVar) return hay.keys.some((k) => truthy(tx, compareOp(tx, '==', k, needle)));
  if (hay instanceof ConstVar && needle instanceof ConstVar) {
    return truthy(tx, fromComputed(tx, tx.host.concrete({ opname: 'CONTAINS_OP', arg: 0 }, [needle.value, hay.value])[1]));
  }
  throw new GraphBreak('SOT007', `\`in\` on ${hay.kind}`);
}

/** Python truthiness; a tensor's value cannot be known while tracing. */
export function truthy(tx: Translator, v: Variable): boolean {
  if (v instanceof ConstVar) {
    const c = v.value;
    switch (c.k) {
      case 'none': return false;
      case 'bool': return c.v;
      case 'int': return c.v !== 0 && c.v !== 0n;
      case 'float': return c.v !== 0;
      case 'str': return c.v.length > 0;
    }
  }
  if (v instanceof TupleVar || v instanceof ListVar) return v.items.length > 0;
  if (v instanceof DictVar) return v.keys.length > 0;
  if (v instanceof RangeVar) return v.length > 0;
  if (v instanceof TensorVar) throw new GraphBreak('SOT001', 'bool() of a tensor');
  if (v instanceof FunctionVar || v instanceof BoundMethodVar) return true;
  if (v instanceof ObjectVar) {
    if (['function', 'api', 'builtin', 'module', 'class', 'method'].includes(v.info.kind)) return true;
    if (v.info.kind === 'layer') {
      const r = tx.host.concrete({ opname: 'TO_BOOL', arg: 0 }, [{ k: 'obj', ref: v.ref }])[1];
      return r.k === 'bool' && r.v;
    }
  }
  throw new GraphBreak('SOT007', `bool() of ${v.kind === 'object' ? (v as ObjectVar).ref.typeName : v.kind}`);
}

// ---- attributes and items ------------------------------------------------------------------

export function getAttr(tx: Translator, obj: Variable, name: string): Variable {
  if (obj instanceof TensorVar) return tensorAttr(tx, obj, name);
  if (obj instanceof ObjectVar) {
    const key = `${obj.ref.id as number}.${name}`;
    const shadow = tx.attrOverlay.get(key);
    if (shadow) return shadow;
    let v: RtValue, id: number;
    try {
      ({ value: v, id } = tx.host.getattrWithId({ k: 'obj', ref: obj.ref }, name));
    } catch (e) {
      if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
      throw e;
    }
    // Layer attributes are covered by the layer version guard; others are re-checked by the wrapper.
    if (obj.info.kind !== 'layer') tx.host.recordAttrGuard(obj.ref, name, id);
    else tx.layerDependent = true;
    const src = obj.source ? attrSource(obj.source, name) : null;
    return fromHostRead(tx, v, src, obj.info.kind === 'layer' && (name === '_sub_layers' || name === '_parameters' || name === '_buffers'));
  }
  if (obj instanceof ConstVar || obj instanceof TupleVar || obj instanceof ListVar || obj instanceof DictVar) {
    return new BoundMethodVar(obj, name);
  }
  if (obj instanceof SliceVar) {
    if (name === 'start') return obj.start;
    if (name === 'stop') return obj.stop;
    if (name === 'step') return obj.step;
    return new BoundMethodVar(obj, name);
  }
  if (obj instanceof FunctionVar) {
    if (name === '__name__') return new ConstVar({ k: 'str', v: obj.name });
  }
  throw new GraphBreak('SOT007', `attribute '${name}' of ${obj.kind}`);
}

/** obj.name = value: logged, replayed after the graph; later reads see it. */
export function setAttr(tx: Translator, obj: Variable, name: string, value: Variable): void {
  if (obj instanceof ObjectVar) {
    if (obj.info.kind === 'layer' || obj.info.kind === 'other' || obj.info.kind === 'module') {
      tx.attrOverlay.set(`${obj.ref.id as number}.${name}`, value);
      tx.logEffect('SKIFF_SETATTR', [obj, new ConstVar({ k: 'str', v: name }), value]);
      return;
    }
  }
  throw new GraphBreak('SOT007', `setting attribute '${name}' of ${obj.kind}`);
}

export function getItem(tx: Translator, obj: Variable, key: Variable): Variable | undefined {
  if (obj instanceof TensorVar) return tensorMethodCall(tx, obj, '__getitem__', [key], []);
  if (obj instanceof TupleVar || obj instanceof ListVar) {
    if (key instanceof ConstVar && (key.value.k === 'int' || key.value.k === 'bool')) {
      const n = obj.items.length;
      let i = Number(key.value.v);
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw new GraphBreak('SOT007', `index ${Number(key.value.v)} out of range`);
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
    throw new GraphBreak('SOT007', 'missing dict key');
  }
  if (obj instanceof RangeVar && key instanceof ConstVar && key.value.k === 'int') {
    let i = Number(key.value.v);
    if (i < 0) i += obj.length;
    if (i < 0 || i >= obj.length) throw new GraphBreak('SOT007', 'range index out of range');
    return new ConstVar({ k: 'int', v: obj.at(i) });
  }
  if (obj instanceof ConstVar && obj.value.k === 'str') {
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
  throw new GraphBreak('SOT007', `subscript of ${obj.kind}`);
}

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

export function setListItems(tx: Translator, l: ListVar, items: Variable[]): void {
  l.items = items;
  if (l.ref) tx.mutated.add(l);
}

// ---- iteration ----------------------------------------------------------------------------------

export function getIter(tx: Translator, v: Variable): Variable {
  if (v instanceof IterVar) return v;
  if (v instanceof TupleVar || v instanceof ListVar) return new IterVar(v.items.slice());
  if (v instanceof RangeVar) {
    const items: Variable[] = [];
    for (let i = 0; i < v.length; i++) items.push(new ConstVar({ k: 'int', v: v.at(i) }));
    return new IterVar(items);
  }
  if (v instanceof DictVar) return new IterVar(v.keys.slice());
  if (v instanceof ConstVar && v.value.k === 'str') return new IterVar([...v.value.v].map((c) => new ConstVar({ k: 'str', v: c })));
  if (v instanceof ObjectVar && v.info.kind === 'layer') {
    tx.layerDependent = true;
    const r = tx.host.concrete({ opname: 'GET_ITER', arg: 0 }, [{ k: 'obj', ref: v.ref }])[1];
    if (r.k === 'tuple') return new IterVar(r.items.map((x) => (x.k === 'tensor' ? tx.constTensor(x.t) : tx.fromRt(x, null, false))));
  }
  if (v instanceof TensorVar) throw new GraphBreak('SOT009', 'iteration over a tensor');
  throw new GraphBreak('SOT009', `iteration over ${v instanceof ObjectVar ? v.ref.typeName : v.kind}`);
}

// ---- calls -------------------------------------------------------------------------------------

export function callVar(tx: Translator, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  if (fn instanceof BoundMethodVar) return callMethod(tx, fn, args, kwargs);
  if (fn instanceof FunctionVar) return inlineCall(tx, fn, null, args, kwargs);
  if (fn instanceof ObjectVar) {
    const info = fn.info;
    switch (info.kind) {
      case 'api': return callApi(tx, info.api, args, kwargs);
      case 'function': return inlineCall(tx, fn, null, args, kwargs);
      case 'method': {
        const selfVar = tx.objectVar(info.self, null);
        const funcVar = tx.objectVar(info.func, null);
        return callVar(tx, funcVar, [selfVar, ...args], kwargs);
      }
      case 'builtin': return callBuiltin(tx, info.name, fn, args, kwargs);
      case 'layer': return callLayer(tx, fn, args, kwargs);
      default: break;
    }
    throw new GraphBreak('SOT005', `call of ${fn.ref.typeName}`);
  }
  throw new GraphBreak('SOT005', `call of ${fn.kind}`);
}

/** paddle.* and Tensor methods from the registry: recorded as one op. */
export function callApi(tx: Translator, opName: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  const def = getOp(opName);
  const params = [...def.inputs.map((i) => i.name), ...def.attrs.map((a) => a.name)];
  const slots: (Variable | undefined)[] = new Array(params.length);
  if (args.length > params.length) throw new GraphBreak('SOT007', `${opName}() takes at most ${params.length} arguments`);
  args.forEach((a, i) => { slots[i] = a; });
  for (const [k, v] of kwargs) {
    if (k === 'name') continue;
    const key = def.api?.aliases?.[k] ?? k;
    const i = params.indexOf(key);
    if (i < 0 || slots[i] !== undefined) throw new GraphBreak('SOT007', `${opName}() bad keyword '${k}'`);
    slots[i] = v;
  }
  const inputs = def.inputs.map((spec, i) => {
    const v = slots[i];
    if (v === undefined) return undefined;
    if (spec.variadic) {
      if (!(v instanceof ListVar || v instanceof TupleVar)) throw new GraphBreak('SOT007', `${opName}(): '${spec.name}' must be a list`);
      return v.items.map((x) => {
        if (!(x instanceof TensorVar)) throw new GraphBreak('SOT007', `${opName}(): '${spec.name}' must contain tensors`);
        return x.sym;
      });
    }
    return opArg(tx, v);
  });
  const attrs: Record<string, unknown> = {};
  def.attrs.forEach((a, j) => {
    const v = slots[def.inputs.length + j];
    if (v !== undefined) attrs[a.name] = attrArg(tx, v);
  });
  const outs = recordOp(tx, opName, inputs, attrs);
  if (def.api?.returnOutput !== undefined) return new TensorVar(outs[def.api.returnOutput] as SymTensor);
  if (def.numOutputs) return new ListVar(outs.map((o) => new TensorVar(o as SymTensor)));
  return tensorResults(outs);
}

function callMethod(tx: Translator, m: BoundMethodVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const self = m.self;
  if (self instanceof TensorVar) return tensorMethodCall(tx, self, m.name, args, kwargs);
  if (self instanceof ListVar) return listMethod(tx, self, m.name, args, kwargs);
  if (self instanceof DictVar) return dictMethod(tx, self, m.name, args, kwargs);
  if (self instanceof TupleVar && (m.name === 'index' || m.name === 'count')) {
    const r = toRt(tx, self), a = args.map((x) => toRt(tx, x));
    if (r && a.every(Boolean)) return fromComputed(tx, callOnHost(tx, r, m.name, a as RtValue[]));
  }
  if (self instanceof ConstVar) {
    const a = args.map((x) => toRt(tx, x));
    if (a.every(Boolean) && kwargs.length === 0) return fromComputed(tx, callOnHost(tx, self.value, m.name, a as RtValue[]));
  }
  if (self instanceof SliceVar && m.name === 'indices' && args.length === 1 && args[0] instanceof ConstVar) {
    const n = Number((args[0].value as { v: number }).v);
    const r = sliceIndices(tx, self, n);
    // Python's slice.indices keeps stop at -1 for negative steps reaching the start
    return new TupleVar([r.start, r.stop, r.step].map((x) => new ConstVar({ k: 'int', v: x })));
  }
  throw new GraphBreak('SOT007', `method ${m.name} of ${self.kind}`);
}

/** Calls a pure method of a builtin value (str.upper, int.bit_length, tuple.index) on the host. */
function callOnHost(tx: Translator, self: RtValue, name: string, args: RtValue[]): RtValue {
  const method = tx.host.getattr(self, name);
  try {
    const nul: RtValue = { k: 'obj', ref: tx.host.nullRef };
    return tx.host.concrete({ opname: 'CALL', arg: args.length }, tx.v.callableFirst ? [method, nul, ...args] : [nul, method, ...args])[1];
  } catch (e) {
    if (e instanceof HostError) throw new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
    throw e;
  }
}

function listMethod(tx: Translator, l: ListVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length) throw new GraphBreak('SOT007', `list.${name} with keywords`);
  const items = l.items.slice();
  switch (name) {
    case 'append': items.push(args[0]); setListItems(tx, l, items); return new ConstVar({ k: 'none' });
    case 'extend': {
      const it = getIter(tx, args[0]) as IterVar;
      items.push(...it.items.slice(it.pos));
      setListItems(tx, l, items);
      return new ConstVar({ k: 'none' });
    }
    case 'insert': {
      const i = Number((args[0] as ConstVar).value.k === 'int' ? ((args[0] as ConstVar).value as { v: number }).v : NaN);
      if (!Number.isFinite(i)) break;
      items.splice(i < 0 ? Math.max(0, items.length + i) : Math.min(i, items.length), 0, args[1]);
      setListItems(tx, l, items);
      return new ConstVar({ k: 'none' });
    }
    case 'pop': {
      if (!items.length) break;
      let i = args.length ? Number(((args[0] as ConstVar).value as { v: number }).v) : items.length - 1;
      if (i < 0) i += items.length;
      const [v] = items.splice(i, 1);
      setListItems(tx, l, items);
      return v!;
    }
    case 'clear': setListItems(tx, l, []); return new ConstVar({ k: 'none' });
    case 'copy': return new ListVar(items);
    case 'reverse': items.reverse(); setListItems(tx, l, items); return new ConstVar({ k: 'none' });
    case 'index': case 'count': {
      const r = toRt(tx, l), a = args.map((x) => toRt(tx, x));
      if (r && r.k === 'list' && a.every(Boolean)) return fromComputed(tx, callOnHost(tx, { k: 'list', items: r.items }, name, a as RtValue[]));
      break;
    }
    default: break;
  }
  throw new GraphBreak('SOT007', `list.${name}`);
}

function dictMethod(tx: Translator, d: DictVar, name: string, args: Variable[], _kwargs: [string, Variable][]): Variable {
  switch (name) {
    case 'keys': return new ListVar(d.keys.slice());
    case 'values': return new ListVar(d.values.slice());
    case 'items': return new ListVar(d.keys.map((k, i) => new TupleVar([k, d.values[i]])));
    case 'get': {
      for (let i = 0; i < d.keys.length; i++) if (truthy(tx, compareOp(tx, '==', d.keys[i], args[0]))) return d.values[i];
      return args.length > 1 ? args[1] : new ConstVar({ k: 'none' });
    }
    case 'update': {
      const other = args[0];
      if (other instanceof DictVar) {
        other.keys.forEach((k, i) => dictSet(tx, d, k, other.values[i]));
        return new ConstVar({ k: 'none' });
      }
      break;
    }
    default: break;
  }
  throw new GraphBreak('SOT007', `dict.${name}`);
}

export function dictSet(tx: Translator, d: DictVar, key: Variable, value: Variable): void {
  if (!isConstLike(key)) throw new GraphBreak('SOT007', 'dict key is not a constant');
  const keys = d.keys.slice(), values = d.values.slice();
  const i = keys.findIndex((k) => truthy(tx, compareOp(tx, '==', k, key)));
  if (i >= 0) values[i] = value; else { keys.push(key); values.push(value); }
  d.keys = keys;
  d.values = values;
  if (d.ref) tx.mutated.add(d);
}

/** Calling a layer: its forward, inlined (hooks run through Layer.__call__ when present). */
function callLayer(tx: Translator, layer: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  tx.layerDependent = true;
  const call = tx.host.layerCallTarget(layer.ref);
  const target = tx.objectVar(call, null);
  return callVar(tx, target, args, kwargs);
}

export { TensorVar, Tensor };
