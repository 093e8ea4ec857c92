"""paddle.hapi: the high-level API (paddle.Model, callbacks, progress bars)."""
from .model import Model  # noqa: F401
from . import callbacks  # noqa: F401
