"""Helpers for the translator tests: run a function eagerly and translated on the same inputs
and compare everything a user could observe (values, types, container structure)."""
import json

import paddle
import _skiff_sot


def same(a, b, path='result'):
    """Asserts a and b are equal with their types (2, 2.0 and True differ; tensors by value)."""
    if isinstance(a, paddle.Tensor) or isinstance(b, paddle.Tensor):
        assert isinstance(a, paddle.Tensor) and isinstance(b, paddle.Tensor), '%s: %r vs %r' % (path, a, b)
        assert a.shape == b.shape, '%s: shape %s vs %s' % (path, a.shape, b.shape)
        assert a.dtype == b.dtype, '%s: dtype %s vs %s' % (path, a.dtype, b.dtype)
        av, bv = a.tolist(), b.tolist()
        assert _close(av, bv), '%s: %r vs %r' % (path, av, bv)
        return
    assert type(a) is type(b), '%s: type %s vs %s (%r vs %r)' % (path, type(a).__name__, type(b).__name__, a, b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), '%s: length %d vs %d' % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, '%s[%d]' % (path, i))
    elif isinstance(a, dict):
        assert list(a) == list(b), '%s: keys %r vs %r' % (path, list(a), list(b))
        for k in a:
            same(a[k], b[k], '%s[%r]' % (path, k))
    else:
        assert a == b or (a != a and b != b), '%s: %r vs %r' % (path, a, b)


def _close(a, b, tol=1e-5):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if a != a:
            return b != b
        return abs(a - b) <= tol * (1 + abs(b))
    return a == b


def check(fn, *argsets, translations=None, allow_eager=False):
    """fn translated == fn eager on every argument tuple; returns the translated wrapper.
    Unless allow_eager, the function must really have been translated (not run as plain Python)."""
    sf = paddle.jit.to_static(fn)
    for args in argsets:
        want = fn(*args)
        got = sf(*args)
        same(got, want)
    if not allow_eager:
        e = explain(sf)
        assert not e.get('eager'), 'ran eagerly: %s' % e.get('eagerReason')
    if translations is not None:
        assert count(sf) == translations, 'translations: %d, expected %d' % (count(sf), translations)
    return sf


def count(sf):
    return _skiff_sot.translate_count(sf._fid) if sf._fid > 0 else 0


def explain(sf):
    """What the translator did with a wrapped function (eager ones say why: eagerReason)."""
    if sf._fid == 0:
        return {'eager': True, 'eagerReason': 'not registered', 'graphCount': 0, 'breaks': []}
    return json.loads(_skiff_sot.explain(sf._fid))


def breaks(sf):
    return [b['code'] for b in explain(sf)['breaks']]


def assert_no_breaks(sf):
    """The translated function ran as graphs only (no concrete steps); shows the breaks if not."""
    e = explain(sf)
    assert not e.get('eager') and not e['breaks'], 'breaks: %s' % [(b['code'], b['line'], b['detail']) for b in e['breaks']] or e.get('eagerReason')


def assert_breaks(sf, *codes):
    """Every break code in `codes` happened (others may too)."""
    got = breaks(sf)
    for c in codes:
        assert c in got, 'expected a %s break, got %s' % (c, got)


def t(data, dtype='float32'):
    return paddle.to_tensor(data, dtype=dtype)


def raising_line(fn):
    """The line of `fn` marked '# raises'."""
    import inspect
    src, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(src) if line.rstrip().endswith('raises'))


def raised(fn, args):
    """The exception fn(*args) raises (it must raise)."""
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return e
    raise AssertionError('%s did not raise' % fn.__name__)


def user_lines(e, filename):
    """The traceback lines of `e` that are in `filename` (the test file's __file__)."""
    tb, out = e.__traceback__, []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            out.append(tb.tb_lineno)
        tb = tb.tb_next
    return out
