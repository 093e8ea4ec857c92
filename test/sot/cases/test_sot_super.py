"""Translator: super() in every form (zero-argument and two-argument, attribute and method
loads, chains through several classes, in layers' forward and __init__-time helpers, in
classmethods), inlined without a graph break."""
import paddle
import paddle.nn as nn
from sot_check import assert_no_breaks, check, count, same, t

X = t([[1.0, -2.0], [3.0, 0.5]])


class A:
    scale = 2.0

    def f(self, x):
        return x * self.k

    def g(self, x):
        return x + 1

    @classmethod
    def make(cls, v):
        return v * 3

    @staticmethod
    def stat(v):
        return v - 1


class B(A):
    scale = 5.0

    def __init__(self, k):
        self.k = k

    def f(self, x):
        return super().f(x) + super().g(x)

    def attr(self):
        return super().scale

    @classmethod
    def make(cls, v):
        return super().make(v) + 1

    def stat_via_super(self, v):
        return super().stat(v)


class C(B):
    def f(self, x):
        return super(B, self).f(x) * 10 + super().f(x) + super(C, self).g(x)


OBJ_B, OBJ_C = B(2.0), C(3.0)


def test_zero_arg_super_method():
    def fn(x):
        return OBJ_B.f(x)
    sf = check(fn, (X,))
    assert_no_breaks(sf)


def test_two_arg_and_chained_super():
    def fn(x):
        return OBJ_C.f(x)
    sf = check(fn, (X,))
    assert_no_breaks(sf)


def test_super_attribute_classmethod_staticmethod():
    def fn(x):
        return x * OBJ_B.attr(), B.make(2), OBJ_B.stat_via_super(4), C.make(1)
    sf = check(fn, (X,))
    assert_no_breaks(sf)


def test_super_object_as_a_value():
    def fn(x):
        s = super(C, OBJ_C)
        m = s.f
        print('break with a super object alive')
        return m(x), s.g(x)
    check(fn, (X,))


def test_method_of_derived_class_as_the_translated_function():
    sf = paddle.jit.to_static(OBJ_B.f)
    same(sf(X), B.f(OBJ_B, X))
    same(sf(X * 2), B.f(OBJ_B, X * 2))
    assert count(sf) == 1


class Base(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        return paddle.nn.functional.relu(self.fc(x))


class Derived(Base):
    def __init__(self):
        super(Derived, self).__init__()
        self.extra = nn.Linear(2, 2)

    def forward(self, x):
        y = super().forward(x)
        return self.extra(y) + super(Derived, self).forward(x)


def test_super_forward_in_layers():
    paddle.seed(7)
    m = Derived()
    m.eval()
    want = m(X)
    sm = paddle.jit.to_static(m)
    same(sm(X), want)
    same(sm(X), want)
    assert_no_breaks(sm.forward)


def test_monkeypatched_parent_method_is_seen():
    class P:
        def h(self, x):
            return x + 1

    class Q(P):
        def h(self, x):
            return super().h(x) * 2

    q = Q()

    def fn(x):
        return q.h(x)
    sf = paddle.jit.to_static(fn)
    same(sf(X), fn(X))
    P.h = lambda self, x: x - 100
    same(sf(X), fn(X))
