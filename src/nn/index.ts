// paddle.nn for TypeScript: the Layer base, layers, containers and initializers, mounted into
// the `paddle` namespace by src/paddle.ts.
export { Layer, ParamAttr, isParameter, makeParameter } from './layer.js';
export { Linear, Embedding, Dropout, Flatten, Identity } from './layers_common.js';
export { Conv2D, MaxPool2D, AvgPool2D } from './layers_conv.js';
export { LayerNorm, BatchNorm, BatchNorm1D, BatchNorm2D } from './layers_norm.js';
export { ReLU, ReLU6, GELU, Sigmoid, Tanh, SiLU, Softmax, LogSoftmax, LeakyReLU, ELU, Hardswish, Hardsigmoid, Softplus, Mish } from './layers_activation.js';
export { Sequential, LayerList, LayerDict } from './container.js';
export { initializer } from './initializer.js';
export { linear } from './functional_extra.js';
