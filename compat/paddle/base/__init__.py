"""paddle.base: Paddle's framework package name (2.6); Skiff keeps only what user code queries."""
from . import libpaddle  # noqa: F401
