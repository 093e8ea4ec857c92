"""Translator: functools (reduce, partial, lru_cache-decorated helpers), the operator module,
math, and builtins over tensors and Python values."""
import functools
import math
import operator

import paddle
from sot_check import assert_no_breaks, check, t

X = t([1.0, -2.0, 3.0])


def test_functools_reduce():
    def f(x, xs):
        s = functools.reduce(operator.add, xs)
        p = functools.reduce(lambda a, b: a * b, xs, 1)
        tsum = functools.reduce(lambda a, b: a + b, [x, x * 2, x * 3])
        return x * s + p, tsum
    check(f, (X, [1, 2, 3]), (X, [4]))


def test_functools_partial():
    def scale(v, k=1.0, bias=0.0):
        return v * k + bias
    p = functools.partial(scale, k=3.0)

    def f(x):
        q = functools.partial(scale, bias=1.0)
        return p(x), q(x, 2.0), p.func is scale, p.keywords
    check(f, (X,))


@functools.lru_cache(maxsize=None)
def cached_sizes(n):
    return tuple(range(n))


def test_lru_cache_helper():
    def f(x, n):
        return x * len(cached_sizes(n)), cached_sizes(n)
    check(f, (X, 3), (X, 4))


def test_operator_module():
    def f(x, a, b):
        return (operator.add(x, a), operator.mul(x, b), operator.neg(x), operator.truediv(x, 2),
                operator.add(a, b), operator.sub(a, b), operator.mul(a, b), operator.floordiv(a, 2), operator.mod(a, 3),
                operator.pow(a, 2), operator.eq(a, b), operator.lt(a, b), operator.not_(a), operator.getitem([1, 2, 3], a),
                operator.itemgetter(1)([5, 6, 7]), operator.attrgetter('ndim')(x), operator.index(a), operator.truth(b))
    check(f, (X, 1, 2), (X, 2, 0))


def test_math_module():
    def f(x, n):
        return (x * math.sqrt(n) + math.pi, math.floor(n / 3), math.ceil(n / 3), math.log(n), math.exp(1),
                math.isclose(n, 4.0), math.prod([n, 2]), math.inf > n, math.gcd(n, 6))
    check(f, (X, 4), (X, 9))


def test_builtins_on_python_values():
    def f(x, xs):
        return (x * sum(xs), min(xs), max(xs), sorted(xs, reverse=True), list(reversed(xs)), any(xs), all(xs),
                abs(-3), round(2.567, 2), divmod(17, 5), pow(2, 5), chr(65), ord('a'), hex(255), bin(5), len(xs),
                list(zip(xs, xs[1:])), list(enumerate(xs, start=1)), list(enumerate(xs, 2)), bool(xs), int('12'),
                float('1.5'), str(3.0), list(range(1, 10, 3)), tuple(map(abs, [-1, 2])), isinstance(xs, list))
    sf = check(f, (X, [3, 1, 2]), (X, [0, 5]))


def test_builtins_on_tensors():
    def f(x):
        return abs(x), max(x.sum(), x.mean()) if False else x, sum([x, x, x]), min([x * 2][0].shape), len(x)
    sf = check(f, (X,))
    assert_no_breaks(sf)


def test_hasattr_and_getattr_on_builtin_values():
    """Only the attributes the builtin type really has: hasattr([], 'x') is False (a translator
    that answered True would then fail calling it)."""
    def f(x, lst, d):
        n = (1 if hasattr(lst, 'append') else 0) + (10 if hasattr(lst, 'nope') else 0)
        n += (100 if hasattr(d, 'keys') else 0) + (1000 if hasattr(3, 'real') else 0) + (5 if hasattr('s', 'zz') else 0)
        return x + n + getattr(lst, 'missing', 7)
    check(f, (X, [1], {'a': 1}))
