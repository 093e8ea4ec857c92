"""numpy.ndarray over a Skiff tensor.

An ndarray holds a paddle Tensor (`_t`, the native storage, possibly a strided view) and its
numpy dtype. Operations run as registry ops through the bridge (paddle._ops), so elementwise
math, reductions and matmul are native; numpy's own rules (type promotion, result dtypes,
scalars for 0-d results) are applied here in Python before each call.
"""
from array import array as _pyarray

import _skiff_bridge as _js
from paddle import _ops
from paddle._bridge import error as _error, item as _item
from paddle.creation import _from_buffer
from paddle.tensor import Tensor

from . import _dtypes as D
from ._scalars import generic, scalar

F = _ops.BY_OP   # registry op name -> Python function (inputs then attributes, Paddle's order)
_new = object.__new__


def wrap(t, d, base=None):
    a = _new(ndarray)
    a._t = t
    a._dtype = d
    a._shape = None
    a._base = base
    return a


def scalar0(t, d):
    """The numpy scalar held by a one-element tensor: one crossing (no metadata fetch)."""
    v = _item(t._h, 0)
    if v is None:
        raise _error()
    return scalar(v, d)


def out(t, d):
    """An op result: an ndarray, or a numpy scalar when it is 0-d (as numpy's ufuncs return)."""
    if t.ndim == 0:
        return scalar0(t, d)
    return wrap(t, d)


def reshape_t(t, shape):
    """Paddle's reshape reads 0 as "copy that input dim"; numpy's 0 is a real 0. An array with a
    0 dim holds no data, so a fresh empty tensor is the reshape."""
    if 0 in shape:
        n = 1
        for s in t.shape:
            n *= s
        if n:
            raise ValueError('cannot reshape array of size %d into shape %s' % (n, tuple(shape)))
        return F['full'](list(shape), 0, t.dtype.name)
    return F['reshape'](t, list(shape))


def fit(t, d):
    """Tensor `t` (in d's storage) with its values wrapped into numpy dtype d's range. int16,
    uint16 (int32 storage) and uint32 (int64 storage) call this after every op that can leave
    the range; the storage's arithmetic wraps modulo 2**32 / 2**64, so the low bits are exact and
    masking them (then sign-extending for int16) gives numpy's wrapped result."""
    w = d.wrap
    if w is None:
        return t
    mask, sign = w
    t = F['bitwise_and'](t, mask)
    if sign:
        t = F['subtract'](F['bitwise_xor'](t, sign), sign)
    return t


def cast_t(t, d):
    """Tensor `t` with storage dtype `d` (the same tensor when it already has it). A tensor of
    another storage dtype cast into a wrapped dtype (int64 -> int16) is wrapped into its range."""
    if t.dtype.name == d.storage:
        return t
    src = t.dtype.name
    if d.wrap is not None and src in ('float16', 'bfloat16', 'float32', 'float64'):
        t = F['trunc'](t)   # numpy truncates toward zero before wrapping
    r = F['cast'](t, d.storage)
    if d.wrap is not None and src not in ('bool', 'int8', 'uint8'):
        r = fit(r, d)
    return r


def convert_t(a, d):
    """ndarray a's values as a tensor in numpy dtype d's storage, wrapped as numpy's cast does."""
    t = a._t
    if a._dtype is d:
        return t
    if d.kind in 'iu' and a._dtype.kind == 'f':
        t = F['trunc'](t)   # numpy truncates toward zero; keep it explicit whatever the cast kernel does
    if t.dtype.name != d.storage:
        t = F['cast'](t, d.storage)
    if d.wrap is not None and not D.contains(a._dtype, d):
        t = fit(t, d)
    return t


class ndarray:
    """A numpy array backed by Skiff's native memory. Create with np.array / np.asarray."""
    __slots__ = ('_t', '_dtype', '_shape', '_base', '__weakref__')
    __array_priority__ = 0.0
    __hash__ = None
    _skiff_np = 2   # the translator's encoding: a numpy array (paddle/jit/sot/encoding.py)

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        from ._create import empty
        if buffer is not None:
            raise NotImplementedError("ndarray(shape, buffer=...) is not supported by Skiff's numpy")
        return empty(shape, dtype)

    # --- metadata ---------------------------------------------------------------------------
    @property
    def shape(self):
        s = self._shape
        if s is None:
            s = self._shape = tuple(self._t.shape)
        return s

    @shape.setter
    def shape(self, new):
        r = self.reshape(new)
        self._t, self._shape = r._t, r._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self._dtype.itemsize

    @property
    def strides(self):
        s = _js.layout(self._t._h)
        if not s:
            from paddle._bridge import error
            raise error()
        st = s.split(';')[1]
        return tuple(int(x) * self._dtype.itemsize for x in st.split(',')) if st else ()

    @property
    def base(self):
        return self._base

    @property
    def flags(self):
        return _Flags(self)

    @property
    def T(self):
        return self.transpose()

    @property
    def real(self):
        return self

    def _skiff_tensor(self):
        """The Tensor holding this array's data (paddle.to_tensor copies from it)."""
        return self._t

    # --- data out -----------------------------------------------------------------------------
    def tolist(self):
        """Nested lists of Python numbers (float16 values arrive widened, exactly)."""
        return self._t.tolist()

    def item(self, *args):
        if args and len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if not args and self.size != 1:
            raise ValueError('can only convert an array of size 1 to a Python scalar')
        return self._t.item(*args)

    def __bool__(self):
        if self.size != 1:
            raise ValueError('The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()')
        return bool(self._t.item())

    def __float__(self):
        return float(self._scalar1('float'))

    def __int__(self):
        return int(self._scalar1('int'))

    def __index__(self):
        if self._dtype.kind not in 'iu' or self.ndim != 0:
            raise TypeError('only integer scalar arrays can be converted to a scalar index')
        return int(self._t.item())

    def _scalar1(self, what):
        if self.ndim != 0:
            raise TypeError('only 0-dimensional arrays can be converted to Python scalars')
        return self._t.item()

    def __len__(self):
        if not self.shape:
            raise TypeError('len() of unsized object')
        return self.shape[0]

    def __iter__(self):
        shape = self.shape
        if not shape:
            raise TypeError('iteration over a 0-d array')
        if len(shape) == 1:
            # one crossing for the values instead of one per element
            d = self._dtype
            return iter([scalar(v, d) for v in self._t.tolist()])
        return (self[i] for i in range(shape[0]))

    def __contains__(self, value):
        from ._ufuncs import equal
        from ._reduce import any as _any
        return bool(_any(equal(self, value)))

    def __repr__(self):
        from ._format import array_repr
        return array_repr(self)

    def __str__(self):
        from ._format import array_str
        return array_str(self)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __array__(self, dtype=None, copy=None):
        return self if dtype is None else self.astype(dtype)

    # --- copies and conversions -------------------------------------------------------------
    def copy(self, order='C'):
        return wrap(self._t.clone(), self._dtype)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def astype(self, dtype, order='K', casting='unsafe', subok=True, copy=True):
        d = D._lookup(dtype)
        if d is self._dtype:
            return self.copy() if copy else self
        if d.kind == 'b':
            return wrap(F['not_equal'](self._t, 0 if self._dtype.kind != 'b' else False), d)
        t = convert_t(self, d)
        return wrap(t.clone() if t is self._t else t, d)

    def view(self, dtype=None):
        if dtype is None or D._lookup(dtype) is self._dtype:
            return wrap(self._t.detach(), self._dtype, self)
        raise NotImplementedError("ndarray.view(dtype) reinterpreting bytes is not supported by Skiff's numpy")

    def tobytes(self, order='C'):
        from ._npyio import raw_bytes
        return raw_bytes(self)

    def __bytes__(self):
        # bytes(a) before Python 3.12, where __buffer__ is not consulted (PEP 688)
        return self.tobytes()

    def __buffer__(self, flags):
        """The buffer protocol (PEP 688; memoryview(a), bytes(a)): a read-only buffer over a C-order
        copy of the elements in numpy's layout (int16 as 2 bytes). Native storage may be a strided
        view or wider than the numpy dtype, so the data cannot be exposed in place; writing
        through the buffer raises instead of silently missing the array."""
        m = memoryview(self.tobytes()).cast(self._dtype.char if self._dtype.kind != 'b' else '?')
        return m.cast('B').cast(m.format, self.shape) if self.size else m   # memoryview cannot shape an empty one

    def __getitem__(self, index):
        from ._index import getitem
        return getitem(self, index)

    def __setitem__(self, index, value):
        from ._index import setitem
        setitem(self, index, value)

    def fill(self, value):
        from ._index import assign_all
        assign_all(self, value)


class _Flags:
    __slots__ = ('_a',)

    def __init__(self, a):
        self._a = a

    @property
    def c_contiguous(self):
        a = self._a
        want = a.itemsize
        for n, s in zip(reversed(a.shape), reversed(a.strides)):
            if n != 1 and s != want:
                return False
            want *= n
        return True

    @property
    def writeable(self):
        return True

    def __getitem__(self, k):
        return {'C_CONTIGUOUS': self.c_contiguous, 'WRITEABLE': True, 'OWNDATA': self._a._base is None}[k]


# --- Python data in ------------------------------------------------------------------------------
def _norm(x):
    """range -> list, paddle Tensor -> ndarray: the other nestable things numpy accepts."""
    if isinstance(x, range):
        return list(x)
    if isinstance(x, Tensor):
        return from_tensor(x)
    return x


def _flatten(obj):
    """(shape, flat leaves) of nested sequences of numbers / arrays / scalars."""
    obj = _norm(obj)
    if isinstance(obj, (ndarray, generic)) or not isinstance(obj, (list, tuple)):
        return [], [obj]
    shape = []
    level = [obj]
    while True:
        if any(isinstance(x, (range, Tensor)) for x in level):
            level = [_norm(x) for x in level]
        first = level[0] if level else None
        if isinstance(first, ndarray):
            # arrays inside lists: their elements join the nesting
            if any(not isinstance(x, ndarray) or x.shape != first.shape for x in level):
                raise ValueError('setting an array element with a sequence. The requested array has an inhomogeneous shape after %d dimensions' % len(shape))
            dts = [x._dtype for x in level]
            flat = []
            for x in level:
                v = x.tolist()
                flat.extend(_flatten(v)[1] if x.ndim else [v])
            return shape + list(first.shape), [_Typed(v, dts) for v in flat]
        if not isinstance(first, (list, tuple)):
            for x in level:
                if isinstance(x, (list, tuple, ndarray)):
                    raise ValueError('setting an array element with a sequence. The requested array has an inhomogeneous shape after %d dimensions' % len(shape))
            return shape, level
        n = len(first)
        nxt = []
        for x in level:
            if not isinstance(x, (list, tuple)) or len(x) != n:
                raise ValueError('setting an array element with a sequence. The requested array has an inhomogeneous shape after %d dimensions' % len(shape))
            nxt.extend(x)
        shape.append(n)
        level = nxt
        if n == 0:
            return shape, []


class _Typed:
    """A leaf that came out of an ndarray inside a list: it keeps the array's dtype for inference."""
    __slots__ = ('v', 'dts')

    def __init__(self, v, dts):
        self.v, self.dts = v, dts


def _infer(flat):
    d = None
    for x in flat:
        if type(x) is _Typed:
            for dt in x.dts:
                d = dt if d is None else D.promote_types(d, dt)
            continue
        t = type(x)
        if t is float:
            dt = D.float64
        elif t is int:
            dt = D.int64
            if not -(1 << 63) <= x < (1 << 63):
                raise OverflowError('Python integer %d out of bounds for int64' % x)
        elif t is bool:
            dt = D.bool_
        elif isinstance(x, generic):
            dt = x._dtype
        elif t is complex:
            raise TypeError("complex numbers are not supported by Skiff's numpy")
        elif isinstance(x, str):
            raise TypeError("string arrays are not supported by Skiff's numpy (numeric dtypes only)")
        elif hasattr(x, '__float__'):
            dt = D.float64
        else:
            raise TypeError("Skiff's numpy cannot make an array of %s objects" % t.__name__)
        d = dt if d is None else D.promote_types(d, dt)
    return d or D.float64


def from_python(obj, d=None):
    """A new ndarray from nested lists / tuples / scalars; `d` forces the dtype."""
    shape, flat = _flatten(obj)
    if d is None:
        d = _infer(flat)
    vals = [x.v if type(x) is _Typed else x for x in flat]
    if d.kind == 'b':
        buf, src = bytes(bool(v) for v in vals), 'bool'
    elif d.kind == 'f':
        buf, src = _pyarray('d', [float(v) for v in vals]), 'float64'
    else:
        try:
            buf, src = _pyarray('q', [int(v) if not isinstance(v, float) or v == v else _nan_int(v) for v in vals]), 'int64'
        except OverflowError:
            raise OverflowError('Python integer out of bounds for %s' % d.name) from None
        if d.name != 'int64':
            # numpy 2 refuses out-of-range Python ints rather than wrapping them
            lo, hi = D.int_range(d)
            for v, x in zip(buf, vals):
                if type(x) is int and not lo <= v <= hi:
                    raise OverflowError('Python integer %d out of bounds for %s' % (v, d.name))
            buf = _pyarray('q', [D.coerce(v, d) for v in buf])
    t = _from_buffer(buf, src, shape, d.storage, True)
    return wrap(t, d)


def _nan_int(v):
    raise ValueError('cannot convert float NaN to integer')


def asarray(obj, dtype=None):
    """The ndarray for `obj` without copying when it already is one of the dtype asked for."""
    d = D._lookup(dtype) if dtype is not None else None
    if isinstance(obj, ndarray):
        return obj if d is None or d is obj._dtype else obj.astype(d)
    if isinstance(obj, Tensor):
        return from_tensor(obj, d)
    if isinstance(obj, generic):
        return from_python(obj.item(), d or obj._dtype)
    a = getattr(obj, '__array__', None)
    if a is not None and not isinstance(obj, (list, tuple)):
        r = a()
        if isinstance(r, ndarray):
            return asarray(r, d)
    return from_python(obj, d)


_PADDLE_TO_NP = {'float16': 'float16', 'float32': 'float32', 'float64': 'float64', 'int8': 'int8', 'int32': 'int32',
                 'int64': 'int64', 'uint8': 'uint8', 'bool': 'bool'}


def from_tensor(t, d=None, copy=True):
    """Tensor.numpy(): an ndarray holding a copy of the tensor's data (detached)."""
    name = _PADDLE_TO_NP.get(t.dtype.name)
    if name is None:
        raise TypeError('Tensor.numpy(): numpy has no %s dtype; cast the tensor first (e.g. x.astype("float32"))' % t.dtype.name)
    src = D.BY_NAME[name]
    a = wrap(t.clone() if copy else t.detach(), src)
    return a if d is None or d is src else a.astype(d)
