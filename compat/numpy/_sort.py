"""sort, argsort, unique, nonzero, argwhere, searchsorted on the registry's native kernels
(sort/argsort/unique/nonzero/searchsorted), with numpy's semantics applied around them.

The kernels' order is total and stable: NaN above every number, equal keys by index, which is
numpy's NaN-last order and its stable sort (numpy's default quicksort is unstable, so any order
of equal keys is a valid numpy answer; the stable one is also `kind='stable'`'s). The kernels
take float16/32/64, int32 and int64; bool, int8 and uint8 are sorted as int32 (exact) and cast
back. int16/uint16 (int32 storage) and uint32 (int64 storage) sort on their storage directly.
"""
from . import _dtypes as D
from ._array import F, asarray, from_python, reshape_t, wrap, out
from ._reduce import norm_axes

_KINDS = (None, 'quicksort', 'mergesort', 'heapsort', 'stable')
_NARROW = ('bool', 'int8', 'uint8')   # storage dtypes the sort kernels do not take


def _sortable(a):
    """a's tensor in a dtype the sort kernels take (bool/int8/uint8 widened to int32, exactly)."""
    return F['cast'](a._t, 'int32') if a._t.dtype.name in _NARROW else a._t


def _back(t, a):
    """A sorted tensor back in a's dtype."""
    if t.dtype.name != a._dtype.storage:
        t = F['cast'](t, a._dtype.storage)
    return wrap(t, a._dtype)


def _check(kind, order, who):
    if kind not in _KINDS:
        raise ValueError('%s: sort kind must be one of quicksort, mergesort, heapsort, stable (got %r)' % (who, kind))
    if order is not None:
        raise ValueError("%s: order= needs a structured array, which Skiff's numpy does not have" % who)


def sort(a, axis=-1, kind=None, order=None, stable=None):
    _check(kind, order, 'sort')
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if a.ndim == 0:
        from paddle._bridge import AxisError
        raise AxisError('axis %d is out of bounds for array of dimension 0' % axis)
    ax = norm_axes(axis, a.ndim)[0]
    if a.size == 0:
        return a.copy()
    return _back(F['sort'](_sortable(a), ax, False, True), a)


def argsort(a, axis=-1, kind=None, order=None, stable=None):
    _check(kind, order, 'argsort')
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if a.ndim == 0:
        return from_python(0, D.int64)
    ax = norm_axes(axis, a.ndim)[0]
    if a.size == 0:
        from ._create import zeros
        return zeros(a.shape, D.int64)
    return wrap(F['argsort'](_sortable(a), ax, False, True), D.int64)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, equal_nan=True, sorted=True):
    """np.unique on the registry's unique kernel (stable: return_index is each value's first
    occurrence). numpy 2 merges all NaNs into one entry when equal_nan (the kernel keeps each
    NaN separate, sorted last, so the NaN tail is folded here)."""
    a = asarray(ar)
    if axis is not None:
        raise NotImplementedError("np.unique(axis=...) is not supported by Skiff's numpy")
    flat = a.reshape(-1)
    if flat.size == 0:
        from ._create import zeros
        res = [zeros((0,), a._dtype)] + [zeros((0,), D.int64) for f in (return_index, return_counts) if f]
        if return_inverse:
            res.insert(1 + bool(return_index), zeros(a.shape if a.ndim > 1 else (0,), D.int64))
    else:
        u, idx, inv, cnt = F['unique'](_sortable(flat), True, True, True, None, 'int64')
        res = [_back(u, flat), wrap(idx, D.int64), wrap(inv, D.int64), wrap(cnt, D.int64)]
        if equal_nan and a._dtype.kind == 'f':
            res = _fold_nans(*res)
        uq, idx, inv, cnt = res
        if a.ndim > 1:
            inv = inv.reshape(a.shape)
        res = [uq] + [x for x, f in ((idx, return_index), (inv, return_inverse), (cnt, return_counts)) if f]
    return res[0] if len(res) == 1 else tuple(res)


def _fold_nans(uq, idx, inv, cnt):
    from ._reduce import sum
    from ._ufuncs import isnan, minimum
    m = int(sum(isnan(uq)))
    if m <= 1:
        return uq, idx, inv, cnt
    k = uq.size - m   # the first NaN entry; the kernel's NaNs come after every number
    total = int(sum(cnt[k:]))
    cnt = cnt[:k + 1].copy()
    cnt[k] = total
    return uq[:k + 1].copy(), idx[:k + 1].copy(), minimum(inv, k), cnt


def nonzero(a):
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError('Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.')
    if a.size == 0:
        from ._create import zeros
        return tuple(zeros((0,), D.int64) for _ in a.shape)
    t = a._t if a._dtype.kind == 'b' else F['not_equal'](a._t, 0)
    pos = wrap(F['nonzero'](t), D.int64)   # [count, ndim], row-major order like numpy's
    return tuple(pos[:, k].copy() for k in range(a.ndim))


def flatnonzero(a):
    return nonzero(asarray(a).reshape(-1))[0]


def argwhere(a):
    a = asarray(a)
    if a.ndim == 0:
        a = a.reshape(1)
        cols = nonzero(a)
        from ._create import zeros
        return zeros((cols[0].size, 0), D.int64)
    if a.size == 0:
        from ._create import zeros
        return zeros((0, a.ndim), D.int64)
    t = a._t if a._dtype.kind == 'b' else F['not_equal'](a._t, 0)
    return wrap(F['nonzero'](t), D.int64)


def searchsorted(a, v, side='left', sorter=None):
    """On the registry's searchsorted kernel (binary search per value, int64 results). A float
    sequence ending in NaN goes through Python's bisect: numpy treats NaN as equal to NaN there,
    the kernel as above everything."""
    if side not in ('left', 'right'):
        raise ValueError("side must be 'left' or 'right' (got %r)" % (side,))
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError('object too deep for desired array' if a.ndim > 1 else 'object of too small depth for desired array')
    if sorter is not None:
        a = a[asarray(sorter, D.int64)]
    va = asarray(v)
    d = D.result_type(a._dtype, va._dtype)
    if d.kind == 'b' or d.storage in _NARROW:
        d = D.int32
    if a.size == 0 or va.size == 0:
        from ._create import zeros
        r = zeros(va.shape, D.int64)
        return r if va.ndim else r[()]
    if d.kind == 'f' and a[-1] != a[-1]:
        return _searchsorted_py(a, va, side)
    from ._array import cast_t
    r = F['searchsorted'](cast_t(a._t, d), cast_t(reshape_t(va._t, [-1]) if va.ndim != 1 else va._t, d), False, side == 'right')
    if va.ndim != 1:
        r = reshape_t(r, list(va.shape))
    return out(r, D.int64)


def _searchsorted_py(a, va, side):
    import bisect

    def key(x):
        return (1, 0.0) if x != x else (0, x)
    vals = [key(x) for x in a.tolist()]
    f = bisect.bisect_left if side == 'left' else bisect.bisect_right
    if va.ndim == 0:
        return D.int64.type(f(vals, key(va.item())))
    return from_python([f(vals, key(x)) for x in va.reshape(-1).tolist()], D.int64).reshape(va.shape)
