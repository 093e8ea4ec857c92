"""Unfold / Fold: Paddle 2.6's constructor signatures over F.unfold / F.fold (the registry ops
unfold and fold, src/ops/defs/nn_im2col.ts; src/nn/layers_im2col.ts is the TypeScript twin)."""
from .. import functional as F
from .layers import Layer


class Unfold(Layer):
    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides = kernel_sizes, dilations, paddings, strides

    def forward(self, x):
        return F.unfold(x, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self):
        return 'kernel_size=%s, dilation=%s, padding=%s, stride=%s' % (self.kernel_sizes, self.dilations, self.paddings, self.strides)


class Fold(Layer):
    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides = dilations, paddings, strides

    def forward(self, x):
        return F.fold(x, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self):
        return 'output_sizes=%s, kernel_size=%s, dilation=%s, padding=%s, stride=%s' % (
            self.output_sizes, self.kernel_sizes, self.dilations, self.paddings, self.strides)
