"""paddle.nn.initializer: Constant, Uniform, Normal, TruncatedNormal, Xavier*, Kaiming*, Assign.

Random values come from the registry's random ops (paddle.uniform / paddle.normal / randn)
when they exist, else from a Python generator seeded by paddle.seed.
"""
import math

from .. import _ops
from ..creation import to_tensor, full
from ..dtype import dtype_of, get_default_dtype
from ..framework import fallback_rng


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _nested(flat, shape):
    for d in reversed(shape[1:]):
        flat = [flat[i:i + d] for i in range(0, len(flat), d)]
    return flat


def _from_flat(flat, shape, dtype):
    return to_tensor(_nested(flat, shape) if shape else flat[0], dtype=dtype)


def uniform(shape, low, high, dtype):
    f = _ops.public('uniform')
    if f is not None:
        return f(shape=list(shape), dtype=dtype, min=low, max=high)
    r = fallback_rng()
    return _from_flat([r.uniform(low, high) for _ in range(_numel(shape))], list(shape), dtype)


def normal(shape, mean, std, dtype):
    f = _ops.public('normal')
    if f is not None:
        return f(mean=mean, std=std, shape=list(shape)).astype(dtype)
    g = _ops.public('randn') or _ops.public('standard_normal')
    if g is not None:
        return g(list(shape), dtype=dtype) * std + mean
    r = fallback_rng()
    return _from_flat([r.gauss(mean, std) for _ in range(_numel(shape))], list(shape), dtype)


def truncated_normal(shape, mean, std, a, b, dtype):
    # a and b count in std around mean here (Paddle 2.6: +-2 std); the op takes absolute cutoffs
    f = _ops.BY_OP.get('truncated_gaussian_random')
    if f is not None:
        return f(list(shape), mean=float(mean), std=float(std), a=float(mean + a * std), b=float(mean + b * std),
                 dtype=dtype_of(dtype).name if dtype is not None else 'float32')
    r = fallback_rng()
    out = []
    for _ in range(_numel(shape)):
        while True:
            v = r.gauss(mean, std)
            if mean + a * std <= v <= mean + b * std:
                break
        out.append(v)
    return _from_flat(out, list(shape), dtype)


def compute_fans(shape):
    """Paddle's fan rule: [in, out] for 2-D weights, [out, in, *kernel] for conv weights."""
    shape = list(shape)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = _numel(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None):
    """paddle.nn.initializer.calculate_gain."""
    if nonlinearity in ('sigmoid', 'linear', 'conv1d', 'conv2d', 'conv3d', 'conv1d_transpose',
                        'conv2d_transpose', 'conv3d_transpose'):
        return 1.0
    if nonlinearity == 'tanh':
        return 5.0 / 3
    if nonlinearity == 'relu':
        return math.sqrt(2.0)
    if nonlinearity == 'leaky_relu':
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == 'selu':
        return 3.0 / 4
    raise ValueError('calculate_gain: unsupported nonlinearity %r' % nonlinearity)


class Initializer:
    """Base: `make(shape, dtype)` builds the values; calling it on a parameter fills it."""

    def make(self, shape, dtype):
        raise NotImplementedError

    def __call__(self, param, block=None):
        param.set_value(self.make(param.shape, param.dtype.name))
        return param


class Constant(Initializer):
    def __init__(self, value=0.0, force_cpu=False):
        self.value = value

    def make(self, shape, dtype):
        return full(list(shape), self.value, dtype)


class Uniform(Initializer):
    def __init__(self, low=-1.0, high=1.0, seed=0, name=None):
        self.low, self.high = low, high

    def make(self, shape, dtype):
        return uniform(shape, self.low, self.high, dtype)


class Normal(Initializer):
    def __init__(self, mean=0.0, std=1.0, seed=0, name=None):
        self.mean, self.std = mean, std

    def make(self, shape, dtype):
        return normal(shape, self.mean, self.std, dtype)


class TruncatedNormal(Initializer):
    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, seed=0, name=None):
        self.mean, self.std, self.a, self.b = mean, std, a, b

    def make(self, shape, dtype):
        return truncated_normal(shape, self.mean, self.std, self.a, self.b, dtype)


class XavierUniform(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def make(self, shape, dtype):
        fi, fo = compute_fans(shape)
        fi = self.fan_in if self.fan_in is not None else fi
        fo = self.fan_out if self.fan_out is not None else fo
        limit = self.gain * math.sqrt(6.0 / float(fi + fo))
        return uniform(shape, -limit, limit, dtype)


class XavierNormal(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain=1.0, name=None):
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def make(self, shape, dtype):
        fi, fo = compute_fans(shape)
        fi = self.fan_in if self.fan_in is not None else fi
        fo = self.fan_out if self.fan_out is not None else fo
        return normal(shape, 0.0, self.gain * math.sqrt(2.0 / float(fi + fo)), dtype)


class KaimingUniform(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity='relu', name=None):
        self.fan_in, self.slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def make(self, shape, dtype):
        fi = self.fan_in if self.fan_in is not None else compute_fans(shape)[0]
        limit = calculate_gain(self.nonlinearity, self.slope) * math.sqrt(3.0 / float(fi))
        return uniform(shape, -limit, limit, dtype)


class KaimingNormal(Initializer):
    def __init__(self, fan_in=None, negative_slope=0.0, nonlinearity='relu', name=None):
        self.fan_in, self.slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def make(self, shape, dtype):
        fi = self.fan_in if self.fan_in is not None else compute_fans(shape)[0]
        return normal(shape, 0.0, calculate_gain(self.nonlinearity, self.slope) / math.sqrt(float(fi)), dtype)


class Assign(Initializer):
    def __init__(self, value, name=None):
        self.value = value

    def make(self, shape, dtype):
        t = to_tensor(self.value, dtype=dtype)
        if t.shape != list(shape):
            raise ValueError('Assign initializer: value of shape %s for a parameter of shape %s' % (t.shape, list(shape)))
        return t


# Paddle's older spellings
XavierInitializer = XavierUniform
MSRAInitializer = KaimingNormal
ConstantInitializer = Constant
NormalInitializer = Normal
UniformInitializer = Uniform


def default_dtype(dtype):
    return dtype_of(dtype or get_default_dtype()).name
