// Python builtins the translator models. Each returns a variable, or raises a GraphBreak so the
// call runs concretely (print, input, open, ...), or records tensor ops (abs/min/max on tensors).
import { captureEnabled } from './capture_cf.js';
import { captureForRange } from './capture_loop.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { typeGuard } from '../../../sot/guards.js';
import type { RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, ConstVar, DictVar, DictViewVar, FunctionVar, IterVar, ListVar, ObjectVar, RangeVar, SetVar, SliceVar,
  SuperVar, TensorVar, TupleVar, type Variable,
} from '../../../sot/variables.js';
import { drainedNext, filterCall, mapPython } from './call_inline.js';
import { generatorAnyAll, generatorNext, GeneratorVar } from './generators.js';
import { functoolsReduce } from './functools.js';
import type { Translator } from './translator.js';
import { binaryOp, callVar, compareOp, containsOp, fromComputed, getIter, isConstLike, takeAll, isPureObject, recordOp, tensorResults, toRt, truthy, unaryOp } from './semantics.js';
import { getAttr, getItem, setAttr, zeroArgSuper } from './objects.js';
import { dictSet, setAdd, viewItems } from './methods.js';
import { symIntBuiltin } from './symint.js';
import { callDunder, InstanceVar } from './user_objects.js';
import { EntryInstanceVar } from './fresh_objects.js';
import { keepForTree } from './to_tensor.js';

type Builtin = (tx: Translator, args: Variable[], kwargs: [string, Variable][]) => Variable | undefined;

const int = (v: Variable, what: string): number => {
  if (v instanceof ConstVar && (v.value.k === 'int' || v.value.k === 'bool')) return Number(v.value.v);
  throw new GraphBreak(v instanceof TensorVar ? 'SOT002' : 'SOT007', `${what} needs an int, got ${v.kind}`);
};

const items = takeAll;

const noKw = (name: string, kwargs: [string, Variable][]) => { if (kwargs.length) throw new GraphBreak('SOT007', `${name}() with keyword arguments`); };

/** Arguments a pure builtin may see at translation time: constants and pure objects, in containers. */
const pureArg = (v: Variable): boolean =>
  v instanceof ConstVar || isPureObject(v) || ((v instanceof TupleVar || v instanceof ListVar) && v.items.every(pureArg))
  || (v instanceof DictVar && v.keys.every(pureArg) && v.values.every(pureArg));

/** Calls a pure callable (an Enum class, ...) on the host at translation time when its arguments allow. */
export function callPure(tx: Translator, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length) throw new GraphBreak('SOT005', 'pure call with keywords');
  return hostCall(tx, fn, args);
}

/** Calls a builtin on the host with concrete arguments (pure builtins only, or `guarded`: the caller guarded what the result depends on). */
function hostCall(tx: Translator, fn: Variable, args: Variable[], guarded = false): Variable {
  if (!guarded && !args.every(pureArg)) throw new GraphBreak('SOT007', 'builtin call on values it could observe differently at run time');
  const rt = args.map((a) => toRt(tx, a));
  if (!rt.every(Boolean)) throw new GraphBreak('SOT007', 'builtin call on symbolic values');
  const f = toRt(tx, fn)!;
  const nul: RtValue = { k: 'obj', ref: tx.host.nullRef };
  const r = tx.host.concrete({ opname: 'CALL', arg: args.length }, tx.v.callableFirst ? [f, nul, ...(rt as RtValue[])] : [nul, f, ...(rt as RtValue[])])[1];
  if (r.k !== 'tensor') return fromComputed(tx, r);
  // A tensor made by the call (a dunder such as __abs__ / __floor__ of a pure object): the tree
  // owns it (to_tensor.ts), and, as eager makes one per call, a copy per run stands for it
  // wherever it leaves the graph (segment.ts) and an inplace write to it runs concretely.
  if (!keepForTree(tx, r)) throw new GraphBreak('SOT007', 'a builtin call made a tensor that cannot be kept');
  return tx.madeConstTensor(r.t);
}

const BUILTINS: Record<string, Builtin> = {
  // paddle.jit.sot.psdb helpers and forced breaks (compat/paddle/jit/sot/queries.py _special_call)
  'skiff.in_sot'() { return new ConstVar({ k: 'bool', v: true }); },
  'skiff.breakgraph'() { throw new GraphBreak('SOT020', 'psdb.breakgraph()'); },
  'skiff.break_call'() { throw new GraphBreak('SOT020', 'a call registered to break the graph'); },
  'skiff.fallback'(tx, args, kwargs) {
    // After a break the call cannot be redone as plain Python from the start: the rest of the
    // function goes on from a concrete step instead (results are eager's either way).
    if (tx.nodeHostGuards) throw new GraphBreak('SOT020', 'psdb.fallback() after a graph break');
    // fallback(recursive=False), the default: only this function runs as plain Python, its
    // callees are translated on their own (compat runtime.py _calls_translated). A value the
    // translator cannot read counts as recursive (everything plain Python, always eager's result).
    const r = args[0] ?? kwargs.find(([k]) => k === 'recursive')?.[1];
    const recursive = r === undefined ? false : !(r instanceof ConstVar) || truthy(tx, r);
    if (recursive) throw new GraphBreak('SOT120', 'psdb.fallback(recursive=True)');
    throw new GraphBreak('SOT121', 'psdb.fallback(recursive=False)');
  },
  len(tx, [x]) {
    if (x instanceof TupleVar || x instanceof ListVar) return new ConstVar({ k: 'int', v: x.items.length });
    if (x instanceof DictVar) return new ConstVar({ k: 'int', v: x.keys.length });
    if (x instanceof RangeVar) return new ConstVar({ k: 'int', v: x.length });
    if (x instanceof ConstVar && x.value.k === 'str') return new ConstVar({ k: 'int', v: [...x.value.v].length });
    if (x instanceof SetVar) return new ConstVar({ k: 'int', v: x.items.length });
    if (x instanceof DictViewVar) return new ConstVar({ k: 'int', v: x.dict.keys.length });
    if (isPureObject(x)) return hostCallFn(tx, 'len', [x]);
    if (x instanceof TensorVar) {
      const d = x.sym.shape[0];
      if (x.sym.shape.length === 0) throw new GraphBreak('SOT007', 'len() of a 0-D tensor');
      if (typeof d !== 'number') throw new GraphBreak('SOT008', 'len() of a tensor with a symbolic first dim');
      return new ConstVar({ k: 'int', v: d });
    }
    if (x instanceof ObjectVar && x.info.kind === 'layer') return hostCallFn(tx, 'len', [x]);
    if (x instanceof InstanceVar) { const n = callDunder(tx, x, '__len__', []); if (n) return n; }
    throw new GraphBreak('SOT007', `len() of ${x.kind}`);
  },
  range(tx, args) {
    // `for i in range(n_tensor)` in capturing code: a while node (capture_loop.ts); nothing is pushed.
    if (args.length === 1 && args[0] instanceof TensorVar && captureEnabled(tx) && captureForRange(tx, args[0])) return undefined;
    const n = args.map((a) => int(a, 'range()'));
    const [start, stop, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? 1];
    if (step === 0) throw new GraphBreak('SOT007', 'range() arg 3 must not be zero');
    return new RangeVar(start, stop, step);
  },
  enumerate(tx, [x, start], kwargs) {
    const kw = kwargs.find(([k]) => k === 'start');
    if (kwargs.length > (kw ? 1 : 0)) throw new GraphBreak('SOT007', 'enumerate() with unknown keywords');
    const first = start ?? kw?.[1];
    const s = first ? int(first, 'enumerate()') : 0;
    lazyOver(tx, 'enumerate', [x]);
    return new IterVar(items(tx, x).map((v, i) => new TupleVar([new ConstVar({ k: 'int', v: s + i }), v])));
  },
  zip(tx, args, kwargs) {
    const strict = kwargs.find(([k]) => k === 'strict');
    // zip draws from each iterable in turn and stops at the first exhausted one: a generator
    // would run further than eager's when drained ahead (its later elements may never be drawn)
    if (args.some((a) => a instanceof GeneratorVar)) throw new GraphBreak('SOT007', 'zip() over a generator');
    const lists = args.map((a) => items(tx, a));
    const n = Math.min(...lists.map((l) => l.length));
    if (strict && truthy(tx, strict[1]) && lists.some((l) => l.length !== n)) throw new GraphBreak('SOT007', 'zip(strict=True) length mismatch');
    const out: Variable[] = [];
    for (let i = 0; i < (lists.length ? n : 0); i++) out.push(new TupleVar(lists.map((l) => l[i])));
    return new IterVar(out);
  },
  reversed(tx, [x]) {
    if (!(x instanceof TupleVar || x instanceof ListVar || x instanceof RangeVar || x instanceof DictVar || x instanceof DictViewVar)) {
      throw new GraphBreak('SOT007', `reversed() of ${x.kind}`);
    }
    return new IterVar(x instanceof DictViewVar ? viewItems(x).reverse() : items(tx, x).reverse());
  },
  list(tx, [x]) { return new ListVar(x ? items(tx, x) : []); },
  tuple(tx, [x]) { return new TupleVar(x ? items(tx, x) : []); },
  set(tx, [x]) {
    const s = new SetVar([]);
    if (x) for (const v of items(tx, x)) setAdd(tx, s, v);
    return s;
  },
  dict(tx, args, kwargs) {
    const d = new DictVar([], []);
    if (args[0] instanceof DictVar) { d.keys = args[0].keys.slice(); d.values = args[0].values.slice(); }
    else if (args[0]) for (const kv of items(tx, args[0])) { const [k, v] = items(tx, kv); d.keys.push(k); d.values.push(v); }
    for (const [k, v] of kwargs) { d.keys.push(new ConstVar({ k: 'str', v: k })); d.values.push(v); }
    return d;
  },
  'dict.fromkeys'(tx, [keys, value], kwargs) {
    noKw('dict.fromkeys', kwargs);
    if (!keys) throw new GraphBreak('SOT007', 'dict.fromkeys() without keys');
    const d = new DictVar([], []);
    for (const k of items(tx, keys)) dictSet(tx, d, k, value ?? new ConstVar({ k: 'none' }));
    return d;
  },
  isinstance(tx, [x, cls]) {
    const typeName = (v: Variable): string | null => {
      if (v instanceof ConstVar) return { int: 'int', float: 'float', bool: 'bool', none: 'NoneType', str: 'str' }[v.value.k];
      if (v instanceof TupleVar) return 'tuple';
      if (v instanceof ListVar) return 'list';
      if (v instanceof DictVar) return 'dict';
      if (v instanceof RangeVar) return 'range';
      if (v instanceof SliceVar) return 'slice';
      if (v instanceof SetVar) return 'set';
      if (v instanceof SuperVar) return 'super';
      if (v instanceof DictViewVar) return `dict_${v.view}`;
      return null;
    };
    const check = (c: Variable): boolean => {
      if (c instanceof TupleVar) return c.items.some(check);
      // an object made in translated code: its class (guarded where it came from) decides
      // (so does a plain entry object's: it is guarded by its type, fresh_objects.ts)
      if (x instanceof InstanceVar || x instanceof EntryInstanceVar) return truthy(tx, hostCall(tx, tx.host.builtinVar(tx, 'issubclass'), [x.cls, c], true));
      if (x instanceof TensorVar || x instanceof ObjectVar) {
        const xr = x instanceof TensorVar ? tx.host.tensorTypeRef() : x.ref;
        const r = tx.host.isinstance(xr, toRt(tx, c)!, x instanceof TensorVar);
        return r;
      }
      const tn = typeName(x);
      if (tn && c instanceof ObjectVar && c.info.kind === 'builtin') {
        if (c.info.name === 'int') return tn === 'int' || tn === 'bool';
        if (c.info.name === 'object') return true;
        return c.info.name === tn;
      }
      if (tn && c instanceof ObjectVar) return tx.host.isinstanceOfValue(toRt(tx, x)!, toRt(tx, c)!);
      throw new GraphBreak('SOT007', `isinstance() on ${x.kind}`);
    };
    return new ConstVar({ k: 'bool', v: check(cls) });
  },
  getattr(tx, [obj, name, dflt]) {
    if (!(name instanceof ConstVar) || name.value.k !== 'str') throw new GraphBreak('SOT007', 'getattr() with a non-constant name');
    try {
      return getAttr(tx, obj, name.value.v);
    } catch (e) {
      if (dflt && e instanceof GraphBreak && e.detail.startsWith('AttributeError')) return dflt;
      throw e;
    }
  },
  hasattr(tx, [obj, name]) {
    if (!(name instanceof ConstVar) || name.value.k !== 'str') throw new GraphBreak('SOT007', 'hasattr() with a non-constant name');
    try {
      getAttr(tx, obj, name.value.v);
      return new ConstVar({ k: 'bool', v: true });
    } catch (e) {
      if (e instanceof GraphBreak && e.detail.startsWith('AttributeError')) return new ConstVar({ k: 'bool', v: false });
      throw e;
    }
  },
  setattr(tx, [obj, name, value]) {
    if (!(name instanceof ConstVar) || name.value.k !== 'str') throw new GraphBreak('SOT007', 'setattr() with a non-constant name');
    setAttr(tx, obj, name.value.v, value);
    return new ConstVar({ k: 'none' });
  },
  abs(tx, [x]) {
    if (x instanceof TensorVar) return tensorResults(recordOp(tx, 'abs', [x.sym]));
    return hostCallFn(tx, 'abs', [x]);
  },
  min(tx, args, kwargs) { return minMax(tx, '<', args, kwargs); },
  max(tx, args, kwargs) { return minMax(tx, '>', args, kwargs); },
  sum(tx, [xs, start]) {
    let acc: Variable = start ?? new ConstVar({ k: 'int', v: 0 });
    for (const x of items(tx, xs)) {
      const r = binaryOp(tx, '+', acc, x);
      if (!r) throw new GraphBreak('SOT007', 'sum() of values needing an inlined call');
      acc = r;
    }
    return acc;
  },
  // any/all stop at the first deciding element: a generator runs no further than in eager
  any(tx, [xs]) { return new ConstVar({ k: 'bool', v: xs instanceof GeneratorVar ? generatorAnyAll(tx, xs, true) : items(tx, xs).some((x) => truthy(tx, x)) }); },
  all(tx, [xs]) { return new ConstVar({ k: 'bool', v: xs instanceof GeneratorVar ? generatorAnyAll(tx, xs, false) : items(tx, xs).every((x) => truthy(tx, x)) }); },
  bool(tx, [x]) { return new ConstVar({ k: 'bool', v: x ? truthy(tx, x) : false }); },
  int(tx, args) { return scalarConvert(tx, 'int', args); },
  float(tx, args) { return scalarConvert(tx, 'float', args); },
  str(tx, args) { return scalarConvert(tx, 'str', args); },
  slice(tx, args) {
    const none = new ConstVar({ k: 'none' });
    if (args.length === 1) return new SliceVar(none, args[0], none);
    return new SliceVar(args[0], args[1], args[2] ?? none);
  },
  map(tx, [f, ...its]) {
    // Results are produced lazily by the caller's loop in Python: builtins and API ops are pure
    // and applied now; Python functions only when that is unobservable (call_inline.ts).
    if (!(f instanceof ObjectVar) || (f.info.kind !== 'builtin' && f.info.kind !== 'api')) return mapPython(tx, f, its);
    if (its.length !== 1) throw new GraphBreak('SOT007', 'map() over several iterables');
    lazyOver(tx, 'map', its);
    return new IterVar(items(tx, its[0]).map((x) => callVar(tx, f, [x], []) as Variable));
  },
  sorted(tx, [xs], kwargs) {
    noKw('sorted', kwargs);
    const vals = items(tx, xs);
    if (!vals.every(isConstLike)) throw new GraphBreak('SOT007', 'sorted() of non-constants');
    const r = toRt(tx, new ListVar(vals))!;
    const sortedVals = tx.host.sortedValues(r);
    return fromComputed(tx, sortedVals);
  },
  print() { throw new GraphBreak('SOT004', 'print()'); },
  super(tx, args, kwargs) {
    if (kwargs.length || args.length === 1 || args.length > 2) throw new GraphBreak('SOT007', 'super() with unusual arguments');
    return args.length === 2 ? new SuperVar(args[0], args[1]) : zeroArgSuper(tx);
  },
  type(tx, [x]) {
    if (x instanceof InstanceVar || x instanceof EntryInstanceVar) return x.cls;
    if (x instanceof ConstVar || x instanceof TupleVar || x instanceof ListVar || x instanceof DictVar) {
      const r = toRt(tx, x);
      if (r) return hostCallFn(tx, 'type', [x]);
    }
    if (x instanceof ObjectVar) {
      if (isPureObject(x)) return hostCallFn(tx, 'type', [x]);
      // Any other object: its class is read now and guarded (a sourced object is identity-guarded
      // already; the type guard also catches a __class__ reassigned between calls).
      if (x.source) tx.guards.add(typeGuard(x.source, x.ref.typeId!, x.ref.typeName));
      return hostCall(tx, tx.host.builtinVar(tx, 'type'), [x], true);
    }
    throw new GraphBreak('SOT007', `type() of ${x.kind}`);
  },
  id() { throw new GraphBreak('SOT005', 'id()'); },
  iter(tx, [x]) { return x instanceof GeneratorVar ? x : getIter(tx, x); },
  filter(tx, [f, xs], kwargs) {
    noKw('filter', kwargs);
    if (!f || !xs) throw new GraphBreak('SOT007', 'filter expected 2 arguments');
    return filterCall(tx, f, xs);
  },
  'functools.reduce'(tx, args, kwargs) { return functoolsReduce(tx, args, kwargs); },
  next(tx, [it, dflt]) {
    if (it instanceof GeneratorVar) return generatorNext(tx, it, dflt);
    if (it instanceof IterVar) {
      if (it.pos < it.items.length) return it.items[it.pos++];
      if (dflt) return dflt;
      throw new GraphBreak('SOT007', 'StopIteration');
    }
    throw new GraphBreak('SOT007', `next() on ${it.kind}`);
  },
  round(tx, args) { return hostCallFn(tx, 'round', args); },
  divmod(tx, args) { return hostCallFn(tx, 'divmod', args); },
  pow(tx, args) { if (args.length === 2) return binaryOp(tx, '**', args[0], args[1]); return hostCallFn(tx, 'pow', args); },
  chr(tx, args) { return hostCallFn(tx, 'chr', args); },
  ord(tx, args) { return hostCallFn(tx, 'ord', args); },
  callable(tx, [x]) {
    return new ConstVar({ k: 'bool', v: x instanceof FunctionVar || x instanceof BoundMethodVar || (x instanceof ObjectVar && ['function', 'api', 'builtin', 'class', 'method', 'layer'].includes(x.info.kind)) });
  },
};

/** A lazy builtin (enumerate, map) over a generator: its elements are taken now only when the result is drained next. */
function lazyOver(tx: Translator, name: string, its: Variable[]): void {
  if (its.some((x) => x instanceof GeneratorVar) && !drainedNext(tx)) throw new GraphBreak('SOT007', `${name}() over a generator that is not drained at once`);
}

function hostCallFn(tx: Translator, name: string, args: Variable[]): Variable {
  return hostCall(tx, tx.host.builtinVar(tx, name), args);
}

function minMax(tx: Translator, cmp: '<' | '>', args: Variable[], kwargs: [string, Variable][]): Variable {
  noKw(cmp === '<' ? 'min' : 'max', kwargs);
  const vals = args.length === 1 ? items(tx, args[0]) : args;
  if (!vals.length) throw new GraphBreak('SOT007', 'min()/max() of an empty sequence');
  if (vals.some((v) => v instanceof TensorVar)) {
    if (vals.length === 1) return tensorResults(recordOp(tx, cmp === '<' ? 'min' : 'max', [(vals[0] as TensorVar).sym]));
    throw new GraphBreak('SOT001', 'min()/max() comparing tensors needs their values');
  }
  let best = vals[0];
  for (const v of vals.slice(1)) if (truthy(tx, compareOp(tx, cmp, v, best))) best = v;
  return best;
}

function scalarConvert(tx: Translator, kind: 'int' | 'float' | 'str', args: Variable[]): Variable {
  const [x] = args;
  if (!x) return new ConstVar(kind === 'str' ? { k: 'str', v: '' } : kind === 'int' ? { k: 'int', v: 0 } : { k: 'float', v: 0 });
  if (x instanceof TensorVar) throw new GraphBreak('SOT002', `${kind}() of a tensor`);
  return hostCallFn(tx, kind, args);
}

/** operator.* functions: the operator they stand for, with the same semantics as the opcode. */
type OperatorFn = { readonly arity: number; readonly run: (tx: Translator, a: Variable[]) => Variable | undefined };
const OPERATOR_FUNCTIONS: Record<string, OperatorFn> = {};
for (const [name, sym] of Object.entries({
  add: '+', sub: '-', mul: '*', truediv: '/', floordiv: '//', mod: '%', pow: '**', matmul: '@', and_: '&', or_: '|', xor: '^',
  lshift: '<<', rshift: '>>', concat: '+', iadd: '+=', isub: '-=', imul: '*=', itruediv: '/=', ifloordiv: '//=', imod: '%=', iconcat: '+=',
})) OPERATOR_FUNCTIONS[name] = { arity: 2, run: (tx, [a, b]) => binaryOp(tx, sym, a, b) };
for (const [name, sym] of Object.entries({ lt: '<', le: '<=', eq: '==', ne: '!=', gt: '>', ge: '>=' })) {
  OPERATOR_FUNCTIONS[name] = { arity: 2, run: (tx, [a, b]) => compareOp(tx, sym, a, b) };
}
for (const [name, op] of Object.entries({ neg: 'neg', pos: 'pos', invert: 'invert', inv: 'invert', not_: 'not' } as const)) {
  OPERATOR_FUNCTIONS[name] = { arity: 1, run: (tx, [a]) => unaryOp(tx, op, a) };
}
OPERATOR_FUNCTIONS.truth = { arity: 1, run: (tx, [a]) => new ConstVar({ k: 'bool', v: truthy(tx, a) }) };
OPERATOR_FUNCTIONS.getitem = { arity: 2, run: (tx, [a, b]) => getItem(tx, a, b) };
OPERATOR_FUNCTIONS.contains = { arity: 2, run: (tx, [a, b]) => new ConstVar({ k: 'bool', v: containsOp(tx, b, a) }) };

export function callBuiltin(tx: Translator, name: string, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const b = BUILTINS[name];
  // symbolic ints (symint.ts): len() of a symbolic dim, int(n), isinstance(n, int), ...
  const si = kwargs.length ? null : symIntBuiltin(name, args, (a) => (b ? b(tx, a, kwargs) : undefined));
  if (si !== null) return si;
  if (b) return b(tx, args, kwargs);
  if (name.startsWith('operator.')) {
    const op = OPERATOR_FUNCTIONS[name.slice(9)];
    if (op && !kwargs.length && args.length === op.arity) return op.run(tx, args);
    if (!kwargs.length && args.every(isConstLike)) return hostCall(tx, fn, args);
    throw new GraphBreak('SOT005', `${name}()`);
  }
  // math functions are pure on numbers; tensors and other objects run concretely
  if (name.startsWith('math.') && !kwargs.length) return hostCall(tx, fn, args);
  if (!kwargs.length && args.every((a) => isConstLike(a))) {
    // Other pure builtins on constants (e.g. hex, bin): computed once on the host.
    if (['hex', 'oct', 'bin', 'repr', 'hash', 'format', 'ascii'].includes(name)) return hostCall(tx, fn, args);
  }
  throw new GraphBreak('SOT005', `builtin ${name}()`);
}
