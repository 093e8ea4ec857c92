// fused_gemm_epilogue against the ops it replaces, beyond the op_db samples: the float32 exact
// gelu uses a vectorizable erf (native/kernels/fused_gemm.cc), so it is compared with the gelu
// kernel over a dense sweep of inputs, special values included; relu and the tanh gelu use the
// same formulas as their kernels and must match bit for bit.
import { describe, expect, it } from 'vitest';
import '../../src/ops/index.js';
import { runOp } from '../../src/ops/dispatch.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { native } from '../../src/native.js';
import { DTYPE_CODE } from '../../src/tensor/dtype.js';
import { encodeValues } from '../../src/tensor/creation.js';
import { Tensor as T } from '../../src/tensor/tensor.js';

const tensor = (shape: number[], data: number[], dtype: 'float32' | 'float64' = 'float32'): Tensor =>
  new T(native.fromBytes(DTYPE_CODE[dtype], shape, encodeValues(data, dtype)), dtype, shape);

// x as a column, y = [[1]], bias 0: the epilogue sees x (up to the GEMM's sign of zero).
function viaFused(values: number[], activation: string, dtype: 'float32' | 'float64' = 'float32'): number[] {
  const x = tensor([values.length, 1], values, dtype), y = tensor([1, 1], [1], dtype), b = tensor([1], [0], dtype);
  const [o] = runOp('fused_gemm_epilogue', [x, y, b], { activation }) as Tensor[];
  const out = o.dataSync().map(Number);
  for (const t of [x, y, b, o]) t.dispose();
  return out;
}
/** The ops the fusion replaces: act(add(matmul(x, y), b)). */
function viaKernel(values: number[], op: string, attrs: Record<string, unknown> = {}, dtype: 'float32' | 'float64' = 'float32'): number[] {
  const x = tensor([values.length, 1], values, dtype), y = tensor([1, 1], [1], dtype), b = tensor([1], [0], dtype);
  const [m] = runOp('matmul', [x, y]) as Tensor[];
  const [h] = runOp('add', [m, b]) as Tensor[];
  const [o] = runOp(op, [h], attrs) as Tensor[];
  const out = o.dataSync().map(Number);
  for (const t of [x, y, b, m, h, o]) t.dispose();
  return out;
}

const sweep: number[] = [];
for (let v = -12; v <= 12; v += 1 / 512) sweep.push(Math.fround(v));
sweep.push(0, -0, 1e-30, -1e-30, 3.9, 3.95, 4, -4, 1e30, -1e30, Infinity, -Infinity, NaN);

describe('fused_gemm_epilogue epilogue values', () => {
  it('exact gelu (float32) is within a few float32 ulp of the gelu kernel', () => {
    const got = viaFused(sweep, 'gelu'), want = viaKernel(sweep, 'gelu', { approximate: false });
    let worst = 0;
    sweep.forEach((v, i) => {
      if (!Number.isFinite(want[i])) { expect(got[i], `gelu(${v})`).toBe(want[i]); return; }
      // erf's error (a few ulp of a number <= 1) scaled by 0.5|v|, plus the result's own rounding.
      const err = Math.abs(got[i] - want[i]) / (Math.max(1, Math.abs(v)) * 2 ** -23);
      worst = Math.max(worst, err);
    });
    expect(worst).toBeLessThan(4);
  });

  it('relu, tanh gelu and exact gelu in float64 match their kernels exactly', () => {
    expect(viaFused(sweep, 'relu')).toEqual(viaKernel(sweep, 'relu'));
    expect(viaFused(sweep, 'gelu_tanh')).toEqual(viaKernel(sweep, 'gelu', { approximate: true }));
    expect(viaFused(sweep, 'gelu', 'float64')).toEqual(viaKernel(sweep, 'gelu', { approximate: false }, 'float64'));
  });
});
