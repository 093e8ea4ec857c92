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
from .layer.im2col import Unfold, Fold  # noqa: F401
from .layer.pool_frac import FractionalMaxPool2D, FractionalMaxPool3D  # noqa: F401
from .layer.norm import BatchNorm, BatchNorm1D, BatchNorm2D, LayerNorm  # noqa: F401
from .layer.activation import (ReLU, ReLU6, GELU, Sigmoid, Tanh, Silu, Swish, Hardswish, Hardsigmoid,  # noqa: F401
                               Softplus, LeakyReLU, ELU, Softmax, LogSoftmax)
from .layer.container import Sequential, LayerList, LayerDict  # noqa: F401
from .layer.loss import (CrossEntropyLoss, MSELoss, L1Loss, SmoothL1Loss, KLDivLoss, BCELoss, BCEWithLogitsLoss,  # noqa: F401
                         MarginRankingLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, NLLLoss, CTCLoss)
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from .layer.transformer import (MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder,  # noqa: F401
                                TransformerDecoderLayer, TransformerDecoder, Transformer)
from .layer.rnn import SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN, LSTM, GRU, RNNCellBase  # noqa: F401
from .layer.extra import (Bilinear, ParameterList, Dropout2D, Dropout3D, AlphaDropout, Pad1D, Pad2D, Pad3D,  # noqa: F401
                          MaxPool1D, MaxPool3D, AvgPool1D, AvgPool3D)
