"""paddle.incubate: the fused transformer helpers Skiff provides (nn.functional.fused_rms_norm)."""
from . import nn  # noqa: F401
