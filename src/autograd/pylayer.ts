// PyLayer (Paddle 2.6's paddle.autograd.PyLayer): a user-defined op whose forward runs under
// no_grad and whose outputs get one tape node; that node's "rule" calls the user's backward.
//
//   class Exp extends paddle.autograd.PyLayer {
//     static forward(ctx, x) { const y = paddle.exp(x); ctx.save_for_backward(y); return y; }
//     static backward(ctx, dy) { const [y] = ctx.saved_tensor(); return paddle.multiply(dy, y); }
//   }
//   const y = Exp.apply(x);
//
// recordPyLayer is the shared core: Python's PyLayer (compat/paddle/autograd.py, through
// frontend/python/bridge_autograd.ts) records its node with it, passing a backward that calls
// back into Python.
//
// Lifetimes: tensors saved with save_for_backward are private views (own native handles), so a
// user's dispose()/scope() cannot take them; the node releases them (and tells Python to drop its
// ctx) when its graph is freed after backward, or through a FinalizationRegistry if the graph is
// dropped unused.
import { runOp } from '../ops/dispatch.js';
import type { GradContext, OpDef } from '../ops/types.js';
import { isFloating } from '../tensor/dtype.js';
import { shapeStr } from '../tensor/shape.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { isGradEnabled, no_grad } from './mode.js';
import { AccumulateNode, edgeOf, type Edge, GradNode, tapeStats } from './node.js';

/** What a PyLayer's backward is called with; returns one gradient (or null) per Tensor input. */
export type PyBackward = (grads: (Tensor | null)[]) => unknown;

export interface PyLayerRecord {
  /** The PyLayer class name, for errors. */
  name: string;
  /** The forward's Tensor inputs, in argument order. */
  inputs: readonly Tensor[];
  outputs: readonly Tensor[];
  /** Outputs marked with ctx.mark_non_differentiable. */
  nonDifferentiable: ReadonlySet<Tensor>;
  /** ctx.set_materialize_grads (default true): missing output gradients are passed as zeros, not null. */
  materialize: boolean;
  backward: PyBackward;
  /** Called once when the node is freed (or collected): the ctx's saved state can go. */
  release: () => void;
  /** Called after backward's results were taken over (the bridge drops Python's extra references). */
  afterBackward?: () => void;
}

const finalizer = new FinalizationRegistry<() => void>((release) => release());

/** A tape node whose backward is a user's function (its def is made per PyLayer class call). */
class PyLayerNode extends GradNode {
  private releaseFn: (() => void) | null;
  constructor(def: OpDef, next: readonly (Edge | null)[], inputs: readonly Tensor[], outputs: readonly Tensor[], release: () => void) {
    super(def, {}, next, inputs, outputs);
    this.releaseFn = release;
    finalizer.register(this, release, this);
    tapeStats.liveNodes++;
  }

  override free(): void {
    if (this.freed) return;
    super.free();
    const r = this.releaseFn;
    this.releaseFn = null;
    if (r) { finalizer.unregister(this); tapeStats.liveNodes--; r(); }
  }
}

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * Attaches one tape node to `outputs` whose backward is rec.backward. Does nothing (but release)
 * when grad mode is off or no input wants gradients. Outputs that are inputs must have been
 * replaced by views first (a tensor cannot be both a leaf and the node's output).
 */
export function recordPyLayer(rec: PyLayerRecord): void {
  const wants = isGradEnabled() && rec.inputs.some((x) => !x.stop_gradient && isFloating(x.dtype));
  if (!wants) { rec.release(); return; }
  const def: OpDef = {
    name: rec.name,
    inputs: rec.inputs.map((_, i) => ({ name: `x${i}` })),
    attrs: [],
    outputs: rec.outputs.map((_, i) => `out${i}`),
    infer: () => { throw new Error(`${rec.name}: a PyLayer node is not an op`); },
    gradReads: {},
    grad: (<T>(ctx: GradContext<T>) => {
      const outs = ctx.outputs as unknown as Tensor[];
      const gs = (ctx.outGrads as unknown as (Tensor | null)[]).map((g, i) =>
        g ?? (rec.materialize ? runOp('full', [], { shape: [...outs[i].shape], fill_value: 0, dtype: outs[i].dtype })[0] as Tensor : null));
      try {
        return convertGrads(rec, rec.backward(gs), ctx.inputs as unknown as Tensor[]) as unknown as (T | null)[];
      } finally {
        rec.afterBackward?.();
      }
    }) as OpDef['grad'],
  };
  const next = rec.inputs.map((x) => (isFloating(x.dtype) ? edgeOf(x) : null));
  const node = untracked(() => new PyLayerNode(def, next, rec.inputs, rec.outputs, rec.release));
  rec.outputs.forEach((y, i) => {
    if (rec.nonDifferentiable.has(y) || !isFloating(y.dtype)) { y.stop_gradient = true; return; }
    y.stop_gradient = false;
    y._gradNode = { node, index: i };
  });
}

/** Checks what a user's backward returned (one Tensor or None per Tensor input, of its shape) and takes it over. */
function convertGrads(rec: PyLayerRecord, res: unknown, ins: readonly Tensor[]): (Tensor | null)[] {
  const n = ins.length;
  const list = res instanceof Tensor || res === null || res === undefined ? [res ?? null] : Array.isArray(res) ? res : [res];
  if (list.length !== n)
    throw new Error(`${rec.name}: backward returned ${list.length} gradient${list.length === 1 ? '' : 's'}, but forward had ${n} Tensor input${n === 1 ? '' : 's'} (return one gradient or None per Tensor input)`);
  return list.map((g, i) => {
    if (g === null || g === undefined) return null;
    if (!(g instanceof Tensor)) throw new TypeError(`${rec.name}: backward must return Tensors or None, got ${typeof g} for input ${i}`);
    if (!sameShape(g.shape, ins[i].shape))
      throw new Error(`${rec.name}: backward returned a gradient of shape ${shapeStr(g.shape)} for input ${i} of shape ${shapeStr(ins[i].shape)}`);
    // The engine disposes what a rule returns once delivered: hand it a tensor of its own, so a
    // gradient the user keeps (or returns twice, or passes through) survives. Under create_graph
    // a recorded copy keeps the result's history.
    return isGradEnabled() && !g.stop_gradient ? runOp('scale', [g], { scale: 1 })[0] as Tensor : view(g);
  });
}

/** A new tensor object on t's storage (own handle). */
function view(t: Tensor): Tensor {
  return t._alias('PyLayer');
}

/** The ctx a PyLayer's forward and backward share; any other attribute may be set on it. */
export class PyLayerContext {
  [attr: string]: unknown;
  /** Per Tensor input of the forward: whether it wants a gradient (PyTorch's name; cheap to give). */
  needs_input_grad: boolean[] = [];
  /** @internal */ _saved: Tensor[] = [];
  /** @internal */ _nonDiff = new Set<Tensor>();
  /** @internal */ _materialize = true;

  /** Keeps tensors for backward (private views: the caller may dispose its own). */
  save_for_backward(...tensors: Tensor[]): void {
    for (const t of this._saved) t.dispose();
    this._saved = untracked(() => tensors.flat().map((t) => {
      if (!(t instanceof Tensor)) throw new TypeError(`save_for_backward: expected Tensors, got ${typeof t}`);
      const v = view(t);
      // Under create_graph, ops backward runs on a saved tensor lead back to where t's gradients go.
      const e = edgeOf(t);
      if (e) { v.stop_gradient = false; if (e.node instanceof AccumulateNode) v._accNode = e.node; else v._gradNode = e; }
      return v;
    }));
  }

  /** The tensors given to save_for_backward, in order. */
  saved_tensor(): Tensor[] { return [...this._saved]; }

  /** These outputs get no gradient (stop_gradient=True); backward still receives a (zero) slot for them. */
  mark_non_differentiable(...tensors: Tensor[]): void { for (const t of tensors.flat()) this._nonDiff.add(t); }

  /** With false, backward receives null (not zeros) for outputs that got no gradient. */
  set_materialize_grads(value: boolean): void { this._materialize = Boolean(value); }

  /** @internal */ _release(): void { for (const t of this._saved) t.dispose(); this._saved = []; }
}

/**
 * Base class of user-defined ops. Subclasses define static forward(ctx, ...args) and static
 * backward(ctx, ...grads) and are called as MyLayer.apply(...args).
 */
export class PyLayer {
  static forward(_ctx: PyLayerContext, ..._args: unknown[]): unknown {
    throw new Error(`${this.name}: a PyLayer subclass must define static forward(ctx, ...args)`);
  }

  static backward(_ctx: PyLayerContext, ..._grads: (Tensor | null)[]): unknown {
    throw new Error(`${this.name}: a PyLayer subclass must define static backward(ctx, ...grads)`);
  }

  static apply(...args: unknown[]): any {
    const name = this.name || 'PyLayer';
    const ctx = new PyLayerContext();
    const inputs = args.filter((a): a is Tensor => a instanceof Tensor);
    ctx.needs_input_grad = inputs.map((x) => isGradEnabled() && !x.stop_gradient && isFloating(x.dtype));
    let result: unknown;
    try {
      result = no_grad(() => this.forward(ctx, ...args));
    } catch (e) {
      ctx._release();  // saved views are owned by ctx alone
      throw e;
    }
    const single = !Array.isArray(result);
    // An input returned as is becomes a view: the node's output cannot be the input itself.
    const swapped = new Map<Tensor, Tensor>();
    const outs = (single ? [result] : [...(result as unknown[])]).map((o) => {
      if (!(o instanceof Tensor) || !inputs.includes(o)) return o;
      const v = view(o);
      swapped.set(o, v);
      return v;
    });
    const tensors = outs.filter((o): o is Tensor => o instanceof Tensor);
    const nonDiff = new Set([...ctx._nonDiff].map((t) => swapped.get(t) ?? t));
    const cls = this;
    recordPyLayer({
      name, inputs, outputs: tensors, nonDifferentiable: nonDiff, materialize: ctx._materialize,
      backward: (grads) => cls.backward(ctx, ...grads),
      release: () => ctx._release(),
    });
    return single ? outs[0] : outs;
  }
}
