"""paddle.static.nn control flow: cond and while_loop record pd_op.if / pd_op.while.

The branch and body functions run here, in Python, between bridge calls that point the
program's builder into the region being built (src/static/control_flow.ts), so whatever they
call on Variables is recorded inside the region.
"""
from . import _js
from .variable import Variable, _wrap

__all__ = ['cond', 'while_loop']

_SEP = '\x01'


def _item(x):
    if isinstance(x, Variable):
        return 'v%d' % x._vid
    if isinstance(x, bool):
        return 'b1' if x else 'b0'
    if isinstance(x, (int, float)):
        return 'n%r' % float(x)
    h = getattr(x, '_h', None)
    if h:
        return 't%d' % h
    raise TypeError('paddle.static.nn: expected Variables, Tensors or numbers, got %r' % type(x).__name__)


def _spec(xs):
    return _SEP.join(_item(x) for x in xs)


def _flat(out):
    if out is None:
        return [], False
    if isinstance(out, (list, tuple)):
        return list(out), False
    return [out], True


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """true_fn() if pred else false_fn(); with a Variable pred, both branches are recorded into a
    pd_op.if and must return the same structure of values with equal types."""
    if not isinstance(pred, Variable):
        fn = true_fn if bool(pred) else false_fn
        return fn() if fn is not None else None
    h = _js.check(_js.cond_begin(pred._vid))
    for i, fn in enumerate((true_fn, false_fn)):
        _js.check(_js.cond_enter(h, i))
        try:
            out = fn() if fn is not None else None
        except BaseException:
            _js.cond_abort(h, i)
            raise
        flat, single = _flat(out)
        _js.check(_js.cond_exit(h, i, _spec(flat), 1 if single else 0))
    r = _js.check(_js.cond_end(h))
    if r == 'N':
        return None
    if r[0] == 'S':
        return _wrap(int(r[1:]))
    return [_wrap(int(i)) for i in r[1:].split(',')]


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """while cond(*vars): vars = body(*vars), recorded as a pd_op.while; returns the final vars."""
    cond_fn = cond
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise TypeError('while_loop: loop_vars must be a non-empty list')
    if not any(isinstance(v, Variable) for v in loop_vars):
        # Eager loop vars (dynamic mode, as Paddle's dygraph branch): simply loop, like cond does.
        import paddle
        if paddle.in_dynamic_mode():
            vs = list(loop_vars)
            while bool(cond_fn(*vs)):
                vs, _ = _flat(body(*vs))
                if len(vs) != len(loop_vars):
                    raise TypeError('while_loop: body returns %d value(s) for %d loop var(s)' % (len(vs), len(loop_vars)))
            return vs
    r = _js.check(_js.while_begin(_spec(loop_vars)))
    h, ids = r.split(';')
    h = int(h)
    inits = [_wrap(int(i)) for i in ids.split(',')]
    pre = cond_fn(*inits)  # held across the call: a dropped Variable frees its value id
    _js.check(_js.while_pre(h, _spec([pre])))
    args = [_wrap(int(i)) for i in _js.check(_js.while_enter(h)).split(',')]
    try:
        nxt, _ = _flat(body(*args))
        c = cond_fn(*nxt)
    except BaseException:
        _js.while_abort(h)
        raise
    _js.check(_js.while_exit(h, _spec(nxt), _spec([c])))
    return [_wrap(int(i)) for i in _js.check(_js.while_end(h)).split(',')]
