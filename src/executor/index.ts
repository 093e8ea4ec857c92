// The native executor: ExecGraph -> lowered instruction list + buffer plan -> one native call per run.
export { checkGraph, formatGraph, GraphBuilder, HOST_CALL } from './graph.js';
export type { ExecGraph, ExecNode, ExecUpdate, ExecValue, GraphInfo } from './graph.js';
export { specialize, evalDim } from './specialize.js';
export type { BoundMeta, Specialized } from './specialize.js';
export { lower } from './lower.js';
export type { LowerOptions } from './lower.js';
export { planBuffers } from './plan.js';
export { encodeProgram, createProgram } from './program.js';
export { compile, Executable, executorCounters, executorStats } from './executable.js';
export type { CompileOptions } from './executable.js';
export { runGraphEager } from './eager.js';
export { fromPir } from './from_pir.js';
export type { PirExecGraph } from './from_pir.js';
export type { HostFn, Instr, LoweredProgram, PlanStats, Slot } from './types.js';
export { runRegionCounters } from './control_flow.js';
export { decodeAttrs, formatLowered } from './format.js';
