"""Translator: errors leaving translated code. to_static keeps eager's exception exactly (type,
message); symbolic_translate (Paddle's own entry point) adds Paddle's summary of the simulated
stack, "In simulate execution:" with one 'File "...", line N, in f' per frame, to the message,
or as a note when the message is not its one str argument. The frames are those translated
since the last graph break (Paddle translates each frame resumed after a break on its own)."""
import re
import sys

import paddle
from paddle.jit.sot import symbolic_translate
from sot_check import raised, user_lines

FILE_LINE = re.compile(r'File "(.*)", line (\d+)')


def missing_global(x):
    y = x + 1
    return y * undefined_global_name  # noqa: F821  sim missing_global 0


def missing_attribute(x):
    return (x * 2).no_such_attribute  # sim missing_attribute 0


def _after_a_break(x):
    y = x - 1
    print(end='')                  # a break inside the inlined call: its caller is resumed apart
    return y.no_such_attribute     # sim break_in_callee 0


def break_in_callee(x):
    return _after_a_break(x)


def _divides(x):
    return x + 1 / 0               # sim deep 2


def _scales(x):
    return _divides(x) * 2         # sim deep 1


def _prints(x):
    print(end='')
    return x + 1


def deep(x):
    y = _prints(x)                 # the callee's break ends before the error: deep is resumed
    return _scales(y) + 1          # sim deep 0


def key_error(x):
    d = {'a': x}
    return d['b']                  # sim key_error 0


CASES = [missing_global, missing_attribute, break_in_callee, deep]


def _marked(tag):
    """Lines of this file marked '# ... sim <tag> <position>', in position order."""
    found = []
    with open(__file__) as f:
        for n, line in enumerate(f, 1):
            m = re.search(r'sim (\w+) (\d+)$', line.rstrip())
            if m and m.group(1) == tag:
                found.append((int(m.group(2)), n))
    return [n for _, n in sorted(found)]


def _x():
    return paddle.rand([2, 3])


def test_symbolic_translate_names_the_simulated_frames():
    bad = []
    for fn in CASES:
        want = raised(fn, (_x(),))
        for call in range(2):   # translating, then the cached translation
            got = raised(symbolic_translate(fn), (_x(),))
            lines = [int(n) for f, n in FILE_LINE.findall(str(got)) if f == __file__]
            if type(got) is not type(want) or not str(got).startswith(str(want)):
                bad.append('%s: %s %r vs %s %r' % (fn.__name__, type(got).__name__, str(got), type(want).__name__, str(want)))
            elif lines != _marked(fn.__name__):
                bad.append('%s call %d: summary lines %s, expected %s\n%s' % (fn.__name__, call, lines, _marked(fn.__name__), got))
            elif _marked(fn.__name__)[-1] not in user_lines(got, __file__):
                bad.append('%s: traceback lines %s' % (fn.__name__, user_lines(got, __file__)))
    assert not bad, '\n'.join(bad)


def test_to_static_keeps_eager_messages():
    for fn in CASES + [key_error]:
        want = raised(fn, (_x(),))
        sf = paddle.jit.to_static(fn)
        for call in range(2):
            got = raised(sf, (_x(),))
            assert (type(got), str(got), got.args) == (type(want), str(want), want.args), (fn.__name__, got, want)
            assert not getattr(got, '__notes__', None), got.__notes__


def test_message_not_from_its_argument_gets_a_note():
    # KeyError's message is the repr of its key: the key stays, the summary is a note (3.11+)
    want = raised(key_error, (_x(),))
    got = raised(symbolic_translate(key_error), (_x(),))
    assert (type(got), str(got), got.args) == (KeyError, str(want), ('b',))
    if sys.version_info >= (3, 11):
        notes = '\n'.join(got.__notes__)
        assert [int(n) for _, n in FILE_LINE.findall(notes)] == _marked('key_error'), notes
