"""numpy.testing: assert_allclose, assert_array_equal, assert_equal, assert_array_almost_equal,
assert_almost_equal, assert_raises. Comparisons run on the values in Python; messages follow
numpy's layout (mismatch counts, max absolute / relative difference)."""
import math

from ._array import asarray, ndarray
from ._scalars import generic


def _flat(x, y):
    from ._manip import broadcast_shapes, broadcast_to
    a, b = asarray(x), asarray(y)
    try:
        shape = broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise AssertionError('\nArrays are not equal\n\n(shapes %s, %s mismatch)' % (a.shape, b.shape)) from None
    fa = broadcast_to(a, shape).reshape(-1).tolist() if shape else [a.item()]
    fb = broadcast_to(b, shape).reshape(-1).tolist() if shape else [b.item()]
    return a, b, fa, fb


def _report(header, a, b, fa, fb, bad, err_msg, diffs=True):
    n = len(fa)
    lines = ['', header]
    if err_msg:
        lines.append(err_msg)
    lines.append('')
    lines.append('Mismatched elements: %d / %d (%.3g%%)' % (len(bad), n, 100.0 * len(bad) / max(n, 1)))
    if diffs:
        num = [(i, fa[i], fb[i]) for i in bad if isinstance(fa[i], (int, float)) and isinstance(fb[i], (int, float))]
        if num:
            absd = max(abs(x - y) for _, x, y in num)
            rel = [abs(x - y) / abs(y) for _, x, y in num if y != 0]
            lines.append('Max absolute difference among violations: %s' % absd)
            lines.append('Max relative difference among violations: %s' % (max(rel) if rel else float('inf')))
    lines.append(' ACTUAL: %r' % (a,))
    lines.append(' DESIRED: %r' % (b,))
    raise AssertionError('\n'.join(lines))


def _isnan(v):
    return isinstance(v, float) and v != v


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg='', verbose=True, strict=False):
    a, b, fa, fb = _flat(actual, desired)
    if strict and (a.shape != b.shape or a.dtype != b.dtype):
        raise AssertionError('\nNot equal to tolerance rtol=%g, atol=%g\n\n(shapes %s, %s or dtypes %s, %s mismatch)'
                             % (rtol, atol, a.shape, b.shape, a.dtype, b.dtype))
    bad = []
    for i, (x, y) in enumerate(zip(fa, fb)):
        x, y = float(x), float(y)
        if _isnan(x) or _isnan(y):
            if not (equal_nan and _isnan(x) and _isnan(y)):
                bad.append(i)
        elif math.isinf(x) or math.isinf(y):
            if x != y:
                bad.append(i)
        elif not abs(x - y) <= atol + rtol * abs(y):
            bad.append(i)
    if bad:
        _report('Not equal to tolerance rtol=%g, atol=%g' % (rtol, atol), a, b, fa, fb, bad, err_msg)


def assert_array_equal(x, y, err_msg='', verbose=True, strict=False):
    a, b, fa, fb = _flat(x, y)
    if strict and (a.shape != b.shape or a.dtype != b.dtype):
        raise AssertionError('\nArrays are not equal\n\n(shapes %s, %s or dtypes %s, %s mismatch)' % (a.shape, b.shape, a.dtype, b.dtype))
    bad = [i for i, (p, q) in enumerate(zip(fa, fb)) if not (p == q or (_isnan(p) and _isnan(q)))]
    if bad:
        _report('Arrays are not equal', a, b, fa, fb, bad, err_msg)


def assert_array_almost_equal(x, y, decimal=6, err_msg='', verbose=True):
    a, b, fa, fb = _flat(x, y)
    tol = 1.5 * 10.0 ** (-decimal)
    bad = [i for i, (p, q) in enumerate(zip(fa, fb))
           if not ((_isnan(p) and _isnan(q)) or (p == q) or abs(float(p) - float(q)) < tol)]
    if bad:
        _report('Arrays are not almost equal to %d decimals' % decimal, a, b, fa, fb, bad, err_msg)


def assert_almost_equal(actual, desired, decimal=7, err_msg='', verbose=True):
    if isinstance(actual, (ndarray, list, tuple)) or isinstance(desired, (ndarray, list, tuple)):
        return assert_array_almost_equal(actual, desired, decimal, err_msg)
    if not (abs(float(desired) - float(actual)) < 1.5 * 10.0 ** (-decimal) or (_isnan(float(actual)) and _isnan(float(desired)))):
        raise AssertionError('\nArrays are not almost equal to %d decimals\n%s\n ACTUAL: %r\n DESIRED: %r' % (decimal, err_msg, actual, desired))


def assert_equal(actual, desired, err_msg='', verbose=True, strict=False):
    if isinstance(desired, dict):
        if not isinstance(actual, dict) or set(actual) != set(desired):
            raise AssertionError('\nItems are not equal:\n%s\n ACTUAL: %r\n DESIRED: %r' % (err_msg, actual, desired))
        for k in desired:
            assert_equal(actual[k], desired[k], 'key=%r\n%s' % (k, err_msg))
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        if len(actual) != len(desired):
            raise AssertionError('\nItems are not equal:\nlength %d != %d\n%s' % (len(actual), len(desired), err_msg))
        for k, (p, q) in enumerate(zip(actual, desired)):
            assert_equal(p, q, 'item=%d\n%s' % (k, err_msg))
        return
    if isinstance(actual, (ndarray, generic)) or isinstance(desired, (ndarray, generic)):
        return assert_array_equal(actual, desired, err_msg)
    if actual == desired or (_isnan(actual) and _isnan(desired)):
        return
    raise AssertionError('\nItems are not equal:\n%s\n ACTUAL: %r\n DESIRED: %r' % (err_msg, actual, desired))


def assert_(val, msg=''):
    if not val:
        raise AssertionError(msg)


class _Raises:
    def __init__(self, exc):
        self.exc = exc

    def __enter__(self):
        return self

    def __exit__(self, t, v, tb):
        if t is None:
            raise AssertionError('%s not raised' % self.exc.__name__)
        return issubclass(t, self.exc)


def assert_raises(exc, *args, **kwargs):
    if not args:
        return _Raises(exc)
    fn, rest = args[0], args[1:]
    with _Raises(exc):
        fn(*rest, **kwargs)


def __getattr__(name):
    raise AttributeError("module 'numpy.testing' has no attribute '%s' (Skiff's numpy subset does not implement it)" % name)
