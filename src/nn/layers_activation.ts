// Activation layers: each holds its functional's attributes and calls it.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { Layer } from './layer.js';

/** A layer class calling op `name` with fixed attributes taken from constructor arguments. */
function activation(className: string, opName: string, argNames: readonly string[] = [], defaults: readonly unknown[] = []) {
  const C = class extends Layer {
    readonly attrs: Record<string, unknown>;
    constructor(...args: unknown[]) {
      super();
      this.attrs = {};
      argNames.forEach((n, i) => { this.attrs[n] = args[i] !== undefined ? args[i] : defaults[i]; });
    }
    override forward(x: TensorLike): TensorLike { return callOp(getOp(opName), [x, { ...this.attrs }]) as TensorLike; }
    override extra_repr(): string { return Object.entries(this.attrs).map(([k, v]) => `${k}=${v}`).join(', '); }
  };
  Object.defineProperty(C, 'name', { value: className });
  return C;
}

export const ReLU = activation('ReLU', 'relu');
export const ReLU6 = activation('ReLU6', 'relu6');
export const GELU = activation('GELU', 'gelu', ['approximate'], [false]);
export const Sigmoid = activation('Sigmoid', 'sigmoid');
export const Tanh = activation('Tanh', 'tanh');
export const SiLU = activation('SiLU', 'silu');
export const Softmax = activation('Softmax', 'softmax', ['axis'], [-1]);
export const LogSoftmax = activation('LogSoftmax', 'log_softmax', ['axis'], [-1]);
export const LeakyReLU = activation('LeakyReLU', 'leaky_relu', ['negative_slope'], [0.01]);
export const ELU = activation('ELU', 'elu', ['alpha'], [1.0]);
export const Hardswish = activation('Hardswish', 'hardswish');
export const Hardsigmoid = activation('Hardsigmoid', 'hardsigmoid');
export const Softplus = activation('Softplus', 'softplus', ['beta', 'threshold'], [1, 20]);
export const Mish = activation('Mish', 'mish');
