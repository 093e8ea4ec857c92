// paddle.jit.to_static for JavaScript functions and layers, on sot's trace tree. A call walks the
// tree from the entry (this, the scope option, the function, the arguments): a node whose guards
// hold runs its graph on the executor (through sot's CompiledGraph: training runs become one tape
// node each, chained by the tape across splits), then its exit: the leaf's finish (write-backs,
// side effects in order, the result) or a split's concrete step (`.item()`), whose real result
// picks the child that continues. A miss translates with the real values in hand (split.ts
// replays the path for a child). A break that does not split becomes an *eager* node: calls
// reaching it run the original function (with the break recorded). With full_graph a break is
// an error naming it.
import { Layer } from '../../src/nn/layer.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { CompiledGraph, SymTensor } from '../../sot/function_graph.js';
import { setGraphRunner } from '../../sot/function_graph.js';
import { ExecutorRunner } from '../../sot/executor_runner.js';
import { breakKind, GraphBreak, type BreakEvent } from '../../sot/graph_breaks.js';
import { GuardSet } from '../../sot/guards.js';
import { slotSource, type Source } from '../../sot/sources.js';
import { type Exit, type Template, TreeNode, walk, type WalkStats } from '../../sot/trace_tree.js';
import type { RtValue } from '../../sot/values.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { installSymMethods } from './graph.js';
import { runRootLeaf, setLeafPlan, WALK } from './fast_leaf.js';
import { JsGuardSet } from './guards.js';
import { UNKNOWN_CALL_HINT } from './calls.js';
import { refusedTest } from './control_flow.js';
import { Frame, runFunction, scopeOf } from './interp.js';
import { parseFunction } from './parse.js';
import { buildSegment, computedValues, EagerRerun, eagerStep, entryOf, entrySlots, type EffectOut, type Finish, finishStep, fromRtValue, JsHost, type Out, type SegmentStart, SplitSignal, type SplitLayout, valueStep } from './split.js';
import { Translation, type SpecDims } from './translation.js';
import { isPrimitive, JsArray, JsClosure, JsMap, JsObject, JsValue, LazyValue, UNDEFINED } from './vars.js';

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

/** What the tree keeps per node for explain(), the viewer and the guards. */
export interface NodeInfo {
  readonly guards: JsGuardSet;
  /** The graph of the node, as the viewer and tests see it. */
  readonly graph: CompiledGraph | null;
  /** Tensors bound as constant inputs in the node's translation (by constant index). */
  readonly bound: readonly Tensor[];
  /** 'split': ends with a concrete step (a break that split the graph); 'eager': a break that makes calls reaching it eager. */
  readonly exit: 'return' | 'split' | 'eager';
  readonly event: BreakEvent | null;
  readonly depth: number;
}

const nodeInfo = new WeakMap<TreeNode, NodeInfo>();

/** Hints where the catalogue's (written for Python, whose translator runs such steps concretely) does not fit JS. */
const JS_HINTS: Partial<Record<BreakEvent['code'], string>> = {
  SOT005: UNKNOWN_CALL_HINT,
  SOT001: 'keep the value as a tensor (JS converts a tensor with its toString, which reads its values); without full_graph such a conversion outside tensor-conditioned code splits the graph',
};

export class JsStrictModeError extends Error {
  constructor(readonly event: BreakEvent) {
    const hint = JS_HINTS[event.code] ?? breakKind(event.code).hint;
    super(`to_static(full_graph): ${event.code} ${breakKind(event.code).meaning} at ${event.file}:${event.line}${event.sourceLine ? ` (${event.sourceLine})` : ''}: ${event.detail}${event.detail.includes(hint) ? '' : `. Hint: ${hint}`}`);
    this.name = 'StrictModeError';
  }
}

const MAX_TRANSLATIONS = 20;
/** Root re-translations with a refused tensor test made concrete. */
const MAX_CAPTURE_RETRIES = 8;
const envInt = (name: string, d: number): number => {
  const v = typeof process !== 'undefined' ? process.env[name] : undefined;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : d;
};

let runnerInstalled = false;

/** Calls the layer's own call/forward through `this` (the root frame of a layer translation). */
const ROOT_CALL = function (this: Layer, ...args: unknown[]): unknown { return this.call(...args); };
const ROOT_FORWARD = function (this: Layer, ...args: unknown[]): unknown { return this.forward(...args); };

export class StaticFunction {
  /** The trace tree's roots (sot/trace_tree.ts): one per distinct set of entry guards. */
  readonly roots: TreeNode[] = [];
  readonly stats: ToStaticStats = { translateCount: 0, hits: 0, graphRuns: 0, eagerCalls: 0, breaks: [] };
  private gaveUp = false;
  private readonly scopeOption: Readonly<Record<string, unknown>>;
  private readonly minGraphSize = envInt('MIN_GRAPH_SIZE', 10);
  /** Objects reached without a path, shared by every translation (sources stay valid across the tree). */
  private readonly shared = { pins: [] as unknown[], pinIds: new Map<unknown, Source>() };
  private readonly host = new JsHost(this.shared.pins);
  private readonly walkStats: WalkStats = { graphsRun: 0, graphOpsRun: 0, stepsRun: 0, effectsRun: 0, translations: 0 };

  constructor(readonly fn: Function, readonly layer: Layer | null, readonly opts: ToStaticOptions) {
    if (opts.scope !== undefined && (opts.scope === null || typeof opts.scope !== 'object')) throw new TypeError(`to_static: scope must be an object of name -> value, got ${String(opts.scope)}`);
    if (opts.input_spec !== undefined && !Array.isArray(opts.input_spec)) throw new TypeError('to_static: input_spec must be an array with one spec per argument');
    this.scopeOption = opts.scope ?? {};
    installSymMethods();
    if (!runnerInstalled) { setGraphRunner(new ExecutorRunner()); runnerInstalled = true; }
  }

  /** Runs the function through the trace tree: cached graphs and steps where guards hold, else translates (or falls back). */
  call(thisArg: unknown, args: readonly unknown[], viaCall = true): unknown {
    if (this.gaveUp) return this.eager(thisArg, args, viaCall);
    const self = this.layer ?? thisArg;
    const slots = [self, this.scopeOption, this.layer ? undefined : this.fn, ...args];
    const translations = this.stats.translateCount;
    this.host.finishFailed = false;
    try {
      // A root leaf whose guards hold runs without the walk's RtValue bookkeeping (fast_leaf.ts).
      const fast = runRootLeaf(this.roots, slots, this.shared.pins, this.host, this.walkStats);
      if (fast !== WALK) return fast;
      return fromRtValue(walk(this.roots, entryOf(slots), this.host, (parent, e) => this.translate(parent, e, self, args, viaCall), this.walkStats));
    } catch (err) {
      // Before the leaf's finish nothing visible has happened (graphs and steps are pure, side
      // effects are replayed by the leaf), so a path that cannot go on, or a graph that raises
      // (a symbolic dim bound inconsistently), reruns the whole call eagerly: eager's result or
      // eager's error.
      if (err instanceof JsStrictModeError || this.host.finishFailed) throw err;
      if (!(err instanceof EagerRerun)) log(1, `to_static ${this.name}: ${(err as Error)?.message ?? String(err)}; the call runs eagerly`);
      return this.eager(thisArg, args, viaCall);
    } finally {
      if (this.stats.translateCount === translations) this.stats.hits++;
      this.stats.graphRuns = this.walkStats.graphsRun;
    }
  }

  get name(): string { return this.layer ? `${this.layer.constructor.name}.forward` : this.fn.name || 'anonymous'; }

  /** Every tree node in pre-order with what explain() and the viewer show. */
  get entries(): (NodeInfo & { readonly node: TreeNode })[] {
    const out: (NodeInfo & { readonly node: TreeNode })[] = [];
    const visit = (n: TreeNode): void => {
      const i = nodeInfo.get(n);
      if (i) out.push({ ...i, node: n });
      n.children.forEach(visit);
      n.excChildren.forEach(visit);
    };
    this.roots.forEach(visit);
    return out;
  }

  private eager(thisArg: unknown, args: readonly unknown[], viaCall: boolean): unknown {
    this.stats.eagerCalls++;
    if (this.layer) return viaCall ? this.layer.call(...args) : this.layer.forward(...args);
    return this.fn.apply(thisArg, args);
  }

  /**
   * Translates the node for a guard miss: the root (parent null) or the child continuing after
   * the parent's step, by replaying the function with the step results of the path (split.ts).
   */
  private translate(parent: TreeNode | null, entry: readonly RtValue[], self: unknown, args: readonly unknown[], viaCall: boolean): TreeNode {
    if (this.stats.translateCount >= MAX_TRANSLATIONS) {
      this.gaveUp = true;
      this.stats.breaks.push({ code: 'SOT104', file: this.name, line: 0, detail: `more than ${MAX_TRANSLATIONS} translations; the function now runs eagerly` });
      throw new EagerRerun(null);
    }
    this.stats.translateCount++;
    const layout = parent ? (parent.exit as Extract<Exit, { k: 'step' }>).layout as SplitLayout : null;
    // A root translation whose capture of a tensor test refused (a return inside a captured side,
    // say) is retried with that test concrete: its `.item()` then splits the graph, which is
    // eager's semantics, instead of the whole call running eagerly. Children replay their path's
    // set (a new refusal there would change the prefix the ancestors ran).
    const noCapture = new Set<unknown>(layout?.noCapture ?? []);
    for (let attempt = 0; ; attempt++) {
      const tr = this.newTranslation(args.length, layout, entry, noCapture);
      const node = this.attempt(tr, parent, layout, entry, self, args, viaCall);
      const test = node instanceof GraphBreak ? refusedTest.get(node) : undefined;
      if (!(node instanceof GraphBreak)) return node;
      if (test !== undefined && !layout && tr.splitting && attempt < MAX_CAPTURE_RETRIES && !noCapture.has(test)) {
        const event = tr.event(node);
        this.stats.breaks.push(event);
        log(1, `to_static ${this.name}: ${event.code} at line ${event.line}: ${event.detail}; the test runs concretely (the graph splits there)`);
        noCapture.add(test);
        continue;
      }
      return this.broken(tr, node, entry.length, parent ? (nodeInfo.get(parent)?.depth ?? 0) + 1 : 0);
    }
  }

  private newTranslation(argc: number, layout: SplitLayout | null, entry: readonly RtValue[], noCapture: ReadonlySet<unknown>): Translation {
    const specDims: Record<string, readonly (number | null)[]> = {};
    (this.opts.input_spec ?? []).forEach((s, i) => { if (s && Array.isArray(s.shape)) specDims[slotSource(3 + i).key] = s.shape; });
    const tr = new Translation(this.scopeOption, specDims as SpecDims, this.shared);
    const R = 3 + argc;
    tr.noCapture = noCapture;
    tr.splitting = !this.opts.full_graph;
    tr.rootSlots = R;
    if (layout) {
      tr.known = entry.slice(R, R + layout.results).map(fromRtValue);
      tr.expect = { values: layout.values, nodes: layout.nodes };
    }
    return tr;
  }

  /** One simulation: the node it ends with, or the break (not split) that stopped it. */
  private attempt(tr: Translation, parent: TreeNode | null, layout: SplitLayout | null, entry: readonly RtValue[], self: unknown, args: readonly unknown[], viaCall: boolean): TreeNode | GraphBreak {
    const R = tr.rootSlots;
    const carried = new Map<number, number>(layout ? layout.carried.map((id, j) => [id, R + layout.results + j]) : []);
    const depth = parent ? (nodeInfo.get(parent)?.depth ?? 0) + 1 : 0;
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
      if (tr.splitCount < tr.known.length) throw new Error(`replay ended after ${tr.splitCount} of ${tr.known.length} steps`);
      return this.leaf(tr, result, carried, entry.length, depth);
    } catch (err) {
      if (err instanceof SplitSignal) {
        try {
          return this.split(tr, err, carried, R, entry.length, layout, depth);
        } catch (e2) {
          return this.broken(tr, e2, entry.length, depth);
        }
      }
      if (err instanceof GraphBreak && refusedTest.has(err)) return err;
      return this.broken(tr, err, entry.length, depth);
    }
  }

  /** Guards of the segment being translated, checked on the node's entry. */
  private check(tr: Translation, entryLength: number): { guards: JsGuardSet; hostCheck: (e: readonly RtValue[]) => boolean } {
    const guards = new JsGuardSet();
    for (const g of tr.guards.list.slice(tr.segGuards)) guards.add(g);
    const pins = this.shared.pins;
    return { guards, hostCheck: (e) => e.length === entryLength && holds(guards, entrySlots(e), pins) };
  }

  private start(tr: Translation, carried: ReadonlyMap<number, number>): SegmentStart {
    return { nodes: tr.segNodes, guards: tr.segGuards, carried };
  }

  /** A break that does not split: calls reaching this node run the original function. */
  private broken(tr: Translation, err: unknown, entryLength: number, depth: number): TreeNode {
    const e = err instanceof GraphBreak ? err : new GraphBreak('SOT105', `${(err as Error)?.message ?? String(err)}`);
    if (!(err instanceof GraphBreak)) tr.noteBreak(e);
    const event = tr.event(e);
    this.stats.breaks.push(event);
    if (this.opts.full_graph) throw new JsStrictModeError(event);
    log(1, `to_static ${this.name}: ${event.code} at line ${event.line}: ${event.detail}; runs eagerly`);
    const { guards, hostCheck } = this.check(tr, entryLength);
    const node = new TreeNode(new GuardSet(), null, [], [], { k: 'step', step: eagerStep(event), operands: [], resume: [], layout: null, event }, hostCheck);
    nodeInfo.set(node, { guards, graph: null, bound: tr.graph.bound, exit: 'eager', event, depth });
    return node;
  }

  /** A split: the segment's graph, then the step; every value computed so far is carried to the child. */
  private split(tr: Translation, sig: SplitSignal, carried: ReadonlyMap<number, number>, R: number, entryLength: number, layout: SplitLayout | null, depth: number): TreeNode {
    const event = tr.event(sig);
    this.stats.breaks.push(event);
    log(1, `to_static ${this.name}: graph split at line ${event.line} (${event.detail})`);
    const values = computedValues(tr);
    const seg = buildSegment(tr, this.start(tr, carried), [...values, sig.operand.id], this.name, this.minGraphSize);
    const results = layout ? layout.results : 0;
    const local = (i: number): Template => ({ k: 'local', source: slotSource(i) });
    const resume: Template[] = [
      ...Array.from({ length: R + results }, (_, i) => local(i)),
      { k: 'result', i: 0 },
      ...values.map((id) => seg.ref(id)),
    ];
    const next: SplitLayout = { rootSlots: R, results: results + 1, carried: values, values: tr.graph.values.length, nodes: tr.graph.nodes.length, noCapture: tr.noCapture };
    const { guards, hostCheck } = this.check(tr, entryLength);
    const node = new TreeNode(new GuardSet(), seg.graph, seg.graphInputs, [], { k: 'step', step: valueStep(sig.method), operands: [seg.ref(sig.operand.id)], resume, layout: next, event }, hostCheck);
    nodeInfo.set(node, { guards, graph: seg.graph, bound: tr.graph.bound, exit: 'split', event, depth });
    return node;
  }

  /** The leaf: its segment's graph, then one finishing step (write-backs, side effects in order, the result). */
  private leaf(tr: Translation, result: Variable, carried: ReadonlyMap<number, number>, entryLength: number, depth: number): TreeNode {
    const refs: number[] = [];
    const index = new Map<number, number>();
    const refOf = (s: SymTensor): number => {
      let i = index.get(s.id);
      if (i === undefined) { i = refs.length; refs.push(s.id); index.set(s.id, i); }
      return i;
    };
    const inputs = new Set(tr.graph.inputs.filter((i) => i.source.k !== 'const').map((i) => i.value));
    const template = (v: Variable): Out => {
      if (v instanceof TensorVar) {
        // A tensor from outside returned as is (an argument, a parameter): the same object, as eager returns it.
        if (v.source && inputs.has(v.sym.id)) return { k: 'src', s: v.source };
        return { k: 'g', i: refOf(v.sym) };
      }
      // A split's result the translation did not read (so not guarded): the leaf reads its slot.
      if (v instanceof LazyValue) return !v.parts ? { k: 'src', s: v.source! } : v.method ? { k: 'call', name: v.method, items: v.parts.map(template) } : { k: 'cat', items: v.parts.map(template) };
      // A tensor computed once while translating (a creation op): a fresh copy per call, as eager makes one.
      if (v instanceof JsValue && v.value instanceof Tensor && !v.source) return { k: 'g', i: refOf(tr.graph.detach(tr.graph.bind(v.value))) };
      // Objects read from the entry are re-read per call (an options bag is guarded by shape only).
      if (v instanceof JsValue) return v.source && !isPrimitive(v.value) ? { k: 'src', s: v.source } : { k: 'v', v: v.value };
      if (v instanceof JsArray) return v.ref && v.source ? { k: 'src', s: v.source } : { k: 'arr', items: v.items.map(template) };
      if (v instanceof JsObject) return { k: 'obj', keys: [...v.props.keys()], items: [...v.props.values()].map(template) };
      if (v instanceof JsMap) return { k: 'map', keys: [...v.entries.keys()], items: [...v.entries.values()].map(template) };
      if (v instanceof JsClosure) throw new GraphBreak('SOT005', 'a function made in the translated code is returned');
      throw new GraphBreak('SOT007', `a ${v.kind} value is returned`);
    };
    const out = template(result);
    const writes = tr.graph.writes.map((w) => ({ target: w.target, i: refOf(w.value) }));
    const effects: EffectOut[] = tr.effects.map((e) => (e.k === 'set' ? { k: 'set' as const, target: e.target, key: e.key, value: template(e.value) }
      : e.k === 'log' ? { k: 'log' as const, method: e.method, args: e.args.map(template) } : { k: 'array' as const, target: e.target, items: e.array.items.map(template) }));
    const seg = buildSegment(tr, this.start(tr, carried), refs, this.name, this.minGraphSize);
    const finish: Finish = { nRefs: refs.length, writes, effects, out };
    const operands: Template[] = [...refs.map((id) => seg.ref(id)), ...Array.from({ length: entryLength }, (_, i): Template => ({ k: 'local', source: slotSource(i) }))];
    const { guards, hostCheck } = this.check(tr, entryLength);
    log(1, `to_static ${this.name}: graph of ${seg.graph?.opCount ?? 0} ops, ${guards.list.length} guards`);
    const node = new TreeNode(new GuardSet(), seg.graph, seg.graphInputs, [], { k: 'return', value: { k: 'build', step: finishStep(finish), operands } }, hostCheck);
    if (depth === 0) setLeafPlan(node, { guards, entryLength, graph: seg.graph, graphInputs: seg.graphInputs, refs: operands.slice(0, refs.length), finish });
    nodeInfo.set(node, { guards, graph: seg.graph, bound: tr.graph.bound, exit: 'return', event: null, depth });
    return node;
  }

  /** Per tree node (pre-order): graph op count, the break that ends it (a split or an eager fallback), its guards. */
  explain(): { graphs: number; entries: { ops: number | null; break: BreakEvent | null; exit: NodeInfo['exit']; depth: number; guards: string[] }[]; breaks: BreakEvent[] } {
    const entries = this.entries;
    return {
      graphs: entries.filter((e) => e.graph).length,
      entries: entries.map((e) => ({ ops: e.graph ? e.graph.opCount : null, break: e.event, exit: e.exit, depth: e.depth, guards: e.guards.describe() })),
      breaks: [...this.stats.breaks],
    };
  }
}

/** Guards of a node hold for this entry (a guard whose read throws, a getter say, does not hold). */
function holds(guards: JsGuardSet, slots: readonly unknown[], pins: readonly unknown[]): boolean {
  try {
    return guards.firstFailing({ slots, pins }) === null;
  } catch {
    return false;
  }
}

function log(level: number, msg: string): void {
  if (envInt('SOT_LOG_LEVEL', 0) >= level) console.error(msg);
}
