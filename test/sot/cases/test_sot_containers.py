"""Translator: list, dict, tuple and set methods and operators, on containers made inside the
function and on arguments (whose mutations must reach the caller, in order)."""
import paddle
from sot_check import assert_no_breaks, check, same, t

X = t([1.0, 2.0, 3.0])


def _same_side_effects(fn, *make_args):
    """fn translated and eager on fresh copies of the arguments: results and arguments equal."""
    sf = paddle.jit.to_static(fn)
    for _ in range(2):
        a, b = make_args[0](), make_args[0]()
        same(sf(*a), fn(*b))
        same(a, b, 'arguments after the call')
    return sf


def test_list_methods():
    def f(x, xs):
        ys = list(xs)
        ys.append(4)
        ys.extend((5, 6))
        ys.insert(0, -1)
        ys.insert(-1, 9)
        p = ys.pop()
        p0 = ys.pop(0)
        ys.remove(9)
        ys.reverse()
        zs = ys.copy()
        zs.clear()
        n = ys.index(4) + ys.count(5)
        ys += [7]
        ys *= 2
        return x * n + p + p0, ys, zs, ys[1:4] + [0], [0] * 3, 2 * [1, 2]
    sf = check(f, (X, [1, 2, 3]), (X, [3, 2, 1]))
    assert_no_breaks(sf)


def test_list_aliasing_inside_the_function():
    def f(xs):
        a = list(xs)
        b = a
        b.append(1)
        a += [2]
        c = [a, a]
        c[0].append(3)
        return a, b, c, a is b
    check(f, ([0],))


def test_mutating_argument_lists_and_dicts():
    def f(x, xs, d):
        xs.append(x * 2)
        xs[0] = 'first'
        del xs[1]
        xs.sort if False else None
        d['new'] = len(xs)
        d.pop('gone')
        d.setdefault('k', []).append(1)
        d.update({'u': 1}, v=2)
        return len(xs), sorted(d)
    _same_side_effects(f, lambda: (X, [1, 2, 3], {'gone': 0, 'keep': 1}))


def test_dict_methods_and_views():
    def f(x, d):
        keys = list(d.keys())
        vals = [v * 2 for v in d.values()]
        items = sorted(d.items())
        got = d.get('a', 0) + d.get('zz', 10)
        e = dict(d)
        e['c'] = 3
        del e['a']
        f2 = {k: v for k, v in d.items() if v > 1}
        merged = {**d, **e}
        return x * got, keys, vals, items, e, f2, merged, 'a' in d, 'a' in d.keys(), len(d.values()), e.copy()
    sf = check(f, (X, {'a': 1, 'b': 2}), (X, {'a': 5, 'q': 0}))
    assert_no_breaks(sf)


def test_dict_views_returned_keep_their_type():
    def f(d):
        return d.keys(), d.values(), d.items()
    sf = paddle.jit.to_static(f)
    d = {'a': 1}
    for got, want in zip(sf(d), f(d)):
        assert type(got) is type(want) and list(got) == list(want)


def test_tuple_methods_and_operators():
    def f(x, tup):
        a = tup + (4,)
        b = tup * 2
        return x * tup.index(2) + tup.count(1), a, b, a[::-1], len(b), tup < (9,), max(tup), min(tup), 2 in tup
    sf = check(f, (X, (1, 2, 3)), (X, (2, 1, 1)))
    assert_no_breaks(sf)


def test_sets():
    def f(x, xs):
        s = set(xs)
        s.add(10)
        s.discard(1)
        s.update([20, 30])
        u = s | {99}
        i = s & {2, 10}
        d = s - {10}
        return x * len(s), sorted(s), sorted(u), sorted(i), sorted(d), 10 in s, 1 in s, s == {2, 3, 10, 20, 30}, s.issubset(u)
    sf = check(f, (X, [1, 2, 3, 2]))
    assert_no_breaks(sf)


def test_set_iteration_order_matches():
    def f(words):
        s = {w for w in words}
        return [w for w in s], tuple(s), s
    check(f, (['b', 'a', 'c', 'a'],), ([3, 1, 2],))


def test_frozenset_constants():
    def f(x, mode):
        if mode in {'train', 'eval'}:
            return x * 2
        return x
    sf = check(f, (X, 'train'), (X, 'test'))
    assert_no_breaks(sf)


def test_nested_containers_with_tensors():
    def f(x):
        d = {'a': [x, x * 2], 'b': (x + 1, {'c': x - 1})}
        d['a'].append(x * 3)
        return d, [v for v in d['a']], d['b'][1]['c']
    sf = check(f, (X,))
    assert_no_breaks(sf)


def test_container_errors_raise_the_same():
    cases = [
        (lambda d: d['missing'], ({'a': 1},), KeyError),
        (lambda xs: xs.pop(5), ([1],), IndexError),
        (lambda xs: xs.remove(7), ([1],), ValueError),
        (lambda s: {1}.remove(s), (5,), KeyError),
        (lambda xs: (1, 2).index(xs), (3,), ValueError),
    ]
    for fn, args, exc in cases:
        sf = paddle.jit.to_static(fn)
        try:
            fn(*args)
        except exc as e:
            want = str(e)
        try:
            sf(*args)
        except exc as e:
            assert str(e) == want, (str(e), want)
        else:
            raise AssertionError('no %s' % exc.__name__)


def test_iterators_are_consumed_once():
    # list()/tuple()/sum()/extend/unpacking take what an iterator still yields and exhaust it
    def f(x, xs):
        it = iter(xs)
        first = next(it)
        a = list(it)
        b = tuple(it)
        it2 = iter(xs)
        ys = [0]
        ys.extend(it2)
        ys.extend(it2)
        it3 = iter(xs)
        s = sum(it3)
        return x * (first + len(a) + len(b) + s), a, b, ys, list(it3)
    sf = check(f, (X, [1, 2, 3]), (X, [4, 5]))
    assert_no_breaks(sf)
