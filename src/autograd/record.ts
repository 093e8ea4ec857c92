// Recording: the AutogradHook dispatch calls after every eager op. An op is recorded only in
// grad mode and when some input wants gradients; its floating outputs then want gradients too
// and point at the new node. Integer/bool outputs (argmax, comparisons, masks) never do.
import { native } from '../native.js';
import { runOp, setAutogradHook } from '../ops/dispatch.js';
import type { Attrs, OpDef } from '../ops/types.js';
import { isFloating } from '../tensor/dtype.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { isGradEnabled, setGradEnabled } from './mode.js';
import { edgeOf, type Edge, GradNode } from './node.js';

/** Ops that read only their input's shape/dtype: outputs never want gradients (as in Paddle). */
const SHAPE_ONLY = new Set(['zeros_like', 'ones_like', 'full_like', 'empty_like', 'shape', 'numel', 'rand_like', 'randn_like', 'randint_like']);

function onOp(def: OpDef, inputs: readonly (Tensor | null)[], attrs: Attrs, outputs: Tensor[]): void {
  if (!isGradEnabled() || SHAPE_ONLY.has(def.name)) return;
  let any = false;
  for (const x of inputs) if (x && !x.stop_gradient) { any = true; break; }
  if (!any) return;
  let diff = false;
  for (const y of outputs) if (isFloating(y.dtype)) { diff = true; break; }
  if (!diff) return;
  // Edges are read before outputs are marked: an inplace op's output is its own input.
  const next: (Edge | null)[] = inputs.map((x) => (x && isFloating(x.dtype) ? edgeOf(x) : null));
  const node = new GradNode(def, attrs, next, inputs, outputs);
  outputs.forEach((y, i) => {
    if (!isFloating(y.dtype)) return;
    y.stop_gradient = false;
    y._gradNode = { node, index: i };
  });
}

/**
 * Inplace ops (x.add_(y), x.relu_()): x's old edge is captured and, when the rule reads x's value,
 * a copy of its old value is saved before the kernel overwrites it; after the write x points at
 * the new node, so later uses differentiate through the inplace op. As in Paddle, a leaf that
 * wants gradients cannot be written in place.
 */
function beforeInplace(def: OpDef, inputs: readonly (Tensor | null)[], attrs: Attrs): ((x: Tensor) => void) | null {
  if (!isGradEnabled() || SHAPE_ONLY.has(def.name)) return null;
  const x = inputs[0]!;
  checkInplace(`${def.name}_`, x);
  if (!inputs.some((t) => t && !t.stop_gradient) || !isFloating(x.dtype)) return null;
  const next: (Edge | null)[] = inputs.map((t) => (t && isFloating(t.dtype) ? edgeOf(t) : null));
  // Inputs the rule reads that live in x's storage (x itself, x.detach(), views of x) would be
  // read after the write: their old values are copied first.
  const reads = (i: number) => !def.gradReads || (def.gradReads.inputs?.includes(i) ?? false);
  const xh = x.h(def.name);
  const copies = new Map<number, Tensor>();
  const prev = setGradEnabled(false);
  try {
    inputs.forEach((t, i) => {
      if (t && reads(i) && (t === x || native.sameStorage(t.h(def.name), xh))) copies.set(i, untracked(() => runOp('scale', [t], { scale: 1 })[0] as Tensor));
    });
  } finally { setGradEnabled(prev); }
  return (xt) => {
    try {
      const node = new GradNode(def, attrs, next, inputs.map((t, i) => copies.get(i) ?? t), [xt]);
      xt.stop_gradient = false;
      xt._gradNode = { node, index: 0 };
    } finally {
      for (const c of copies.values()) c.dispose();  // the node keeps its own handles on the copies
    }
  };
}

/** As in Paddle, a leaf that wants gradients cannot be written in place (in grad mode). */
function checkInplace(name: string, x: Tensor): void {
  if (isGradEnabled() && !x.stop_gradient && !x._gradNode)
    throw new Error(`${name}: Leaf Var (${x.name}) that doesn't stop gradient can't use inplace strategy.`);
}

/** Installs the recorder (idempotent; src/autograd/index.ts does it on import). */
export function installTape(): void { setAutogradHook({ onOp, beforeInplace, checkInplace }); }
