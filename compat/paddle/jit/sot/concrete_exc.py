"""Concrete steps of exception handling and `with` (see frontend/python/handlers/exceptions.ts):
raising with the context eager's raise would give, entering a context manager, calling __exit__
with an exception. The translator breaks to these only on paths it does not simulate."""
import sys

from .encoding import NULL


def _chain_context(exc, ctx):
    """What CPython does on a raise inside an except block: exc.__context__ = the handled
    exception, with any cycle through exc cut."""
    if ctx is None or ctx is exc or not isinstance(exc, BaseException):
        return
    o = ctx
    while o is not None:
        nxt = o.__context__
        if nxt is exc:
            o.__context__ = None
            break
        o = nxt
    exc.__context__ = ctx


def skiff_raise_ctx(arg, argval, ops, info):
    """ops: [handled exception or None, RAISE_VARARGS' operands...]. No operand after the
    handled one is a bare `raise` (it re-raises the handled exception)."""
    ctx = ops[0]
    if len(ops) == 1:
        if ctx is None:
            raise RuntimeError('No active exception to reraise')
        raise ctx
    exc = ops[1]
    if isinstance(exc, type) and issubclass(exc, BaseException):
        exc = exc()
    if not isinstance(exc, BaseException):
        raise TypeError('exceptions must derive from BaseException')
    _chain_context(exc, ctx)
    if len(ops) == 3:
        raise exc from ops[2]
    raise exc


def before_with(arg, argval, ops, info):
    """3.11-3.13 BEFORE_WITH: [mgr] -> [bound __exit__, __enter__()]."""
    mgr = ops[0]
    t = type(mgr)
    try:
        enter, exit_ = t.__enter__, t.__exit__
    except AttributeError:
        raise TypeError("'%s' object does not support the context manager protocol" % t.__name__) from None
    bound_exit = exit_.__get__(mgr, t) if hasattr(exit_, '__get__') else exit_
    return [bound_exit, enter(mgr)]


_SPECIAL = ('__enter__', '__exit__', '__aenter__', '__aexit__')


def load_special(arg, argval, ops, info):
    """3.14 LOAD_SPECIAL: [owner] -> [bound method, NULL] (the translator's method form)."""
    owner = ops[0]
    t = type(owner)
    name = _SPECIAL[arg]
    f = getattr(t, name, None)
    if f is None:
        raise TypeError("'%s' object does not support the context manager protocol (missed %s method)" % (t.__name__, name))
    return [f.__get__(owner, t) if hasattr(f, '__get__') else f, NULL]


def with_except_start(arg, argval, ops, info):
    """WITH_EXCEPT_START on [exit, (self|NULL on 3.14,) lasti, prev exc, exc] (3.10: [exit, 3
    slots of the previous exception, 3 of the exception, each holding the exception object]):
    pushes them back and the result of exit(type, exc, traceback)."""
    exc = ops[-1]
    fn = ops[0]
    args = (type(exc), exc, exc.__traceback__)
    if sys.version_info >= (3, 14) and ops[1] is not NULL:
        res = fn(ops[1], *args)
    else:
        res = fn(*args)
    return list(ops) + [res]


def check_exc_match(arg, argval, ops, info):
    exc, cls = ops
    for c in (cls if isinstance(cls, tuple) else (cls,)):
        if not (isinstance(c, type) and issubclass(c, BaseException)):
            raise TypeError('catching classes that do not inherit from BaseException is not allowed')
    return [exc, isinstance(exc, cls)]


STEPS = {
    'SKIFF_RAISE_CTX': skiff_raise_ctx,
    'BEFORE_WITH': before_with,
    'SETUP_WITH': before_with,   # 3.10: the same stack effect (its block is static, block_stack.py)
    'LOAD_SPECIAL': load_special,
    'WITH_EXCEPT_START': with_except_start,
    'CHECK_EXC_MATCH': check_exc_match,
}


# ---- paddle.no_grad() blocks the translator simulates (frontend/python/sot/grad_mode.ts) ----------
# Entering logs SKIFF_GRAD_PUSH and leaving SKIFF_GRAD_POP as side effects, replayed in program
# order after each graph, so the real grad mode follows eager's at every concrete step.
_GRAD_STACK = []


def _autograd():
    from ... import autograd
    return autograd


def grad_push(arg, argval, ops, info):
    _GRAD_STACK.append(_autograd()._set(ops[0]))
    return []


def grad_pop(arg, argval, ops, info):
    _autograd()._set(_GRAD_STACK.pop() if _GRAD_STACK else True)
    return []


class _GradEnter:
    """The bound __enter__ of a simulated no_grad block, should it cross a graph break."""
    def __call__(self):
        grad_push(0, None, [False], None)
        return GRAD_TOKEN[0]


class _GradRestore:
    """The bound __exit__ of a simulated no_grad block: restores the mode it entered from."""
    def __call__(self, *exc):
        grad_pop(0, None, [], None)
        return False


GRAD_ENTER = _GradEnter()
GRAD_RESTORE = _GradRestore()
# what `with paddle.no_grad() as g` binds to g when the block was simulated (made on first use)
GRAD_TOKEN = [None]


def grad_token(arg, argval, ops, info):
    if GRAD_TOKEN[0] is None:
        GRAD_TOKEN[0] = _autograd().no_grad()
    return [GRAD_TOKEN[0]]


def grad_outer(arg, argval, ops, info):
    """The grad mode outside every simulated no_grad block now open (the current one if none)."""
    return [_GRAD_STACK[0] if _GRAD_STACK else _autograd().is_grad_enabled()]


STEPS.update({'SKIFF_GRAD_PUSH': grad_push, 'SKIFF_GRAD_POP': grad_pop, 'SKIFF_GRAD_TOKEN': grad_token, 'SKIFF_GRAD_OUTER': grad_outer})


# ---- PyLayer.apply captured by the translator (frontend/python/sot/pylayer.ts) --------------------
def pylayer_attach(arg, argval, ops, info):
    """After the graph that computed forward: a real context with what forward stored on the
    simulated one, and the tape node whose backward is the user's. ops: [cls, input tensors,
    forward's result, saved tensors, attribute names, attribute values, non-differentiable
    tensors, materialize_grads]. Pushes apply's result (the outputs, now wanting gradients)."""
    cls, ins, outs, saved, names, values, nondiff, materialize = ops
    ag = _autograd()
    ctx = ag.PyLayerContext()
    on = ag.is_grad_enabled()
    ctx.needs_input_grad = tuple(on and not t.stop_gradient for t in ins)
    for k, v in zip(names, values):
        setattr(ctx, k, v)
    if saved is not None:
        ctx.save_for_backward(*saved)
    if nondiff:
        ctx.mark_non_differentiable(*nondiff)
    ctx.set_materialize_grads(materialize)
    return [ag._pylayer_record(cls, ctx, list(ins), outs)]


STEPS['SKIFF_PYLAYER'] = pylayer_attach


def pylayer_capture(arg, argval, ops, info):
    """At translation time, for a PyLayer whose forward is captured in the graph: registers the
    class and what forward set on ctx. ops: [cls, attribute names, attribute values]. Pushes the
    id the graph's backward host call runs it by (paddle.autograd._pylayer_capture)."""
    cls, names, values = ops
    return [_autograd()._pylayer_capture(cls, names, values)]


STEPS['SKIFF_PYLAYER_CAPTURE'] = pylayer_capture
