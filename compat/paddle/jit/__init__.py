"""paddle.jit: to_static and friends, backed by Skiff's symbolic opcode translator.

`to_static(fn)` returns a wrapper whose calls are translated (bytecode simulated in Skiff's
TypeScript translator, tensor work captured into graphs run by the native executor), with
graph breaks and eager fallback so results always equal eager execution.

>>> import paddle
>>> @paddle.jit.to_static
... def f(x, y):
...     return paddle.nn.functional.relu(x @ y + 1)
"""
import types

from . import sot  # noqa: F401
from . import marker  # noqa: F401
from .sot.runtime import CONFIG, StaticFunction, bump_layer_version  # noqa: F401

__all__ = ['to_static', 'not_to_static', 'enable_to_static', 'ignore_module', 'InputSpec', 'sot', 'marker']


class InputSpec:
    """Describes an input of a translated function (shape with None/-1 for dynamic dims, dtype)."""

    def __init__(self, shape=None, dtype='float32', name=None, stop_gradient=False):
        self.shape = list(shape) if shape is not None else None
        self.dtype = dtype
        self.name = name
        self.stop_gradient = stop_gradient

    def __repr__(self):
        return 'InputSpec(shape=%s, dtype=%s, name=%s)' % (self.shape, self.dtype, self.name)


def to_static(function=None, input_spec=None, build_strategy=None, backend=None, full_graph=False, **kwargs):
    """Translates a function, a method or an nn.Layer (its forward, in place) on later calls.

    Usable as `to_static(fn)` or as the decorator `@to_static` / `@to_static(full_graph=True)`.
    With full_graph=True the first graph break raises instead of running eagerly.
    """
    def decorate(fn):
        from ..nn.layer.layers import Layer
        if isinstance(fn, Layer):
            fwd = fn.forward
            if isinstance(fwd, StaticFunction):
                return fn
            static = StaticFunction(fwd, input_spec, full_graph)
            object.__setattr__(fn, 'forward', static) if not hasattr(type(fn), '__setattr__') else fn.__dict__.__setitem__('forward', static)
            bump_layer_version()
            return fn
        if isinstance(fn, StaticFunction):
            return fn
        if getattr(fn, '_skiff_not_to_static', False):
            return fn
        return StaticFunction(fn, input_spec, full_graph)
    if function is None:
        return decorate
    return decorate(function)


def not_to_static(fn=None):
    """Marks a function to stay eager (it is called concretely when met while translating)."""
    if fn is None:
        return not_to_static
    try:
        fn._skiff_not_to_static = True
    except AttributeError:
        pass
    return fn


def enable_to_static(enable=True):
    """Turns translation on or off globally (off: wrapped functions run eagerly)."""
    CONFIG.enabled = bool(enable)


def ignore_module(modules):
    """Accepted for compatibility: Skiff never translates into library modules it does not see."""
    return None


from ._save import save, load, TranslatedLayer  # noqa: E402,F401  (paddle.jit.save / load: the model format of src/jit)
