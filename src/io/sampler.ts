// Samplers: which indices a DataLoader reads and in which order. Random ones seed a small
// PRNG from the runtime's generator once per pass, so paddle.seed(n) makes them repeat.
import { mulberry32, permutation, runtimeRand } from './prng.js';

interface Sized { __len__(): number }

export abstract class Sampler implements Iterable<number> {
  abstract [Symbol.iterator](): Iterator<number>;
  abstract __len__(): number;
}

export class SequenceSampler extends Sampler {
  constructor(readonly data_source: Sized) { super(); }
  *[Symbol.iterator](): Iterator<number> { for (let i = 0; i < this.data_source.__len__(); i++) yield i; }
  __len__(): number { return this.data_source.__len__(); }
}

export class RandomSampler extends Sampler {
  readonly replacement: boolean;
  private readonly n: number | null;
  constructor(readonly data_source: Sized, opts: { replacement?: boolean; num_samples?: number | null } = {}) {
    super();
    this.replacement = opts.replacement ?? false;
    this.n = opts.num_samples ?? null;
    if (this.n !== null && !this.replacement) throw new RangeError('RandomSampler: num_samples should not be specified while replacement is False');
    if (!(Number.isInteger(this.num_samples) && this.num_samples > 0)) throw new RangeError(`RandomSampler: num_samples should be a positive integer, but got ${this.num_samples}`);
  }
  get num_samples(): number { return this.n ?? this.data_source.__len__(); }
  *[Symbol.iterator](): Iterator<number> {
    const rand = runtimeRand();
    const n = this.data_source.__len__();
    if (this.replacement) for (let i = 0; i < this.num_samples; i++) yield Math.floor(rand() * n);
    else yield* permutation(n, rand);
  }
  __len__(): number { return this.num_samples; }
}

export class SubsetRandomSampler extends Sampler {
  readonly indices: number[];
  constructor(indices: Iterable<number>) {
    super();
    this.indices = [...indices];
    if (!this.indices.length) throw new RangeError('SubsetRandomSampler: the length of `indices` should be greater than 0');
  }
  *[Symbol.iterator](): Iterator<number> { for (const k of permutation(this.indices.length, runtimeRand())) yield this.indices[k]; }
  __len__(): number { return this.indices.length; }
}

export class WeightedRandomSampler extends Sampler {
  readonly weights: number[];
  constructor(weights: Iterable<number>, readonly num_samples: number, readonly replacement = true) {
    super();
    this.weights = [...weights].map(Number);
    if (!(Number.isInteger(num_samples) && num_samples > 0)) throw new RangeError('WeightedRandomSampler: num_samples should be a positive integer');
    if (this.weights.some((w) => !(w >= 0)) || !this.weights.some((w) => w > 0)) throw new RangeError('WeightedRandomSampler: weights should be non-negative with at least one positive value');
    if (!replacement && num_samples > this.weights.filter((w) => w > 0).length) {
      throw new RangeError('WeightedRandomSampler: num_samples should not be greater than the number of positive weights when replacement is False');
    }
  }
  *[Symbol.iterator](): Iterator<number> {
    const rand = runtimeRand();
    const w = [...this.weights];
    for (let k = 0; k < this.num_samples; k++) {
      const total = w.reduce((a, b) => a + b, 0);
      let r = rand() * total, i = 0;
      while (i < w.length - 1 && (r >= w[i] || w[i] === 0)) { r -= w[i]; i++; }
      yield i;
      if (!this.replacement) w[i] = 0;
    }
  }
  __len__(): number { return this.num_samples; }
}

export interface BatchSamplerOptions { dataset?: Sized; sampler?: Iterable<number> & { __len__(): number }; shuffle?: boolean; batch_size?: number; drop_last?: boolean }

export class BatchSampler implements Iterable<number[]> {
  readonly sampler: Iterable<number> & { __len__(): number };
  readonly batch_size: number;
  readonly drop_last: boolean;
  constructor(opts: BatchSamplerOptions) {
    const { dataset, sampler, shuffle = false, batch_size = 1, drop_last = false } = opts;
    if (dataset === undefined) {
      if (!sampler) throw new TypeError('BatchSampler: either dataset or sampler should be set');
      if (shuffle) throw new TypeError('BatchSampler: shuffle should be False when sampler is set');
      this.sampler = sampler;
    } else {
      if (sampler) throw new TypeError('BatchSampler: should not set both dataset and sampler');
      this.sampler = shuffle ? new RandomSampler(dataset) : new SequenceSampler(dataset);
    }
    if (!(Number.isInteger(batch_size) && batch_size > 0)) throw new RangeError(`BatchSampler: batch_size should be a positive integer, but got ${batch_size}`);
    this.batch_size = batch_size;
    this.drop_last = drop_last;
  }
  *[Symbol.iterator](): Iterator<number[]> {
    let b: number[] = [];
    for (const i of this.sampler) {
      b.push(i);
      if (b.length === this.batch_size) { yield b; b = []; }
    }
    if (b.length && !this.drop_last) yield b;
  }
  __len__(): number {
    const n = this.sampler.__len__();
    return this.drop_last ? Math.floor(n / this.batch_size) : Math.ceil(n / this.batch_size);
  }
}

/**
 * This rank's batches of a dataset split over num_replicas (default 1: Skiff runs one
 * process). Indices are padded to a multiple of num_replicas; shuffling is seeded by the epoch
 * (set_epoch) so that every rank would agree.
 */
export class DistributedBatchSampler implements Iterable<number[]> {
  readonly nranks: number;
  readonly local_rank: number;
  readonly num_samples: number;
  readonly total_size: number;
  epoch = 0;
  constructor(readonly dataset: Sized, readonly batch_size: number,
    opts: { num_replicas?: number; rank?: number; shuffle?: boolean; drop_last?: boolean } = {}, readonly shuffle = opts.shuffle ?? false,
    readonly drop_last = opts.drop_last ?? false) {
    if (!(Number.isInteger(batch_size) && batch_size > 0)) throw new RangeError('DistributedBatchSampler: batch_size should be a positive integer');
    this.nranks = opts.num_replicas ?? 1;
    this.local_rank = opts.rank ?? 0;
    if (!(this.local_rank >= 0 && this.local_rank < this.nranks)) throw new RangeError(`DistributedBatchSampler: rank ${this.local_rank} is out of range for ${this.nranks} replicas`);
    this.num_samples = Math.ceil(dataset.__len__() / this.nranks);
    this.total_size = this.num_samples * this.nranks;
  }
  *[Symbol.iterator](): Iterator<number[]> {
    const n = this.dataset.__len__();
    let idx = Array.from({ length: n }, (_, i) => i);
    idx = idx.concat(idx.slice(0, this.total_size - n));
    if (this.shuffle) {
      const p = permutation(idx.length, mulberry32(this.epoch));
      idx = p.map((k) => idx[k]);
      this.epoch++;
    }
    // rank r takes the batch_size chunks r, r + nranks, ...; the last, shorter round is split evenly
    const step = this.batch_size * this.nranks;
    const tail = this.total_size % step;
    const own: number[] = [];
    for (let s = this.local_rank * this.batch_size; s < idx.length - tail; s += step) own.push(...idx.slice(s, s + this.batch_size));
    const per = Math.floor(tail / this.nranks);
    own.push(...idx.slice(idx.length - tail).slice(this.local_rank * per, (this.local_rank + 1) * per));
    for (let s = 0; s < own.length; s += this.batch_size) {
      const b = own.slice(s, s + this.batch_size);
      if (b.length === this.batch_size || !this.drop_last) yield b;
    }
  }
  __len__(): number { return this.drop_last ? Math.floor(this.num_samples / this.batch_size) : Math.ceil(this.num_samples / this.batch_size); }
  set_epoch(epoch: number): void { this.epoch = epoch; }
}
