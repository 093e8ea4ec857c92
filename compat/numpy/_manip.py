"""Shape manipulation and joining: reshape, transpose, squeeze, concatenate, stack, split, tile,
repeat, pad, where, broadcast_to, ... Views (reshape, transpose, squeeze, expand_dims,
broadcast_to) are the registry's view ops, so they share the array's storage as in numpy."""
import builtins
import operator

from . import _dtypes as D
from ._array import F, reshape_t, asarray, cast_t, from_python, ndarray, wrap
from ._reduce import norm_axes


def _base(a):
    return a._base if a._base is not None else a


def _view(a, t):
    return wrap(t, a._dtype, _base(a))


def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return [operator.index(s) for s in shape]


def reshape(a, *shape, order='C', newshape=None, copy=None):
    a = asarray(a)
    if newshape is not None:
        shape = (newshape,)
    if order not in ('C', 'A'):
        raise NotImplementedError("reshape(order=%r): Skiff's numpy supports C order only" % order)
    shape = _shape_arg(shape)
    n = a.size
    unknown = [i for i, s in enumerate(shape) if s == -1]
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if len(unknown) > 1:
        raise ValueError('can only specify one unknown dimension')
    if (unknown and (known == 0 or n % known)) or (not unknown and known != n):
        raise ValueError('cannot reshape array of size %d into shape %s' % (n, _fmt_shape(shape)))
    if unknown:
        shape[unknown[0]] = n // known
    if tuple(shape) == a.shape:
        return _view(a, a._t.detach())
    return _view(a, reshape_t(a._t, shape))


def _fmt_shape(shape):
    shape = tuple(shape)
    return str(shape) if len(shape) != 1 else '(%d,)' % shape[0]


def ravel(a, order='C'):
    a = asarray(a)
    return reshape(a, -1)


def flatten(a, order='C'):
    return asarray(a).copy().reshape(-1)


def transpose(a, axes=None, *more):
    a = asarray(a)
    if more:
        axes = (axes,) + more
    elif isinstance(axes, int):
        axes = (axes,)
    n = a.ndim
    if axes is None:
        perm = list(range(n - 1, -1, -1))
    else:
        perm = [operator.index(x) for x in axes]
        if len(perm) != n:
            raise ValueError("axes don't match array")
        norm_axes(perm, n)   # range and duplicate checks
        perm = [p + n if p < 0 else p for p in perm]
    if n < 2:
        return _view(a, a._t.detach())
    return _view(a, F['transpose'](a._t, perm))


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    i, j = norm_axes(axis1, a.ndim)[0], norm_axes(axis2, a.ndim)[0]
    perm = list(range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    src = source if isinstance(source, (list, tuple)) else [source]
    dst = destination if isinstance(destination, (list, tuple)) else [destination]
    src = [norm_axes(s, a.ndim)[0] for s in src]
    dst = [norm_axes(s, a.ndim)[0] for s in dst]
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


def expand_dims(a, axis):
    a = asarray(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = a.ndim + len(axes)
    axes = norm_axes(axes, n)
    return _view(a, F['unsqueeze'](a._t, axes))


def squeeze(a, axis=None):
    a = asarray(a)
    if axis is None:
        axes = [i for i, s in enumerate(a.shape) if s == 1]
    else:
        axes = norm_axes(axis, a.ndim)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError('cannot select an axis to squeeze out which has size not equal to one')
    if not axes:
        return _view(a, a._t.detach())
    return _view(a, F['squeeze'](a._t, axes))


def broadcast_shapes(*shapes):
    n = builtins.max([len(s) for s in shapes] + [0])
    res = [1] * n
    for s in shapes:
        for i, d in enumerate(s):
            k = n - len(s) + i
            if res[k] == 1:
                res[k] = d
            elif d != 1 and d != res[k]:
                raise ValueError('shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between %s and %s'
                                 % (tuple(res), tuple(s)))
    return tuple(res)


def broadcast_to(a, shape):
    a = asarray(a)
    shape = [shape] if isinstance(shape, int) else list(shape)
    if broadcast_shapes(a.shape, shape) != tuple(shape):
        raise ValueError('operands could not be broadcast together with remapped shapes [original->remapped]: %s and requested shape %s'
                         % (a.shape, tuple(shape)))
    if a.ndim == 0:
        return _view(a, F['expand'](reshape_t(a._t, [1] * builtins.max(len(shape), 1)), shape)) if shape else a.copy()
    return _view(a, F['expand'](a._t, shape))


def broadcast_arrays(*args):
    arrs = [asarray(x) for x in args]
    shape = broadcast_shapes(*[x.shape for x in arrs])
    return [broadcast_to(x, shape) for x in arrs]


def atleast_1d(*arys):
    r = [asarray(a) if asarray(a).ndim >= 1 else asarray(a).reshape(1) for a in arys]
    return r[0] if len(r) == 1 else r


def atleast_2d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        res.append(a.reshape(1, 1) if a.ndim == 0 else a.reshape(1, -1) if a.ndim == 1 else a)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        res.append(a.reshape(1, 1, 1) if a.ndim == 0 else a.reshape(1, -1, 1) if a.ndim == 1 else a.reshape(a.shape + (1,)) if a.ndim == 2 else a)
    return res[0] if len(res) == 1 else res


def _common(arrays, dtype=None):
    arrs = [asarray(x) for x in arrays]
    if not arrs:
        raise ValueError('need at least one array to concatenate')
    d = D._lookup(dtype) if dtype is not None else D.result_type(*[x._dtype for x in arrs])
    return arrs, d


def concatenate(arrays, axis=0, out=None, dtype=None, casting='same_kind'):
    arrs, d = _common(arrays, dtype)
    if axis is None:
        arrs = [x.reshape(-1) for x in arrs]
        axis = 0
    nd = arrs[0].ndim
    if nd == 0:
        raise ValueError('zero-dimensional arrays cannot be concatenated')
    ax = norm_axes(axis, nd)[0]
    for i, x in enumerate(arrs):
        if x.ndim != nd:
            raise ValueError('all the input array dimensions except for the concatenation axis must match exactly, but along dimension 0, '
                             'the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)' % (nd, i, x.ndim))
        for k in range(nd):
            if k != ax and x.shape[k] != arrs[0].shape[k]:
                raise ValueError('all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, '
                                 'the array at index 0 has size %d and the array at index %d has size %d' % (k, arrs[0].shape[k], i, x.shape[k]))
    return wrap(F['concat']([cast_t(x._t, d) for x in arrs], ax), d)


concat = concatenate


def stack(arrays, axis=0, out=None, dtype=None):
    arrs, d = _common(arrays, dtype)
    shape = arrs[0].shape
    if any(x.shape != shape for x in arrs):
        raise ValueError('all input arrays must have the same shape')
    ax = norm_axes(axis, len(shape) + 1)[0]
    return wrap(F['stack']([cast_t(x._t, d) for x in arrs], ax), d)


def vstack(tup, dtype=None):
    return concatenate([atleast_2d(x) for x in tup], 0, dtype=dtype)


row_stack = vstack


def hstack(tup, dtype=None):
    arrs = [atleast_1d(x) for x in tup]
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


def dstack(tup):
    return concatenate([atleast_3d(x) for x in tup], 2)


def column_stack(tup):
    arrs = [asarray(x) for x in tup]
    return concatenate([x.reshape(-1, 1) if x.ndim < 2 else x for x in arrs], 1)


def split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    ax = norm_axes(axis, a.ndim)[0]
    n = a.shape[ax]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        if k <= 0 or n % k:
            raise ValueError('array split does not result in an equal division')
    return array_split(a, indices_or_sections, ax)


def array_split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    ax = norm_axes(axis, a.ndim)[0]
    n = a.shape[ax]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        if k <= 0:
            raise ValueError('number sections must be larger than 0.')
        q, r = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    else:
        bounds = [0] + [builtins.min(builtins.max(int(i) if i >= 0 else int(i) + n, 0), n) for i in indices_or_sections] + [n]
    res = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        idx = [slice(None)] * a.ndim
        idx[ax] = slice(lo, builtins.max(lo, hi))
        res.append(a[tuple(idx)])
    return res


def hsplit(ary, s):
    a = asarray(ary)
    return split(a, s, 1 if a.ndim > 1 else 0)


def vsplit(ary, s):
    return split(ary, s, 0)


def tile(A, reps):
    a = asarray(A)
    reps = [reps] if isinstance(reps, int) else list(reps)
    n = builtins.max(len(reps), a.ndim)
    reps = [1] * (n - len(reps)) + reps
    t = a._t if a.ndim == n else reshape_t(a._t, [1] * (n - a.ndim) + list(a.shape))
    if n == 0:
        return a.copy()
    return wrap(F['tile'](t, reps), a._dtype)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    ax = norm_axes(axis, a.ndim)[0]
    n = a.shape[ax]
    if isinstance(repeats, int) or (hasattr(repeats, 'ndim') and repeats.ndim == 0):
        reps = [int(repeats)] * n
    else:
        reps = [int(r) for r in (repeats.tolist() if hasattr(repeats, 'tolist') else repeats)]
        if len(reps) == 1:
            reps = reps * n
        if len(reps) != n:
            raise ValueError('operands could not be broadcast together with shape (%d,) (%d,)' % (n, len(reps)))
    if any(r < 0 for r in reps):
        raise ValueError('repeats may not contain negative values.')
    if n == 0 or sum(reps) == 0:
        from ._create import zeros
        return zeros(tuple(0 if k == ax else s for k, s in enumerate(a.shape)), a._dtype)
    # the registry's repeat_interleave builds the result natively (no Python index list)
    if all(r == reps[0] for r in reps):
        return wrap(F['repeat_interleave'](a._t, reps[0], ax), a._dtype)
    return wrap(F['repeat_interleave_with_tensor_index'](a._t, from_python(reps, D.int64)._t, ax), a._dtype)


def pad(array, pad_width, mode='constant', constant_values=0, **kwargs):
    """constant and edge modes, built by concatenating blocks along each axis."""
    from ._create import full
    a = asarray(array)
    nd = a.ndim
    pw = _pad_pairs(pad_width, nd)
    cv = _pad_pairs(constant_values, nd) if mode == 'constant' else None
    if mode not in ('constant', 'edge'):
        raise NotImplementedError("np.pad(mode=%r): Skiff's numpy supports 'constant' and 'edge'" % mode)
    for ax in range(nd):
        before, after = pw[ax]
        if before == 0 and after == 0:
            continue
        parts = []
        for k, cnt in ((0, before), (1, after)):
            if cnt == 0:
                parts.append(None)
                continue
            shape = list(a.shape)
            shape[ax] = cnt
            if mode == 'constant':
                parts.append(full(shape, cv[ax][k], a._dtype))
            else:
                if a.shape[ax] == 0:
                    raise ValueError("can't extend empty axis %d using modes other than 'constant' or 'empty'" % ax)
                idx = [slice(None)] * nd
                idx[ax] = slice(0, 1) if k == 0 else slice(-1, None)
                parts.append(broadcast_to(a[tuple(idx)], shape))
        seq = [p for p in (parts[0], a, parts[1]) if p is not None]
        a = concatenate(seq, ax)
    return a if a is not array else a.copy()


def _pad_pairs(v, nd):
    if hasattr(v, 'tolist'):
        v = v.tolist()
    if isinstance(v, (int, float)):
        return [(v, v)] * nd
    v = list(v)
    if len(v) and not isinstance(v[0], (list, tuple)):
        if len(v) == 1:
            return [(v[0], v[0])] * nd
        if len(v) == 2:
            return [tuple(v)] * nd
    v = [tuple(p) if len(p) == 2 else (p[0], p[0]) for p in v]
    if len(v) == 1:
        return v * nd
    if len(v) != nd:
        raise ValueError('operands could not be broadcast together with remapped shapes')
    return v


def where(condition, x=None, y=None):
    if x is None and y is None:
        from ._sort import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError('either both or neither of x and y should be given')
    c = asarray(condition)
    ct = c._t if c._dtype.kind == 'b' else F['not_equal'](c._t, 0)
    dx = x._dtype if isinstance(x, ndarray) else x if type(x) in (bool, int, float) else asarray(x)._dtype
    dy = y._dtype if isinstance(y, ndarray) else y if type(y) in (bool, int, float) else asarray(y)._dtype
    d = D.result_type(dx, dy)
    xa, ya = asarray(x, d), asarray(y, d)
    shape = broadcast_shapes(c.shape, xa.shape, ya.shape)
    ts = [broadcast_to(v, shape)._t if v.shape != shape else v._t for v in (wrap(ct, D.bool_), xa, ya)]
    return wrap(F['where'](*ts), d)   # not a ufunc: a 0-d result stays an array


def flip(m, axis=None):
    a = asarray(m)
    axes = list(range(a.ndim)) if axis is None else norm_axes(axis, a.ndim)
    if not axes:
        return a.copy()
    return wrap(F['flip'](a._t, axes), a._dtype)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    """On the registry's roll kernel; shift and axis may be tuples (broadcast against each other)."""
    a = asarray(a)
    if axis is None:
        if a.size == 0:
            return a.copy()
        return wrap(F['roll'](a._t, [int(builtin_sum(shift) if isinstance(shift, (tuple, list)) else shift)], None), a._dtype)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    shifts = list(shift) if isinstance(shift, (tuple, list)) else [shift]
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    axes = [norm_axes(ax, a.ndim)[0] for ax in axes]
    if a.size == 0:
        return a.copy()
    return wrap(F['roll'](a._t, [int(s) for s in shifts], axes), a._dtype)


builtin_sum = sum
