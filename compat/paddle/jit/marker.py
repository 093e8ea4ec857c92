"""paddle.jit.marker: annotations the translator reads.

`dynamic_dims(x, dims)` marks dims of a tensor as dynamic before it is passed to a translated
function: the first translation that sees it as an argument makes those dims symbolic (its
guard accepts any size there), as an InputSpec with None does. Returns x.
"""


def dynamic_dims(x, dims):
    """Marks `dims` (an int or a list of ints, negative counting from the end) of tensor x dynamic."""
    from ..tensor import Tensor
    import json
    import _skiff_sot
    if not isinstance(x, Tensor):
        raise TypeError('dynamic_dims: x must be a paddle.Tensor, got %s' % type(x).__name__)
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = [dims]
    if not isinstance(dims, (list, tuple)) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise TypeError('dynamic_dims: dims must be an int or a list of ints, got %r' % (dims,))
    r = x.ndim
    bad = [d for d in dims if d < -r or d >= max(r, 1) or r == 0]
    if bad:
        raise ValueError('dynamic_dims: dim %d is out of range for a tensor of shape %s' % (bad[0], x.shape))
    if not x._h:
        raise ValueError('dynamic_dims: the tensor has no storage')
    _skiff_sot.mark_dynamic_dims(x._h, json.dumps(list(dims)))
    return x


def not_to_static(fn=None):
    """The same as paddle.jit.not_to_static."""
    from . import not_to_static as _nts
    return _nts(fn)
