// paddle.nn.initializer for TypeScript: the same classes, fan rules and defaults as the Python
// package (compat/paddle/nn/initializer.py), built on the registry's random and creation ops.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import { to_tensor } from '../tensor/creation.js';
import type { DType } from '../tensor/dtype.js';
import { scope, type Tensor } from '../tensor/tensor.js';

/** A registry op through the public calling convention (the paddle namespace imports this module). */
const op = (name: string, ...args: unknown[]): Tensor => callOp(getOp(name), args) as Tensor;

const numel = (shape: readonly number[]): number => shape.reduce((a, d) => a * d, 1);

/** Paddle's fan rule: [in, out] for 2-D weights, [out, in, *kernel] for conv weights. */
export function compute_fans(shape: readonly number[]): [number, number] {
  if (shape.length === 0) return [1, 1];
  if (shape.length === 1) return [shape[0], shape[0]];
  if (shape.length === 2) return [shape[0], shape[1]];
  const receptive = numel(shape.slice(2));
  return [shape[1] * receptive, shape[0] * receptive];
}

/** paddle.nn.initializer.calculate_gain. */
export function calculate_gain(nonlinearity: string, param?: number | null): number {
  if (['sigmoid', 'linear', 'conv1d', 'conv2d', 'conv3d', 'conv1d_transpose', 'conv2d_transpose', 'conv3d_transpose'].includes(nonlinearity)) return 1;
  if (nonlinearity === 'tanh') return 5 / 3;
  if (nonlinearity === 'relu') return Math.SQRT2;
  if (nonlinearity === 'leaky_relu') { const s = param ?? 0.01; return Math.sqrt(2 / (1 + s * s)); }
  if (nonlinearity === 'selu') return 3 / 4;
  throw new RangeError(`calculate_gain: unsupported nonlinearity '${nonlinearity}'`);
}

/** Base: make(shape, dtype) builds the values. */
export abstract class Initializer {
  abstract make(shape: readonly number[], dtype: DType): Tensor;
}

function uniform(shape: readonly number[], low: number, high: number, dtype: DType): Tensor {
  return op('uniform', [...shape], dtype, low, high) as Tensor;
}

function normal(shape: readonly number[], mean: number, std: number, dtype: DType): Tensor {
  return scope(() => {
    const t = op('normal', mean, std, [...shape]) as Tensor;
    return t.dtype === dtype ? t : (op('cast', t, dtype) as Tensor);
  });
}

export class Constant extends Initializer {
  constructor(readonly value = 0) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor { return op('full', [...shape], this.value, dtype) as Tensor; }
}

export class Uniform extends Initializer {
  constructor(readonly low = -1, readonly high = 1) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor { return uniform(shape, this.low, this.high, dtype); }
}

export class Normal extends Initializer {
  constructor(readonly mean = 0, readonly std = 1) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor { return normal(shape, this.mean, this.std, dtype); }
}

/**
 * Normal(mean, std) restricted to [mean + a*std, mean + b*std] (Paddle 2.6: +-2 std), drawn in
 * one pass by the truncated_gaussian_random op (inverse CDF on the interval, no redraws).
 */
export class TruncatedNormal extends Initializer {
  constructor(readonly mean = 0, readonly std = 1, readonly a = -2, readonly b = 2) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const lo = this.mean + this.a * this.std, hi = this.mean + this.b * this.std;
    return callOp(getOp('truncated_gaussian_random'), [{ shape: [...shape], mean: this.mean, std: this.std, a: lo, b: hi, dtype }]) as Tensor;
  }
}

export class XavierUniform extends Initializer {
  constructor(readonly fan_in: number | null = null, readonly fan_out: number | null = null, readonly gain = 1) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const [fi, fo] = compute_fans(shape);
    const limit = this.gain * Math.sqrt(6 / ((this.fan_in ?? fi) + (this.fan_out ?? fo)));
    return uniform(shape, -limit, limit, dtype);
  }
}

export class XavierNormal extends Initializer {
  constructor(readonly fan_in: number | null = null, readonly fan_out: number | null = null, readonly gain = 1) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const [fi, fo] = compute_fans(shape);
    return normal(shape, 0, this.gain * Math.sqrt(2 / ((this.fan_in ?? fi) + (this.fan_out ?? fo))), dtype);
  }
}

export class KaimingUniform extends Initializer {
  constructor(readonly fan_in: number | null = null, readonly negative_slope = 0, readonly nonlinearity = 'relu') { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const fi = this.fan_in ?? compute_fans(shape)[0];
    const limit = calculate_gain(this.nonlinearity, this.negative_slope) * Math.sqrt(3 / fi);
    return uniform(shape, -limit, limit, dtype);
  }
}

export class KaimingNormal extends Initializer {
  constructor(readonly fan_in: number | null = null, readonly negative_slope = 0, readonly nonlinearity = 'relu') { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const fi = this.fan_in ?? compute_fans(shape)[0];
    return normal(shape, 0, calculate_gain(this.nonlinearity, this.negative_slope) / Math.sqrt(fi), dtype);
  }
}

/** Fixed values (nested arrays, a typed array or a Tensor) of exactly the parameter's shape. */
export class Assign extends Initializer {
  constructor(readonly value: unknown) { super(); }
  make(shape: readonly number[], dtype: DType): Tensor {
    const t = to_tensor(this.value as never, dtype);
    if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
      t.dispose();
      throw new RangeError(`Assign initializer: value of shape [${t.shape.join(', ')}] for a parameter of shape [${shape.join(', ')}]`);
    }
    return t;
  }
}

export const initializer = {
  Initializer, Constant, Uniform, Normal, TruncatedNormal, XavierUniform, XavierNormal, KaimingUniform, KaimingNormal, Assign,
  compute_fans, calculate_gain,
  // Paddle's older spellings
  XavierInitializer: XavierUniform, MSRAInitializer: KaimingNormal, ConstantInitializer: Constant,
  NormalInitializer: Normal, UniformInitializer: Uniform,
};
