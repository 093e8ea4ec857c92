// How fromPir lowers ops with regions (control flow) without importing their implementation:
// src/executor/control_flow.ts registers a lowering that turns such an op into a host call.
import type { Operation, Value } from '../pir/index.js';
import type { HostFn } from './types.js';

export interface RegionLowering {
  /** The values the host call takes (operands, then implicit captures). */
  readonly inputs: readonly Value[];
  readonly fn: HostFn;
}
export type RegionLowerer = (op: Operation) => RegionLowering | null;

let lowerer: RegionLowerer | null = null;
export function setRegionLowerer(l: RegionLowerer): void { lowerer = l; }
export const lowerRegionOp = (op: Operation): RegionLowering | null => lowerer?.(op) ?? null;
