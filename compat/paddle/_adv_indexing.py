"""Advanced tensor indexing with Paddle 2.6's rules: x[idx] / x[idx] = v where idx holds integer
tensors, lists of ints, bool masks (tensor or list), alone or mixed with ints, slices, None and
Ellipsis; plus paddle.nonzero(x, as_tuple) and paddle.static.setitem. The TS twin is
src/ops/adv_index.ts (keep them in step); _indexing.py sends any index with an advanced item here.

Rules (numpy's, with Paddle 2.6's treatment of ints):
  1. ints, slices and None are applied first as a basic view y (ints drop their dim);
  2. bool masks become their nonzero coordinates (one int index per dim they cover); all int
     indices broadcast together to B and are stacked into one gather_nd over y's advanced dims
     moved to the front (the result is a copy);
  3. B stays in front when the advanced items are separated by a slice or None, otherwise it
     goes where the first advanced item was.
Assignment builds the same region and writes it with index_put on y, then writes y back into x
with set_value_with_tensor, so gradients reach both x and the value.
"""
import operator
import re

from . import _ops


def _op(name):
    return _ops.function(name)


def _is_tensor(v):
    from .tensor import Tensor
    return isinstance(v, Tensor) or getattr(type(v), '_skiff_static', False)


def _is_advanced(it):
    return _is_tensor(it) or isinstance(it, list)


def has_advanced(index):
    items = index if isinstance(index, tuple) else (index,)
    return any(_is_advanced(i) for i in items)


def _first_leaf(v):
    while isinstance(v, (list, tuple)) and v:
        v = v[0]
    return None if isinstance(v, (list, tuple)) else v   # None: an empty list (an empty int index)


def _normalize(x, index):
    """[(kind, value, rank)] with the ellipsis expanded; kinds 'int', 'slice', 'new', 'adv'."""
    from .creation import to_tensor
    rank = len(x.shape)
    items = list(index) if isinstance(index, tuple) else [index]
    out = []
    for it in items:
        if it is Ellipsis:
            out.append(('ell', None, 0))
        elif it is None:
            out.append(('new', None, 0))
        elif isinstance(it, slice):
            out.append(('slice', it, 1))
        elif _is_tensor(it):
            name = it.dtype.name
            if name not in ('bool', 'int32', 'int64'):
                raise IndexError('tensors used as indices must be int32, int64 or bool, got %s' % name)
            out.append(('adv', it, len(it.shape) if name == 'bool' else 1))
        elif isinstance(it, list):
            leaf = _first_leaf(it)
            if isinstance(leaf, bool):
                t = to_tensor(it, dtype='bool')
                out.append(('adv', t, len(t.shape)))
            else:
                if leaf is not None and not isinstance(leaf, int):
                    raise IndexError('a list index must hold integers or booleans, got %r' % (leaf,))
                out.append(('adv', to_tensor(it, dtype='int64'), 1))
        elif isinstance(it, bool):
            raise IndexError('a bare boolean is not a valid index; use a bool tensor')
        else:
            try:
                out.append(('int', operator.index(it), 1))
            except TypeError:
                raise TypeError('only integers, slices, None, Ellipsis, lists and tensors are valid indices, got %r' % (it,)) from None
    if sum(1 for k, _, _ in out if k == 'ell') > 1:
        raise IndexError('an index can only have a single ellipsis (...)')
    n_real = sum(r for k, _, r in out if k in ('int', 'slice', 'adv'))
    if n_real > rank:
        raise IndexError('too many indices for tensor: tensor is %d-dimensional, but %d were indexed' % (rank, n_real))
    res = []
    for k, v, r in out:
        if k == 'ell':
            res.extend([('slice', slice(None), 1)] * (rank - n_real))
        else:
            res.append((k, v, r))
    return res


class _Plan:
    __slots__ = ('axes', 'starts', 'ends', 'steps', 'squeeze', 'insert', 'adv', 'y_new')

    def __init__(self):
        self.axes, self.starts, self.ends, self.steps, self.squeeze, self.insert, self.adv, self.y_new = [], [], [], [], [], [], [], []


def _plan(shape, items):
    p = _Plan()
    d = y = 0
    for k, v, r in items:
        if k == 'new':
            p.insert.append(y)
            p.y_new.append(y)
            y += 1
            continue
        if k == 'adv':
            if v.dtype.name == 'bool':
                ms = list(v.shape)
                if ms != list(shape[d:d + len(ms)]):
                    raise IndexError("boolean index of shape %s does not match the indexed tensor's dims %s at axis %d"
                                     % (ms, list(shape[d:d + len(ms)]), d))
            p.adv.append((v, r, d, y))
            d += r
            y += r
            continue
        n = shape[d]
        if k == 'int':
            if not -n <= v < n:
                raise IndexError('index %d is out of bounds for axis %d with size %d' % (v, d, n))
            i = v + n if v < 0 else v
            p.axes.append(d); p.starts.append(i); p.ends.append(i + 1); p.steps.append(1); p.squeeze.append(d)
            d += 1
            continue
        s, e, st = v.indices(n)
        if (s, e, st) != (0, n, 1):
            p.axes.append(d); p.starts.append(s); p.ends.append(e); p.steps.append(st)
        d += 1
        y += 1
    return p


def _basic_view(x, p, with_new):
    y = x
    if p.axes:
        if any(s != 1 for s in p.steps):
            y = _op('strided_slice')(y, p.axes, p.starts, p.ends, p.steps)
        else:
            y = _op('slice')(y, p.axes, p.starts, p.ends)
    if p.squeeze:
        y = _op('squeeze')(y, p.squeeze)
    if with_new and p.insert:
        y = _op('unsqueeze')(y, p.insert)
    return y


def _broadcast(shapes):
    out = []
    for s in shapes:
        s = list(s)
        n = max(len(out), len(s))
        a = [1] * (n - len(out)) + out
        b = [1] * (n - len(s)) + s
        r = []
        for da, db in zip(a, b):
            if da != db and da != 1 and db != 1:
                raise IndexError('shape mismatch: indexing tensors could not be broadcast together with shapes %s'
                                 % ' '.join(str(list(t)) for t in shapes))
            r.append(db if da == 1 else da)
        out = r
    return out


class _Gathered:
    __slots__ = ('index', 'perm', 'b', 'place', 'ncols', 'col_axis')


def _advanced_index(y, adv, y_axis_of, place_axes=None):
    cols, col_axis, axes = [], [], []
    for t, r, x_axis, y_axis in adv:
        ya = y_axis_of(y_axis)
        if t.dtype.name == 'bool':
            nz = _op('nonzero')(t)
            for j in range(r):
                cols.append(_op('squeeze')(_op('slice')(nz, [1], [j], [j + 1]), [1]))
                col_axis.append(x_axis + j)
                axes.append(ya + j)
        else:
            cols.append(t if t.dtype.name == 'int64' else _op('cast')(t, 'int64'))
            col_axis.append(x_axis)
            axes.append(ya)
    b = _broadcast([c.shape for c in cols])
    full = [c if list(c.shape) == b else _op('expand')(c, b) for c in cols]
    g = _Gathered()
    g.index = _op('stack')(full, -1)
    rest = [i for i in range(len(y.shape)) if i not in axes]
    pa = place_axes if place_axes is not None else axes
    adjacent = all(a == pa[i - 1] + 1 for i, a in enumerate(pa) if i)
    g.perm, g.b, g.place, g.ncols, g.col_axis = axes + rest, b, (pa[0] if adjacent else 0), len(cols), col_axis
    return g


def _identity(perm):
    return all(p == i for i, p in enumerate(perm))


def _inverse(perm):
    r = [0] * len(perm)
    for i, p in enumerate(perm):
        r[p] = i
    return r


def _move_front(rank, n, place):
    others = list(range(n, rank))
    return others[:place] + list(range(n)) + others[place:]


_KERNEL_RANGE = re.compile(r'value (-?\d+) is out of range for axis (\d+) with size (\d+)')


def _remap(e, g, shape):
    """Kernel index errors name the stacked column; users want their own axis."""
    m = _KERNEL_RANGE.search(str(e))
    if not m:
        return e
    j = int(m.group(2))
    axis = g.col_axis[j] if j < len(g.col_axis) else j
    return IndexError('index %s is out of bounds for axis %d with size %d' % (m.group(1), axis, shape[axis]))


def getitem(x, index):
    shape = list(x.shape)
    p = _plan(shape, _normalize(x, index))
    y = _basic_view(x, p, True)
    if not p.adv:
        return y
    t0, r0 = p.adv[0][0], p.adv[0][1]
    if len(p.adv) == 1 and t0.dtype.name == 'bool' and r0 == len(y.shape) and r0 > 0:
        return _op('masked_select')(y, t0)   # one mask over every dim of y: the 1-D result directly
    g = _advanced_index(y, p.adv, lambda a: a)
    yt = y if _identity(g.perm) else _op('transpose')(y, g.perm)
    try:
        out = _op('gather_nd')(yt, g.index)
    except IndexError as e:
        raise _remap(e, g, shape) from None
    if g.place > 0:
        out = _op('transpose')(out, _move_front(len(out.shape), len(g.b), g.place))
    return out


def _value(x, value):
    if _is_tensor(value):
        return value if value.dtype == x.dtype else value.astype(x.dtype)
    from .creation import to_tensor
    return to_tensor(value, dtype=x.dtype)


def _fit(v, want):
    vs = list(v.shape)
    if vs == want:
        return v
    lead = max(0, len(vs) - len(want))
    tail = vs[lead:]
    ok = all(d == 1 for d in vs[:lead]) and all(d == 1 or d == w for d, w in zip(tail, want[len(want) - len(tail):]))
    if not ok:
        raise ValueError('value of shape %s cannot be broadcast to the indexed shape %s' % (vs, want))
    if lead:
        v = _op('reshape')(v, tail)
    return _op('expand')(v, want)


def assign(x, index, value, inplace):
    """x[index] = value (inplace: written into x, which is returned) or its out-of-place result."""
    shape = list(x.shape)
    p = _plan(shape, _normalize(x, index))
    v0 = _value(x, value)
    fix = lambda v, j: -shape[p.axes[j]] - 1 if p.steps[j] < 0 and v < 0 else v   # noqa: E731  (set_value's "through index 0")
    args = ([fix(v, j) for j, v in enumerate(p.starts)], [fix(v, j) for j, v in enumerate(p.ends)], p.steps, p.axes, p.squeeze, [])
    set_value = _ops.inplace_function('set_value_with_tensor') if inplace else _op('set_value_with_tensor')
    y = _basic_view(x, p, False)

    def no_new(a):
        return a - sum(1 for n in p.y_new if n < a)
    adv_with_new = [ya + j for t, r, _, ya in p.adv for j in range(r if t.dtype.name == 'bool' else 1)]
    g = _advanced_index(y, p.adv, no_new, adv_with_new)
    total = len(y.shape) + len(p.y_new)
    rest = [('N' if i in p.y_new else no_new(i)) for i in range(total) if i not in adv_with_new]
    tags = ['B'] * len(g.b) + rest
    layout = [tags[i] for i in _move_front(len(tags), len(g.b), g.place)] if g.place > 0 else tags
    bi = iter(g.b)
    full = [1 if t == 'N' else next(bi) if t == 'B' else y.shape[t] for t in layout]
    region = [d for d, t in zip(full, layout) if t != 'N']
    place = sum(1 for t in layout[:layout.index('B')] if t != 'N') if 'B' in layout else 0
    v = _fit(v0, full)
    if len(region) != len(full):
        v = _op('reshape')(v, region)
    if place > 0 and g.b:
        v = _op('transpose')(v, _inverse(_move_front(len(region), len(g.b), place)))
    r = len(g.index.shape)
    cols = [_op('squeeze')(_op('slice')(g.index, [r - 1], [j], [j + 1]), [r - 1]) for j in range(g.ncols)]
    try:
        if _identity(g.perm) and y is x:
            put = _ops.inplace_function('index_put') if inplace else _op('index_put')
            return put(x, cols, v, False)
        yt = y if _identity(g.perm) else _op('transpose')(y, g.perm)
        out = _op('index_put')(yt, cols, v, False)
    except IndexError as e:
        raise _remap(e, g, shape) from None
    ynew = out if _identity(g.perm) else _op('transpose')(out, _inverse(g.perm))
    return set_value(x, ynew, *args)


def static_setitem(x, index, value):
    """paddle.static.setitem(x, index, value): x[index] = value out of place; returns the result."""
    if has_advanced(index):
        return assign(x, index, value, False)
    from ._indexing import _set_plan
    starts, ends, steps, axes, dec, none = _set_plan(x.shape, index)
    return _op('set_value_with_tensor')(x, _value(x, value), starts, ends, steps, axes, dec, none)


def nonzero(x, as_tuple=False, name=None):
    """paddle.nonzero: int64 [n, rank] coordinates; as_tuple gives rank tensors of shape [n, 1]."""
    out = _op('nonzero')(x)
    if not as_tuple:
        return out
    r = len(x.shape)
    if r <= 1:
        return (out,)
    return tuple(_op('slice')(out, [1], [j], [j + 1]) for j in range(r))


def install(root):
    """paddle.nonzero, Tensor.nonzero and paddle.static.setitem."""
    from .tensor import Tensor
    root.nonzero = nonzero
    if 'nonzero' not in Tensor.__dict__:
        Tensor.nonzero = nonzero
    static = getattr(root, 'static', None)
    if static is not None:
        static.setitem = static_setitem
