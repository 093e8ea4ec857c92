"""Samplers: which indices a DataLoader reads, in which order, grouped into batches."""
import math
import random

from ._rng import python_rng


class Sampler:
    """Base class: iterates dataset indices."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequenceSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A new random permutation each pass (seeded by paddle.seed); with `replacement`,
    `num_samples` independent draws. `generator`, when given, is an iterator of indices."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError('expect boolean value for replacement, but got replacement={}'.format(replacement))
        if num_samples is not None and not replacement:
            raise ValueError('num_samples should not be specified while replacement is False')
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError('num_samples should be a positive integer, but got num_samples={}'.format(self.num_samples))

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is not None:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        rng = python_rng()
        if self.replacement:
            for _ in range(self.num_samples):
                yield rng.randrange(n)
        else:
            idx = list(range(n))
            rng.shuffle(idx)
            yield from idx

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (new each pass)."""

    def __init__(self, indices):
        self.indices = list(indices)
        if not self.indices:
            raise ValueError('The length of `indices` in SubsetRandomSampler should be greater than 0.')

    def __iter__(self):
        idx = list(self.indices)
        python_rng().shuffle(idx)
        return iter(idx)

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probability proportional to `weights`."""

    def __init__(self, weights, num_samples, replacement=True):
        if hasattr(weights, 'tolist'):
            weights = weights.tolist()
        weights = [float(w) for w in weights]
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError('num_samples should be a positive integer')
        if not isinstance(replacement, bool):
            raise ValueError('replacement should be a boolean value')
        if any(w < 0 for w in weights) or not any(w > 0 for w in weights):
            raise ValueError('weights should be non-negative with at least one positive value, got %r' % (weights,))
        if not replacement and num_samples > sum(1 for w in weights if w > 0):
            raise ValueError('num_samples should not be greater than the number of positive weights when replacement is False')
        self.weights, self.num_samples, self.replacement = weights, num_samples, replacement

    def __iter__(self):
        rng = python_rng()
        n = len(self.weights)
        if self.replacement:
            return iter(rng.choices(range(n), weights=self.weights, k=self.num_samples))
        # without replacement: successive draws from the remaining weights
        w = list(self.weights)
        out = []
        for _ in range(self.num_samples):
            i = rng.choices(range(n), weights=w, k=1)[0]
            out.append(i)
            w[i] = 0.0
        return iter(out)

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups a sampler's indices (or a dataset's, shuffled or not) into lists of batch_size."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None:
            if sampler is None:
                raise ValueError('either dataset or sampler should be set')
            if shuffle:
                raise ValueError('shuffle should be False when sampler is set')
            self.sampler = sampler
        else:
            if sampler is not None:
                raise ValueError('should not set both dataset and sampler')
            if not isinstance(shuffle, bool):
                raise TypeError('shuffle should be a boolean value, but got {}'.format(type(shuffle)))
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError('batch_size should be a positive integer, but got {}'.format(batch_size))
        if not isinstance(drop_last, bool):
            raise TypeError('drop_last should be a boolean value, but got {}'.format(type(drop_last)))
        self.batch_size, self.shuffle, self.drop_last = batch_size, shuffle, drop_last

    def __iter__(self):
        batch = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


class DistributedBatchSampler(BatchSampler):
    """BatchSampler over this rank's share of the data. Skiff runs one process: num_replicas
    defaults to 1 and rank to 0; with more replicas the shares are computed as Paddle does
    (indices padded to a multiple of num_replicas, rank r takes every num_replicas-th batch
    chunk). Shuffling is seeded by the epoch (set_epoch), so every rank agrees."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False, drop_last=False):
        self.dataset = dataset
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError('batch_size should be a positive integer')
        self.batch_size, self.shuffle, self.drop_last = batch_size, shuffle, drop_last
        self.nranks = 1 if num_replicas is None else int(num_replicas)
        self.local_rank = 0 if rank is None else int(rank)
        if not 0 <= self.local_rank < self.nranks:
            raise ValueError('rank %d is out of range for %d replicas' % (self.local_rank, self.nranks))
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) * 1.0 / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def __iter__(self):
        n = len(self.dataset)
        idx = list(range(n))
        idx += idx[:self.total_size - n]
        if self.shuffle:
            random.Random(self.epoch).shuffle(idx)
            self.epoch += 1
        # rank r takes the batch_size chunks r, r + nranks, ...; the last, shorter round is
        # split evenly between the ranks
        step = self.batch_size * self.nranks
        tail = self.total_size % step
        mine = []
        for start in range(self.local_rank * self.batch_size, len(idx) - tail, step):
            mine.extend(idx[start:start + self.batch_size])
        per = tail // self.nranks
        rest = idx[len(idx) - tail:]
        mine.extend(rest[self.local_rank * per:(self.local_rank + 1) * per])
        batch = []
        for i in mine:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = self.num_samples
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size

    def set_epoch(self, epoch):
        self.epoch = epoch
