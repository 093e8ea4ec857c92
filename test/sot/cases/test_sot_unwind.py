"""Translator: the unwinding paths of try/except/finally/with that 3.10's block stack makes
distinct (compat/paddle/jit/sot/block_stack.py) and that run the same on every version: an
exception raised inside an except block and caught further out (the handler's exc_info is
restored on the way), a bare `raise` after a nested handler finished, `return`/`break`/
`continue` leaving try and with blocks, a with block inside a handler, a swallowing __exit__
of an inner with, and exceptions crossing an inlined call. Each is translated (not run as plain
Python) and equals eager on every path."""
import paddle
from sot_check import check, raised, t

X = t([1.0, -2.0, 3.0])


def _key(d, k):
    return d[k]


def raise_in_handler_caught_outside(x, d):
    try:
        try:
            y = x * _key(d, 'a')
        except KeyError:
            y = x * _key(d, 'b')        # may raise again, inside the handler
    except KeyError as e:
        y = x - len(str(e))
    return y + 1


def reraise_after_inner_handler(x, d):
    try:
        try:
            y = x * _key(d, 'a')
        except KeyError:
            try:
                y = x * _key(d, 'b')
            except KeyError:
                y = x * 7
            raise                      # re-raises the 'a' KeyError, not the handled 'b' one
    except KeyError as e:
        return y - 1, str(e)
    return y, ''


def loop_exits_through_try(x, n):
    acc = x
    for i in range(n):
        try:
            if i == 3:
                break
            if i % 2:
                continue
            acc = acc + i
        finally:
            acc = acc * 1.5
    return acc


class _Log:
    def __init__(self, swallow=False):
        self.swallow, self.seen = swallow, []

    def __enter__(self):
        self.seen.append('in')
        return len(self.seen)

    def __exit__(self, tp, v, tb):
        self.seen.append(tp.__name__ if tp else 'ok')
        return self.swallow


def with_return_and_inner_swallow(x, k):
    outer, inner = _Log(), _Log(swallow=True)
    with outer:
        with inner:
            if k == 1:
                raise ValueError('swallowed')
            if k == 2:
                return x * 2, outer.seen, inner.seen
        y = x + 1
    return y, outer.seen, inner.seen


def with_inside_handler(x, d):
    log = _Log()
    try:
        y = x * _key(d, 'a')
    except KeyError:
        with log as n:
            y = x * (n + 10)
    return y, log.seen


def _callee_raises(x, k):
    try:
        if k:
            raise IndexError('callee %d' % k)
        return x + 1
    finally:
        x = x * 0      # runs on both paths; the exception leaves the callee


def caught_from_inlined_callee(x, k):
    try:
        return _callee_raises(x, k)
    except IndexError as e:
        return x - 1 if 'callee' in str(e) else x


CASES = [
    (raise_in_handler_caught_outside, [(X, {'a': 2.0}), (X, {'b': 3.0}), (X, {}), (X, {})]),
    (reraise_after_inner_handler, [(X, {'a': 2.0}), (X, {'b': 3.0}), (X, {}), (X, {})]),
    (loop_exits_through_try, [(X, 2), (X, 6)]),
    (with_return_and_inner_swallow, [(X, 0), (X, 1), (X, 2), (X, 1)]),
    (with_inside_handler, [(X, {'a': 2.0}), (X, {}), (X, {})]),
    (caught_from_inlined_callee, [(X, 0), (X, 2), (X, 2)]),
]


def test_unwinding_paths_equal_eager_and_are_translated():
    for fn, argsets in CASES:
        try:
            check(fn, *argsets)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (fn.__name__, e)) from None


def leave_from_handler_of_handler(x, d):
    try:
        y = x * _key(d, 'a')
    except KeyError:
        try:
            y = x * _key(d, 'b')
        except KeyError as e:
            raise LookupError('neither: %s' % e)     # leaves, context = the 'b' KeyError
    return y


def test_exception_leaving_from_nested_handlers_keeps_type_message_and_context():
    want = raised(leave_from_handler_of_handler, (X, {}))
    sf = paddle.jit.to_static(leave_from_handler_of_handler)
    for _ in range(2):
        got = raised(sf, (X, {}))
        assert (type(got), str(got)) == (type(want), str(want)), (got, want)
        assert type(got.__context__) is KeyError and str(got.__context__) == str(want.__context__), (got.__context__, want.__context__)
