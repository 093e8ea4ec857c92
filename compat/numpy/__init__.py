"""Skiff's numpy: a numpy-compatible subset for scripts running in Skiff's Python.

The real numpy has no offline Pyodide wheel here, so `import numpy as np` resolves to this
package (compat/ is first on sys.path). Arrays live in Skiff's native memory; elementwise math,
reductions and matmul run as registry ops through the same bridge as `paddle`, with numpy's own
semantics applied in Python: NEP 50 type promotion (Python scalars are weak), float64 / int64
defaults for Python data, numpy scalars for 0-d results, basic slices as views, advanced
indexing as copies, numpy's print format.

int16/uint16 live in int32 storage and uint32 in int64, wrapped back into range after every op
that can overflow (docs/numpy.md). Known differences, all documented where they live: uint64 and
complex raise TypeError (no storage); unsigned sums give int64 (numpy: uint64); integer scalars
subclass int and floating scalars float; np.random streams differ from numpy's (seeding is
reproducible). Anything not provided raises AttributeError naming it, never a wrong answer.

>>> import numpy as np
>>> np.arange(3, dtype=np.float32) * 2 + 1
array([1., 3., 5.], dtype=float32)
"""
import builtins as _builtins
import math as _math

__version__ = '2.0.0'

from ._dtypes import dtype, promote_types, result_type  # noqa: E402,F401
from ._scalars import (generic, number, integer, signedinteger, unsignedinteger, inexact, floating,  # noqa: E402,F401
                       bool_, float16, float32, float64, int8, int32, int64, uint8, int16, uint16, uint32, uint64,
                       True_, False_)
from ._array import ndarray, asarray  # noqa: E402,F401
from . import _methods  # noqa: E402
_methods.install()
from ._create import (array, asanyarray, ascontiguousarray, copy, zeros, ones, full, empty, zeros_like, ones_like,  # noqa: E402,F401
                      empty_like, full_like, arange, linspace, logspace, eye, identity, tri, tril, triu, meshgrid, fromiter)
from ._ufuncs import (add, subtract, multiply, divide, true_divide, floor_divide, mod, remainder, power, maximum, minimum,  # noqa: E402,F401
                      fmax, fmin, arctan2, hypot, copysign, equal, not_equal, less, less_equal, greater, greater_equal,
                      logical_and, logical_or, logical_xor, logical_not, bitwise_and, bitwise_or, bitwise_xor, bitwise_not,
                      invert, exp, expm1, log, log2, log10, log1p, sqrt, sin, cos, tan, arcsin, arccos, arctan, sinh, cosh,
                      tanh, arcsinh, arccosh, arctanh, reciprocal, floor, ceil, trunc, fix, isnan, isinf, isfinite, absolute,
                      abs, negative, positive, sign, square, rint, around, round, round_, clip)
from ._reduce import (sum, prod, mean, var, std, max, min, amax, amin, argmax, argmin, cumsum, all, any,  # noqa: E402,F401
                      count_nonzero)
from ._manip import (reshape, ravel, transpose, swapaxes, moveaxis, expand_dims, squeeze, broadcast_shapes,  # noqa: E402,F401
                     broadcast_to, broadcast_arrays, atleast_1d, atleast_2d, atleast_3d, concatenate, concat, stack, vstack,
                     row_stack, hstack, dstack, column_stack, split, array_split, hsplit, vsplit, tile, repeat, pad, where,
                     flip, fliplr, flipud, roll)
from ._linalg_core import matmul, dot, vdot, inner, outer, trace, diagonal, diag  # noqa: E402,F401
from ._sort import sort, argsort, unique, nonzero, flatnonzero, argwhere, searchsorted  # noqa: E402,F401
from ._npyio import save, load, savez, savez_compressed  # noqa: E402,F401
from ._einsum import einsum  # noqa: E402,F401
from ._extra import take, take_along_axis, bincount, digitize, histogram, savetxt, loadtxt  # noqa: E402,F401
from ._misc import (allclose, isclose, array_equal, array_equiv, ndim, shape, size, isscalar, issubdtype,  # noqa: E402,F401
                    finfo, iinfo, errstate, seterr, geterr, set_printoptions, get_printoptions, printoptions, can_cast,
                    iscomplexobj, isrealobj, nan_to_num, cumprod, diff, interp, average, median, percentile, quantile,
                    nansum, nanmean, nanmax, nanmin, ptp, array_str, array_repr, array2string)
from . import linalg, random, testing  # noqa: E402,F401

bool = bool_   # np.bool is numpy 2's name for np.bool_
float_ = double = float64
single = float32
half = float16
int_ = intp = int64
byte = int8
ubyte = uint8
newaxis = None
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329


# Arrays, dtypes and scalars pickle as numpy's do (numpy.core.multiarray._reconstruct, ...).
from . import _pickle as _pickle_protocol  # noqa: E402
from . import core, _core  # noqa: E402,F401
_pickle_protocol.install()
del _pickle_protocol


def __getattr__(name):
    raise AttributeError("module 'numpy' has no attribute '%s' (Skiff's numpy subset does not implement it)" % name)


del _builtins
