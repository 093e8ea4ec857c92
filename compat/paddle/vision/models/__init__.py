"""paddle.vision.models (LeNet; the rest of the zoo lives in models/)."""
from .lenet import LeNet  # noqa: F401
