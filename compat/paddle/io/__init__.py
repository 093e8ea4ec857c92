"""paddle.io: datasets, samplers and the DataLoader (pure Python over the runtime's tensors).

Batches are built with one runtime call per field (`paddle.stack` of the samples' tensors, or
one buffer for Python numbers), never element by element. Random samplers draw their seeds
from the runtime's generator, so `paddle.seed(n)` makes shuffling reproducible.
"""
from .dataset import (Dataset, IterableDataset, TensorDataset, Subset, ComposeDataset, ChainDataset,  # noqa: F401
                      ConcatDataset, random_split)
from .sampler import (Sampler, SequenceSampler, RandomSampler, WeightedRandomSampler, SubsetRandomSampler,  # noqa: F401
                      BatchSampler, DistributedBatchSampler)
from .collate import default_collate_fn, default_convert_fn  # noqa: F401
from .dataloader import DataLoader, get_worker_info  # noqa: F401
