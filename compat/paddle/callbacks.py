"""paddle.callbacks (defined in paddle.hapi.callbacks)."""
from .hapi.callbacks import (Callback, ProgBarLogger, ModelCheckpoint, LRScheduler, EarlyStopping)  # noqa: F401
