"""fractional_max_pool2d / 3d over the registry ops of the same names (src/ops/defs/nn_pool_frac.ts
is the TypeScript twin): random_u is drawn from the default generator when None, and the ops'
mask output is returned on request."""
from ... import _ops


def _frac(op, x, output_size, kernel_size, random_u, return_mask):
    u = random_u
    while u is None or not u > 0:
        u = float(_ops.function('uniform')(shape=[], dtype='float32', min=0.0, max=1.0))
    if isinstance(output_size, (list, tuple)):   # None keeps the input's size
        output_size = [x.shape[i + 2] if d is None else d for i, d in enumerate(output_size)]
    out, mask = _ops.function(op)(x, output_size, kernel_size, u)
    return (out, mask) if return_mask else out


def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
    return _frac('fractional_max_pool2d', x, output_size, kernel_size, random_u, return_mask)


def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
    return _frac('fractional_max_pool3d', x, output_size, kernel_size, random_u, return_mask)
