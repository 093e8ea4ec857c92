// Registry ops for the optimizers, called by name (the paddle namespace imports this package).
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { Tensor } from '../tensor/tensor.js';

export const op = (name: string, ...args: unknown[]): Tensor => callOp(getOp(name), args) as Tensor;
/** `<name>_`: writes the result into args[0] (same storage, version bumped). */
export const opInplace = (name: string, ...args: unknown[]): Tensor => callOp(getOp(name), args, true) as Tensor;

/** Paddle's beta range check, shared by every Adam-family optimizer so their messages agree. */
export const checkBeta = (cls: string, key: string, b: number): void => {
  if (!(b >= 0 && b < 1)) throw new RangeError(`${cls}: ${key} must be in [0, 1), got ${b}`);
};
