"""Translator: Python exceptions raised by translated code keep their type and message, and the
traceback points at the user's line, in the translated function and in the functions it
inlined, before and after graph breaks."""
import paddle
from sot_check import raised, raising_line, t, user_lines

X = t([1.0, 2.0, 3.0])
def helper_raises(v):
    raise ValueError('bad value %d' % v)  # raises


def zero_division(x, n):
    return x * (10 // n)  # raises


def missing_key(x, d):
    return x * d['nope']  # raises


def missing_attribute(x, obj):
    return x * obj.nope  # raises


def wrong_call(x):
    return helper_raises(1, 2, 3)  # raises


def undefined_name(x):
    return x * NOT_DEFINED_ANYWHERE  # noqa: F821 raises


def in_inlined_helper(x, n):
    y = x * 2
    return helper_raises(n) + y


def after_a_break(x):
    y = x + 1
    print('break')
    return y @ t([[1.0, 2.0]])  # raises


def assertion(x, n):
    assert n > 5, 'n is %d' % n  # raises
    return x


CASES = [
    (zero_division, (X, 0), zero_division),
    (missing_key, (X, {'a': 1}), missing_key),
    (missing_attribute, (X, object()), missing_attribute),
    (wrong_call, (X,), wrong_call),
    (undefined_name, (X,), undefined_name),
    (in_inlined_helper, (X, 3), helper_raises),
    (after_a_break, (X,), after_a_break),
    (assertion, (X, 1), assertion),
]


def test_exceptions_keep_type_message_and_line():
    bad = []
    for fn, args, where in CASES:
        want = raised(fn, args)
        line = raising_line(where)
        sf = paddle.jit.to_static(fn)
        for call in range(2):   # translating, then the cached translation
            got = raised(sf, args)
            if type(got) is not type(want) or str(got) != str(want):
                bad.append('%s: %s(%s) vs %s(%s)' % (fn.__name__, type(got).__name__, got, type(want).__name__, want))
            elif not user_lines(got, __file__) or user_lines(got, __file__)[-1] != line:
                bad.append('%s: traceback lines %s do not end at line %d' % (fn.__name__, user_lines(got, __file__), line))
    assert not bad, '\n'.join(bad)
