"""Translator: Python functions the translator calls from inside one instruction: map() with
Python functions and lambdas, bool()/`if obj` of objects with a Python __bool__ / __len__.
Each case: translated == eager, translate counts, and no break where one is not needed."""
import paddle
from sot_check import assert_breaks, assert_no_breaks, breaks, check, count, t

X = t([1.0, -2.0, 3.0])


def double(v):
    return v * 2


def prefixed(k):
    return f"key_{k}"


# ---- map() ----------------------------------------------------------------------------------

MAP_CASES = [
    # (name, function, argument sets)
    ('list', lambda x, xs: (x * len(list(map(double, xs))), list(map(double, xs))), [(X, [1, 2, 3]), (X, [4, 5, 6])]),
    ('tuple', lambda x, xs: tuple(map(double, xs)), [(X, (1, 2.5))]),
    ('range', lambda x, n: sum(map(double, range(n))) * x, [(X, 4)]),
    ('dict keys', lambda x, d: list(map(prefixed, d)), [(X, {'a': 1, 'b': 2})]),
    ('comprehension', lambda x, xs: [i + 1 for i in map(double, xs)], [(X, [1, 2, 3])]),
    ('for loop', lambda x, xs: _for_sum(x, xs), [(X, [7, 8, 9])]),
    ('unpack tensors', lambda x, xs: _unpack(x, xs), [(X, (2, 4, 6))]),
    ('lambda on tuples', lambda x, xs: tuple(map(list, zip(*map(lambda p: (0,) + p, xs)))), [(X, [(1, 2), (3, 4)])]),
    ('shortest of several', lambda x, xs: list(map(lambda a, b: a * b, xs, [x, x])), [(X, [1, 2, 3])]),
    ('tensor rows', lambda x, b: tuple(map(lambda u, v: u + v, x, b)), [(X, (2, 4, 6)), (t([[1.0, 2.0]]), (5,))]),
    ('tensor elements drained', lambda x, xs: list(map(lambda v: v * x, [x, x + 1])), [(X, [])]),
]


def _for_sum(x, xs):
    res = 0
    for i in map(double, xs):
        res += i
    return x * res


def _unpack(x, xs):
    a, b, c = map(lambda u, v: u + v, [x, x * 2, x * 3], xs)
    return a, b, c


def test_map_python_functions():
    for name, fn, argsets in MAP_CASES:
        sf = check(fn, *argsets)
        e = breaks(sf)
        assert not e, '%s: breaks %s' % (name, e)


def test_map_is_lazy_when_it_matters():
    # the lambda reads a closure cell the loop body changes: applying it early would differ
    def f(x, xs):
        k = 1
        out = []
        for v in map(lambda u: u * k, xs):
            k += 1
            out.append(v)
        return x * out[-1], out
    sf = check(f, (X, [1, 2, 3]))
    assert_breaks(sf, 'SOT007')

    # a mutable element changed by the loop body before the function sees it
    def g(x, rows):
        got = []
        for first in map(lambda r: r[0], rows):
            rows[-1][0] = 100
            got.append(first)
        return x, got
    sf = check(g, (X, [[1], [2]]))
    assert_breaks(sf, 'SOT007')


def test_map_function_that_breaks_runs_concretely():
    def noisy(v):
        print('element', v)
        return v * 2

    def f(x, xs):
        return x * sum(list(map(noisy, xs)))
    sf = check(f, (X, [1, 2]))
    assert breaks(sf), 'expected a break'


# ---- bool() of objects ----------------------------------------------------------------------

class WithBool:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        return self.v > 0


class WithLen:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)


class WithBoth:
    def __init__(self, items):
        self.items = items

    def __bool__(self):
        return False

    def __len__(self):
        return len(self.items)


class Plain:
    pass


def truth_if(x, obj):
    if obj:
        return x + 1
    return x - 1


def truth_bool(x, obj):
    return bool(obj), x * 2


def truth_not(x, obj):
    return (x * 3) if not obj else x


BOOL_OBJECTS = [WithBool(1), WithBool(-1), WithLen([1, 2]), WithLen([]), WithBoth([1]), Plain()]


def test_bool_of_objects():
    for fn in (truth_if, truth_bool, truth_not):
        for obj in BOOL_OBJECTS:
            sf = check(fn, (X, obj))
            assert_no_breaks(sf)


def test_bool_follows_the_object_state():
    # the attribute __bool__ reads is guarded: changing it re-translates, never a stale answer
    obj = WithBool(1)
    sf = paddle.jit.to_static(truth_if)
    a = sf(X, obj)
    obj.v = -1
    b = sf(X, obj)
    assert a.tolist() == [2.0, -1.0, 4.0] and b.tolist() == [0.0, -3.0, 2.0], (a.tolist(), b.tolist())
    assert count(sf) == 2, count(sf)


class BadBool:
    def __bool__(self):
        return 1


class BadLen:
    def __len__(self):
        return -1


def test_bool_errors_match_eager():
    for obj, msg in ((BadBool(), '__bool__ should return bool'), (BadLen(), '__len__() should return >= 0')):
        sf = paddle.jit.to_static(truth_bool)
        try:
            sf(X, obj)
        except (TypeError, ValueError) as e:
            assert msg in str(e), str(e)
        else:
            raise AssertionError('no error for %r' % obj)


# ---- namedtuple classes called in translated code --------------------------------------------

import collections
import typing

Pair = collections.namedtuple('Pair', ['a', 'b'])
Quad = collections.namedtuple('Quad', 'a b c d', defaults=(30, 40))


class Typed(typing.NamedTuple):
    x: float
    y: int = 7


class PairChild(Pair):
    def total(self):
        return self.a + self.b


NT_CASES = [
    ('fields', lambda x: (lambda p: p.a * x + p.b)(Pair(2, 3)), [(X,)]),
    ('tensor items', lambda x: (lambda p, q: p.a + p.b + q.a)(Pair(x + 1, x * 2), Pair(b=1, a=x)), [(X,)]),
    ('defaults', lambda x: (lambda u, v: (u, v, u.d + v.c))(Quad(1, 2), Quad(1, 2, 3, d=4)), [(X,)]),
    ('returned', lambda x: Pair(x, [x * 2]), [(X,)]),
    ('typing.NamedTuple', lambda x: (lambda p: (p, p.x * x + p.y))(Typed(2.0)), [(X,)]),
    ('_fields', lambda x: Pair(1, 2)._fields + Typed(1.0, 2)._fields, [(X,)]),
    ('index, slice, unpack, truth', lambda x: _nt_ops(x), [(X,)]),
]


def _nt_ops(x):
    p = Pair(x, 2)
    a, b = p
    return p[0] * b, p[-1], p[:1], a, bool(p), [v for v in p]


def test_namedtuple_created_in_the_function():
    for name, fn, argsets in NT_CASES:
        sf = check(fn, *argsets, translations=1)
        e = breaks(sf)
        assert not e, '%s: breaks %s' % (name, e)


def test_namedtuple_live_across_a_break():
    def f(x):
        p = Pair(x * 2, 5)
        print('break here')
        return p.a + p.b, p
    sf = check(f, (X,))
    assert_breaks(sf, 'SOT004')


def test_namedtuple_subclass_and_bad_calls_run_concretely():
    # a subclass may add behaviour: not modelled, the call runs as in eager
    sf = check(lambda x: PairChild(x, 1).total(), (X,))
    assert_breaks(sf, 'SOT005')

    def bad(x):
        return Pair(x, 1, 2)
    sf = paddle.jit.to_static(bad)
    try:
        sf(X)
    except TypeError as e:
        assert 'Pair' in str(e) or 'positional' in str(e), str(e)
    else:
        raise AssertionError('no TypeError')


def test_break_inside_an_inlined_call_is_not_replayed_twice():
    # the element function mutates a list and a closure cell, then breaks on the 2nd element:
    # the whole map runs concretely once (no doubled appends or increments)
    def f(x, xs):
        seen = []
        n = 0

        def g(v):
            nonlocal n
            seen.append(v)
            n += 1
            if v == 2:
                print('break inside map')
            return v * 2
        out = list(map(g, xs))
        return x * n, out, seen, n
    sf = check(f, (X, [1, 2, 3]))
    assert breaks(sf), 'expected a break'

    class Sized:
        def __init__(self, log):
            self.log = log

        def __len__(self):
            self.log.append('len')
            print('break inside __len__')
            return len(self.log)

    def g(x, obj):
        return (x + 1 if obj else x), list(obj.log)
    sf = paddle.jit.to_static(g)
    a, b = Sized([]), Sized([])
    same_out = g(X, a), sf(X, b)
    assert same_out[0][1] == same_out[1][1] == ['len'], same_out
