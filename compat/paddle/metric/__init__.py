"""paddle.metric: Metric, Accuracy and the accuracy function."""
from .metrics import Metric, Accuracy, accuracy  # noqa: F401
