"""Translator: side effects on lists, dicts, attributes and globals equal eager's, and changes
between calls are seen (guards)."""
import paddle
from sot_check import check, count, same, t

X = t([1.0, 2.0])
COUNTER = 0
SCALE = 2.0


def test_list_mutation_of_argument():
    def f(x, lst):
        lst.append(x * 2)
        lst[0] = 5
        return len(lst)
    a, b = [1, 2], [1, 2]
    sf = paddle.jit.to_static(f)
    same(sf(X, a), f(X, b))
    same(a, b)


def test_dict_mutation_of_argument():
    def f(x, d):
        d['y'] = x + 1
        d['n'] = d['n'] + 1
        return d['n']
    a, b = {'n': 1}, {'n': 1}
    sf = paddle.jit.to_static(f)
    same(sf(X, a), f(X, b))
    same(a, b)


def test_attribute_writes():
    class Box:
        pass

    def f(x, box):
        box.value = x * 3
        box.count = getattr(box, 'count', 0) + 1
        return box.count
    a, b = Box(), Box()
    sf = paddle.jit.to_static(f)
    same(sf(X, a), f(X, b))
    same(a.value, b.value)
    same(a.count, b.count)


def test_global_write_and_read():
    def f(x):
        global COUNTER
        COUNTER = COUNTER + 1
        return x * COUNTER
    global COUNTER
    sf = paddle.jit.to_static(f)
    COUNTER = 0
    r1 = sf(X)
    r2 = sf(X)
    COUNTER = 0
    e1 = f(X)
    e2 = f(X)
    same(r1, e1)
    same(r2, e2)


def test_global_rebinding_is_seen():
    def f(x):
        return x * SCALE
    global SCALE
    sf = paddle.jit.to_static(f)
    SCALE = 2.0
    same(sf(X), f(X))
    SCALE = 5.0
    same(sf(X), f(X))
    SCALE = 2.0


def test_side_effects_before_a_break_happen_in_order():
    log = []

    def f(x):
        log.append('a')
        print('break here')
        log.append('b')
        return x
    sf = paddle.jit.to_static(f)
    sf(X)
    assert log == ['a', 'b']


LOG = []


def _log(v):
    LOG.append(v)
    return v


def test_global_list_mutated_by_several_inlined_calls():
    # each call reads the global anew: the translator must see one list, not one per read
    def f(x):
        a = _log(1)
        b = _log(2)
        return x * (a + b), len(LOG)
    global LOG
    sf = paddle.jit.to_static(f)
    LOG = []
    got = [sf(X), sf(X)]
    got_log = LOG
    LOG = []
    want = [f(X), f(X)]
    same(got, want)
    assert got_log == LOG


def test_the_same_list_under_two_names_is_one_list():
    def f(x, a, b):
        a.append(1)
        b.append(2)
        return x * len(a), len(b)
    sf = paddle.jit.to_static(f)
    for make in (lambda: ([0], None), lambda: ([0], [0]), lambda: ([0], None)):
        la, lb = make()
        ea, eb = make()
        lb = la if lb is None else lb
        eb = ea if eb is None else eb
        same(sf(X, la, lb), f(X, ea, eb))
        same((la, lb), (ea, eb))
