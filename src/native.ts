// Loads the native addon built by node-gyp (build/Release/skiff_native.node).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

export interface NativeMemStats { liveTensors: number; liveStorages: number; liveBytes: number; peakBytes: number }
export interface NativeMeta { dtype: number; shape: number[]; strides: number[]; offset: number; storageElements: number }

/** A lowered program in the runner's wire format (see native/src/program_format.h). */
export interface NativeProgramDesc {
  nInputs: number; nParams: number; nHost: number;
  slots: Int32Array; dims: Float64Array; labels: string[];
  instrs: Int32Array; args: Int32Array; attrs: Float64Array; names: string[];
  buffers: Float64Array; outputs: Int32Array;
}
/** A run stopped at host-call instruction `instr`: call host function `host` on `args` (fresh handles), then programResume(state, ...). */
export interface NativeSuspension { state: number; instr: number; host: number; args: Int32Array }
export interface NativeProgramInfo { instructions: number; slots: number; buffers: number; bufferBytes: number; runs: number; lastPeakBytes: number; lastInstructions: number }
export interface NativeProgramStats {
  created: number; live: number; suspended: number; runs: number; resumes: number; instructions: number;
  kernels: number; views: number; hostCalls: number; copies: number; buffersAllocated: number; lastPeakBytes: number; maxPeakBytes: number;
}

export interface NativeAddon {
  empty(dtype: number, shape: readonly number[]): number;
  fromBytes(dtype: number, shape: readonly number[], data: ArrayBufferView | ArrayBuffer): number;
  toBytes(h: number): ArrayBuffer;
  view(h: number, shape: readonly number[], strides: readonly number[], offset: number): number;
  meta(h: number): NativeMeta;
  release(h: number): boolean;
  releaseMany(hs: readonly number[] | Int32Array): number;
  sameStorage(a: number, b: number): boolean;
  kernelId(name: string): number;
  kernelNames(): string[];
  run(kernel: number, inputs: readonly number[] | number, outputs: readonly number[] | number, attrs?: readonly number[] | Float64Array): void;
  /** Shares the eager hot path's scratch arrays (handles, attrs/output specs) with native code once. */
  setScratch(ints: Int32Array, doubles: Float64Array): void;
  /** Allocates outputs from specs in scratch, runs the kernel, writes output handles to scratch. */
  runAlloc(kernel: number, nIn: number, nOut: number, nAttrs: number): void;
  memStats(): NativeMemStats;
  resetPeak(): void;
  numThreads(n?: number): number;
  // Static program runner (native/src/program*.cc; wire format in program_format.h, written by src/executor/program.ts).
  programCreate(desc: NativeProgramDesc): number;
  /** Runs the whole program: 0 when done (output handles written into `outs`), or a host-call suspension. */
  programRun(id: number, inputs: Int32Array, params: Int32Array, outs: Int32Array): 0 | NativeSuspension;
  /** Hands a suspended run the host call's result handles and continues it (same return contract as programRun). */
  programResume(state: number, results: Int32Array, outs: Int32Array): 0 | NativeSuspension;
  /** Abandons a suspended run, freeing its buffers. */
  programAbort(state: number): boolean;
  programFree(id: number): boolean;
  programInfo(id: number): NativeProgramInfo;
  programStats(): NativeProgramStats;
  /** on = true starts timing each instruction (clearing earlier totals), false stops; returns [runs, ns of instruction 0, 1, ...]. */
  programProfile(id: number, on: boolean): Float64Array;
  /** Derived forms of constant inputs (packed GEMM weights) built so far in the process. */
  constCacheStats(): { built: number };
  [extra: string]: unknown;
}

function findAddon(): string {
  // Works from src/ (tsx, vitest) and from dist/ (bundle): walk up to the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'build', 'Release', 'skiff_native.node');
    if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  throw new Error('skiff: native addon not built (build/Release/skiff_native.node missing); run `npm install`');
}

const require = createRequire(import.meta.url);
export const native: NativeAddon = require(findAddon());
