// The function graph for JavaScript translation. It is sot's FunctionGraph, plus what running
// Skiff's own TS library code on symbolic tensors needs: eager tensors an op meets (layer
// parameters, scalars made by promotion) are bound as constant graph inputs, ops with no
// symbolic input run eagerly (their result is a constant of this translation), and the
// running-statistics update of batch_norm in training, which eager code performs on the real
// buffers, becomes a write-back after the graph (functionalized).
import { runOpDef, setStaticRecorder, type TensorLike } from '../../src/ops/dispatch.js';
import { eagerly } from '../../src/static/mode.js';
import { surface } from '../../src/ops/index.js';
import { getOp } from '../../src/ops/registry.js';
import type { Attrs, OpDef, TensorMeta } from '../../src/ops/types.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { FunctionGraph, SymTensor } from '../../sot/function_graph.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import { constSource } from '../../sot/sources.js';

export { eagerly };

/** An eager tensor the graph writes after it runs (from graph value `value`). */
export interface TensorWrite { readonly target: Tensor; readonly value: SymTensor }

export class JsGraph extends FunctionGraph {
  /** Eager tensors bound as constant inputs, by constant index. */
  readonly bound: Tensor[] = [];
  private boundIds = new Map<Tensor, SymTensor>();
  readonly writes: TensorWrite[] = [];

  /** The graph input standing for eager tensor t (once per tensor). */
  bind(t: Tensor): SymTensor {
    const hit = this.boundIds.get(t);
    if (hit) return hit;
    const s = this.input(constSource(this.bound.length), { dtype: t.dtype, shape: t.shape, stop_gradient: t.stop_gradient });
    this.bound.push(t);
    this.boundIds.set(t, s);
    return s;
  }

  override record(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs, outs: TensorMeta[]): TensorLike[] {
    // Ops without tensor inputs (creation: zeros, full, scalars made by promotion) run now and
    // their result is a constant of this translation. An op on eager tensors only (a built-in
    // layer combining its own parameters) is recorded with them bound, so later calls see
    // updated parameter values and gradients reach them.
    if (inputs.every((x) => x === null)) {
      // A random op computed once here would freeze its sample into every later call.
      if (def.random) throw new GraphBreak('SOT010', `${def.name} has no symbolic input; its sample would be frozen into the graph`);
      return eagerly(() => runOpDef(def, inputs, attrs));
    }
    const mapped = inputs.map((x) => {
      if (x === null || x instanceof SymTensor) {
        if (x && x.graph !== this) throw new GraphBreak('SOT007', `${def.name}: a tensor of another translation reached this graph`);
        return x;
      }
      if (x instanceof Tensor) return this.bind(x);
      throw new GraphBreak('SOT007', `${def.name}: an input is neither a tensor nor a graph value`);
    });
    const updates = def.name === 'batch_norm' && attrs.training === true && attrs.use_global_stats !== true;
    if (updates) {
      // As batch_norm_api does eagerly: the op reads copies of the running statistics. Run op by
      // op, the tape saves inputs 1 and 2, and the write-back after the graph would bump the
      // buffers' versions and make backward refuse them.
      for (const k of [1, 2]) {
        const m = mapped[k];
        if (inputs[k] instanceof Tensor && m instanceof SymTensor) {
          mapped[k] = (super.record(getOp('scale'), [m], { scale: 1, bias: 0, bias_after_scale: true }, [{ dtype: m.dtype, shape: m.shape }]) as SymTensor[])[0];
        }
      }
    }
    const results = super.record(def, mapped, attrs, outs) as SymTensor[];
    // batch_norm_api updates the running statistics of eager inputs in place; with a symbolic
    // input it cannot, so the update is recorded here and replayed after the graph.
    if (updates) {
      const rm = inputs[1], rv = inputs[2];
      if (rm instanceof Tensor && rv instanceof Tensor) this.writes.push({ target: rm, value: results[1] }, { target: rv, value: results[2] });
    }
    return results;
  }
}

// Library code written for eager tensors calls Tensor methods on its inputs (x.matmul(w)); the
// registry's methods are pure functions of their arguments, so symbolic tensors get them too
// (as paddle.static's Value does). Hand-written Tensor members (item, numpy, handle) are not
// installed: reaching one on a symbolic tensor raises, and the translation falls back.
let installed = false;
export function installSymMethods(): void {
  if (installed) return;
  installed = true;
  const proto = SymTensor.prototype as unknown as Record<string, unknown>;
  for (const [m, fn] of surface.methods) {
    if (m in proto) continue;
    // An inplace variant inside library code cannot be functionalized there (the caller keeps
    // the old value): refuse it, the translation falls back.
    const inplace = m.endsWith('_') && surface.methods.has(m.slice(0, -1));
    const value = inplace
      ? function (): never { throw new GraphBreak('SOT007', `${m}() on a symbolic tensor inside library code`); }
      : function (this: SymTensor, ...args: unknown[]) { return fn(this, ...args); };
    Object.defineProperty(proto, m, { value, writable: true, configurable: true });
  }
}
