"""paddle.to_tensor and friends that build tensors from Python data.

Data crosses once: nested lists are flattened and packed into one `array` buffer in Python,
and the bridge copies that buffer into native memory (casting there if `dtype` asks for a
different type). Python's default dtypes are Paddle's: bool -> bool, int -> int64,
float -> the default float dtype (float32).
"""
from array import array

from . import _bridge
from .dtype import DTYPES, dtype_of, get_default_dtype
from .tensor import Tensor, _result

_FLOATS = {'f': 'float32', 'd': 'float64', 'e': 'float16', '?': 'bool', 'c': 'uint8'}
_SIGNED = {1: 'int8', 4: 'int32', 8: 'int64'}


def _buffer_dtype(mv):
    """dtype of a memoryview's elements (native byte order only), or None."""
    c = mv.format.lstrip('@=')
    if c in _FLOATS:
        return _FLOATS[c]
    if c in 'bhilq':
        return _SIGNED.get(mv.itemsize)
    if c in 'BHILQ':
        return 'uint8' if mv.itemsize == 1 else None
    return None


def _flatten(data):
    """(shape, flat values) of nested lists/tuples; tensors inside are read out."""
    shape = []
    level = [data]
    while True:
        first = level[0] if level else None
        if isinstance(first, Tensor):
            level = [x.tolist() if isinstance(x, Tensor) else x for x in level]
            first = level[0]
        if not isinstance(first, (list, tuple)):
            for x in level:
                if isinstance(x, (list, tuple)):
                    raise ValueError('to_tensor: ragged nested sequence: a list appears where a scalar was expected at depth %d' % len(shape))
            return shape, level
        n = len(first)
        nxt = []
        for x in level:
            if isinstance(x, Tensor):
                x = x.tolist()
            if not isinstance(x, (list, tuple)) or len(x) != n:
                got = 'a scalar' if not isinstance(x, (list, tuple)) else 'length %d' % len(x)
                raise ValueError('to_tensor: ragged nested sequence at depth %d: expected length %d, got %s' % (len(shape), n, got))
            nxt.extend(x)
        shape.append(n)
        level = nxt
        if n == 0:
            return shape, []


def _kind(flat):
    kinds = set(map(type, flat))
    if kinds <= {bool}:
        return 'bool'
    if kinds <= {bool, int}:
        return 'int64'
    if kinds <= {bool, int, float}:
        return 'float'
    for k in kinds:
        if k is complex:
            raise NotImplementedError('to_tensor: complex numbers are not supported by Skiff')
        if k not in (bool, int, float):
            if all(hasattr(x, '__float__') for x in flat):
                return 'float'
            raise TypeError('to_tensor: unsupported element type %s' % k.__name__)
    return 'float'


def _pack(flat, kind, target):
    """(buffer, dtype name of its elements)."""
    if kind == 'bool':
        return bytes(flat), 'bool'
    if kind == 'int64':
        try:
            return array('q', flat), 'int64'
        except OverflowError:
            raise ValueError('to_tensor: integer out of the int64 range') from None
    if target == 'float32':
        try:
            return array('f', flat), 'float32'
        except OverflowError:
            pass
    return array('d', [float(x) for x in flat] if not all(type(x) is float for x in flat) else flat), 'float64'


def _from_buffer(buf, dtype, shape, target, stop_gradient):
    return _result(_bridge.from_buffer(buf, dtype, ','.join(map(str, shape)), target, stop_gradient))


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """Creates a Tensor from Python data.

    >>> x = paddle.to_tensor([[1, 2], [3, 4]], dtype='float32')
    >>> paddle.to_tensor(3).shape
    []
    """
    target = dtype_of(dtype).name if dtype is not None else ''
    if hasattr(data, '_skiff_tensor'):
        # a numpy.ndarray of Skiff's numpy: one copy of its tensor, its dtype kept (float64 stays
        # float64, as Paddle does for numpy arrays)
        data = data._skiff_tensor()
    if isinstance(data, Tensor):
        t = _result(_bridge.copy(data._h, target))
        if not stop_gradient:
            t.stop_gradient = False
        return t
    if isinstance(data, (bytes, bytearray)):
        return _from_buffer(data, 'uint8', [len(data)], target, stop_gradient)
    if isinstance(data, (memoryview, array)):
        mv = memoryview(data)
        src = _buffer_dtype(mv)
        if src is None:
            raise TypeError('to_tensor: unsupported buffer format %r' % mv.format)
        shape = list(mv.shape) if mv.shape else []
        return _from_buffer(mv if mv.c_contiguous else mv.tobytes(), src, shape, target, stop_gradient)
    if isinstance(data, (list, tuple)):
        shape, flat = _flatten(data)
    elif isinstance(data, (bool, int, float)):
        shape, flat = [], [data]
    elif isinstance(data, complex):
        raise NotImplementedError('to_tensor: complex numbers are not supported by Skiff')
    elif hasattr(data, 'tolist'):
        return to_tensor(data.tolist(), dtype, place, stop_gradient)
    else:
        raise TypeError("to_tensor: can't convert %s to a Tensor" % type(data).__name__)
    kind = _kind(flat) if flat else 'float'
    natural = get_default_dtype() if kind == 'float' else kind
    buf, src = _pack(flat, kind, target or natural)
    return _from_buffer(buf, src, shape, target or natural, stop_gradient)


def is_tensor(x):
    """True for paddle.Tensor (and Parameters)."""
    return isinstance(x, Tensor)


def _fill(shape, value, dtype):
    from . import _ops
    full = _ops.public('full')
    if full is not None:
        return full(shape, value, dtype)
    shape = [shape] if isinstance(shape, int) else list(shape)
    n = 1
    for d in shape:
        n *= d
    return to_tensor(_reshape([value] * n, shape) if shape else value, dtype=dtype)


def _reshape(flat, shape):
    for d in reversed(shape[1:]):
        flat = [flat[i:i + d] for i in range(0, len(flat), d)]
    return flat


def _shape_list(shape):
    if isinstance(shape, Tensor):
        shape = shape.tolist()
    if isinstance(shape, int):
        return [shape]
    return [int(d) for d in shape]


def zeros(shape, dtype=None, name=None):
    return _fill(_shape_list(shape), 0, dtype_of(dtype or get_default_dtype()).name)


def ones(shape, dtype=None, name=None):
    return _fill(_shape_list(shape), 1, dtype_of(dtype or get_default_dtype()).name)


def full(shape, fill_value, dtype=None, name=None):
    if dtype is None:
        dtype = get_default_dtype()
    return _fill(_shape_list(shape), fill_value, dtype_of(dtype).name)


def empty(shape, dtype=None, name=None):
    """A tensor whose contents are unspecified (Paddle leaves them uninitialized); Skiff's are
    zeros, so code that reads them before writing stays deterministic."""
    return zeros(shape, dtype)


def empty_like(x, dtype=None, name=None):
    return zeros(x.shape, dtype or x.dtype)


def zeros_like(x, dtype=None, name=None):
    return zeros(x.shape, dtype or x.dtype)


def ones_like(x, dtype=None, name=None):
    return ones(x.shape, dtype or x.dtype)


def full_like(x, fill_value, dtype=None, name=None):
    return full(x.shape, fill_value, dtype or x.dtype)


DTYPE_NAMES = tuple(DTYPES)
