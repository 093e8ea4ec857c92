// paddle.io datasets for TypeScript users, with Paddle's method names (__getitem__, __len__):
// map-style datasets, iterable ones, and the wrappers Paddle has. A dataset may offer
// `_getitems(indices)` returning an already collated batch; the DataLoader then builds the
// batch with one op per field (TensorDataset gathers rows with index_select).
import { runOp } from '../ops/dispatch.js';
import { to_tensor } from '../tensor/creation.js';
import { Tensor } from '../tensor/tensor.js';
import { permutation, runtimeRand } from './prng.js';

export type Sample = unknown;

export abstract class Dataset<T = Sample> {
  abstract __getitem__(idx: number): T;
  abstract __len__(): number;
  get length(): number { return this.__len__(); }
  /** Optional batched fetch (already collated), or null to fetch sample by sample. */
  _getitems?(indices: readonly number[]): unknown | null;
}

export abstract class IterableDataset<T = Sample> {
  abstract [Symbol.iterator](): Iterator<T>;
}

const row = (t: Tensor, i: number): Tensor => {
  const n = t.shape[0] as number;
  const k = i < 0 ? i + n : i;
  if (!(k >= 0 && k < n)) throw new RangeError(`TensorDataset: index ${i} is out of range for ${n} samples`);
  const s = runOp('slice', [t], { axes: [0], starts: [k], ends: [k + 1] })[0] as Tensor;
  try { return runOp('squeeze', [s], { axis: [0] })[0] as Tensor; } finally { s.dispose(); }
};

/** Sample i is row i of every tensor. */
export class TensorDataset extends Dataset<Tensor[]> {
  readonly tensors: Tensor[];
  constructor(tensors: readonly Tensor[]) {
    super();
    if (!tensors.length) throw new RangeError('TensorDataset: needs at least one tensor');
    const n = tensors[0].shape[0];
    if (tensors.some((t) => t.shape[0] !== n)) {
      throw new RangeError(`TensorDataset: all tensors must have the same size in dimension 0, got ${tensors.map((t) => t.shape[0]).join(', ')}`);
    }
    this.tensors = [...tensors];
  }
  __getitem__(idx: number): Tensor[] { return this.tensors.map((t) => row(t, idx)); }
  __len__(): number { return this.tensors[0].shape[0] as number; }
  override _getitems(indices: readonly number[]): Tensor[] {
    const ix = to_tensor(BigInt64Array.from(indices, (i) => BigInt(i)));
    try { return this.tensors.map((t) => runOp('index_select', [t, ix], { axis: 0 })[0] as Tensor); } finally { ix.dispose(); }
  }
}

/** The samples of `dataset` at `indices`. */
export class Subset<T = Sample> extends Dataset<T> {
  readonly indices: number[];
  constructor(readonly dataset: Dataset<T>, indices: Iterable<number>) { super(); this.indices = [...indices]; }
  __getitem__(idx: number): T { return this.dataset.__getitem__(this.indices[idx]); }
  __len__(): number { return this.indices.length; }
  override _getitems(indices: readonly number[]): unknown | null {
    return this.dataset._getitems ? this.dataset._getitems(indices.map((i) => this.indices[i])) : null;
  }
}

/** Sample i is the fields of sample i of every dataset in one array. */
export class ComposeDataset extends Dataset<unknown[]> {
  readonly datasets: Dataset[];
  constructor(datasets: readonly Dataset[]) {
    super();
    if (!datasets.length) throw new RangeError('ComposeDataset: input datasets should not be empty');
    const n = datasets[0].__len__();
    if (datasets.some((d) => d.__len__() !== n)) throw new RangeError(`ComposeDataset: datasets must have the same length, got ${datasets.map((d) => d.__len__()).join(', ')}`);
    this.datasets = [...datasets];
  }
  __getitem__(idx: number): unknown[] {
    return this.datasets.flatMap((d) => { const s = d.__getitem__(idx); return Array.isArray(s) ? s : [s]; });
  }
  __len__(): number { return this.datasets[0].__len__(); }
}

/** Iterates several iterable datasets one after the other. */
export class ChainDataset<T = Sample> extends IterableDataset<T> {
  readonly datasets: IterableDataset<T>[];
  constructor(datasets: readonly IterableDataset<T>[]) {
    super();
    datasets.forEach((d, i) => {
      if (!(d instanceof IterableDataset)) throw new TypeError(`ChainDataset: datasets[${i}] is not an IterableDataset`);
    });
    this.datasets = [...datasets];
  }
  *[Symbol.iterator](): Iterator<T> { for (const d of this.datasets) yield* d as Iterable<T>; }
}

/** Several map-style datasets one after the other. */
export class ConcatDataset<T = Sample> extends Dataset<T> {
  constructor(readonly datasets: readonly Dataset<T>[]) { super(); }
  __len__(): number { return this.datasets.reduce((n, d) => n + d.__len__(), 0); }
  __getitem__(idx: number): T {
    let i = idx < 0 ? idx + this.__len__() : idx;
    for (const d of this.datasets) {
      const n = d.__len__();
      if (i < n && i >= 0) return d.__getitem__(i);
      i -= n;
    }
    throw new RangeError(`ConcatDataset: index ${idx} out of range for ${this.__len__()} samples`);
  }
}

/**
 * Non-overlapping Subsets of the given lengths (or fractions summing to 1, the remainder
 * handed out round-robin). The permutation follows paddle.seed.
 */
export function random_split<T>(dataset: Dataset<T>, lengths: readonly number[], rand: () => number = runtimeRand()): Subset<T>[] {
  const n = dataset.__len__();
  let sizes = [...lengths];
  const total = sizes.reduce((a, b) => a + b, 0);
  if (sizes.every((x) => x >= 0 && x <= 1) && Math.abs(total - 1) < 1e-6 && total !== n) {
    sizes = sizes.map((f) => Math.floor(f * n));
    const rest = n - sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < rest; i++) sizes[i % sizes.length]++;
  }
  if (sizes.reduce((a, b) => a + b, 0) !== n) throw new RangeError('random_split: sum of input lengths does not equal the length of the input dataset');
  const perm = permutation(n, rand);
  let start = 0;
  return sizes.map((m) => { const s = new Subset(dataset, perm.slice(start, start + m)); start += m; return s; });
}
