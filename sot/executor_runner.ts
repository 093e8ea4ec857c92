// Runs captured graphs on the native executor: a CompiledGraph becomes an ExecGraph once, is
// compiled to an Executable (plans cached per input shapes), and each run is one native call.
import { compile, type ExecGraph, type Executable } from '../src/executor/index.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { CompiledGraph, GraphRunner } from './function_graph.js';

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
    let exe = graph.runnerState as Executable | null;
    if (!exe) {
      exe = compile(toExecGraph(graph));
      graph.runnerState = exe;
    }
    return exe.run(inputs);
  }
}
