// What Python operations mean on the translator's variables. Tensor work is recorded into the
// function graph; operations on constants are computed with Python's own semantics (by the
// host, once, at translation time) and guarded through their sources; anything that cannot be
// modelled raises a GraphBreak so the instruction runs concretely.
import { gradModeCall } from './grad_mode.js';
import { pyLayerCall } from './pylayer.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { attrSource, itemSource, type Source } from '../../../sot/sources.js';
import { BINARY_OPS, binaryOpDef, callWithTypedArgs, isTrueDiv, type TypedScalar } from '../../../sot/tensor_semantics.js';
import type { HostRef, RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, ConstVar, DictVar, DictViewVar, FunctionVar, IterVar, ListVar, NullVar, ObjectVar, RangeVar, SetVar,
  SliceVar, SuperVar, TensorVar, TRAIT_EQ_IDENTITY, TRAIT_EXCEPTION, TRAIT_PURE, TRAIT_TRUE, TupleVar, type Variable,
} from '../../../sot/variables.js';
import { getOp, hasOp } from '../../../src/ops/registry.js';
import { functionalizeInplace } from './inplace.js';
import type { TensorLike } from '../../../src/ops/dispatch.js';
import { SymTensor } from '../../../sot/function_graph.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import type { Translator } from './translator.js';
import { inlineCall } from './inline.js';
import { dunderTruth } from './call_inline.js';
import { namedTupleCall, NamedTupleVar } from './namedtuple.js';
import { toTensorCall } from './to_tensor.js';
import { InstanceVar, instanceCompare, instanceIter, instanceTruth, userClassCall } from './user_objects.js';
import { callBuiltin, callPure } from './builtins.js';
import { getAttr, getItem } from './objects.js';
import { callMethod, fromHostSet, setBinary, setHas, setListItems, setOrder, viewItems } from './methods.js';
import { hasSymInt, symIntBinary, symIntCompare, symIntTruthy, symIntUnary, SymIntVar } from './symint.js';
import { symIntApi } from './symint_ops.js';
import { drain, GeneratorVar } from './generators.js';
import { callPartial, functoolsCall, PartialVar } from './functools.js';
import { entryTensorEquals } from './value_guards.js';
import { arrayOperands, identityUnknown, numpyCallBreak, numpyScalarConst } from './numpy_values.js';

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
export function fromHostRead(tx: Translator, v: RtValue, source: Source | null, layerRegistry = false, owner: HostRef | null = null): Variable {
  if (v.k === 'tensor') return tx.constTensor(v.t);
  if ((v.k === 'list' || v.k === 'dict') && v.ref && !layerRegistry) tx.host.recordContentGuard(v.ref, owner);
  return tx.fromRt(v, source, false);
}

/** A hashable value whose equality the translator can compute: constants, tuples of them, pure objects (enum members). */
export function isConstLike(v: Variable): boolean {
  return v instanceof ConstVar || ((v instanceof TupleVar) && v.items.every(isConstLike)) || isPureObject(v);
}

/** An opaque object whose operators, ==, hash and str are pure (enum members, dtypes). */
export const isPureObject = (v: Variable): boolean =>
  v instanceof ObjectVar && v.info.kind === 'other' && (v.info.traits & TRAIT_PURE) !== 0;

/** Operands whose operator results the host may compute once at translation time. */
const pureOperand = (v: Variable): boolean => v instanceof ConstVar || isPureObject(v) || (v instanceof TupleVar && v.items.every(pureOperand));

/** A tensor operand as the graph sees it. */
export function symOf(tx: Translator, v: Variable): SymTensor {
  if (v instanceof TensorVar) return v.sym;
  throw new Error(`sot: expected a tensor, got ${v.kind}`);
}

/** Argument of a tensor op: tensors as graph values, Python scalars with their kind, containers as arrays. */
export function opArg(tx: Translator, v: Variable): TensorLike | TypedScalar | unknown {
  if (v instanceof TensorVar) return v.sym;
  if (v instanceof SymIntVar) throw new GraphBreak('SOT008', 'a symbolic int used where the op needs a concrete value');
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
  if (sym === '[]') return getItem(tx, a, b);
  const si = symIntBinary(sym, a, b);   // a symbolic int with a tensor breaks (SOT008)
  if (si) return si;
  const arr = arrayOperands(tx, sym, a, b);   // a numpy array: `tensor <op> to_tensor(arr)`, or numpy computing (SOT030)
  if (arr) return tensorBinary(tx, sym, arr[0], arr[1]);
  if (a instanceof TensorVar || b instanceof TensorVar) return tensorBinary(tx, sym, a, b);
  if (a instanceof ConstVar && b instanceof ConstVar) return fromComputed(tx, hostBinary(tx, sym, a.value, b.value));
  // sequences: + and * on tuples/lists built from known items (list += and *= work in place)
  const base = sym.endsWith('=') ? sym.slice(0, -1) : sym;
  if (a instanceof ListVar && sym === '+=') {
    setListItems(tx, a, [...a.items, ...takeAll(tx, b)]);
    return a;
  }
  if ((a instanceof TupleVar || a instanceof ListVar) && base === '+' && b.kind === a.kind) {
    const items = [...(a as TupleVar).items, ...(b as TupleVar).items];
    return a instanceof TupleVar ? new TupleVar(items) : new ListVar(items);
  }
  const seq = a instanceof TupleVar || a instanceof ListVar ? a : b instanceof TupleVar || b instanceof ListVar ? b : null;
  const times = seq === a ? b : a;
  if (seq && base === '*' && times instanceof ConstVar && (times.value.k === 'int' || times.value.k === 'bool')) {
    const n = Math.max(0, Number(times.value.v));
    const items: Variable[] = [];
    for (let i = 0; i < n; i++) items.push(...seq.items);
    if (seq instanceof ListVar && seq === a && sym === '*=') { setListItems(tx, seq, items); return seq; }
    return seq instanceof TupleVar ? new TupleVar(items) : new ListVar(items);
  }
  if (a instanceof SetVar || b instanceof SetVar) return setBinary(tx, 'BINARY_OP', tx.host.binaryOpArg(sym), a, b);
  if (pureOperand(a) && pureOperand(b)) return fromComputed(tx, hostBinary(tx, sym, toRt(tx, a)!, toRt(tx, b)!));
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
  a = numpyScalarConst(tx, a) ?? a;
  b = numpyScalarConst(tx, b) ?? b;
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
  if (v instanceof SymIntVar) return symIntUnary(op, v);
  if (v instanceof TensorVar) {
    if (op === 'neg') return tensorResults(recordOp(tx, hasOp('neg') ? 'neg' : 'scale', hasOp('neg') ? [v.sym] : [v.sym], hasOp('neg') ? {} : { scale: -1 }));
    if (op === 'pos') return v;
    if (op === 'invert') return tensorResults(recordOp(tx, hasOp('bitwise_not') ? 'bitwise_not' : 'logical_not', [v.sym]));
    throw new GraphBreak('SOT001', '`not` on a tensor needs its value');
  }
  if (op === 'not') return new ConstVar({ k: 'bool', v: !truthy(tx, v) });
  const r = toRt(tx, v);
  if (r && (v instanceof ConstVar || isPureObject(v))) {
    const opname = op === 'neg' ? 'UNARY_NEGATIVE' : op === 'invert' ? 'UNARY_INVERT' : null;
    if (opname) return fromComputed(tx, tx.host.concrete({ opname, arg: 0 }, [r])[1]);
    if (op === 'pos') return v;
  }
  throw new GraphBreak('SOT007', `unary ${op} on ${v.kind}`);
}

export function compareOp(tx: Translator, sym: string, a: Variable, b: Variable): Variable {
  const si = symIntCompare(sym, a, b);
  if (si) return si;
  arrayOperands(tx, sym, a, b);   // numpy compares arrays itself: SOT030
  if (a instanceof TensorVar || b instanceof TensorVar) return tensorBinary(tx, sym, a, b);
  if (a instanceof ConstVar && b instanceof ConstVar) return fromComputed(tx, hostCompare(tx, sym, a.value, b.value));
  if (a instanceof SetVar || b instanceof SetVar) return setBinary(tx, 'COMPARE_OP', tx.host.compareOpArg(sym), a, b);
  if ((sym === '==' || sym === '!=') && (a instanceof InstanceVar || b instanceof InstanceVar)) return instanceCompare(tx, sym, a, b);
  if ((sym === '==' || sym === '!=') && identityEq(a, b)) {
    const same = a instanceof ObjectVar && b instanceof ObjectVar && a.ref.id === b.ref.id;
    return new ConstVar({ k: 'bool', v: sym === '==' ? same : !same });
  }
  // Only values whose comparison is a pure function of them: objects with their own __eq__
  // (which may have side effects or depend on mutable state) compare concretely.
  if (!(classVsPure(a, b) || classVsPure(b, a)) && (!comparable(a) || !comparable(b))) throw new GraphBreak('SOT007', `comparison ${sym} of ${a.kind} and ${b.kind}`);
  const ra = toRt(tx, a), rb = toRt(tx, b);
  if (ra && rb) return fromComputed(tx, hostCompare(tx, sym, ra, rb));
  throw new GraphBreak('SOT007', `comparison ${sym} of ${a.kind} and ${b.kind}`);
}

/** Both sides compare by identity: objects whose == is object identity (or functions, classes, modules). */
function identityEq(a: Variable, b: Variable): boolean {
  const byId = (v: Variable) => v instanceof ObjectVar && (v.info.kind === 'other'
    ? (v.info.traits & TRAIT_EQ_IDENTITY) !== 0
    : ['function', 'builtin', 'module', 'method', 'api', 'layer'].includes(v.info.kind));
  return (byId(a) && (byId(b) || b instanceof ConstVar)) || (byId(b) && a instanceof ConstVar);
}

/**
 * A class against a pure object (`arr.dtype == np.float32`): the pure side's __eq__ answers, and
 * a class's own == is identity, so the host may compute it.
 */
const classVsPure = (a: Variable, b: Variable): boolean => a instanceof ObjectVar && a.info.kind === 'class' && isPureObject(b);

function comparable(v: Variable): boolean {
  if (v instanceof ConstVar || isPureObject(v)) return true;
  if (v instanceof TupleVar || v instanceof ListVar) return v.items.every(comparable);
  if (v instanceof DictVar) return v.keys.every(comparable) && v.values.every(comparable);
  return false;
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
  // an object made in translated code is no other value
  if (a instanceof InstanceVar || b instanceof InstanceVar) return a instanceof NullVar || b instanceof NullVar ? null : false;
  if (a instanceof ConstVar && b instanceof ConstVar) {
    if (a.value.k === 'none' || b.value.k === 'none') return a.value.k === b.value.k;
    if (a.value.k === 'bool' && b.value.k === 'bool') return a.value.v === b.value.v;
    return null;
  }
  if (a instanceof ObjectVar && b instanceof ObjectVar) return identityUnknown(a, b) ? null : a.ref.id === b.ref.id;
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
      const known = entryTensorEquals(tx, x, needle);
      if (known !== null) { if (known) return true; continue; }
      const eq = compareOp(tx, '==', x, needle);
      if (eq instanceof TensorVar) throw new GraphBreak('SOT001', '`in` over tensors needs tensor values');
      if (truthy(tx, eq)) return true;
    }
    return false;
  }
  if (hay instanceof DictVar) return hay.keys.some((k) => truthy(tx, compareOp(tx, '==', k, needle)));
  if (hay instanceof SetVar) return setHas(tx, hay, needle);
  if (hay instanceof DictViewVar) return containsOp(tx, needle, new TupleVar(viewItems(hay)));
  if (hay instanceof RangeVar && needle instanceof ConstVar && (needle.value.k === 'int' || needle.value.k === 'bool')) {
    const n = Number(needle.value.v);
    const i = (n - hay.start) / hay.step;
    return Number.isInteger(i) && i >= 0 && i < hay.length;
  }
  if ((hay instanceof ConstVar || isPureObject(hay)) && pureOperand(needle)) {
    return truthy(tx, fromComputed(tx, tx.host.concrete({ opname: 'CONTAINS_OP', arg: 0 }, [toRt(tx, needle)!, toRt(tx, hay)!])[1]));
  }
  throw new GraphBreak('SOT007', `\`in\` on ${hay.kind}`);
}

/** Python truthiness; a tensor's value cannot be known while tracing. */
export function truthy(tx: Translator, v: Variable): boolean {
  if (v instanceof SymIntVar) return symIntTruthy(v);
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
  if (v instanceof TupleVar || v instanceof ListVar || v instanceof SetVar) return v.items.length > 0;
  if (v instanceof DictVar) return v.keys.length > 0;
  if (v instanceof DictViewVar) return v.dict.keys.length > 0;
  if (v instanceof RangeVar) return v.length > 0;
  if (v instanceof NamedTupleVar) return v.items.length > 0;
  if (v instanceof InstanceVar) return instanceTruth(tx, v);
  if (v instanceof TensorVar) throw new GraphBreak('SOT001', 'bool() of a tensor');
  if (v instanceof FunctionVar || v instanceof BoundMethodVar || v instanceof SliceVar || v instanceof SuperVar || v instanceof IterVar || v instanceof GeneratorVar) return true;
  if (v instanceof ObjectVar) {
    if (['function', 'api', 'builtin', 'module', 'class', 'method'].includes(v.info.kind)) return true;
    if (v.info.kind === 'other' && v.info.traits & TRAIT_TRUE) return true;
    if (isPureObject(v)) {
      const r = tx.host.concrete({ opname: 'TO_BOOL', arg: 0 }, [{ k: 'obj', ref: (v as ObjectVar).ref }])[1];
      return r.k === 'bool' && r.v;
    }
    if (v.info.kind === 'layer') {
      tx.layerDependent = true;
      const r = tx.host.concrete({ opname: 'TO_BOOL', arg: 0 }, [{ k: 'obj', ref: v.ref }])[1];
      return r.k === 'bool' && r.v;
    }
  }
  if (v instanceof ObjectVar && v.info.kind === 'other' && !(v.info.traits & TRAIT_EXCEPTION)) {
    // a Python __bool__ / __len__, inlined (call_inline.ts)
    const r = dunderTruth(tx, v);
    if (r !== null) return r;
  }
  throw new GraphBreak('SOT007', `bool() of ${v.kind === 'object' ? (v as ObjectVar).ref.typeName : v.kind}`);
}

// ---- iteration ----------------------------------------------------------------------------------

/**
 * Every item an iterable still yields (list(x), x.extend(it), unpacking, sum(it)...). An iterator
 * passed in is consumed, as in CPython: `it = iter(l); list(it); list(it)` gives [] the second time.
 */
export function takeAll(tx: Translator, v: Variable): Variable[] {
  const it = getIter(tx, v) as IterVar;
  const rest = it.items.slice(it.pos);
  it.pos = it.items.length;
  return rest;
}

export function getIter(tx: Translator, v: Variable): Variable {
  if (v instanceof IterVar) return v;
  // callers here take every item now (list(gen), sum(gen), unpacking); GET_ITER, iter(), any/all keep it lazy
  if (v instanceof GeneratorVar) return new IterVar(drain(tx, v));
  if (v instanceof NamedTupleVar) return new IterVar(v.items.slice());
  if (v instanceof InstanceVar) return instanceIter(tx, v);
  if (v instanceof TupleVar || v instanceof ListVar) return new IterVar(v.items.slice());
  if (v instanceof RangeVar) {
    const items: Variable[] = [];
    for (let i = 0; i < v.length; i++) items.push(new ConstVar({ k: 'int', v: v.at(i) }));
    return new IterVar(items);
  }
  if (v instanceof DictVar) return new IterVar(v.keys.slice());
  if (v instanceof DictViewVar) return new IterVar(viewItems(v));
  if (v instanceof SetVar) return new IterVar(setOrder(tx, v));
  if (v instanceof ConstVar && v.value.k === 'str') return new IterVar([...v.value.v].map((c) => new ConstVar({ k: 'str', v: c })));
  if (isPureObject(v)) {
    // frozensets (constants of `x in {...}` / `for x in {...}`), ranges, bytes: iterated on the host
    const r = tx.host.concrete({ opname: 'GET_ITER', arg: 0 }, [{ k: 'obj', ref: (v as ObjectVar).ref }])[1];
    if (r.k === 'tuple') return new IterVar(r.items.map((x) => fromComputed(tx, x)));
  }
  if (v instanceof ObjectVar && v.info.kind === 'layer') {
    tx.layerDependent = true;
    const r = tx.host.concrete({ opname: 'GET_ITER', arg: 0 }, [{ k: 'obj', ref: v.ref }])[1];
    if (r.k === 'tuple') return new IterVar(r.items.map((x) => (x.k === 'tensor' ? tx.constTensor(x.t) : tx.fromRt(x, null, false))));
  }
  if (v instanceof TensorVar) throw new GraphBreak('SOT009', 'iteration over a tensor');
  throw new GraphBreak('SOT009', `iteration over ${v instanceof ObjectVar ? v.ref.typeName : v.kind}`);
}

// ---- calls -------------------------------------------------------------------------------------

export { fromHostSet };

export function callVar(tx: Translator, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const gm = gradModeCall(tx, fn, args, kwargs) ?? pyLayerCall(tx, fn, args, kwargs);
  if (gm) return gm;
  numpyCallBreak(tx, fn, args, kwargs);
  if (fn instanceof BoundMethodVar) return callMethod(tx, fn, args, kwargs);
  if (fn instanceof FunctionVar) return inlineCall(tx, fn, null, args, kwargs);
  if (fn instanceof PartialVar) return callPartial(tx, fn, args, kwargs);
  if (fn instanceof InstanceVar) return callVar(tx, getAttr(tx, fn, '__call__'), args, kwargs);
  if (fn instanceof ObjectVar) {
    const info = fn.info;
    switch (info.kind) {
      case 'api':
        if (!info.inplace) return callApi(tx, info.api, args, kwargs);
        return functionalizeInplace(tx, info.api, args, kwargs);
      case 'function': return toTensorCall(tx, fn, args, kwargs) ?? inlineCall(tx, fn, null, args, kwargs);
      case 'method': {
        const selfVar = tx.objectVar(info.self, null);
        const funcVar = tx.objectVar(info.func, null);
        return callVar(tx, funcVar, [selfVar, ...args], kwargs);
      }
      case 'builtin': return callBuiltin(tx, info.name, fn, args, kwargs);
      case 'class': {
        if (info.pureCall) return callPure(tx, fn, args, kwargs);
        const nt = namedTupleCall(tx, fn, args, kwargs) ?? userClassCall(tx, fn, args, kwargs);
        if (nt) return nt;
        break;
      }
      case 'layer': return callLayer(tx, fn, args, kwargs);
      case 'other': {
        // An instance of a class with a Python __call__: the call is its bound __call__ (inlined).
        if (info.traits & TRAIT_EXCEPTION) break;
        const call = callableMethod(tx, fn);
        if (call) return callVar(tx, call, args, kwargs);
        break;
      }
      default: break;
    }
    const ft = functoolsCall(tx, fn, args, kwargs);
    if (ft !== null) return ft;
    throw new GraphBreak('SOT005', `call of ${fn.ref.typeName}`);
  }
  throw new GraphBreak('SOT005', `call of ${fn.kind}`);
}

/** obj.__call__ when it is a Python method bound to obj itself (so it is what obj(...) runs), else null. */
function callableMethod(tx: Translator, obj: ObjectVar): Variable | null {
  let m: Variable | undefined;
  try {
    m = getAttr(tx, obj, '__call__');
  } catch (e) {
    if (e instanceof GraphBreak) return null;
    throw e;
  }
  if (m instanceof ObjectVar && m.info.kind === 'method' && m.info.self.id === obj.ref.id) return m;
  return null;
}

/** paddle.* and Tensor methods from the registry: recorded as one op. */
export function callApi(tx: Translator, opName: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  // shape arguments holding symbolic ints are rewritten (symint_ops.ts)
  if (args.some(hasSymInt) || kwargs.some(([, v]) => hasSymInt(v))) return symIntApi(tx, opName, args, kwargs);
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
  if (def.numOutputs && def.api?.unwrapSingle && outs.length === 1) return new TensorVar(outs[0] as SymTensor);
  if (def.numOutputs && def.api?.unwrapSingle) return new TupleVar(outs.map((o) => new TensorVar(o as SymTensor)));
  if (def.numOutputs) return new ListVar(outs.map((o) => new TensorVar(o as SymTensor)));
  return tensorResults(outs);
}

/** Calling a layer: its forward, inlined (hooks run through Layer.__call__ when present). */
function callLayer(tx: Translator, layer: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  tx.layerDependent = true;
  const call = tx.host.layerCallTarget(layer.ref);
  const target = tx.objectVar(call, null);
  return callVar(tx, target, args, kwargs);
}

export { TensorVar, Tensor };
