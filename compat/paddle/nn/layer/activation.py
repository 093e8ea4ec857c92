"""Activation layers: each calls paddle.nn.functional.<name> with its arguments."""
from .. import functional as F
from ._bind import bind_args
from .layers import Layer


def _activation(cls_name, fn_name, params=(), repr_keys=()):
    def __init__(self, *args, name=None, **kwargs):
        Layer.__init__(self)
        vals = bind_args(cls_name, params, args, kwargs)
        self.__dict__['_kw'] = vals

    def forward(self, x):
        f = getattr(F, fn_name, None)
        if f is None:
            raise NotImplementedError("%s needs paddle.nn.functional.%s, which Skiff's op registry does not provide yet" % (cls_name, fn_name))
        return f(x, **self._kw)

    def extra_repr(self):
        return ', '.join('%s=%s' % (k, self._kw[k]) for k in repr_keys)

    return type(cls_name, (Layer,), {'__init__': __init__, 'forward': forward, 'extra_repr': extra_repr,
                                     '__module__': __name__, '__doc__': 'paddle.nn.%s: F.%s as a layer.' % (cls_name, fn_name)})


ReLU = _activation('ReLU', 'relu')
ReLU6 = _activation('ReLU6', 'relu6')
GELU = _activation('GELU', 'gelu', [('approximate', False)], ['approximate'])
Sigmoid = _activation('Sigmoid', 'sigmoid')
Tanh = _activation('Tanh', 'tanh')
Silu = _activation('Silu', 'silu')
Swish = _activation('Swish', 'swish')
Hardswish = _activation('Hardswish', 'hardswish')
Hardsigmoid = _activation('Hardsigmoid', 'hardsigmoid')
Softplus = _activation('Softplus', 'softplus', [('beta', 1), ('threshold', 20)])
LeakyReLU = _activation('LeakyReLU', 'leaky_relu', [('negative_slope', 0.01)], ['negative_slope'])
ELU = _activation('ELU', 'elu', [('alpha', 1.0)], ['alpha'])
Softmax = _activation('Softmax', 'softmax', [('axis', -1)], ['axis'])
LogSoftmax = _activation('LogSoftmax', 'log_softmax', [('axis', -1)], ['axis'])
