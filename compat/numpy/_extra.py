"""take / take_along_axis / bincount / histogram / digitize and the text files savetxt /
loadtxt. Index-style functions reuse advanced indexing; counting and text I/O run in Python."""
import io
import os

from . import _dtypes as D
from ._array import F, asarray, from_python, wrap
from ._reduce import norm_axes


def take(a, indices, axis=None, out=None, mode='raise'):
    a = asarray(a)
    if mode != 'raise':
        raise NotImplementedError("np.take(mode=%r) is not supported by Skiff's numpy" % mode)
    if axis is None:
        a, axis = a.reshape(-1), 0
    ax = norm_axes(axis, a.ndim)[0]
    idx = asarray(indices, D.int64) if not isinstance(indices, int) else indices
    return a[(slice(None),) * ax + (idx,)]


def take_along_axis(arr, indices, axis):
    """arr[..., indices, ...] along `axis`, the other axes matched position by position."""
    from ._create import arange
    from ._manip import broadcast_shapes
    a = asarray(arr)
    idx = asarray(indices)
    if axis is None:
        return a.reshape(-1)[idx.reshape(-1)]
    ax = norm_axes(axis, a.ndim)[0]
    if idx.ndim != a.ndim:
        raise ValueError('`indices` and `arr` must have the same number of dimensions')
    shape = list(broadcast_shapes(tuple(1 if k == ax else s for k, s in enumerate(a.shape)),
                                  tuple(1 if k == ax else s for k, s in enumerate(idx.shape))))
    items = []
    for k in range(a.ndim):
        if k == ax:
            items.append(idx)
        else:
            s = [1] * a.ndim
            s[k] = shape[k]
            items.append(arange(shape[k]).reshape(s))
    return a[tuple(items)]


def bincount(x, weights=None, minlength=0):
    """On the registry's bincount kernel (int64 counts, float64 weighted sums)."""
    a = asarray(x)
    if a.ndim != 1:
        raise ValueError('object too deep for desired array' if a.ndim > 1 else 'object of too small depth for desired array')
    if a._dtype.kind not in 'biu':
        raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'" % a._dtype.name)
    minlength = int(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    w = None
    if weights is not None:
        w = asarray(weights, D.float64)
        if w.shape != a.shape:
            raise ValueError('The weights and list don\'t have the same length.')
    out_d = D.int64 if w is None else D.float64
    if a.size == 0:
        from ._create import zeros
        return zeros((minlength,), out_d)
    from ._reduce import min as amin
    if int(amin(a)) < 0:
        raise ValueError("'list' argument must have no negative elements")
    t = F['cast'](a._t, 'int64') if a._t.dtype.name not in ('int32', 'int64') else a._t
    return wrap(F['bincount'](t, None if w is None else w._t, minlength), out_d)


def digitize(x, bins, right=False):
    """numpy's definition: searchsorted on the bins (reversed for decreasing bins)."""
    from ._sort import searchsorted
    from ._ufuncs import subtract
    b = asarray(bins)
    if b.ndim != 1:
        raise ValueError('bins must be one-dimensional')
    side = 'left' if right else 'right'
    if b.size > 1 and b[-1] < b[0]:
        return subtract(b.size, searchsorted(b[::-1], x, side=side))
    return searchsorted(b, x, side=side)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """numpy's bins: equal-width edges from linspace (an int) or explicit edges; x falls in bin
    i when edges[i] <= x < edges[i+1], the last bin including its right edge. The bin of every
    value is one native searchsorted and the counts one native bincount, so edge cases match
    numpy's exact comparisons against the edges."""
    from ._create import linspace
    from ._reduce import max as amax, min as amin, sum as asum
    from ._sort import searchsorted
    from ._ufuncs import isfinite, logical_and, minimum, subtract, divide, greater_equal, less_equal
    x = asarray(a).reshape(-1)
    w = None if weights is None else asarray(weights).reshape(-1)
    if w is not None and w.shape != x.shape:
        raise ValueError('weights should have the same shape as a.')
    if isinstance(bins, int) or (hasattr(bins, 'ndim') and bins.ndim == 0 and not isinstance(bins, str)):
        nb = int(bins)
        if nb < 1:
            raise ValueError('`bins` must be positive, when an integer')
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
            if lo > hi:
                raise ValueError('max must be larger than min in range parameter.')
        elif x.size:
            lo, hi = float(amin(x)), float(amax(x))
        else:
            lo, hi = 0.0, 1.0
        if not (lo == lo and hi == hi and abs(lo) != float('inf') and abs(hi) != float('inf')):
            raise ValueError('autodetected range of [%s, %s] is not finite' % (lo, hi))
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        fd = x._dtype if x._dtype.kind == 'f' else D.float64
        edge_arr = linspace(lo, hi, nb + 1, dtype=fd)
    else:
        edge_arr = asarray(bins)   # explicit edges keep their dtype, as numpy returns them
        if edge_arr.ndim != 1:
            raise ValueError('`bins` must be 1d, when an array')
        if edge_arr.size > 1 and bool((edge_arr[1:] < edge_arr[:-1]).any()):
            raise ValueError('`bins` must increase monotonically, when an array')
        nb = edge_arr.size - 1
    hd = D.int64 if w is None else (w._dtype if w._dtype.kind == 'f' else D.int64 if w._dtype.kind in 'biu' else D.float64)
    if x.size and nb > 0:
        keep = logical_and(logical_and(greater_equal(x, edge_arr[0]), less_equal(x, edge_arr[-1])), isfinite(x) if x._dtype.kind == 'f' else True)
        xs = x[keep]
        ws = None if w is None else w[keep]
        idx = minimum(subtract(searchsorted(edge_arr, xs, side='right'), 1), nb - 1) if xs.size else xs.astype(D.int64)
        counts = bincount(idx, ws, minlength=nb)
        hist = counts.astype(hd) if counts._dtype is not hd else counts
    else:
        from ._create import zeros
        hist = zeros((max(nb, 0),), hd)
    if density:
        widths = subtract(edge_arr[1:], edge_arr[:-1])
        return divide(divide(hist, asum(hist)), widths), edge_arr
    return hist, edge_arr


builtin_range = range


# --- text files ------------------------------------------------------------------------------
def savetxt(fname, X, fmt='%.18e', delimiter=' ', newline='\n', header='', footer='', comments='# ', encoding=None):
    a = asarray(X)
    if a.ndim == 0 or a.ndim > 2:
        raise ValueError('Expected 1D or 2D array, got %dD array instead' % a.ndim)
    rows = a.reshape(-1, 1).tolist() if a.ndim == 1 else a.tolist()
    lines = []
    if header:
        lines.append(comments + header.replace('\n', '\n' + comments))
    for r in rows:
        if isinstance(fmt, (list, tuple)):
            lines.append(delimiter.join(f % v for f, v in zip(fmt, r)))
        elif fmt.count('%') > 1:
            lines.append(fmt % tuple(r))
        else:
            lines.append(delimiter.join(fmt % v for v in r))
    if footer:
        lines.append(comments + footer.replace('\n', '\n' + comments))
    text = newline.join(lines) + newline
    if hasattr(fname, 'write'):
        try:
            fname.write(text)
        except TypeError:
            fname.write(text.encode(encoding or 'latin1'))
        return
    with open(os.fspath(fname), 'w') as f:
        f.write(text)


def loadtxt(fname, dtype=float, comments='#', delimiter=None, skiprows=0, usecols=None, unpack=False, ndmin=0,
            encoding=None, max_rows=None):
    if hasattr(fname, 'read'):
        text = fname.read()
        if isinstance(text, bytes):
            text = text.decode(encoding or 'latin1')
    else:
        with open(os.fspath(fname)) as f:
            text = f.read()
    d = D._lookup(dtype)
    conv = float if d.kind == 'f' else (lambda s: bool(int(float(s)))) if d.kind == 'b' else (lambda s: int(float(s)) if '.' in s or 'e' in s.lower() else int(s))
    rows = []
    for k, line in enumerate(io.StringIO(text)):
        if k < skiprows:
            continue
        if comments:
            for c in ([comments] if isinstance(comments, str) else comments):
                line = line.split(c, 1)[0]
        line = line.strip()
        if not line:
            continue
        parts = line.split(delimiter)
        if usecols is not None:
            cols = [usecols] if isinstance(usecols, int) else list(usecols)
            parts = [parts[c] for c in cols]
        rows.append([conv(p.strip()) for p in parts])
        if max_rows is not None and len(rows) >= max_rows:
            break
    if rows and any(len(r) != len(rows[0]) for r in rows):
        raise ValueError('the number of columns changed in the text file')
    a = from_python(rows, d) if rows else asarray([], d)
    if a.ndim == 2 and a.shape[1] == 1 and ndmin < 2:
        a = a.reshape(-1)
    elif a.ndim == 2 and a.shape[0] == 1 and ndmin < 2:
        a = a.reshape(-1)
    while a.ndim < ndmin:
        a = a.reshape((1,) + a.shape) if a.ndim else a.reshape(1)
    return a.T if unpack else a

