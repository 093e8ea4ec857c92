// nn.functional entries composed from registry ops (no op of their own in Paddle either).
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';

/** F.linear(x, weight, bias): x @ weight (+ bias), weight [in, out] as in Paddle. */
export function linear(x: TensorLike, weight: TensorLike, bias: TensorLike | null = null): TensorLike {
  const y = callOp(getOp('matmul'), [x, weight]) as TensorLike;
  return bias === null || bias === undefined ? y : (callOp(getOp('add'), [y, bias]) as TensorLike);
}
