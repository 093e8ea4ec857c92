"""Translator: dataclasses, namedtuples, enums (IntEnum members as constants), plain objects
with methods and properties, isinstance / hasattr / getattr / setattr."""
import dataclasses
import enum
from collections import namedtuple
from typing import NamedTuple

import paddle
from sot_check import assert_no_breaks, check, same, t

X = t([1.0, -2.0, 3.0])


class Mode(enum.IntEnum):
    TRAIN = 1
    EVAL = 2


class Color(enum.Enum):
    RED = 'r'
    BLUE = 'b'


@dataclasses.dataclass
class Config:
    scale: float = 2.0
    bias: int = 1
    name: str = 'cfg'


@dataclasses.dataclass(frozen=True)
class Frozen:
    k: int = 3


Point = namedtuple('Point', ['x', 'y'])


class Pair(NamedTuple):
    a: float
    b: float = 0.5


def test_int_enum_members_are_constants():
    def f(x, mode):
        if mode == Mode.TRAIN:
            y = x * 2
        elif mode is Mode.EVAL:
            y = x - 1
        else:
            y = x
        return y * (mode + 1), mode, Mode.EVAL.value, Mode(2), mode.name, int(mode), mode in (Mode.TRAIN,), {Mode.TRAIN: 1}[Mode.TRAIN]
    sf = check(f, (X, Mode.TRAIN), (X, Mode.EVAL), (X, Mode.TRAIN))
    assert_no_breaks(sf)


def test_plain_enum():
    def f(x, c):
        d = {Color.RED: 1.0, Color.BLUE: 2.0}
        return x * d[c], c.value, c == Color.RED, c.name
    sf = check(f, (X, Color.RED), (X, Color.BLUE))
    assert_no_breaks(sf)


def test_dataclass_reads_and_writes():
    def f(x, cfg):
        y = x * cfg.scale + cfg.bias
        cfg.bias = cfg.bias + 1
        return y, cfg.name, dataclasses.is_dataclass(cfg), Frozen().k
    a, b = Config(), Config()
    sf = paddle.jit.to_static(f)
    same(sf(X, a), f(X, b))
    same(sf(X, a), f(X, b))
    assert a == b


def test_frozen_dataclass_write_raises_the_same():
    def f(fr):
        fr.k = 5
        return fr.k
    sf = paddle.jit.to_static(f)
    try:
        sf(Frozen())
    except dataclasses.FrozenInstanceError as e:
        assert "cannot assign to field 'k'" in str(e)
    else:
        raise AssertionError('no FrozenInstanceError')


def test_namedtuples():
    def f(x, p, q):
        s = p.x + p.y
        a, b = q
        r = p._replace(x=10)
        return x * s + q.a * q.b, p[0], p, r, Point(1, 2), Pair(3.0), a + b, p._asdict()
    sf = check(f, (X, Point(1, 2), Pair(2.0, 4.0)), (X, Point(3, 4), Pair(1.0)))


class Thing:
    def __init__(self):
        self.v = 3.0
        self._p = 2

    @property
    def p(self):
        return self._p * 10

    @p.setter
    def p(self, value):
        self._p = value + 1

    def method(self, x):
        return x * self.v


def test_properties_and_setters():
    def f(x, th):
        a = th.p
        th.p = 5
        b = th.p
        return x * a + b, th._p
    a, b = Thing(), Thing()
    sf = paddle.jit.to_static(f)
    same(sf(X, a), f(X, b))
    assert a._p == b._p


def test_isinstance_hasattr_getattr_setattr():
    def f(x, obj, n):
        r = []
        r.append(isinstance(x, paddle.Tensor))
        r.append(isinstance(n, int) and not isinstance(n, bool))
        r.append(isinstance(n, (float, str)))
        r.append(isinstance(obj, Thing))
        r.append(isinstance([1], list) and isinstance({}, dict) and isinstance((1,), tuple))
        r.append(hasattr(obj, 'v') and not hasattr(obj, 'nope'))
        r.append(getattr(obj, 'nope', 7))
        setattr(obj, 'w', n)
        r.append(getattr(obj, 'w'))
        r.append(callable(obj.method) and callable(len))
        return x * getattr(obj, 'v'), r
    a, b = Thing(), Thing()
    sf = paddle.jit.to_static(f)
    same(sf(X, a, 3), f(X, b, 3))
    assert a.w == b.w
    sf2 = check(lambda x, n: (isinstance(n, int), isinstance(x, paddle.Tensor)), (X, 1), (X, 1.5))


def test_objects_created_in_the_function():
    def f(x):
        cfg = Config(scale=3.0)
        th = Thing()
        return x * cfg.scale + th.method(x), cfg
    check(f, (X,))


def test_type_of_objects_is_captured_and_guarded():
    class Base:
        scale = 2.0

        def forward(self, x):
            return x * self.scale

    class Child(Base):
        scale = 3.0

    def f(obj, x):
        cls = type(obj)
        plain = cls.forward is Base.forward
        return x * cls.scale + (1.0 if plain else 0.0), cls.__name__

    b, c = Base(), Child()
    sf = check(f, (b, X), (c, X))
    assert_no_breaks(sf)
    # __class__ reassigned between calls: the type guard misses and the new class is read.
    obj = Base()
    same(sf(obj, X), f(obj, X))
    obj.__class__ = Child
    same(sf(obj, X), f(obj, X))
