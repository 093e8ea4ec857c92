"""paddle.optimizer (see optimizer.py: thin handles on the runtime's optimizers)."""
from . import lr  # noqa: F401
from .optimizer import Optimizer, SGD, Momentum, Adam, AdamW, Adagrad, RMSProp, Adadelta, Adamax, Lamb  # noqa: F401
