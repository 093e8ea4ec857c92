"""Translator: Paddle semantics its own test/sot files rely on (issue 11): sequence membership
against a tensor answered from the tensor's value and guarded, list.sort of constants, the grad
mode guarded, check_no_breakgraph letting a branch of the marked frame itself through, the
non-recursive psdb.fallback, paddle.no_grad as a decorator, numpy scalars with tensors."""
import sys

import numpy as np

import paddle
from paddle.jit.sot import psdb, symbolic_translate
from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache
from paddle.jit.sot.utils import InnerError
from sot_check import assert_breaks, assert_no_breaks, breaks, check, count, same, t

# 3.10 has no exception table: try/with run as plain Python there (SOT101)
HANDLERS = sys.version_info >= (3, 11)


def remove_then_list(x, y):
    z = [x, x, y, y]
    z.remove(x)
    z.remove(y)
    return z


def index_count_in(x, y):
    z = [x, y, 3]
    return z.index(y), z.count(y), y in z, y in (x, 5), (x, y).index(y)


def test_membership_against_a_tensor_reads_its_value_under_a_guard():
    # [1, y, y].remove(y) compares 1 == y first: eager removes the int when y holds 1
    two, three, one = t(2.0), t(3.0), t(1.0)
    sf = check(remove_then_list, (1, two), (1, three), translations=1)
    assert_no_breaks(sf)
    sf = check(remove_then_list, (1, two), (1, one), (1, two), translations=2)
    assert_no_breaks(sf)
    got = sf(1, one)    # the int went, both tensors stayed
    assert len(got) == 2 and got[0] is one and got[1] is one
    sf = check(index_count_in, (1, two), (1, one), (3, three), translations=3)
    assert_no_breaks(sf)


def test_membership_that_needs_a_computed_tensor_still_breaks():
    def f(y):
        w = y * 2
        z = [1, w]
        z.remove(y * 2)      # 1 == (y*2), then w == (y*2): computed tensors, their values decide
        return z
    sf = check(f, (t(2.0),), (t(0.5),))
    assert_breaks(sf, 'SOT001')


def test_list_sort_of_numbers_and_strings():
    def nums(a, b, c):
        z = [a + 2, b, c, True, 1.0]
        z.sort()
        w = list(z)
        w.sort(reverse=True)
        return z, w

    def strs(a, b):
        z = [a, b, 'b', 'a\U0001F600', 'a\uffff']
        z.sort(key=None)
        return z

    def mixed(a):
        z = [a, 'x']
        z.sort()
        return z
    assert_no_breaks(check(nums, (1, 0, 1), (3, 2.5, -1)))
    assert_no_breaks(check(strs, ('ab', 'Z')))
    sf = paddle.jit.to_static(mixed)
    try:
        sf(1)
    except TypeError:
        pass
    else:
        raise AssertionError('TypeError not raised')


def test_grad_mode_is_guarded():
    def f(x):
        return x * 2 + 1
    x = t([1.0, 2.0])
    x.stop_gradient = False
    sf = paddle.jit.to_static(f)
    with paddle.no_grad():
        a = sf(x)
    b = sf(x)
    with paddle.no_grad():
        c = sf(x)
    assert a.stop_gradient is True and c.stop_gradient is True and b.stop_gradient is False
    assert count(sf) == 2, count(sf)
    paddle.set_grad_enabled(False)
    try:
        same(sf(x), f(x))
    finally:
        paddle.set_grad_enabled(True)
    assert count(sf) == 2, count(sf)


def _marked_callee(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def test_check_no_breakgraph_lets_the_marked_frames_own_branches_through():
    @psdb.check_no_breakgraph
    def assert_in_try(x):
        try:
            x = x + 5
            assert x < -10000
        except AssertionError:
            x = x + 6
        return x

    @psdb.check_no_breakgraph
    def branch(x):
        if x.mean() > 0:
            return x * 2
        return x

    @psdb.check_no_breakgraph
    def calls_a_branch(x):
        return _marked_callee(x) * 2
    x = t([1.0])
    same(symbolic_translate(assert_in_try)(x), assert_in_try(x))
    same(symbolic_translate(branch)(x), branch(x))
    same(symbolic_translate(branch)(-x), branch(-x))
    assert 'SOT001' in breaks(symbolic_translate(branch))
    # a branch inside a call made from the marked frame is still refused, as in Paddle
    try:
        symbolic_translate(calls_a_branch)(x)
    except InnerError as e:
        assert 'should not break the graph' in str(e)
    else:
        raise AssertionError('InnerError not raised')


def _plain_callee(x):
    return x * 3 + 1


def _falls_back(x, recursive):
    psdb.fallback(recursive=recursive)
    return _plain_callee(x) - 1


def _falls_back_default(x):
    psdb.fallback()
    return _plain_callee(x) + _plain_callee(x)


def _falls_back_comparing_the_callee(x):
    psdb.fallback()
    same_fn = _plain_callee is _CALLEE
    return _plain_callee(x), same_fn


_CALLEE = _plain_callee
_WRITTEN = [0]


def _falls_back_writing_a_global(x):
    global _WRITTEN
    psdb.fallback()
    _WRITTEN = [_WRITTEN[0] + 1]
    return _plain_callee(x)


def test_non_recursive_fallback_translates_the_callees():
    cache = OpcodeExecutorCache()
    x = t([1.0, 2.0])
    for fn, args, translations in [
        (_falls_back_default, (x,), 2),          # the function's own translation + the callee's
        (_falls_back, (x, False), 2),
        (_falls_back, (x, True), 1),             # recursive: the callee runs as plain Python
        (_falls_back_writing_a_global, (x,), 1),  # writes its globals: run as it is
        (_falls_back_comparing_the_callee, (x,), 1),  # reads the function as a value: not wrapped
    ]:
        cache.clear()
        sf = symbolic_translate(fn)
        same(sf(*args), fn(*args))
        same(sf(*args), fn(*args))
        assert cache.translate_count == translations, (fn.__name__, args[1:], cache.translate_count)
    cache.clear()


@paddle.no_grad()
def _no_grad_helper(x, y):
    return x * y + x ** 2


def test_no_grad_decorator_inside_translated_code():
    def f(x, y):
        z = _no_grad_helper(x * y, y)
        return z + x * y

    def grads(fn, x, y):
        out = fn(x, y)
        out.sum().backward()
        g = [x.grad.clone(), y.grad.clone()]
        x.clear_gradient()
        y.clear_gradient()
        return out, g
    x, y = t([1.0, 2.0]), t([3.0, -1.0])
    x.stop_gradient = y.stop_gradient = False
    sf = symbolic_translate(f)
    got, want = grads(sf, x, y), grads(f, x, y)
    same(got[0], want[0])
    same(got[1], want[1])
    assert _no_grad_helper(x, y).stop_gradient is True
    if HANDLERS:
        assert_no_breaks(sf)
    # backward of a loss that wants no gradient does nothing, as in Paddle
    w = t([1.0])
    w.stop_gradient = False
    with paddle.no_grad():
        loss = (w * 2).sum()
    loss.backward()
    assert w.grad is None


def test_numpy_scalars_with_tensors_in_eager_and_translated_code():
    def f(x, y):
        return x + y, y * x, x - y, x / y, x == y
    x, xi = t([1.0, 2.0]), t([3, 4], 'int64')
    for y in (np.int64(2), np.float32(2.5), np.float64(0.5), np.int32(-1)):
        for a in (x, xi):
            # the Python number the scalar holds: the tensor's dtype wins unless int meets float
            for got, want in zip(f(a, y), f(a, y.item())):
                same(got, want)
            assert_no_breaks(check(f, (a, y)))   # captured with the number as a constant
    assert (x + np.int64(2)).tolist() == [3.0, 4.0]
    # a numpy array with a tensor is captured (test_sot_numpy.py); .numpy() breaks
    assert_no_breaks(check(lambda a, b: a + b, (x, np.array([2.0, 3.0]))))
    assert_breaks(check(lambda a: (a.numpy() + 1).tolist(), (x,)), 'SOT003')
    assert paddle.empty([2, 3], dtype='float64').shape == [2, 3]
    assert paddle.empty_like(xi).dtype == paddle.int64
