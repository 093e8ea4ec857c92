"""Bilinear, ParameterList, Dropout2D/3D, AlphaDropout, Pad1D/2D/3D, MaxPool1D/3D, AvgPool1D/3D
with Paddle 2.6's constructors (src/nn/layers_extra.ts is the TypeScript twin)."""
from .. import functional as F
from ...tensor import Tensor
from .layers import Layer, Parameter


class Bilinear(Layer):
    """weight [out_features, in1_features, in2_features] (Xavier-uniform), bias [1, out_features] (zeros)."""

    def __init__(self, in1_features, in2_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        for k, v in (('in1_features', in1_features), ('in2_features', in2_features), ('out_features', out_features)):
            if not isinstance(v, int) or v <= 0:
                raise ValueError('Bilinear: %s must be a positive integer, got %r' % (k, v))
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self.weight = self.create_parameter([out_features, in1_features, in2_features], weight_attr, is_bias=False)
        self.bias = self.create_parameter([1, out_features], bias_attr, is_bias=True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self):
        return 'in1_features=%d, in2_features=%d, out_features=%d, dtype=%s' % (self._in1_features, self._in2_features, self._out_features, self._dtype)


class ParameterList(Layer):
    """Parameters named '0', '1', ... (state_dict keys follow)."""

    def __init__(self, parameters=None):
        super().__init__()
        for p in parameters or []:
            self.append(p)

    def _check(self, p):
        if not isinstance(p, Parameter):
            raise TypeError('ParameterList: expected a Parameter, got %s' % type(p).__name__)
        return p

    def __getitem__(self, idx):
        n = len(self._parameters)
        if not -n <= idx < n:
            raise IndexError('ParameterList: index %d is out of range for %d parameters' % (idx, n))
        return self._parameters[str(idx + n if idx < 0 else idx)]

    def __setitem__(self, idx, param):
        self[idx]  # range check
        n = len(self._parameters)
        self._parameters[str(idx + n if idx < 0 else idx)] = self._check(param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        self.add_parameter(str(len(self._parameters)), self._check(parameter))
        return self


class Dropout2D(Layer):
    def __init__(self, p=0.5, data_format='NCHW', name=None):
        super().__init__()
        self.p, self.data_format = p, data_format

    def forward(self, input):
        return F.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return 'p=%s, data_format=%s' % (self.p, self.data_format)


class Dropout3D(Layer):
    def __init__(self, p=0.5, data_format='NCDHW', name=None):
        super().__init__()
        self.p, self.data_format = p, data_format

    def forward(self, input):
        return F.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return 'p=%s, data_format=%s' % (self.p, self.data_format)


class AlphaDropout(Layer):
    def __init__(self, p=0.5, name=None):
        super().__init__()
        if not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError('AlphaDropout: p must be in [0, 1], got %r' % (p,))
        self.p = p

    def forward(self, input):
        return F.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self):
        return 'p=%s' % self.p


def _pad_layer(name, nd, fmt):
    def __init__(self, padding, mode='constant', value=0.0, data_format=fmt, name=None):
        Layer.__init__(self)
        if isinstance(padding, int):
            padding = [padding] * (2 * nd)
        elif isinstance(padding, Tensor):
            padding = padding.tolist()
        padding = list(padding)
        if len(padding) != 2 * nd:
            raise ValueError('%s: padding must be an int or %d ints, got %r' % (type(self).__name__, 2 * nd, padding))
        self._pad, self._mode, self._value, self._data_format = padding, mode, value, data_format

    def forward(self, x):
        return F.pad(x, self._pad, mode=self._mode, value=self._value, data_format=self._data_format)

    def extra_repr(self):
        return 'padding=%s, mode=%s, value=%s, data_format=%s' % (self._pad, self._mode, self._value, self._data_format)

    return type(name, (Layer,), {'__init__': __init__, 'forward': forward, 'extra_repr': extra_repr})


Pad1D = _pad_layer('Pad1D', 1, 'NCL')
Pad2D = _pad_layer('Pad2D', 2, 'NCHW')
Pad3D = _pad_layer('Pad3D', 3, 'NCDHW')


class MaxPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode = kernel_size, stride, padding, return_mask, ceil_mode

    def forward(self, x):
        return F.max_pool1d(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)


class MaxPool3D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCDHW', name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode = kernel_size, stride, padding, return_mask, ceil_mode
        self.data_format = data_format

    def forward(self, x):
        return F.max_pool3d(x, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode, data_format=self.data_format)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)


class AvgPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.exclusive, self.ceil_mode = kernel_size, stride, padding, exclusive, ceil_mode

    def forward(self, x):
        return F.avg_pool1d(x, self.ksize, self.stride, self.padding, self.exclusive, self.ceil_mode)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)


class AvgPool3D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None, data_format='NCDHW', name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.ceil_mode, self.exclusive = kernel_size, stride, padding, ceil_mode, exclusive
        self.divisor, self.data_format = divisor_override, data_format

    def forward(self, x):
        return F.avg_pool3d(x, self.ksize, self.stride, self.padding, self.ceil_mode, self.exclusive, self.divisor, data_format=self.data_format)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)
