"""Paddle dtypes as objects: `paddle.float32 == 'float32'`, printed as `paddle.float32`."""


class DType:
    """A tensor element type. Compares equal to its name ('float32') and to 'paddle.float32'."""
    __slots__ = ('name', 'itemsize', 'fmt', 'kind')

    def __init__(self, name, itemsize, fmt, kind):
        self.name = name
        self.itemsize = itemsize
        self.fmt = fmt      # struct/memoryview format of the bytes the bridge sends for tolist()
        self.kind = kind    # 'f' floating, 'i' integer, 'b' bool

    def __eq__(self, other):
        if isinstance(other, DType):
            return other.name == self.name
        if isinstance(other, str):
            return other == self.name or other == 'paddle.' + self.name or _ALIASES.get(other) == self.name
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return 'paddle.' + self.name

    __str__ = __repr__

    @property
    def is_floating_point(self):
        return self.kind == 'f'

    def __reduce__(self):
        return (dtype_of, (self.name,))


float32 = DType('float32', 4, 'f', 'f')
float64 = DType('float64', 8, 'd', 'f')
float16 = DType('float16', 2, 'f', 'f')    # widened to float32 bytes by the bridge
bfloat16 = DType('bfloat16', 2, 'f', 'f')
int8 = DType('int8', 1, 'b', 'i')
uint8 = DType('uint8', 1, 'B', 'i')
int32 = DType('int32', 4, 'i', 'i')
int64 = DType('int64', 8, 'q', 'i')
bool_ = DType('bool', 1, '?', 'b')

DTYPES = {d.name: d for d in (float32, float64, float16, bfloat16, int8, uint8, int32, int64, bool_)}
_ALIASES = {'float': 'float32', 'double': 'float64', 'half': 'float16', 'int': 'int64', 'long': 'int64',
            'fp32': 'float32', 'fp64': 'float64', 'fp16': 'float16', 'bf16': 'bfloat16'}
# Python types as dtypes follow numpy, as Paddle does: float is float64.
_PYTYPES = {float: 'float64', int: 'int64', bool: 'bool'}


def dtype_of(d):
    """DType from a DType, a name ('float32', 'paddle.float32', 'float') or a Python type."""
    if isinstance(d, DType):
        return d
    if isinstance(d, str):
        name = d[7:] if d.startswith('paddle.') else d
        name = _ALIASES.get(name, name)
        r = DTYPES.get(name)
        if r is not None:
            return r
    elif isinstance(d, type) and d in _PYTYPES:
        return DTYPES[_PYTYPES[d]]
    raise TypeError("unknown dtype %r; expected one of %s" % (d, ', '.join(DTYPES)))


def dtype_name(d):
    return dtype_of(d).name


_default = [float32]


def get_default_dtype():
    """paddle.get_default_dtype() -> 'float32'."""
    return _default[0].name


def set_default_dtype(d):
    d = dtype_of(d)
    if d.kind != 'f':
        raise TypeError('set_default_dtype only supports floating dtypes, got %s' % d.name)
    _default[0] = d
