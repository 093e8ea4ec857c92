// Loads the native addon built by node-gyp (build/Release/skiff_native.node).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

export interface NativeMemStats { liveTensors: number; liveStorages: number; liveBytes: number; peakBytes: number }
export interface NativeMeta { dtype: number; shape: number[]; strides: number[]; offset: number; storageElements: number }

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
