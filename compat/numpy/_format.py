"""repr()/str() of arrays and scalars in numpy's print format (default print options).

Facts reproduced (numpy's documented defaults): precision 8, floatmode 'maxprec' (each value
its shortest round-trip digits, at most 8 after the point, the column padded with spaces to the
widest fraction), scientific notation when the largest |value| >= 1e8 or the smallest non-zero
< 1e-4 or their ratio > 1e3, line width 75, arrays over 1000 elements summarised with '...' and
3 edge items, `dtype=` shown unless the dtype is float64, int64 or bool (always for empty arrays).
"""
import math
import struct
from decimal import Decimal

# np.set_printoptions edits these (see _misc.set_printoptions for the supported keys)
OPTIONS = {'precision': 8, 'threshold': 1000, 'edgeitems': 3, 'linewidth': 75, 'suppress': False}
_DEFAULT_DTYPES = ('float64', 'int64', 'bool')


def _shortest(x, d):
    """Shortest decimal digits that round-trip `x` in dtype d (a Python float)."""
    if d.itemsize == 8:
        return repr(x)
    for p in range(1, 18):
        s = '%.*g' % (p, x)
        if struct.unpack(d.char, struct.pack(d.char, float(s)))[0] == x:
            return repr(float(s))
    return repr(x)


def format_scalar(v, d):
    """str() of a numpy scalar: np.float32(0.1) -> '0.1', np.float64(2.0) -> '2.0'."""
    k = d.kind
    if k == 'b':
        return 'True' if v else 'False'
    if k != 'f':
        return str(v)
    if v != v:
        return 'nan'
    if v in (math.inf, -math.inf):
        return 'inf' if v > 0 else '-inf'
    return _shortest(v, d)


def _positional(x, d):
    """Positional digits, at most `precision` fractional (rounded), trailing zeros trimmed, '.' kept."""
    prec = OPTIONS['precision']
    s = _shortest(x, d)
    if 'e' in s or 'E' in s:
        s = format(Decimal(s), 'f')
    if '.' not in s:
        s += '.'
    ip, fp = s.split('.')
    fp = fp.rstrip('0')
    if len(fp) > prec:
        s = '%.*f' % (prec, x)
        ip, fp = s.split('.') if '.' in s else (s, '')
        fp = fp.rstrip('0')
    if ip in ('-0',) and x == 0 and not math.copysign(1, x) < 0:
        ip = '0'
    return ip, fp


def _scientific(x, d):
    """(int digit with sign, fraction digits, exponent string like '+09') at most `precision` fraction digits."""
    prec = OPTIONS['precision']
    s = _shortest(x, d)
    # shortest mantissa: drop trailing zeros of the exact shortest decimal
    digits = Decimal(s)
    sign = '-' if s.startswith('-') else ''
    t = digits.copy_abs().normalize()
    tup = t.as_tuple()
    ds = ''.join(map(str, tup.digits)).rstrip('0') or '0'
    exp = tup.exponent + len(tup.digits) - 1 if t != 0 else 0
    frac = ds[1:]
    if len(frac) > prec:
        m, e = ('%.*e' % (prec, x)).split('e')
        ip = m.lstrip('-')
        ip, fp = ip.split('.') if '.' in ip else (ip, '')
        fp = fp.rstrip('0')
        exp = int(e)
        return sign + ip, fp, _exp(exp)
    return sign + ds[0], frac, _exp(exp)


def _exp(e):
    return ('-' if e < 0 else '+') + ('%02d' % abs(e))


class _FloatFmt:
    def __init__(self, vals, d):
        self.d = d
        finite = [v for v in vals if v == v and v not in (math.inf, -math.inf)]
        nz = [abs(v) for v in finite if v != 0]
        small = not OPTIONS['suppress'] and bool(nz) and (min(nz) < 1e-4 or max(nz) / min(nz) > 1e3)
        self.exp = bool(nz) and (max(nz) >= 1e8 or small)
        if self.exp:
            parts = [_scientific(v, d) for v in finite]
            self.prec = max(len(p[1]) for p in parts)
            self.exp_size = max(len(p[2]) for p in parts)
            self.pad_left = max(len(p[0]) for p in parts)
            self.pad_right = self.exp_size + 2 + self.prec
        else:
            parts = [_positional(v, d) for v in finite]
            self.pad_left = max((len(p[0]) for p in parts), default=0)
            self.pad_right = max((len(p[1]) for p in parts), default=0)
        if len(finite) != len(vals):
            neg_inf = any(v == -math.inf for v in vals)
            off = self.pad_right + 1
            self.pad_left = max(self.pad_left, 3 - off, 3 + neg_inf - off)

    def __call__(self, v):
        if v != v or v in (math.inf, -math.inf):
            s = 'nan' if v != v else ('inf' if v > 0 else '-inf')
            return ' ' * (self.pad_left + self.pad_right + 1 - len(s)) + s
        if self.exp:
            ip, fp, e = _scientific(v, self.d)
            fp = fp + '0' * (self.prec - len(fp))
            e = e[0] + e[1:].rjust(self.exp_size - 1, '0')
            return ip.rjust(self.pad_left) + '.' + fp + 'e' + e
        ip, fp = _positional(v, self.d)
        return ip.rjust(self.pad_left) + '.' + fp.ljust(self.pad_right)


def _formatter(vals, d, zero_d):
    k = d.kind
    if k == 'b':
        t = 'True' if zero_d else ' True'
        return lambda v: t if v else 'False'
    if k == 'f':
        return _FloatFmt(vals, d)
    w = max((len(str(v)) for v in vals), default=0)
    return lambda v: str(v).rjust(w)


def _flat_shown(nested, ndim, summarize):
    """Values that will be printed (for the column format)."""
    if ndim == 0:
        return [nested]
    items = nested
    e = OPTIONS['edgeitems']
    if summarize and len(items) > 2 * e:
        items = items[:e] + items[-e:]
    if ndim == 1:
        return list(items)
    res = []
    for x in items:
        res.extend(_flat_shown(x, ndim - 1, summarize))
    return res


def _layout(nested, ndim, fmt, sep, indent, width, summarize):
    """The bracketed text of `nested` (ndim >= 1); `indent` starts continuation lines."""
    n = len(nested)
    e = OPTIONS['edgeitems']
    short = summarize and n > 2 * e
    idx = list(range(e)) + [None] + list(range(n - e, n)) if short else list(range(n))
    if ndim == 1:
        words = [fmt(nested[i]) if i is not None else '...' for i in idx]
        lines, line = [], indent
        limit = width - max(len(sep.rstrip()), 1)
        for j, w in enumerate(words):
            last = j == len(words) - 1
            if len(line) + len(w) > limit and len(line) > len(indent):
                lines.append(line.rstrip())
                line = indent
            line += w
            if not last:
                line += sep
        lines.append(line)
        body = '\n'.join(lines)
        return '[' + body[len(indent):] + ']'
    sub_indent = indent + ' '
    rows = []
    for i in idx:
        if i is None:
            rows.append('...')
        else:
            rows.append(_layout(nested[i], ndim - 1, fmt, sep, sub_indent, width - 1, summarize))
    joiner = sep.rstrip() + '\n' * (ndim - 1) + indent
    return '[' + joiner.join(rows) + ']'


def _text(a, sep, prefix_len, width):
    nested = a.tolist()
    summarize = a.size > OPTIONS['threshold']
    vals = _flat_shown(nested, a.ndim, summarize)
    fmt = _formatter(vals, a._dtype, a.ndim == 0)
    if a.ndim == 0:
        return fmt(nested)
    return _layout(nested, a.ndim, fmt, sep, ' ' * (prefix_len + 1), width, summarize)


def array_repr(a):
    d = a._dtype
    show_dtype = d.name not in _DEFAULT_DTYPES or a.size == 0
    if a.size == 0 and a.ndim > 0:
        body = '[]'
        extra = ', shape=%s' % (tuple(a.shape),) if a.shape != (0,) else ''
        return 'array(%s%s, dtype=%s)' % (body, extra, d.name)
    summarized = a.size > OPTIONS['threshold']
    show_extra = show_dtype or summarized
    suffix = ',' if show_extra else ')'
    body = _text(a, ', ', len('array('), OPTIONS['linewidth'] - len(suffix))
    s = 'array(' + body
    if not show_extra:
        return s + ')'
    parts = (['shape=%s' % (tuple(a.shape),)] if summarized else []) + (['dtype=%s' % d.name] if show_dtype else [])
    tail = ', '.join(parts) + ')'
    last = s.split('\n')[-1]
    if len(last) + 2 + len(tail) > OPTIONS['linewidth']:
        return s + ',\n' + ' ' * len('array(') + tail
    return s + ', ' + tail


def array_str(a):
    if a.ndim == 0:
        from ._scalars import scalar
        return str(scalar(a.item(), a._dtype))
    if a.size == 0:
        return '[]'
    return _text(a, ' ', 0, OPTIONS['linewidth'])
