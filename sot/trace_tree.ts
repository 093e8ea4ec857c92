// The trace tree: a function's cache. A node holds guards on its entry values, one compiled
// graph, the side effects to replay, and its exit: either a return, or one concrete step whose
// result selects (by guards) the child node that continues. Later calls walk the tree; a guard
// miss translates a new child from that point with the real state in hand.
import type { Tensor } from '../src/tensor/tensor.js';
import type { Shape } from '../src/tensor/shape.js';
import type { CompiledGraph } from './function_graph.js';
import { firstFailingLocal, type Guard, GuardSet, describeGuard } from './guards.js';
import { type ConcreteStep, type Host, HostError } from './host.js';
import { resolveLocal } from './guards.js';
import type { Source } from './sources.js';
import type { RtValue } from './values.js';
import type { BreakEvent } from './graph_breaks.js';

/** How an exit value is rebuilt at run time from the node's entry, graph outputs and step results. */
export type Template =
  | { readonly k: 'local'; readonly source: Source }
  | { readonly k: 'gout'; readonly i: number }
  | { readonly k: 'const'; readonly v: RtValue }
  | { readonly k: 'tuple'; readonly items: readonly Template[] }
  | { readonly k: 'list'; readonly items: readonly Template[] }
  | { readonly k: 'dict'; readonly keys: readonly Template[]; readonly values: readonly Template[] }
  | { readonly k: 'result'; readonly i: number }
  /** An attribute of a value, read at run time (a bound method such as x.item). */
  | { readonly k: 'attr'; readonly obj: Template; readonly name: string }
  /** A mutable host container re-read after a step (its contents may have changed). */
  | { readonly k: 'fresh'; readonly inner: Template }
  /**
   * A new host object made at run time by a concrete step from its operands (a range, a slice,
   * a closure cell, a function made by the traced code). Evaluated once per node run: every
   * use of the same template object in that run sees the same object.
   */
  | { readonly k: 'build'; readonly step: ConcreteStep; readonly operands: readonly Template[] };

/** Values of 'build' templates already made in the current node run. */
export type BuildMemo = Map<Template, RtValue>;

export interface Effect { readonly step: ConcreteStep; readonly operands: readonly Template[] }

export type Exit =
  | { readonly k: 'return'; readonly value: Template }
  | {
      readonly k: 'step';
      readonly step: ConcreteStep;
      readonly operands: readonly Template[];
      /** Entry slots of the child, rebuilt after the step. */
      readonly resume: readonly Template[];
      /** Language-specific frame layout the translator needs to continue from the child's slots. */
      readonly layout: unknown;
      readonly event: BreakEvent;
      /**
       * When the step raises and a handler of the simulated frames catches it: the entry slots
       * and layout of the child that continues at the handler. Its step results are
       * [layer version, the exception] (Host.takeException). Absent: the exception
       * leaves the function.
       */
      readonly unwind?: { readonly resume: readonly Template[]; readonly layout: unknown };
    };

export class TreeNode {
  readonly children: TreeNode[] = [];
  /** Children continuing at an exception handler after the step raised (Exit.unwind). */
  readonly excChildren: TreeNode[] = [];
  hits = 0;
  /**
   * Symbolic shapes of this node's entry tensors by source key (sot/dynamic_dims.ts); null when
   * no dim above or at this node is symbolic. Children trace their entry shapes back through it.
   */
  entryShapes: ReadonlyMap<string, Shape> | null = null;
  /**
   * Runs the graph in the grad mode it needs when that is not the current one (a node entered
   * inside a simulated `paddle.no_grad()` block: its graph runs in the mode outside the block,
   * the block's own ops being marked as passing no gradient); null: as it is.
   */
  graphMode: ((run: () => Tensor[]) => Tensor[]) | null = null;
  constructor(
    readonly guards: GuardSet,
    /** Graph inputs: templates over the entry (tensors) or constant tensors (parameters). */
    readonly graph: CompiledGraph | null,
    readonly graphInputs: readonly Template[],
    readonly effects: readonly Effect[],
    readonly exit: Exit,
    /** A host-side check for guards that need host lookups; returns true when they hold. */
    readonly hostCheck: ((entry: readonly RtValue[]) => boolean) | null,
  ) {}

  /** First failing guard for this entry, or null if every guard holds. */
  failing(entry: readonly RtValue[]): Guard | 'host' | null {
    const g = firstFailingLocal(this.guards, entry);
    if (g) return g;
    if (this.hostCheck && !this.hostCheck(entry)) return 'host';
    return null;
  }

  size(): number { return 1 + this.children.reduce((a, c) => a + c.size(), 0) + this.excChildren.reduce((a, c) => a + c.size(), 0); }
  describeGuards(): string[] { return this.guards.describe(); }
}

export function evalTemplate(t: Template, entry: readonly RtValue[], gouts: readonly Tensor[], results: readonly RtValue[], host?: Host, memo?: BuildMemo): RtValue {
  const rec = (x: Template) => evalTemplate(x, entry, gouts, results, host, memo);
  switch (t.k) {
    case 'local': {
      // A source the slots alone cannot resolve (a JS attribute path) is read through the host.
      const v = resolveLocal(t.source, entry) ?? host?.resolve?.(t.source, entry);
      if (v === undefined) throw new Error(`trace tree: ${t.source.key} is not in the entry`);
      return v;
    }
    case 'gout': return { k: 'tensor', t: gouts[t.i] };
    case 'const': return t.v;
    case 'tuple': return { k: 'tuple', items: t.items.map(rec) };
    // A list/dict the traced code made is one object in eager: every use of its template in a
    // node run (a local, an item of a tuple local, an attribute) is the same value, so the
    // child's translation sees one variable (frontend translator.ts fromRt).
    case 'list': case 'dict': {
      let v = memo?.get(t);
      if (v === undefined) {
        v = t.k === 'list' ? { k: 'list', items: t.items.map(rec) } : { k: 'dict', keys: t.keys.map(rec), values: t.values.map(rec) };
        memo?.set(t, v);
      }
      return v;
    }
    case 'result': return results[t.i];
    case 'attr': {
      if (!host) throw new Error('trace tree: an attribute template needs the host');
      return host.getattr(rec(t.obj), t.name);
    }
    case 'fresh': {
      const v = rec(t.inner);
      return host ? host.refresh(v) : v;
    }
    case 'build': {
      if (!host || !memo) throw new Error('trace tree: a build template needs the host and a memo');
      let v = memo.get(t);
      if (v === undefined) {
        v = host.concrete(t.step, t.operands.map(rec))[1];
        memo.set(t, v);
      }
      return v;
    }
  }
}

/**
 * Builds the node for a guard miss: the frontend's translator, run with the real entry in hand.
 * `caught`: the parent's step raised and the child starts at its handler (Exit.unwind).
 */
export type Translate = (parent: TreeNode | null, entry: readonly RtValue[], caught?: boolean) => TreeNode;

export interface WalkStats { graphsRun: number; graphOpsRun: number; stepsRun: number; effectsRun: number; translations: number }

/**
 * Runs one call through the tree. `roots` are the entry nodes (one per distinct entry guard set).
 * Returns the function's result.
 */
export function walk(
  roots: TreeNode[], entry: readonly RtValue[], host: Host, translate: Translate, stats: WalkStats,
  onMiss?: (node: TreeNode | null, failed: (Guard | 'host')[]) => void,
): RtValue {
  let node = pick(roots, entry, onMiss, null);
  if (!node) { node = translate(null, entry); roots.push(node); stats.translations++; }
  for (;;) {
    node.hits++;
    const n = node;
    const gouts = n.graph ? (n.graphMode ? n.graphMode(() => runGraph(n, entry, host)) : runGraph(n, entry, host)) : [];
    if (node.graph) { stats.graphsRun++; stats.graphOpsRun += node.graph.opCount; }
    const memo: BuildMemo = new Map();
    for (const e of node.effects) {
      stats.effectsRun++;
      host.concrete(e.step, e.operands.map((o) => evalTemplate(o, entry, gouts, [], host, memo)));
    }
    const exit = node.exit;
    if (exit.k === 'return') return evalTemplate(exit.value, entry, gouts, [], host, memo);
    const operands = exit.operands.map((o) => evalTemplate(o, entry, gouts, [], host, memo));
    let results: RtValue[];
    let caught: RtValue[] | null = null;
    try {
      stats.stepsRun++;
      results = host.concrete(exit.step, operands);
    } catch (e) {
      // A handler of the translated code catches it: continue there with the exception.
      caught = e instanceof HostError && exit.unwind && host.takeException ? host.takeException(exit.event) : null;
      if (!caught) {
        // The user's code raised in a concrete step: remember where, for the traceback.
        if (e instanceof Error) (e as Error & { sotEvent?: BreakEvent }).sotEvent = exit.event;
        throw e;
      }
      results = caught;
    }
    const replaced = host.takeReplacedTensors();
    const resume = caught ? exit.unwind!.resume : exit.resume;
    const children = caught ? node.excChildren : node.children;
    let next = resume.map((t) => evalTemplate(t, entry, gouts, results, host, memo));
    if (replaced) { const done = new Map<RtValue, RtValue>(); next = next.map((v) => substituteTensors(v, replaced, done)); }
    let child = pick(children, next, onMiss, node);
    if (!child) { child = translate(node, next, caught !== null); children.push(child); stats.translations++; }
    node = child;
    entry = next;
  }
}

/**
 * v with every tensor in `replaced` swapped for its replacement (deep in tuples, lists, dicts).
 * `done` keeps one copy per container, so a list reached twice stays one value.
 */
function substituteTensors(v: RtValue, replaced: ReadonlyMap<Tensor, Tensor>, done: Map<RtValue, RtValue>): RtValue {
  const rec = (x: RtValue) => substituteTensors(x, replaced, done);
  if (v.k === 'list' || v.k === 'dict') {
    const d = done.get(v);
    if (d) return d;
    // (made before its items, which may lead back to it)
    const items: RtValue[] = [];
    const c: RtValue = v.k === 'list' ? { ...v, items } : { ...v, values: items };
    done.set(v, c);
    items.push(...(v.k === 'list' ? v.items : v.values).map(rec));
    return c;
  }
  switch (v.k) {
    case 'tensor': { const r = replaced.get(v.t); return r ? { k: 'tensor', t: r } : v; }
    case 'tuple': return { k: 'tuple', items: v.items.map(rec) };
    default: return v;
  }
}

function runGraph(node: TreeNode, entry: readonly RtValue[], host: Host): Tensor[] {
  const inputs = node.graphInputs.map((t) => {
    // Only a 'local' input the slots cannot resolve goes to the host (Host.resolve: JS attribute paths).
    const v = (t.k === 'local' && host.resolve ? resolveLocal(t.source, entry) ?? host.resolve(t.source, entry) : undefined) ?? evalTemplate(t, entry, [], []);
    if (v.k !== 'tensor') throw new Error(`trace tree: graph input is a ${v.k}, expected a tensor`);
    return v.t;
  });
  return node.graph!.run(inputs);
}

function pick(nodes: readonly TreeNode[], entry: readonly RtValue[], onMiss: ((n: TreeNode | null, f: (Guard | 'host')[]) => void) | undefined, parent: TreeNode | null): TreeNode | null {
  const failed: (Guard | 'host')[] = [];
  for (const n of nodes) {
    const f = n.failing(entry);
    if (f === null) return n;
    failed.push(f);
  }
  if (onMiss && nodes.length) onMiss(parent, failed);
  return null;
}

export const describeFailure = (f: Guard | 'host'): string => (f === 'host' ? 'a host guard (global or attribute)' : describeGuard(f));
