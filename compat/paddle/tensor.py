"""paddle.Tensor: a plain Python object holding an integer handle into Skiff's runtime.

Metadata (shape, dtype, stop_gradient) is fetched on first use and cached. Operators call the
bridge directly with handles and scalars (one crossing per op); their ops come from the
registry's table, so `x + y` runs the same `add` as `paddle.add` and the TypeScript API.
"""
import sys as _sys

from . import _bridge
from . import _table
from .dtype import DTYPES, DType, dtype_of

_un, _bin, _bins, _call = _bridge.un, _bridge.bin, _bridge.bins, _bridge.call
_meta, _raw, _item = _bridge.meta, _bridge.raw, _bridge.item
_error, _release = _bridge.error, _bridge.release
_new = object.__new__

INT, FLOAT, BOOL, REVERSED = 0, 1, 2, 4


def _wrap(h):
    t = _new(Tensor)
    t._h = h
    t._m = None
    return t


def _result(r, multi=None):
    """Tensor(s) for a bridge result: a handle, or 'h1,h2' for several outputs."""
    if type(r) is int:
        if r == 0:
            raise _error()
        return _wrap(r)
    if not r:
        raise _error()
    if r[0] == 'v':   # values of a paddle.static program being built
        from .static.variable import _variables
        return _variables(r, multi)
    outs = [_wrap(int(h)) for h in r.split(',')]
    if multi == 'unwrap' and len(outs) == 1:
        return outs[0]
    return outs if multi == 'list' else tuple(outs)



import enum as _enum


class VarType(_enum.IntEnum):
    """Paddle's VarDesc.VarType values Tensor.type reports."""
    LOD_TENSOR = 7

class Tensor:
    """A tensor in Skiff's native memory. Create with `paddle.to_tensor`."""
    __slots__ = ('_h', '_m', '_name', '__weakref__')

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True):
        self._h = 0
        self._m = None
        if data is not None:
            from .creation import to_tensor
            t = to_tensor(data, dtype=dtype, stop_gradient=stop_gradient)
            self._h, t._h = t._h, 0

    def __del__(self, _pending=_bridge._pending, _flush=_bridge.flush_frees, _free=_bridge.free):
        # inlined _bridge.release: this runs once per dropped tensor
        h = self._h
        if h > 0:
            _pending.append(h)
            if len(_pending) >= 64:
                _flush()
        elif h:
            _free(h)

    # --- metadata -------------------------------------------------------------------------
    def _load(self):
        s = _meta(self._h)
        if not s:
            raise _error()
        dt, sh, sg = s.split(';')
        m = [[int(d) for d in sh.split(',')] if sh else [], DTYPES[dt], sg == '1']
        self._m = m
        return m

    @property
    def shape(self):
        """The shape as a list of ints (a new list each time)."""
        return list((self._m or self._load())[0])

    @property
    def dtype(self):
        return (self._m or self._load())[1]

    @property
    def ndim(self):
        return len((self._m or self._load())[0])

    def dim(self):
        return self.ndim

    ndimension = dim

    @property
    def size(self):
        """Number of elements (an int, as in Paddle)."""
        n = 1
        for d in (self._m or self._load())[0]:
            n *= d
        return n

    @property
    def place(self):
        from .framework import CPUPlace
        return CPUPlace()

    @property
    def stop_gradient(self):
        return (self._m or self._load())[2]

    @stop_gradient.setter
    def stop_gradient(self, v):
        m = self._m or self._load()
        v = bool(v)
        if m[2] != v:
            if not _bridge.set_stop_gradient(self._h, v):
                raise _error()
            m[2] = v

    @property
    def name(self):
        try:
            return self._name
        except AttributeError:
            return 'generated_tensor_%d' % abs(self._h)

    @name.setter
    def name(self, v):
        self._name = v

    @property
    def is_leaf(self):
        """True for tensors no recorded op produced (and for every stop_gradient=True tensor)."""
        from .autograd import is_leaf
        return is_leaf(self)

    @property
    def grad(self):
        """The accumulated gradient (leaves, or non-leaves after retain_grads()), else None."""
        from .autograd import tensor_grad
        return tensor_grad(self)

    @property
    def persistable(self):
        return False

    @property
    def T(self):
        from . import _ops
        n = self.ndim
        return _ops.function('transpose')(self, list(range(n - 1, -1, -1)))

    @property
    def mT(self):
        """The last two dims swapped (a batch of matrices transposed)."""
        from . import _ops
        n = self.ndim
        if n < 2:
            raise ValueError('Tensor.mT: the tensor must have at least 2 dims, got shape %s' % (self.shape,))
        return _ops.function('transpose')(self, list(range(n - 2)) + [n - 1, n - 2])

    @property
    def type(self):
        """The variable type (Paddle 2.6: VarType.LOD_TENSOR for every dense tensor)."""
        return VarType.LOD_TENSOR

    def is_tensor(self):
        return True

    def rank(self):
        """The number of dims as a 0-D int32 tensor (paddle.rank)."""
        from .creation import to_tensor
        return to_tensor(self.ndim, dtype='int32')

    def numel(self):
        from .creation import to_tensor
        return to_tensor(self.size, dtype='int64')

    def is_floating_point(self):
        return self.dtype.kind == 'f'

    # --- data out ---------------------------------------------------------------------------
    def tolist(self):
        """Nested Python lists (a Python scalar for a 0-dim tensor); one copy of the data."""
        m = self._m or self._load()
        b = _raw(self._h)
        if type(b) is int:
            raise _error()
        flat = memoryview(b.to_bytes()).cast(m[1].fmt).tolist()
        return _nest(flat, m[0])

    def item(self, *args):
        """The value of a one-element tensor, or of the element at a flat or full index."""
        m = self._m or self._load()
        shape = m[0]
        n = 1
        for d in shape:
            n *= d
        if not args:
            if n != 1:
                raise ValueError('item(): only a tensor with one element can be converted to a Python scalar, got shape %s' % shape)
            flat = 0
        elif len(args) == 1:
            flat = args[0]
            if flat < 0:
                flat += n
            if not 0 <= flat < n:
                raise IndexError('item(): index %d is out of range for %d elements' % (args[0], n))
        else:
            if len(args) != len(shape):
                raise IndexError('item(): %d indices for a tensor of rank %d' % (len(args), len(shape)))
            flat = 0
            for i, (a, d) in enumerate(zip(args, shape)):
                if a < 0:
                    a += d
                if not 0 <= a < d:
                    raise IndexError('item(): index %d is out of range for dim %d of size %d' % (args[i], i, d))
                flat = flat * d + a
        v = _item(self._h, flat)
        if v is None:
            raise _error()
        kind = m[1].kind
        if kind == 'f':
            return float(v)
        if kind == 'b':
            return bool(v)
        return int(v)

    def numpy(self):
        """A numpy.ndarray holding a copy of the data (Skiff's numpy, compat/numpy)."""
        from numpy._array import from_tensor
        return from_tensor(self)

    def __array__(self, *a, **k):
        return self.numpy()

    def __float__(self):
        return float(self._scalar('float'))

    def __int__(self):
        return int(self._scalar('int'))

    def __index__(self):
        if self.dtype.kind != 'i':
            raise TypeError('only integer tensors of a single element can be converted to an index, got %s' % self.dtype.name)
        return int(self._scalar('index'))

    def __bool__(self):
        return bool(self._scalar('bool'))

    def _scalar(self, what):
        if self.size != 1:
            raise ValueError('%s(): only a tensor with one element can be converted to a Python scalar, got shape %s' % (what, self.shape))
        return self.item()

    def __len__(self):
        shape = (self._m or self._load())[0]
        if not shape:
            raise TypeError('len() of a 0-D tensor')
        return shape[0]

    def __iter__(self):
        shape = (self._m or self._load())[0]
        if not shape:
            raise TypeError('iteration over a 0-D tensor')
        for i in range(shape[0]):
            yield self[i]

    def __repr__(self):
        from ._format import to_string
        return to_string(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(repr(self), spec)

    __hash__ = object.__hash__

    # --- copies -----------------------------------------------------------------------------
    def detach(self):
        """A tensor sharing this one's storage, with stop_gradient=True."""
        return _result(_bridge.detach(self._h))

    def clone(self):
        return _result(_bridge.copy(self._h, ''))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        t = self.clone()
        t.stop_gradient = self.stop_gradient
        return t

    def cpu(self):
        return self

    def cuda(self, *a, **k):
        raise RuntimeError('Skiff runs on the CPU only; Tensor.cuda() is not available')

    def to(self, *args, **kwargs):
        """Tensor.to(device) / to(dtype) / to(device, dtype): CPU only, dtype converts."""
        dtype = kwargs.get('dtype')
        for a in args:
            if isinstance(a, (DType, type)) or (isinstance(a, str) and a not in ('cpu', 'CPU') and not a.startswith('cpu')):
                dtype = a
        return self.astype(dtype) if dtype is not None and dtype_of(dtype) != self.dtype else self

    def astype(self, dtype):
        return _result(_bridge.copy(self._h, dtype_of(dtype).name)) if _table.op_id('cast') < 0 else _cast(self, dtype)

    # --- autograd (paddle/autograd.py) ------------------------------------------------------
    def backward(self, grad_tensor=None, retain_graph=False):
        """Accumulates gradients of this tensor into the .grad of every leaf it depends on."""
        from .autograd import tensor_backward
        tensor_backward(self, grad_tensor, retain_graph)

    def register_hook(self, hook):
        """hook(grad) runs when this tensor's gradient is computed; it may return a replacement."""
        from .autograd import register_hook
        return register_hook(self, hook)

    def retain_grads(self):
        from .autograd import retain_grads
        retain_grads(self)

    def clear_grad(self, set_to_zero=True):
        """Zeroes .grad in place (Paddle 2.6's default), or drops it with set_to_zero=False."""
        from .autograd import clear_grad
        clear_grad(self, set_to_zero)

    clear_gradient = clear_grad

    def set_value(self, value):
        """Copies `value` (a Tensor, nested lists or a scalar of the same shape) into this tensor's
        storage, as Paddle does: the tensor keeps its identity (optimizers, layers and captured
        graphs holding it see the new data) and views of it see the write. Not recorded by autograd."""
        from .creation import to_tensor
        from .autograd import no_grad
        t = value if isinstance(value, Tensor) else to_tensor(value, dtype=self.dtype)
        if t.shape != self.shape:
            raise ValueError('set_value: shape %s does not match the tensor shape %s' % (t.shape, self.shape))
        with no_grad():
            self[...] = t
        return self

    # --- indexing (paddle/_indexing.py) ------------------------------------------------------
    def __getitem__(self, index):
        from ._indexing import getitem
        return getitem(self, index)

    def __setitem__(self, index, value):
        from ._indexing import setitem
        setitem(self, index, value)

    def fill_(self, value):
        """Sets every element to `value`, in place; returns self."""
        self[...] = value
        return self

    def zero_(self):
        """Sets every element to 0, in place; returns self."""
        self[...] = 0
        return self


def _cast(x, dtype):
    r = _call(_table.op_id('cast'), 'ts', x._h, dtype_of(dtype).name)
    return _result(r)


def _nest(flat, shape):
    if not shape:
        return flat[0]
    if 0 in shape:
        def empty(d):
            return [] if shape[d] == 0 else [empty(d + 1) for _ in range(shape[d])]
        return empty(0)
    for d in reversed(shape[1:]):
        flat = [flat[i:i + d] for i in range(0, len(flat), d)]
    return flat


# --- operators ------------------------------------------------------------------------------
def _binary_ids(names):
    """(op for a tensor operand, op for a scalar operand, scalar passed as attribute?)."""
    t_op = s_op = -1
    s_attr = False
    for n in names:
        e = _table.entry(n)
        if e is None:
            continue
        ins = e['inputs']
        if len(ins) == 2 and not any(i.get('variadic') for i in ins):
            if t_op < 0:
                t_op = e['id']
            if s_op < 0:
                s_op = e['id']
        elif len(ins) == 1 and e['attrs'] and s_op < 0:
            s_op, s_attr = e['id'], True
    return t_op, s_op, s_attr


def _numpy_scalar(y):
    """The Python bool/int/float a numpy scalar holds, or None for anything else. numpy is only
    looked up when already imported: without it there are no numpy scalars."""
    np = _sys.modules.get('numpy')
    g = getattr(np, 'generic', None)
    if g is None or not isinstance(y, g):
        return None
    v = y.item()
    return v if type(v) in (bool, int, float) else None


def _make_binary(dunder, names, reflected, true_div=False):
    t_op, s_op, s_attr = _binary_ids(names)
    s_code = s_op * 8 + (REVERSED if reflected else 0)   # bins packs op id and operand kind
    new, T = _new, Tensor

    def op(self, y):
        # the hot path of eager Python: one crossing, then a bare Tensor around the handle
        if isinstance(y, T):
            if t_op < 0:
                return NotImplemented
            r = _bin(t_op, y._h, self._h) if reflected else _bin(t_op, self._h, y._h)
        else:
            t = type(y)
            if t is int:
                kind = INT
            elif t is float:
                kind = FLOAT
            elif t is bool:
                kind = BOOL
            else:
                # a numpy scalar (np.int64(2), np.float32(1.5), np.True_) is the Python number it
                # holds, as Paddle treats it; anything else is left to the other operand
                y = _numpy_scalar(y)
                if y is None:
                    return NotImplemented
                t = type(y)
                kind = BOOL if t is bool else INT if t is int else FLOAT
            if s_op < 0:
                return NotImplemented
            if s_attr:
                if reflected:
                    return NotImplemented
                r = _call(s_op, 'tf', self._h, float(y))
            else:
                r = _bins(s_code | kind, self._h, y)
        if type(r) is int and r:
            out = new(T)
            out._h = r
            out._m = None
            return out
        return _result(r)

    if true_div:
        # Paddle's `/` is true division: integer and bool operands become float32 first
        def div(self, y):
            if self.dtype.kind != 'f':
                self = _cast(self, 'float32')
            if isinstance(y, T) and y.dtype.kind != 'f':
                y = _cast(y, 'float32')
            return op(self, y)
        div.__name__ = dunder
        div.__qualname__ = 'Tensor.' + dunder
        return div
    op.__name__ = dunder
    op.__qualname__ = 'Tensor.' + dunder
    return op


_BINARY = [
    ('add', ('add',), False),
    ('sub', ('subtract',), False),
    ('mul', ('multiply',), False),
    ('truediv', ('divide',), True),
    ('floordiv', ('floor_divide',), False),
    ('mod', ('remainder', 'mod', 'floor_mod'), False),
    ('pow', ('elementwise_pow', 'pow'), False),
    ('matmul', ('matmul',), False),
]
for _name, _ops_names, _tdiv in _BINARY:
    setattr(Tensor, '__%s__' % _name, _make_binary('__%s__' % _name, _ops_names, False, _tdiv))
    setattr(Tensor, '__r%s__' % _name, _make_binary('__r%s__' % _name, _ops_names, True, _tdiv))

for _dunder, _opname in (('eq', 'equal'), ('ne', 'not_equal'), ('lt', 'less_than'), ('le', 'less_equal'),
                         ('gt', 'greater_than'), ('ge', 'greater_equal')):
    setattr(Tensor, '__%s__' % _dunder, _make_binary('__%s__' % _dunder, (_opname,), False))
Tensor.__hash__ = object.__hash__


def _make_unary(dunder, names, fallback=None):
    op_id = _table.op_id(*names)

    def op(self):
        if op_id < 0:
            if fallback is not None:
                return fallback(self)
            raise TypeError("bad operand type for %s: Skiff's registry has no op %s" % (dunder, ' or '.join(names)))
        return _result(_un(op_id, self._h))
    op.__name__ = dunder
    return op


Tensor.__neg__ = _make_unary('unary -', ('neg', 'negative'), lambda x: x * -1 if x.dtype.kind != 'b' else _no_neg())
Tensor.__abs__ = _make_unary('abs()', ('abs',))
Tensor.__pos__ = lambda self: self


def _make_bitwise(dunder, bitwise, logical, reflected):
    """& | ^ ~: the bitwise op when registered; otherwise the logical one, for bool tensors only
    (it would give wrong answers on integers)."""
    b_op = _make_binary(dunder, (bitwise,), reflected) if _table.op_id(bitwise) >= 0 else None
    l_op = _make_binary(dunder, (logical,), reflected) if logical and _table.op_id(logical) >= 0 else None

    def op(self, y):
        if b_op is not None:
            return b_op(self, y)
        if l_op is not None and self.dtype.kind == 'b' and (type(y) is bool or (isinstance(y, Tensor) and y.dtype.kind == 'b')):
            return l_op(self, y)
        if not isinstance(y, (Tensor, bool, int)):
            return NotImplemented
        raise TypeError("%s on %s tensors needs the op '%s', which Skiff's registry does not have yet" % (dunder, self.dtype.name, bitwise))
    op.__name__ = dunder
    return op


for _name, _logical in (('and', 'logical_and'), ('or', 'logical_or'), ('xor', 'logical_xor')):
    setattr(Tensor, '__%s__' % _name, _make_bitwise('__%s__' % _name, 'bitwise_' + _name, _logical, False))
    setattr(Tensor, '__r%s__' % _name, _make_bitwise('__r%s__' % _name, 'bitwise_' + _name, _logical, True))


def _invert(self):
    if _table.op_id('bitwise_not') >= 0:
        return _result(_un(_table.op_id('bitwise_not'), self._h))
    if self.dtype.kind == 'b' and _table.op_id('logical_not') >= 0:
        return _result(_un(_table.op_id('logical_not'), self._h))
    raise TypeError("~ on %s tensors needs the op 'bitwise_not', which Skiff's registry does not have yet" % self.dtype.name)


Tensor.__invert__ = _invert


def _no_neg():
    raise TypeError('unary - is not supported for bool tensors')
