// paddle.io for TypeScript: DataLoader batching and collation, seeded shuffling, drop_last,
// samplers, random_split, and the MNIST dataset (shapes, dtypes, fixed split).
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { mnistSets, MNIST_TRAIN_FRACTION } from '../../src/io/mnist.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const io = paddle.io;

class Numbers extends io.Dataset {
  constructor(readonly n: number) { super(); }
  __getitem__(i: number) { return [paddle.to_tensor([i, i + 0.5], 'float32'), i, i / 2 + 0.25, { k: i, s: `s${i}` }]; }
  __len__() { return this.n; }
}

const ids = (dl: Iterable<unknown>) => [...dl].map((b) => ((b as unknown[])[1] as Tensor).tolist());

describe('paddle.io DataLoader', () => {
  it('collates tensors, numbers, strings and objects per field', () => {
    const batches = [...new io.DataLoader(new Numbers(10), { batch_size: 4 })] as unknown[][];
    expect(batches.length).toBe(3);
    const [x, i, f, o] = batches[0] as [Tensor, Tensor, Tensor, { k: Tensor; s: string[] }];
    expect(x.shape).toEqual([4, 2]);
    expect(x.dtype).toBe('float32');
    expect(i.dtype).toBe('int64');
    expect(f.dtype).toBe('float32');
    expect(f.tolist()).toEqual([0.25, 0.75, 1.25, 1.75]);
    expect(o.k.tolist()).toEqual([0, 1, 2, 3]);
    expect(o.s).toEqual(['s0', 's1', 's2', 's3']);
    expect(((batches[2] as Tensor[])[0]).shape).toEqual([2, 2]);
  });

  it('drop_last and length', () => {
    const dl = new io.DataLoader(new Numbers(10), { batch_size: 4, drop_last: true });
    expect(dl.__len__()).toBe(2);
    expect(ids(dl)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(new io.DataLoader(new Numbers(10), { batch_size: 4 }).__len__()).toBe(3);
  });

  it('shuffles reproducibly under paddle.seed, a new order each pass', () => {
    const order = (s: number) => { paddle.seed(s); return ids(new io.DataLoader(new Numbers(12), { batch_size: 4, shuffle: true })); };
    const a = order(3);
    expect(order(3)).toEqual(a);
    expect(order(4)).not.toEqual(a);
    expect((a.flat() as number[]).sort((p, q) => p - q)).toEqual([...Array(12).keys()]);
    paddle.seed(5);
    const dl = new io.DataLoader(new Numbers(12), { batch_size: 12, shuffle: true });
    expect(ids(dl)).not.toEqual(ids(dl));
  });

  it('TensorDataset gathers whole batches; Subset, ComposeDataset, random_split', () => {
    const x = paddle.to_tensor([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], 'float32');
    const y = paddle.to_tensor([0, 1, 2, 3, 4], 'int64');
    const ds = new io.TensorDataset([x, y]);
    expect(ds.__len__()).toBe(5);
    expect((ds.__getitem__(2)[0] as Tensor).tolist()).toEqual([4, 5]);
    const [xb, yb] = [...new io.DataLoader(ds, { batch_size: 3 })][1] as Tensor[];
    expect(xb.tolist()).toEqual([[6, 7], [8, 9]]);
    expect(yb.tolist()).toEqual([3, 4]);
    const sub = new io.Subset(ds, [4, 0]);
    expect((sub.__getitem__(0)[1] as Tensor).tolist()).toBe(4);
    expect(new io.ComposeDataset([ds, new Numbers(5)]).__getitem__(1).length).toBe(6);
    paddle.seed(1);
    const [a, b] = io.random_split(new Numbers(10), [7, 3]);
    expect([a.__len__(), b.__len__()]).toEqual([7, 3]);
    expect([...a.indices, ...b.indices].sort((p: number, q: number) => p - q)).toEqual([...Array(10).keys()]);
    expect(io.random_split(new Numbers(10), [0.5, 0.3, 0.2]).map((s: { __len__(): number }) => s.__len__())).toEqual([5, 3, 2]);
    expect(() => io.random_split(new Numbers(10), [3, 3])).toThrow(/sum of input lengths/);
  });

  it('samplers', () => {
    const src = new Numbers(6);
    expect([...new io.SequenceSampler(src)]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...new io.RandomSampler(src)].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const rr = [...new io.RandomSampler(src, { replacement: true, num_samples: 20 })];
    expect(rr.length).toBe(20);
    expect([...new io.SubsetRandomSampler([10, 11, 12])].sort()).toEqual([10, 11, 12]);
    const w = [...new io.WeightedRandomSampler([0, 1, 0, 3], 50)];
    expect(new Set(w).size <= 2 && w.every((i: number) => i === 1 || i === 3)).toBe(true);
    expect([...new io.WeightedRandomSampler([1, 1, 1, 0], 3, false)].sort()).toEqual([0, 1, 2]);
    const bs = new io.BatchSampler({ sampler: new io.SequenceSampler(new Numbers(5)), batch_size: 2 });
    expect([...bs]).toEqual([[0, 1], [2, 3], [4]]);
    const dl = new io.DataLoader(new Numbers(5), { batch_sampler: bs });
    expect(ids(dl)).toEqual([[0, 1], [2, 3], [4]]);
    const d = new io.DistributedBatchSampler(new Numbers(10), 4);
    expect([...d]).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    const two = [0, 1].map((r) => [...new io.DistributedBatchSampler(new Numbers(10), 2, { num_replicas: 2, rank: r })].flat());
    expect([...two[0], ...two[1]].sort((p, q) => p - q)).toEqual([...Array(10).keys()]);
  });

  it('iterable datasets batch from their iterator', () => {
    class Stream extends io.IterableDataset {
      *[Symbol.iterator]() { for (let i = 0; i < 7; i++) yield [paddle.to_tensor([i], 'float32'), i]; }
    }
    const out = [...new io.DataLoader(new Stream(), { batch_size: 3, drop_last: true })] as Tensor[][];
    expect(out.length).toBe(2);
    expect(out[1][1].tolist()).toEqual([3, 4, 5]);
    expect(() => new io.DataLoader(new Stream(), { shuffle: true })).toThrow(/shuffle/);
  });
});

describe('paddle.vision.datasets.MNIST', () => {
  it('reads the mnist package once into a fixed 90/10 split per digit', () => {
    const { train, test } = mnistSets();
    expect(train.count + test.count).toBe(10000);
    expect(Math.abs(train.count / 10000 - MNIST_TRAIN_FRACTION)).toBeLessThan(0.01);
    expect(Array.from(test.labels.slice(0, 6), Number)).toEqual([8, 6, 3, 0, 7, 3]);
  });

  it('items and batches have Paddle shapes and dtypes', () => {
    const ds = new paddle.vision.datasets.MNIST({ mode: 'test' });
    const [img, label] = ds.__getitem__(0) as Tensor[];
    expect(img.shape).toEqual([1, 28, 28]);
    expect(img.dtype).toBe('float32');
    expect(label.shape).toEqual([1]);
    expect(label.dtype).toBe('int64');
    const [x, y] = [...new io.DataLoader(ds, { batch_size: 16 })][0] as Tensor[];
    expect(x.shape).toEqual([16, 1, 28, 28]);
    expect(y.shape).toEqual([16, 1]);
    const v = x.dataSync() as number[];
    expect(Math.min(...v)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...v)).toBeLessThanOrEqual(1);
  });
});
