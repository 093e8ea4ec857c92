"""Translator: entry objects that are new on every call (frontend/python/sot/fresh_objects.ts).
An instance of a plain user class passed in (an argument, `self` of a bound method) is guarded by
its type and by what the translation read of it, not by identity: a fresh instance per call hits
the cache; a changed attribute (value, tensor shape, presence) re-translates; writes reach this
call's object; `is`, storing the object outside and returning it keep identity guards."""
import paddle
from paddle.jit.sot import symbolic_translate
from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache
from sot_check import assert_no_breaks, count, same, t

X = t([1.0, -2.0, 3.0])


class Base:
    def add(self, x):
        return x + self.k


class Model(Base):
    unit = 10

    def __init__(self, k=2):
        self.k = k

    def run(self, x):
        return super().add(x) * 2 + self.unit

    def via_super(self, x):
        return super(Model, self).add(x) - self.k

    @property
    def twice(self):
        return self.k * 2

    def with_property(self, x):
        return x * self.twice


class Config:
    def __init__(self, scale=2, **extra):
        self.scale = scale
        for k, v in extra.items():
            setattr(self, k, v)


class Inner:
    def __init__(self, k):
        self.k = k


def _scaled(x, cfg):
    return x * cfg.scale


def _optional_bias(x, cfg):
    b = getattr(cfg, 'bias', None)
    return x * cfg.scale if b is None else x * cfg.scale + b


def _has_bias(x, cfg):
    return (x + cfg.bias) if hasattr(cfg, 'bias') else x - 1


def _nested(x, cfg):
    return x * cfg.inner.k + cfg.scale


def _tuple_scale(x, cfg):
    a, b = cfg.scale
    return x * a + b


def test_fresh_self_translates_once():
    cache = OpcodeExecutorCache()
    for method, ks in [
        ('run', [2, 2, 2]),
        ('via_super', [3, 3, 3]),
        ('with_property', [4, 4, 4]),
    ]:
        cache.clear()
        for k in ks:
            m = Model(k)
            sf = symbolic_translate(getattr(m, method))
            same(sf(X), getattr(Model(k), method)(X))
        assert cache.translate_count == 1, (method, cache.translate_count)
    cache.clear()


def test_fresh_config_argument():
    # (function, per-call config factories, translations over them)
    cases = [
        (_scaled, [lambda: Config(2)] * 3, 1),
        (_scaled, [lambda: Config(2), lambda: Config(3), lambda: Config(2), lambda: Config(3)], 2),
        (_scaled, [lambda: Config(2), lambda: Config(t([2.0, 1.0, 0.5])), lambda: Config(t([3.0]))], 3),
        (_scaled, [lambda: Config(2), lambda: Config(2.0), lambda: Config(True)], 3),
        (_optional_bias, [lambda: Config(2), lambda: Config(2, bias=t([1.0, 2.0, 3.0])), lambda: Config(2),
                          lambda: Config(2, bias=t([5.0, 5.0, 5.0]))], 2),
        (_has_bias, [lambda: Config(1), lambda: Config(1, bias=1.5), lambda: Config(1), lambda: Config(1, bias=1.5)], 2),
        (_nested, [lambda: Config(1, inner=Inner(2)), lambda: Config(1, inner=Inner(2)), lambda: Config(1, inner=Inner(3))], 2),
        (_tuple_scale, [lambda: Config((2, 3)), lambda: Config((2, 3)), lambda: Config((4, 3)), lambda: Config((2, t([1.0])))], 3),
    ]
    for fn, makes, translations in cases:
        sf = paddle.jit.to_static(fn)
        for make in makes:
            same(sf(X, make()), fn(X, make()))
        assert count(sf) == translations, (fn.__name__, count(sf), translations)
        assert_no_breaks(sf)


def test_class_default_then_own_attribute():
    class Opts:
        scale = 5

    def f(x, o):
        return x * o.scale

    sf = paddle.jit.to_static(f)
    for own in [None, None, 7, None, 7]:
        o = Opts()
        if own is not None:
            o.scale = own
        same(sf(X, o), X * (own if own is not None else 5))
    assert count(sf) == 2, count(sf)


def test_attribute_write_reaches_this_calls_object():
    class Counter:
        def __init__(self):
            self.n = 0

        def step(self, x):
            self.n = self.n + 1
            self.last = x * 2
            return x + self.n

    cache = OpcodeExecutorCache()
    cache.clear()
    for _ in range(3):
        c, e = Counter(), Counter()
        same(symbolic_translate(c.step)(X), e.step(X))
        assert c.n == 1 and 'last' in c.__dict__, vars(c)
        same(c.last, e.last)
    assert cache.translate_count == 1, cache.translate_count
    cache.clear()


SEEN = []


def _stores(x, cfg):
    SEEN.append(cfg)
    return x * cfg.scale


def _same_object(x, a, b):
    return x + 1 if a is b else x - 1


def _returns(x, cfg):
    return x * cfg.scale, cfg


def test_identity_still_matters():
    a, b = Config(2), Config(2)
    sf = paddle.jit.to_static(_same_object)
    for args in [(a, a), (a, b), (b, b), (Config(1), Config(1))]:
        same(sf(X, *args), _same_object(X, *args))

    sf = paddle.jit.to_static(_stores)
    for _ in range(3):
        c = Config(3)
        del SEEN[:]
        same(sf(X, c), X * 3)
        assert len(SEEN) == 1 and SEEN[0] is c, SEEN
    del SEEN[:]

    sf = paddle.jit.to_static(_returns)
    for _ in range(3):
        c = Config(2)
        v, back = sf(X, c)
        same(v, X * 2)
        assert back is c


class Acc:
    def __init__(self, w):
        self.w = w
        self.inner = Inner(1)
        self.n = 0

    def across_break(self, x):
        y = x * self.inner.k
        print('break')           # a concrete step: self crosses it in the frames
        self.n = self.n + 1
        return y + self.w + self.n

    def nested_write(self, x):
        self.inner.k = self.inner.k + 2
        return x * self.inner.k

    def inplace_attr(self, x):
        self.w.add_(x)
        return self.w * 2

    def type_and_isinstance(self, x):
        return x + 1 if isinstance(self, Acc) and type(self) is Acc else x - 1


def _state(o):
    return (o.w, o.inner.k, o.n)


def test_fresh_self_eager_parity():
    cache = OpcodeExecutorCache()
    # (method, translations over three fresh objects: a break makes a node after it)
    for method, translations in [('across_break', 2), ('nested_write', 1), ('inplace_attr', 2), ('type_and_isinstance', 1)]:
        cache.clear()
        for _ in range(3):
            a, e = Acc(t([1.0, 1.0, 1.0])), Acc(t([1.0, 1.0, 1.0]))
            same(symbolic_translate(getattr(a, method))(X), getattr(e, method)(X))
            same(_state(a), _state(e))
        assert cache.translate_count == translations, (method, cache.translate_count)
    cache.clear()


def _write_then_read(x, a, b):
    a.scale = x * 2
    return b.scale * 1


G_CFG = Config(t([7.0, 7.0, 7.0]))


def _write_then_read_global(x, a):
    a.scale = x * 3
    return G_CFG.scale * 1


def test_translated_as_two_objects_then_passed_one():
    # a node translated for two different objects must not serve one object passed twice
    # (nor the global it read): the write through one name is seen through the other in eager
    for fn, argsets in [
        (_write_then_read, [lambda: (Config(t([1.0, 1.0, 1.0])), Config(t([2.0, 2.0, 2.0])))] * 2
         + [lambda: (lambda c: (c, c))(Config(t([3.0, 3.0, 3.0])))]),
        (_write_then_read_global, [lambda: (Config(t([1.0, 1.0, 1.0])),)] * 2 + [lambda: (G_CFG,)]),
    ]:
        sf = paddle.jit.to_static(fn)
        seven = G_CFG.scale   # (restored as the same object: the global's read guard still holds)
        for make in argsets:
            want = fn(X, *make())
            G_CFG.scale = seven
            got = sf(X, *make())
            G_CFG.scale = seven
            same(got, want)
