// The backward pass: walks the tape from the roots in topological order, calls each node's grad
// rule on the summed gradients of its outputs, and delivers gradients to leaves (.grad) or, for
// paddle.grad, to the requested inputs.
//
// Lifetimes: the pass runs inside untracked(scope(...)), so every temporary it makes is disposed
// at the end and none lands in a user's scope; intermediate gradients are also disposed as soon
// as their node has consumed them. What escapes (leaf .grad, retained grads, paddle.grad's
// results) is handed to the GC backstop, or stays in its leaf. Saved tensors are released node by
// node unless retain_graph.
import { native } from '../native.js';
import { runOp } from '../ops/dispatch.js';
import type { GradOps } from '../ops/grad_kit.js';
import type { GradContext } from '../ops/types.js';
import { shapeStr } from '../tensor/shape.js';
import { scope, Tensor, untracked } from '../tensor/tensor.js';
import { setGradEnabled } from './mode.js';
import { AccumulateNode, type Edge, edgeOf, GradNode, type Hook } from './node.js';

export const eagerOps: GradOps<Tensor> = {
  run: (name, ins, attrs) => runOp(name, ins, attrs ?? {}) as Tensor[],
  meta: (t) => t,
};

export interface BackwardOptions { retainGraph: boolean; createGraph: boolean }

type Target = GradNode | AccumulateNode;

/** Reference counts of gradients sitting in buffers, so each is disposed once nothing reads it. */
class GradPool {
  private refs = new Map<Tensor, number>();
  /** Tensors made by this pass (never a user's tensor from a hook or grad_outputs). */
  readonly owned = new Set<Tensor>();
  readonly kept = new Set<Tensor>();
  hold(t: Tensor): void { this.refs.set(t, (this.refs.get(t) ?? 0) + 1); }
  drop(t: Tensor): void {
    const n = (this.refs.get(t) ?? 1) - 1;
    if (n > 0) { this.refs.set(t, n); return; }
    this.refs.delete(t);
    if (this.owned.has(t) && !this.kept.has(t)) t.dispose();
  }
}

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

function runHooks(hooks: readonly Hook[] | undefined, g: Tensor): Tensor {
  if (!hooks) return g;
  for (const h of [...hooks]) {
    const r = h(g);
    if (r instanceof Tensor) {
      if (!sameShape(r.shape, g.shape)) throw new Error(`register_hook: the hook returned a gradient of shape ${shapeStr(r.shape)} for a tensor of shape ${shapeStr(g.shape)}`);
      g = r;
    }
  }
  return g;
}

/** Paddle accumulates into .grad in place, so references to x.grad see later backward passes. */
function accumulateInto(holder: Tensor, g: Tensor, createGraph: boolean, pool: GradPool): void {
  const old = holder.grad;
  if (old && !old.isDisposed && !createGraph && old.stop_gradient && sameShape(old.shape, g.shape) && old.dtype === g.dtype) {
    native.run(native.kernelId('add'), [old.h('backward'), g.h('backward')], [old.h('backward')], []);
    old._version++;
    return;
  }
  // First gradient (or create_graph): an own copy, so a later in-place sum never writes into a
  // tensor someone else holds (a hook's result, another leaf's identical gradient).
  const fresh = old && !old.isDisposed ? runOp('add', [old, g])[0] as Tensor : runOp('scale', [g], { scale: 1 })[0] as Tensor;
  pool.kept.add(fresh);
  holder.grad = fresh;
}

const freedError = (op: string) => new Error(
  `backward: trying to backward through the graph a second time: the tensors op '${op}' saved for backward were released by the previous backward. ` +
  'Pass retain_graph=True to the first backward (or paddle.grad) to backward through the graph more than once.');

/**
 * Runs backward from roots. With targets (paddle.grad) returns the gradient of each target (null
 * if unreached) and leaves .grad alone; without, accumulates into every reached leaf's .grad.
 */
export function runBackward(roots: readonly Tensor[], rootGrads: readonly (Tensor | null)[], opts: BackwardOptions,
  targets: readonly Tensor[] | null = null): (Tensor | null)[] {
  const rootEdges = roots.map((r, i) => {
    const e = edgeOf(r);
    if (!e) throw new Error(`backward: output ${i} (${r.name}) has stop_gradient=True, so there is no graph to backward through`);
    return e;
  });
  const prev = setGradEnabled(opts.createGraph);
  try {
    const results = untracked(() => scope(() => pass(roots, rootEdges, rootGrads, opts, targets)));
    for (const t of results) if (t) t._adoptByGC();
    return results;
  } finally {
    setGradEnabled(prev);
  }
}

function pass(roots: readonly Tensor[], rootEdges: readonly Edge[], rootGrads: readonly (Tensor | null)[], opts: BackwardOptions,
  targets: readonly Tensor[] | null): (Tensor | null)[] {
  const order = topoOrder(rootEdges);
  const targetEdges = targets ? targets.map((t) => edgeOf(t)) : null;
  const targetNodes = new Set<Target>();
  for (const e of targetEdges ?? []) if (e) targetNodes.add(e.node);
  const needed = targets ? neededNodes(order, targetNodes) : null;
  const wants = (e: Edge | null): boolean => !!e && (!needed || targetNodes.has(e.node) || (e.node instanceof GradNode && needed.has(e.node)));

  const pool = new GradPool();
  const buffers = new Map<GradNode, (Tensor | null)[]>();
  const accBuffers = new Map<AccumulateNode, Tensor>();
  const captured = new Map<Target, (Tensor | null)[]>();
  const deliver = (e: Edge, g: Tensor): void => {
    if (e.node instanceof AccumulateNode) {
      const old = accBuffers.get(e.node);
      pool.hold(g);
      if (old) { const s = runOp('add', [old, g])[0] as Tensor; pool.owned.add(s); pool.hold(s); pool.drop(old); pool.drop(g); g = s; }
      accBuffers.set(e.node, g);
      return;
    }
    let buf = buffers.get(e.node);
    if (!buf) buffers.set(e.node, (buf = new Array<Tensor | null>(e.node.nOut).fill(null)));
    const old = buf[e.index];
    pool.hold(g);
    if (old) { const s = runOp('add', [old, g])[0] as Tensor; pool.owned.add(s); pool.hold(s); pool.drop(old); pool.drop(g); g = s; }
    buf[e.index] = g;
  };

  roots.forEach((r, i) => {
    let g = rootGrads[i];
    if (g) {
      if (!sameShape(g.shape, r.shape)) throw new Error(`backward: grad_tensor of shape ${shapeStr(g.shape)} does not match tensor of shape ${shapeStr(r.shape)}`);
      if (g.dtype !== r.dtype) { g = runOp('cast', [g], { dtype: r.dtype })[0] as Tensor; pool.owned.add(g); }
    } else {
      g = runOp('ones_like', [r])[0] as Tensor;
      pool.owned.add(g);
    }
    deliver(rootEdges[i], g);
  });

  for (const n of order) {
    const gs = buffers.get(n) ?? null;
    buffers.delete(n);
    if (gs) {
      gs.forEach((g, i) => {
        if (!g) return;
        const h = runHooks(n.hooks?.[i], g);
        if (h !== g) { pool.hold(h); pool.drop(g); gs[i] = h; }
        const kept = n.retained?.[i]?.deref();
        if (kept && !targets) accumulateInto(kept, gs[i]!, opts.createGraph, pool);
      });
      if (targetNodes.has(n)) { captured.set(n, [...gs]); for (const g of gs) if (g) pool.kept.add(g); }
    }
    const run = gs && (!needed || needed.has(n));
    if (run) {
      if (n.freed) throw freedError(n.def.name);
      if (!n.def.grad) throw new Error(`${n.def.name}: no gradient rule is defined for this op yet, so backward cannot pass through it (mark its inputs stop_gradient=True or compute it under paddle.no_grad)`);
      n.checkVersions();
      const needsGrad = n.next.map(wants);
      const ctx: GradContext<Tensor> = { inputs: n.savedIn, outputs: n.savedOut, outGrads: gs, attrs: n.attrs, needsGrad };
      // Under create_graph the rule's ops are recorded; saved outputs then lead back to this node.
      if (opts.createGraph) n.savedOut.forEach((y, i) => { y.stop_gradient = false; y._gradNode = { node: n, index: i }; });
      let ins: (Tensor | null)[];
      try {
        ins = n.def.grad(ctx, eagerOps);
      } finally {
        if (opts.createGraph) for (const y of n.savedOut) { y._gradNode = null; y.stop_gradient = true; }
      }
      const fromCtx = new Set<Tensor>([...gs.filter((g): g is Tensor => g !== null), ...n.savedIn.filter((x): x is Tensor => x !== null), ...n.savedOut]);
      n.next.forEach((e, i) => {
        let g = ins[i];
        if (!e || !g || !needsGrad[i]) return;
        const x = n.savedIn[i]!;
        if (!sameShape(g.shape, x.shape)) throw new Error(`${n.def.name}: gradient rule returned shape ${shapeStr(g.shape)} for input ${i} of shape ${shapeStr(x.shape)}`);
        if (!fromCtx.has(g)) pool.owned.add(g);
        if (g.dtype !== x.dtype) { g = runOp('cast', [g], { dtype: x.dtype })[0] as Tensor; pool.owned.add(g); }
        deliver(e, g);
      });
      for (const g of ins) if (g && !fromCtx.has(g) && !pool.owned.has(g)) g.dispose();  // rule results nobody wanted
    }
    if (gs) for (const g of gs) if (g) pool.drop(g);
    if (!opts.retainGraph) n.free();
  }

  for (const [acc, g0] of accBuffers) {
    const g = runHooks(acc.hooks, g0);
    if (targetNodes.has(acc)) { captured.set(acc, [g]); pool.kept.add(g); continue; }
    if (!targets) accumulateInto(acc.tensor, g, opts.createGraph, pool);
  }

  if (!targetEdges) return [...pool.kept];
  return targetEdges.map((e) => (e ? captured.get(e.node)?.[e.index] ?? null : null));
}

/** Nodes reachable from the roots, each after every node that sends it gradients (Kahn's order). */
function topoOrder(rootEdges: readonly Edge[]): GradNode[] {
  const deps = new Map<GradNode, number>();
  const stack: GradNode[] = [];
  const seen = new Set<GradNode>();
  for (const e of rootEdges) if (e.node instanceof GradNode && !seen.has(e.node)) { seen.add(e.node); stack.push(e.node); }
  while (stack.length) {
    const n = stack.pop()!;
    for (const e of n.next) {
      if (!e || !(e.node instanceof GradNode)) continue;
      deps.set(e.node, (deps.get(e.node) ?? 0) + 1);
      if (!seen.has(e.node)) { seen.add(e.node); stack.push(e.node); }
    }
  }
  const order: GradNode[] = [];
  const ready = [...seen].filter((n) => !deps.get(n));
  while (ready.length) {
    const n = ready.pop()!;
    order.push(n);
    for (const e of n.next) {
      if (!e || !(e.node instanceof GradNode)) continue;
      const d = deps.get(e.node)! - 1;
      deps.set(e.node, d);
      if (d === 0) ready.push(e.node);
    }
  }
  return order;
}

/** Nodes whose rule must run for paddle.grad: those with a target somewhere upstream. */
function neededNodes(order: readonly GradNode[], targets: ReadonlySet<Target>): Set<GradNode> {
  const needed = new Set<GradNode>();
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    if (n.next.some((e) => !!e && (targets.has(e.node) || (e.node instanceof GradNode && needed.has(e.node))))) needed.add(n);
  }
  return needed;
}
