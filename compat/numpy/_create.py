"""Array creation: array, asarray, zeros/ones/full/empty (+ _like), arange, linspace, eye,
identity, meshgrid. Python data crosses once (packed into one buffer); constant fills are the
registry's `full` op."""
import math
import operator

from . import _dtypes as D
from ._array import F, asarray, from_python, from_tensor, ndarray, wrap
from ._scalars import generic
from paddle.tensor import Tensor


def array(object, dtype=None, copy=True, order='K', subok=False, ndmin=0, like=None):
    """np.array: always a new array (copy=False returns `object` itself when it already fits)."""
    d = D._lookup(dtype) if dtype is not None else None
    if isinstance(object, ndarray):
        r = object.astype(d) if d is not None and d is not object._dtype else (object.copy() if copy else object)
    elif isinstance(object, Tensor):
        r = from_tensor(object, d)
    else:
        r = asarray(object, d)
    if ndmin and r.ndim < ndmin:
        r = r.reshape((1,) * (ndmin - r.ndim) + r.shape)
    return r


def asanyarray(a, dtype=None, order=None):
    return asarray(a, dtype)


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype)
    return a if a.flags.c_contiguous else a.copy()


def copy(a, order='K'):
    return asarray(a).copy()


def _shape(shape):
    if isinstance(shape, (list, tuple)):
        return [operator.index(s) for s in shape]
    return [operator.index(shape)]


def _check_shape(shape):
    for s in shape:
        if s < 0:
            raise ValueError('negative dimensions are not allowed')


def full(shape, fill_value, dtype=None, order='C', like=None):
    shape = _shape(shape)
    _check_shape(shape)
    if isinstance(fill_value, ndarray) and fill_value.ndim:
        from ._manip import broadcast_to
        d = D._lookup(dtype) if dtype is not None else fill_value._dtype
        return broadcast_to(fill_value.astype(d), shape).copy()
    if dtype is not None:
        d = D._lookup(dtype)
    elif isinstance(fill_value, (generic, ndarray)):
        d = fill_value.dtype
    else:
        d = D.result_type(fill_value)
    v = fill_value.item() if isinstance(fill_value, (generic, ndarray)) else fill_value
    if d.kind in 'iu' and isinstance(v, float):
        if v != v or v in (math.inf, -math.inf):
            raise ValueError('cannot convert float NaN or infinity to integer')
        v = int(v)
    if d.kind == 'b':
        v = bool(v)
    elif d.kind in 'iu':
        lo, hi = D.int_range(d)
        if not lo <= v <= hi:
            if type(fill_value) is int:
                raise OverflowError('Python integer %d out of bounds for %s' % (v, d.name))
            v = D.coerce(v, d)   # a float or a wider numpy scalar wraps, as numpy's cast does
    return wrap(F['full'](shape, v, d.storage), d)


def zeros(shape, dtype=float, order='C', like=None):
    return full(shape, 0, dtype if dtype is not None else float)


def ones(shape, dtype=None, order='C', like=None):
    return full(shape, 1, dtype if dtype is not None else float)


def empty(shape, dtype=float, order='C', like=None):
    """Zero-filled (numpy leaves the memory uninitialised; zeros are one valid content)."""
    return zeros(shape, dtype)


def _like(a, dtype, shape):
    a = asarray(a)
    return (D._lookup(dtype) if dtype is not None else a._dtype), (a.shape if shape is None else shape)


def zeros_like(a, dtype=None, order='K', subok=True, shape=None):
    d, s = _like(a, dtype, shape)
    return full(s, 0, d)


def ones_like(a, dtype=None, order='K', subok=True, shape=None):
    d, s = _like(a, dtype, shape)
    return full(s, 1, d)


def empty_like(a, dtype=None, order='K', subok=True, shape=None):
    d, s = _like(a, dtype, shape)
    return full(s, 0, d)


def full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None):
    d, s = _like(a, dtype, shape)
    return full(s, fill_value, d)


def arange(start, stop=None, step=1, dtype=None, like=None):
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError('division by zero')
    vals = (start, stop, step)
    d = D._lookup(dtype) if dtype is not None else D.result_type(*[v if type(v) in (int, float, bool) else v.dtype for v in
                                                                   (x if not isinstance(x, generic) else x for x in vals)])
    if d.kind == 'b':
        d = D.int64
    start, stop, step = [v.item() if isinstance(v, (generic, ndarray)) else v for v in vals]
    n = max(0, math.ceil((stop - start) / step))
    if n == 0:
        return wrap(F['full']([0], 0, d.storage), d)
    if d.kind == 'f' or any(isinstance(v, float) for v in (start, step)):
        # numpy computes start + i * step in double precision
        return from_python([start + i * step for i in range(n)], d)
    if d.kind in 'iu':
        lo, hi = D.int_range(d)
        if type(start) is int and not lo <= start <= hi:   # numpy checks the start, then wraps
            raise OverflowError('Python integer %d out of bounds for %s' % (start, d.name))
    from ._array import cast_t
    # computed in int64 (the registry's arange has no 8-bit types), then cast and wrapped into d
    return wrap(cast_t(F['arange'](int(start), int(start) + n * int(step), int(step), 'int64'), d), d)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if num < 0:
        raise ValueError('Number of samples, %d, must be non-negative.' % num)
    start, stop = float(start), float(stop)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else float('nan')
    if div > 0:
        vals = [start + i * step for i in range(num)]
        if step == 0:
            vals = [start + (i / div) * (stop - start) for i in range(num)]
    else:
        vals = [start] * num
        step = float('nan')
    if endpoint and num > 1:
        vals[-1] = stop
    d = D._lookup(dtype) if dtype is not None else D.float64
    if d.kind in 'iu':
        vals = [D.coerce(math.floor(v), d) for v in vals]   # computed in float64, then cast (wrapping) as numpy does
    r = from_python(vals, d)
    return (r, D.float64.type(step)) if retstep else r


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    from ._ufuncs import power
    r = power(base, linspace(start, stop, num, endpoint))
    return r if dtype is None else r.astype(dtype)


def eye(N, M=None, k=0, dtype=float, order='C', like=None):
    d = D._lookup(dtype)
    M = N if M is None else M
    if k == 0 and N > 0 and M > 0:
        return wrap(F['eye'](N, M, d.storage), d)
    rows = [[1 if j - i == k else 0 for j in range(M)] for i in range(N)]
    r = from_python(rows, d) if N else zeros((0, M), d)
    return r if N and M else zeros((N, M), d)


def identity(n, dtype=None, like=None):
    return eye(n, dtype=dtype if dtype is not None else float)


def tri(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    return from_python([[1 if j <= i + k else 0 for j in range(M)] for i in range(N)], D._lookup(dtype)) if N and M else zeros((N, M), dtype)


def tril(m, k=0):
    a = asarray(m)
    return wrap(F['tril'](a._t, k), a._dtype)


def triu(m, k=0):
    a = asarray(m)
    return wrap(F['triu'](a._t, k), a._dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing='xy'):
    from ._manip import broadcast_to
    if indexing not in ('xy', 'ij'):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [asarray(x).reshape(-1) for x in xi]
    n = len(xs)
    shapes = []
    for i, x in enumerate(xs):
        s = [1] * n
        s[i] = x.shape[0]
        shapes.append(s)
    if indexing == 'xy' and n > 1:
        for s in shapes:
            s[0], s[1] = s[1], s[0]
    out = [x.reshape(s) for x, s in zip(xs, shapes)]
    if sparse:
        return [o.copy() if copy else o for o in out]
    full_shape = [max(o.shape[k] for o in out) for k in range(n)]
    return [broadcast_to(o, full_shape).copy() if copy else broadcast_to(o, full_shape) for o in out]


def fromiter(it, dtype, count=-1):
    vals = list(it)
    if count >= 0:
        vals = vals[:count]
    return from_python(vals, D._lookup(dtype))
