// The lowered form of an ExecGraph for one input-shape signature: slots (one per SSA value, plus
// copies the lowering adds), a flat instruction list, and a buffer plan. Plain data: tests read
// it, src/executor/program.ts encodes it into the native runner's typed arrays.
import type { DType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';

/**
 * A host function: receives the call's input tensors (borrowed: valid during the call only) and
 * returns its outputs. Returned tensors are moved into the program: the executor disposes them
 * once their storage is handed over, so return fresh tensors, not ones kept elsewhere.
 */
export type HostFn = (args: Tensor[]) => Tensor[];

export type SlotKind = 'input' | 'param' | 'buffer' | 'view' | 'host' | 'paramAlias';
export const SLOT_KIND_CODE: Readonly<Record<SlotKind, number>> = { input: 0, param: 1, buffer: 2, view: 3, host: 4, paramAlias: 5 };
export type Layout = 'any' | 'contiguous' | 'exact';
export const LAYOUT_CODE: Readonly<Record<Layout, number>> = { any: 0, contiguous: 1, exact: 2 };

export interface Slot {
  kind: SlotKind;
  /** input #, param #, buffer id (buffer), param slot (paramAlias); -1 otherwise */
  index: number;
  readonly dtype: DType;
  readonly shape: number[];
  /** Element strides as planned (contiguous unless a view or an exact-layout input/param). */
  readonly strides: number[];
  /** Offset relative to the storage root's own offset (views accumulate their deltas). */
  readonly relOffset: number;
  /** Slot owning the storage this slot lives in (itself for inputs, params, buffers, host results). */
  readonly root: number;
  readonly layout: Layout;
  readonly mutable: boolean;
  readonly bytes: number;
  /** '%12' for graph values, '%12.copy' for copies the lowering adds */
  readonly label: string;
  /** Graph value id, or -1 for added copies. */
  readonly value: number;
}

export type InstrKind = 'kernel' | 'view' | 'host' | 'copy';
export const OPCODE: Readonly<Record<InstrKind, number>> = { kernel: 0, view: 1, host: 2, copy: 3 };

export interface Instr {
  readonly kind: InstrKind;
  /** op name (errors, tables) */
  readonly op: string;
  /** graph node index, -1 for added copies */
  readonly node: number;
  /** kernel id (kernel) or host function # (host); -1 otherwise */
  readonly fn: number;
  readonly ins: number[];
  readonly outs: number[];
  /** kernel: encodeAttrs; view: [ndim, shape.., strides.., offsetDelta] */
  readonly attrs: number[];
  /** the op may write output 0 over input 0 (OpDef.inplace) */
  readonly inplaceOk: boolean;
  /** slots dropped after this instruction */
  clears: number[];
  /** buffers whose storage is released after this instruction */
  releases: number[];
}

export interface PlanStats {
  instructions: number;
  kernels: number;
  views: number;
  hostCalls: number;
  copies: number;
  /** storages the plan allocates per run */
  buffers: number;
  /** total bytes of those storages */
  bufferBytes: number;
  /** bytes of every kernel/copy result if each had its own storage */
  intermediateBytes: number;
  /** high-water mark of plan storage during a run (what the native runner reports) */
  peakBytes: number;
  /** results written over a dying input (OpDef.inplace) */
  inplace: number;
  /** results placed in a buffer freed earlier in the run */
  reused: number;
  /** mutable-param updates written straight into the parameter */
  directWrites: number;
}

export interface LoweredProgram {
  readonly signature: string;
  readonly slots: Slot[];
  readonly instrs: Instr[];
  /** byte size of each plan buffer */
  readonly buffers: number[];
  readonly inputSlots: number[];
  readonly paramSlots: number[];
  readonly outputSlots: number[];
  readonly hostFns: HostFn[];
  readonly stats: PlanStats;
}
