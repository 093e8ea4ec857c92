"""Elementwise functions (numpy's ufuncs) and ndarray's operators.

Each call resolves numpy's result dtype first (NEP 50: Python scalars are weak), casts the
array operands to it and runs one registry op; Python scalars go to the op as scalars, which
keep the operands' dtype. 0-d results come back as numpy scalars, as numpy's ufuncs return.
"""
from . import _dtypes as D
from paddle import _table
from paddle._bridge import bin as _bin, bins as _bins, un as _un
from paddle.tensor import Tensor, _result

from ._array import F, asarray, fit, from_python, ndarray, out as _res, scalar0, wrap
from ._scalars import generic

_PY = (bool, int, float)
_SCALAR_KIND = {int: 0, float: 1, bool: 2}   # the bridge's `bins` operand kinds
_REVERSED = 4
_ids = {}


def _op_id(op):
    i = _ids.get(op)
    if i is None:
        i = _ids[op] = _table.op_id(op)
        if i < 0:
            raise AttributeError("Skiff's op registry has no op '%s'" % op)
    return i


def _as(x, d):
    """ndarray x's tensor with storage dtype d (its own when the dtype already matches)."""
    return x._t if x._dtype is d or x._dtype.storage == d.storage else F['cast'](x._t, d.storage)


# ops whose integer result can leave the operands' range: int16/uint16/uint32 results are wrapped
_OVERFLOWS = frozenset(('add', 'subtract', 'multiply', 'elementwise_pow', 'floor_divide', 'remainder'))


def _weak_int(v, d, kind):
    """A Python int operand against integer dtype d: numpy 2 refuses one outside d's range for
    arithmetic (OverflowError); a comparison is still exact, done in int64. Returns the dtype to
    compute in."""
    lo, hi = D.int_range(d)
    if lo <= v <= hi:
        return d
    if kind == 'cmp' and -(1 << 63) <= v < (1 << 63):
        return D.int64
    raise OverflowError('Python integer %d out of bounds for %s' % (v, d.name))


def binary(op, x, y, kind='arith'):
    """kind: 'arith' keeps the promoted dtype, 'div' computes in float, 'cmp' gives bool.
    One crossing when the operands already have the result dtype (bridge `bin` / `bins`)."""
    tx, ty = type(x), type(y)
    if tx is ndarray:
        dx = x._dtype
    elif tx in _PY:
        dx = x
    elif isinstance(x, generic):
        dx, x = x._dtype, x.item()   # a numpy scalar: a strong dtype, passed as its value
    else:
        x = asarray(x)
        dx = x._dtype
    if ty is ndarray:
        dy = y._dtype
    elif ty in _PY:
        dy = y
    elif isinstance(y, generic):
        dy, y = y._dtype, y.item()
    else:
        y = asarray(y)
        dy = y._dtype
    d = D.result_type(dx, dy)
    if kind == 'div' and d.kind != 'f':
        d = D.float64   # numpy's true division of integers and bools is float64
    if d.kind == 'b' and kind == 'arith':
        op = _BOOL_ARITH.get(op)
        if op is None:
            raise TypeError('numpy boolean subtract/divide-like operations are not supported; use logical_xor or cast to int')
    rd = D.bool_ if kind == 'cmp' else d
    if kind == 'cmp' and d._storage is None:
        d = D.wider_stored(d)   # uint64 (no storage) compares in float64; the result is bool anyway
    if d.kind in 'iu' and (tx is int or ty is int):
        d = _weak_int(x if tx is int else y, d, kind)
        if kind != 'cmp' and d is not rd:
            rd = d
    xa, ya = type(x) is ndarray, type(y) is ndarray
    if not xa and not ya:
        x, xa = from_python(x, d), True
    if xa and ya:
        # the cast temporaries stay bound until the call returns: a dropped Tensor frees its handle
        tx_, ty_ = _as(x, d), _as(y, d)
        r = _bin(_op_id(op), tx_._h, ty_._h)
        sx = x.shape   # cached on the array after its first use
        shape = sx if sx == y.shape else None
    elif xa:
        tx_ = _as(x, d)
        r = _bins(_op_id(op) * 8 + _SCALAR_KIND[type(y)], tx_._h, y)
        shape = x.shape
    else:
        ty_ = _as(y, d)
        r = _bins(_op_id(op) * 8 + _SCALAR_KIND[type(x)] + _REVERSED, ty_._h, x)
        shape = y.shape
    r = _result(r)
    if rd.wrap is not None and op in _OVERFLOWS:
        r = fit(r, rd)
    return _finish(r, rd, shape)


def _finish(t, d, shape):
    """An ndarray (or a numpy scalar for 0-d) around a result whose shape may already be known."""
    if shape is None:
        return _res(t, d)
    if not shape:
        return scalar0(t, d)
    a = wrap(t, d)
    a._shape = shape
    return a


_BOOL_ARITH = {'add': 'logical_or', 'multiply': 'logical_and', 'maximum': 'logical_or', 'minimum': 'logical_and',
               'logical_and': 'logical_and', 'logical_or': 'logical_or', 'logical_xor': 'logical_xor',
               'bitwise_and': 'logical_and', 'bitwise_or': 'logical_or', 'bitwise_xor': 'logical_xor',
               'equal': 'equal', 'not_equal': 'not_equal'}


def ufunc_kwargs(name, kwargs, *args):
    """The operands after numpy's optional ufunc keywords: dtype= casts them first; where= and
    unknown keywords raise rather than being ignored (ignoring them would give wrong results)."""
    dtype = None
    for k, v in kwargs.items():
        if k == 'dtype':
            dtype = v
        elif k in ('casting', 'order', 'subok', 'signature') or (k == 'where' and v is True):
            continue
        else:
            raise NotImplementedError("np.%s(%s=...) is not supported by Skiff's numpy" % (name, k))
    if dtype is None:
        return args
    return tuple(asarray(a).astype(dtype) for a in args)


def _ufunc2(op, kind='arith', name=None):
    def f(x1, x2, out=None, **kwargs):
        if kwargs:
            x1, x2 = ufunc_kwargs(f.__name__, kwargs, x1, x2)
        r = binary(op, x1, x2, kind)
        return _maybe_out(r, out)
    f.__name__ = name or op
    f.__qualname__ = f.__name__
    f.__doc__ = 'numpy.%s(x1, x2): elementwise, with numpy broadcasting and type promotion (registry op %s).' % (f.__name__, op)
    return f


def _maybe_out(r, out_arr):
    if out_arr is None:
        return r
    if isinstance(out_arr, tuple):
        out_arr = out_arr[0]
    from ._index import assign_all
    assign_all(out_arr, r)
    return out_arr


def unary(op, x, kind='same'):
    """kind: 'float' computes in float_for(dtype) (exp, sqrt), 'same' keeps it, 'bool' gives bool,
    'int_identity' returns integer input unchanged (floor/ceil of an int array is itself).
    One crossing (bridge `un`); the result has the input's shape."""
    a = x if type(x) is ndarray else asarray(x)
    d = a._dtype
    if kind == 'float':
        d = D.float_for(d)
    elif kind == 'int_identity' and d.kind != 'f':
        return _res(a._t.clone(), d)
    elif kind == 'bool':
        if d.kind != 'f':
            # integers are never nan/inf; Skiff's kernels are float-only for these
            return _res(F['full_like'](a._t, op == 'isfinite', 'bool'), D.bool_)
        return _finish(_result(_un(_op_id(op), a._t._h)), D.bool_, a.shape)
    t = _as(a, d)   # bound until the call returns (a dropped Tensor frees its handle)
    r = _result(_un(_op_id(op), t._h))
    if d.wrap is not None and op in ('neg', 'abs', 'bitwise_not'):
        r = fit(r, d)   # -(-32768) and abs(-32768) wrap to -32768 in int16, ~x of uint16 stays 16-bit
    return _finish(r, d, a.shape)


def _ufunc1(op, kind='same', name=None):
    def f(x, out=None, **kwargs):
        if kwargs:
            x, = ufunc_kwargs(f.__name__, kwargs, x)
        return _maybe_out(unary(op, x, kind), out)
    f.__name__ = name or op
    f.__qualname__ = f.__name__
    f.__doc__ = 'numpy.%s(x): elementwise (registry op %s).' % (f.__name__, op)
    return f


add = _ufunc2('add')
subtract = _ufunc2('subtract')
multiply = _ufunc2('multiply')
divide = true_divide = _ufunc2('divide', 'div', 'divide')
floor_divide = _ufunc2('floor_divide')
mod = remainder = _ufunc2('remainder', name='remainder')
power = _ufunc2('elementwise_pow', name='power')
maximum = _ufunc2('maximum')
minimum = _ufunc2('minimum')
fmax = _ufunc2('fmax')
fmin = _ufunc2('fmin')
arctan2 = _ufunc2('atan2', 'div', 'arctan2')
hypot = _ufunc2('hypot', 'div', 'hypot')
copysign = _ufunc2('copysign', 'div', 'copysign')
equal = _ufunc2('equal', 'cmp')
not_equal = _ufunc2('not_equal', 'cmp')
less = _ufunc2('less_than', 'cmp', 'less')
less_equal = _ufunc2('less_equal', 'cmp')
greater = _ufunc2('greater_than', 'cmp', 'greater')
greater_equal = _ufunc2('greater_equal', 'cmp')
logical_and = _ufunc2('logical_and', 'cmp')
logical_or = _ufunc2('logical_or', 'cmp')
logical_xor = _ufunc2('logical_xor', 'cmp')
bitwise_and = _ufunc2('bitwise_and')
bitwise_or = _ufunc2('bitwise_or')
bitwise_xor = _ufunc2('bitwise_xor')

exp = _ufunc1('exp', 'float')
expm1 = _ufunc1('expm1', 'float')
log = _ufunc1('log', 'float')
log2 = _ufunc1('log2', 'float')
log10 = _ufunc1('log10', 'float')
log1p = _ufunc1('log1p', 'float')
sqrt = _ufunc1('sqrt', 'float')
sin = _ufunc1('sin', 'float')
cos = _ufunc1('cos', 'float')
tan = _ufunc1('tan', 'float')
arcsin = _ufunc1('asin', 'float', 'arcsin')
arccos = _ufunc1('acos', 'float', 'arccos')
arctan = _ufunc1('atan', 'float', 'arctan')
sinh = _ufunc1('sinh', 'float')
cosh = _ufunc1('cosh', 'float')
tanh = _ufunc1('tanh', 'float')
arcsinh = _ufunc1('asinh', 'float', 'arcsinh')
arccosh = _ufunc1('acosh', 'float', 'arccosh')
arctanh = _ufunc1('atanh', 'float', 'arctanh')
reciprocal = _ufunc1('reciprocal')
floor = _ufunc1('floor', 'int_identity')
ceil = _ufunc1('ceil', 'int_identity')
trunc = fix = _ufunc1('trunc', 'int_identity', 'trunc')
isnan = _ufunc1('isnan', 'bool')
isinf = _ufunc1('isinf', 'bool')
isfinite = _ufunc1('isfinite', 'bool')


def absolute(x, out=None, **kwargs):
    a = asarray(x)
    if a._dtype.kind in 'ub':
        return _maybe_out(out_copy(a), out)
    return _maybe_out(unary('abs', a), out)


abs = absolute


def out_copy(a):
    return _res(a._t.clone(), a._dtype)


def negative(x, out=None, **kwargs):
    a = asarray(x)
    if a._dtype.kind == 'b':
        raise TypeError('The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.')
    if a._dtype.kind == 'u':
        return _maybe_out(binary('subtract', 0, a), out)   # wraps modulo 256, as numpy does
    return _maybe_out(unary('neg', a), out)


def positive(x, out=None, **kwargs):
    return _maybe_out(out_copy(asarray(x)), out)


def sign(x, out=None, **kwargs):
    a = asarray(x)
    if a._dtype.kind == 'b':
        raise TypeError("ufunc 'sign' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'>")
    return _maybe_out(unary('sign', a), out)


def square(x, out=None, **kwargs):
    return _maybe_out(binary('multiply', x, x), out)


def logical_not(x, out=None, **kwargs):
    a = asarray(x)
    t = a._t if a._dtype.kind == 'b' else F['not_equal'](a._t, 0)
    return _maybe_out(_res(F['logical_not'](t), D.bool_), out)


def invert(x, out=None, **kwargs):
    a = asarray(x)
    if a._dtype.kind == 'b':
        return _maybe_out(_res(F['logical_not'](a._t), D.bool_), out)
    return _maybe_out(_res(fit(F['bitwise_not'](a._t), a._dtype), a._dtype), out)


bitwise_not = invert


def rint(x, out=None, **kwargs):
    return around(x, 0, out)


def around(a, decimals=0, out=None):
    """Round half to even, as numpy does (Skiff's `round` op rounds half away from zero)."""
    a = asarray(a)
    d = a._dtype
    if d.kind != 'f':
        if decimals >= 0:
            return _maybe_out(out_copy(a), out)
        raise NotImplementedError('np.round of integers with negative decimals is not supported by Skiff')
    x = a._t
    if decimals:
        s = 10.0 ** decimals
        x = F['scale'](x, s, 0.0, True)
    f = F['floor'](x)
    frac = F['subtract'](x, f)
    up = F['add'](f, 1)
    half_even = F['where'](F['equal'](F['remainder'](f, 2), 0), f, up)
    r = F['where'](F['greater_than'](frac, 0.5), up, F['where'](F['less_than'](frac, 0.5), f, half_even))
    if decimals:
        r = F['divide'](r, F['full']([], s, d.storage))
    return _maybe_out(_res(r, d), out)


round = round_ = around


def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    if a_min is None and a_max is None:
        raise ValueError('One of max or min must be given')
    r = a
    if a_min is not None:
        r = binary('maximum', r, a_min)
    if a_max is not None:
        r = binary('minimum', r, a_max)
    if not isinstance(r, (ndarray, generic)):
        r = asarray(r)
    return _maybe_out(r, out)


def _as_ndarray(x):
    return x if isinstance(x, ndarray) else asarray(x)


# --- ndarray operators --------------------------------------------------------------------------
def _op(fn, reflected=False, dunder=None):
    if reflected:
        def op(self, y):
            if isinstance(y, Tensor) and dunder:
                # `tensor + ndarray` reaches here after Tensor.__add__ declined: Paddle's answer is
                # a Tensor (the array converted with to_tensor, then Paddle's promotion)
                from paddle.creation import to_tensor
                return getattr(y, dunder)(to_tensor(self))
            return fn(y, self)
    else:
        def op(self, y):
            return fn(self, y)
    return op


def _inplace(fn, name):
    def op(self, y):
        r = fn(self, y)
        rd = r.dtype
        if rd is not self._dtype and not _same_kind(rd, self._dtype):
            raise TypeError("Cannot cast ufunc '%s' output from %r to %r with casting rule 'same_kind'" % (name, rd, self._dtype))
        from ._index import assign_all
        assign_all(self, r)
        return self
    return op


_KIND_ORDER = {'b': 0, 'u': 1, 'i': 1, 'f': 2}


def _same_kind(src, dst):
    return _KIND_ORDER[src.kind] <= _KIND_ORDER[dst.kind]


def install(cls):
    table = (('add', add), ('sub', subtract), ('mul', multiply), ('truediv', divide), ('floordiv', floor_divide),
             ('mod', remainder), ('pow', power), ('and', bitwise_and), ('or', bitwise_or), ('xor', bitwise_xor))
    for name, fn in table:
        setattr(cls, '__%s__' % name, _op(fn))
        setattr(cls, '__r%s__' % name, _op(fn, True, '__%s__' % name))
        setattr(cls, '__i%s__' % name, _inplace(fn, fn.__name__))
    for name, fn in (('eq', equal), ('ne', not_equal), ('lt', less), ('le', less_equal), ('gt', greater), ('ge', greater_equal)):
        setattr(cls, '__%s__' % name, _op(fn))
    cls.__neg__ = lambda self: negative(self)
    cls.__pos__ = lambda self: positive(self)
    cls.__abs__ = lambda self: absolute(self)
    cls.__invert__ = lambda self: invert(self)
    from ._linalg_core import matmul
    cls.__matmul__ = _op(matmul)
    cls.__rmatmul__ = _op(matmul, True)
    cls.__imatmul__ = _inplace(matmul, 'matmul')
