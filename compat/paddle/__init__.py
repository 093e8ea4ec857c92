"""Skiff's `paddle`: a pure-Python front for Skiff's TypeScript runtime, running inside Pyodide.

The functional API and Tensor methods are generated from the op registry at import (one JSON
op table from the runtime); the rest (to_tensor, dtypes, nn layers, device and seed switches)
is written here. Every op crosses into the runtime once with handles and scalars.

>>> import paddle
>>> x = paddle.to_tensor([[1., 2.], [3., 4.]])
>>> (x + 1).tolist()
[[2.0, 3.0], [4.0, 5.0]]
"""
__version__ = '2.6.0'

from . import _bridge  # noqa: F401  (binds the runtime's functions first)
from .dtype import (DType as dtype, float32, float64, float16, bfloat16, int8, uint8, int32, int64, bool_ as bool,  # noqa: F401
                    get_default_dtype, set_default_dtype)
from .tensor import Tensor  # noqa: F401
from .creation import to_tensor, is_tensor, zeros, ones, full, zeros_like, ones_like, full_like, empty, empty_like  # noqa: F401
from .framework import (CPUPlace, CUDAPlace, Place, ParamAttr, set_device, get_device, seed, in_dynamic_mode,  # noqa: F401
                        is_compiled_with_cuda, is_compiled_with_rocm, is_compiled_with_xpu, device_count,
                        no_grad, enable_grad, is_grad_enabled, set_grad_enabled)
from ._format import set_printoptions  # noqa: F401
from . import _ops
from . import framework, device  # noqa: F401
from . import nn  # noqa: F401
from . import jit  # noqa: F401
from . import static  # noqa: F401
from . import onnx  # noqa: F401  (paddle.onnx.export: src/jit/onnx)
from .nn.layer.layers import Parameter  # noqa: F401
from . import autograd  # noqa: F401
from .autograd import grad  # noqa: F401
from . import optimizer, regularizer  # noqa: F401
from . import io, metric, vision, hapi, callbacks  # noqa: F401
from . import profiler  # noqa: F401  (src/profiler collectors through _skiff_profiler)
from . import inference  # noqa: F401  (Config / create_predictor over paddle.jit.save models)
from .hapi import Model  # noqa: F401
from ._serialization import save, load  # noqa: F401  (Paddle's .pdparams/.pdopt pickle format)
from ._summary import summary  # noqa: F401  (paddle.summary table; src/nn/summary.ts in TS)

def disable_static(place=None):
    """Back to dynamic (eager) mode."""
    static.disable_static(place)


def enable_static():
    """Static mode: ops on paddle.static Variables record into the current program (see paddle.static)."""
    static.enable_static()


def create_parameter(shape, dtype=None, name=None, attr=None, is_bias=False, default_initializer=None):
    from .nn.layer.layers import create_parameter as _cp
    return _cp(shape, dtype, attr if attr is not None else name, is_bias, default_initializer)


def numel(x, name=None):
    return x.numel()


def shape(x):
    return to_tensor(x.shape, dtype='int64')


def rank(x):
    return to_tensor(x.ndim, dtype='int32')


# names the registry must not replace: they are the Python API's own
_PROTECTED = ('to_tensor', 'Tensor', 'seed', 'grad', 'no_grad', 'enable_grad', 'set_grad_enabled', 'is_grad_enabled', 'set_device', 'get_device', 'is_tensor', 'in_dynamic_mode',
              'dtype', 'float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int32', 'int64', 'bool')

import sys as _sys  # noqa: E402
# the incubate package first: install() then adds registry ops to its modules instead of shadowing them
from . import incubate  # noqa: E402,F401  (incubate.nn.functional.fused_rms_norm)
from . import base  # noqa: E402,F401  (paddle.base.libpaddle build queries)
_ops.install(_sys.modules[__name__], _PROTECTED)
from . import _reduce_api as _reduce_api  # noqa: E402  (linalg.norm, norm, quantile: hand-written bindings)
_reduce_api.install(_sys.modules[__name__])
from . import _adv_indexing as _adv_indexing  # noqa: E402  (nonzero(as_tuple), static.setitem; x[adv] lives there)
_adv_indexing.install(_sys.modules[__name__])
from . import _random_api as _random_api, _composite_api as _composite_api  # noqa: E402  (inplace fills; einsum, multigammaln)
_random_api.install(_sys.modules[__name__])
_composite_api.install(_sys.modules[__name__])
from . import _linalg_decomp_api as _linalg_decomp_api  # noqa: E402  (linalg.pca_lowrank, linalg.cond)
_linalg_decomp_api.install(_sys.modules[__name__])
from . import _shape_api as _shape_api  # noqa: E402  (meshgrid(*args), repeat_interleave with int or tensor repeats)
_shape_api.install(_sys.modules[__name__])
from . import _matrix_api as _matrix_api  # noqa: E402  (atleast_1d/2d/3d(*inputs), Tensor.fill_diagonal_, amp.debugging)
_matrix_api.install(_sys.modules[__name__])
