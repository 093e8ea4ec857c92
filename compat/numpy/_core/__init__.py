"""numpy._core: numpy 2's name for numpy.core, so pickles written by numpy 2 load too."""
from . import multiarray  # noqa: F401
