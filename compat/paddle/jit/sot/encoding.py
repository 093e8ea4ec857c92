"""The tagged text form of values crossing between Python and Skiff's translator.

Same grammar as frontend/python/sot/encoding.ts: one short string per crossing, no proxies,
and Python's types survive (2, 2.0 and True stay apart). Objects travel by id(); the objects
behind those ids are kept alive in `OBJECTS` while TypeScript may refer to them.
"""
from ...tensor import Tensor, _wrap
from ..._bridge import release as _release

class _Null:
    """CPython's NULL stack entry (beside callables); id 0 in the encoding."""
    __slots__ = ()

    def __repr__(self):
        return 'NULL'


NULL = _Null()
OBJECTS = {0: NULL}   # id -> object, for objects TypeScript refers to (pinned or seen in this call)
PINS = {0: 1}         # id -> pin count held by trace trees
# Tensors that crossed to or from TypeScript during the current (outermost) call, by handle.
# TypeScript uses them by handle without owning a reference, so they stay alive until the call
# ends; and a handle coming back from TypeScript is the same Python object it was, as in eager
# Python (identity, and a wrapper that a concrete step changed, e.g. by set_value).
BY_HANDLE = {}


def remember(o):
    i = id(o)
    OBJECTS[i] = o
    return i


def utf16_len(s):
    n = len(s)
    for ch in s:
        if ord(ch) > 0xFFFF:
            n += 1
    return n


def enc(v, out):
    t = type(v)
    if v is NULL:
        out.append('o0;')
    elif (t is Tensor or isinstance(v, Tensor)) and getattr(v, '_h', 0):
        BY_HANDLE[v._h] = v
        out.append('t%d;' % v._h)
    elif t is bool:
        out.append('b1' if v else 'b0')
    elif t is int:
        out.append('i%d;' % v)
    elif t is float:
        out.append('f%r;' % v)
    elif v is None:
        out.append('n')
    elif t is str:
        out.append('s%d:' % utf16_len(v))
        out.append(v)
    elif t is tuple:
        out.append('(')
        for x in v:
            enc(x, out)
        out.append(')')
    elif t is list:
        out.append('L%d;[' % remember(v))
        for x in v:
            enc(x, out)
        out.append(']')
    elif isinstance(v, dict) and all(type(k) in (int, str, bool, float) or k is None for k in v):
        out.append('D%d;{' % remember(v))
        for k, x in v.items():
            enc(k, out)
            enc(x, out)
        out.append('}')
    elif getattr(t, '_skiff_np', 0) and (parts := _np_parts(v)) is not None:
        # numpy values (compat/numpy) travel by id with what their guards read: a scalar's dtype
        # and value ('N' id ';' dtype ';' value), an array's dtype and storage tensor ('A' id ';'
        # dtype ';' tensor). frontend/python/sot/numpy_values.ts guards them by these, not by id.
        tag, d, inner = parts
        out.append('%s%d;%s;' % (tag, remember(v), d))
        enc(inner, out)
    else:
        out.append('o%d;' % remember(v))


def _np_parts(v):
    """(tag, dtype name, scalar value or storage tensor) of a numpy value; None for one that is
    not fully built yet (object.__new__(ndarray) inside numpy's own code, run by the translator)."""
    d = getattr(v, '_dtype', None)
    if d is None:
        return None
    if type(v)._skiff_np == 1:
        x = v.item()
        return ('N', d.name, x) if type(x) in (bool, int, float) else None
    t = getattr(v, '_t', None)
    return ('A', d.name, t) if isinstance(t, Tensor) and getattr(t, '_h', 0) else None


def encode(v):
    out = []
    enc(v, out)
    return ''.join(out)


def encode_many(vs):
    out = []
    for v in vs:
        enc(v, out)
    return ''.join(out)


class _Reader:
    __slots__ = ('s', 'i')

    def __init__(self, s):
        self.s = s
        self.i = 0

    def until(self, ch):
        j = self.s.index(ch, self.i)
        r = self.s[self.i:j]
        self.i = j + 1
        return r

    def read(self):
        s = self.s
        c = s[self.i]
        self.i += 1
        if c == 't':
            # A handle TypeScript registered for Python (one more reference): the Python object
            # that already has it, or a new one that now owns it.
            h = int(self.until(';'))
            o = BY_HANDLE.get(h)
            if o is not None and o._h == h:
                _release(h)
            else:
                o = BY_HANDLE[h] = _wrap(h)
            return o
        if c == 'i':
            return int(self.until(';'))
        if c == 'f':
            return float(self.until(';'))
        if c == 'b':
            v = s[self.i] == '1'
            self.i += 1
            return v
        if c == 'n':
            return None
        if c == 's':
            n = int(self.until(':'))
            # n counts UTF-16 units; walk code points until that many units are consumed
            j = self.i
            units = 0
            while units < n:
                units += 2 if ord(s[j]) > 0xFFFF else 1
                j += 1
            r = s[self.i:j]
            self.i = j
            return r
        if c == 'o':
            return OBJECTS[int(self.until(';'))]
        if c == '(':
            items = []
            while s[self.i] != ')':
                items.append(self.read())
            self.i += 1
            return tuple(items)
        if c == 'L':
            lst = OBJECTS[int(self.until(';'))]
            self._skip_body('[', ']')
            return lst
        if c == '[':
            items = []
            while s[self.i] != ']':
                items.append(self.read())
            self.i += 1
            return items
        if c == 'D':
            i = int(self.until(';'))
            if i:
                self._skip_body('{', '}')
                return OBJECTS[i]
            assert s[self.i] == '{'
            self.i += 1
            d = {}
            while s[self.i] != '}':
                k = self.read()
                d[k] = self.read()
            self.i += 1
            return d
        raise ValueError('sot encoding: bad tag %r at %d' % (c, self.i - 1))

    def _skip_body(self, open_, close):
        # The contents of a list/dict with identity are those of the real object; skip them
        # (values inside may still carry tensor handles that must be owned and released).
        assert self.s[self.i] == open_
        self.i += 1
        while self.s[self.i] != close:
            self.read()
        self.i += 1


def decode(s):
    r = _Reader(s)
    v = r.read()
    return v


def decode_many(s):
    r = _Reader(s)
    out = []
    while r.i < len(s):
        out.append(r.read())
    return out
