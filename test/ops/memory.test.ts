// Native memory accounting: 100k tensors (to_tensor, kernels, views) created and disposed leave
// live tensors, storages and bytes at their baseline; tensors that are only dropped are released
// by the FinalizationRegistry once the garbage collector has run.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { native } from '../../src/native.js';
import { paddle } from '../../src/paddle.js';
import { memoryStats, type Tensor } from '../../src/tensor/tensor.js';

const P = paddle as Record<string, (...a: unknown[]) => Tensor>;
const stats = () => ({ ...memoryStats(), liveStorages: native.memStats().liveStorages });

/**
 * The collector, when it can be had: `--expose-gc` gives globalThis.gc; otherwise V8 is asked to
 * expose it and the function is read from a fresh context (a fixed name, no user text).
 */
function getGc(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    v8.setFlagsFromString('--expose-gc');
    const f = vm.runInNewContext('gc') as unknown;
    return typeof f === 'function' ? (f as () => void) : null;
  } catch {
    return null;
  }
}

describe('native memory returns to baseline', () => {
  it('100k tensors from to_tensor, kernels and views, all disposed', () => {
    const base = stats();
    const N = 25_000;  // four tensors each: 100k in all
    for (let i = 0; i < N; i++) {
      const x = paddle.to_tensor([i, i + 1, i + 2, i + 3, i + 4, i + 5], 'float32') as Tensor;
      const v = P.reshape(x, [2, 3]);                       // view
      const t = P.transpose(v, [1, 0]);                     // view of a view
      const c = P.concat([t, t], 0);                        // kernel on a strided input
      if (i === N - 1) expect(c.tolist()).toEqual([[i, i + 3], [i + 1, i + 4], [i + 2, i + 5], [i, i + 3], [i + 1, i + 4], [i + 2, i + 5]]);
      x.dispose(); v.dispose(); t.dispose(); c.dispose();
    }
    expect(stats()).toMatchObject({ liveTensors: base.liveTensors, liveBytes: base.liveBytes, liveStorages: base.liveStorages });
  });

  it('scopes release views, copies and multi-output results', () => {
    const base = stats();
    for (let i = 0; i < 2_000; i++) {
      paddle.scope(() => {
        const x = P.arange(0, 24, 1, 'float32');
        const parts = P.split(P.reshape(x, [4, 6]), 3, 1) as unknown as Tensor[];
        P.stack(parts, 0).contiguous();
        P.gather(P.flip(parts[1], [0]), paddle.to_tensor([0, 3], 'int64'), 0);
        return null;
      });
    }
    expect(stats()).toMatchObject({ liveTensors: base.liveTensors, liveBytes: base.liveBytes, liveStorages: base.liveStorages });
  });

  it('dropped tensors are released by the FinalizationRegistry after GC', async (ctx) => {
    const gc = getGc();
    if (!gc) { ctx.skip(); return; }
    gc();
    await new Promise((r) => setTimeout(r, 0));
    const base = stats();
    (() => {
      for (let i = 0; i < 5_000; i++) {
        const x = paddle.to_tensor([1, 2, 3, 4], 'float32') as Tensor;
        P.tile(P.transpose(P.reshape(x, [2, 2]), [1, 0]), [2, 2]);  // dropped, never disposed
      }
    })();
    expect(stats().liveTensors).toBeGreaterThan(base.liveTensors);
    for (let round = 0; round < 50 && stats().liveTensors > base.liveTensors; round++) {
      gc();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(stats()).toMatchObject({ liveTensors: base.liveTensors, liveBytes: base.liveBytes, liveStorages: base.liveStorages });
  });
});
