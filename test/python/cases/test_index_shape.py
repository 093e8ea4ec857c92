"""Issue 6's indexing and shape ops through the Python API (src/ops/defs/index_scatter.ts,
shape_more.ts; hand-bound meshgrid / repeat_interleave in compat/paddle/_shape_api.py): Paddle 2.6
names and argument orders, Tensor methods, inplace variants, gradients and errors naming the op."""
import paddle


def _l(t):
    return t.tolist()


X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]


def test_scatter_family():
    x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    index = paddle.to_tensor([2, 1, 0, 1])
    updates = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    # Paddle 2.6's documented example
    assert _l(paddle.scatter(x, index, updates, overwrite=False)) == [[3.0, 3.0], [6.0, 6.0], [1.0, 1.0]]
    assert _l(paddle.scatter(x, index, updates)) == [[3.0, 3.0], [4.0, 4.0], [1.0, 1.0]]
    y = paddle.scatter_nd_add(paddle.zeros([3, 2]), paddle.to_tensor([[1], [1], [-1]]), paddle.ones([3, 2]))
    assert _l(y) == [[0.0, 0.0], [2.0, 2.0], [1.0, 1.0]]
    z = paddle.scatter_nd(paddle.to_tensor([[0, 1]]), paddle.to_tensor([5.0]), [2, 2])
    assert _l(z) == [[0.0, 5.0], [0.0, 0.0]]
    x.scatter_(paddle.to_tensor([0]), paddle.to_tensor([[9.0, 9.0]]))
    assert _l(x)[0] == [9.0, 9.0]


def test_take_put_along_axis():
    x = paddle.to_tensor(X)
    idx = paddle.to_tensor([[0], [2], [1]])
    assert _l(paddle.take_along_axis(x, idx, axis=1)) == [[1.0], [6.0], [8.0]]
    assert _l(x.take_along_axis(paddle.to_tensor([[2, 0]]), 1)) == [[3.0, 1.0], [6.0, 4.0], [9.0, 7.0]]
    out = paddle.put_along_axis(x, idx, 0.0, axis=1)
    assert _l(out) == [[0.0, 2.0, 3.0], [4.0, 5.0, 0.0], [7.0, 0.0, 9.0]]
    m = paddle.put_along_axis(x, paddle.to_tensor([[0, 0]]), paddle.to_tensor([[3.0, 6.0]]), 1, reduce='mean')
    assert _l(m)[0] == [10.0 / 3, 2.0, 3.0] or abs(_l(m)[0][0] - 10.0 / 3) < 1e-6
    a = paddle.put_along_axis(x, paddle.to_tensor([[1]]), paddle.to_tensor([[10.0]]), 1, reduce='amax', include_self=False)
    assert _l(a)[2] == [7.0, 10.0, 9.0]
    try:
        paddle.take_along_axis(x, paddle.to_tensor([[3]]), axis=1)
        assert False
    except Exception as e:
        assert 'take_along_axis' in str(e) and 'out of range' in str(e)


def test_index_fill_roll_repeat_chunk():
    x = paddle.to_tensor(X)
    assert _l(x.index_fill(paddle.to_tensor([0, 2]), 1, -1.0))[0] == [-1.0, 2.0, -1.0]
    assert _l(paddle.roll(x, shifts=1))[0] == [9.0, 1.0, 2.0]
    assert _l(paddle.roll(x, shifts=[1, 1], axis=[0, 1]))[0] == [9.0, 7.0, 8.0]
    assert _l(paddle.repeat_interleave(paddle.to_tensor([1, 2]), 2)) == [1, 1, 2, 2]
    assert _l(paddle.repeat_interleave(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([2, 0, 1]))) == [1, 1, 3]
    assert x.repeat_interleave(2, axis=1).shape == [3, 6]
    parts = paddle.chunk(x, 3, axis=1)
    assert len(parts) == 3 and _l(parts[1]) == [[2.0], [5.0], [8.0]]


def test_diagonals_and_views():
    x = paddle.to_tensor(X)
    assert _l(paddle.diag(paddle.to_tensor([1, 2]), offset=1)) == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    assert _l(paddle.diag(x, -1)) == [4.0, 8.0]
    assert paddle.diag_embed(paddle.ones([2, 3])).shape == [2, 3, 3]
    assert _l(x.diagonal(offset=1)) == [2.0, 6.0]
    assert _l(paddle.diagonal_scatter(x, paddle.zeros([3])))[1] == [4.0, 0.0, 6.0]
    assert _l(paddle.select_scatter(x, paddle.zeros([3]), 1, 0))[2] == [0.0, 8.0, 9.0]
    a, b = paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4, 5]))
    assert a.shape == [2, 3] and _l(b)[1] == [3, 4, 5]
    assert len(paddle.meshgrid([paddle.to_tensor([1]), paddle.to_tensor([2])])) == 2
    assert paddle.broadcast_to(paddle.to_tensor([1, 2]), [3, 2]).shape == [3, 2]
    assert _l(paddle.as_strided(x, [2, 2], [1, 3], 1)) == [[2.0, 5.0], [3.0, 6.0]]
    assert _l(paddle.arange(6).unfold(0, 2, 2)) == [[0, 1], [2, 3], [4, 5]]


def test_pad_modes():
    F = paddle.nn.functional
    x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
    assert _l(F.pad(x, [2, 1], mode='reflect', data_format='NCL')) == [[[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]]]
    assert _l(F.pad(x, [1, 2], mode='replicate', data_format='NCL')) == [[[1.0, 1.0, 2.0, 3.0, 3.0, 3.0]]]
    assert _l(F.pad(x, [1, 1], mode='circular', data_format='NCL')) == [[[3.0, 1.0, 2.0, 3.0, 1.0]]]
    assert F.pad(paddle.ones([1, 2, 3, 3]), [1, 1, 2, 0], mode='reflect').shape == [1, 2, 5, 5]


def test_gradients():
    x = paddle.to_tensor(X, stop_gradient=False)
    y = paddle.take_along_axis(x, paddle.to_tensor([[0, 0], [1, 2], [2, 2]]), 1)
    y.sum().backward()
    assert _l(x.grad) == [[2.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 2.0]]
    v = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    F = paddle.nn.functional
    F.pad(v.reshape([1, 1, 3]), [2, 0], mode='reflect', data_format='NCL').sum().backward()
    assert _l(v.grad) == [1.0, 2.0, 2.0]
