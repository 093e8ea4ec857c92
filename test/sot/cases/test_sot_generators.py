"""Translator: generators used by a translated function. A translated function itself that is a
generator runs as plain Python (SOT106); a generator made and consumed inside translated code is
simulated (frontend/python/sot/generators.ts): next(), send(), for loops, yield from and draining
builtins resume its frame without a break. A generator still live at a graph break is made for
real instead (the segment is translated again) and runs concretely; results and interleaving
equal eager's either way."""
import paddle
from paddle.jit import sot
from sot_check import assert_no_breaks, breaks, check, count, explain, t

X = t([1.0, 2.0])


def gen(n, log):
    for i in range(n):
        log.append(('yield', i))
        yield i * 2


def test_generator_function_is_eager_with_its_reason():
    sf = paddle.jit.to_static(gen)
    assert list(sf(3, [])) == [0, 2, 4]
    e = explain(sf)
    assert e['eager'] and 'SOT106' in e['eagerReason'], e


def test_iterating_a_generator_interleaves_like_eager():
    def f(x, n, log):
        for v in gen(n, log):
            log.append(('body', v))
            x = x + v
        return x
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, 3, a), f(X, 3, b)
    assert a == b, (a, b)
    assert got.tolist() == want.tolist()
    assert_no_breaks(sf)


def test_generator_expressions_consumed_by_builtins():
    def f(x, xs):
        return (x * sum(v * v for v in xs), tuple(v + 1 for v in xs), list(str(v) for v in xs),
                any(v > 2 for v in xs), all(v > 0 for v in xs), max(v for v in xs), sorted((-v for v in xs)),
                dict((v, v) for v in xs), set(v % 2 for v in xs))
    check(f, (X, [1, 2, 3]), (X, [5]))


def test_generator_expression_over_tensors():
    def f(x):
        parts = [x * i for i in range(3)]
        return sum(p for p in parts), tuple(p.sum() for p in parts)
    check(f, (X,))


def test_next_and_send_on_generators():
    def counter():
        total = 0
        while True:
            got = yield total
            total += got or 1

    def f(x):
        c = counter()
        first = next(c)
        second = c.send(5)
        third = next(c)
        return x * third, first, second
    check(f, (X,))


def test_early_exit_from_a_generator_loop():
    def f(x, log):
        for v in gen(10, log):
            if v >= 4:
                break
            x = x + v
        return x
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, a), f(X, b)
    assert a == b and got.tolist() == want.tolist()


def test_yield_from_and_generator_returning_a_value():
    def inner():
        yield 1
        yield 2
        return 'done'

    def outer(log):
        r = yield from inner()
        log.append(r)
        yield 3

    def f(x):
        log = []
        vals = list(outer(log))
        return x * sum(vals), log
    check(f, (X,))


def make_pair(a, b):
    yield a
    yield b


def echo():
    got = None
    while True:
        got = yield got


def delegate(n):
    r = yield from make_pair(n, n + 1)
    yield from [r, n * 10]


def test_generators_are_simulated_without_breaks():
    def f(x):
        g = make_pair(x, x * 2)
        a = next(g)
        b = next(g)
        e = echo()
        next(e)
        s1, s2 = e.send(3), e.send(x + 1)
        return a + b, s1, s2, list(delegate(4)), next(make_pair(1, 2), 9), next(iter(make_pair(7, 8)))
    sf = check(f, (X,), (t([3.0, 4.0]),), translations=1)
    assert_no_breaks(sf)


def test_generator_expressions_without_breaks():
    def f(x, xs):
        g = (v * 2 for v in xs)
        first = next(g)
        rest = list(g)
        return (x * sum(v for v in xs), first, rest, tuple(i for i in range(3)), max(v for v in xs),
                ', '.join(str(v) for v in xs), 'yes' if g else 'no', [*(v + 1 for v in xs)])
    sf = check(f, (X, [1, 2, 3]), (X, [4, 5]))
    assert_no_breaks(sf)


def test_any_all_stop_where_eager_stops():
    def probe(xs, log):
        for v in xs:
            log.append(v)
            yield v > 1

    def f(x, xs, log):
        return x * 2, any(probe(xs, log)), all(probe(xs, log))
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, [0, 2, 3], a), f(X, [0, 2, 3], b)
    same_log = a == b
    assert same_log, (a, b)
    assert got[1:] == want[1:]
    assert_no_breaks(sf)


def test_generator_exhausted_and_unstarted_send():
    def f(x):
        g = make_pair(1, 2)
        vals = [next(g), next(g)]
        try_default = next(g, 'done')
        return x + 1, vals, try_default
    check(f, (X,))

    def bad(x):
        return next(make_pair(1, 2).__iter__()), echo().send(1)   # raises: TypeError
    sf = paddle.jit.to_static(bad)
    for fn in (bad, sf):
        try:
            fn(X)
            raise AssertionError('no TypeError')
        except TypeError as e:
            assert 'just-started' in str(e), e


def test_generator_live_at_a_graph_break_is_made_for_real():
    # a simulated generator cannot cross a break: the segment is translated again with it made
    # for real, and it runs concretely from there (each call then translates anew: known cost)
    def f(x):
        g = make_pair(x, 2)
        a = next(g)
        sot.psdb.breakgraph()
        b = next(g)
        for v in make_pair(1, 3):
            sot.psdb.breakgraph()
            a = a + v
        return a + b
    sf = check(f, (X,), (t([5.0, 6.0]),))
    assert {'SOT020', 'SOT005'} <= set(breaks(sf)), breaks(sf)


def test_generator_breaking_inside_runs_concretely():
    # a break inside the generator's body breaks next(); the segment is translated again with the
    # generator made for real, which then runs concretely (results equal eager's)
    def inner_break(log):
        yield 1
        log.append('between')
        sot.psdb.breakgraph()
        yield 2

    def f(x, log):
        h = inner_break(log)
        a = next(h)
        log.append('after first')
        return x + a + next(h)
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, a), f(X, b)
    assert got.tolist() == want.tolist() and a == b, (a, b)
    assert 'SOT005' in breaks(sf), breaks(sf)


def test_generator_returned_or_stored_is_real():
    def f(x, out):
        g = make_pair(x, 1)
        out.append(make_pair(2, 3))
        return g
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, a), f(X, b)
    assert [v.tolist() if isinstance(v, paddle.Tensor) else v for v in got] == [v.tolist() if isinstance(v, paddle.Tensor) else v for v in want]
    assert list(a[0]) == list(b[0]) == [2, 3]


def test_enumerate_and_zip_over_generators():
    def f(x, log):
        out = x
        for i, v in enumerate(gen(3, log)):
            log.append(('body', i))
            out = out + v
        pairs = list(zip(make_pair(1, 2), [5]))
        return out, pairs, list(enumerate(make_pair(3, 4)))
    a, b = [], []
    sf = paddle.jit.to_static(f)
    got, want = sf(X, a), f(X, b)
    assert a == b, (a, b)
    assert got[0].tolist() == want[0].tolist() and got[1:] == want[1:]
