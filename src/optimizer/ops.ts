// Registry ops for the optimizers, called by name (the paddle namespace imports this package).
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { Tensor } from '../tensor/tensor.js';

export const op = (name: string, ...args: unknown[]): Tensor => callOp(getOp(name), args) as Tensor;
/** `<name>_`: writes the result into args[0] (same storage, version bumped). */
export const opInplace = (name: string, ...args: unknown[]): Tensor => callOp(getOp(name), args, true) as Tensor;
