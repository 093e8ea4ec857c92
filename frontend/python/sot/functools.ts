// functools in translated code: reduce() folds with the function inlined per element; calling a
// partial object calls its func with the stored arguments; partial(...) made inside the function
// is modelled (PartialVar) while it stays inside one segment; calling an lru_cache / cache wrapper
// inlines its __wrapped__ function.
//
// lru_cache, decided as Paddle's SOT does: the cache is neither read nor filled. Calls inside one
// translation with the same arguments (equal constants, which lru_cache's typed=False also
// merges, or the very same objects) share one result, as cache hits would; otherwise the wrapped
// function is simulated. This equals eager whenever the wrapped function's result depends on its
// arguments only — the assumption lru_cache already makes. Not modelled: a result cached by an
// earlier call of the program (eager returns that object; here an equal, recomputed one),
// cache_info() counts, and a function whose result depends on state the cache hides.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import type { SotPythonHost } from './python_host.js';
import { ConstVar, DictVar, IterVar, ObjectVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import type { Translator } from './translator.js';
import { callVar, getIter } from './semantics.js';
import { getAttr } from './objects.js';
import { callToReturn } from './call_inline.js';
import { callOnHost } from './methods.js';
import { SiteBoundVar, siteIsConcrete } from './generators.js';

// ---- reduce -----------------------------------------------------------------------------------

/** functools.reduce(fn, iterable[, initial]). */
export function functoolsReduce(tx: Translator, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length || args.length < 2 || args.length > 3) throw new GraphBreak('SOT007', 'reduce() with unusual arguments');
  const [fn, xs, init] = args;
  const it = getIter(tx, xs) as IterVar;
  const pos = it.pos;
  const items = it.items.slice(pos);
  // reduce consumes the iterator; a break below puts it back (the instruction then runs concretely)
  it.pos = it.items.length;
  try {
    let acc: Variable;
    let rest = items;
    if (init !== undefined) acc = init;
    else {
      if (!items.length) throw new GraphBreak('SOT007', 'TypeError: reduce() of empty iterable with no initial value');
      acc = items[0];
      rest = items.slice(1);
    }
    for (const x of rest) acc = callToReturn(tx, fn, [acc, x], []);
    return acc;
  } catch (e) {
    it.pos = pos;
    throw e;
  }
}

// ---- partial ----------------------------------------------------------------------------------

/** functools.partial(func, *args, **keywords) made by translated code. */
export class PartialVar extends SiteBoundVar {
  readonly kind = 'partial';
  constructor(site: string, readonly func: Variable, readonly args: readonly Variable[], readonly keywords: readonly [string, Variable][]) { super(site); }
}

/** The call partial(*args, **kwargs) makes: stored arguments first, call keywords override stored ones. */
function partialArgs(pargs: readonly Variable[], pkw: readonly [string, Variable][], args: Variable[], kwargs: [string, Variable][]): [Variable[], [string, Variable][]] {
  const kw = pkw.filter(([k]) => !kwargs.some(([k2]) => k2 === k));
  return [[...pargs, ...args], [...kw, ...kwargs]];
}

export function callPartial(tx: Translator, p: PartialVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const [a, kw] = partialArgs(p.args, p.keywords, args, kwargs);
  return callVar(tx, p.func, a, kw);
}

function makePartial(tx: Translator, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (siteIsConcrete(tx)) throw new GraphBreak('SOT005', 'functools.partial() live across a graph break runs concretely');
  const [func, ...rest] = args;
  if (!func) throw new GraphBreak('SOT007', 'TypeError: partial() takes at least one argument');
  // partial(partial(f, a), b) flattens, as CPython does
  if (func instanceof PartialVar) {
    const [a, kw] = partialArgs(func.args, func.keywords, rest, kwargs);
    return new PartialVar(func.site, func.func, a, kw);
  }
  return new PartialVar(`${tx.frame.code.id}@${tx.frame.ip - 1}`, func, rest, kwargs);
}

/** A real partial object: its func, args and keywords are read-only attributes, read (and guarded) now. */
function callHostPartial(tx: Translator, p: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  const func = getAttr(tx, p, 'func');
  const pargs = getAttr(tx, p, 'args');
  const pkw = getAttr(tx, p, 'keywords');
  if (!(pargs instanceof TupleVar) || !(pkw instanceof DictVar)) throw new GraphBreak('SOT007', 'partial object with unusual attributes');
  const stored = pkw.keys.map((k, i): [string, Variable] => {
    if (!(k instanceof ConstVar) || k.value.k !== 'str') throw new GraphBreak('SOT007', 'partial keywords with a non-string key');
    return [k.value.v, pkw.values[i]];
  });
  const [a, kw] = partialArgs(pargs.items, stored, args, kwargs);
  return callVar(tx, func, a, kw);
}

// ---- lru_cache ----------------------------------------------------------------------------------

/** One result per wrapper and arguments within a translation (what the cache would hand back). */
const memo = new WeakMap<Translator, Map<string, Variable>>();
const identity = new WeakMap<Variable, number>();
let nextIdentity = 1;

/** The cache key of an argument, or null when calls with it are not merged. */
function keyOf(v: Variable, typed: boolean): string | null {
  if (v instanceof ConstVar) {
    const c = v.value;
    if (c.k === 'none') return 'N';
    if (c.k === 'str') return `s${JSON.stringify(c.v)}`;
    // 1, 1.0 and True are one key for lru_cache(typed=False), three for typed=True
    const tag = typed ? c.k : 'n';
    if (typeof c.v === 'bigint') return `${tag}${c.v.toString()}`;
    const n = Number(c.v);
    return Number.isNaN(n) ? null : `${tag}${n}`;
  }
  if (v instanceof TupleVar) {
    const ks = v.items.map((x) => keyOf(x, typed));
    return ks.every((k) => k !== null) ? `(${ks.join(',')})` : null;
  }
  if (v instanceof ObjectVar) return `o${v.ref.id as number}`;
  if (v instanceof TensorVar) {
    // the same Python tensor object (one variable per object in a translation); a tensor's hash is its identity
    let i = identity.get(v);
    if (i === undefined) { i = nextIdentity++; identity.set(v, i); }
    return `t${i}`;
  }
  return null;
}

function callLruWrapper(tx: Translator, w: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | null {
  const wrapped = getAttr(tx, w, '__wrapped__');
  if (!(wrapped instanceof ObjectVar && wrapped.info.kind === 'function')) return null;
  const typed = isTyped(tx, w);
  const keys = [...args.map((a) => keyOf(a, typed)), ...kwargs.map(([k, v]) => { const kv = keyOf(v, typed); return kv === null ? null : `${k}=${kv}`; })];
  // CPython keys one untyped positional int or str by itself, anything else by the argument
  // tuple: f(2) and f(2.0) are two entries, f(1.0) and f(True) one
  const a0 = args[0];
  const bare = !typed && args.length === 1 && !kwargs.length && a0 instanceof ConstVar && (a0.value.k === 'int' || a0.value.k === 'str');
  const key = keys.every((k) => k !== null) ? `${w.ref.id as number}|${bare ? 'bare' : 'tuple'}|${keys.join('|')}` : null;
  let m = memo.get(tx);
  if (!m) { m = new Map(); memo.set(tx, m); }
  const hit = key === null ? undefined : m.get(key);
  if (hit) return hit;
  // run to its return here, so the result can be remembered (a break inside makes the whole call concrete: eager's cache)
  const r = callToReturn(tx, wrapped, args, kwargs);
  if (key !== null) m.set(key, r);
  return r;
}

/** wrapper.cache_parameters()['typed'] (a pure call); true (fewer merges) when it cannot be read. */
function isTyped(tx: Translator, w: ObjectVar): boolean {
  try {
    const p = callOnHost(tx, { k: 'obj', ref: w.ref }, 'cache_parameters', []);
    if (p.k !== 'dict') return true;
    const i = p.keys.findIndex((k) => k.k === 'str' && k.v === 'typed');
    const t = i < 0 ? undefined : p.values[i];
    return !(t && t.k === 'bool' && !t.v);
  } catch (e) {
    if (e instanceof GraphBreak) return true;
    throw e;
  }
}

// ---- dispatch -------------------------------------------------------------------------------------

const typeIds = new WeakMap<SotPythonHost, Map<string, number>>();

/** The object id of functools.<name> (a type). */
function functoolsType(tx: Translator, name: string): number {
  let m = typeIds.get(tx.host);
  if (!m) { m = new Map(); typeIds.set(tx.host, m); }
  let id = m.get(name);
  if (id === undefined) { id = tx.host.compatFunction('functools', name).id as number; m.set(name, id); }
  return id;
}

/**
 * A call of a functools object or class the translator models: the result (undefined when a
 * frame was pushed), or null for anything else.
 */
export function functoolsCall(tx: Translator, fn: ObjectVar, args: Variable[], kwargs: [string, Variable][]): Variable | undefined | null {
  if (fn.info.kind === 'class') {
    if ((fn.ref.id as number) === functoolsType(tx, 'partial')) return makePartial(tx, args, kwargs);
    return null;
  }
  if (fn.info.kind !== 'other') return null;
  const t = fn.ref.typeId;
  if (t === functoolsType(tx, '_lru_cache_wrapper')) return callLruWrapper(tx, fn, args, kwargs);
  if (t === functoolsType(tx, 'partial')) return callHostPartial(tx, fn, args, kwargs);
  return null;
}
