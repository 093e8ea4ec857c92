// The TypeScript vision zoo: twins of paddle.vision.models (compat/paddle/vision/models) with the
// same parameter names, so state dicts move between TS, Python and PaddlePaddle.
export { ResNet, BasicBlock, BottleneckBlock, resnet18, resnet34, resnet50, resnet101, resnet152, wide_resnet50_2, wide_resnet101_2 } from './resnet.js';
export { MobileNetV2, InvertedResidual, ConvNormActivation, mobilenet_v2 } from './mobilenetv2.js';
export { VGG, makeLayers, cfgs, vgg11, vgg13, vgg16, vgg19 } from './vgg.js';
export { VisionTransformer, PatchEmbed, Attention, Mlp, Block, DropPath, vit_tiny, vit_small, vit_base } from './vit.js';
