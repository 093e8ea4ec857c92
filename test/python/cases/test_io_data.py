"""paddle.io: DataLoader batching and collation, seeded shuffling, drop_last, samplers, splits."""
import paddle
from paddle.io import (BatchSampler, ComposeDataset, DataLoader, Dataset, DistributedBatchSampler, IterableDataset,
                       RandomSampler, SequenceSampler, Subset, SubsetRandomSampler, TensorDataset,
                       WeightedRandomSampler, random_split)


class Numbers(Dataset):
    """Sample i: (float tensor [2], int i, float i / 2)."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return paddle.to_tensor([i, i + 0.5], dtype='float32'), i, i / 2

    def __len__(self):
        return self.n


def test_batches_stack_tensors_and_numbers():
    batches = list(DataLoader(Numbers(10), batch_size=4))
    assert len(batches) == 3
    x, i, f = batches[0]
    assert x.shape == [4, 2] and x.dtype == paddle.float32
    assert i.dtype == paddle.int64 and i.tolist() == [0, 1, 2, 3]
    assert f.dtype == paddle.float32 and f.tolist() == [0.0, 0.5, 1.0, 1.5]
    assert batches[-1][0].shape == [2, 2]      # the partial last batch is kept
    assert x.tolist()[3] == [3.0, 3.5]


def test_drop_last_and_len():
    dl = DataLoader(Numbers(10), batch_size=4, drop_last=True)
    assert len(dl) == 2 and [b[1].tolist() for b in dl] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert len(DataLoader(Numbers(10), batch_size=4)) == 3


def test_collate_dicts_and_nested():
    class D(Dataset):
        def __getitem__(self, i):
            return {'x': paddle.full([3], float(i)), 'y': i, 'name': 's%d' % i, 'pair': (i, True)}

        def __len__(self):
            return 5

    b = next(iter(DataLoader(D(), batch_size=3)))
    assert b['x'].shape == [3, 3] and b['y'].tolist() == [0, 1, 2]
    assert b['name'] == ['s0', 's1', 's2']
    assert b['pair'][0].tolist() == [0, 1, 2] and b['pair'][1].dtype == paddle.bool


def test_custom_collate_and_batch_size_none():
    dl = DataLoader(Numbers(5), batch_size=2, collate_fn=lambda s: [t[1] for t in s])
    assert list(dl) == [[0, 1], [2, 3], [4]]
    one = list(DataLoader(Numbers(3), batch_size=None))
    assert len(one) == 3 and one[1][0].shape == [2] and one[1][1].tolist() == 1


def _order(seed):
    paddle.seed(seed)
    return [b[1].tolist() for b in DataLoader(Numbers(12), batch_size=4, shuffle=True)]


def test_shuffle_follows_paddle_seed():
    a, b, c = _order(3), _order(3), _order(4)
    assert a == b and a != c
    assert sorted(sum(a, [])) == list(range(12))
    paddle.seed(5)
    dl = DataLoader(Numbers(12), batch_size=12, shuffle=True)
    e1, e2 = next(iter(dl))[1].tolist(), next(iter(dl))[1].tolist()
    assert e1 != e2     # a new permutation each epoch


def test_tensor_dataset_and_subset_and_compose():
    x = paddle.arange(12, dtype='float32').reshape([6, 2])
    y = paddle.arange(6)
    ds = TensorDataset([x, y])
    assert len(ds) == 6 and ds[2][0].tolist() == [4.0, 5.0] and ds[2][1].tolist() == 2
    sub = Subset(ds, [5, 0])
    assert len(sub) == 2 and sub[0][1].tolist() == 5
    comp = ComposeDataset([ds, Numbers(6)])
    assert len(comp) == 6 and len(comp[1]) == 5
    xb, yb = next(iter(DataLoader(ds, batch_size=4)))
    assert xb.shape == [4, 2] and yb.tolist() == [0, 1, 2, 3]
    try:
        TensorDataset([x, paddle.arange(5)])
        raise AssertionError('expected ValueError')
    except ValueError:
        pass


def test_random_split_sizes():
    paddle.seed(1)
    a, b = random_split(Numbers(10), [7, 3])
    assert len(a) == 7 and len(b) == 3
    assert sorted(a.indices + b.indices) == list(range(10))
    parts = random_split(Numbers(10), [0.5, 0.3, 0.2])
    assert [len(p) for p in parts] == [5, 3, 2]
    paddle.seed(1)
    assert random_split(Numbers(10), [7, 3])[0].indices == a.indices
    try:
        random_split(Numbers(10), [3, 3])
        raise AssertionError('expected ValueError')
    except ValueError:
        pass


def test_samplers():
    assert list(SequenceSampler(range(4))) == [0, 1, 2, 3]
    paddle.seed(2)
    r = list(RandomSampler(range(6)))
    assert sorted(r) == list(range(6))
    rr = list(RandomSampler(range(3), replacement=True, num_samples=20))
    assert len(rr) == 20 and set(rr) <= {0, 1, 2}
    s = list(SubsetRandomSampler([10, 11, 12]))
    assert sorted(s) == [10, 11, 12]
    w = list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 50))
    assert len(w) == 50 and set(w) <= {1, 3}
    wn = list(WeightedRandomSampler([1, 1, 1, 0], 3, replacement=False))
    assert sorted(wn) == [0, 1, 2]
    bs = BatchSampler(sampler=SequenceSampler(range(5)), batch_size=2)
    assert list(bs) == [[0, 1], [2, 3], [4]] and len(bs) == 3
    assert len(BatchSampler(dataset=range(5), batch_size=2, drop_last=True)) == 2


def test_distributed_batch_sampler_single_process():
    d = DistributedBatchSampler(Numbers(10), batch_size=4)
    assert list(d) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(d) == 3
    two = [list(DistributedBatchSampler(Numbers(10), 2, num_replicas=2, rank=r)) for r in (0, 1)]
    got = sorted(i for b in two[0] + two[1] for i in b)
    assert got == list(range(10))
    sh = DistributedBatchSampler(Numbers(10), 10, shuffle=True)
    e0 = list(sh)[0]
    sh.set_epoch(0)
    assert list(sh)[0] == e0 and sorted(e0) == list(range(10))


def test_batch_sampler_argument_and_iterable_dataset():
    dl = DataLoader(Numbers(6), batch_sampler=BatchSampler(dataset=Numbers(6), batch_size=4))
    assert [b[1].tolist() for b in dl] == [[0, 1, 2, 3], [4, 5]]

    class Stream(IterableDataset):
        def __iter__(self):
            for i in range(7):
                yield paddle.to_tensor([float(i)]), i

    out = list(DataLoader(Stream(), batch_size=3, drop_last=True))
    assert len(out) == 2 and out[1][0].shape == [3, 1] and out[1][1].tolist() == [3, 4, 5]
