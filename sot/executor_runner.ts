// Runs captured graphs on the native executor: a CompiledGraph becomes an ExecGraph once, is
// compiled to an Executable (plans cached per input shapes), and each run is one native call.
import { compile, type ExecGraph, type Executable } from '../src/executor/index.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { CompiledGraph, GraphRunner } from './function_graph.js';
import { RegionGraphRunner } from './control_flow_graph.js';

export function toExecGraph(g: CompiledGraph): ExecGraph {
  return {
    values: g.values.map((m, id) => ({ id, dtype: m.dtype, shape: m.shape })),
    inputs: g.inputs.map((i) => i.value),
    params: [],
    nodes: g.nodes.map((n) => ({ op: n.def.name, inputs: n.inputs, outputs: n.outputs, attrs: n.attrs })),
    outputs: [...g.outputs],
  };
}

export class ExecutorRunner implements GraphRunner {
  run(graph: CompiledGraph, inputs: readonly Tensor[]): Tensor[] {
    // Captured control flow (pd_op.if / pd_op.while) goes through PIR, whose lowering runs regions.
    if (graph.runnerState instanceof RegionGraphRunner) return graph.runnerState.run(inputs);
    // (so does a captured PyLayer: skiff.pylayer is an alias there, src/executor/from_pir.ts)
    if (!graph.runnerState && graph.nodes.some((n) => n.regions || n.pylayer)) {
      const r = new RegionGraphRunner(graph);
      graph.runnerState = r;
      return r.run(inputs);
    }
    let exe = graph.runnerState as Executable | null;
    if (!exe) {
      exe = compile(toExecGraph(graph));
      graph.runnerState = exe;
    }
    return exe.run(inputs);
  }
}
