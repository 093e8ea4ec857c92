// The cached-call fast path of a root leaf (a translation with no split): what sot's generic
// walk (sot/trace_tree.ts) does for such a node, on the call's raw JS values. The walk needs the
// entry as sot RtValues (one object per slot), unwraps them again for the JS guards, evaluates
// templates into RtValues for the leaf's finishing step and unwraps those: for a one-op function
// that bookkeeping cost as much as the call itself. Here the guards are checked on the raw
// arguments, the graph inputs are read through the same source reads (one memo: the graph runs
// on exactly the values the guards checked), and the finish gets its operands directly.
// Semantics are the walk's: the same guards in the same order, hits and graph-run counts, the
// finish with its write-backs, side effects and result. Split trees and eager nodes keep the walk.
import { Tensor } from '../../src/tensor/tensor.js';
import type { SymDim } from '../../src/tensor/shape.js';
import type { CompiledGraph } from '../../sot/function_graph.js';
import type { Template, TreeNode, WalkStats } from '../../sot/trace_tree.js';
import { checkJs, type Entry, type JsGuardSet, MISSING, resolveJs } from './guards.js';
import type { Finish, JsHost } from './split.js';

/** What the fast path needs of a root leaf (recorded when the leaf is made). */
export interface LeafPlan {
  readonly guards: JsGuardSet;
  readonly entryLength: number;
  readonly graph: CompiledGraph | null;
  readonly graphInputs: readonly Template[];
  /** Templates of the finish's tensor operands (graph outputs, entry tensors, bound constants). */
  readonly refs: readonly Template[];
  readonly finish: Finish;
}

const plans = new WeakMap<TreeNode, LeafPlan>();

export function setLeafPlan(node: TreeNode, plan: LeafPlan): void { plans.set(node, plan); }

/** Marks "no root holds" (a translation is needed) or "a root that is not a plain leaf": the walk decides. */
export const WALK = Symbol('walk');

/**
 * Runs the call on the first root whose guards hold, when every root before it (and it) is a
 * plain leaf; WALK otherwise. A guard whose read throws does not hold, as in the walk.
 */
export function runRootLeaf(roots: readonly TreeNode[], slots: readonly unknown[], pins: readonly unknown[], host: JsHost, stats: WalkStats): unknown {
  const entry: Entry = { slots, pins };
  for (const node of roots) {
    const plan = plans.get(node);
    if (!plan) return WALK;
    if (slots.length !== plan.entryLength) continue;
    const memo = new Map<string, unknown>();
    if (!guardsHold(plan.guards, entry, memo)) continue;
    node.hits++;
    let gouts: Tensor[] = [];
    if (plan.graph) {
      gouts = plan.graph.run(plan.graphInputs.map((t) => tensorOf(t, entry, memo, gouts)));
      stats.graphsRun++;
      stats.graphOpsRun += plan.graph.opCount;
    }
    const refs = plan.refs.map((t) => tensorOf(t, entry, memo, gouts));
    return host.runFinish(plan.finish, refs, slots);
  }
  return WALK;
}

function guardsHold(guards: JsGuardSet, entry: Entry, memo: Map<string, unknown>): boolean {
  let bindings: Map<SymDim, number> | null = null;
  try {
    for (const g of guards.list) {
      if (g.kind === 'tensor') bindings ??= new Map();
      if (!checkJs(g, resolveJs(g.source, entry, memo), bindings as Map<SymDim, number>)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function tensorOf(t: Template, entry: Entry, memo: Map<string, unknown>, gouts: readonly Tensor[]): Tensor {
  switch (t.k) {
    case 'gout': return gouts[t.i];
    case 'const': if (t.v.k === 'tensor') return t.v.t; break;
    case 'local': {
      const v = resolveJs(t.source, entry, memo);
      if (v === MISSING) throw new Error(`trace tree: ${t.source.key} is not in the entry`);
      if (!(v instanceof Tensor)) throw new Error(`trace tree: ${t.source.key} is not a tensor`);
      return v;
    }
    default: break;
  }
  throw new Error(`to_static: a ${t.k} template where a tensor is expected`);
}
