"""paddle.vision.datasets."""
from .mnist import MNIST  # noqa: F401
