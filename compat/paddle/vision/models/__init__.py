"""paddle.vision.models: LeNet, ResNet, MobileNetV2, VGG (Paddle's names and parameter names) and
a small VisionTransformer; the text models live in models/."""
from .lenet import LeNet  # noqa: F401
from .resnet import (ResNet, BasicBlock, BottleneckBlock, resnet18, resnet34, resnet50, resnet101,  # noqa: F401
                     resnet152, wide_resnet50_2, wide_resnet101_2)
from .mobilenetv2 import MobileNetV2, mobilenet_v2  # noqa: F401
from .vgg import VGG, vgg11, vgg13, vgg16, vgg19  # noqa: F401
from .vit import VisionTransformer, vit_tiny, vit_small, vit_base  # noqa: F401
