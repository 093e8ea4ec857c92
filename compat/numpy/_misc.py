"""Predicates, comparisons of whole arrays, dtype info and the smaller statistics helpers
(median, percentile, diff, cumprod, nan-reductions), composed from the modules above."""
import contextlib
import math

from . import _dtypes as D
from ._array import F, asarray, from_python, ndarray
from ._scalars import generic
from . import _reduce as R
from . import _ufuncs as U


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = asarray(a), asarray(b)
    d = D.result_type(a.dtype, b.dtype)
    if d.kind != 'f':
        d = D.float64
    a, b = a.astype(d), b.astype(d)
    close = U.less_equal(U.absolute(U.subtract(a, b)), U.add(atol, U.multiply(rtol, U.absolute(b))))
    finite = U.logical_and(U.isfinite(a), U.isfinite(b))
    from ._manip import where
    r = where(finite, close, U.equal(a, b))
    if equal_nan:
        r = U.logical_or(r, U.logical_and(U.isnan(a), U.isnan(b)))
    return r[()] if r.ndim == 0 else r   # numpy's isclose is a scalar for scalar inputs


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(R.all(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    try:
        a, b = asarray(a1), asarray(a2)
    except (TypeError, ValueError):
        return False
    if a.shape != b.shape:
        return False
    if a.size == 0:
        return True
    eq = U.equal(a, b)
    if equal_nan and a.dtype.kind == 'f':
        eq = U.logical_or(eq, U.logical_and(U.isnan(a), U.isnan(b)))
    return bool(R.all(eq))


def array_equiv(a1, a2):
    from ._manip import broadcast_shapes
    a, b = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    return bool(R.all(U.equal(a, b)))


def ndim(a):
    return asarray(a).ndim


def shape(a):
    return asarray(a).shape


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def isscalar(x):
    return isinstance(x, (int, float, bool, complex, str, bytes, generic))


_KIND_CLASSES = None


def issubdtype(arg1, arg2):
    from . import _scalars as S
    d = D._lookup(arg1) if not (isinstance(arg1, type) and issubclass(arg1, S.generic) and arg1._dtype is None) else None
    if isinstance(arg2, type) and issubclass(arg2, S.generic):
        if d is None:
            return issubclass(arg1, arg2)
        return issubclass(d.type, arg2)
    return d is D._lookup(arg2)


class finfo:
    """Machine limits of a float dtype (IEEE values)."""
    _TABLE = {'float16': (10, 5, 65504.0, 6.103515625e-05, 0.0009765625, 3),
              'float32': (23, 8, 3.4028234663852886e+38, 1.1754943508222875e-38, 1.1920928955078125e-07, 6),
              'float64': (52, 11, 1.7976931348623157e+308, 2.2250738585072014e-308, 2.220446049250313e-16, 15)}

    def __init__(self, dtype):
        d = D._lookup(dtype if not isinstance(dtype, float) else float)
        if d.kind != 'f':
            raise ValueError('data type %r not inexact' % d)
        nmant, nexp, mx, tiny, eps, prec = self._TABLE[d.name]
        t = d.type
        self.dtype, self.bits, self.nmant, self.nexp, self.precision = d, 8 * d.itemsize, nmant, nexp, prec
        self.max, self.min, self.tiny, self.eps = t(mx), t(-mx), t(tiny), t(eps)
        self.smallest_normal = self.tiny
        self.resolution = t(10.0 ** -prec)

    def __repr__(self):
        return 'finfo(resolution=%s, min=%s, max=%s, dtype=%s)' % (self.resolution, self.min, self.max, self.dtype.name)


class iinfo:
    def __init__(self, dtype):
        d = D._lookup(dtype)
        if d.kind not in 'iu':
            raise ValueError('Invalid integer data type %r.' % d.kind)
        self.dtype, self.bits = d, 8 * d.itemsize
        self.min = 0 if d.kind == 'u' else -(1 << (self.bits - 1))
        self.max = (1 << self.bits) - 1 if d.kind == 'u' else (1 << (self.bits - 1)) - 1

    def __repr__(self):
        return 'iinfo(min=%d, max=%d, dtype=%s)' % (self.min, self.max, self.dtype.name)


_ERR = {'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid': 'warn'}


def seterr(all=None, **kwargs):
    """Accepted for compatibility; Skiff's numpy does not emit floating-point warnings."""
    old = dict(_ERR)
    for k in _ERR:
        v = kwargs.get(k, all)
        if v is not None:
            _ERR[k] = v
    return old


def geterr():
    return dict(_ERR)


@contextlib.contextmanager
def errstate(**kwargs):
    old = seterr(**kwargs)
    try:
        yield
    finally:
        _ERR.update(old)


_FIXED_PRINT = {'nanstr': 'nan', 'infstr': 'inf', 'sign': '-', 'floatmode': 'maxprec', 'legacy': False, 'formatter': None}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, **kwargs):
    """precision, threshold, edgeitems, linewidth and suppress as numpy; the other options only
    at numpy's defaults (anything else raises rather than printing differently)."""
    from ._format import OPTIONS
    for k, v in kwargs.items():
        if k not in _FIXED_PRINT or _FIXED_PRINT[k] != v:
            raise NotImplementedError("np.set_printoptions(%s=%r) is not supported by Skiff's numpy" % (k, v))
    for k, v in (('precision', precision), ('threshold', threshold), ('edgeitems', edgeitems), ('linewidth', linewidth), ('suppress', suppress)):
        if v is not None:
            OPTIONS[k] = bool(v) if k == 'suppress' else int(v)


def get_printoptions():
    from ._format import OPTIONS
    return dict(OPTIONS, **_FIXED_PRINT)


@contextlib.contextmanager
def printoptions(**kwargs):
    from ._format import OPTIONS
    saved = dict(OPTIONS)
    set_printoptions(**kwargs)
    try:
        yield get_printoptions()
    finally:
        OPTIONS.update(saved)


def can_cast(from_, to, casting='safe'):
    a, b = D._lookup(from_ if not isinstance(from_, (ndarray, generic)) else from_.dtype), D._lookup(to)
    if casting == 'unsafe':
        return True
    if casting == 'same_kind':
        order = {'b': 0, 'u': 1, 'i': 1, 'f': 2}
        return order[a.kind] <= order[b.kind] and not (a.kind == 'i' and b.kind == 'u')
    return D.promote_types(a, b) is b


def iscomplexobj(x):
    return False


def isrealobj(x):
    return True


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    a = asarray(x)
    if a.dtype.kind != 'f':
        return a.copy()
    fi = finfo(a.dtype)
    from ._manip import where
    r = where(U.isnan(a), nan, a)
    r = where(U.equal(r, math.inf), fi.max if posinf is None else posinf, r)
    return where(U.equal(r, -math.inf), fi.min if neginf is None else neginf, r)


def cumprod(a, axis=None, dtype=None):
    """On the registry's cumprod kernel; bool and integers accumulate in int64 (wrapping, as
    numpy's int64 does), an int16/uint16/uint32 dtype= result is wrapped into its range."""
    from ._array import cast_t, fit, reshape_t, wrap
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else (D.int64 if a.dtype.kind in 'biu' else a.dtype)
    if d.kind == 'b':
        d = D.int64 if dtype is None else d
    t = cast_t(a._t, d) if d.kind != 'b' else cast_t(a._t, D.int64)
    if axis is None:
        t, ax = reshape_t(t, [-1]), 0
    else:
        ax = R.norm_axes(axis, a.ndim)[0]
    if a.size == 0:
        return wrap(t.clone(), d)
    r = fit(F['cumprod'](t, ax, None), d)
    if d.kind == 'b':
        r = F['not_equal'](r, 0)
    return wrap(r, d)


def diff(a, n=1, axis=-1):
    a = asarray(a)
    ax = R.norm_axes(axis, a.ndim)[0]
    for _ in range(n):
        hi = [slice(None)] * a.ndim
        lo = [slice(None)] * a.ndim
        hi[ax] = slice(1, None)
        lo[ax] = slice(None, -1)
        a = U.not_equal(a[tuple(hi)], a[tuple(lo)]) if a.dtype.kind == 'b' else U.subtract(a[tuple(hi)], a[tuple(lo)])
        a = asarray(a)
    return a


def interp(x, xp, fp, left=None, right=None):
    import bisect
    xs, ys = asarray(xp, D.float64).tolist(), asarray(fp, D.float64).tolist()
    xa = asarray(x, D.float64)

    def one(v):
        if v != v:
            return v
        if v <= xs[0]:
            return ys[0] if left is None or v == xs[0] else left
        if v >= xs[-1]:
            return ys[-1] if right is None or v == xs[-1] else right
        i = bisect.bisect_right(xs, v) - 1
        t = (v - xs[i]) / (xs[i + 1] - xs[i])
        return ys[i] + t * (ys[i + 1] - ys[i])
    if xa.ndim == 0:
        return D.float64.type(one(xa.item()))
    return from_python([one(v) for v in xa.reshape(-1).tolist()], D.float64).reshape(xa.shape)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    a = asarray(a)
    if weights is None:
        avg = R.mean(a, axis, keepdims=keepdims)
        w = a.size if axis is None else a.shape[axis]
    else:
        w = asarray(weights)
        if w.shape != a.shape and axis is not None:
            shp = [1] * a.ndim
            shp[axis] = -1
            w = w.reshape(shp)
        wsum = R.sum(U.multiply(U.add(a, 0.0) * 0 + 1, w) if w.shape != a.shape else w, axis, keepdims=keepdims)
        avg = U.divide(R.sum(U.multiply(a, w), axis, keepdims=keepdims), wsum)
        w = wsum
    return (avg, w) if returned else avg


def quantile(a, q, axis=None, keepdims=False, method='linear'):
    """Linear interpolation between order statistics (numpy's default method), in Python."""
    from ._sort import sort
    if method != 'linear':
        raise NotImplementedError("np.quantile(method=%r) is not supported by Skiff's numpy" % method)
    a = asarray(a, D.float64 if asarray(a).dtype.kind != 'f' else None)
    if axis is None:
        a, axis = a.reshape(-1), 0
    qs = asarray(q, D.float64)
    s = sort(a, axis)
    ax = R.norm_axes(axis, a.ndim)[0]
    n = a.shape[ax]
    if n == 0:
        raise IndexError('cannot do a non-empty take from an empty axes.')
    res = []
    for qv in (qs.reshape(-1).tolist() if qs.ndim else [qs.item()]):
        if not 0 <= qv <= 1:
            raise ValueError('Quantiles must be in the range [0, 1]')
        pos = qv * (n - 1)
        lo = int(math.floor(pos))
        hi = min(lo + 1, n - 1)
        t = pos - lo
        idx_lo = [slice(None)] * a.ndim
        idx_hi = [slice(None)] * a.ndim
        idx_lo[ax], idx_hi[ax] = lo, hi
        vlo, vhi = s[tuple(idx_lo)], s[tuple(idx_hi)]
        r = U.add(vlo, U.multiply(U.subtract(vhi, vlo), t)) if t else U.add(vlo, 0 * t)
        if keepdims:
            r = asarray(r).reshape([1 if i == ax else d for i, d in enumerate(a.shape)])
        res.append(r)
    if qs.ndim == 0:
        return res[0]
    from ._manip import stack
    return stack(res).reshape(qs.shape + asarray(res[0]).shape)


def percentile(a, q, axis=None, keepdims=False, method='linear'):
    return quantile(a, U.divide(q, 100) if not isinstance(q, (int, float)) else q / 100, axis, keepdims, method)


def median(a, axis=None, keepdims=False):
    return quantile(a, 0.5, axis, keepdims)


def _nan_fill(a, v):
    from ._manip import where
    a = asarray(a)
    return where(U.isnan(a), v, a) if a.dtype.kind == 'f' else a


def nansum(a, axis=None, dtype=None, keepdims=False):
    return R.sum(_nan_fill(a, 0), axis, dtype, keepdims=keepdims)


def nanmean(a, axis=None, keepdims=False):
    a = asarray(a)
    cnt = R.sum(U.logical_not(U.isnan(a)), axis, keepdims=keepdims)
    return U.divide(nansum(a, axis, keepdims=keepdims), cnt)


def nanmax(a, axis=None, keepdims=False):
    return R.max(_nan_fill(a, -math.inf), axis, keepdims=keepdims)


def nanmin(a, axis=None, keepdims=False):
    return R.min(_nan_fill(a, math.inf), axis, keepdims=keepdims)


def ptp(a, axis=None, keepdims=False):
    return U.subtract(R.max(a, axis, keepdims=keepdims), R.min(a, axis, keepdims=keepdims))


def array_repr(a, *args, **kwargs):
    return repr(asarray(a))


def array_str(a, *args, **kwargs):
    return str(asarray(a))


def array2string(a, *args, separator=' ', **kwargs):
    if separator != ' ' or args or kwargs:
        raise NotImplementedError("np.array2string options are not supported by Skiff's numpy")
    return str(asarray(a))
