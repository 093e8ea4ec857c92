"""Tensor printing in Paddle's format:

    Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
           [[1., 2., 3.],
            [4., 5., 6.]])

Floats with an integral value print as `2.`, others with 8 decimals; every element of a tensor
is padded to one width (with a sign column when any element is negative); above 1000 elements
only the first and last 3 items of each dimension are shown.
"""
import math

PRINT_OPTIONS = {'precision': 8, 'threshold': 1000, 'edgeitems': 3, 'linewidth': 80, 'sci_mode': False}


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None):
    """paddle.set_printoptions."""
    for k, v in (('precision', precision), ('threshold', threshold), ('edgeitems', edgeitems),
                 ('sci_mode', sci_mode), ('linewidth', linewidth)):
        if v is not None:
            PRINT_OPTIONS[k] = v


def _item_str(v, floating):
    if not floating:
        return str(v)
    if PRINT_OPTIONS['sci_mode']:
        return '%.*e' % (PRINT_OPTIONS['precision'], v)
    if v != v:
        return 'nan'
    if math.isinf(v):
        return 'inf.' if v > 0 else '-inf.'
    if v == math.floor(v):
        return '%.0f.' % v
    return '%.*f' % (PRINT_OPTIONS['precision'], v)


def _pad(s, v, width, signed):
    if width <= len(s):
        return s
    if signed and not v < 0:
        return ' ' + s.ljust(width - 1)
    return s.ljust(width)


def _edges(seq, summary):
    e = PRINT_OPTIONS['edgeitems']
    if summary and len(seq) > 2 * e:
        return list(seq[:e]), list(seq[-e:])
    return list(seq), None


def _leaves(v, summary, out):
    """Elements that will be printed (edges only when summarizing)."""
    if not isinstance(v, list):
        out.append(v)
        return
    head, tail = _edges(v, summary)
    for x in head + (tail or []):
        _leaves(x, summary, out)


def _fmt(v, ndim, summary, indent, width, signed, floating):
    if ndim == 0:
        return _pad(_item_str(v, floating), v, width, signed)
    head, tail = _edges(v, summary)
    if ndim == 1:
        items = [_pad(_item_str(x, floating), x, width, signed) for x in head]
        if tail is not None:
            items += ['...'] + [_pad(_item_str(x, floating), x, width, signed) for x in tail]
        per_line = max(1, (PRINT_OPTIONS['linewidth'] - indent) // (width + 2))
        lines = [', '.join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return '[' + (',\n' + ' ' * (indent + 1)).join(lines) + ']'
    parts = [_fmt(x, ndim - 1, summary, indent + 1, width, signed, floating) for x in head]
    if tail is not None:
        parts += ['...'] + [_fmt(x, ndim - 1, summary, indent + 1, width, signed, floating) for x in tail]
    return '[' + (',' + '\n' * (ndim - 1) + ' ' * (indent + 1)).join(parts) + ']'


def format_data(t, indent):
    shape = t.shape
    data = t.tolist()
    n = 1
    for d in shape:
        n *= d
    summary = bool(shape) and n > PRINT_OPTIONS['threshold']
    floating = t.dtype.kind == 'f'
    leaves = []
    _leaves(data, summary, leaves)
    width = max((len(_item_str(x, floating)) for x in leaves), default=0)
    signed = any(x < 0 for x in leaves)
    return _fmt(data, len(shape), summary, indent, width, signed, floating)


def to_string(t, prefix='Tensor'):
    indent = len(prefix) + 1
    return '%s(shape=%s, dtype=%s, place=%s, stop_gradient=%s,\n%s%s)' % (
        prefix, t.shape, t.dtype.name, 'Place(cpu)', t.stop_gradient, ' ' * indent, format_data(t, indent))
