"""MaxPool2D, AvgPool2D, AdaptiveAvgPool2D: thin wrappers of the functional ops."""
from .. import functional as F
from .layers import Layer


class MaxPool2D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCHW', name=None):
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.data_format = return_mask, ceil_mode, data_format

    def forward(self, x):
        return F.max_pool2d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            return_mask=self.return_mask, ceil_mode=self.ceil_mode, data_format=self.data_format)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)


class AvgPool2D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
                 data_format='NCHW', name=None):
        super().__init__()
        self.ksize, self.stride, self.padding, self.ceil_mode = kernel_size, stride, padding, ceil_mode
        self.exclusive, self.divisor, self.data_format = exclusive, divisor_override, data_format

    def forward(self, x):
        from .. import functional
        f = getattr(functional, 'avg_pool2d', None)
        if f is None:
            raise NotImplementedError("AvgPool2D needs paddle.nn.functional.avg_pool2d, which Skiff's op registry does not provide yet")
        return f(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding, ceil_mode=self.ceil_mode,
                 exclusive=self.exclusive, divisor_override=self.divisor, data_format=self.data_format)

    def extra_repr(self):
        return 'kernel_size=%s, stride=%s, padding=%s' % (self.ksize, self.stride, self.padding)


class AdaptiveAvgPool2D(Layer):
    def __init__(self, output_size, data_format='NCHW', name=None):
        super().__init__()
        self._output_size, self._data_format = output_size, data_format

    def forward(self, x):
        # F's attribute looked up per call (the registry op may be installed after import); no
        # import statement here, which the translator would have to run as a graph break.
        f = getattr(F, 'adaptive_avg_pool2d', None)
        if f is None:
            raise NotImplementedError("AdaptiveAvgPool2D needs paddle.nn.functional.adaptive_avg_pool2d, which Skiff's op registry does not provide yet")
        return f(x, self._output_size, data_format=self._data_format)

    def extra_repr(self):
        return 'output_size=%s' % (self._output_size,)
