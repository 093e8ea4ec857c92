"""paddle.nn: Layer, common layers, containers, functional and initializers."""
from . import functional, initializer  # noqa: F401
from .layer.layers import Layer, Parameter  # noqa: F401
from .layer.common import Linear, Dropout, Flatten, Identity, Embedding  # noqa: F401
from .layer.conv import Conv2D  # noqa: F401
from .layer.more import (Conv1D, Conv3D, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, GroupNorm,  # noqa: F401
                         InstanceNorm1D, InstanceNorm2D, InstanceNorm3D, LocalResponseNorm, AdaptiveAvgPool1D,
                         AdaptiveAvgPool3D, AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, Upsample,
                         PixelShuffle, PixelUnshuffle)
from .layer.pooling import MaxPool2D, AvgPool2D, AdaptiveAvgPool2D  # noqa: F401
from .layer.norm import BatchNorm, BatchNorm1D, BatchNorm2D, LayerNorm  # noqa: F401
from .layer.activation import (ReLU, ReLU6, GELU, Sigmoid, Tanh, Silu, Swish, Hardswish, Hardsigmoid,  # noqa: F401
                               Softplus, LeakyReLU, ELU, Softmax, LogSoftmax)
from .layer.container import Sequential, LayerList, LayerDict  # noqa: F401
from .layer.loss import (CrossEntropyLoss, MSELoss, L1Loss, SmoothL1Loss, KLDivLoss, BCELoss, BCEWithLogitsLoss,  # noqa: F401
                         MarginRankingLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, NLLLoss, CTCLoss)
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
