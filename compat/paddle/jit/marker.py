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


# Code objects whose branches and loops on tensor values the translator captures as if/while
# ops (frontend/python/sot/capture_cf.ts reads the flag the runtime sends with each code object).
_CAPTURE_CODES = set()


def capture_control_flow(obj):
    """Marks a function or a Layer (class or instance) so that `if`/`elif`/`else` on tensor values
    in its code are captured into the graph (one graph serves every branch outcome) instead of
    breaking it. Returns obj. Sublayers' `forward` methods called from translated code get this
    automatically. What cannot be captured exactly still breaks, with a code from SOT013-SOT016.
    (Skiff's name; Paddle 2.6 does this through its CallLayer mechanism.)"""
    import types
    from ..nn import Layer
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if isinstance(obj, types.FunctionType):
        _CAPTURE_CODES.add(obj.__code__)
        obj._capture_control_flow = True
        return obj
    cls = obj if isinstance(obj, type) else type(obj)
    if isinstance(cls, type) and issubclass(cls, Layer):
        fwd = getattr(cls, 'forward', None)
        if not isinstance(fwd, types.FunctionType):
            raise TypeError('capture_control_flow: %s has no forward method' % cls.__name__)
        _CAPTURE_CODES.add(fwd.__code__)
        obj._capture_control_flow = True
        return obj
    raise TypeError('capture_control_flow: expected a function or a paddle.nn.Layer, got %s' % type(obj).__name__)
