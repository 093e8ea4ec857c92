"""FractionalMaxPool2D / 3D: Paddle 2.6's constructor signatures over F.fractional_max_pool2d / 3d
(src/nn/layers_pool_frac.ts is the TypeScript twin)."""
from .. import functional as F
from .layers import Layer


class FractionalMaxPool2D(Layer):
    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False, name=None):
        super().__init__()
        self._output_size, self._kernel_size, self._random_u, self._return_mask = output_size, kernel_size, random_u, return_mask

    def forward(self, x):
        return F.fractional_max_pool2d(x, self._output_size, self._kernel_size, self._random_u, self._return_mask)

    def extra_repr(self):
        return 'output_size=%s, kernel_size=%s, random_u=%s, return_mask=%s' % (self._output_size, self._kernel_size, self._random_u, self._return_mask)


class FractionalMaxPool3D(FractionalMaxPool2D):
    def forward(self, x):
        return F.fractional_max_pool3d(x, self._output_size, self._kernel_size, self._random_u, self._return_mask)
