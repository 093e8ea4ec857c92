"""Hand-written bindings over registry ops whose Paddle signature is not (inputs..., attrs...),
mirroring src/ops/defs/reduce_norm.ts and reduce_order.ts: paddle.linalg.norm / paddle.norm
(p_norm or frobenius_norm, as Paddle 2.6's Python function picks) and paddle.quantile (a number
q drops the leading len(q) dim of the quantile op)."""
from . import _ops
from . import _linalg_decomp_api
from .tensor import Tensor


def norm(x, p='fro', axis=None, keepdim=False, name=None):
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    pair = isinstance(axis, (list, tuple)) and len(axis) == 2 and all(isinstance(a, int) for a in axis)
    if axis is not None and not isinstance(axis, int) and not pair:
        raise TypeError('norm: axis must be None, an int or a list of one or two ints, got %r' % (axis,))
    if p == 'fro':
        if isinstance(axis, int):
            return _ops.function('p_norm')(x, porder=2.0, axis=axis, keepdim=keepdim)
        return _ops.function('frobenius_norm')(x, axis=list(axis) if pair else [], keep_dim=keepdim, reduce_all=axis is None)
    if p == 'nuc' and pair:
        return _linalg_decomp_api.matrix_norm(x, 'nuc', list(axis), keepdim)
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError("norm: p must be 'fro', inf, -inf or a number for vector norms, got %r" % (p,))
    if pair:
        return _linalg_decomp_api.matrix_norm(x, p, list(axis), keepdim)
    if axis is None:
        return _ops.function('p_norm')(x, porder=float(p), axis=-1, keepdim=keepdim, asvector=True)
    return _ops.function('p_norm')(x, porder=float(p), axis=axis, keepdim=keepdim)


def quantile(x, q, axis=None, keepdim=False, name=None):
    scalar = isinstance(q, (int, float)) and not isinstance(q, bool)
    qs = [float(q)] if scalar else [float(v) for v in q]
    out = _ops.function('quantile')(x, q=qs, axis=axis, keepdim=keepdim)
    return _ops.function('squeeze')(out, axis=[0]) if scalar else out


def install(root):
    """paddle.norm, paddle.linalg.norm, paddle.quantile and the Tensor methods norm / quantile."""
    linalg = _linalg_decomp_api.linalg_module(root)
    linalg.norm = norm
    root.norm = norm
    root.quantile = quantile
    for m, f in (('norm', norm), ('quantile', quantile)):
        if m not in Tensor.__dict__:
            setattr(Tensor, m, f)
