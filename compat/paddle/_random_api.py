"""The inplace random fills, mirroring src/ops/defs/random_more.ts `randomMorePublic`:
paddle.uniform_ / normal_ / bernoulli_ / exponential_ and the Tensor methods of the same names.
Their registry ops (uniform_inplace, gaussian_inplace, bernoulli_inplace, exponential) have no
functional public name, so the `<op>_` variants are bound here by hand."""
from . import _ops
from .tensor import Tensor


def _fill(op, public, params):
    def fn(x, *args, **kwargs):
        if len(args) > len(params):
            raise TypeError('%s() takes at most %d arguments (%d given)' % (public, len(params) + 1, len(args) + 1))
        kw = dict(zip(params, args))
        for k, v in kwargs.items():
            if k == 'name':
                continue
            if k not in params:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (public, k))
            if k in kw:
                raise TypeError("%s() got multiple values for argument '%s'" % (public, k))
            kw[k] = v
        return _ops.inplace_function(op)(x, **{k: v for k, v in kw.items() if v is not None})
    fn.__name__ = fn.__qualname__ = public
    return fn


def install(root):
    for public, op, params in (('uniform_', 'uniform_inplace', ('min', 'max', 'seed')),
                               ('normal_', 'gaussian_inplace', ('mean', 'std')),
                               ('bernoulli_', 'bernoulli_inplace', ('p',)),
                               ('exponential_', 'exponential', ('lam',))):
        if op not in _ops.BY_OP_INPLACE:
            continue
        f = _fill(op, public, params)
        setattr(root, public, f)
        if public not in Tensor.__dict__:
            setattr(Tensor, public, f)
