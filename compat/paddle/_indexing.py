"""Tensor.__getitem__ / __setitem__ for basic indexing (ints, slices, None, Ellipsis), built from
the registry's slice / strided_slice / squeeze / unsqueeze ops. An index with an advanced item
(int/bool tensor, list) goes to _adv_indexing.py (gather_nd / masked_select / index_put).

Integer indices drop their dimension (x[0] of a 1-D tensor is 0-dim, as in Paddle 2.6+).
Assignment (x[i] = v) runs the registry's inplace set_value_with_tensor op, so views of x made
before it (y = x[0]) see the write.
"""
import operator

from . import _ops


def _need(name):
    f = _ops.public(name)
    if f is None:
        raise NotImplementedError("tensor indexing needs paddle.%s, which Skiff's op registry does not provide yet" % name)
    return f


def _is_tensor(v):
    from .tensor import Tensor
    return isinstance(v, Tensor)


def _expand(index, rank):
    items = list(index) if isinstance(index, tuple) else [index]
    n_ell = sum(1 for i in items if i is Ellipsis)
    if n_ell > 1:
        raise IndexError('an index can only have a single ellipsis (...)')
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    if n_real > rank:
        raise IndexError('too many indices for tensor: tensor is %d-dimensional, but %d were indexed' % (rank, n_real))
    if n_ell:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (rank - n_real)
    return items


def _walk(shape, index, what):
    """A basic index (ints, slices, None, Ellipsis) as op attributes: axes with slice.indices'
    (start, stop, step) (whole-axis slices left out), the int-indexed (dropped) axes, and where
    each None stands, as an input axis and as an output axis. `what` names the caller in errors."""
    axes, starts, ends, steps, dropped, none_in, none_out = [], [], [], [], [], [], []
    d = out = 0
    for it in _expand(index, len(shape)):
        if it is None:
            none_in.append(d)
            none_out.append(out)
            out += 1
            continue
        if isinstance(it, slice):
            n = shape[d]
            if n < 0:
                # A symbolic dim (-1 while tracing a program) allows only the whole axis.
                if it.start is not None or it.stop is not None or it.step not in (None, 1):
                    raise TypeError("%s: axis %d has a symbolic size; only ':' or a non-negative int can index it" % (what, d))
                d += 1
                out += 1
                continue
            start, stop, step = it.indices(n)
            if (start, stop, step) != (0, n, 1):
                axes.append(d)
                starts.append(start)
                ends.append(stop)
                steps.append(step)
            d += 1
            out += 1
            continue
        if isinstance(it, bool) or _is_tensor(it) or isinstance(it, (list, tuple)):
            # advanced items never get here (getitem/setitem route them to _adv_indexing)
            raise TypeError('%s: a %s index is not a basic index' % (what, type(it).__name__))
        try:
            i = operator.index(it)
        except TypeError:
            raise TypeError('only integers, slices, None, Ellipsis and tensors are valid indices, got %r' % (it,)) from None
        n = shape[d]
        if n < 0 and i < 0:
            raise TypeError("%s: axis %d has a symbolic size; only ':' or a non-negative int can index it" % (what, d))
        if n >= 0 and not -n <= i < n:
            raise IndexError('index %d is out of bounds for axis %d with size %d' % (i, d, n))
        if i < 0:
            i += n
        axes.append(d)
        starts.append(i)
        ends.append(i + 1)
        steps.append(1)
        dropped.append(d)
        d += 1
    return axes, starts, ends, steps, dropped, none_in, none_out


def getitem(x, index):
    from . import _adv_indexing
    if _adv_indexing.has_advanced(index):
        return _adv_indexing.getitem(x, index)
    # slice.indices gives stop = -1 for "through index 0" with a negative step, which is also
    # what Paddle's strided_slice means by end = -1 there.
    axes, starts, ends, steps, squeeze, _, insert = _walk(x.shape, index, 'Tensor indexing')
    y = x
    if axes:
        if any(s != 1 for s in steps):
            y = _need('strided_slice')(y, axes, starts, ends, steps)
        else:
            y = _need('slice')(y, axes, starts, ends)
    if squeeze:
        y = _need('squeeze')(y, squeeze)
    if insert:
        y = _need('unsqueeze')(y, insert)
    return y


def _set_plan(shape, index):
    """set_value_with_tensor's (starts, ends, steps, axes, decrease_axes, none_axes) for a basic
    index. Bounds go to the op raw except where slice.indices had to say "before index 0"
    (-1 with a negative step), which the op's Python-style normalisation spells as -n - 1."""
    axes, starts, ends, steps, dec, none, _ = _walk(shape, index, 'Tensor.__setitem__')
    for j, d in enumerate(axes):
        if steps[j] < 0:
            n = shape[d]
            starts[j] = -n - 1 if starts[j] < 0 else starts[j]
            ends[j] = -n - 1 if ends[j] < 0 else ends[j]
    return starts, ends, steps, axes, dec, none


def setitem(x, index, value):
    """x[index] = value, in place. value: a Tensor (cast to x's dtype, as Paddle does), a Python
    scalar or nested lists; it broadcasts against the indexed region."""
    from . import _adv_indexing
    if _adv_indexing.has_advanced(index):
        _adv_indexing.assign(x, index, value, True)
        return
    starts, ends, steps, axes, dec, none = _set_plan(x.shape, index)
    if _is_tensor(value):
        if value.dtype != x.dtype:
            value = value.astype(x.dtype)
    elif not getattr(type(value), '_skiff_static', False):
        from .creation import to_tensor
        value = to_tensor(value, dtype=x.dtype)
    _ops.inplace_function('set_value_with_tensor')(x, value, starts, ends, steps, axes, dec, none)
