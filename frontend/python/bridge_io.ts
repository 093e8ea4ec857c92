// The bridge's data calls (compat/paddle/vision/datasets binds them): MNIST reaches Python as
// two tensors made from typed arrays built once in TS (one copy each into native memory), never
// element by element; and a host directory for saved weights (Pyodide's own /tmp is in memory).
import { mkdtempSync } from 'node:fs';
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
    /** 'hImages,hLabels': images [N, 28, 28] float32 in 0..1, labels [N, 1] int64 (src/io/mnist.ts has the split). */
    io_mnist: (mode: string): string | 0 => {
      try {
        const s = mnistSet(mode);
        return `${tensor(s.images, 'float32', [s.count, 28, 28])},${tensor(s.labels, 'int64', [s.count, 1])}`;
      } catch (e) { return fail(e); }
    },
    /** A new directory under the host's temp dir (the caller mounts it into Pyodide). */
    io_mkdtemp: (prefix: string): string | 0 => {
      try { return mkdtempSync(join(tmpdir(), prefix || 'skiff-')); } catch (e) { return fail(e); }
    },
  };
}
