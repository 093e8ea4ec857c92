// paddle.io.DataLoader for TypeScript: batches from a dataset through a batch sampler and a
// collate function. Default collation stacks each tensor field with one `stack` op; numbers
// become one tensor from one typed array (all integers -> int64, else float32: JS cannot tell
// 2 from 2.0), booleans a bool tensor, strings stay arrays; arrays and plain objects are
// collated per position / per key. Sample tensors are temporaries of the batch and disposed.
import { runOp } from '../ops/dispatch.js';
import { to_tensor } from '../tensor/creation.js';
import { scope, Tensor } from '../tensor/tensor.js';
import { Dataset, IterableDataset } from './dataset.js';
import { BatchSampler } from './sampler.js';

export type CollateFn = (samples: unknown[]) => unknown;

export function default_collate_fn(batch: readonly unknown[]): unknown {
  const s = batch[0];
  if (s instanceof Tensor) return runOp('stack', batch as Tensor[], { axis: 0 })[0];
  if (typeof s === 'boolean') return to_tensor(batch as boolean[], 'bool');
  if (typeof s === 'number' || typeof s === 'bigint') {
    const ints = batch.every((x) => typeof x === 'bigint' || Number.isInteger(x));
    return ints ? to_tensor(BigInt64Array.from(batch as (number | bigint)[], (x) => BigInt(x))) : to_tensor(Float32Array.from(batch as number[]));
  }
  if (typeof s === 'string') return [...batch];
  if (Array.isArray(s)) {
    const n = s.length;
    if (batch.some((b) => !Array.isArray(b) || b.length !== n)) throw new RangeError('default_collate_fn: fields number not same among samples in a batch');
    return s.map((_, i) => default_collate_fn(batch.map((b) => (b as unknown[])[i])));
  }
  if (s !== null && typeof s === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(s)) out[k] = default_collate_fn(batch.map((b) => (b as Record<string, unknown>)[k]));
    return out;
  }
  throw new TypeError(`default_collate_fn: batch data can only contain tensors, numbers, booleans, strings, arrays and objects, got ${typeof s}`);
}

export interface DataLoaderOptions {
  batch_size?: number | null;
  shuffle?: boolean;
  drop_last?: boolean;
  collate_fn?: CollateFn | null;
  batch_sampler?: Iterable<number[]> & { __len__?(): number } | null;
  num_workers?: number;
}

export class DataLoader implements Iterable<unknown> {
  readonly batch_size: number | null;
  readonly drop_last: boolean;
  readonly collate_fn: CollateFn | null;
  readonly batch_sampler: (Iterable<number[]> & { __len__?(): number }) | null;

  constructor(readonly dataset: Dataset | IterableDataset, opts: DataLoaderOptions = {}) {
    const { batch_size = 1, shuffle = false, drop_last = false, collate_fn = null, batch_sampler = null } = opts;
    const iterable = dataset instanceof IterableDataset;
    if (iterable && shuffle) throw new TypeError('DataLoader: IterableDataset does not support shuffle');
    if (iterable && batch_sampler) throw new TypeError('DataLoader: IterableDataset expects no batch_sampler');
    this.collate_fn = collate_fn;
    if (batch_sampler) {
      if (batch_size !== 1 || shuffle || drop_last) throw new TypeError('DataLoader: batch_size, shuffle and drop_last should not be set when batch_sampler is given');
      this.batch_sampler = batch_sampler;
      this.batch_size = (batch_sampler as { batch_size?: number }).batch_size ?? null;
      this.drop_last = (batch_sampler as { drop_last?: boolean }).drop_last ?? false;
    } else {
      if (batch_size !== null && !(Number.isInteger(batch_size) && batch_size > 0)) throw new RangeError(`DataLoader: batch_size should be null or a positive integer, but got ${batch_size}`);
      this.batch_size = batch_size;
      this.drop_last = drop_last;
      this.batch_sampler = iterable || batch_size === null ? null : new BatchSampler({ dataset: dataset as Dataset, batch_size, shuffle, drop_last });
    }
  }

  __len__(): number {
    if (this.dataset instanceof IterableDataset) throw new TypeError('DataLoader: length of IterableDataset not supported');
    if (!this.batch_sampler) return this.dataset.__len__();
    if (!this.batch_sampler.__len__) throw new TypeError('DataLoader: the batch_sampler has no length');
    return this.batch_sampler.__len__();
  }

  get length(): number { return this.__len__(); }

  private collate(samples: unknown[]): unknown {
    return scope(() => (this.collate_fn ?? default_collate_fn)(samples));
  }

  *[Symbol.iterator](): Iterator<unknown> {
    const ds = this.dataset;
    if (ds instanceof IterableDataset) {
      if (this.batch_size === null) { for (const s of ds) yield s; return; }
      let b: unknown[] = [];
      for (const s of ds) {
        b.push(s);
        if (b.length === this.batch_size) { yield this.collate(b); b = []; }
      }
      if (b.length && !this.drop_last) yield this.collate(b);
      return;
    }
    if (!this.batch_sampler) { for (let i = 0; i < ds.__len__(); i++) yield ds.__getitem__(i); return; }
    for (const idx of this.batch_sampler) {
      const fast = this.collate_fn === null && ds._getitems ? scope(() => ds._getitems!(idx)) : null;
      yield fast ?? scope(() => this.collate(idx.map((i) => ds.__getitem__(i))));
    }
  }
}
