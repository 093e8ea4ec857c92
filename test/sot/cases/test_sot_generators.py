"""Translator: generators used by a translated function. Generator functions and generator
expressions run as plain Python (their frames are not simulated): calling one is a concrete
step and iterating it steps concretely; results and interleaving equal eager's."""
import paddle
from sot_check import breaks, check, explain, t

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
    assert 'SOT005' in breaks(sf) or 'SOT009' in breaks(sf)


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
