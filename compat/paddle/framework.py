"""Process-wide switches of the `paddle` module: device, seed, dynamic mode, places, ParamAttr."""
import random as _random

from . import _bridge


class Place:
    """Where a tensor lives; Skiff has only the CPU."""

    def __init__(self, kind='cpu'):
        self._kind = kind

    def __repr__(self):
        return 'Place(%s)' % self._kind

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Place) and other._kind == self._kind

    def __hash__(self):
        return hash(self._kind)

    def is_cpu_place(self):
        return True

    def is_gpu_place(self):
        return False


def CPUPlace():
    return Place('cpu')


def CUDAPlace(*a):
    raise RuntimeError('Skiff runs on the CPU only; CUDAPlace is not available')


def set_device(device):
    """paddle.set_device('cpu'); any other device raises ValueError."""
    d = str(device).lower()
    if d != 'cpu' and not d.startswith('cpu:'):
        raise ValueError("set_device: Skiff runs on the CPU only, got '%s'" % device)
    return CPUPlace()


def get_device():
    return 'cpu'


def is_compiled_with_cuda():
    return False


is_compiled_with_rocm = is_compiled_with_xpu = is_compiled_with_cuda


def in_dynamic_mode():
    from .static import in_dynamic_mode as dynamic
    return dynamic()


def device_count():
    return 0


# The fallback generator: used by initializers when the registry has no random ops.
_rng = _random.Random(0)


class Generator:
    """What paddle.seed returns (Paddle's core.Generator)."""

    def __init__(self, seed):
        self._seed = seed

    def initial_seed(self):
        return self._seed

    def manual_seed(self, s):
        seed(s)
        return self


def seed(s):
    """Seeds every random source: the runtime's generator (when registered) and the Python fallback."""
    s = int(s)
    _rng.seed(s)
    _bridge.seed(s)
    return Generator(s)


def fallback_rng():
    return _rng


from .autograd import no_grad, enable_grad, is_grad_enabled, set_grad_enabled  # noqa: E402,F401  (the runtime's grad mode)


class ParamAttr:
    """paddle.ParamAttr: name, initializer, learning_rate, trainable, ... of a parameter."""

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=True, need_clip=True):
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """None -> default ParamAttr; False stays False (no parameter); str is a name; an initializer."""
        if arg is None:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if callable(arg) or hasattr(arg, 'make'):
            return ParamAttr(initializer=arg)
        raise TypeError('%r cannot be used as a ParamAttr' % (arg,))


_name_counters = {}


def unique_name(key):
    """'linear' -> 'linear_0', 'linear_1', ... (Paddle's unique_name.generate)."""
    n = _name_counters.get(key, 0)
    _name_counters[key] = n + 1
    return '%s_%d' % (key, n)
