"""Dataset classes of paddle.io (map-style and iterable) and random_split."""
import bisect

from ._rng import python_rng


class Dataset:
    """Map-style dataset: subclasses implement __getitem__(idx) and __len__()."""

    def __getitem__(self, idx):
        raise NotImplementedError("'{}' not implement in class {}".format('__getitem__', self.__class__.__name__))

    def __len__(self):
        raise NotImplementedError("'{}' not implement in class {}".format('__len__', self.__class__.__name__))

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Stream-style dataset: subclasses implement __iter__()."""

    def __iter__(self):
        raise NotImplementedError("'{}' not implement in class {}".format('__iter__', self.__class__.__name__))

    def __getitem__(self, idx):
        raise RuntimeError("'{}' should not be called for IterableDataset".format('__getitem__'))

    def __len__(self):
        raise RuntimeError("'{}' should not be called for IterableDataset".format('__len__'))


class TensorDataset(Dataset):
    """Samples are the i-th rows of each tensor (all tensors share their first dimension)."""

    def __init__(self, tensors):
        tensors = list(tensors)
        if not tensors:
            raise ValueError('TensorDataset: needs at least one tensor')
        n = tensors[0].shape[0]
        for t in tensors:
            if t.shape[0] != n:
                raise ValueError('TensorDataset: all tensors must have the same size in dimension 0, got %s'
                                 % [u.shape[0] for u in tensors])
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = list(indices)

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)

    def _skiff_getitems(self, idx):
        """The wrapped dataset's batched fetch, when it has one (see DataLoader)."""
        f = getattr(self.dataset, '_skiff_getitems', None)
        return f([self.indices[i] for i in idx]) if f is not None else None


class ComposeDataset(Dataset):
    """Sample i is the fields of sample i of every dataset, concatenated into one tuple."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError('ComposeDataset: input datasets should not be empty')
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError('ComposeDataset: only map-style datasets can be composed, got an IterableDataset')
        n = len(self.datasets[0])
        if any(len(d) != n for d in self.datasets):
            raise ValueError('ComposeDataset: datasets must have the same length, got %s' % [len(d) for d in self.datasets])

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        out = []
        for d in self.datasets:
            s = d[idx]
            out.extend(s if isinstance(s, (list, tuple)) else [s])
        return tuple(out)


class ChainDataset(IterableDataset):
    """Iterates the iterable datasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """The samples of several map-style datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        self.cumulative_sizes = []
        n = 0
        for d in self.datasets:
            n += len(d)
            self.cumulative_sizes.append(n)

    def __len__(self):
        return self.cumulative_sizes[-1] if self.cumulative_sizes else 0

    def __getitem__(self, idx):
        if idx < 0:
            idx += len(self)
        if not 0 <= idx < len(self):
            raise IndexError('ConcatDataset: index %d out of range for %d samples' % (idx, len(self)))
        k = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[k][idx - (self.cumulative_sizes[k - 1] if k else 0)]


def random_split(dataset, lengths, generator=None):
    """Splits into non-overlapping Subsets of the given lengths (or fractions summing to 1).

    The permutation comes from the runtime's generator (paddle.seed) unless `generator` (an
    object with .shuffle, such as random.Random) is given.
    """
    n = len(dataset)
    lengths = list(lengths)
    if lengths and all(0 <= x <= 1 for x in lengths) and abs(sum(lengths) - 1) < 1e-6 and sum(lengths) != n:
        sizes = [int(f * n) for f in lengths]
        for i in range(n - sum(sizes)):     # hand out the remainder round-robin, as Paddle does
            sizes[i % len(sizes)] += 1
        lengths = sizes
    if sum(lengths) != n:
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    idx = list(range(n))
    (generator if generator is not None and hasattr(generator, 'shuffle') else python_rng()).shuffle(idx)
    out, start = [], 0
    for m in lengths:
        out.append(Subset(dataset, idx[start:start + m]))
        start += m
    return out
