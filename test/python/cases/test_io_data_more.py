"""paddle.io from Python, the rest of issue 9's data list: ChainDataset through the DataLoader,
DistributedBatchSampler's padding and per-rank split (worked out from Paddle's rule), seeded
samplers and random_split repeating under paddle.seed, WeightedRandomSampler's frequencies,
and a Compose of vision transforms."""
import paddle
from paddle.io import (BatchSampler, ChainDataset, DataLoader, Dataset, DistributedBatchSampler, IterableDataset,
                       RandomSampler, SubsetRandomSampler, WeightedRandomSampler, random_split)
import paddle.vision.transforms as T


class Range(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return i

    def __len__(self):
        return self.n


class Stream(IterableDataset):
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __iter__(self):
        for i in range(self.lo, self.hi):
            yield paddle.to_tensor([float(i)]), i


def test_chain_dataset_through_the_loader():
    chain = ChainDataset([Stream(0, 3), Stream(10, 12)])
    assert [s[1] for s in chain] == [0, 1, 2, 10, 11]
    batches = list(DataLoader(chain, batch_size=2))
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 10], [11]]
    assert batches[0][0].shape == [2, 1]
    assert len(list(DataLoader(chain, batch_size=None))) == 5
    try:
        len(DataLoader(chain))
    except TypeError:
        pass
    else:
        raise AssertionError('len of an iterable loader must raise')


def test_distributed_batch_sampler_padding_rule():
    # 10 samples over 3 ranks: num_samples ceil(10/3) = 4, total 12, indices 0..9 then 0, 1 as
    # padding; chunks of 2 go to ranks 0, 1, 2, 0, 1, 2
    ranks = [list(DistributedBatchSampler(Range(10), 2, num_replicas=3, rank=r)) for r in range(3)]
    assert ranks == [[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [0, 1]]], ranks
    # batch 4 over 2 ranks: one full round of 8, then the 2-long tail is split 1 and 1
    two = [DistributedBatchSampler(Range(10), 4, num_replicas=2, rank=r) for r in range(2)]
    assert [list(d) for d in two] == [[[0, 1, 2, 3], [8]], [[4, 5, 6, 7], [9]]]
    assert [len(d) for d in two] == [2, 2]
    dl = DistributedBatchSampler(Range(10), 4, num_replicas=2, rank=0, drop_last=True)
    assert list(dl) == [[0, 1, 2, 3]] and len(dl) == 1
    single = DistributedBatchSampler(Range(7), 3)
    assert list(single) == [[0, 1, 2], [3, 4, 5], [6]] and len(single) == 3
    try:
        DistributedBatchSampler(Range(10), 2, num_replicas=2, rank=2)
    except ValueError as e:
        assert 'rank 2' in str(e)
    else:
        raise AssertionError('rank out of range accepted')


def _draw(seed):
    paddle.seed(seed)
    return (list(WeightedRandomSampler([1, 2, 3, 4], 12)), list(SubsetRandomSampler([5, 6, 7, 8, 9])),
            list(RandomSampler(Range(8))), [p.indices for p in random_split(Range(10), [0.5, 0.3, 0.2])])


def test_seeded_samplers_and_split_repeat():
    a, b, c = _draw(11), _draw(11), _draw(12)
    assert a == b and a != c
    assert sorted(a[1]) == [5, 6, 7, 8, 9]
    assert [len(p) for p in a[3]] == [5, 3, 2]
    assert sorted(i for p in a[3] for i in p) == list(range(10))


def test_weighted_sampler_frequencies():
    paddle.seed(3)
    n = 20000
    counts = [0, 0, 0, 0]
    for i in WeightedRandomSampler([1.0, 0.0, 3.0, 6.0], n):
        counts[i] += 1
    assert counts[1] == 0
    for i, p in enumerate([0.1, 0.0, 0.3, 0.6]):
        assert abs(counts[i] / n - p) < 0.02, counts
    assert sorted(WeightedRandomSampler([1, 1, 1, 0], 3, replacement=False)) == [0, 1, 2]
    for bad in (lambda: WeightedRandomSampler([1, 0], 2, replacement=False), lambda: WeightedRandomSampler([-1, 2], 2)):
        try:
            bad()
        except ValueError:
            pass
        else:
            raise AssertionError('bad WeightedRandomSampler accepted')


def test_batch_sampler_over_a_random_subset():
    bs = BatchSampler(sampler=SubsetRandomSampler([0, 2, 4, 6, 8]), batch_size=2, drop_last=True)
    got = list(bs)
    assert len(got) == 2 == len(bs) and all(i % 2 == 0 for b in got for i in b)


def test_compose_pipeline():
    pipe = T.Compose([T.ToTensor(), T.Normalize(mean=0.5, std=0.5), T.Resize((1, 4), interpolation='nearest')])
    out = pipe(paddle.to_tensor([[0, 255]], dtype='uint8'))
    assert out.shape == [1, 1, 4] and out.tolist() == [[[-1.0, -1.0, 1.0, 1.0]]]
