"""Tensor printing in Paddle's format.

The formatter is the TypeScript one (src/tensor/format.ts), reached in one bridge call, so Python
and TypeScript print identically and only the printed elements are ever decoded:

    Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[1., 2., 3.],
            [4., 5., 6.]])
"""
import json

from . import _bridge

_OPTIONS = ('precision', 'threshold', 'edgeitems', 'sci_mode', 'linewidth')


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None):
    """paddle.set_printoptions: options left as None keep their value."""
    given = {k: v for k, v in zip(_OPTIONS, (precision, threshold, edgeitems, sci_mode, linewidth)) if v is not None}
    if not _bridge.printoptions(json.dumps(given)):
        raise _bridge.error()


def to_string(t, prefix='Tensor'):
    s = _bridge.format(t._h, prefix)
    if s == 0:
        raise _bridge.error()
    return s
