"""paddle.linalg.pca_lowrank and paddle.linalg.cond: composites of registry ops (svd, qr, pinv,
matmul, ...), mirroring src/ops/defs/linalg_decomp_api.ts. Gradients and static recording come
with the ops. Errors say what TypeScript's say."""
import math
import sys
import types

from . import _ops


def _f(name):
    return _ops.function(name)


def _mT(x):
    r = len(x.shape)
    return _f('transpose')(x, perm=list(range(r - 2)) + [r - 1, r - 2])


def _mm(a, b, ta=False, tb=False):
    return _f('matmul')(a, b, transpose_x=ta, transpose_y=tb)


def _qr_q(a):
    return _f('qr')(a, mode='reduced')[0]


def _matrix(name, x):
    dt = str(getattr(x, 'dtype', ''))
    if not hasattr(x, 'shape'):
        raise TypeError("%s() missing required argument 'x' (a Tensor)" % name)
    if not (dt.endswith('float32') or dt.endswith('float64')):
        raise TypeError('%s: expected x of dtype float32 or float64, got %s' % (name, dt.replace('paddle.', '')))
    shape = list(x.shape)
    if len(shape) < 2:
        raise ValueError('%s: expected x of rank >= 2 ([..., M, N]), got shape %s' % (name, shape))
    return shape


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """(U, S, V) with x (centered over rows) ~ U diag(S) V^T; randomized, as Paddle 2.6's."""
    shape = _matrix('pca_lowrank', x)
    m, n = shape[-2], shape[-1]
    if q is None:
        q = min(6, m, n)
    if isinstance(q, bool) or not isinstance(q, int) or q < 0 or q > min(m, n):
        raise ValueError('pca_lowrank: q must be an int in [0, min(M, N)] = [0, %d], got %r' % (min(m, n), q))
    if isinstance(niter, bool) or not isinstance(niter, int) or niter < 0:
        raise ValueError('pca_lowrank: niter must be an int >= 0, got %r' % (niter,))
    a = _f('subtract')(x, _f('mean')(x, axis=[-2], keepdim=True)) if center else x
    wide = m < n
    if wide:
        a = _mT(a)
    dtype = 'float64' if str(x.dtype).endswith('float64') else 'float32'
    Q = _qr_q(_mm(a, _f('randn')(shape=[min(m, n), q], dtype=dtype)))
    for _ in range(niter):
        Q = _qr_q(_mm(a, _qr_q(_mm(a, Q, True, False))))
    ub, S, vh = _f('svd')(_mm(Q, a, True, False), full_matrices=False)
    U, V = _mm(Q, ub), _mT(vh)
    return (V, S, U) if wide else (U, S, V)


def cond(x, p=None, name=None):
    """The condition number of x in norm p (None/2/-2 from singular values; others need square x)."""
    shape = _matrix('cond', x)
    if p is None or p == 2 or p == -2:
        s = _f('svd')(x, full_matrices=False)[1]
        hi, lo = _f('max')(s, axis=[-1]), _f('min')(s, axis=[-1])
        return _f('divide')(lo, hi) if p == -2 else _f('divide')(hi, lo)
    if shape[-2] != shape[-1]:
        raise ValueError('cond: p=%s needs square matrices, got shape %s' % (p, shape))
    if p in ('fro', 'nuc'):
        s = _f('svd')(x, full_matrices=False)[1]
        inv = _f('reciprocal')(s)
        if p == 'fro':
            f = lambda t: _f('sqrt')(_f('sum')(_f('square')(t), axis=[-1]))  # noqa: E731
        else:
            f = lambda t: _f('sum')(t, axis=[-1])  # noqa: E731
        return _f('multiply')(f(s), f(inv))
    if p not in (math.inf, -math.inf, 1, -1):
        raise ValueError("cond: p must be None, 2, -2, 'fro', 'nuc', inf, -inf, 1 or -1, got %r" % (p,))
    axis = -1 if p in (math.inf, -math.inf) else -2
    pick = _f('max') if p > 0 else _f('min')

    def mat_norm(t):
        return pick(_f('sum')(_f('abs')(t), axis=[axis]), axis=[-1])
    return _f('multiply')(mat_norm(x), mat_norm(_f('pinv')(x, rcond=0.0)))


def matrix_norm(x, p, axis, keepdim):
    """paddle.linalg.norm over two axes for p in 'nuc', 2, -2, 1, -1, inf, -inf (mirrors matrixNorm)."""
    r = len(x.shape)
    a0, a1 = [a + r if a < 0 else a for a in axis]
    if not (0 <= a0 < r and 0 <= a1 < r) or a0 == a1:
        raise ValueError('norm: axis %r must be two different dims of an input of rank %d' % (list(axis), r))
    rest = [d for d in range(r) if d not in (a0, a1)]
    t = _f('transpose')(x, perm=rest + [a0, a1])
    if p == 'nuc' or p == 2 or p == -2:
        s = _f('svd')(t, full_matrices=False)[1]
        out = _f('sum')(s, axis=[-1]) if p == 'nuc' else (_f('max') if p == 2 else _f('min'))(s, axis=[-1])
    elif p in (1, -1, math.inf, -math.inf):
        sums = _f('sum')(_f('abs')(t), axis=[-2 if abs(p) == 1 else -1])
        out = (_f('max') if p > 0 else _f('min'))(sums, axis=[-1])
    else:
        raise ValueError("norm: matrix norms take p in 'fro', 'nuc', 2, -2, 1, -1, inf, -inf, got %r" % (p,))
    return _f('unsqueeze')(out, axis=[min(a0, a1), max(a0, a1)]) if keepdim else out


def linalg_module(root):
    """paddle.linalg, created (and registered in sys.modules) by whichever installer runs
    first; _reduce_api's install uses it too, so both attach to the same module object."""
    linalg = getattr(root, 'linalg', None)
    if linalg is None:
        modname = root.__name__ + '.linalg'
        linalg = sys.modules.get(modname) or types.ModuleType(modname)
        sys.modules[modname] = linalg
        root.linalg = linalg
    return linalg


def install(root):
    """paddle.linalg.pca_lowrank and paddle.linalg.cond."""
    linalg = linalg_module(root)
    linalg.pca_lowrank = pca_lowrank
    linalg.cond = cond
