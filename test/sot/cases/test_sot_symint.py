"""Translator: Python ints read from symbolic dims (x.shape[i], len(x), x.size) stay symbolic.
Used as shape arguments (reshape, expand, full/zeros/ones, arange, split, slicing) they keep one
translation serving every size (at most 2: sizes 0/1 get a concrete one); what cannot hold for
every size breaks with SOT008 and runs concretely, always with eager's results."""
import paddle
from sot_check import breaks, count, explain, same

BATCHES = [1, 2, 3, 5, 8, 13, 31, 64]
SEQS = [1, 2, 7, 64, 129, 300, 512]


def _run(fn, shapes, limit=2, no_breaks=True):
    sf = paddle.jit.to_static(fn)
    for shape in shapes:
        x = paddle.randn(shape)
        same(sf(x), fn(x))
    assert count(sf) <= limit, (fn.__name__, count(sf), explain(sf)['breaks'][:3])
    e = explain(sf)
    assert not e.get('eager'), e.get('eagerReason')
    if no_breaks:
        assert not e['breaks'], [(b['code'], b['detail']) for b in e['breaks']]
    return sf


# ---- symbolic ints kept in the graph: one translation per function (plus a concrete size 1) --

def reshape_batch(x):
    b = x.shape[0]
    return paddle.reshape(x * 2, [b, -1]).sum(axis=1)


def reshape_merge(x):
    b, s, d = x.shape
    return (x + 1).reshape([b * s, d]).mean(axis=1)


def reshape_split_heads(x):
    b, s = x.shape[0], x.shape[1]
    return x.reshape([b, s, 2, 4]).transpose([0, 2, 1, 3]).sum(axis=[1, 3])


def expand_batch(x):
    n = x.shape[0]
    return paddle.expand(x.sum(axis=1, keepdim=True), [n, 3]) + 1


def full_batch(x):
    n = x.shape[0]
    return x.sum(axis=1) + paddle.full([n], 0.5) + paddle.zeros([n], 'float32') + paddle.ones([n])


def full_2d(x):
    b, s, d = x.shape
    return x + paddle.full([b, s, 1], -0.0)


def arange_len(x):
    n = len(x)
    return x.sum(axis=1) * paddle.arange(n).astype('float32')


def arange_seq(x):
    s = x.shape[1]
    return x.mean(axis=2) + paddle.arange(s, dtype='float32')


def position_ids(x):
    b, s = x.shape[0], x.shape[1]
    pos = paddle.arange(s).unsqueeze(0).expand([b, s])
    return x.sum(axis=2) + pos.astype('float32'), paddle.broadcast_to(x[:, :1], [b, s, 8]) * 2


def first_token(x):
    # automatic symbols bind sizes >= 2: index 0 and slice :1 exist at every size they serve
    return x[:, 0] + x[:, :1].sum(axis=1) + x[0, :, :].mean()


def heads_roundtrip(x):
    b, s, d = x.shape
    h = x.reshape([b, s, 2, d // 2]).transpose([0, 2, 1, 3])
    return h.transpose([0, 2, 1, 3]).reshape([b, s, d]) - x


def slice_whole(x):
    s = x.shape[1]
    return x[:, :s] * 2, x[:x.shape[0]].sum()


def split_rest(x):
    n = x.shape[0]
    a, b = paddle.split(x, [n - 1, 1], axis=0)
    return a.sum(axis=0) - b.sum(axis=0)


def size_and_arith(x):
    n = x.size
    b = x.shape[0]
    return x.reshape([n // 8, 8]).sum(axis=0) / 8, x.reshape([b + 0, 2 * 4])


def compare_decided(x):
    # automatic symbols never bind 0 or 1, so this is True at every size they serve
    if x.shape[0] > 1 and x.shape[0] == len(x):
        return x * 2
    return x


def test_batch_sizes():
    for fn in (reshape_batch, expand_batch, full_batch, arange_len, size_and_arith):
        _run(fn, [[b, 8] for b in BATCHES])


def test_batch_sizes_symint_slices_and_splits():
    _run(split_rest, [[b, 8] for b in BATCHES if b > 1])
    _run(slice_whole, [[b, 5, 3] for b in BATCHES])


def test_sequence_lengths():
    for fn in (reshape_merge, reshape_split_heads, full_2d, arange_seq, slice_whole, position_ids, heads_roundtrip, first_token):
        _run(fn, [[2, s, 8] for s in SEQS])


def test_batch_and_sequence():
    for fn in (reshape_merge, full_2d, slice_whole, position_ids, heads_roundtrip, first_token):
        _run(fn, [[b, s, 8] for b, s in [(1, 1), (2, 5), (3, 7), (64, 2), (5, 300), (2, 512), (2, 2)]])


def test_comparison_decided_by_domain():
    _run(compare_decided, [[b, 4] for b in BATCHES])


def test_returned_symint_is_a_real_int():
    def f(x):
        return x.shape[0] * 2 + 1, x * 2
    sf = _run(f, [[b, 3] for b in BATCHES], no_breaks=False)
    got = sf(paddle.randn([9, 3]))[0]
    assert type(got) is int and got == 19, got


# ---- what must break (SOT008) or guard, with eager's results -------------------------------------

def test_comparison_on_size_breaks():
    def f(x):
        if x.shape[0] > 4:
            return x * 2
        return x - 1
    sf = _run(f, [[b, 4] for b in BATCHES], limit=64, no_breaks=False)
    assert 'SOT008' in breaks(sf), breaks(sf)


def test_symint_live_across_a_break():
    def f(x):
        n = x.shape[0]
        print_me = str(n)   # str() of a symbolic int runs concretely
        return x.reshape([n, -1]).sum(axis=1), print_me
    sf = _run(f, [[b, 6] for b in BATCHES], limit=64, no_breaks=False)
    assert breaks(sf), breaks(sf)


def test_symint_with_tensor_breaks():
    def f(x):
        return x * x.shape[0]
    sf = _run(f, [[b, 4] for b in BATCHES], limit=64, no_breaks=False)
    assert 'SOT008' in breaks(sf), breaks(sf)


def test_partial_slice_of_symbolic_dim_breaks():
    def f(x):
        n = x.shape[0]
        return x[:n // 2]
    sf = _run(f, [[b, 4] for b in BATCHES], limit=64, no_breaks=False)
    assert 'SOT008' in breaks(sf), breaks(sf)


def test_size_dependent_index_breaks():
    def f(x):
        return x[:, -1] * 2 + x[:, :3].sum(axis=1)   # the last one, and :3 of a size that may be 2
    sf = _run(f, [[2, s, 4] for s in SEQS], limit=64, no_breaks=False)
    assert 'SOT008' in breaks(sf), breaks(sf)


def test_symint_inside_a_list_across_a_break_is_guarded():
    def f(x):
        shape = [x.shape[0], x.shape[1], 8]
        y = x[:, :x.shape[1] // 2]   # a size-dependent slice: breaks, `shape` crosses it
        return paddle.broadcast_to(x[:, :1], shape) + y.sum()
    _run(f, [[2, s, 8] for s in (1, 2, 5, 7, 5, 2)], limit=64, no_breaks=False)


def test_reshape_mismatch_raises_as_eager():
    def f(x):
        n = x.shape[0]
        return x.reshape([n + 1, 2]).sum()
    sf = paddle.jit.to_static(f)
    for b in (2, 3, 5, 2, 3):   # only numel 6 fits [n + 1, 2] (b = 2): the others raise in eager
        x = paddle.randn([b, 3])
        try:
            want = f(x)
        except Exception as e:
            want = type(e)
        try:
            got = sf(x)
        except Exception as e:
            got = type(e)
        if isinstance(want, type):
            assert got is want, (b, got, want)
        else:
            same(got, want)
