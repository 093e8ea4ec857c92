"""np.einsum for explicit subscripts ('ij,jk->ik', 'bij,bjk->bik', 'i,i->', 'ij->ji').

Two operands contract through one batched matmul (letters sorted into batch / left / right /
contracted groups, each operand transposed and reshaped to 3-D); other counts multiply the
operands broadcast to all letters and sum the contracted ones. Repeated letters inside one
operand (traces, diagonals) and '...' raise NotImplementedError."""
from . import _dtypes as D
from ._array import asarray
from ._linalg_core import matmul
from ._reduce import sum as _sum
from ._ufuncs import multiply


def _parse(subscripts, n):
    s = subscripts.replace(' ', '')
    if '.' in s:
        raise NotImplementedError("np.einsum with '...' is not supported by Skiff's numpy")
    if '->' in s:
        lhs, out = s.split('->')
    else:
        lhs = s
        counts = {}
        for c in lhs.replace(',', ''):
            counts[c] = counts.get(c, 0) + 1
        out = ''.join(sorted(c for c, k in counts.items() if k == 1))
    ins = lhs.split(',')
    if len(ins) != n:
        raise ValueError('more operands provided to einstein sum function than specified in the subscripts string'
                         if n > len(ins) else 'fewer operands provided to einstein sum function than specified in the subscripts string')
    for term in ins + [out]:
        if len(set(term)) != len(term):
            raise NotImplementedError("np.einsum with a repeated subscript inside one operand ('%s') is not supported by Skiff's numpy" % term)
        for c in term:
            if not c.isalpha():
                raise ValueError("invalid subscript '%s' in einstein sum subscripts string" % c)
    for c in out:
        if c not in lhs:
            raise ValueError("einstein sum subscripts string included output subscript '%s' which never appeared in an input" % c)
    return ins, out


def _sizes(ins, ops):
    size = {}
    for term, a in zip(ins, ops):
        if len(term) != a.ndim:
            raise ValueError('operand has more dimensions than subscripts given in einstein sum, but no \'...\' ellipsis provided to broadcast the extra dimensions.'
                             if a.ndim > len(term) else 'einstein sum subscripts string contains too many subscripts for operand')
        for c, n in zip(term, a.shape):
            if size.get(c, n) != n and 1 not in (n, size[c]):
                raise ValueError("operands could not be broadcast together with remapped shapes: size %d and %d for subscript '%s'" % (size[c], n, c))
            size[c] = max(size.get(c, n), n) if size.get(c, n) != 1 else n
    return size


def _arrange(a, term, order):
    """a transposed so its letters follow `order` (a subsequence of it)."""
    want = [c for c in order if c in term]
    if want == list(term):
        return a
    return a.transpose([term.index(c) for c in want])


def einsum(subscripts, *operands, out=None, dtype=None, optimize=False, **kwargs):
    ops = [asarray(x) for x in operands]
    d = D._lookup(dtype) if dtype is not None else D.result_type(*[a.dtype for a in ops])
    ops = [a.astype(d) if a.dtype is not d else a for a in ops]
    ins, outs = _parse(subscripts, len(ops))
    size = _sizes(ins, ops)
    # letters only one operand uses and the output does not: summed out of that operand first
    for k, term in enumerate(ins):
        others = ''.join(t for j, t in enumerate(ins) if j != k) + outs
        lone = [i for i, c in enumerate(term) if c not in others]
        if lone:
            ops[k] = asarray(_sum(ops[k], axis=tuple(lone), dtype=d))
            ins[k] = ''.join(c for c in term if c in others)
    if len(ops) == 2:
        r, letters = _pair(ops[0], ins[0], ops[1], ins[1], outs, size)
    else:
        letters = outs + ''.join(c for c in dict.fromkeys(''.join(ins)) if c not in outs)
        r = None
        for a, term in zip(ops, ins):
            a = _arrange(a, term, letters)
            shape = [size[c] if c in term else 1 for c in letters]
            a = a.reshape(shape) if shape else a
            r = a if r is None else multiply(r, a)
        extra = tuple(range(len(outs), len(letters)))
        if extra:
            r = _sum(r, axis=extra, dtype=d)
        letters = outs
    r = asarray(r)
    if letters != outs:
        r = r.transpose([letters.index(c) for c in outs])
    r = r.astype(d) if r.dtype is not d else r
    if out is not None:
        out[...] = r
        return out
    return r if r.ndim else r[()]


def _pair(a, ta, b, tb, outs, size):
    """einsum of two operands as one batched matmul: (batch, left, k) @ (batch, k, right)."""
    batch = [c for c in ta if c in tb and c in outs]
    contract = [c for c in ta if c in tb and c not in outs]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    nb = 1
    for c in batch:
        nb *= size[c]
    nl, nr, nk = 1, 1, 1
    for c in left:
        nl *= size[c]
    for c in right:
        nr *= size[c]
    for c in contract:
        nk *= size[c]
    a3 = _arrange(a, ta, batch + left + contract).reshape(nb, nl, nk)
    b3 = _arrange(b, tb, batch + contract + right).reshape(nb, nk, nr)
    r = matmul(a3, b3)
    letters = ''.join(batch + left + right)
    shape = [size[c] for c in letters]
    return asarray(r).reshape(shape) if shape else asarray(r).reshape(()), letters
