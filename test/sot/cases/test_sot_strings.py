"""Translator: f-strings (conversions, format specs, nested), str methods and % formatting,
computed at translation time from guarded values; formatting a tensor runs concretely."""
import paddle
from sot_check import assert_breaks, assert_no_breaks, check, t

X = t([1.0, 2.0])


def test_fstrings():
    def f(x, name, n, fl, flag):
        s = f'{name}:{n:>5}|{n:#x}|{fl:.3f}|{fl!r}|{name!s:^7}|{flag}|{n + 1}|{name!a}|{"q"}'
        w = 8
        s2 = f'{fl:{w}.{2}f}'
        return x * len(s), s, s2
    sf = check(f, (X, 'ab', 7, 2.5, True), (X, 'héllo', -3, 1e-5, None))
    assert_no_breaks(sf)


def test_str_methods():
    def f(x, s):
        parts = s.split(',')
        j = '-'.join(parts)
        return (x * len(parts), s.upper(), s.lower(), s.strip(), s.replace('a', 'b'), s.startswith('a'),
                s.endswith('z'), s.find(','), j, s.split(',', 1), s.rsplit(',', maxsplit=1), s.title(), s.zfill(10),
                s.center(12, '*'), s.count('a'), s.isdigit(), 'x' + s + 'y', s * 2, s[1:3], 'a' in s, s.format())
    sf = check(f, (X, 'a,b , c'), (X, '  aa,zz'))
    assert_no_breaks(sf)


def test_percent_and_format():
    def f(x, name, n):
        return x * n, '%s=%d (%.1f%%)' % (name, n, n * 1.5), '{}-{:03d}-{k}'.format(name, n, k='v'), str(n), repr(name), format(n, 'b')
    sf = check(f, (X, 'k', 5))
    assert_no_breaks(sf)


def test_formatting_a_tensor_runs_concretely():
    def f(x):
        y = x * 2
        s = f'{y}'
        r = repr(y.shape)
        return y, s, r
    sf = check(f, (X,))
    assert_breaks(sf, 'SOT004')


def test_str_of_objects_with_their_own_repr_runs_concretely():
    calls = []

    class Noisy:
        def __repr__(self):
            calls.append(1)
            return 'Noisy()'

    obj = Noisy()

    def f(x):
        return x, f'{obj!r}', str(obj)
    sf = paddle.jit.to_static(f)
    sf(X)
    sf(X)
    assert len(calls) == 4, calls
