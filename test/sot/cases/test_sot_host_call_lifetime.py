"""Translator: a tensor a modelled builtin makes at translation time (abs() or math.floor() of a
pure object whose dunder returns a tensor) is bound into the graph as a constant. The trace tree
must own it: Python's object goes away when the first call ends, and a later run must not meet a
disposed tensor. As eager makes a new tensor per call, the caller gets its own copy."""
import enum
import gc
import math

import paddle
from paddle._bridge import flush_frees
from sot_check import count, explain, same, t


class Scale(enum.Enum):
    HALF = 0.5
    THIRD = 3.0

    def __abs__(self):
        return paddle.full([2], self.value)

    def __floor__(self):
        return paddle.full([2], math.floor(self.value))


def scaled(x):
    s = abs(Scale.HALF)
    return x * s, s


def after_a_break(x):
    print('break')
    return x + math.floor(Scale.THIRD)


def _drop_python_references():
    gc.collect()
    flush_frees()   # (handles Python dropped are released in batches: release them now)


def test_builtin_made_tensor_outlives_the_call():
    for fn in (scaled, after_a_break):
        sf = paddle.jit.to_static(fn)
        for _ in range(3):
            x = t([1.0, 2.0])
            same(sf(x), fn(x))
            _drop_python_references()
        e = explain(sf)
        assert not e.get('eager'), '%s fell back to eager: %s' % (fn.__name__, e.get('eagerReason'))
        assert count(sf) == (1 if fn is scaled else 2), '%s: %d translations' % (fn.__name__, count(sf))


def test_builtin_made_tensor_is_the_callers_own():
    sf = paddle.jit.to_static(scaled)
    _, s1 = sf(t([1.0, 2.0]))
    s1.add_(t([100.0, 100.0]))   # eager's tensor is new per call: the next call is unchanged
    del s1
    _drop_python_references()
    _, s2 = sf(t([1.0, 2.0]))
    assert s2.tolist() == [0.5, 0.5], s2.tolist()
