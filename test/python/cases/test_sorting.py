"""Sorting and search ops (src/ops/defs/sort.ts, search.ts, unique.ts) from Python: tuple
returns, Tensor methods, int64 indices, and unique's data-dependent output length."""
import paddle


def _vals(t):
    return [float(v) for v in t.numpy().reshape(-1)]


def _ints(t):
    return [int(v) for v in t.numpy().reshape(-1)]


def test_topk_returns_values_and_int64_indices():
    x = paddle.to_tensor([[1.0, 4.0, 2.0, 3.0], [0.0, -1.0, 5.0, 5.0]])
    v, i = paddle.topk(x, 2)
    assert v.shape == [2, 2] and str(i.dtype) == 'paddle.int64'
    assert _vals(v) == [4.0, 3.0, 5.0, 5.0]
    assert _ints(i) == [1, 3, 2, 3]
    v, i = x.topk(1, axis=0, largest=False)
    assert _vals(v) == [0.0, -1.0, 2.0, 3.0]


def test_sort_argsort_and_grad():
    x = paddle.to_tensor([3.0, float('nan'), 1.0, 2.0], stop_gradient=False)
    s = paddle.sort(x)
    assert _vals(s)[:3] == [1.0, 2.0, 3.0] and _vals(s)[3] != _vals(s)[3]
    assert _ints(paddle.argsort(x, descending=True)) == [1, 0, 3, 2]
    assert _ints(x.argsort()) == [2, 3, 0, 1]
    y = paddle.sort(x[paddle.to_tensor([0, 2, 3])], descending=True)
    (y * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    assert _vals(x.grad) == [1.0, 0.0, 3.0, 2.0]


def test_unique_with_counts():
    x = paddle.to_tensor([2, 3, 3, 1, 5, 3])
    out = paddle.unique(x)
    assert _ints(out) == [1, 2, 3, 5]
    out, counts = paddle.unique(x, return_counts=True)
    assert _ints(out) == [1, 2, 3, 5] and _ints(counts) == [1, 1, 3, 1]
    out, index, inverse, counts = x.unique(return_index=True, return_inverse=True, return_counts=True)
    assert _ints(index) == [3, 0, 1, 4]
    assert _ints(inverse) == [1, 2, 2, 0, 3, 2]
    rows = paddle.unique(paddle.to_tensor([[1, 2], [0, 1], [1, 2]]), axis=0)
    assert rows.shape == [2, 2] and _ints(rows) == [0, 1, 1, 2]


def test_search_and_counting():
    seq = paddle.to_tensor([1.0, 3.0, 5.0, 7.0])
    vals = paddle.to_tensor([[3.0, 6.0], [8.0, 0.0]])
    assert _ints(paddle.searchsorted(seq, vals)) == [1, 3, 4, 0]
    assert _ints(paddle.searchsorted(seq, vals, right=True)) == [2, 3, 4, 0]
    assert str(paddle.bucketize(vals, seq, out_int32=True).dtype) == 'paddle.int32'
    v, i = paddle.kthvalue(paddle.to_tensor([[5.0, 1.0, 3.0]]), 2)
    assert _vals(v) == [3.0] and _ints(i) == [2]
    assert _ints(paddle.histogram(paddle.to_tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)) == [0, 2, 1, 0]
    assert _ints(paddle.bincount(paddle.to_tensor([1, 1, 3]), minlength=5)) == [0, 2, 0, 1, 0]
    assert _ints(paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 3, 1]))) == [1, 2, 3, 1]
