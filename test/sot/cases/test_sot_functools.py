"""Translator: functools and filter captured without breaks (frontend/python/sot/functools.ts,
call_inline.ts): reduce folds with the function inlined, partial objects (made outside or inside
the function) call through, lru_cache/cache wrappers inline __wrapped__ (one result per equal
arguments within a call, as the cache would give), functools.wraps wrappers are plain functions,
and filter() is modelled like map()."""
import functools
import operator

import paddle
from sot_check import assert_no_breaks, breaks, check, count, t

X = t([1.0, -2.0, 3.0])


def scale(v, k=1.0, bias=0.0):
    return v * k + bias


TRIPLE = functools.partial(scale, k=3.0)
CALLS = []


@functools.lru_cache
def plus_one(v):
    return v + 1


@functools.cache
def pair_of(v):
    return [v, v]


@functools.lru_cache(typed=True)
def typed_kind(v):
    return type(v).__name__


@functools.lru_cache
def untyped_kind(v):
    return type(v).__name__


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 2
    return wrapper


@logged
def affine(v, b=1):
    return v + b


CASES = [
    ('reduce with a lambda, an initial value, operator.add and tensors',
     lambda x, xs: (functools.reduce(lambda a, b: a * 10 + b, xs), functools.reduce(operator.add, xs, -2),
                    functools.reduce(lambda a, b: a + b, [x, x * 2, x * 3]), functools.reduce(operator.mul, (2, 3)))),
    ('reduce over an iterator, a dict merge and a generator',
     lambda x, xs: (functools.reduce(lambda a, b: {**a, **b}, [{'a': 1}, {'b': xs[0]}]),
                    functools.reduce(operator.add, iter(xs)), x * functools.reduce(max, (v for v in xs)))),
    ('partial made outside and inside, keywords overridden',
     lambda x, xs: (TRIPLE(x), TRIPLE(x, k=2.0), functools.partial(scale, bias=1.0)(x, 2.0),
                    functools.partial(functools.partial(scale, x), 4.0)(bias=xs[0]))),
    ('lru_cache and cache wrappers inline __wrapped__',
     lambda x, xs: (plus_one(1), plus_one(x), plus_one(x), plus_one(True), pair_of(xs[0]))),
    ('lru_cache keys follow typed=',
     lambda x, xs: (typed_kind(1), typed_kind(1.0), typed_kind(True), untyped_kind(2), untyped_kind(2.0),
                    untyped_kind(3.0), untyped_kind(3), untyped_kind(5.0), untyped_kind(True), untyped_kind(1.0), x)),
    ('functools.wraps wrapper', lambda x, xs: (affine(x), affine(x, b=3))),
    ('filter with None, builtins and Python functions',
     lambda x, xs: (list(filter(None, [0, 1, '', 'a', None])), list(filter(lambda v: v > 1, xs)),
                    tuple(filter(bool, xs)), sum(filter(lambda v: v % 2, xs)), [x * v for v in filter(None, xs)])),
]


def test_functools_and_filter_without_breaks():
    for name, fn in CASES:
        try:
            sf = check(fn, (X, [1, 2, 3]), (X, [0, 5]), translations=None)
            assert_no_breaks(sf)
        except AssertionError as e:
            raise AssertionError('%s: %s' % (name, e)) from e


def test_lru_cache_shares_one_result_per_arguments():
    def f(x):
        a, b = plus_one(x), plus_one(x)
        l1, l2 = pair_of(5), pair_of(5)
        return a is b, l1 is l2, a
    sf = check(f, (X,))
    assert_no_breaks(sf)
    got = sf(X)
    assert got[0] is True and got[1] is True


def test_reduce_of_empty_iterable_raises_like_eager():
    def f(xs):
        it = iter(xs)
        for _ in it:
            pass
        return functools.reduce(operator.add, it)
    sf = paddle.jit.to_static(f)
    for fn in (f, sf):
        try:
            fn([1, 2])
            raise AssertionError('no TypeError')
        except TypeError as e:
            assert 'empty iterable' in str(e), e


def test_filter_with_a_stateful_function_stays_lazy():
    seen = []

    def keep(v):
        seen.append(v)
        return v > 1

    def f(x, xs):
        out = x
        for v in filter(keep, xs):
            seen.append(('body', v))
            out = out + v
        return out
    want = f(X, [1, 2, 3])
    log_eager = list(seen)
    del seen[:]
    sf = paddle.jit.to_static(f)
    got = sf(X, [1, 2, 3])
    assert got.tolist() == want.tolist() and seen == log_eager, (seen, log_eager)
    assert breaks(sf), 'a lazy filter with side effects must run concretely'
