"""BatchNorm1D/2D (inference statistics unless the registry has batch_norm) and LayerNorm."""
from .. import functional as F
from .. import initializer as I
from .layers import Layer
from ...creation import zeros, ones


class _BatchNormBase(Layer):
    """weight (ones), bias (zeros) and the buffers _mean (zeros) and _variance (ones), as in Paddle."""
    _rank = None

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format='NCHW', use_global_stats=None, name=None):
        super().__init__()
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._data_format, self._use_global_stats = data_format, use_global_stats
        self.weight = self.create_parameter([num_features], weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)
        self.register_buffer('_mean', zeros([num_features], self._dtype))
        self.register_buffer('_variance', ones([num_features], self._dtype))

    def forward(self, x):
        if self._rank is not None and x.ndim not in self._rank:
            raise ValueError('%s: expected input of rank %s, got shape %s' % (type(self).__name__, ' or '.join(map(str, self._rank)), x.shape))
        return F.batch_norm(x, self._mean, self._variance, weight=self.weight, bias=self.bias, training=self.training,
                            momentum=self._momentum, epsilon=self._epsilon, data_format=self._data_format,
                            use_global_stats=self._use_global_stats)

    def extra_repr(self):
        return 'num_features=%d, momentum=%s, epsilon=%s' % (self._num_features, self._momentum, self._epsilon)


class BatchNorm1D(_BatchNormBase):
    _rank = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format='NCL', use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    _rank = (4,)


BatchNorm = BatchNorm2D


class LayerNorm(Layer):
    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self.weight = self.create_parameter(self._normalized_shape, weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter(self._normalized_shape, bias_attr, is_bias=True)

    def forward(self, x):
        return F.layer_norm(x, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return 'normalized_shape=%s, epsilon=%s' % (self._normalized_shape, self._epsilon)
