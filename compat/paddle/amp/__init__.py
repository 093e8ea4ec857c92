"""paddle.amp: only the debugging tools so far (paddle.amp.debugging.check_numerics)."""
from . import debugging  # noqa: F401
