"""matmul / dot / outer / inner: numpy's dtype rules around the registry's matmul op."""
from . import _dtypes as D
from ._array import F, reshape_t, asarray, cast_t, fit, out, wrap
from ._ufuncs import multiply


def _pair(a, b):
    a, b = asarray(a), asarray(b)
    d = D.result_type(a._dtype, b._dtype)
    if d.kind == 'b':
        raise TypeError("Skiff's numpy does not support matmul of bool arrays; cast them to int first")
    return a, b, d


def matmul(a, b, out_=None, **kwargs):
    """a @ b with numpy's rules: 1-D operands are promoted and the added dim removed; batches broadcast."""
    a, b, d = _pair(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
                         % (0 if a.ndim == 0 else 1))
    ka = a.shape[-1]
    kb = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        raise ValueError('matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size %d is different from %d)' % (kb, ka))
    if ka == 0:
        # an empty sum: zeros of the result shape (the registry's matmul wants k > 0)
        from ._create import zeros
        from ._manip import broadcast_shapes
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
        shape = batch + ((a.shape[-2],) if a.ndim > 1 else ()) + ((b.shape[-1],) if b.ndim > 1 else ())
        return zeros(shape, d) if shape else d.type(0)
    return out(fit(F['matmul'](cast_t(a._t, d), cast_t(b._t, d)), d), d)   # int16 sums wrap as numpy's


def dot(a, b, out_=None):
    a, b, d = _pair(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if b.ndim <= 2:
        if a.shape[-1] != b.shape[0]:
            raise ValueError('shapes %s and %s not aligned: %d (dim %d) != %d (dim 0)' % (a.shape, b.shape, a.shape[-1], a.ndim - 1, b.shape[0]))
        return matmul(a, b)
    # N-D: sum over a's last axis and b's second-to-last, every other axis kept in order
    n = a.shape[-1]
    if n != b.shape[-2]:
        raise ValueError('shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)' % (a.shape, b.shape, n, a.ndim - 1, b.shape[-2], b.ndim - 2))
    perm = list(range(b.ndim))
    perm.insert(0, perm.pop(b.ndim - 2))
    bt = reshape_t(F['transpose'](cast_t(b._t, d), perm), [n, -1])
    at = reshape_t(cast_t(a._t, d), [-1, n])
    r = fit(F['matmul'](at, bt), d)
    shape = list(a.shape[:-1]) + list(b.shape[:-2]) + [b.shape[-1]]
    return out(reshape_t(r, shape), d)


def vdot(a, b):
    return dot(asarray(a).ravel(), asarray(b).ravel())


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    return dot(a, b.swapaxes(-1, -2) if b.ndim >= 2 else b)


def outer(a, b, out_=None):
    a, b = asarray(a).ravel(), asarray(b).ravel()
    return multiply(a.reshape(-1, 1), b.reshape(1, -1))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    from ._reduce import sum
    a = asarray(a)
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """A copy of the diagonal (numpy returns a read-only view)."""
    from ._create import arange
    a = asarray(a)
    if a.ndim != 2 or (axis1, axis2) not in ((0, 1), (-2, -1), (0, -1), (-2, 1)):
        raise NotImplementedError("np.diagonal: Skiff's numpy supports 2-D arrays only")
    n, m = a.shape
    k = max(0, min(n - max(0, -offset), m - max(0, offset)))
    rows = arange(k) + max(0, -offset)
    cols = arange(k) + max(0, offset)
    return a[rows, cols]


def diag(v, k=0):
    from ._create import zeros
    v = asarray(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError('Input must be 1- or 2-d.')
    if v.shape[0] == 0:
        return zeros((abs(k), abs(k)), v.dtype)
    return wrap(F['diag'](v._t, k, 0), v.dtype)   # the registry's diag builds the matrix natively

