// Python functions called from inside one instruction (a builtin's model, a truth test): the
// callee is inlined and simulated to its return before the instruction finishes. map() with a
// Python function and bool() of objects with a Python __bool__ / __len__ use it.
import { BREAKS, GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { BoundMethodVar, CellVar, ConstVar, DictVar, FunctionVar, IterVar, ListVar, NullVar, ObjectVar, SetVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { HANDLERS } from '../handlers/index.js';
import type { Translator } from './translator.js';
import { callVar, getIter, takeAll, truthy } from './semantics.js';
import { GeneratorVar } from './generators.js';
import { getAttr, getItem } from './objects.js';
import { NamedTupleVar } from './namedtuple.js';
import { InstanceVar } from './user_objects.js';

/**
 * fn(*args, **kwargs) run to its return now. A break inside becomes a break of the calling
 * instruction (which the run loop rolls back and runs concretely): the inner instruction's own
 * concrete step or raise belongs to a frame that is dropped.
 */
export function callToReturn(tx: Translator, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable {
  const depth = tx.frames.length;
  const undo = snapshot(tx, fn);
  try {
    const r = callVar(tx, fn, args, kwargs);
    if (r !== undefined) return r;
    for (let steps = 0; tx.frames.length > depth; steps++) {
      if (steps > 100_000) throw new GraphBreak('SOT103', 'an inlined call runs too long');
      const f = tx.frame;
      const ins = f.code.instructions[f.ip];
      const h = ins && HANDLERS[ins.opname];
      if (!h) throw new GraphBreak('SOT101', `opcode ${ins?.opname ?? '(end)'}`);
      f.ip++;
      h(tx, ins);
    }
    return tx.frame.pop();
  } catch (e) {
    undo();
    if (e instanceof GraphBreak && BREAKS.get(e.code)!.effect === 'fallback') throw e;
    // The user's own exception inside (a missing key, a raise) is still the user's exception when
    // the whole instruction runs concretely (psdb.check_no_breakgraph lets it through).
    const user = e instanceof HostError || (e instanceof GraphBreak && (e.pyRaises || e.raise !== undefined || e.code === 'SOT012'));
    let wrapped: GraphBreak | null = null;
    if (e instanceof GraphBreak) wrapped = new GraphBreak(e.code, `in an inlined call: ${e.detail}`);
    if (e instanceof HostError) wrapped = new GraphBreak('SOT007', `in an inlined call: ${e.pyType}: ${e.message}`);
    if (wrapped) { wrapped.pyRaises = user; throw wrapped; }
    throw e;
  }
}

/**
 * The run loop rolls a broken instruction back by restoring its frame's stack and locals; a
 * whole call run inside the instruction may also have changed host lists/dicts and closure cells
 * in place, which would then be replayed *and* redone by the concrete step. Saves them for undo.
 */
function snapshot(tx: Translator, fn: Variable): () => void {
  const saved: (() => void)[] = [];
  const seen = new Set<Variable>();
  const visit = (v: Variable | null | undefined): void => {
    if (!v || seen.has(v)) return;
    seen.add(v);
    if (v instanceof ListVar) { const items = v.items.slice(); saved.push(() => { v.items = items; }); items.forEach(visit); }
    else if (v instanceof DictVar) { const k = v.keys.slice(), vs = v.values.slice(); saved.push(() => { v.keys = k; v.values = vs; }); k.forEach(visit); vs.forEach(visit); }
    else if (v instanceof SetVar) { const items = v.items.slice(); saved.push(() => { v.items = items; }); items.forEach(visit); }
    else if (v instanceof CellVar) { const c = v.contents; saved.push(() => { v.contents = c; }); visit(c); }
    else if (v instanceof IterVar) { const pos = v.pos; saved.push(() => { v.pos = pos; }); v.items.forEach(visit); }
    else if (v instanceof TupleVar || v instanceof NamedTupleVar) v.items.forEach(visit);
    else if (v instanceof FunctionVar) { v.closure.forEach(visit); v.defaults.forEach(visit); visit(v.kwdefaults); }
    else if (v instanceof BoundMethodVar) visit(v.self);
    else if (v instanceof InstanceVar) { const a = new Map(v.attrs); saved.push(() => { v.attrs.clear(); a.forEach((x, k) => v.attrs.set(k, x)); }); a.forEach(visit); }
  };
  visit(fn);
  tx.hostContainers.forEach(visit);
  for (const f of tx.frames) { f.locals.forEach(visit); f.stack.forEach(visit); }
  const mutated = new Set(tx.mutated);
  return () => {
    for (const restore of saved) restore();
    tx.mutated.clear();
    mutated.forEach((c) => tx.mutated.add(c));
  };
}

/** A Python function (not a builtin or registry op) that map() would call per element. */
const isPythonFunction = (f: Variable): boolean => f instanceof FunctionVar || (f instanceof ObjectVar && f.info.kind === 'function');

/**
 * f can only see its arguments and constants: no globals, attributes or closure cells (its code
 * names nothing). Applied to immutable arguments, calling it early gives what calling it late does.
 */
function argumentsOnly(tx: Translator, f: Variable): boolean {
  const codeId = f instanceof FunctionVar ? f.codeId : f instanceof ObjectVar && f.info.kind === 'function' ? f.info.codeId : null;
  if (codeId === null) return false;
  const w = tx.host.code(codeId).wire;
  return w.names.length === 0 && !w.localkinds.includes('f') && !w.localkinds.includes('c');
}

const immutable = (v: Variable): boolean =>
  v instanceof ConstVar || (v instanceof TupleVar && v.items.every(immutable));

/** Builtins that drain an iterator at once (nothing of the caller runs between two elements). */
const DRAINING = new Set(['list', 'tuple', 'set', 'frozenset', 'sorted', 'sum', 'min', 'max', 'any', 'all', 'dict', 'functools.reduce']);

/**
 * True when the map object the current CALL makes is consumed entirely by the next instruction:
 * unpacked, or the only argument of a draining builtin whose call comes next.
 */
export function drainedNext(tx: Translator): boolean {
  const f = tx.frame;
  const next = f.code.instructions[f.ip];
  if (!next) return false;
  if (next.opname === 'UNPACK_SEQUENCE' || next.opname === 'UNPACK_EX') return true;
  if (!['CALL', 'CALL_FUNCTION', 'PRECALL', 'CALL_METHOD'].includes(next.opname) || next.arg !== 1 || f.kwNames) return false;
  // the outer callable is on top, or under a NULL (3.13+ pushes NULL after the callable)
  const top = f.stack[f.stack.length - 1];
  const c = top instanceof NullVar ? f.stack[f.stack.length - 2] : top;
  return c instanceof ObjectVar && c.info.kind === 'builtin' && DRAINING.has(c.info.name);
}

/**
 * map(f, *iterables) with a Python f. map is lazy: f runs when an element is drawn, after
 * whatever the consumer did with the previous one. Applying f to all elements now is the same
 * only when the map object is drained at once, or when f depends on nothing but its immutable
 * arguments; otherwise the call runs concretely.
 */
export function mapPython(tx: Translator, f: Variable, its: Variable[]): Variable {
  if (!isPythonFunction(f)) throw new GraphBreak('SOT007', 'map() with a callable the translator cannot inline');
  if (!its.length) throw new GraphBreak('SOT007', 'map() must have at least two arguments.');
  if (its.some((x) => x instanceof GeneratorVar) && !drainedNext(tx)) throw new GraphBreak('SOT007', 'map() over a generator that is not drained at once');
  const columns = its.map((x) => elements(tx, x));
  const n = Math.min(...columns.map((c) => c.length));
  const rows: Variable[][] = [];
  for (let i = 0; i < n; i++) rows.push(columns.map((c) => c[i]));
  if (!drainedNext(tx) && !(argumentsOnly(tx, f) && rows.every((r) => r.every(immutable)))) {
    throw new GraphBreak('SOT007', 'map() with a Python function whose results may depend on when they are drawn');
  }
  const effects = tx.effects.length;
  // all applications or none: a break in a later one undoes what the earlier ones changed
  const undo = snapshot(tx, f);
  let out: Variable[];
  try {
    out = rows.map((r) => callToReturn(tx, f, r, []));
    if (tx.effects.length !== effects) throw new GraphBreak('SOT007', 'map() with a function that has side effects');
  } catch (e) {
    undo();
    throw e;
  }
  // the source iterators are consumed up to the shortest (zip-like), as map would leave them
  columns.forEach((_, j) => { const src = its[j]; if (src instanceof IterVar) src.pos += n; });
  return new IterVar(out);
}

/**
 * filter(f, iterable) (f None, a builtin, an API or a Python function): lazy like map, so a
 * Python f is applied now under map's conditions; the elements whose f(x) is true are kept.
 */
export function filterCall(tx: Translator, f: Variable, src: Variable): Variable {
  const none = f instanceof ConstVar && f.value.k === 'none';
  const pure = none || (f instanceof ObjectVar && (f.info.kind === 'builtin' || f.info.kind === 'api'));
  if (!pure && !isPythonFunction(f)) throw new GraphBreak('SOT007', 'filter() with a callable the translator cannot inline');
  if (src instanceof GeneratorVar && !drainedNext(tx)) throw new GraphBreak('SOT007', 'filter() over a generator that is not drained at once');
  const xs = elements(tx, src);
  if (!pure && !drainedNext(tx) && !(argumentsOnly(tx, f) && xs.every(immutable))) {
    throw new GraphBreak('SOT007', 'filter() with a Python function whose results may depend on when they are drawn');
  }
  const effects = tx.effects.length;
  const undo = snapshot(tx, f);
  try {
    const keep = xs.filter((x) => {
      if (none) return truthy(tx, x);
      const r = pure ? callVar(tx, f, [x], []) : callToReturn(tx, f, [x], []);
      if (r === undefined) throw new GraphBreak('SOT007', 'filter() with a callable that does not return at once');
      return truthy(tx, r);
    });
    if (tx.effects.length !== effects) throw new GraphBreak('SOT007', 'filter() with a function that has side effects');
    if (src instanceof IterVar) src.pos = src.items.length;
    return new IterVar(keep);
  } catch (e) {
    undo();
    throw e;
  }
}

/**
 * The elements an iterable yields. A tensor yields x[0], x[1], ... as Tensor.__iter__ does, when
 * its first dim is a number (a symbolic one would make the count depend on the input).
 */
export function elements(tx: Translator, x: Variable): Variable[] {
  if (x instanceof TensorVar) {
    const n = x.sym.shape[0];
    if (x.sym.shape.length === 0 || typeof n !== 'number') throw new GraphBreak('SOT009', 'iteration over a tensor');
    const out: Variable[] = [];
    for (let i = 0; i < n; i++) out.push(getItem(tx, x, new ConstVar({ k: 'int', v: i }))!);
    return out;
  }
  return takeAll(tx, x);
}

/**
 * bool(obj) for an instance whose class defines __bool__ (else __len__) in Python: the method,
 * inlined. null when the object has neither as a Python method bound to it.
 */
export function dunderTruth(tx: Translator, obj: ObjectVar): boolean | null {
  for (const name of ['__bool__', '__len__']) {
    let m: Variable;
    try {
      m = getAttr(tx, obj, name);
    } catch (e) {
      // only a missing method moves on to the next one; any other problem breaks as before
      if (e instanceof GraphBreak && e.detail.startsWith('AttributeError')) continue;
      if (e instanceof GraphBreak) return null;
      throw e;
    }
    if (!(m instanceof ObjectVar && m.info.kind === 'method' && m.info.self.id === obj.ref.id)) return null;
    const r = callToReturn(tx, m, [], []);
    if (!(r instanceof ConstVar)) throw new GraphBreak('SOT007', `${name} returned ${r.kind}`);
    const c = r.value;
    if (name === '__bool__') {
      if (c.k !== 'bool') throw new GraphBreak('SOT007', '__bool__ should return bool');
      return c.v;
    }
    if (c.k !== 'int' && c.k !== 'bool') throw new GraphBreak('SOT007', '__len__ should return an int');
    if (Number(c.v) < 0) throw new GraphBreak('SOT007', '__len__() should return >= 0');
    return Number(c.v) !== 0;
  }
  return null;
}
