// Position ids and the causal mask from input_ids [batch, seq]. With a static seq they are
// arange / tril as before; when seq is a symbolic dim (a program traced with InputSpec
// [None, None] by paddle.jit.save / paddle.onnx.export) they are built from the ids' own shape
// by ops that need no size (cumsum of ones, a comparison), so the exported model keeps a
// dynamic sequence length. Both give the same values.
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const T = (x: unknown): Tensor => x as Tensor;

/** [seq] int64: 0, 1, ..., seq - 1. Exported so a scope accessor can be attached to it (to_static resolves it as a free variable). */
export function positions(input_ids: Tensor): Tensor {
  const seq = input_ids.shape[1];
  if (typeof seq === 'number') return T(paddle.arange(seq, { dtype: 'int64' }));
  const ones = T(paddle.ones_like(T(input_ids.get(0)), 'int64'));
  return T(paddle.subtract(T(paddle.cumsum(ones, 0)), T(paddle.ones_like(ones, 'int64'))));
}

/** Position ids [1, seq] (int64). */
export const positionIds = (input_ids: Tensor): Tensor => T(paddle.unsqueeze(positions(input_ids), 0));

/** Lower-triangular keep-mask [seq, seq] (bool; true = attend): position i sees positions <= i. */
export function causalMask(input_ids: Tensor): Tensor {
  const seq = input_ids.shape[1];
  if (typeof seq === 'number') return T(paddle.cast(paddle.tril(paddle.ones([seq, seq], 'int64')), 'bool'));
  const p = positions(input_ids);
  return T(paddle.greater_equal(T(paddle.unsqueeze(p, 1)), T(paddle.unsqueeze(p, 0))));
}
