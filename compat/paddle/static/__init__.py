"""paddle.static: build programs with the same API calls as eager code; run them with Executor.

>>> import paddle
>>> paddle.enable_static()
>>> main = paddle.static.Program()
>>> with paddle.static.program_guard(main):
...     x = paddle.static.data('x', [None, 4], 'float32')
...     y = paddle.nn.functional.relu(x * 2.0)
>>> out, = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={'x': [[1., -1., 2., 0.]]}, fetch_list=[y])
>>> out.tolist()
[[2.0, 0.0, 4.0, 0.0]]
>>> paddle.disable_static()

Ops with at least one Variable input are recorded into the current program; others run eagerly
(layers' parameters are initialized at once and enter the program when a recorded op uses them).
"""
from ..dtype import dtype_of, get_default_dtype
from ..jit import InputSpec  # noqa: F401
from . import _js
from .executor import Executor, global_scope  # noqa: F401
from .program import Program, default_main_program, default_startup_program, program_guard  # noqa: F401
from .variable import Variable, _wrap
from . import nn  # noqa: F401  (paddle.static.nn.cond / while_loop)

__all__ = ['Program', 'program_guard', 'data', 'create_parameter', 'Executor', 'Variable', 'InputSpec', 'global_scope',
           'default_main_program', 'default_startup_program', 'cpu_places', 'append_backward', 'gradients']


def _ids(vs):
    return ','.join('-' if v is None else str(v._vid) for v in vs)


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None):
    """Appends the backward of `loss` to its program (program autodiff from the ops' gradient
    rules); returns [(parameter, gradient)] for the trainable parameters (or parameter_list).
    Gradients are named '<name>@GRAD'."""
    params = '' if parameter_list is None else _ids(parameter_list)
    nogo = '' if not no_grad_set else _ids(no_grad_set)
    r = _js.check(_js.append_backward(loss._vid, params, nogo))
    if r == '-':
        return []
    return [(_wrap(int(p)), _wrap(int(g))) for p, g in (pair.split(':') for pair in r.split(','))]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Gradients of targets w.r.t. inputs, appended to the program; None where there is none."""
    ts, xs = _as_list(targets), _as_list(inputs)
    seeds = '' if target_gradients is None else _ids(_as_list(target_gradients))
    nogo = '' if not no_grad_set else _ids(no_grad_set)
    r = _js.check(_js.gradients(_ids(ts), _ids(xs), seeds, nogo))
    return [None if g == '-' else _wrap(int(g)) for g in r.split(',')]


def data(name, shape, dtype=None, lod_level=0):
    """A feed of the current program; None or -1 dims are known only at run time (symbols)."""
    if not isinstance(name, str) or not name:
        raise TypeError('paddle.static.data: name must be a non-empty string')
    dims = []
    for i, d in enumerate(shape):
        if d is None:
            d = -1
        if type(d) is not int and not hasattr(d, '__index__'):
            raise TypeError("paddle.static.data('%s'): dim %d must be an int or None, got %r" % (name, i, d))
        dims.append(str(int(d)))
    dt = dtype_of(dtype if dtype is not None else get_default_dtype()).name
    return _wrap(_js.check(_js.data(name, ','.join(dims), dt)))


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """A parameter of the current program, initialized now (eagerly) like paddle.create_parameter;
    its tensor is in paddle.static.global_scope() under its name."""
    from ..nn.layer.layers import create_parameter as _eager
    p = _eager(shape, dtype, attr if attr is not None else name, is_bias, default_initializer)
    return _wrap(_js.check(_js.bind_parameter(p._h, p.name)))


def cpu_places(device_count=None):
    from ..framework import CPUPlace
    return [CPUPlace() for _ in range(device_count or 1)]


def enable_static():
    _js.check(_js.set_static(True))


def disable_static(place=None):
    _js.check(_js.set_static(False))


def in_dynamic_mode():
    return not _js.in_static()
