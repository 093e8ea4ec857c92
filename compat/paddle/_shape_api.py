"""Hand-written bindings mirroring src/ops/defs/shape_more_api.ts: paddle.meshgrid(*args) takes
tensors one by one or as one list, and paddle.repeat_interleave's repeats is an int or a tensor
(two registry ops, as in Paddle: repeat_interleave and repeat_interleave_with_tensor_index)."""
from . import _ops
from .tensor import Tensor


def repeat_interleave(x, repeats, axis=None, name=None):
    if isinstance(repeats, Tensor) and repeats.ndim <= 1 and int(repeats.numel()) == 1:
        repeats = int(repeats.item())  # Paddle reads a one-element repeats tensor as an int
    if isinstance(repeats, Tensor):
        return _ops.function('repeat_interleave_with_tensor_index')(x, repeats, axis=axis)
    return _ops.function('repeat_interleave')(x, repeats=repeats, axis=axis)


def meshgrid(*args, **kwargs):
    kwargs.pop('name', None)
    if kwargs:
        raise TypeError("meshgrid() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return list(_ops.function('meshgrid')(list(args)))


def install(root):
    """paddle.meshgrid, paddle.repeat_interleave and Tensor.repeat_interleave."""
    root.meshgrid = meshgrid
    root.repeat_interleave = repeat_interleave
    if 'repeat_interleave' not in Tensor.__dict__:
        Tensor.repeat_interleave = repeat_interleave
