// Registers the translator with a loaded Pyodide as the module `_skiff_sot`
// (compat/paddle/jit/sot/runtime.py calls it). The runtime is built on first use, when
// paddle.jit.sot.runtime is importable and the interpreter's opcode tables can be read.
import type { PyodideInterface } from 'py313';
import { Decoder } from '../bytecode/decode.js';
import { INTERP_INFO_PY, type InterpreterInfo } from '../bytecode/interp_info.js';
import type { Bridge } from '../bridge.js';
import type { PyRuntime } from './python_host.js';
import { SotRuntime } from './runtime.js';
import { setGraphRunner } from '../../../sot/function_graph.js';
import { ExecutorRunner } from '../../../sot/executor_runner.js';
import { graphTrainingCounters } from '../../../sot/graph_training.js';
import { pyLayerGraphCounters } from '../../../sot/pylayer_graph.js';
import { markDynamicDims } from '../../../sot/dynamic_dims.js';
import { executorCounters } from '../../../src/executor/executable.js';
import { dispatchCounters } from '../../../src/ops/dispatch.js';
import { renderViz, VIZ_FORMATS, type VizFormat } from '../../../src/viz/index.js';
import { functionToViz } from '../../../sot/graph_view.js';

function checkFormat(f: string): VizFormat {
  if (!(VIZ_FORMATS as readonly string[]).includes(f)) throw new Error(`show: format must be one of ${VIZ_FORMATS.join(', ')}, got '${f}'`);
  return f as VizFormat;
}

const RUNTIME_FUNCTIONS = [
  'code_info', 'describe', 'type_name', 'get_attr', 'global_lookup', 'function_parts', 'step', 'pin', 'unpin', 'end_call',
  'source_line', 'set_error_location', 'dtype_name', 'dtype_object', 'layer_call_target', 'compat_function', 'isinstance_',
  'sorted_values', 'builtin_object', 'reencode', 'set_wrapper_guards', 'snapshot', 'is_library', 'register_guards', 'check_guards',
  'drop_guards', 'super_attr', 'import_module', 'plain_attr', 'builtin_type_has_attr', 'take_exception', 'type_id', 'psdb_flags',
  'train_mode',
  'plain_class', 'class_lookup', 'instance_attr',
] as const;

/** Reads the running interpreter's opcode facts once. */
export function interpreterInfo(py: PyodideInterface): InterpreterInfo {
  py.runPython(INTERP_INFO_PY);
  const fn = py.globals.get('_skiff_interp_info');
  try {
    const d = fn();
    try {
      return d.toJs({ dict_converter: Object.fromEntries }) as InterpreterInfo;
    } finally { d.destroy(); }
  } finally { fn.destroy(); }
}

export function installSot(py: PyodideInterface, bridge: Bridge): { runtime(): SotRuntime } {
  let rt: SotRuntime | null = null;
  const runtime = (): SotRuntime => {
    if (rt) return rt;
    // Long-lived proxies: the module and one per runtime function, kept for the process (never
    // per call). Attribute proxies are borrowed from the module's, so the module stays alive too.
    const mod = py.pyimport('paddle.jit.sot.runtime') as unknown as Record<string, unknown>;
    const fns: Record<string, unknown> = {};
    for (const name of RUNTIME_FUNCTIONS) fns[name] = mod[name];
    const pyrt = fns as unknown as PyRuntime & { set_wrapper_guards(oid: number, json: string): void };
    const decoder = new Decoder(interpreterInfo(py));
    // Captured graphs run on the native executor (graphs under MIN_GRAPH_SIZE run op by op).
    setGraphRunner(new ExecutorRunner());
    rt = new SotRuntime(pyrt, bridge.handles, decoder, (oid, json) => pyrt.set_wrapper_guards(oid, json));
    return rt;
  };
  py.registerJsModule('_skiff_sot', {
    register: (fnOid: number, wrapperOid: number, fullGraph: number) => runtime().register(fnOid, wrapperOid, fullGraph),
    call: (fid: number, enc: string, nargs: number) => rt!.call(fid, enc, nargs),
    call_fast: (fid: number, ...codes: number[]) => rt!.callFast(fid, codes),
    invalidate: (fid: number) => rt?.invalidate(fid),
    /** to_static(input_spec=...): symbolic dims per argument (see SotRuntime.setInputSpec). */
    set_input_spec: (fid: number, json: string, selfOffset: number) => runtime().setInputSpec(fid, json, selfOffset),
    /** paddle.jit.marker.dynamic_dims(x, dims): marks dims of the tensor with this handle. */
    mark_dynamic_dims: (handle: number, json: string) => markDynamicDims(runtime().host.tensor(handle), JSON.parse(json) as number[]),
    explain: (fid: number) => JSON.stringify(runtime().explain(fid)),
    /** The graph viewer's text (html, dot or svg) for one function's trace tree (0: every function). */
    show: (fid: number, format: string, title: string) => renderViz({ title, functions: runtime().viewFunctions(fid || undefined).map(functionToViz) }, checkFormat(format)),
    translate_count: (fid: number) => runtime().translateCount(fid || undefined),
    /** paddle.jit.sot.symbolic.compile_cache.CompileSIRCache: captured graphs since its clear(). */
    compiled_graphs: () => JSON.stringify(runtime().compiledGraphs()),
    clear_compiled_graphs: () => runtime().clearCompiledGraphs(),
    /** OpcodeExecutorCache().clear(): drops every translated tree (the next calls translate again). */
    reset_translations: () => rt?.resetTranslations(),
    /** The translator's settings behind paddle.jit.sot.utils' ENV_* flags ('strict', 'min_graph_size', 'log_level'). */
    get_flag: (name: string) => runtime().getFlag(name),
    set_flag: (name: string, value: number) => runtime().setFlag(name, value),
    /** Eager kernel launches and views made so far (tests measure what ran outside graphs). */
    eager_op_count: () => dispatchCounters.kernels + dispatchCounters.views,
    /** Ops of the graphs the trace trees ran so far (one count per graph run). */
    graph_op_count: () => rt?.stats.graphOpsRun ?? 0,
    /** Whole-graph runs of the native executor so far (graphs that ran op by op do not count). */
    executor_runs: () => executorCounters.runs,
    /** Training through captured graphs (sot/graph_training.ts): plans, forward/backward runs, recomputes, fallbacks. */
    training_counters: () => JSON.stringify({ ...graphTrainingCounters, pylayer: pyLayerGraphCounters }),
  });
  return { runtime };
}
