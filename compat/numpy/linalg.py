"""numpy.linalg: norm on the registry's ops; inv, solve, det in pure Python (Gaussian
elimination with partial pivoting in float64; fine for the small matrices scripts use, slow
for large ones). Batched (stacked) matrices are handled one matrix at a time."""
import math

from . import _dtypes as D
from ._array import asarray, from_python


class LinAlgError(ValueError):
    pass


def norm(x, ord=None, axis=None, keepdims=False):
    from ._reduce import max, min, sum
    from ._ufuncs import absolute, sqrt, power
    a = asarray(x)
    if a._dtype.kind != 'f':
        a = a.astype(D.float64)
    if axis is None and ord is None:
        r = sqrt(sum(a * a))
        if keepdims:
            return asarray(r).reshape((1,) * a.ndim)
        return r
    if axis is None:
        if a.ndim == 1:
            axis = 0
        elif a.ndim == 2:
            axis = (0, 1)
        else:
            raise ValueError('Improper number of dimensions to norm.')
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        r0, r1 = [ax % a.ndim for ax in axis]
        if ord in (None, 'fro'):
            return sqrt(sum(a * a, axis=(r0, r1), keepdims=keepdims))
        if ord in (1, -1, math.inf, -math.inf):
            # 1: the largest column sum of |a|; inf: the largest row sum (min for the negative ords)
            inner, outer = (r0, r1) if ord in (1, -1) else (r1, r0)
            f = max if ord > 0 else min
            r = f(sum(absolute(a), axis=inner, keepdims=True), axis=outer, keepdims=True)
            r = r if keepdims else r.squeeze(axis=(r0, r1))
            return r[()] if r.ndim == 0 else r
        raise NotImplementedError("np.linalg.norm(ord=%r) for matrices is not supported by Skiff's numpy" % (ord,))
    if ord is None or ord == 2:
        return sqrt(sum(a * a, axis=axis, keepdims=keepdims))
    if ord == math.inf:
        return max(absolute(a), axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return min(absolute(a), axis=axis, keepdims=keepdims)
    if ord == 0:
        return sum((a != 0).astype(a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return sum(absolute(a), axis=axis, keepdims=keepdims)
    return power(sum(power(absolute(a), ord), axis=axis, keepdims=keepdims), 1.0 / ord)


def _matrices(a):
    a = asarray(a)
    if a.ndim < 2:
        raise LinAlgError('%d-dimensional array given. Array must be at least two-dimensional' % a.ndim)
    n, m = a.shape[-2:]
    if n != m:
        raise LinAlgError('Last 2 dimensions of the array must be square')
    d = a._dtype if a._dtype.kind == 'f' and a._dtype.itemsize >= 4 else D.float64
    flat = a.astype(D.float64).reshape(-1).tolist()
    mats = [[flat[k + i * n:k + (i + 1) * n] for i in range(n)] for k in range(0, len(flat), n * n)]
    return a, n, d, mats


def _lu(m):
    """(LU rows, permutation sign, pivot order) or raises LinAlgError('Singular matrix')."""
    n = len(m)
    a = [row[:] for row in m]
    perm = list(range(n))
    sign = 1.0
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if a[p][c] == 0:
            return None, 0.0, perm
        if p != c:
            a[c], a[p] = a[p], a[c]
            perm[c], perm[p] = perm[p], perm[c]
            sign = -sign
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            a[r][c] = f
            for k in range(c + 1, n):
                a[r][k] -= f * a[c][k]
    return a, sign, perm


def _solve_lu(lu, perm, b):
    n = len(lu)
    y = [b[perm[i]] for i in range(n)]
    for i in range(n):
        y[i] -= sum(lu[i][k] * y[k] for k in range(i))
    for i in range(n - 1, -1, -1):
        y[i] = (y[i] - sum(lu[i][k] * y[k] for k in range(i + 1, n))) / lu[i][i]
    return y


def det(a):
    a, n, d, mats = _matrices(a)
    res = []
    for m in mats:
        lu, sign, _ = _lu(m)
        if lu is None:
            res.append(0.0)
            continue
        p = sign
        for i in range(n):
            p *= lu[i][i]
        res.append(p)
    r = from_python(res, d).reshape(a.shape[:-2]) if a.ndim > 2 else None
    return r if r is not None else d.type(res[0])


def inv(a):
    a, n, d, mats = _matrices(a)
    out = []
    for m in mats:
        lu, _, perm = _lu(m)
        if lu is None:
            raise LinAlgError('Singular matrix')
        cols = [_solve_lu(lu, perm, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
        out.extend(cols[j][i] for i in range(n) for j in range(n))
    return from_python(out, d).reshape(a.shape)


def solve(a, b):
    a, n, d, mats = _matrices(a)
    bb = asarray(b)
    vec = bb.ndim == 1
    B = bb.reshape(n, 1) if vec else bb
    if a.ndim > 2:
        raise NotImplementedError("np.linalg.solve of stacked matrices is not supported by Skiff's numpy")
    if B.shape[0] != n:
        raise ValueError('solve: Input operand 1 has a mismatch in its core dimension 0 (size %d is different from %d)' % (B.shape[0], n))
    lu, _, perm = _lu(mats[0])
    if lu is None:
        raise LinAlgError('Singular matrix')
    cols = B.astype(D.float64).T.tolist()
    sol = [_solve_lu(lu, perm, c) for c in cols]
    k = len(sol)
    out = from_python([sol[j][i] for i in range(n) for j in range(k)], D.result_type(d, bb.dtype) if bb.dtype.kind == 'f' else d)
    return out.reshape(n) if vec else out.reshape(n, k)


def __getattr__(name):
    raise AttributeError("module 'numpy.linalg' has no attribute '%s' (Skiff's numpy subset does not implement it)" % name)
