"""Conv1D/3D, Conv{1,2,3}DTranspose, GroupNorm, InstanceNorm{1,2,3}D, LocalResponseNorm,
Adaptive{Avg,Max}Pool{1,3}D / AdaptiveMaxPool2D, Upsample, PixelShuffle, PixelUnshuffle:
thin wrappers of the functional ops with Paddle 2.6's constructor signatures and parameter
defaults (src/nn/layers_more.ts is the TypeScript twin). Gradients come from the ops' rules."""
import math

from .. import functional as F
from .. import initializer as I
from .conv import conv_repr
from .layers import Layer


def _list(layer, v, n, what):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) != n:
        raise ValueError('%s: %s must be an int or %d ints, got %r' % (layer, what, n, v))
    return v


class _ConvNd(Layer):
    """weight [out, in // groups, *k] (transposed: [in, out // groups, *k]) from
    Normal(0, sqrt(2 / (prod(k) * in_channels))), bias zeros (Paddle's _ConvNd defaults)."""

    def __init__(self, layer, nd, transposed, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                 weight_attr, bias_attr, data_format, output_padding=0, padding_mode='zeros'):
        super().__init__()
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError('%s: in_channels %d and out_channels %d must be divisible by groups %d' % (layer, in_channels, out_channels, groups))
        if padding_mode != 'zeros':
            raise NotImplementedError("%s: padding_mode %r is not supported yet (only 'zeros')" % (layer, padding_mode))
        self._nd, self._transposed = nd, transposed
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _list(layer, kernel_size, nd, 'kernel_size')
        self._stride, self._padding, self._dilation, self._groups = stride, padding, dilation, groups
        self._output_padding, self._data_format = output_padding, data_format
        fan = in_channels
        for k in self._kernel_size:
            fan *= k
        shape = ([in_channels, out_channels // groups] if transposed else [out_channels, in_channels // groups]) + self._kernel_size
        self.weight = self.create_parameter(shape, weight_attr, default_initializer=I.Normal(0.0, math.sqrt(2.0 / fan)))
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)

    def extra_repr(self):
        return conv_repr(self)


class Conv1D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NCL'):
        super().__init__('Conv1D', 1, False, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         weight_attr, bias_attr, data_format, padding_mode=padding_mode)

    def forward(self, x):
        return F.conv1d(x, self.weight, self.bias, stride=self._stride, padding=self._padding, dilation=self._dilation,
                        groups=self._groups, data_format=self._data_format)


class Conv3D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NCDHW'):
        super().__init__('Conv3D', 3, False, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         weight_attr, bias_attr, data_format, padding_mode=padding_mode)

    def forward(self, x):
        return F.conv3d(x, self.weight, self.bias, stride=self._stride, padding=self._padding, dilation=self._dilation,
                        groups=self._groups, data_format=self._data_format)


def _transpose_layer(name, nd, fmt):
    # The registry's functions join paddle.nn.functional after this module loads: look up at call time.
    fname = 'conv%dd_transpose' % nd

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                 weight_attr=None, bias_attr=None, data_format=fmt):
        _ConvNd.__init__(self, name, nd, True, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         weight_attr, bias_attr, data_format, output_padding=output_padding)

    def forward(self, x, output_size=None):
        return getattr(F, fname)(x, self.weight, self.bias, stride=self._stride, padding=self._padding, output_padding=self._output_padding,
                  dilation=self._dilation, groups=self._groups, output_size=output_size, data_format=self._data_format)

    return type(name, (_ConvNd,), {'__init__': __init__, 'forward': forward})


Conv1DTranspose = _transpose_layer('Conv1DTranspose', 1, 'NCL')
Conv2DTranspose = _transpose_layer('Conv2DTranspose', 2, 'NCHW')
Conv3DTranspose = _transpose_layer('Conv3DTranspose', 3, 'NCDHW')


class GroupNorm(Layer):
    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None, bias_attr=None, data_format='NCHW', name=None):
        super().__init__()
        if num_groups <= 0 or num_channels % num_groups:
            raise ValueError('GroupNorm: num_channels %d must be divisible by num_groups %d' % (num_channels, num_groups))
        self._num_groups, self._num_channels, self._epsilon, self._data_format = num_groups, num_channels, epsilon, data_format
        self.weight = self.create_parameter([num_channels], weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter([num_channels], bias_attr, is_bias=True)

    def forward(self, x):
        return F.group_norm(x, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format)

    def extra_repr(self):
        return 'num_groups=%d, num_channels=%d, epsilon=%s' % (self._num_groups, self._num_channels, self._epsilon)


def _instance_norm_layer(name, fmt):
    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None, data_format=fmt, name=None):
        Layer.__init__(self)
        self._num_features, self._epsilon, self._momentum, self._data_format = num_features, epsilon, momentum, data_format
        self.scale = self.create_parameter([num_features], weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)

    def forward(self, x):
        return F.instance_norm(x, weight=self.scale, bias=self.bias, eps=self._epsilon, data_format=self._data_format)

    def extra_repr(self):
        return 'num_features=%d, epsilon=%s' % (self._num_features, self._epsilon)

    return type(name, (Layer,), {'__init__': __init__, 'forward': forward, 'extra_repr': extra_repr})


InstanceNorm1D = _instance_norm_layer('InstanceNorm1D', 'NCL')
InstanceNorm2D = _instance_norm_layer('InstanceNorm2D', 'NCHW')
InstanceNorm3D = _instance_norm_layer('InstanceNorm3D', 'NCDHW')


class LocalResponseNorm(Layer):
    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format='NCHW', name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k, self.data_format = size, alpha, beta, k, data_format

    def forward(self, x):
        return F.local_response_norm(x, self.size, self.alpha, self.beta, self.k, self.data_format)


class AdaptiveAvgPool1D(Layer):
    def __init__(self, output_size, name=None):
        super().__init__()
        self._output_size = output_size

    def forward(self, x):
        return F.adaptive_avg_pool1d(x, self._output_size)


class AdaptiveAvgPool3D(Layer):
    def __init__(self, output_size, data_format='NCDHW', name=None):
        super().__init__()
        self._output_size, self._data_format = output_size, data_format

    def forward(self, x):
        return F.adaptive_avg_pool3d(x, self._output_size, data_format=self._data_format)


def _adaptive_max_layer(name, nd):
    fname = 'adaptive_max_pool%dd' % nd

    def __init__(self, output_size, return_mask=False, name=None):
        Layer.__init__(self)
        self._output_size, self._return_mask = output_size, return_mask

    def forward(self, x):
        return getattr(F, fname)(x, self._output_size, return_mask=self._return_mask)

    return type(name, (Layer,), {'__init__': __init__, 'forward': forward})


AdaptiveMaxPool1D = _adaptive_max_layer('AdaptiveMaxPool1D', 1)
AdaptiveMaxPool2D = _adaptive_max_layer('AdaptiveMaxPool2D', 2)
AdaptiveMaxPool3D = _adaptive_max_layer('AdaptiveMaxPool3D', 3)


class Upsample(Layer):
    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=False, align_mode=0, data_format='NCHW', name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = align_corners, align_mode, data_format

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode, align_corners=self.align_corners,
                             align_mode=self.align_mode, data_format=self.data_format)

    def extra_repr(self):
        main = 'size=%s' % (self.size,) if self.size is not None else 'scale_factor=%s' % (self.scale_factor,)
        return '%s, mode=%s, align_corners=%s, align_mode=%s, data_format=%s' % (main, self.mode, self.align_corners, self.align_mode, self.data_format)


class PixelShuffle(Layer):
    def __init__(self, upscale_factor, data_format='NCHW', name=None):
        super().__init__()
        self._upscale_factor, self._data_format = upscale_factor, data_format

    def forward(self, x):
        return F.pixel_shuffle(x, self._upscale_factor, self._data_format)


class PixelUnshuffle(Layer):
    def __init__(self, downscale_factor, data_format='NCHW', name=None):
        super().__init__()
        self._downscale_factor, self._data_format = downscale_factor, data_format

    def forward(self, x):
        return F.pixel_unshuffle(x, self._downscale_factor, self._data_format)
