"""numpy.core.multiarray: the globals numpy's pickles of arrays and scalars name."""
from .._pickle import _reconstruct, scalar  # noqa: F401

_reconstruct.__module__ = __name__
scalar.__module__ = __name__
