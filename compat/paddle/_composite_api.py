"""Composites of registry ops, mirroring src/ops/defs/einsum.ts and special_more.ts:
paddle.einsum and paddle.multigammaln. Every step is a registry op, so gradients and static
recording come with them. Errors say what TypeScript's say."""
import math

from . import _ops
from .tensor import Tensor


def _f(name):
    return _ops.function(name)


def _term(t, eq):
    dots = t.find('...')
    if dots >= 0 and t.find('...', dots + 1) >= 0:
        raise SyntaxError("einsum: more than one '...' in term '%s' of equation '%s'" % (t, eq))
    rest = t[:dots] + t[dots + 3:] if dots >= 0 else t
    for ch in rest:
        if not (ch.isascii() and ch.isalpha()):
            raise SyntaxError("einsum: invalid character '%s' in equation '%s' (labels are letters a-z, A-Z; '...' for broadcast dims)" % (ch, eq))
    return list(rest), dots


def einsum_plan(equation, ranks):
    """Labels of each operand's dims and of the output ('.k' for the broadcast dims of '...')."""
    if not isinstance(equation, str):
        raise TypeError('einsum: equation must be a string, got %s' % type(equation).__name__)
    eq = ''.join(equation.split())
    if eq.count('->') > 1:
        raise SyntaxError("einsum: more than one '->' in equation '%s'" % equation)
    lhs, arrow, rhs = eq.partition('->')
    terms = [_term(t, equation) for t in lhs.split(',')]
    if len(terms) != len(ranks):
        raise ValueError("einsum: equation '%s' has %d input terms but %d operands were given" % (equation, len(terms), len(ranks)))
    n_ell = 0
    counts = []
    for (letters, dots), r, raw in zip(terms, ranks, lhs.split(',')):
        if len(letters) > r or (dots < 0 and len(letters) != r):
            raise ValueError("einsum: term '%s' has %d labels but the operand has rank %d" % (raw, len(letters), r))
        counts.append(r - len(letters) if dots >= 0 else 0)
        n_ell = max(n_ell, counts[-1])

    def ell(n):
        return ['.%d' % (n_ell - n + i) for i in range(n)]

    inputs = []
    for (letters, dots), n in zip(terms, counts):
        inputs.append(letters if dots < 0 else letters[:dots] + ell(n) + letters[dots:])
    seen = {}
    for ls in inputs:
        for l in ls:
            if not l.startswith('.'):
                seen[l] = seen.get(l, 0) + 1
    if arrow:
        letters, dots = _term(rhs, equation)
        for l in letters:
            if l not in seen:
                raise SyntaxError("einsum: output label '%s' of equation '%s' does not appear in any input term" % (l, equation))
        if len(set(letters)) != len(letters):
            raise SyntaxError("einsum: output term '%s' of equation '%s' repeats a label" % (rhs, equation))
        # without '...' in the output the broadcast dims are summed away
        output = letters if dots < 0 else letters[:dots] + ell(n_ell) + letters[dots:]
    else:
        output = ell(n_ell) + sorted(l for l, c in seen.items() if c == 1)
    return inputs, output


def _sum(t, labels, axes):
    if not axes:
        return t, labels
    return _f('sum')(t, axis=list(axes), keepdim=False, dtype=t.dtype), [l for i, l in enumerate(labels) if i not in axes]


def _diagonals(t, labels):
    while True:
        rep = [k for k, l in enumerate(labels) if labels.index(l) != k]
        if not rep:
            return t, labels
        i = rep[0]
        first = labels.index(labels[i])
        s = list(t.shape)
        if s[first] != s[i]:
            raise ValueError("einsum: label '%s' repeats over dims of sizes %d and %d" % (labels[i], s[first], s[i]))
        n = s[i]
        eye = _f('reshape')(_f('eye')(n, n, dtype=t.dtype), shape=[n if k in (first, i) else 1 for k in range(len(s))])
        t, labels = _sum(_f('multiply')(t, eye), labels, [i])


def _drop(t, labels, keep):
    return _sum(t, labels, [i for i, l in enumerate(labels) if l not in keep])


def _permute(t, labels, order):
    perm = [labels.index(l) for l in order]
    if perm == list(range(len(perm))):
        return t, list(order)
    return _f('transpose')(t, perm=perm), list(order)


def _reshape(t, shape):
    return t if list(t.shape) == list(shape) else _f('reshape')(t, shape=list(shape))


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _contract(a, la, b, lb, keep):
    sa, sb = list(a.shape), list(b.shape)
    ta, tb = list(sa), list(sb)
    for i, l in enumerate(la):
        if l in lb:
            j = lb.index(l)
            if sa[i] == sb[j]:
                continue
            if sa[i] == 1:
                ta[i] = sb[j]
            elif sb[j] == 1:
                tb[j] = sa[i]
            else:
                raise ValueError("einsum: label '%s' has size %d in one operand and %d in another" % ('...' if l.startswith('.') else l, sa[i], sb[j]))
    if ta != sa:
        a = _f('expand')(a, shape=ta)
    if tb != sb:
        b = _f('expand')(b, shape=tb)
    batch = [l for l in la if l in lb and l in keep]
    summed = [l for l in la if l in lb and l not in keep]
    a_only = [l for l in la if l not in lb]
    b_only = [l for l in lb if l not in la]
    A, _ = _permute(a, la, batch + a_only + summed)
    B, _ = _permute(b, lb, batch + summed + b_only)
    sa, sb = list(A.shape), list(B.shape)
    nb = len(batch)
    bs, ms, ks = sa[:nb], sa[nb:nb + len(a_only)], sa[nb + len(a_only):]
    ns = sb[nb + len(summed):]
    if 0 in bs + ms + ks + ns:   # reshape reads 0 as "copy this dim": build the zeros directly
        return _f('full')(bs + ms + ns, 0, dtype=A.dtype), batch + a_only + b_only
    am = _reshape(A, [_prod(bs), _prod(ms), _prod(ks)])
    bm = _reshape(B, [_prod(bs), _prod(ks), _prod(ns)])
    return _reshape(_f('matmul')(am, bm), bs + ms + ns), batch + a_only + b_only


def einsum(equation, *operands):
    """paddle.einsum(equation, *operands): operands as separate arguments or one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError('einsum: at least one operand is required')
    for k, t in enumerate(operands):
        if not isinstance(t, Tensor) and not getattr(type(t), '_skiff_static', False):
            raise TypeError('einsum: operand %d must be a Tensor, got %s' % (k, type(t).__name__))
    dt = operands[0].dtype
    for k, t in enumerate(operands):
        if t.dtype != dt:
            raise TypeError('einsum: all operands must have the same dtype, got %s (operand 0) and %s (operand %d)' % (dt, t.dtype, k))
    inputs, output = einsum_plan(equation, [len(t.shape) for t in operands])
    ops = [_diagonals(t, list(ls)) for t, ls in zip(operands, inputs)]

    def needed(skip):
        s = set(output)
        for k, (_, ls) in enumerate(ops):
            if k != skip:
                s.update(ls)
        return s

    ops = [_drop(t, ls, needed(k)) for k, (t, ls) in enumerate(ops)]
    while len(ops) > 1:
        keep = set(output)
        for _, ls in ops[2:]:
            keep.update(ls)
        (a, la), (b, lb) = ops[0], ops[1]
        ops = [_contract(a, la, b, lb, keep)] + ops[2:]
    t, ls = _drop(ops[0][0], ops[0][1], set(output))
    return _permute(t, ls, output)[0]


def multigammaln(x, p, name=None):
    """paddle.multigammaln(x, p): sum_{i<p} lgamma(x - i/2) + p (p-1)/4 log(pi)."""
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError('multigammaln: p must be an integer >= 1, got %r' % (p,))
    offs = _f('scale')(_f('arange')(1 - p, 1, 1, dtype=x.dtype), scale=0.5)
    s = _f('sum')(_f('lgamma')(_f('add')(_f('unsqueeze')(x, axis=[-1]), offs)), axis=[-1], keepdim=False)
    return _f('scale')(s, scale=1.0, bias=0.25 * p * (p - 1) * math.log(math.pi))


def install(root):
    """paddle.einsum, paddle.multigammaln and Tensor.multigammaln."""
    root.einsum = einsum
    root.multigammaln = multigammaln
    if 'multigammaln' not in Tensor.__dict__:
        Tensor.multigammaln = multigammaln
