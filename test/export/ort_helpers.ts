// Shared by the ONNX zoo tests: onnx.checker (when Debian's python3-onnx is installed), running
// a model in onnxruntime-node, and the 1e-4 relative / 1e-5 absolute comparison.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { expect } from 'vitest';
import type { Tensor } from '../../src/tensor/tensor.js';

// Debian's python3-onnx lives in the system interpreter, which may not be the first python3 on PATH.
export const checkerPython = ['/usr/bin/python3', 'python3'].find((py) => {
  try { execFileSync(py, ['-c', 'import onnx'], { stdio: 'ignore' }); return true; } catch { return false; }
});

/** onnx.checker.check_model(full_check=True) on the bytes (skipped without python3-onnx). */
export function checkModel(dir: string, bytes: Uint8Array, name: string): void {
  if (!checkerPython) return;
  const file = join(dir, `${name}.check.onnx`);
  writeFileSync(file, bytes);
  execFileSync(checkerPython, ['-c', 'import onnx, sys; onnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)', file], { stdio: 'pipe' });
}

const ORT_TYPE: Record<string, ort.Tensor.Type> = { float32: 'float32', int64: 'int64', int32: 'int32', bool: 'bool', float64: 'float64' };
export const toOrt = (t: Tensor): ort.Tensor => new ort.Tensor(ORT_TYPE[t.dtype], t.rawData() as never, [...t.shape]);

export async function runOrt(bytes: Uint8Array, feeds: Record<string, ort.Tensor>): Promise<ort.InferenceSession.OnnxValueMapType> {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 });
  try {
    return await s.run(feeds);
  } finally {
    await s.release();
  }
}

/** ORT's result within 1e-4 relative / 1e-5 absolute of `want` (same shape). */
export function expectClose(got: ort.Tensor, want: { shape: readonly number[]; data: ArrayLike<number> }, what: string): void {
  expect([...got.dims], `${what}: shape`).toEqual([...want.shape]);
  const a = got.data as Float32Array, b = want.data;
  expect(a.length, `${what}: size`).toBe(b.length);
  let worst = 0, at = -1;
  for (let i = 0; i < b.length; i++) {
    const excess = Math.abs(a[i] - b[i]) - (1e-5 + 1e-4 * Math.abs(b[i]));
    if (!(excess <= worst)) { worst = excess; at = i; }
  }
  expect(at, `${what}: element ${at}: onnxruntime ${a[at]} vs skiff ${b[at]}`).toBe(-1);
}
