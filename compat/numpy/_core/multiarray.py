"""numpy._core.multiarray: numpy 2's pickles name these (the same functions as numpy.core's)."""
from .._pickle import _reconstruct, scalar  # noqa: F401
