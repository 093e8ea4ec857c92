// The op table for tests: one record per op (samples, reference, tolerances, bad inputs).
// Records live in test/ops/db/<family>.ts; each family file is imported below.
import type { DType } from '../../src/tensor/dtype.js';
import type { NDArray } from './ref.js';

export interface Sample {
  /** Tensor inputs in op order; null for an absent optional input; an array for a variadic input. */
  inputs: (NDArray | NDArray[] | null)[];
  attrs?: Record<string, unknown>;
  /** Also run with input 0 given as a non-contiguous view of the same values. */
  strided?: boolean;
  note?: string;
}

export interface BadInput {
  inputs: (NDArray | NDArray[] | null)[];
  attrs?: Record<string, unknown>;
  /** The error must match this (and must name the op). */
  error: RegExp;
}

export interface OpRecord {
  /** Registry op name. */
  op: string;
  samples: Sample[];
  /** Reference result(s) computed in plain TypeScript. */
  ref(inputs: (NDArray | NDArray[] | null)[], attrs: Record<string, unknown>): NDArray | NDArray[];
  /** Run every sample again with float inputs cast to each of these dtypes. */
  dtypes?: DType[];
  atol?: number;
  rtol?: number;
  bad?: BadInput[];
  /** Random ops: compare statistics, not values (the record's ref checks them). */
  check?: 'values' | 'custom';
  /** Skip the eager-vs-static comparison (issue 4) for this op, with the reason. */
  noStatic?: string;
}

// A hoisted function holds the list: family files run (through the import below) before this
// module's own top-level statements.
function store(): OpRecord[] {
  const s = store as unknown as { list?: OpRecord[] };
  return (s.list ??= []);
}
export function addRecords(...rs: OpRecord[]): void { store().push(...rs); }
export function opRecords(): readonly OpRecord[] { return store(); }

import './db/index.js';
