"""numpy.linalg on the registry's native linear-algebra kernels (inverse, solve, determinant,
slogdeterminant, eigh, svd, qr, cholesky, pinv, matrix_rank, matrix_power) and norm on its
reductions, with numpy's rules around them: integer and bool inputs compute in float64,
float16 raises TypeError as numpy does, stacked (batched) matrices broadcast, a singular or
non-positive-definite matrix raises LinAlgError, results are namedtuples where numpy's are.
eig / eigvals (complex results) are not provided."""
import math
from collections import namedtuple

from . import _dtypes as D
from ._array import F, asarray, out, wrap


class LinAlgError(ValueError):
    pass


EighResult = namedtuple('EighResult', ['eigenvalues', 'eigenvectors'])
SVDResult = namedtuple('SVDResult', ['U', 'S', 'Vh'])
QRResult = namedtuple('QRResult', ['Q', 'R'])
SlogdetResult = namedtuple('SlogdetResult', ['sign', 'logabsdet'])


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
        if ord in (2, -2, 'nuc'):
            # from the singular values (native svd): the largest, the smallest, or their sum
            m = a.transpose([k for k in range(a.ndim) if k not in (r0, r1)] + [r0, r1])
            if a.dtype.name == 'float16':
                m = m.astype(D.float32)
            sv = svd(m, compute_uv=False)
            r = sum(sv, axis=-1) if ord == 'nuc' else (max if ord == 2 else min)(sv, axis=-1)
            if keepdims:
                shape = [1 if k in (r0, r1) else n for k, n in enumerate(a.shape)]
                return asarray(r).reshape(shape)
            return r
        raise ValueError('Invalid norm order for matrices.')
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


def _float(a, who):
    """a as a float32/float64 array (numpy's linalg computes integers in float64)."""
    a = asarray(a)
    if a._dtype.name == 'float16':
        raise TypeError('array type float16 is unsupported in linalg')
    return a if a._dtype.kind == 'f' else a.astype(D.float64)


def _square(a, who):
    a = _float(a, who)
    if a.ndim < 2:
        raise LinAlgError('%d-dimensional array given. Array must be at least two-dimensional' % a.ndim)
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError('Last 2 dimensions of the array must be square')
    return a


def _call(op, who, *args):
    """A registry op; its singular / not-positive-definite errors become numpy's LinAlgError."""
    try:
        return F[op](*args)
    except ValueError as e:
        msg = str(e)
        if 'singular' in msg:
            raise LinAlgError('Singular matrix') from None
        if 'positive' in msg:
            raise LinAlgError('Matrix is not positive definite') from None
        raise


def det(a):
    a = _square(a, 'det')
    if a.shape[-1] == 0:
        from ._create import ones
        r = ones(a.shape[:-2], a._dtype)
        return r if r.ndim else r[()]
    if a.size == 0:
        from ._create import zeros
        return zeros(a.shape[:-2], a._dtype)
    return out(F['determinant'](a._t), a._dtype)


def slogdet(a):
    a = _square(a, 'slogdet')
    batch = a.shape[:-2]
    if a.shape[-1] == 0 or a.size == 0:
        from ._create import ones, zeros
        s, l = ones(batch, a._dtype), zeros(batch, a._dtype)
    else:
        r = wrap(F['slogdeterminant'](a._t), a._dtype)   # [2, *batch]: sign, then log|det|
        s, l = r[0], r[1]
    if not batch:
        s, l = asarray(s)[()], asarray(l)[()]
    return SlogdetResult(s, l)


def inv(a):
    a = _square(a, 'inv')
    if a.size == 0:
        return a.copy()
    return wrap(_call('inverse', 'inv', a._t), a._dtype)


def solve(a, b):
    """numpy 2: b is a vector when it is 1-D, else a stack of (M, K) matrices; batches broadcast."""
    from ._manip import broadcast_shapes, broadcast_to
    a = _square(a, 'solve')
    bb = _float(b, 'solve')
    d = D.result_type(a._dtype, bb._dtype)
    n = a.shape[-1]
    vec = bb.ndim == 1
    B = bb.reshape(n, 1) if vec and bb.shape[0] == n else bb
    if B.ndim < 2 or B.shape[-2] != n:
        raise ValueError('solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n) '
                         '(size %d is different from %d)' % (bb.shape[0] if vec else (bb.shape[-2] if bb.ndim > 1 else bb.shape[0]), n))
    batch = broadcast_shapes(a.shape[:-2], B.shape[:-2])
    A = broadcast_to(a, batch + a.shape[-2:]) if a.shape[:-2] != batch else a
    B = broadcast_to(B, batch + B.shape[-2:]) if B.shape[:-2] != batch else B
    if A.size == 0 or B.size == 0:
        from ._create import zeros
        r = zeros(batch + (n, B.shape[-1]), d)
    else:
        r = wrap(_call('solve', 'solve', A.astype(d)._t, B.astype(d)._t), d)
    return r.reshape(batch + (n,)) if vec else r


def eigh(a, UPLO='L'):
    a = _square(a, 'eigh')
    if UPLO not in ('L', 'U'):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    w, v = F['eigh'](a._t, UPLO)
    return EighResult(wrap(w, a._dtype), wrap(v, a._dtype))


def eigvalsh(a, UPLO='L'):
    return eigh(a, UPLO)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _float(a, 'svd')
    if a.ndim < 2:
        raise LinAlgError('%d-dimensional array given. Array must be at least two-dimensional' % a.ndim)
    u, sv, vh = F['svd'](a._t, bool(full_matrices and compute_uv))
    if not compute_uv:
        return wrap(sv, a._dtype)
    return SVDResult(wrap(u, a._dtype), wrap(sv, a._dtype), wrap(vh, a._dtype))


def qr(a, mode='reduced'):
    a = _float(a, 'qr')
    if a.ndim < 2:
        raise LinAlgError('%d-dimensional array given. Array must be at least two-dimensional' % a.ndim)
    if mode not in ('reduced', 'complete', 'r'):
        raise ValueError("Unrecognized mode '%s'" % mode)
    if mode == 'r':
        return wrap(F['qr'](a._t, mode), a._dtype)   # the op gives R alone in this mode
    q, r = F['qr'](a._t, mode)
    return QRResult(wrap(q, a._dtype), wrap(r, a._dtype))


def cholesky(a, upper=False):
    a = _square(a, 'cholesky')
    return wrap(_call('cholesky', 'cholesky', a._t, bool(upper)), a._dtype)


def pinv(a, rcond=None, hermitian=False, rtol=None):
    a = _float(a, 'pinv')
    tol = rcond if rcond is not None else (rtol if rtol is not None else 1e-15)
    return wrap(F['pinv'](a._t, float(tol), bool(hermitian)), a._dtype)


def matrix_rank(A, tol=None, hermitian=False, rtol=None):
    a = _float(A, 'matrix_rank')
    if a.ndim < 2:
        from ._reduce import any as _any
        return int(bool(_any(a != 0)))   # numpy answers a plain int for a vector
    return out(F['matrix_rank'](a._t, None if tol is None else float(tol), bool(hermitian)), D.int64)


def matrix_power(a, n):
    """Repeated squaring with matmul (integer matrices stay integer, as numpy's); a negative
    power inverts first."""
    from ._linalg_core import matmul
    from ._create import eye
    import operator
    n = operator.index(n)
    a = asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError('Last 2 dimensions of the array must be square')
    if n < 0:
        a, n = inv(a), -n
    if n == 0:
        from ._manip import broadcast_to
        return broadcast_to(eye(a.shape[-1], dtype=a._dtype), a.shape).copy()
    r = None
    base = a
    while n:
        if n & 1:
            r = base if r is None else matmul(r, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return r.copy() if r is a else r


def __getattr__(name):
    raise AttributeError("module 'numpy.linalg' has no attribute '%s' (Skiff's numpy subset does not implement it)" % name)
