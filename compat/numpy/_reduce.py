"""Reductions with numpy's axis / keepdims / dtype rules, each one registry op.

Result dtypes follow numpy: sum/prod/cumsum of bool and integers accumulate in int64 (numpy's
int_; numpy gives uint64 for uint8, Skiff has no uint64 and gives int64), mean/var/std of
integers are float64, argmax/argmin are int64. A 0-d result is a numpy scalar.
"""
import builtins
import operator

from paddle._bridge import AxisError

from . import _dtypes as D
from ._array import F, asarray, cast_t, fit, out, reshape_t, scalar0, wrap


def norm_axes(axis, ndim):
    """Sorted non-negative axes for `axis` (None, an int or a tuple); AxisError when out of range."""
    if axis is None:
        return None
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    res = []
    for ax in items:
        ax = operator.index(ax)
        if not -ndim <= ax < builtins.max(ndim, 1) or (ndim == 0 and ax not in (0, -1)):
            raise AxisError('axis %d is out of bounds for array of dimension %d' % (ax, ndim))
        ax = ax + ndim if ax < 0 else ax
        if ax in res:
            raise ValueError('duplicate value in axis')
        res.append(ax)
    return sorted(res)


def _acc_dtype(d):
    return D.int64 if d.kind in 'biu' else d


def _reduce(op, a, axis, keepdims, d, empty_error=None):
    a = asarray(a)
    axes = norm_axes(axis, a.ndim)
    if a.ndim == 0:
        axes = None
    t = a._t if a._dtype.storage == d.storage else cast_t(a._t, d)
    if empty_error and a.size == 0:
        shape = a.shape
        if axes is None or builtins.any(shape[ax] == 0 for ax in axes):
            raise ValueError('zero-size array to reduction operation %s which has no identity' % empty_error)
    if axes == []:
        r = t.clone()
    else:
        if op == 'sum':
            r = F['sum'](t, axes, None, keepdims)
        elif op == 'prod':
            r = F['prod'](t, axes, keepdims, None)
        else:
            r = F[op](t, axes, keepdims)
    if d.wrap is not None and op in ('sum', 'prod'):
        r = fit(r, d)   # sum(dtype=np.int16) wraps as numpy's
    if axes is None and not keepdims:
        return scalar0(r, d)   # a full reduction is 0-d: no need to ask the runtime
    return out(r, d)


def _check_where(name, where):
    if where is not None and where is not True:
        raise NotImplementedError("np.%s(where=...) is not supported by Skiff's numpy" % name)


def _to_out(r, out):
    """numpy's out=: the result written into `out`, which is returned."""
    if out is None:
        return r
    from ._index import assign_all
    assign_all(out, r)
    return out


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _check_where('sum', where)
    if out is not None:
        return _to_out(sum(a, axis, dtype, None, keepdims, initial), out)
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else _acc_dtype(a._dtype)
    if d.kind == 'b':
        return any(a, axis, keepdims=keepdims)
    r = _reduce('sum', a, axis, keepdims, d)
    return r if initial is None else r + initial


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _check_where('prod', where)
    if out is not None:
        return _to_out(prod(a, axis, dtype, None, keepdims, initial), out)
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else _acc_dtype(a._dtype)
    r = _reduce('prod', a, axis, keepdims, d)
    return r if initial is None else r * initial


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    _check_where('mean', where)
    if out is not None:
        return _to_out(mean(a, axis, dtype, None, keepdims), out)
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else (a._dtype if a._dtype.kind == 'f' else D.float64)
    if a.size == 0:
        return _nan_result(a, axis, keepdims, d)
    return _reduce('mean', a, axis, keepdims, d)


def _nan_result(a, axis, keepdims, d):
    from ._create import full
    axes = norm_axes(axis, a.ndim)
    shape = [1 if (axes is None or i in axes) else n for i, n in enumerate(a.shape)] if keepdims else \
        [n for i, n in enumerate(a.shape) if axes is not None and i not in axes]
    r = full(shape, float('nan'), d)
    return r if shape else r[()]


def _count(a, axes):
    n = 1
    for i, s in enumerate(a.shape):
        if axes is None or i in axes:
            n *= s
    return n


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    _check_where('var', where)
    if out is not None:
        return _to_out(var(a, axis, dtype, None, ddof, keepdims, correction=correction), out)
    return _var(a, axis, dtype, ddof if correction is None else correction, keepdims, False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    _check_where('std', where)
    if out is not None:
        return _to_out(std(a, axis, dtype, None, ddof, keepdims, correction=correction), out)
    return _var(a, axis, dtype, ddof if correction is None else correction, keepdims, True)


def _var(a, axis, dtype, ddof, keepdims, root):
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else (a._dtype if a._dtype.kind == 'f' else D.float64)
    axes = norm_axes(axis, a.ndim)
    n = _count(a, axes)
    if a.size == 0 or n - ddof <= 0:
        return _nan_result(a, axis, keepdims, d) if a.size == 0 else _nan_like(a, axis, keepdims, d)
    if a.ndim == 0:
        axes = None
    t = cast_t(a._t, d)
    if axes == []:
        return out(F['scale'](t, 0.0, 0.0, True), d)
    if ddof in (0, 1):
        r = F['std' if root else 'var'](t, axes, ddof == 1, keepdims)
    else:
        r = F['scale'](F['var'](t, axes, False, keepdims), n / (n - ddof), 0.0, True)
        if root:
            r = F['sqrt'](r)
    return out(r, d)


def _nan_like(a, axis, keepdims, d):
    # numpy divides by n - ddof <= 0: inf (nan where the squares sum to zero, not modelled)
    from ._create import full
    r = _reduce('mean', a, axis, keepdims, d)
    shape = getattr(r, 'shape', ())
    f = full(shape, float('inf'), d)
    return f if shape else f[()]


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _check_where('max', where)
    r = _minmax('max', 'maximum', a, axis, keepdims, initial)
    return _to_out(r, out)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _check_where('min', where)
    r = _minmax('min', 'minimum', a, axis, keepdims, initial)
    return _to_out(r, out)


amax, amin = max, min


def _minmax(op, name, a, axis, keepdims, initial=None):
    if initial is not None:
        from ._ufuncs import maximum, minimum
        a = asarray(a)
        if a.size == 0:
            from ._create import full
            axes = norm_axes(axis, a.ndim)
            shape = [1 if (axes is None or i in axes) else n for i, n in enumerate(a.shape)] if keepdims else \
                [n for i, n in enumerate(a.shape) if axes is not None and i not in axes]
            r = full(shape, initial, a._dtype)
            return r if shape else r[()]
        return (maximum if op == 'max' else minimum)(_minmax(op, name, a, axis, keepdims), initial)
    a = asarray(a)
    if a._dtype.kind == 'b':
        r = _reduce(op, a, axis, keepdims, D.int32, name)
        return asarray(r).astype(D.bool_) if hasattr(r, 'shape') and r.shape else D.bool_.type(bool(r))
    return _reduce(op, a, axis, keepdims, a._dtype, name)


def argmax(a, axis=None, out=None, keepdims=False):
    return _to_out(_arg('argmax', a, axis, keepdims), out)


def argmin(a, axis=None, out=None, keepdims=False):
    return _to_out(_arg('argmin', a, axis, keepdims), out)


def _arg(op, a, axis, keepdims):
    a = asarray(a)
    if a.size == 0:
        raise ValueError('attempt to get %s of an empty sequence' % op)
    t = a._t if a._dtype.kind != 'b' else cast_t(a._t, D.int32)
    if axis is None:
        r = F[op](reshape_t(t, [-1]), 0, False, 'int64')
        if keepdims:
            r = reshape_t(r, [1] * a.ndim)
        return out(r, D.int64)
    ax = norm_axes(axis, a.ndim)[0]
    return out(F[op](t, ax, keepdims, 'int64'), D.int64)


def cumsum(a, axis=None, dtype=None, out=None):
    if out is not None:
        return _to_out(cumsum(a, axis, dtype), out)
    a = asarray(a)
    d = D._lookup(dtype) if dtype is not None else _acc_dtype(a._dtype)
    t = cast_t(a._t, d)
    if axis is None:
        return wrap(fit(F['cumsum'](reshape_t(t, [-1]), 0, None), d), d)
    ax = norm_axes(axis, a.ndim)[0]
    return wrap(fit(F['cumsum'](t, ax, None), d), d)


def all(a, axis=None, out=None, keepdims=False, where=None):
    _check_where('all', where)
    return _to_out(_logical('all', a, axis, keepdims), out)


def any(a, axis=None, out=None, keepdims=False, where=None):
    _check_where('any', where)
    return _to_out(_logical('any', a, axis, keepdims), out)


def _logical(op, a, axis, keepdims):
    a = asarray(a)
    t = a._t if a._dtype.kind == 'b' else F['not_equal'](a._t, 0)
    b = wrap(t, D.bool_)
    if a.size == 0:
        from ._create import full
        axes = norm_axes(axis, a.ndim)
        shape = [1 if (axes is None or i in axes) else n for i, n in enumerate(a.shape)] if keepdims else \
            [n for i, n in enumerate(a.shape) if axes is not None and i not in axes]
        r = full(shape, op == 'all', D.bool_)
        return r if shape else r[()]
    return _reduce(op, b, axis, keepdims, D.bool_)


def count_nonzero(a, axis=None, keepdims=False):
    a = asarray(a)
    return sum(a.astype(D.bool_), axis, keepdims=keepdims)
