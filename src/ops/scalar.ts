// JS/Python scalars used as tensor operands become 0-dim tensors of the promoted dtype,
// built with the `full` op so the same path works eagerly and while recording a program.
import type { DType } from '../tensor/dtype.js';
import type { TensorLike } from './dispatch.js';
import { runOp } from './dispatch.js';

export function scalarTensor(value: number | boolean, dtype: DType): TensorLike {
  return runOp('full', [], { shape: [], fill_value: typeof value === 'boolean' ? Number(value) : value, dtype })[0];
}
