// paddle.nn for TypeScript: the Layer base, layers, containers and initializers, mounted into
// the `paddle` namespace by src/paddle.ts.
export { Layer, ParamAttr, isParameter, makeParameter } from './layer.js';
export { Linear, Embedding, Dropout, Flatten, Identity } from './layers_common.js';
export { Conv2D, MaxPool2D, AvgPool2D } from './layers_conv.js';
export { Conv1D, Conv3D, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, GroupNorm, InstanceNorm1D, InstanceNorm2D, InstanceNorm3D, LocalResponseNorm,
  AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, Upsample, PixelShuffle, PixelUnshuffle } from './layers_more.js';
export { LayerNorm, BatchNorm, BatchNorm1D, BatchNorm2D } from './layers_norm.js';
export { ReLU, ReLU6, GELU, Sigmoid, Tanh, SiLU, Softmax, LogSoftmax, LeakyReLU, ELU, Hardswish, Hardsigmoid, Softplus, Mish } from './layers_activation.js';
export { Sequential, LayerList, LayerDict } from './container.js';
export { CrossEntropyLoss, MSELoss, L1Loss, SmoothL1Loss, KLDivLoss, BCELoss, BCEWithLogitsLoss, MarginRankingLoss, HingeEmbeddingLoss,
  CosineEmbeddingLoss, NLLLoss, CTCLoss } from './layers_loss.js';
export { initializer } from './initializer.js';
export { linear } from './functional_extra.js';
export { MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer, TransformerDecoder, Transformer } from './layers_transformer.js';
export { SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN, LSTM, GRU } from './layers_rnn.js';
export { Bilinear, ParameterList, Dropout2D, Dropout3D, AlphaDropout, Pad1D, Pad2D, Pad3D, MaxPool1D, MaxPool3D, AvgPool1D, AvgPool3D,
  bilinear, dropout2d, dropout3d, alpha_dropout } from './layers_extra.js';
export { summary } from './summary.js';
export { Unfold, Fold } from './layers_im2col.js';
export { FractionalMaxPool2D, FractionalMaxPool3D } from './layers_pool_frac.js';
