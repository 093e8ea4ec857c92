"""numpy.core: present so numpy pickles (which name numpy.core.multiarray) load in Skiff."""
from . import multiarray  # noqa: F401
