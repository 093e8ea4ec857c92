// A small seeded PRNG (mulberry32) for index permutations: samplers and the MNIST split need
// reproducible orders of a few thousand indices, not the runtime's tensor generator. Samplers
// seed it from the runtime's generator (so paddle.seed governs them); the MNIST split uses a
// fixed seed so every machine gets the same train/test sets.
import { runOp } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';

/** A function returning uniform floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates shuffle in place. */
export function shuffleInPlace<T>(xs: T[] | Int32Array, rand: () => number): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = xs[i];
    xs[i] = xs[j];
    xs[j] = t;
  }
}

/** 0..n-1 in a random order. */
export function permutation(n: number, rand: () => number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  shuffleInPlace(p, rand);
  return p;
}

/** One 31-bit seed drawn from the runtime's generator: paddle.seed(n) makes what follows repeat. */
export function drawSeed(): number {
  const t = runOp('randint', [], { low: 0, high: 2 ** 31 - 1, shape: [1], dtype: 'int64' })[0] as Tensor;
  try { return Number(t.rawData()[0]); } finally { t.dispose(); }
}

/** A PRNG seeded from the runtime's generator. */
export const runtimeRand = (): (() => number) => mulberry32(drawSeed());
