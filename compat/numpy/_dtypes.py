"""numpy dtypes and scalar types for Skiff's numpy subset.

A `dtype` names a numpy element type and the Skiff storage dtype holding it. Skiff's runtime
stores float16/32/64, int8/32/64, uint8 and bool natively. numpy's int16 and uint16 live in
int32 storage and uint32 in int64 storage; `wrap` (mask, sign bit) says how to bring a stored
value back into the dtype's range, which _array.fit applies after every operation that can
overflow (arithmetic, casts into the type, matmul), so results wrap exactly as numpy's do. The
storage's own integer arithmetic wraps modulo 2**32 / 2**64, which keeps the low 16/32 bits
exact. uint64 has no storage (its values exceed int64) and raises a TypeError naming it.

Scalar types (np.float32(1.5), np.int64(3)) subclass Python float/int so they work anywhere a
number does; their arithmetic keeps numpy's result dtype and rounds/wraps to it in Python.
"""
import struct

_UNSUPPORTED = ('complex64', 'complex128', 'longdouble', 'float128')


class dtype:
    """np.dtype('float32'), np.dtype(np.int64), np.dtype(float) -> dtype('float64')."""
    __slots__ = ('name', 'kind', 'itemsize', 'char', '_storage', 'type', 'str', 'wrap')
    _cache = {}
    _skiff_pure = True   # one immutable object per dtype, == a pure lookup: the translator computes with it

    def __new__(cls, spec=None, *args, **kwargs):
        return _lookup(spec)

    @property
    def storage(self):
        """The Skiff dtype holding this numpy dtype; TypeError for the ones Skiff cannot store."""
        if self._storage is None:
            _unsupported(self.name)
        return self._storage

    @property
    def num(self):
        return _NUM[self.name]

    @property
    def byteorder(self):
        return '|' if self.itemsize == 1 else '='

    @property
    def descr(self):
        return [('', self.str)]

    @property
    def alignment(self):
        return self.itemsize

    def __eq__(self, other):
        if isinstance(other, dtype):
            return other is self
        try:
            return _lookup(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "dtype('%s')" % self.name

    def __str__(self):
        return self.name


def _make(name, kind, itemsize, char, storage, wrap=None):
    d = object.__new__(dtype)
    d.name, d.kind, d.itemsize, d.char, d._storage, d.wrap = name, kind, itemsize, char, storage, wrap
    d.str = ('|' if itemsize == 1 else '<') + ('b' if kind == 'b' else kind) + str(itemsize)
    d.type = None
    return d


float16 = _make('float16', 'f', 2, 'e', 'float16')
float32 = _make('float32', 'f', 4, 'f', 'float32')
float64 = _make('float64', 'f', 8, 'd', 'float64')
int8 = _make('int8', 'i', 1, 'b', 'int8')
int32 = _make('int32', 'i', 4, 'i', 'int32')
int64 = _make('int64', 'i', 8, 'q', 'int64')
uint8 = _make('uint8', 'u', 1, 'B', 'uint8')
bool_ = _make('bool', 'b', 1, '?', 'bool')
# Stored wider, wrapped after each op that can leave the range: (mask, sign bit or 0).
int16 = _make('int16', 'i', 2, 'h', 'int32', (0xFFFF, 0x8000))
uint16 = _make('uint16', 'u', 2, 'H', 'int32', (0xFFFF, 0))
uint32 = _make('uint32', 'u', 4, 'I', 'int64', (0xFFFFFFFF, 0))
ALL = (bool_, int8, uint8, int16, uint16, int32, uint32, int64, float16, float32, float64)
# numpy's uint64 has no storage: it exists (np.dtype('uint64'), promotion results), but an array
# of one raises TypeError instead of silently holding wrong values above 2**63.
uint64 = _make('uint64', 'u', 8, 'Q', None)
BY_NAME = {d.name: d for d in ALL + (uint64,)}
_NUM = {'bool': 0, 'int8': 1, 'uint8': 2, 'int16': 3, 'uint16': 4, 'int32': 5, 'uint32': 6, 'int64': 7, 'uint64': 8,
        'float16': 23, 'float32': 11, 'float64': 12}
_ALIASES = {
    'f2': 'float16', 'f4': 'float32', 'f8': 'float64', 'e': 'float16', 'f': 'float32', 'd': 'float64',
    'i1': 'int8', 'i4': 'int32', 'i8': 'int64', 'b': 'int8', 'i': 'int32', 'l': 'int64', 'q': 'int64',
    'u1': 'uint8', 'B': 'uint8', 'b1': 'bool', '?': 'bool', 'bool_': 'bool', 'half': 'float16', 'single': 'float32',
    'double': 'float64', 'float': 'float64', 'int': 'int64', 'int_': 'int64', 'intp': 'int64', 'byte': 'int8', 'ubyte': 'uint8',
    'i2': 'int16', 'h': 'int16', 'short': 'int16', 'u2': 'uint16', 'H': 'uint16', 'ushort': 'uint16', 'u4': 'uint32',
    'I': 'uint32', 'uintc': 'uint32', 'intc': 'int32', 'u8': 'uint64', 'Q': 'uint64', 'uint': 'uint64', 'ulonglong': 'uint64',
    'c8': 'complex64', 'c16': 'complex128', 'complex': 'complex128',
}


def _lookup(spec):
    if isinstance(spec, dtype):
        return spec
    if spec is None:
        return float64
    if isinstance(spec, type):
        if spec is float:
            return float64
        if spec is int:
            return int64
        if spec is bool:
            return bool_
        d = getattr(spec, '_dtype', None)
        if d is not None:
            return d
        raise TypeError('Cannot interpret %r as a data type' % (spec,))
    d = getattr(spec, 'dtype', None)
    if isinstance(d, dtype):
        return d
    if isinstance(spec, str):
        s = spec
        if s[:1] in '<>=|' and len(s) > 1:
            if s[0] == '>' and s[-1] not in '1?':
                raise TypeError("data type %r: Skiff's numpy stores little-endian data only" % spec)
            s = s[1:]
        if s.startswith('numpy.'):
            s = s[6:]
        s = _ALIASES.get(s, s)
        r = BY_NAME.get(s)
        if r is not None:
            return r
        if s in _UNSUPPORTED:
            _unsupported(s)
    raise TypeError('data type %r not understood' % (spec,))


def _unsupported(name):
    raise TypeError("numpy dtype %s is not supported by Skiff's numpy (it stores float16/32/64, int8/16/32/64, "
                    "uint8/16/32 and bool)" % name)


def contains(src, d):
    """Whether every value of dtype `src` is a value of dtype `d` (a cast needs no wrapping)."""
    if src.kind == 'b':
        return True
    if src.kind == 'f' or d.kind not in 'iu':
        return d.kind == 'f' or src is d
    if src.kind == d.kind:
        return src.itemsize <= d.itemsize
    return src.kind == 'u' and d.itemsize > src.itemsize


def int_range(d):
    """(lowest, highest) value of an integer dtype."""
    bits = 8 * d.itemsize
    return (0, (1 << bits) - 1) if d.kind == 'u' else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


# --- promotion (numpy 2 rules, NEP 50) ------------------------------------------------------


def _int_of(kind, bits):
    return BY_NAME[('u' if kind == 'u' else '') + 'int%d' % bits]


def promote_types(a, b):
    """The smallest dtype both `a` and `b` convert to safely (numpy.promote_types)."""
    a, b = _lookup(a), _lookup(b)
    if a is b:
        return a
    if a.kind == 'b':
        return b
    if b.kind == 'b':
        return a
    if a.kind == 'f' and b.kind == 'f':
        return a if a.itemsize >= b.itemsize else b
    if a.kind == 'f' or b.kind == 'f':
        f, i = (a, b) if a.kind == 'f' else (b, a)
        # the float must hold every value of the integer: 8-bit ints fit float16, 16-bit float32
        need = 2 if i.itemsize == 1 else 4 if i.itemsize == 2 else 8
        return BY_NAME['float%d' % (8 * max(need, f.itemsize))]
    if a.kind == b.kind:
        return a if a.itemsize >= b.itemsize else b
    u, s = (a, b) if a.kind == 'u' else (b, a)
    if s.itemsize > u.itemsize:
        return s
    if u.itemsize >= 8:
        return float64
    return _int_of('i', 16 * u.itemsize)


def result_type(*items):
    """numpy.result_type with NEP 50 weak Python scalars (int, float, bool)."""
    strong = None
    weak = 0   # 1 bool, 2 int, 3 float
    for x in items:
        t = type(x)
        if t is bool:
            weak = max(weak, 1)
        elif t is int:
            weak = max(weak, 2)
        elif t is float:
            weak = max(weak, 3)
        elif t is complex:
            raise TypeError("complex numbers are not supported by Skiff's numpy")
        else:
            d = x if isinstance(x, dtype) else _lookup(x)
            strong = d if strong is None else promote_types(strong, d)
    if strong is None:
        return (bool_, bool_, int64, float64)[weak]
    if weak == 3 and strong.kind != 'f':
        return float64
    if weak == 2 and strong.kind == 'b':
        return int64
    return strong


def wider_stored(d):
    """A stored dtype holding every value of an unstored one (uint64) for comparisons."""
    return float64


def float_for(d):
    """The float dtype numpy computes exp/sqrt of `d` in: 8-bit ints and bool -> float16,
    16-bit ints -> float32, wider -> float64."""
    if d.kind == 'f':
        return d
    return float16 if d.itemsize == 1 else float32 if d.itemsize == 2 else float64


# --- value coercion ---------------------------------------------------------------------------
def coerce(value, d):
    """A Python number rounded/wrapped to dtype `d` (float32 rounding, integer wraparound)."""
    k = d.kind
    if k == 'b':
        return bool(value)
    if k == 'f':
        v = float(value)
        if d.itemsize == 8 or v != v:
            return v
        try:
            return struct.unpack(d.char, struct.pack(d.char, v))[0]
        except (OverflowError, struct.error):
            return float('inf') if v > 0 else float('-inf')
    v = int(value)
    bits = 8 * d.itemsize
    if k == 'u':
        return v % (1 << bits)
    half = 1 << (bits - 1)
    return (v + half) % (1 << bits) - half
