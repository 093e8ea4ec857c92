"""Default collation: a list of samples -> one batch, field by field.

Every tensor field becomes one `paddle.stack` call (one runtime crossing for the whole batch);
Python numbers become one tensor built from one buffer (bool -> bool, int -> int64,
float -> the default float dtype, float32). Strings stay lists; dicts and sequences are
collated per key / per position (a tuple sample gives a list of batched fields).
Skiff's numpy arrays (compat/numpy) are stacked through the tensors they wrap.
"""
import numbers
from collections.abc import Mapping, Sequence

from ..tensor import Tensor


def _as_tensor(x):
    f = getattr(x, '_skiff_tensor', None)
    return f() if f is not None else None


def default_collate_fn(batch):
    import paddle
    sample = batch[0]
    if isinstance(sample, Tensor):
        return paddle.stack(batch, axis=0)
    t = _as_tensor(sample)
    if t is not None:
        return paddle.stack([_as_tensor(s) for s in batch], axis=0)
    if isinstance(sample, bool):
        return paddle.to_tensor(batch, dtype='bool')
    if isinstance(sample, numbers.Integral):
        return paddle.to_tensor(batch, dtype='int64')
    if isinstance(sample, numbers.Number):
        return paddle.to_tensor([float(x) for x in batch], dtype=paddle.get_default_dtype())
    if isinstance(sample, (str, bytes)):
        return list(batch)
    if isinstance(sample, Mapping):
        return {k: default_collate_fn([d[k] for d in batch]) for k in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        if any(len(s) != n for s in batch):
            raise RuntimeError('fileds number not same among samples in a batch')
        return [default_collate_fn(list(field)) for field in zip(*batch)]
    raise TypeError('batch data con only contains: tensor, numpy.ndarray, dict, list, number, but got {}'.format(type(sample)))


def default_convert_fn(batch):
    """batch_size=None: samples are passed through, numpy arrays (and numbers) made tensors."""
    import paddle
    if isinstance(batch, Tensor):
        return batch
    t = _as_tensor(batch)
    if t is not None:
        return t
    if isinstance(batch, (str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {k: default_convert_fn(v) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        return [default_convert_fn(x) for x in batch]
    if isinstance(batch, numbers.Number):
        return paddle.to_tensor(batch)
    return batch


def to_tensors(out):
    """A custom collate_fn's result with Skiff numpy arrays made tensors (Paddle hands out tensors)."""
    if isinstance(out, Tensor):
        return out
    t = _as_tensor(out)
    if t is not None:
        return t
    if isinstance(out, (list, tuple)):
        return [to_tensors(x) for x in out]
    if isinstance(out, dict):
        return {k: to_tensors(v) for k, v in out.items()}
    return out
