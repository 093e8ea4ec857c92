"""numpy scalar types: np.float32(1.5), np.int64(3), np.True_; what reductions and full
indexing return.

Floating scalars subclass Python float and integer scalars Python int (numpy's float64 does
too; its others do not, a documented difference) so they index lists and format like numbers.
Arithmetic between scalars is done in Python and rounded/wrapped to numpy's result dtype.
"""
import operator

from . import _dtypes as D


class generic:
    """Base of the numpy scalar types."""
    __slots__ = ()
    _dtype = None
    _skiff_np = 1   # the translator's encoding: a numpy scalar (paddle/jit/sot/encoding.py)

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def size(self):
        return 1

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._dtype.itemsize

    @property
    def T(self):
        return self

    def item(self):
        return _py(self)

    def tolist(self):
        return _py(self)

    def astype(self, d):
        return scalar(_py(self), D._lookup(d))

    def reshape(self, *shape):
        from ._array import asarray
        return asarray(self).reshape(*shape)

    def __array__(self):
        from ._array import asarray
        return asarray(self)

    def _skiff_tensor(self):
        """A 0-d tensor of this scalar's dtype: paddle.to_tensor(np.float64(1)) is float64, as in Paddle."""
        from ._array import from_python
        return from_python(_py(self), self._dtype)._t

    def __repr__(self):
        return 'np.%s(%s)' % (self._dtype.name, _short(self))

    def __str__(self):
        return _short(self)


class number(generic):
    __slots__ = ()


class integer(number):
    __slots__ = ()


class signedinteger(integer):
    __slots__ = ()


class unsignedinteger(integer):
    __slots__ = ()


class inexact(number):
    __slots__ = ()


class floating(inexact):
    __slots__ = ()


def _py(x):
    k = x._dtype.kind
    if k == 'f':
        return float(x)
    if k == 'b':
        return bool(x._v)
    return int(x)


def _short(x):
    from ._format import format_scalar
    return format_scalar(_py(x), x._dtype)


def scalar(value, d):
    """The numpy scalar of dtype `d` holding `value` (rounded/wrapped to it)."""
    return TYPES[d.name]._make(D.coerce(value, d))


def _operand_dtype(y):
    t = type(y)
    if t is bool or t is int or t is float:
        return y
    if isinstance(y, generic):
        return y._dtype
    return None


def _binop(fn, kind, reflected=False):
    """kind: 'arith' keeps the promoted dtype, 'div' true division (floats), 'cmp' gives bool_."""
    def op(self, y):
        dy = _operand_dtype(y)
        if dy is None:
            return NotImplemented
        d = D.result_type(self._dtype, dy)
        a, b = _py(self), (_py(y) if isinstance(y, generic) else y)
        if reflected:
            a, b = b, a
        if kind == 'cmp':
            return bool_._make(fn(a, b))
        if kind == 'div':
            d = d if d.kind == 'f' else D.float64   # numpy's true division of integers is float64
            a, b = float(a), float(b)
            if b == 0:
                return scalar(_div0(a), d)
        elif d.kind == 'f':
            a, b = float(a), float(b)
        elif d.kind == 'b' and fn in (operator.add, operator.mul):
            return bool_._make(bool(a or b) if fn is operator.add else bool(a and b))
        try:
            return scalar(fn(a, b), d)
        except ZeroDivisionError:
            if d.kind == 'f':
                return scalar(_div0(a) if fn is operator.floordiv else float('nan'), d)
            return scalar(0, d)   # numpy's integer x // 0 and x % 0 give 0 (with a warning)
    return op


def _div0(a):
    return float('nan') if a == 0 or a != a else (float('inf') if a > 0 else float('-inf'))


_ARITH = (('add', operator.add, 'arith'), ('sub', operator.sub, 'arith'), ('mul', operator.mul, 'arith'),
          ('truediv', operator.truediv, 'div'), ('floordiv', operator.floordiv, 'arith'),
          ('mod', operator.mod, 'arith'), ('pow', operator.pow, 'arith'))
_CMP = (('eq', operator.eq), ('ne', operator.ne), ('lt', operator.lt), ('le', operator.le), ('gt', operator.gt), ('ge', operator.ge))


def _install(cls):
    for name, fn, kind in _ARITH:
        setattr(cls, '__%s__' % name, _binop(fn, kind))
        setattr(cls, '__r%s__' % name, _binop(fn, kind, True))
    for name, fn in _CMP:
        setattr(cls, '__%s__' % name, _binop(fn, 'cmp'))
    cls.__neg__ = lambda self: scalar(-_py(self), self._dtype)
    cls.__pos__ = lambda self: self
    cls.__abs__ = lambda self: scalar(abs(_py(self)), self._dtype)
    base = float if cls._dtype.kind == 'f' else int
    cls.__hash__ = base.__hash__


def _float_type(name, d):
    def _make(cls, v):
        return float.__new__(cls, v)

    def __new__(cls, value=0.0):
        if isinstance(value, str):
            value = float(value)
        return float.__new__(cls, D.coerce(_unwrap(value), d))
    cls = type(name, (floating, float), {'__slots__': (), '_dtype': d, '__new__': __new__, '_make': classmethod(_make),
                                          'is_integer': lambda self: float(self).is_integer()})
    _install(cls)
    return cls


def _int_type(name, d):
    def _make(cls, v):
        return int.__new__(cls, v)

    def __new__(cls, value=0):
        value = _unwrap(value)
        if isinstance(value, str):
            value = int(value)
        return int.__new__(cls, D.coerce(int(value), d))
    base = unsignedinteger if d.kind == 'u' else signedinteger
    cls = type(name, (base, int), {'__slots__': (), '_dtype': d, '__new__': __new__, '_make': classmethod(_make)})
    _install(cls)
    return cls


def _unwrap(v):
    if hasattr(v, 'shape') and hasattr(v, 'item') and not isinstance(v, (int, float)):
        return v.item()
    return v


class bool_(generic):
    """np.bool_: numpy's boolean scalar (np.True_, np.False_); not a subclass of bool, as in numpy."""
    __slots__ = ('_v',)
    _dtype = D.bool_

    def __new__(cls, value=False):
        return _TRUE if bool(_unwrap(value)) else _FALSE

    @classmethod
    def _make(cls, v):
        return _TRUE if v else _FALSE

    def __bool__(self):
        return self._v

    def __index__(self):
        raise TypeError("'numpy.bool' object cannot be interpreted as an integer")

    def __int__(self):
        return int(self._v)

    def __float__(self):
        return float(self._v)

    def __hash__(self):
        return hash(self._v)

    def __repr__(self):
        return 'np.True_' if self._v else 'np.False_'

    def __str__(self):
        return 'True' if self._v else 'False'

    def __invert__(self):
        return _FALSE if self._v else _TRUE

    def __and__(self, y):
        return bool_(self._v and bool(y)) if isinstance(y, (bool, bool_)) else NotImplemented

    def __or__(self, y):
        return bool_(self._v or bool(y)) if isinstance(y, (bool, bool_)) else NotImplemented

    def __xor__(self, y):
        return bool_(self._v != bool(y)) if isinstance(y, (bool, bool_)) else NotImplemented

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__


_install(bool_)
bool_.__hash__ = lambda self: hash(self._v)
_TRUE = object.__new__(bool_)
_TRUE._v = True
_FALSE = object.__new__(bool_)
_FALSE._v = False

float16 = _float_type('float16', D.float16)
float32 = _float_type('float32', D.float32)
float64 = _float_type('float64', D.float64)
int8 = _int_type('int8', D.int8)
int32 = _int_type('int32', D.int32)
int64 = _int_type('int64', D.int64)
uint8 = _int_type('uint8', D.uint8)
int16 = _int_type('int16', D.int16)
uint16 = _int_type('uint16', D.uint16)
uint32 = _int_type('uint32', D.uint32)
TYPES = {'bool': bool_, 'float16': float16, 'float32': float32, 'float64': float64,
         'int8': int8, 'int16': int16, 'int32': int32, 'int64': int64, 'uint8': uint8, 'uint16': uint16, 'uint32': uint32}
for _n, _t in TYPES.items():
    _t.__module__ = 'numpy'
    D.BY_NAME[_n].type = _t


def _placeholder(name):
    """np.uint64: the type exists (np.dtype(np.uint64) works) but making a value raises."""
    d = D.BY_NAME[name]
    base = unsignedinteger if d.kind == 'u' else signedinteger
    cls = type(name, (base,), {'__slots__': (), '_dtype': d, '__new__': lambda cls, *a: D._unsupported(name)})
    cls.__module__ = 'numpy'
    d.type = cls
    return cls


uint64 = _placeholder('uint64')
True_ = _TRUE
False_ = _FALSE
