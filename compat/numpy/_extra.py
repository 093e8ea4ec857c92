"""take / take_along_axis / bincount / histogram / digitize and the text files savetxt /
loadtxt. Index-style functions reuse advanced indexing; counting and text I/O run in Python."""
import io
import os

from . import _dtypes as D
from ._array import asarray, from_python
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
    vals = asarray(x).reshape(-1).tolist()
    if any(v < 0 for v in vals):
        raise ValueError("'list' argument must have no negative elements")
    n = max([minlength] + [v + 1 for v in vals])
    if weights is None:
        counts = [0] * n
        for v in vals:
            counts[v] += 1
        return from_python(counts, D.int64) if n else asarray([], D.int64)
    w = asarray(weights, D.float64).reshape(-1).tolist()
    sums = [0.0] * n
    for v, wt in zip(vals, w):
        sums[v] += wt
    return from_python(sums, D.float64) if n else asarray([], D.float64)


def digitize(x, bins, right=False):
    import bisect
    b = asarray(bins).tolist()
    inc = len(b) < 2 or b[-1] >= b[0]
    xa = asarray(x)

    def one(v):
        if inc:
            return bisect.bisect_left(b, v) if right else bisect.bisect_right(b, v)
        rb = b[::-1]
        return len(b) - (bisect.bisect_right(rb, v) if right else bisect.bisect_left(rb, v))
    if xa.ndim == 0:
        return D.int64.type(one(xa.item()))
    return from_python([one(v) for v in xa.reshape(-1).tolist()], D.int64).reshape(xa.shape)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Equal-width bins (an int) or explicit edges; the last bin includes its right edge."""
    vals = asarray(a, D.float64).reshape(-1).tolist()
    if isinstance(bins, int):
        lo, hi = range if range is not None else ((min(vals), max(vals)) if vals else (0.0, 1.0))
        lo, hi = float(lo), float(hi)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = [lo + (hi - lo) * i / bins for i in builtin_range(bins + 1)]
        edges[-1] = hi
        edge_arr = from_python(edges, D.float64)
    else:
        edge_arr = asarray(bins)   # explicit edges keep their dtype, as numpy returns them
        edges = [float(e) for e in edge_arr.tolist()]
    nb = len(edges) - 1
    w = [1.0] * len(vals) if weights is None else asarray(weights, D.float64).reshape(-1).tolist()
    counts = [0.0] * nb
    import bisect
    for v, wt in zip(vals, w):
        if v < edges[0] or v > edges[-1] or v != v:
            continue
        i = min(bisect.bisect_right(edges, v) - 1, nb - 1)
        counts[i] += wt
    if density:
        total = sum(counts)
        counts = [c / total / (edges[i + 1] - edges[i]) for i, c in enumerate(counts)]
        hist = from_python(counts, D.float64)
    elif weights is None:
        hist = from_python([int(c) for c in counts], D.int64)
    else:
        hist = from_python(counts, D.float64)
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

