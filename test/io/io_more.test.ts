// paddle.io for TypeScript, the rest of issue 9's data list: ChainDataset through the DataLoader,
// DistributedBatchSampler's padding and per-rank split (worked out from Paddle's rule), seeded
// samplers and random_split repeating under paddle.seed, WeightedRandomSampler's frequencies,
// and paddle.vision.transforms.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const io = paddle.io as any;
const T = (paddle as any).vision.transforms;

class Range extends io.Dataset {
  constructor(readonly n: number) { super(); }
  __getitem__(i: number) { return i; }
  __len__() { return this.n; }
}
class Stream extends io.IterableDataset {
  constructor(readonly from: number, readonly to: number) { super(); }
  *[Symbol.iterator]() { for (let i = this.from; i < this.to; i++) yield [paddle.to_tensor([i], 'float32'), i]; }
}

describe('datasets and samplers', () => {
  it('ChainDataset streams its datasets in order, through the DataLoader too', () => {
    const chain = new io.ChainDataset([new Stream(0, 3), new Stream(10, 12)]);
    expect([...chain].map((s: any) => s[1])).toEqual([0, 1, 2, 10, 11]);
    const batches = [...new io.DataLoader(chain, { batch_size: 2 })] as Tensor[][];
    expect(batches.map((b) => b[1].tolist())).toEqual([[0, 1], [2, 10], [11]]);
    expect(batches[0][0].shape).toEqual([2, 1]);
    expect(() => new io.DataLoader(chain).__len__()).toThrow(/length of IterableDataset/);
    expect(() => new io.ChainDataset([new Range(3)])).toThrow(/ChainDataset: datasets\[0\] is not an IterableDataset/);
    const none = [...new io.DataLoader(new Stream(0, 2), { batch_size: null })] as unknown[][];
    expect(none.length).toBe(2);
  });

  it('DistributedBatchSampler pads to a multiple of num_replicas and deals batch chunks round robin', () => {
    // 10 samples over 3 ranks: num_samples ceil(10/3) = 4, total 12, indices 0..9 then 0, 1 as padding;
    // chunks of 2 go to ranks 0, 1, 2, 0, 1, 2
    const ranks = [0, 1, 2].map((r) => [...new io.DistributedBatchSampler(new Range(10), 2, { num_replicas: 3, rank: r })]);
    expect(ranks).toEqual([[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [0, 1]]]);
    // 10 over 2 ranks with batch 4: a full round of 8, then the 2-long tail is split 1 and 1
    const two = [0, 1].map((r) => new io.DistributedBatchSampler(new Range(10), 4, { num_replicas: 2, rank: r }));
    expect(two.map((d) => [...d])).toEqual([[[0, 1, 2, 3], [8]], [[4, 5, 6, 7], [9]]]);
    expect(two.map((d) => d.__len__())).toEqual([2, 2]);
    const dl = new io.DistributedBatchSampler(new Range(10), 4, { num_replicas: 2, rank: 0, drop_last: true });
    expect([...dl]).toEqual([[0, 1, 2, 3]]);
    expect(dl.__len__()).toBe(1);
    // single process: every index once; shuffling follows the epoch
    const sh = new io.DistributedBatchSampler(new Range(10), 10, { shuffle: true });
    const e0 = [...sh][0];
    const e1 = [...sh][0];
    sh.set_epoch(0);
    expect([...sh][0]).toEqual(e0);
    expect([...e0].sort((a: number, b: number) => a - b)).toEqual([...Array(10).keys()]);
    expect(e1).not.toEqual(e0);
    expect(() => new io.DistributedBatchSampler(new Range(10), 2, { num_replicas: 2, rank: 2 })).toThrow(/rank 2 is out of range for 2 replicas/);
  });

  it('seeded samplers and random_split repeat under paddle.seed', () => {
    const draw = (seed: number) => {
      paddle.seed(seed);
      return {
        w: [...new io.WeightedRandomSampler([1, 2, 3, 4], 12)],
        s: [...new io.SubsetRandomSampler([5, 6, 7, 8, 9])],
        r: [...new io.RandomSampler(new Range(8))],
        split: io.random_split(new Range(10), [0.5, 0.3, 0.2]).map((p: any) => p.indices),
      };
    };
    const a = draw(11), b = draw(11), c = draw(12);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect([...a.s].sort()).toEqual([5, 6, 7, 8, 9]);
    expect(a.split.map((p: number[]) => p.length)).toEqual([5, 3, 2]);
    expect(a.split.flat().sort((x: number, y: number) => x - y)).toEqual([...Array(10).keys()]);
  });

  it('WeightedRandomSampler follows its weights (with and without replacement)', () => {
    paddle.seed(3);
    const n = 20000;
    const counts = [0, 0, 0, 0];
    for (const i of new io.WeightedRandomSampler([1, 0, 3, 6], n)) counts[i]++;
    expect(counts[1]).toBe(0);
    [0.1, 0, 0.3, 0.6].forEach((p, i) => expect(Math.abs(counts[i] / n - p)).toBeLessThan(0.02));
    const once = [...new io.WeightedRandomSampler([1, 1, 1, 0], 3, false)];
    expect(once.sort()).toEqual([0, 1, 2]);
    expect(() => new io.WeightedRandomSampler([1, 0], 2, false)).toThrow(/WeightedRandomSampler: num_samples should not be greater/);
    expect(() => new io.WeightedRandomSampler([-1, 2], 2)).toThrow(/WeightedRandomSampler: weights should be non-negative/);
  });

  it('BatchSampler over a sampler, and as the DataLoader batch_sampler', () => {
    const bs = new io.BatchSampler({ sampler: new io.SubsetRandomSampler([0, 2, 4, 6, 8]), batch_size: 2, drop_last: true });
    const got = [...bs] as number[][];
    expect(got.length).toBe(2);
    expect(bs.__len__()).toBe(2);
    expect(got.flat().every((i) => i % 2 === 0)).toBe(true);
    const dl = new io.DataLoader(new Range(5), { batch_sampler: new io.BatchSampler({ dataset: new Range(5), batch_size: 3 }) });
    expect([...dl].map((b: any) => b.tolist())).toEqual([[0, 1, 2], [3, 4]]);
  });
});

describe('paddle.vision.transforms', () => {
  const img = () => paddle.reshape(paddle.arange(0, 16, 1, 'float32'), [4, 4]);
  it('ToTensor, Normalize, Resize, CenterCrop, flips', () => {
    const t = new T.ToTensor().call(img());
    expect(t.shape).toEqual([1, 4, 4]);
    expect(new T.ToTensor('HWC').call(img()).shape).toEqual([4, 4, 1]);
    expect(new T.Normalize([1], [2]).call(t).tolist()[0][0].slice(0, 2)).toEqual([-0.5, 0]);
    expect(new T.Resize([2, 2], 'nearest').call(t).tolist()).toEqual([[[0, 2], [8, 10]]]);
    // bilinear with half-pixel centres: output (0, 0) samples source (0.5, 0.5), the mean of 0, 1, 4, 5
    expect(new T.Resize([2, 2]).call(t).tolist()).toEqual([[[2.5, 4.5], [10.5, 12.5]]]);
    expect(new T.Resize(8).call(t).shape).toEqual([1, 8, 8]);
    expect(new T.Resize(2).call(paddle.zeros([3, 4, 8])).shape).toEqual([3, 2, 4]);
    expect(new T.CenterCrop(2).call(t).tolist()).toEqual([[[5, 6], [9, 10]]]);
    expect(new T.RandomHorizontalFlip(1).call(t).tolist()[0][0]).toEqual([3, 2, 1, 0]);
    expect(new T.RandomHorizontalFlip(0).call(t).tolist()[0][0]).toEqual([0, 1, 2, 3]);
    expect(new T.RandomVerticalFlip(1).call(t).tolist()[0][0]).toEqual([12, 13, 14, 15]);
  });

  it('uint8 images scale to [0, 1]; Resize keeps integer dtypes', () => {
    const u8 = new T.ToTensor().call(paddle.to_tensor([[255, 0, 51]], 'uint8'));
    expect(u8.dtype).toBe('float32');
    expect((u8.tolist() as number[][][])[0][0].map((v) => Math.round(v * 1e4) / 1e4)).toEqual([1, 0, 0.2]);
    const r = new T.Resize([1, 2]).call(paddle.to_tensor([[[10, 20, 30, 40]]], 'uint8'));
    expect(r.dtype).toBe('uint8');
    expect(r.tolist()).toEqual([[[15, 35]]]);
  });

  it('RandomCrop repeats under paddle.seed and pads', () => {
    const t = new T.ToTensor().call(img());
    paddle.seed(7);
    const c1 = new T.RandomCrop(2).call(t).tolist();
    paddle.seed(7);
    expect(new T.RandomCrop(2).call(t).tolist()).toEqual(c1);
    const p = new T.RandomCrop(6, 1).call(t);
    expect(p.shape).toEqual([1, 6, 6]);
    expect(p.tolist()[0][0]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(new T.RandomCrop(5, null, true).call(t).shape).toEqual([1, 5, 5]);
    expect(() => new T.RandomCrop(5).call(t)).toThrow(/RandomCrop: crop size 5x5 is larger than the 4x4 image/);
  });

  it('Compose chains transforms and functions; errors name the transform', () => {
    const pipe = new T.Compose([new T.ToTensor(), new T.Normalize(0.5, 0.5), (x: Tensor) => paddle.scale(x, 2)]);
    const out = pipe.call(paddle.to_tensor([[0, 255]], 'uint8'));
    expect(out.tolist()).toEqual([[[-2, 2]]]);
    expect(() => new T.Resize(0).call(img())).toThrow(/resize: size should be a positive integer/);
    expect(() => new T.Normalize([0, 0], [1, 1]).call(paddle.zeros([3, 2, 2]))).toThrow(/normalize: mean has 2 values for 3 channels/);
    expect(() => T.functional.crop(img(), 3, 3, 2, 2)).toThrow(/crop: box .* does not fit the 4x4 image/);
    expect(() => new T.RandomHorizontalFlip(2)).toThrow(/RandomHorizontalFlip: prob should be in \[0, 1\], got 2/);
  });
});
