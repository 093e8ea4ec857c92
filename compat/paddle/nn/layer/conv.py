"""Conv2D."""
import math

from .. import functional as F
from .. import initializer as I
from .layers import Layer


def conv_repr(layer):
    """Paddle's repr of a conv layer's settings (those left at their defaults are omitted);
    Conv2D and the layers in more.py print the same way."""
    s = '%d, %d, kernel_size=%s' % (layer._in_channels, layer._out_channels, layer._kernel_size)
    if layer._stride != 1:
        s += ', stride=%s' % (layer._stride,)
    if layer._padding != 0:
        s += ', padding=%s' % (layer._padding,)
    if layer._dilation != 1:
        s += ', dilation=%s' % (layer._dilation,)
    if layer._groups != 1:
        s += ', groups=%s' % (layer._groups,)
    return s


def _pair(v, name):
    if isinstance(v, int):
        return [v, v]
    v = list(v)
    if len(v) != 2:
        raise ValueError('Conv2D: %s must be an int or 2 ints, got %r' % (name, v))
    return v


class Conv2D(Layer):
    """2-D convolution with weight [out_channels, in_channels // groups, kh, kw].

    Default weight init is Paddle's: Normal(0, std) with std = sqrt(2 / (kh * kw * in_channels));
    bias zeros.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NCHW'):
        super().__init__()
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError('Conv2D: in_channels %d and out_channels %d must be divisible by groups %d' % (in_channels, out_channels, groups))
        if padding_mode != 'zeros':
            raise NotImplementedError("Conv2D: padding_mode %r is not supported yet (only 'zeros')" % padding_mode)
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _pair(kernel_size, 'kernel_size')
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self._groups, self._data_format, self._padding_mode = groups, data_format, padding_mode
        fan = self._kernel_size[0] * self._kernel_size[1] * in_channels
        self.weight = self.create_parameter([out_channels, in_channels // groups] + self._kernel_size, weight_attr,
                                            default_initializer=I.Normal(0.0, math.sqrt(2.0 / fan)))
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)

    def forward(self, x):
        return F.conv2d(x, self.weight, self.bias, stride=self._stride, padding=self._padding,
                        dilation=self._dilation, groups=self._groups, data_format=self._data_format)

    def extra_repr(self):
        s = conv_repr(self)
        if self._data_format != 'NCHW':
            s += ', data_format=%s' % self._data_format
        return s
