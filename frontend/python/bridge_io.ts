// The bridge's data calls (compat/paddle/vision/datasets binds them): MNIST reaches Python as
// two tensors made from typed arrays built once in TS (one copy each into native memory), never
// element by element; and a host directory for saved weights (Pyodide's own /tmp is in memory).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnistSet } from '../../src/io/mnist.js';
import { native } from '../../src/native.js';
import { DTYPE_CODE } from '../../src/tensor/dtype.js';
import { Tensor, untracked } from '../../src/tensor/tensor.js';
import type { HandleTable } from './handles.js';

export function ioCalls(handles: HandleTable, fail: (e: unknown) => 0): Record<string, unknown> {
  const tensor = (data: ArrayBufferView, dtype: 'float32' | 'int64', dims: number[]): number => handles.add(untracked(() =>
    new Tensor(native.fromBytes(DTYPE_CODE[dtype], dims, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)), dtype, dims)));
  return {
    /** A variable of the Node process's environment (undefined: None), which Pyodide does not inherit. */
    io_env: (name: string): string | undefined => process.env[name],
    /** 'hImages,hLabels': images [N, 28, 28] float32 in 0..1, labels [N, 1] int64 (src/io/mnist.ts has the split). */
    io_mnist: (mode: string): string | 0 => {
      try {
        const s = mnistSet(mode);
        return `${tensor(s.images, 'float32', [s.count, 28, 28])},${tensor(s.labels, 'int64', [s.count, 1])}`;
      } catch (e) { return fail(e); }
    },
    /**
     * Creates a directory on the host (with its parents) and returns its path; '' makes a new
     * one under the host's temp dir. compat/paddle/hapi/hostfs.py mounts it into Pyodide.
     */
    io_host_dir: (path: string, prefix: string): string | 0 => {
      try {
        if (!path) return mkdtempSync(join(tmpdir(), prefix || 'skiff-'));
        mkdirSync(path, { recursive: true });
        return path;
      } catch (e) { return fail(e); }
    },
  };
}
