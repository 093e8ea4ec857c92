"""ndarray indexing with numpy's rules.

Basic indices (ints, slices, None, ...) give views built from the registry's view ops
(strided_slice, squeeze, unsqueeze), so writes through them reach the array. Advanced indices
(integer arrays, bool masks) give copies: bool masks become their nonzero() integer arrays,
the indexed axes are merged into one and read with one index_select, and the result dims go
where numpy puts them (in place when the advanced indices are adjacent, first otherwise).
Writes run the registry's inplace set_value_with_tensor; advanced-index writes other than a
full-shape mask are done through the flat positions in Python (correct, slower).
"""
import operator

from paddle import _ops
from paddle.tensor import Tensor

from . import _dtypes as D
from ._array import F, asarray, from_python, ndarray, reshape_t, scalar0, wrap


def _is_adv(it):
    return isinstance(it, (ndarray, list, Tensor)) or (isinstance(it, tuple))


def _items(index):
    return list(index) if isinstance(index, tuple) else [index]


def _expand(items, rank):
    """Index items with the Ellipsis replaced by full slices (bool masks count their dims)."""
    n_ell = sum(1 for i in items if i is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = 0
    for it in items:
        if it is None or it is Ellipsis:
            continue
        used += it.ndim if isinstance(it, ndarray) and it._dtype.kind == 'b' else 1
    if used > rank:
        raise IndexError('too many indices for array: array is %d-dimensional, but %d were indexed' % (rank, used))
    if n_ell:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (rank - used)
    return items


def _norm_index(i, n, axis):
    if not -n <= i < n:
        raise IndexError('index %d is out of bounds for axis %d with size %d' % (i, axis, n))
    return i + n if i < 0 else i


def _basic(a, items):
    """(view, all_int): the view for basic items (no arrays)."""
    shape = a.shape
    axes, starts, ends, steps, squeeze, insert = [], [], [], [], [], []
    d = outd = 0
    all_int = True
    for it in items:
        if it is None:
            insert.append(outd)
            outd += 1
            all_int = False
            continue
        if isinstance(it, slice):
            n = shape[d]
            # slice.indices gives stop -1 for "through index 0" with a negative step, which is
            # also what strided_slice means by it
            start, stop, step = it.indices(n)
            if len(range(start, stop, step)) == 0:
                stop = start   # an empty selection: strided_slice rejects crossed bounds
            if (start, stop, step) != (0, n, 1):
                axes.append(d)
                starts.append(start)
                ends.append(stop)
                steps.append(step)
            d += 1
            outd += 1
            all_int = False
            continue
        if type(it) is bool or type(it).__name__ == 'bool_':
            raise IndexError("Skiff's numpy does not support a bare True/False index")
        try:
            i = operator.index(it)
        except TypeError:
            raise IndexError('only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices') from None
        i = _norm_index(i, shape[d], d)
        axes.append(d)
        starts.append(i)
        ends.append(i + 1)
        steps.append(1)
        squeeze.append(d)
        d += 1
    all_int = all_int and d == len(shape)
    t = a._t
    if axes:
        t = F['strided_slice'](t, axes, starts, ends, steps)
    if squeeze:
        t = F['squeeze'](t, squeeze)
    if insert:
        t = F['unsqueeze'](t, insert)
    if t is a._t:
        t = t.detach()
    return t, all_int and not insert


def getitem(a, index):
    items = _items(index)
    if not any(_is_adv(i) for i in items):
        ellipsis = any(i is Ellipsis for i in items)   # a[...] of a 0-d array stays an array
        t, all_int = _basic(a, _expand(items, a.ndim))
        if all_int and not ellipsis:
            return scalar0(t, a._dtype)
        return wrap(t, a._dtype, a._base if a._base is not None else a)
    return _advanced(a, items)


def _index_arrays(a, items):
    """(items with arrays as int64 ndarrays / 0-d for ints, list of advanced axis numbers)."""
    conv = []
    for it in items:
        if isinstance(it, (list, tuple, Tensor)) or (isinstance(it, ndarray)):
            arr = asarray(it) if not isinstance(it, ndarray) else it
            if isinstance(it, list) and arr.size == 0:
                arr = arr.astype(D.int64)
            conv.append(arr)
        else:
            conv.append(it)
    conv = _expand(conv, a.ndim)
    out = []
    for it in conv:
        if isinstance(it, ndarray) and it._dtype.kind == 'b':
            from ._sort import nonzero
            out.extend(nonzero(it) if it.ndim else [_bool0(it)])
        else:
            out.append(it)
    if any(i is None for i in out):
        raise NotImplementedError("Skiff's numpy does not support None (np.newaxis) mixed with array indices")
    for it in out:
        if isinstance(it, ndarray) and it._dtype.kind not in 'iu':
            raise IndexError('arrays used as indices must be of integer (or boolean) type')
    return out


def _bool0(it):
    raise NotImplementedError("Skiff's numpy does not support a 0-d boolean array as an index")


def _advanced(a, items):
    from ._manip import broadcast_shapes, transpose, where
    from ._ufuncs import add, multiply, less
    items = _index_arrays(a, items)
    adv = [k for k, it in enumerate(items) if isinstance(it, ndarray) or not isinstance(it, slice)]
    # apply the slices first; advanced axes stay whole
    pre = [it if k not in adv else slice(None) for k, it in enumerate(items)]
    pre += [slice(None)] * (a.ndim - len(pre))
    t, _ = _basic(a, pre)
    b = wrap(t, a._dtype)
    shape = list(b.shape)
    idx = []
    for k in adv:
        it = items[k]
        n = shape[k]
        if isinstance(it, ndarray):
            arr = it.astype(D.int64) if it._dtype is not D.int64 else it
            if arr.size:
                lo, hi = int(arr.min()), int(arr.max())
                if lo < -n or hi >= n:
                    bad = lo if lo < -n else hi
                    raise IndexError('index %d is out of bounds for axis %d with size %d' % (bad, k, n))
                if lo < 0:
                    arr = where(less(arr, 0), add(arr, n), arr)
            idx.append(asarray(arr))
        else:
            idx.append(from_python(_norm_index(operator.index(it), n, k), D.int64))
    bshape = list(broadcast_shapes(*[x.shape for x in idx]))
    adjacent = adv == list(range(adv[0], adv[0] + len(adv)))
    p = adv[0] if adjacent else 0
    if not adjacent:
        perm = adv + [k for k in range(len(shape)) if k not in adv]
        b = transpose(b, perm)
        shape = list(b.shape)
    k = len(adv)
    sizes = shape[p:p + k]
    linear = None
    stride = 1
    for x, n in zip(reversed(idx), reversed(sizes)):
        term = x if stride == 1 else multiply(x, stride)
        linear = term if linear is None else add(linear, term)
        stride *= n
    linear = asarray(linear)
    total = stride
    rest = shape[p + k:]
    merged = reshape_t(b._t, shape[:p] + [total] + rest)
    if 0 in sizes and linear.size:
        raise IndexError('index 0 is out of bounds for axis %d with size 0' % p)
    lin = reshape_t(linear._t, [-1]) if linear.ndim != 1 else linear._t
    r = F['index_select'](merged, lin, p) if linear.size else None
    out_shape = shape[:p] + bshape + rest
    if r is None:
        from ._create import empty
        return empty(out_shape, a._dtype)
    return wrap(reshape_t(r, out_shape), a._dtype)


# --- writes -------------------------------------------------------------------------------------
def _value_tensor(a, value):
    if type(value) is int and a._dtype.kind in 'iu':
        lo, hi = D.int_range(a._dtype)
        if not lo <= value <= hi:   # numpy 2 refuses an out-of-range Python int instead of wrapping it
            raise OverflowError('Python integer %d out of bounds for %s' % (value, a._dtype.name))
    v = value if isinstance(value, ndarray) else asarray(value)
    if v._dtype is not a._dtype:
        v = v.astype(a._dtype)
    return v._t


def assign_all(a, value):
    """a[...] = value, in place (a may be a view: its base sees the write)."""
    _set_value(a._t, _value_tensor(a, value), [], [], [], [], [], [])


def _set_value(t, v, starts, ends, steps, axes, dec, none):
    _ops.inplace_function('set_value_with_tensor')(t, v, starts, ends, steps, axes, dec, none)


def setitem(a, index, value):
    items = _items(index)
    if any(_is_adv(i) for i in items):
        return _set_advanced(a, items, value)
    # the basic index as set_value attributes: the same plan paddle's Tensor.__setitem__ uses
    from paddle._indexing import _set_plan
    starts, ends, steps, axes, dec, none = _set_plan(a.shape, tuple(_expand(items, a.ndim)))
    _set_value(a._t, _value_tensor(a, value), starts, ends, steps, axes, dec, none)


def _set_advanced(a, items, value):
    from ._create import arange
    from ._manip import broadcast_to
    if len(items) == 1 and isinstance(items[0], ndarray) and items[0]._dtype.kind == 'b' and items[0].shape == a.shape:
        v = asarray(value)
        if v.ndim == 0:
            # a[mask] = scalar: one where over the whole array
            vt = _value_tensor(a, value)   # cast (and range-checked / wrapped) to a's dtype
            assign_all(a, wrap(F['where'](items[0]._t, vt, a._t), a._dtype))
            return
    # general case: flat positions of the selected elements, written in Python
    pos = getitem(arange(a.size).reshape(a.shape), tuple(items) if len(items) > 1 else items[0])
    pos = asarray(pos)
    vals = broadcast_to(asarray(value).astype(a._dtype), pos.shape)
    flat = a.reshape(-1).tolist() if a.ndim else [a.item()]
    for p, v in zip(pos.reshape(-1).tolist(), vals.reshape(-1).tolist()):
        flat[p] = v
    assign_all(a, from_python(flat, a._dtype).reshape(a.shape))

