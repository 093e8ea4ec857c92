// Shared pieces of the executor suites: deterministic tensors, the eager oracle, and a check that
// an executor run matches it while moving no eager dispatch counter.
import { expect } from 'vitest';
import '../../src/ops/index.js';
import { dispatchCounters } from '../../src/ops/dispatch.js';
import { hasOp } from '../../src/ops/registry.js';
import { type CompileOptions, type ExecGraph, type Executable, compile, runGraphEager } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { DTYPE_CODE, type DType } from '../../src/tensor/dtype.js';
import { encodeValues } from '../../src/tensor/creation.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { rng } from '../ops/ref.js';

/** A float tensor of `shape` with values in [-1, 1) from a fixed seed. */
export function randTensor(shape: number[], seed = 1, dtype: DType = 'float32'): Tensor {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, () => Math.round((r() * 2 - 1) * 1000) / 1000);
  return new Tensor(native.fromBytes(DTYPE_CODE[dtype], shape, encodeValues(data, dtype)), dtype, [...shape]);
}

export const flat = (t: Tensor): number[] => t.dataSync().map(Number);

export function expectAllClose(got: Tensor, want: Tensor, ctx: string, tol = 1e-5): void {
  expect(got.shape, `${ctx}: shape`).toEqual(want.shape);
  expect(got.dtype, `${ctx}: dtype`).toBe(want.dtype);
  const g = flat(got), w = flat(want);
  for (let i = 0; i < w.length; i++) {
    if (!(Math.abs(g[i] - w[i]) <= tol + tol * Math.abs(w[i]))) expect.fail(`${ctx}: element ${i}: got ${g[i]}, want ${w[i]}`);
  }
}

/** Runs `exe` and asserts no eager kernel or view ran meanwhile. */
export function runNoEager(exe: Executable, inputs: Tensor[], params?: Tensor[]): Tensor[] {
  const before = { ...dispatchCounters };
  const outs = exe.run(inputs, params);
  expect(dispatchCounters, 'an executor run must not dispatch eager ops').toEqual(before);
  return outs;
}

/** Compiles g, runs it on inputs and compares every output with eager execution of the same ops. */
export function checkAgainstEager(g: ExecGraph, inputs: Tensor[], params: Tensor[] = [], opts: CompileOptions = {}, tol = 1e-5): Tensor[] {
  const exe = compile(g, { ...opts, params });
  const outs = opts.hostFns ? exe.run(inputs) : runNoEager(exe, inputs);
  const ref = runGraphEager(g, inputs, params, opts.hostFns);
  expect(outs.length).toBe(ref.outputs.length);
  outs.forEach((o, i) => expectAllClose(o, ref.outputs[i], `output ${i}`, tol));
  for (const t of ref.outputs) if (!inputs.includes(t) && !params.includes(t)) t.dispose();
  exe.dispose();
  return outs;
}

/** The first of `names` the registry has (other helpers add ops over time). */
export const firstOp = (...names: string[]): string | null => names.find((n) => hasOp(n)) ?? null;
