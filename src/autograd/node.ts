// The tape's nodes. Every recorded op becomes a GradNode holding its rule's inputs: the edges to
// the nodes that produced its inputs, and private views (own native handles on the same storage)
// of the inputs and outputs the rule reads. Owning handles means a user's dispose() or scope()
// cannot pull data out from under backward; the node releases them when its graph is freed
// (after backward unless retain_graph), or, if the graph is simply dropped, through a
// FinalizationRegistry holding only the handle numbers (never the node).
//
// A leaf that wants gradients (stop_gradient=false, no producer) is reached through its
// AccumulateNode, so every differentiable tensor has one Edge and saved copies of a leaf route
// their gradients to the leaf itself (this is what makes create_graph work on leaves).
import { native } from '../native.js';
import type { Attrs, OpDef } from '../ops/types.js';
import { Tensor, untracked } from '../tensor/tensor.js';

export type Hook = (grad: Tensor) => Tensor | null | undefined | void;

export class AccumulateNode {
  readonly hooks: Hook[] = [];
  constructor(readonly tensor: Tensor) {}
}

/** Where a tensor's gradient goes: output `index` of node, or a leaf's accumulator. */
export interface Edge { readonly node: GradNode | AccumulateNode; readonly index: number }

const released = new FinalizationRegistry<number[]>((hs) => { for (const h of hs) native.release(h); });

/** Counts nodes still holding saved tensors (tests check the tape frees them). */
export const tapeStats = { liveNodes: 0 };

export class GradNode {
  /** Saved views of the op's inputs (null: absent optional input) and outputs. */
  savedIn: (Tensor | null)[] = [];
  savedOut: Tensor[] = [];
  /** Version of each input when recorded: an inplace write since then makes the saved value stale. */
  private readonly versions: number[];
  private readonly sources: (Tensor | null)[];
  /** The same for outputs the rule reads (weakly: a dropped output can no longer be written). */
  private readonly outSources: (WeakRef<Tensor> | null)[];
  private readonly outVersions: number[];
  /** Hooks and retained-grad tensors per output (registered on non-leaf tensors). */
  hooks: Hook[][] | null = null;
  retained: (WeakRef<Tensor> | null)[] | null = null;
  freed = false;
  /** The node owns native handles (saved tensors) to release. */
  private holds = false;
  /** Number of outputs (split/unbind have as many as their attributes say). */
  readonly nOut: number;

  constructor(
    readonly def: OpDef,
    readonly attrs: Attrs,
    /** One edge per input (null: no gradient wanted there). */
    readonly next: readonly (Edge | null)[],
    inputs: readonly (Tensor | null)[],
    outputs: readonly Tensor[],
  ) {
    const handles: number[] = [];
    const reads = def.gradReads;
    const readsIn = (i: number) => !reads || (reads.inputs?.includes(i) ?? false);
    const readsOut = (i: number) => !reads || (reads.outputs?.includes(i) ?? false);
    untracked(() => {
      this.savedIn = inputs.map((x, i) => {
        if (!x) return null;
        if (!readsIn(i)) return metaOnly(x);
        const c = savedCopy(x, handles);
        // Gradients flowing into this copy (create_graph) go where the input's would.
        const e = next[i];
        if (e) { c.stop_gradient = false; if (e.node instanceof AccumulateNode) c._accNode = e.node; else c._gradNode = e; }
        return c;
      });
      this.savedOut = outputs.map((y, i) => (readsOut(i) ? savedCopy(y, handles) : metaOnly(y)));
    });
    this.nOut = outputs.length;
    this.versions = inputs.map((x) => (x ? x._version : 0));
    // Only inputs whose values the rule reads can be made stale by an inplace write.
    this.sources = inputs.map((x, i) => (x && readsIn(i) ? x : null));
    this.outSources = outputs.map((y, i) => (readsOut(i) ? new WeakRef(y) : null));
    this.outVersions = outputs.map((y) => y._version);
    // Registering costs ~1 µs; nodes that saved nothing (add, reshape, ...) need no backstop.
    this.holds = handles.length > 0;
    if (this.holds) { released.register(this, handles, this); tapeStats.liveNodes++; }
  }

  /** Throws if an input was modified in place after it was recorded (Paddle's inplace version check). */
  checkVersions(): void {
    this.sources.forEach((x, i) => {
      if (x && x._version !== this.versions[i])
        throw new Error(`${this.def.name}: input ${i} (${x.name}) needed for gradient computation has been modified by an inplace operation (version ${this.versions[i]} when recorded, ${x._version} now)`);
    });
    this.outSources.forEach((r, i) => {
      const y = r?.deref();
      if (y && y._version !== this.outVersions[i])
        throw new Error(`${this.def.name}: output ${i} (${y.name}) needed for gradient computation has been modified by an inplace operation (version ${this.outVersions[i]} when recorded, ${y._version} now)`);
    });
  }

  /** Releases the saved tensors; a later backward through this node raises. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    if (this.holds) { released.unregister(this); tapeStats.liveNodes--; }
    for (const t of this.savedIn) if (t instanceof Tensor) t.dispose();
    for (const t of this.savedOut) if (t instanceof Tensor) t.dispose();
    this.savedIn = [];
    this.savedOut = [];
    this.sources.fill(null);
    this.outSources.fill(null);
  }

  addHook(index: number, h: Hook): () => void {
    this.hooks ??= Array.from({ length: this.nOut }, () => []);
    const list = (this.hooks[index] ??= []);
    list.push(h);
    return () => { const k = list.indexOf(h); if (k >= 0) list.splice(k, 1); };
  }
}

/**
 * What a rule sees of a tensor whose values it does not read (OpDef.gradReads): dtype and shape.
 * Handing one to an op fails loudly (dispatch takes it for a symbolic value outside a program).
 */
function metaOnly(x: Tensor): Tensor {
  return { dtype: x.dtype, shape: [...x.shape] } as unknown as Tensor;
}

/** A tensor on the same storage with its own handle, owned by the node (created untracked). */
function savedCopy(x: Tensor, handles: number[]): Tensor {
  const h = native.view(x.h('autograd'), x.shape, x.strides, x.offset);
  handles.push(h);
  return new Tensor(h, x.dtype, [...x.shape], [...x.strides], x.offset);
}

/** The edge gradients of t flow into, or null when t does not want gradients. */
export function edgeOf(t: Tensor): Edge | null {
  if (t.stop_gradient) return null;
  const e = t._gradNode as Edge | null;
  if (e) return e;
  const acc = (t._accNode ??= new AccumulateNode(t)) as AccumulateNode;
  return { node: acc, index: 0 };
}
