"""Translator: try/except/else/finally, raise, raise-from, bare re-raise and `with` (user context
managers, contextlib.contextmanager, paddle.no_grad) are simulated, not run as plain Python: each
form gives eager's values on its normal and its exceptional path, an exception that leaves the
function has eager's type, message, cause/context and the user's line, and later calls of a
path hit the cache (exceptions are guarded by type, never by identity)."""
import contextlib
import sys

import paddle
from sot_check import breaks, check, count, explain, raised, raising_line, same, t, user_lines

X = t([1.0, -2.0, 3.0])


# ---- try / except ------------------------------------------------------------------------------
def _fails(d, k):
    return d[k]      # KeyError from a concrete step


def try_catch_concrete(x, d):
    try:
        y = x * _fails(d, 'a')
    except KeyError as e:
        y = x - 1
    return y * 2


def try_else_finally(x, k):
    log = []
    try:
        if k == 1:
            raise KeyError('k')
        if k == 2:
            raise ValueError('v') from None
        r = x + 1
    except KeyError as e:
        r = x * 2 + len(str(e))
        log.append('key')
    except (TypeError, ValueError):
        r = x * 3
        log.append('value')
    else:
        r = r * 10
        log.append('else')
    finally:
        r = r - 1
        log.append('finally')
    return r, log


def _inner_raises(x, n):
    if n > 2:
        raise IndexError('n=%d' % n)
    return x * n


def _middle(x, n):
    try:
        return _inner_raises(x, n) + 1
    except IndexError:
        return x - n


def try_in_inlined_helper(x, n):
    return _middle(x, n) * 2


def try_caller_catches_callee(x, n):
    try:
        y = _inner_raises(x, n)
    except IndexError as e:
        y = x + 100
    return y


def try_nested(x, k):
    try:
        try:
            if k:
                raise ValueError('inner')
            y = x + 1
        except TypeError:
            y = x + 2
        finally:
            x = x * 10
    except ValueError:
        y = x + 3
    return y


def try_finally_return(x, k):
    try:
        if k:
            return x + 1
        y = x * 2
    finally:
        x = x - 5
    return y + x


def try_loop_continue(x, n):
    acc = x
    for i in range(n):
        try:
            if i % 2:
                raise KeyError(i)
            acc = acc + i
        except KeyError:
            acc = acc * 2
            continue
    return acc


def try_isinstance_of_caught(x, k):
    try:
        if k:
            raise ValueError('v')
        return x
    except Exception as e:
        return x * (2 if isinstance(e, ValueError) else 3), type(e).__name__, str(e)


TRY_CASES = [
    (try_catch_concrete, [(X, {'a': 2.0}), (X, {'b': 1.0}), (X, {'b': 3.0}), (X, {'a': 4.0})]),
    (try_else_finally, [(X, 0), (X, 1), (X, 2), (X, 1), (X, 2), (X, 0)]),
    (try_in_inlined_helper, [(X, 1), (X, 3), (X, 4), (X, 2)]),
    (try_caller_catches_callee, [(X, 1), (X, 3), (X, 5)]),
    (try_nested, [(X, 0), (X, 1), (X, 1)]),
    (try_finally_return, [(X, 0), (X, 1)]),
    (try_loop_continue, [(X, 4), (X, 4)]),
    (try_isinstance_of_caught, [(X, 0), (X, 1), (X, 1)]),
]


def test_try_forms_equal_eager_and_are_translated():
    for fn, argsets in TRY_CASES:
        try:
            check(fn, *argsets)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (fn.__name__, e)) from None


def test_caught_exception_paths_hit_the_cache():
    # the exception object is new on every call: its node is guarded by its type, so the
    # second time a path raises it is a cache hit, not a new translation
    sf = check(try_catch_concrete, (X, {'a': 2.0}), (X, {'b': 1.0}))
    n = count(sf)
    check_again = [sf(X, {'b': 1.0}) for _ in range(3)]
    same(check_again[-1], try_catch_concrete(X, {'b': 1.0}))
    assert count(sf) == n, 'translations %d -> %d' % (n, count(sf))
    sf2 = check(try_else_finally, (X, 1), (X, 2))
    n = count(sf2)
    for k in (1, 2, 1, 2):
        same(sf2(X, k), try_else_finally(X, k))
    assert count(sf2) == n, 'translations %d -> %d' % (n, count(sf2))


def test_raise_is_a_concrete_step_with_its_code():
    sf = check(try_else_finally, (X, 1))
    assert 'SOT012' in breaks(sf), breaks(sf)


# ---- exceptions leaving the function -----------------------------------------------------------
def leave_raise_from(x, d):
    try:
        return x * d['missing']
    except KeyError as e:
        raise ValueError('no key: %s' % e) from e  # raises


def leave_bare_reraise(x, d):
    y = x + 1
    try:
        y = y * d['missing']  # raises
    except KeyError:
        y = y - 1
        raise
    return y


def leave_raise_in_handler(x, k):
    try:
        raise KeyError('first')
    except KeyError:
        raise RuntimeError('second %d' % k)  # raises


def leave_through_finally(x, n):
    try:
        y = x + 1
        if n:
            raise LookupError('n is %d' % n)  # raises
    finally:
        y = x * 2
    return y


class _Recorder:
    def __init__(self):
        self.seen = []

    def __enter__(self):
        self.seen.append('enter')
        return self

    def __exit__(self, tp, v, tb):
        self.seen.append(tp.__name__ if tp else None)
        return False


def leave_through_with(x, rec):
    with rec:
        y = x + 1
        raise TypeError('inside with %s' % len(rec.seen))  # raises
    return y


LEAVE_CASES = [
    (leave_raise_from, lambda: (X, {})),
    (leave_bare_reraise, lambda: (X, {})),
    (leave_raise_in_handler, lambda: (X, 3)),
    (leave_through_finally, lambda: (X, 2)),
    (leave_through_with, lambda: (X, _Recorder())),
]


def _describe(e):
    """Type, message, and the types/messages of the cause and context chains."""
    return (type(e).__name__, str(e),
            None if e.__cause__ is None else (type(e.__cause__).__name__, str(e.__cause__)),
            None if e.__context__ is None else (type(e.__context__).__name__, str(e.__context__)),
            e.__suppress_context__)


def test_exceptions_leaving_keep_type_message_chain_and_line():
    bad = []
    for fn, make_args in LEAVE_CASES:
        want = raised(fn, make_args())
        line = raising_line(fn)
        sf = paddle.jit.to_static(fn)
        for call in range(2):   # translating, then the cached translation
            got = raised(sf, make_args())
            if _describe(got) != _describe(want):
                bad.append('%s: %s vs %s' % (fn.__name__, _describe(got), _describe(want)))
            elif line not in user_lines(got, __file__):
                bad.append('%s: traceback lines %s miss line %d' % (fn.__name__, user_lines(got, __file__), line))
        if explain(sf).get('eager'):
            bad.append('%s ran eagerly: %s' % (fn.__name__, explain(sf)['eagerReason']))
    assert not bad, '\n'.join(bad)


def test_with_exit_sees_the_exception_like_eager():
    r1, r2 = _Recorder(), _Recorder()
    raised(leave_through_with, (X, r1))
    raised(paddle.jit.to_static(leave_through_with), (X, r2))
    assert r1.seen == r2.seen == ['enter', 'TypeError'], (r1.seen, r2.seen)


# ---- with --------------------------------------------------------------------------------------
class _Scale:
    """A user context manager: __enter__ returns a value, __exit__ records and may swallow."""
    def __init__(self, k, swallow=False):
        self.k, self.swallow, self.log = k, swallow, []

    def __enter__(self):
        self.log.append('in')
        return self.k

    def __exit__(self, tp, v, tb):
        self.log.append('out' if tp is None else tp.__name__)
        return self.swallow


def with_user_cm(x, cm):
    with cm as k:
        y = x * k
    return y + 1, cm.log


def with_swallowing_cm(x, n):
    cm = _Scale(3, swallow=True)
    y = x
    with cm:
        y = x * 2
        if n:
            raise KeyError(n)
        y = y + 1
    return y, cm.log


def with_nested(x):
    a, b = _Scale(2), _Scale(5)
    with a as p, b as q:
        y = x * p + q
    return y, a.log, b.log


@contextlib.contextmanager
def _shifted(v):
    yield v + 1
    _TRACE.append(v)


_TRACE = []


def with_contextmanager(x, v):
    with _shifted(v) as s:
        y = x + s
    return y * 2


def with_no_grad(x, w):
    y = x * w
    with paddle.no_grad():
        z = y * 3
    out = z + y
    return out, z.stop_gradient, y.stop_gradient, out.stop_gradient


def test_with_forms_equal_eager_and_are_translated():
    cases = [
        (with_user_cm, [(X, _Scale(2)), (X, _Scale(4))]),
        (with_swallowing_cm, [(X, 0), (X, 1), (X, 1)]),
        (with_nested, [(X,)]),
        (with_contextmanager, [(X, 1), (X, 2)]),
    ]
    for fn, argsets in cases:
        try:
            check(fn, *argsets)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (fn.__name__, e)) from None
    del _TRACE[:]


def test_with_user_cm_is_inlined_without_breaks():
    sf = check(with_user_cm, (X, _Scale(2)))
    assert not breaks(sf), breaks(sf)


def test_no_grad_inside_translated_code():
    w = t([0.5, 2.0, -1.0])
    w.stop_gradient = False
    want = with_no_grad(X, w)
    sf = paddle.jit.to_static(with_no_grad)
    for _ in range(2):
        got = sf(X, w)
        same(got, want)
    assert not explain(sf).get('eager'), explain(sf).get('eagerReason')
    # gradients flow through y only, as in eager
    got[0].sum().backward()
    g1 = w.grad.tolist()
    w.clear_grad()
    want[0].sum().backward()
    assert g1 == w.grad.tolist(), (g1, w.grad.tolist())
    w.clear_grad()
    assert paddle.is_grad_enabled()


def no_grad_with_break(x, w):
    y = x * w
    with paddle.no_grad():
        z = y * 3
        print('inside no_grad', paddle.is_grad_enabled())   # a concrete step under no_grad
        u = z + y
    return u + y, u.stop_gradient, paddle.is_grad_enabled()


def no_grad_exception(x, w, k):
    y = x * w
    try:
        with paddle.no_grad():
            z = y * 2
            if k:
                raise KeyError(k)
    except KeyError:
        z = y * 5
    return z + y, z.stop_gradient, paddle.is_grad_enabled()


def test_no_grad_with_breaks_and_exceptions():
    w = t([0.5, 2.0, -1.0])
    w.stop_gradient = False
    for fn, argsets in [(no_grad_with_break, [(X, w), (X, w)]), (no_grad_exception, [(X, w, 0), (X, w, 1), (X, w, 1), (X, w, 0)])]:
        sf = paddle.jit.to_static(fn)
        for args in argsets:
            want = fn(*args)
            got = sf(*args)
            same(got, want)
            assert paddle.is_grad_enabled()
            got[0].sum().backward()
            g1 = w.grad.tolist()
            w.clear_grad()
            want[0].sum().backward()
            assert g1 == w.grad.tolist(), (fn.__name__, g1, w.grad.tolist())
            w.clear_grad()
        assert not explain(sf).get('eager'), explain(sf).get('eagerReason')
    # the no_grad object is simulated (not a per-call step result): one translation per path
    sf = check(with_no_grad, (X, w), (X, w), (X, w), translations=1)
    assert not breaks(sf), breaks(sf)


# ---- still plain Python ------------------------------------------------------------------------
def gen_with_try(n):
    try:
        yield n
    finally:
        pass


def test_generators_still_fall_back():
    sf = paddle.jit.to_static(gen_with_try)
    assert list(sf(3)) == [3]
    assert explain(sf)['eager'] and 'SOT106' in explain(sf)['eagerReason']
