"""paddle.autograd: the Python face of Skiff's eager autograd (src/autograd, via the bridge's
ag_* calls in frontend/python/bridge_autograd.ts).

The tape, backward and gradient rules all live in the runtime; Python only passes handles.
Grad mode is the runtime's switch, so `paddle.no_grad` here also governs ops run from TS.
"""
import functools

from . import _bridge
from .tensor import Tensor, _wrap, _result

_js = _bridge._js
_error = _bridge.error

# ---- grad mode -------------------------------------------------------------------------------


def is_grad_enabled():
    return bool(_js.ag_is_enabled())


def _set(mode):
    """Sets grad mode; returns the previous one."""
    return _js.ag_set_enabled(bool(mode)) == 1


class _GradMode:
    """A context manager that is also a decorator (`with paddle.no_grad():` / `@paddle.no_grad()`)."""
    _mode = False

    def __new__(cls, func=None):
        self = object.__new__(cls)
        if callable(func):         # bare decorator: @paddle.no_grad
            return self(func)
        return self

    def __enter__(self):
        self._prev = _set(self._mode)
        return self

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def __call__(self, fn):
        mode = self._mode
        if mode is False:
            # the `with` form is what the translator models (frontend/python/sot/grad_mode.ts):
            # a decorated function called from translated code needs no graph break
            @functools.wraps(fn)
            def no_grad_wrapper(*a, **k):
                with no_grad():
                    return fn(*a, **k)
            return no_grad_wrapper

        @functools.wraps(fn)
        def wrapper(*a, **k):
            prev = _set(mode)
            try:
                return fn(*a, **k)
            finally:
                _set(prev)
        return wrapper


class no_grad(_GradMode):
    """Ops inside do not record gradients (context manager or decorator)."""
    _mode = False


class enable_grad(_GradMode):
    """Ops inside record gradients even within no_grad (context manager or decorator)."""
    _mode = True


class set_grad_enabled:
    """Sets grad mode now; as a context manager, restores the previous mode on exit."""

    def __init__(self, mode):
        self._prev = _set(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set(self._prev)
        return False


# ---- backward and paddle.grad --------------------------------------------------------------

_hook_error = [None]


def _check(r):
    if not r:
        e, _hook_error[0] = _hook_error[0], None
        raise e if e is not None else _error()
    return r


def tensor_backward(t, grad_tensor=None, retain_graph=False):
    if t.stop_gradient:
        # Paddle skips a loss that wants no gradient (nothing reaches a leaf); no error
        return
    _check(_js.ag_backward(t._h, grad_tensor._h if grad_tensor is not None else 0, bool(retain_graph)))


def backward(tensors, grad_tensors=None, retain_graph=False):
    """paddle.autograd.backward: backward from each tensor in turn (the graph kept until the last)."""
    ts = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    gs = [grad_tensors] if isinstance(grad_tensors, Tensor) else list(grad_tensors or [None] * len(ts))
    for i, (t, g) in enumerate(zip(ts, gs)):
        tensor_backward(t, g, retain_graph or i < len(ts) - 1)


def tensor_grad(t):
    r = _check(_js.ag_grad_of(t._h))
    return None if r == 'none' else _wrap(r)


def _handles(v):
    if v is None:
        return ''
    if isinstance(v, Tensor):
        return str(v._h)
    return ','.join('0' if x is None else str(x._h) for x in v)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, no_grad_vars=None):
    """Gradients of outputs w.r.t. inputs (a list, None for unused inputs with allow_unused=True).
    With create_graph=True the results are differentiable again (higher-order gradients)."""
    if not only_inputs:
        raise NotImplementedError('paddle.grad: only_inputs=False is not supported')
    if no_grad_vars is not None:
        raise NotImplementedError('paddle.grad: no_grad_vars is not supported yet')
    r = _check(_js.ag_grad(_handles(outputs), _handles(inputs), _handles(grad_outputs),
                           -1 if retain_graph is None else int(bool(retain_graph)), bool(create_graph), bool(allow_unused)))
    return [None if h == '0' else _wrap(int(h)) for h in r.split(',')] if r else []


# ---- hooks --------------------------------------------------------------------------------

_hooks = {}
_next_hook = [1]


class _HookRemoveHelper:
    """What Tensor.register_hook returns: remove() unregisters the hook."""

    def __init__(self, hid):
        self._id = hid

    def remove(self):
        _hooks.pop(self._id, None)
        return bool(_js.ag_remove_hook(self._id))


def _dispatch(hid, h):
    """Called by the runtime during backward with a hook id and the gradient's handle."""
    g = _wrap(h)
    try:
        r = _hooks[hid](g)
        if r is None:
            return 0
        if not isinstance(r, Tensor):
            raise TypeError('register_hook: a hook must return a Tensor or None, got %s' % type(r).__name__)
        return _js.ag_hold(r._h)
    except BaseException as e:  # re-raised by the backward call once the runtime unwinds
        _hook_error[0] = e
        return 0.5


def _install_dispatcher():
    try:
        from pyodide.ffi import create_proxy   # kept for the process lifetime
    except ImportError:                        # pragma: no cover (outside Pyodide)
        return
    _js.ag_set_dispatcher(create_proxy(_dispatch))


_install_dispatcher()


def register_hook(t, hook):
    if not callable(hook):
        raise TypeError('register_hook: hook must be callable')
    hid = _next_hook[0]
    _next_hook[0] += 1
    _hooks[hid] = hook
    try:
        _check(_js.ag_register_hook(t._h, hid))
    except BaseException:
        _hooks.pop(hid, None)
        raise
    return _HookRemoveHelper(hid)


def clear_grad(t, set_to_zero=True):
    _check(_js.ag_clear_grad(t._h, bool(set_to_zero)))


def retain_grads(t):
    _check(_js.ag_retain_grads(t._h))


def is_leaf(t):
    return _check(_js.ag_is_leaf(t._h)) == 1


# ---- PyLayer -------------------------------------------------------------------------------
# The node and its checks live in the runtime (src/autograd/pylayer.ts); Python keeps each live
# layer's (class, ctx) here until the runtime says its node is gone, and runs backward when asked.

_pylayers = {}
_next_pylayer = [1]


class PyLayerContext:
    """The ctx a PyLayer's forward and backward share; any other attribute may be set on it."""

    def __init__(self):
        self._saved = ()
        self._non_diff = []
        self._materialize = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        self._saved = tensors

    def saved_tensor(self):
        return self._saved

    def mark_non_differentiable(self, *tensors):
        self._non_diff.extend(tensors)

    def set_materialize_grads(self, value):
        self._materialize = bool(value)


def _tensors_in(args, kwargs):
    return [a for a in args if isinstance(a, Tensor)] + [v for v in kwargs.values() if isinstance(v, Tensor)]


class PyLayer:
    """A user-defined op: subclass with @staticmethod forward(ctx, *args) and backward(ctx, *grads),
    call as MyLayer.apply(*args). forward runs under no_grad; backward returns one gradient (or
    None) per Tensor input."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError('PyLayer subclasses must define a static forward(ctx, ...)')

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError('PyLayer subclasses must define a static backward(ctx, ...)')

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        ins = _tensors_in(args, kwargs)
        on = is_grad_enabled()
        ctx.needs_input_grad = tuple(on and not t.stop_gradient for t in ins)
        with no_grad():
            outs = cls.forward(ctx, *args, **kwargs)
        return _pylayer_record(cls, ctx, ins, outs)


def _pylayer_record(cls, ctx, ins, outs):
    """The part of PyLayer.apply after forward: one tape node for the outputs whose backward is
    cls.backward(ctx, ...). Also used by the translator, which captures forward into a graph
    and attaches the backward here (paddle.jit.sot.concrete_exc.pylayer_attach)."""
    single = not isinstance(outs, (tuple, list))
    seq = [outs] if single else list(outs)
    # An input returned as is becomes a view: the node's output cannot be the input itself.
    swapped = {}
    for i, o in enumerate(seq):
        if isinstance(o, Tensor) and any(o is t for t in ins):
            seq[i] = swapped[id(o)] = o.detach()
    tensors = [o for o in seq if isinstance(o, Tensor)]
    nondiff = [swapped.get(id(t), t) for t in ctx._non_diff]
    pid = _next_pylayer[0]
    _next_pylayer[0] += 1
    _pylayers[pid] = (cls, ctx)
    try:
        _check(_js.ag_pylayer(pid, cls.__name__, _handles(ins), _handles(tensors), _handles(nondiff), ctx._materialize))
    except BaseException:
        _pylayers.pop(pid, None)
        raise
    for t in tensors:
        t._m = None        # stop_gradient changed in the runtime
    if single:
        return seq[0]
    return tuple(seq) if isinstance(outs, tuple) else seq


# what the translator recognizes as `SomePyLayer.apply` (frontend/python/sot/pylayer.ts)
_PYLAYER_APPLY = PyLayer.apply.__func__


# PyLayers captured inside a to_static graph (frontend/python/sot/pylayer.ts): the class and the
# attributes forward set on its ctx, per capture; the graph's backward program calls backward
# through a host call (sot/pylayer_graph.ts) with the saved tensors and the output gradients.
_captured = {}


def _pylayer_capture(cls, names, values):
    """Registers a captured PyLayer; returns its id for the dispatcher's kind 2."""
    cid = _next_pylayer[0]
    _next_pylayer[0] += 1
    _captured[cid] = (cls, tuple(names), tuple(values))
    return cid


def _captured_ctx(cid, saved):
    cls, names, values = _captured[cid]
    ctx = PyLayerContext()
    for k, v in zip(names, values):
        setattr(ctx, k, v)
    if saved:
        ctx.save_for_backward(*saved)
    return cls, ctx


def _pylayer_dispatch(kind, pid, payload):
    """Called by the runtime: kind 0 runs layer pid's backward on grads 'h1,0,h3'; kind 1 drops it;
    kind 2 runs captured layer pid's backward on 'n_saved;saved handles...,grad handles...'."""
    if kind == 1:
        _pylayers.pop(pid, None)
        return ''
    try:
        if kind == 2:
            n, hs = payload.split(';')
            ts = [_wrap(int(h)) for h in hs.split(',')] if hs else []
            cls, ctx = _captured_ctx(pid, ts[:int(n)])
            grads = ts[int(n):]
        else:
            cls, ctx = _pylayers[pid]
            grads = [None if h == '0' else _wrap(int(h)) for h in payload.split(',')] if payload else []
        r = cls.backward(ctx, *grads)
        rs = list(r) if isinstance(r, (tuple, list)) else [r]
        out = []
        for i, g in enumerate(rs):
            if g is None:
                out.append('0')
            elif isinstance(g, Tensor):
                out.append(str(_js.ag_hold(g._h)))
            else:
                raise TypeError('%s: backward must return Tensors or None, got %s for input %d' % (cls.__name__, type(g).__name__, i))
        return ','.join(out) if out else '-'
    except BaseException as e:  # re-raised by the backward call once the runtime unwinds
        _hook_error[0] = e
        return 'E'


def _install_pylayer_dispatcher():
    try:
        from pyodide.ffi import create_proxy   # kept for the process lifetime
    except ImportError:                        # pragma: no cover (outside Pyodide)
        return
    _js.ag_set_pylayer_dispatcher(create_proxy(_pylayer_dispatch))


_install_pylayer_dispatcher()


__all__ = ['no_grad', 'enable_grad', 'set_grad_enabled', 'is_grad_enabled', 'grad', 'backward', 'PyLayer', 'PyLayerContext']
