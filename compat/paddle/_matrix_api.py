"""Hand-written bindings mirroring src/ops/defs/matrix_more_api.ts: Tensor.fill_diagonal_ (Paddle
has no functional fill_diagonal, so its registry op is internal), and paddle.atleast_1d/2d/3d,
which take any number of inputs and return one tensor or a list (views, as Paddle 2.6).
paddle.amp.debugging lives in paddle/amp/debugging.py."""
from . import _ops
from .tensor import Tensor


def fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """Fills the diagonal of x (>= 2-D; all dims equal above 2-D) with value, in place; returns x."""
    if not isinstance(x, Tensor):
        raise TypeError('fill_diagonal_(): x must be a Tensor')
    if not isinstance(value, (bool, int, float)):
        raise TypeError('fill_diagonal_(): value must be a bool, int or float, got %s' % type(value).__name__)
    return _ops.inplace_function('fill_diagonal')(x, value=float(value), offset=offset, wrap=wrap)


def _atleast(n):
    def fn(*inputs, **kwargs):
        kwargs.pop('name', None)
        if kwargs:
            raise TypeError("atleast_%dd() got an unexpected keyword argument '%s'" % (n, next(iter(kwargs))))
        from .creation import to_tensor
        out = []
        for v in inputs:
            t = v if isinstance(v, Tensor) else to_tensor(v)
            s = list(t.shape)
            if len(s) < n:
                if not s:
                    s = [1] * n
                elif n == 2:
                    s = [1, s[0]]
                else:
                    s = [1, s[0], 1] if len(s) == 1 else [s[0], s[1], 1]
                t = t.reshape(s)  # a view: the layout does not change
            out.append(t)
        return out[0] if len(out) == 1 else out
    fn.__name__ = fn.__qualname__ = 'atleast_%dd' % n
    return fn


atleast_1d = _atleast(1)
atleast_2d = _atleast(2)
atleast_3d = _atleast(3)


def multigammaln_(x, p, name=None):
    """paddle.multigammaln_ / Tensor.multigammaln_: multigammaln written into x (the 'assign'
    scheme of registry inplace variants, for a composite that is not a registry op)."""
    if not isinstance(x, Tensor):
        raise TypeError('multigammaln_(): x must be a Tensor')
    import paddle
    if paddle.is_grad_enabled() and not x.stop_gradient and x.is_leaf:
        raise ValueError("multigammaln_: Leaf Var (%s) that doesn't stop gradient can't use inplace strategy." % x.name)
    src = x if x.stop_gradient else paddle.scale(x, 1.0)   # its nodes may save x, which is about to change
    r = paddle.multigammaln(src, p)
    if r.shape != x.shape or r.dtype != x.dtype:
        raise ValueError('multigammaln_: the result has shape %s and dtype %s, but an inplace op must keep x\'s' % (r.shape, r.dtype))
    x[...] = r
    return x


def install(root):
    root.atleast_1d = atleast_1d
    root.atleast_2d = atleast_2d
    root.atleast_3d = atleast_3d
    if 'fill_diagonal_' not in Tensor.__dict__:
        Tensor.fill_diagonal_ = fill_diagonal_
    root.multigammaln_ = multigammaln_
    if 'multigammaln_' not in Tensor.__dict__:
        Tensor.multigammaln_ = multigammaln_
    from . import amp  # noqa: F401  (paddle.amp.debugging.check_numerics)
    root.amp = amp
