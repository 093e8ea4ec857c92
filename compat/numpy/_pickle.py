"""Pickling arrays the way numpy does, so pickles move between Skiff's numpy and real numpy.

numpy pickles an array as `numpy.core.multiarray._reconstruct(numpy.ndarray, (0,), b'b')`
followed by `__setstate__((1, shape, dtype, is_fortran, raw_bytes))`, a dtype as
`numpy.dtype('f4', False, True)` with state `(3, '<', ...)`, and a scalar as
`numpy.core.multiarray.scalar(dtype, raw_bytes)`. Skiff writes the same globals (numpy 1.x
names, which numpy 2 still reads) and reads both numpy 1.x and 2.x names (numpy._core).
"""
from . import _dtypes as D
from ._array import ndarray
from ._npyio import from_raw, raw_bytes


def _reconstruct(subtype, shape, dtype):
    """An empty shell that __setstate__ fills (numpy's protocol; shape and dtype come again there)."""
    if subtype is not ndarray:
        raise TypeError('_reconstruct: only numpy.ndarray can be rebuilt by Skiff, got %r' % (subtype,))
    a = object.__new__(ndarray)
    a._t, a._dtype, a._shape, a._base = None, None, None, None
    return a


def scalar(dtype, data=b''):
    """A numpy scalar from its dtype and raw bytes."""
    d = D._lookup(dtype)
    return from_raw(data, d.str, (), False, 'numpy scalar').item() if d.kind != 'b' else bool(data[:1] != b'\x00')


def ndarray_reduce(a):
    return (_reconstruct, (ndarray, (0,), b'b'), (1, tuple(a.shape), a.dtype, False, raw_bytes(a)))


def ndarray_setstate(a, state):
    if not isinstance(state, tuple) or len(state) not in (4, 5):
        raise ValueError('ndarray.__setstate__: expected (version, shape, dtype, is_fortran, data), got %r' % (type(state).__name__,))
    if len(state) == 5:
        state = state[1:]
    shape, dtype, fortran, data = state
    if not isinstance(dtype, D.dtype):
        raise TypeError('ndarray.__setstate__: dtype must be a numpy dtype, got %r' % (dtype,))
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("ndarray.__setstate__: object arrays are not supported by Skiff's numpy (data of type %s)" % type(data).__name__)
    r = from_raw(data, dtype.str, tuple(shape), bool(fortran), 'ndarray.__setstate__')
    a._t, a._dtype, a._shape, a._base = r._t, r._dtype, None, None


def dtype_reduce(d):
    order = '|' if d.itemsize == 1 else '<'
    return (D.dtype, (d.str[1:], False, True), (3, order, None, None, None, -1, -1, 0))


def dtype_setstate(d, state):
    """numpy's dtype state: (version, byteorder, ...). Skiff's dtypes are little-endian singletons."""
    if isinstance(state, tuple) and len(state) > 1 and state[1] == '>' and d.itemsize > 1:
        raise ValueError("dtype %s: big-endian data is not supported by Skiff's numpy" % d.name)


def install():
    ndarray.__module__ = 'numpy'
    D.dtype.__module__ = 'numpy'
    ndarray.__reduce__ = ndarray_reduce
    ndarray.__setstate__ = ndarray_setstate
    D.dtype.__reduce__ = dtype_reduce
    D.dtype.__setstate__ = dtype_setstate

