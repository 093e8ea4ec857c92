"""Translator: unpacking of tuples, lists, dicts, strings and tensors; starred targets and
starred calls; unpacking across graph breaks."""
import paddle
from sot_check import assert_no_breaks, check, t

X = t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])


def test_tuple_and_list_unpacking():
    def f(x, seq):
        a, b, c = seq
        (p, q), r = (a, b), c
        first, *rest = seq
        *init, last = seq
        h, *mid, tl = seq
        return x * a + b - c, p, q, r, first, rest, init, last, h, mid, tl
    sf = check(f, (X, (1, 2, 3)), (X, [4, 5, 6]), (X, (1.5, 2, True)))
    assert_no_breaks(sf)


def test_dict_and_string_unpacking():
    def f(x, d, s):
        k1, k2 = d
        (ka, va), (kb, vb) = d.items()
        c1, c2 = s
        v1, v2 = d.values()
        return x * va + vb, k1, k2, ka, kb, c1 + c2, v1, v2
    check(f, (X, {'a': 1, 'b': 2.0}, 'xy'))


def test_unpacking_a_tensor_yields_its_rows():
    # Tensor.__iter__ yields x[0], x[1], ...: captured when the first dim is a number
    def f(x):
        row0, row1 = x
        a, *b = x[0]
        d0, d1 = paddle.shape(x)
        first, *rest = x.reshape([3, 2])
        return row0 + row1, a, b, d0 * d1, first, rest
    sf = check(f, (X,))
    assert_no_breaks(sf)


def test_tensor_shapes_unpack_statically():
    def f(x):
        n, m = x.shape
        *lead, last = x.shape
        return x.reshape([m, n]), lead, last
    sf = check(f, (X,), translations=1)
    assert_no_breaks(sf)


def test_wrong_counts_raise_the_same_errors():
    def f(seq):
        a, b = seq
        return a + b

    def g(seq):
        a, b, *c = seq
        return a

    for fn, arg in ((f, (1, 2, 3)), (f, (1,)), (g, (1,))):
        sf = paddle.jit.to_static(fn)
        try:
            fn(arg)
        except ValueError as e:
            want = str(e)
        try:
            sf(arg)
        except ValueError as e:
            assert str(e) == want, (str(e), want)
        else:
            raise AssertionError('no ValueError for %r' % (arg,))


def test_starred_calls_and_literals():
    def add3(a, b, c=0, *more, **kw):
        return a + b + c + sum(more) + sum(kw.values())

    def f(x, xs, kw):
        return (add3(*xs), add3(x, *xs[:1]), add3(*xs, **kw), add3(1, 2, *xs, z=3, **kw),
                [*xs, *xs], (*xs, 5), {**kw, 'w': 1}, {*xs})
    check(f, (X, [1, 2], {'k': 3}), (X, (4, 5, 6), {}))


def test_unpacking_across_a_break():
    def f(x, pairs):
        out = []
        for a, (b, c) in pairs:
            print('pair', a)
            out.append(x * a + b * c)
        first, *others = out
        return first, len(others)
    check(f, (X, [(1, (2, 3)), (4, (5, 6)), (7, (8, 9))]))

