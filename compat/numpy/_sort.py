"""sort, argsort, unique, nonzero, argwhere, searchsorted: done in Python on the values (the
registry has no sort op yet). Stable sorts; NaN sorts last, as in numpy."""
from . import _dtypes as D
from ._array import asarray, from_python
from ._reduce import norm_axes


def _key(v):
    return (1, 0.0) if v != v else (0, v)


def _lanes(a, axis):
    """(rows of the values along `axis`, a function rebuilding an array from rows)."""
    from ._manip import moveaxis
    ax = norm_axes(axis, a.ndim)[0]
    m = moveaxis(a, ax, -1)
    shape = m.shape
    n = shape[-1]
    flat = m.reshape(-1).tolist()
    rows = [flat[i:i + n] for i in range(0, len(flat), n)] if n else [[] for _ in range(len(flat))]
    if n == 0:
        rows = []

    def rebuild(rows, d):
        vals = [v for r in rows for v in r]
        return moveaxis(from_python(vals, d).reshape(shape), -1, ax)
    return rows, rebuild


def sort(a, axis=-1, kind=None, order=None, stable=None):
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if a.ndim == 0:
        raise ValueError('Cannot sort a 0-d array; use axis=None')
    rows, rebuild = _lanes(a, axis)
    return rebuild([sorted(r, key=_key) for r in rows], a._dtype)


def argsort(a, axis=-1, kind=None, order=None, stable=None):
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if a.ndim == 0:
        return from_python(0, D.int64)
    rows, rebuild = _lanes(a, axis)
    return rebuild([sorted(range(len(r)), key=lambda i, r=r: _key(r[i])) for r in rows], D.int64)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, equal_nan=True):
    a = asarray(ar)
    if axis is not None:
        raise NotImplementedError("np.unique(axis=...) is not supported by Skiff's numpy")
    vals = a.reshape(-1).tolist()
    order = sorted(range(len(vals)), key=lambda i: _key(vals[i]))
    uniq, first, counts, inverse = [], [], [], [0] * len(vals)
    for i in order:
        v = vals[i]
        same = uniq and (uniq[-1] == v or (equal_nan and v != v and uniq[-1] != uniq[-1]))
        if not same:
            uniq.append(v)
            first.append(i)
            counts.append(0)
        counts[-1] += 1
        inverse[i] = len(uniq) - 1
    res = [from_python(uniq, a._dtype) if uniq else asarray([], a._dtype)]
    if return_index:
        res.append(from_python(first, D.int64) if first else asarray([], D.int64))
    if return_inverse:
        inv = from_python(inverse, D.int64) if inverse else asarray([], D.int64)
        res.append(inv.reshape(a.shape) if a.ndim > 1 else inv)
    if return_counts:
        res.append(from_python(counts, D.int64) if counts else asarray([], D.int64))
    return res[0] if len(res) == 1 else tuple(res)


def nonzero(a):
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError('Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.')
    flat = a.reshape(-1).tolist()
    hits = [i for i, v in enumerate(flat) if v]
    shape = a.shape
    cols = [[] for _ in shape]
    for i in hits:
        for k in range(len(shape) - 1, -1, -1):
            i, r = divmod(i, shape[k])
            cols[k].append(r)
    return tuple(from_python(c, D.int64) if c else asarray([], D.int64) for c in cols)


def flatnonzero(a):
    return nonzero(asarray(a).reshape(-1))[0]


def argwhere(a):
    from ._manip import stack
    a = asarray(a)
    cols = nonzero(a if a.ndim else a.reshape(1))
    if not cols[0].size:
        from ._create import zeros
        return zeros((0, a.ndim), D.int64)
    return stack(cols, axis=1)


def searchsorted(a, v, side='left', sorter=None):
    import bisect
    vals = asarray(a).tolist()
    if sorter is not None:
        vals = [vals[i] for i in asarray(sorter).tolist()]
    f = bisect.bisect_left if side == 'left' else bisect.bisect_right
    va = asarray(v)
    if va.ndim == 0:
        return D.int64.type(f(vals, va.item()))
    return from_python([f(vals, x) for x in va.reshape(-1).tolist()], D.int64).reshape(va.shape)

