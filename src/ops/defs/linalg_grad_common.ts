// Batched-matrix helpers shared by the linear-algebra gradient rules (linalg_lu_grad.ts,
// linalg_decomp_grad.ts): both families are written in terms of X^T and products with optional
// transposes, and one definition keeps the two rule sets emitting the same ops.
import type { GradKit } from '../grad_kit.js';

/** x with its last two dims swapped ([..., r, c] -> [..., c, r]). */
export function matT<T>(k: GradKit<T>, x: T): T {
  const r = k.rank(x);
  return k.transpose(x, [...Array(r - 2).keys(), r - 1, r - 2]);
}

/** op(a) @ op(b), op a transpose when asked (matmul's transpose_x / transpose_y). */
export function matMul<T>(k: GradKit<T>, a: T, b: T, ta = false, tb = false): T {
  return k.op('matmul', [a, b], { transpose_x: ta, transpose_y: tb });
}
