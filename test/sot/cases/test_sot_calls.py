"""Translator: user functions are inlined with CPython's argument binding; closures, lambdas,
functions made at run time, methods, builtins."""
import functools

import paddle
from sot_check import breaks, check, t

X = t([1.0, 2.0, 3.0])


def helper(x, scale=2, *rest, bias=0.5, **kw):
    return x * scale + bias + sum(rest) + len(kw)


def test_inline_with_defaults_varargs_kwonly():
    def f(x):
        return helper(x), helper(x, 3), helper(x, 1, 2, 3, bias=1.0, a=1, b=2)
    sf = check(f, (X,))
    assert breaks(sf) == []


def test_positional_only():
    def p(a, b, /, c=1):
        return a * b + c

    def f(x):
        return p(x, 2), p(x, 3, c=x)
    check(f, (X,))


def test_closures_and_nonlocal():
    def f(x):
        k = 3

        def inner(y):
            return y * k
        acc = 0

        def bump():
            nonlocal acc
            acc = acc + 1
        bump()
        bump()
        return inner(x) + acc
    check(f, (X,))


def test_lambdas_and_run_time_functions():
    def make(n):
        return lambda v: v + n

    def f(x):
        add2 = make(2)
        sq = lambda v: v * v  # noqa: E731
        return sq(add2(x))
    check(f, (X,))


def test_closure_of_outer_function():
    factor = 4.0

    def f(x):
        return x * factor
    check(f, (X,))


def test_builtins():
    def f(x, xs):
        return (x * len(xs) + max(xs) - min(xs) + sum(xs), sorted(xs), list(reversed(xs)),
                any(v > 2 for v in xs) if False else all([True, 1]), isinstance(x, paddle.Tensor),
                isinstance(3, int), abs(-2), round(2.5))
    check(f, (X, [3, 1, 2]))


def test_methods_of_objects():
    class Scaler:
        def __init__(self, s):
            self.s = s

        def apply(self, x):
            return x * self.s

    sc = Scaler(3.0)

    def f(x):
        return sc.apply(x) + Scaler.apply(sc, x)
    check(f, (X,))


def test_functools_partial_runs_concretely_or_inline():
    p = functools.partial(helper, scale=5)

    def f(x):
        return p(x)
    check(f, (X,))


def test_call_of_unknown_c_function_breaks():
    import struct

    def f(x, n):
        return x * struct.calcsize('i') * n
    sf = check(f, (X, 4), (X, 9))
    assert 'SOT005' in breaks(sf)


def test_pure_math_functions_are_computed_when_translating():
    import math

    def f(x, n):
        return x * math.gcd(n, 6) + math.sqrt(n)
    sf = check(f, (X, 4), (X, 9))
    assert breaks(sf) == []


def test_paddle_api_with_keywords():
    def f(x):
        return paddle.sum(x, axis=0, keepdim=True), paddle.mean(x), paddle.cast(x, 'int64'), x.astype('float64')
    check(f, (X,))
