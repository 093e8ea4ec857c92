// The function graph: tensor work recorded while translating one trace-tree segment.
// It is the StaticRecorder of src/ops while the translator calls ops, so API binding, dtype
// promotion and infer-meta are exactly eager's. Inputs are keyed by their source (a tensor
// read twice is one input).
import { isGradEnabled } from '../src/autograd/index.js';
import { getOp } from '../src/ops/registry.js';
import { setStaticRecorder, type StaticRecorder, type TensorLike } from '../src/ops/dispatch.js';
import type { Attrs, OpDef, TensorMeta } from '../src/ops/types.js';
import type { DType } from '../src/tensor/dtype.js';
import type { Shape } from '../src/tensor/shape.js';
import { scope, Tensor } from '../src/tensor/tensor.js';
import { activeCollector, profileGraph } from '../src/profiler/profiler.js';
import { GraphBreak } from './graph_breaks.js';
import { runForTraining } from './graph_training.js';
import type { Source } from './sources.js';
import { type GraphRegion, interpretNodes } from './control_flow_graph.js';
import type { PyLayerSpec } from './pylayer_graph.js';

export class SymTensor implements TensorLike {
  constructor(readonly id: number, readonly dtype: DType, readonly shape: Shape, readonly graph: FunctionGraph, public stop_gradient = true) {}
  get ndim(): number { return this.shape.length; }
}

export interface GraphNode {
  readonly def: OpDef;
  readonly inputs: readonly (number | null)[];
  readonly attrs: Attrs;
  readonly outputs: readonly number[];
  /**
   * Its outputs pass values, never gradients: Tensor.detach() (an identity op), or an op recorded
   * inside a simulated `paddle.no_grad()` block (FunctionGraph.noGrad).
   */
  readonly detach?: boolean;
  /** Control flow (if / while, sot/control_flow_graph.ts): its regions; inputs past `nOperands` are captures. */
  readonly regions?: readonly GraphRegion[];
  readonly nOperands?: number;
  /** A captured PyLayer (sot/pylayer_graph.ts): identity on forward's outputs, backward through a host call. */
  readonly pylayer?: PyLayerSpec;
}

export class FunctionGraph implements StaticRecorder {
  /** Ops recorded now are inside `with paddle.no_grad()`: their outputs want no gradient. */
  noGrad = false;
  readonly values: TensorMeta[] = [];
  readonly inputs: { value: number; source: Source }[] = [];
  readonly nodes: GraphNode[] = [];
  private bySource = new Map<string, SymTensor>();

  /** The graph input for a tensor found at `source` (created once per source). */
  input(source: Source, meta: { dtype: DType; shape: Shape; stop_gradient: boolean }): SymTensor {
    const hit = this.bySource.get(source.key);
    if (hit) return hit;
    const s = this.newValue(meta.dtype, meta.shape, meta.stop_gradient);
    this.inputs.push({ value: s.id, source });
    this.bySource.set(source.key, s);
    return s;
  }

  newValue(dtype: DType, shape: Shape, stopGradient = true): SymTensor {
    this.values.push({ dtype, shape });
    return new SymTensor(this.values.length - 1, dtype, shape, this, stopGradient);
  }

  record(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs, outs: TensorMeta[]): TensorLike[] {
    // Compiled graphs plan buffers from shapes; a data-dependent shape (OpDef.dynamicShape) runs eagerly.
    if (def.dynamicShape) throw new GraphBreak('SOT011', `${def.name} has a data-dependent output shape`);
    const ids = inputs.map((x) => {
      if (x === null) return null;
      if (!(x instanceof SymTensor) || x.graph !== this) throw new Error(`${def.name}: an input is not part of the graph being captured`);
      return x.id;
    });
    const inputsStop = inputs.every((x) => x === null || (x as SymTensor).stop_gradient);
    const results = outs.map((m) => this.newValue(m.dtype, m.shape, inputsStop || this.noGrad));
    this.nodes.push({ def, inputs: ids, attrs, outputs: results.map((r) => r.id), ...(this.noGrad && !inputsStop ? { detach: true } : {}) });
    return results;
  }

  /** x.detach(): the same values as a value that wants no gradient (an identity node marked `detach`). */
  detach(x: SymTensor): SymTensor {
    const def = getOp('scale');
    const attrs = { scale: 1, bias: 0, bias_after_scale: true };
    def.infer([x], attrs);   // the identity must take x's dtype (a GraphBreak otherwise, from the caller)
    const out = this.newValue(x.dtype, x.shape, true);
    this.nodes.push({ def, inputs: [x.id], attrs, outputs: [out.id], detach: true });
    return out;
  }

  /** Runs fn with this graph as the op recorder (ops on SymTensors are recorded, not run). */
  recording<R>(fn: () => R): R {
    const prev = setStaticRecorder(this);
    try {
      return fn();
    } finally {
      setStaticRecorder(prev);
    }
  }

  get opCount(): number { return this.nodes.length; }

  /** Freezes the graph with the given outputs (dead nodes are dropped). */
  compile(outputs: readonly SymTensor[]): CompiledGraph {
    const live = new Set(outputs.map((o) => o.id));
    const kept: GraphNode[] = [];
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i];
      if (n.def.random || n.outputs.some((o) => live.has(o))) {
        kept.push(n);
        for (const x of n.inputs) if (x !== null) live.add(x);
      }
    }
    kept.reverse();
    return new CompiledGraph(this.values, this.inputs.filter((i) => live.has(i.value) || outputs.some((o) => o.id === i.value)), kept, outputs.map((o) => o.id));
  }
}

/** Runner chosen for compiled graphs; the executor installs itself here (src/executor). */
export interface GraphRunner {
  run(graph: CompiledGraph, inputs: readonly Tensor[]): Tensor[];
}

let runner: GraphRunner | null = null;
export function setGraphRunner(r: GraphRunner | null): void { runner = r; }

export class CompiledGraph {
  /** Per-runner cache (a lowered program, a plan). */
  runnerState: unknown = null;
  /** Graphs below MIN_GRAPH_SIZE run op by op (Paddle's rule: compiling tiny graphs does not pay). */
  opByOp = false;
  /** What the profiler and the graph viewer call this graph (the translated function, set by the runtime). */
  name = 'graph';
  constructor(
    readonly values: readonly TensorMeta[],
    readonly inputs: readonly { value: number; source: Source }[],
    readonly nodes: readonly GraphNode[],
    readonly outputs: readonly number[],
  ) {}

  get opCount(): number { return this.nodes.length; }

  run(inputs: readonly Tensor[]): Tensor[] {
    // One profiler row per graph run (its ops are not counted again as eager ops).
    if (activeCollector() !== null) return profileGraph(this.name, this.opCount, () => this.runUnprofiled(inputs));
    return this.runUnprofiled(inputs);
  }

  private runUnprofiled(inputs: readonly Tensor[]): Tensor[] {
    if (runner && !this.opByOp) {
      // Inputs that want gradients (parameters in training): the forward on the executor as one
      // tape node whose backward is the graph's PIR-autodiff backward program (graph_training.ts).
      if (isGradEnabled() && inputs.some((t) => !t.stop_gradient)) {
        const outs = runForTraining(this, inputs);
        if (outs) return outs;
      }
      return runner.run(this, inputs);
    }
    return this.interpret(inputs);
  }

  /** Reference runner: the recorded ops, eagerly, one by one (also the oracle for the executor). */
  interpret(inputs: readonly Tensor[]): Tensor[] {
    return scope(() => {
      const env = new Map<number, Tensor>();
      this.inputs.forEach((inp, i) => env.set(inp.value, inputs[i]));
      interpretNodes(this.nodes, env);
      return this.outputs.map((o) => env.get(o)!);
    });
  }

  /** Readable listing for SOT_LOG_LEVEL and explain(). */
  describe(): string {
    const v = (i: number | null) => (i === null ? 'None' : `%${i}`);
    const lines = this.inputs.map((inp) => `  %${inp.value} = input ${inp.source.key}`);
    const list = (nodes: readonly GraphNode[], ind: string): void => {
      for (const n of nodes) {
        lines.push(`${ind}${n.outputs.map(v).join(', ')} = ${n.def.name}(${n.inputs.map(v).join(', ')})`);
        n.regions?.forEach((r, i) => {
          lines.push(`${ind}  region ${i}${r.args.length ? ` (${r.args.map(v).join(', ')})` : ''}:`);
          list(r.nodes, `${ind}    `);
          lines.push(`${ind}    yield ${r.yields.map(v).join(', ')}`);
        });
      }
    };
    list(this.nodes, '  ');
    lines.push(`  return ${this.outputs.map(v).join(', ')}`);
    return lines.join('\n');
  }
}

export const opByName = (name: string): OpDef => getOp(name);
