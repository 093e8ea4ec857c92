"""paddle.io.DataLoader: batches from a dataset through a batch sampler and a collate function.

Skiff runs the loader in the calling process (num_workers, shared memory and buffer readers
are accepted and ignored): the work per batch is a few runtime calls, not Python copies.
A map-style dataset may offer `_skiff_getitems(indices)`, which returns an already collated
batch (paddle.vision.datasets.MNIST gathers a whole batch with one op); it is used only with
the default collate_fn.
"""
from .collate import default_collate_fn, default_convert_fn, to_tensors
from .dataset import IterableDataset
from .sampler import BatchSampler


def get_worker_info():
    """None: Skiff's DataLoader has no worker processes."""
    return None


class DataLoader:
    def __init__(self, dataset, feed_list=None, places=None, return_list=True, batch_sampler=None, batch_size=1,
                 shuffle=False, drop_last=False, collate_fn=None, num_workers=0, use_buffer_reader=True,
                 prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None, persistent_workers=False):
        self.dataset = dataset
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError('IterableDataset not support shuffle, but got shuffle={}'.format(shuffle))
            if batch_sampler is not None:
                raise ValueError('IterableDataset expect unspecified batch_sampler')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError('batch_size/shuffle/drop_last should not be set when batch_sampler is given')
            self.batch_sampler = batch_sampler
            self.batch_size = getattr(batch_sampler, 'batch_size', None)
            self.drop_last = getattr(batch_sampler, 'drop_last', False)
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
            self.drop_last = drop_last
        else:
            if not isinstance(batch_size, int) or batch_size <= 0:
                raise ValueError('batch_size should be None or a positive value: but got {}'.format(batch_size))
            self.batch_size, self.drop_last = batch_size, drop_last
            self.batch_sampler = None if self._iterable else BatchSampler(dataset=dataset, batch_size=batch_size,
                                                                          shuffle=shuffle, drop_last=drop_last)

    def __len__(self):
        if self._iterable:
            raise TypeError('length of IterableDataset not supported')   # TypeError: list(loader) still works
        if self.batch_sampler is None:
            return len(self.dataset)
        return len(self.batch_sampler)

    def __call__(self):
        return self.__iter__()

    def __iter__(self):
        if self._iterable:
            return self._iter_stream()
        return self._iter_map()

    def _collate(self, samples):
        if self.collate_fn is None:
            return default_collate_fn(samples)
        return to_tensors(self.collate_fn(samples))

    def _iter_map(self):
        ds = self.dataset
        if self.batch_sampler is None:      # batch_size=None: one converted sample at a time
            conv = self.collate_fn or default_convert_fn
            for i in range(len(ds)):
                yield to_tensors(conv(ds[i]))
            return
        fast = getattr(ds, '_skiff_getitems', None) if self.collate_fn is None else None
        for idx in self.batch_sampler:
            idx = list(idx)
            batch = fast(idx) if fast is not None else None
            yield batch if batch is not None else self._collate([ds[i] for i in idx])

    def _iter_stream(self):
        if self.batch_size is None:
            conv = self.collate_fn or default_convert_fn
            for s in self.dataset:
                yield to_tensors(conv(s))
            return
        batch = []
        for s in self.dataset:
            batch.append(s)
            if len(batch) == self.batch_size:
                yield self._collate(batch)
                batch = []
        if batch and not self.drop_last:
            yield self._collate(batch)
