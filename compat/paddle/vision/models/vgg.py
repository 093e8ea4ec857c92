"""VGG with paddle.vision.models' structure and parameter names (features.0.weight, ...,
classifier.6.bias), so PaddlePaddle's VGG state dicts load by name. TypeScript twin:
models/vision/vgg.ts. vgg11() at full size has 133M parameters (the classifier's first Linear
alone is 25088 x 4096); tests build VGG(make_layers(small cfg), num_classes=0) instead."""
from ... import nn
from ._utils import no_pretrained

__all__ = ['VGG', 'make_layers', 'vgg11', 'vgg13', 'vgg16', 'vgg19']


class VGG(nn.Layer):
    """VGG(features, num_classes=1000, with_pool=True): features, 7x7 adaptive pool, 3-layer classifier."""

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = x.flatten(1)
            x = self.classifier(x)
        return x


def make_layers(cfg, batch_norm=False):
    """cfg: output channels of 3x3 convs (padding 1) and 'M' for 2x2 max pools; input has 3 channels."""
    layers = []
    in_channels = 3
    for v in cfg:
        if v == 'M':
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        if not isinstance(v, int) or v <= 0:
            raise ValueError("make_layers: cfg entries must be positive ints or 'M', got %r" % (v,))
        conv2d = nn.Conv2D(in_channels, v, kernel_size=3, padding=1)
        layers.extend([conv2d, nn.BatchNorm2D(v), nn.ReLU()] if batch_norm else [conv2d, nn.ReLU()])
        in_channels = v
    return nn.Sequential(*layers)


cfgs = {
    'A': [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    'B': [64, 64, 'M', 128, 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    'D': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512, 'M'],
    'E': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 256, 'M', 512, 512, 512, 512, 'M', 512, 512, 512, 512, 'M'],
}


def _vgg(arch, cfg, batch_norm, pretrained, **kwargs):
    no_pretrained(arch + ('_bn' if batch_norm else ''), pretrained)
    return VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)


def vgg11(pretrained=False, batch_norm=False, **kwargs):
    return _vgg('vgg11', 'A', batch_norm, pretrained, **kwargs)


def vgg13(pretrained=False, batch_norm=False, **kwargs):
    return _vgg('vgg13', 'B', batch_norm, pretrained, **kwargs)


def vgg16(pretrained=False, batch_norm=False, **kwargs):
    return _vgg('vgg16', 'D', batch_norm, pretrained, **kwargs)


def vgg19(pretrained=False, batch_norm=False, **kwargs):
    return _vgg('vgg19', 'E', batch_norm, pretrained, **kwargs)
