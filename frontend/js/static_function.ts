// paddle.jit.to_static for JavaScript functions and layers. A call checks the cache entries'
// guards against the entry (this, the scope option, the function, the arguments); a hit runs the
// entry's graph on the executor (through sot's CompiledGraph: training runs become one tape
// node) and rebuilds the result; a miss translates with the real values in hand. A translation
// that meets a break keeps the guards it collected as an *eager* entry: matching calls run the
// original function (the whole function falls back, with the break recorded), others may still
// translate. With full_graph a break is an error naming it.
import { Layer } from '../../src/nn/layer.js';
import { set_item } from '../../src/ops/index.js';
import { scope as tensorScope, Tensor } from '../../src/tensor/tensor.js';
import type { CompiledGraph } from '../../sot/function_graph.js';
import { setGraphRunner, SymTensor } from '../../sot/function_graph.js';
import { ExecutorRunner } from '../../sot/executor_runner.js';
import { breakKind, GraphBreak, type BreakEvent } from '../../sot/graph_breaks.js';
import { slotSource, type Source } from '../../sot/sources.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { installSymMethods } from './graph.js';
import { type Entry, JsGuardSet, MISSING, resolveJs } from './guards.js';
import { Frame, runFunction, scopeOf } from './interp.js';
import { parseFunction } from './parse.js';
import { Translation, type SpecDims } from './translation.js';
import { isPrimitive, JsArray, JsClosure, JsMap, JsObject, JsValue, UNDEFINED } from './vars.js';

export interface ToStaticOptions {
  /** One spec per argument ({ shape } with null / -1 for symbolic dims), as Paddle's InputSpec. */
  readonly input_spec?: readonly ({ readonly shape: readonly (number | null)[] } | null | undefined)[];
  /** Raise on the first graph break instead of falling back to eager. */
  readonly full_graph?: boolean;
  /** Values of free variables (closures, module imports) for code built without the skiff plugin. */
  readonly scope?: Readonly<Record<string, unknown>>;
}

export interface ToStaticStats {
  translateCount: number;
  hits: number;
  graphRuns: number;
  eagerCalls: number;
  /** Every break met while translating, in order. */
  readonly breaks: BreakEvent[];
}

/** How a result is rebuilt from graph outputs and entry values. */
type Out =
  | { readonly k: 'g'; readonly i: number }
  | { readonly k: 'v'; readonly v: unknown }
  | { readonly k: 'src'; readonly s: Source }
  | { readonly k: 'arr'; readonly items: readonly Out[] }
  | { readonly k: 'obj'; readonly keys: readonly string[]; readonly items: readonly Out[] }
  | { readonly k: 'map'; readonly keys: readonly unknown[]; readonly items: readonly Out[] };

interface CacheEntry {
  /** Number of arguments the translation saw (a missing argument is not a guarded slot). */
  readonly argc: number;
  readonly guards: JsGuardSet;
  readonly pins: readonly unknown[];
  /** null: an eager entry (the translation broke). */
  readonly graph: CompiledGraph | null;
  readonly bound: readonly Tensor[];
  readonly out: Out;
  readonly writes: readonly { readonly target: Tensor; readonly i: number }[];
  /** Side effects on outside objects and arrays, replayed in order after the graph. */
  readonly effects: readonly ({ readonly k: 'set'; readonly target: Source; readonly key: string; readonly value: Out } | { readonly k: 'array'; readonly target: Source; readonly items: readonly Out[] })[];
  readonly event: BreakEvent | null;
}

export class JsStrictModeError extends Error {
  constructor(readonly event: BreakEvent) {
    super(`to_static(full_graph): ${event.code} ${breakKind(event.code).meaning} at ${event.file}:${event.line}${event.sourceLine ? ` (${event.sourceLine})` : ''}: ${event.detail}. Hint: ${breakKind(event.code).hint}`);
    this.name = 'StrictModeError';
  }
}

const MAX_TRANSLATIONS = 20;
const envInt = (name: string, d: number): number => {
  const v = typeof process !== 'undefined' ? process.env[name] : undefined;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : d;
};

let runnerInstalled = false;

/** Calls the layer's own call/forward through `this` (the root frame of a layer translation). */
const ROOT_CALL = function (this: Layer, ...args: unknown[]): unknown { return this.call(...args); };
const ROOT_FORWARD = function (this: Layer, ...args: unknown[]): unknown { return this.forward(...args); };

export class StaticFunction {
  readonly entries: CacheEntry[] = [];
  readonly stats: ToStaticStats = { translateCount: 0, hits: 0, graphRuns: 0, eagerCalls: 0, breaks: [] };
  private gaveUp = false;
  private readonly scopeOption: Readonly<Record<string, unknown>>;
  private readonly minGraphSize = envInt('MIN_GRAPH_SIZE', 10);

  constructor(readonly fn: Function, readonly layer: Layer | null, readonly opts: ToStaticOptions) {
    if (opts.scope !== undefined && (opts.scope === null || typeof opts.scope !== 'object')) throw new TypeError(`to_static: scope must be an object of name -> value, got ${String(opts.scope)}`);
    if (opts.input_spec !== undefined && !Array.isArray(opts.input_spec)) throw new TypeError('to_static: input_spec must be an array with one spec per argument');
    this.scopeOption = opts.scope ?? {};
    installSymMethods();
    if (!runnerInstalled) { setGraphRunner(new ExecutorRunner()); runnerInstalled = true; }
  }

  /** Runs the function: a cached graph when guards hold, else translates (or falls back). */
  call(thisArg: unknown, args: readonly unknown[], viaCall = true): unknown {
    const self = this.layer ?? thisArg;
    const slots = [self, this.scopeOption, this.layer ? undefined : this.fn, ...args];
    if (!this.gaveUp) {
      for (const e of this.entries) {
        if (e.argc !== args.length || !holds(e, slots)) continue;
        this.stats.hits++;
        return e.graph ? this.runOrEager(e, { slots, pins: e.pins }, thisArg, args, viaCall) : this.eager(thisArg, args, viaCall);
      }
      if (this.stats.translateCount >= MAX_TRANSLATIONS) {
        this.gaveUp = true;
        this.stats.breaks.push({ code: 'SOT104', file: this.name, line: 0, detail: `more than ${MAX_TRANSLATIONS} translations; the function now runs eagerly` });
      } else {
        const e = this.translate(self, args, viaCall);
        this.entries.push(e);
        if (e.graph) return this.runOrEager(e, { slots, pins: e.pins }, thisArg, args, viaCall);
      }
    }
    return this.eager(thisArg, args, viaCall);
  }

  get name(): string { return this.layer ? `${this.layer.constructor.name}.forward` : this.fn.name || 'anonymous'; }

  private eager(thisArg: unknown, args: readonly unknown[], viaCall: boolean): unknown {
    this.stats.eagerCalls++;
    if (this.layer) return viaCall ? this.layer.call(...args) : this.layer.forward(...args);
    return this.fn.apply(thisArg, args);
  }

  private translate(self: unknown, args: readonly unknown[], viaCall: boolean): CacheEntry {
    this.stats.translateCount++;
    const specDims: Record<string, readonly (number | null)[]> = {};
    (this.opts.input_spec ?? []).forEach((s, i) => { if (s && Array.isArray(s.shape)) specDims[slotSource(3 + i).key] = s.shape; });
    const tr = new Translation(this.scopeOption, specDims as SpecDims);
    try {
      const argVars = args.map((a, i) => tr.track(a, slotSource(3 + i)));
      let result: Variable;
      if (this.layer) {
        const root = viaCall ? ROOT_CALL : ROOT_FORWARD;
        const frame = new Frame(tr, parseFunction(root), new JsValue(this.layer, slotSource(0)), null, undefined, '<to_static>');
        result = runFunction(frame, frame.parsed.node, null, argVars);
      } else {
        const thisVar = self === undefined ? UNDEFINED : tr.track(self, slotSource(0));
        const parsed = parseFunction(this.fn);
        const sc = scopeOf(tr, this.fn, slotSource(2));
        const frame = new Frame(tr, parsed, thisVar, sc.source, sc.record, this.name);
        result = runFunction(frame, parsed.node, null, argVars);
      }
      return this.finish(tr, result, args.length);
    } catch (err) {
      const e = err instanceof GraphBreak ? err : new GraphBreak('SOT105', `${(err as Error)?.message ?? String(err)}`);
      if (!(err instanceof GraphBreak)) tr.noteBreak(e);
      const event = tr.event(e);
      this.stats.breaks.push(event);
      if (this.opts.full_graph) throw new JsStrictModeError(event);
      log(1, `to_static ${this.name}: ${event.code} at line ${event.line}: ${event.detail}; runs eagerly`);
      // Internal errors and unresolved free variables keep no guards: every matching call is eager.
      return { argc: args.length, guards: tr.guards, pins: tr.pins, graph: null, bound: [], out: { k: 'v', v: undefined }, writes: [], effects: [], event };
    }
  }

  private finish(tr: Translation, result: Variable, argc: number): CacheEntry {
    const outs: SymTensor[] = [];
    const index = new Map<SymTensor, number>();
    const outOf = (s: SymTensor): number => {
      let i = index.get(s);
      if (i === undefined) { i = outs.length; outs.push(s); index.set(s, i); }
      return i;
    };
    const inputs = new Set(tr.graph.inputs.map((i) => i.value));
    const template = (v: Variable): Out => {
      if (v instanceof TensorVar) {
        // A tensor from outside returned as is (an argument, a parameter): the same object, as eager returns it.
        if (v.source && inputs.has(v.sym.id)) return { k: 'src', s: v.source };
        return { k: 'g', i: outOf(v.sym) };
      }
      // A tensor computed once while translating (a creation op): a fresh copy per call, as eager makes one.
      if (v instanceof JsValue && v.value instanceof Tensor && !v.source) return { k: 'g', i: outOf(tr.graph.detach(tr.graph.bind(v.value))) };
      // Objects read from the entry are re-read per call (an options bag is guarded by shape only).
      if (v instanceof JsValue) return v.source && !isPrimitive(v.value) ? { k: 'src', s: v.source } : { k: 'v', v: v.value };
      if (v instanceof JsArray) return v.ref && v.source ? { k: 'src', s: v.source } : { k: 'arr', items: v.items.map(template) };
      if (v instanceof JsObject) return { k: 'obj', keys: [...v.props.keys()], items: [...v.props.values()].map(template) };
      if (v instanceof JsMap) return { k: 'map', keys: [...v.entries.keys()], items: [...v.entries.values()].map(template) };
      if (v instanceof JsClosure) throw new GraphBreak('SOT005', 'a function made in the translated code is returned');
      throw new GraphBreak('SOT007', `a ${v.kind} value is returned`);
    };
    const out = template(result);
    const writes = tr.graph.writes.map((w) => ({ target: w.target, i: outOf(w.value) }));
    const effects = tr.effects.map((e) => (e.k === 'set' ? { k: 'set' as const, target: e.target, key: e.key, value: template(e.value) } : { k: 'array' as const, target: e.target, items: e.array.items.map(template) }));
    const graph = tr.graph.compile(outs);
    graph.name = this.name;
    if (graph.opCount < this.minGraphSize) graph.opByOp = true;
    log(1, `to_static ${this.name}: graph of ${graph.opCount} ops, ${tr.guards.list.length} guards`);
    return { argc, guards: tr.guards, pins: tr.pins, graph, bound: tr.graph.bound, out, writes, effects, event: null };
  }

  /**
   * Runs a graph entry. The graph runs before any side effect, so when it raises (a symbolic dim
   * bound inconsistently, say) the call is redone eagerly: eager's result, or eager's error.
   */
  private runOrEager(e: CacheEntry, entry: Entry, thisArg: unknown, args: readonly unknown[], viaCall: boolean): unknown {
    let results: Tensor[];
    try {
      results = this.runGraph(e, entry);
    } catch {
      return this.eager(thisArg, args, viaCall);
    }
    return this.finishRun(e, entry, results);
  }

  private runGraph(e: CacheEntry, entry: Entry): Tensor[] {
    const memo = new Map<string, unknown>();
    const g = e.graph!;
    const feeds = g.inputs.map((inp) => {
      if (inp.source.k === 'const') return e.bound[inp.source.i];
      const t = resolveJs(inp.source, entry, memo);
      if (!(t instanceof Tensor)) throw new Error(`to_static: graph input ${inp.source.key} is no longer a tensor`);
      return t;
    });
    this.stats.graphRuns++;
    return g.run(feeds);
  }

  private finishRun(e: CacheEntry, entry: Entry, results: readonly Tensor[]): unknown {
    const memo = new Map<string, unknown>();
    if (e.writes.length) {
      tensorScope(() => {
        for (const w of e.writes) set_item(w.target, '...', results[w.i].detach());
      });
    }
    const build = (o: Out): unknown => {
      switch (o.k) {
        case 'g': return results[o.i];
        case 'v': return o.v;
        case 'src': { const v = resolveJs(o.s, entry, memo); return v === MISSING ? undefined : v; }
        case 'arr': return o.items.map(build);
        case 'obj': { const r: Record<string, unknown> = {}; o.keys.forEach((k, i) => { r[k] = build(o.items[i]); }); return r; }
        case 'map': return new Map(o.keys.map((k, i) => [k, build(o.items[i])]));
      }
    };
    for (const fx of e.effects) {
      const target = resolveJs(fx.target, entry, memo);
      if (target === MISSING || target === null || typeof target !== 'object') throw new Error(`to_static: the target ${fx.target.key} of a side effect is gone`);
      if (fx.k === 'set') (target as Record<string, unknown>)[fx.key] = build(fx.value);
      else { const a = target as unknown[]; const items = fx.items.map(build); a.length = 0; a.push(...items); }
    }
    if (e.effects.length) memo.clear();   // values read below must see the writes
    return build(e.out);
  }

  /** Per entry: graph op count (or the break that made it eager) and its guards. */
  explain(): { graphs: number; entries: { ops: number | null; break: BreakEvent | null; guards: string[] }[]; breaks: BreakEvent[] } {
    return {
      graphs: this.entries.filter((e) => e.graph).length,
      entries: this.entries.map((e) => ({ ops: e.graph ? e.graph.opCount : null, break: e.event, guards: e.guards.describe() })),
      breaks: [...this.stats.breaks],
    };
  }
}

/** Guards of an entry hold for this call (a guard whose read throws, a getter say, does not hold). */
function holds(e: CacheEntry, slots: readonly unknown[]): boolean {
  try {
    return e.guards.firstFailing({ slots, pins: e.pins }) === null;
  } catch {
    return false;
  }
}

function log(level: number, msg: string): void {
  if (envInt('SOT_LOG_LEVEL', 0) >= level) console.error(msg);
}
