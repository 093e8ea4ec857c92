"""addmm(_), renorm(_), t(_), Tensor.fill_diagonal_, fill_diagonal_tensor(_), atleast_1d/2d/3d and
paddle.amp.debugging.check_numerics from Python (src/ops/defs/matrix_more.ts, debugging.ts;
Python glue in paddle/_matrix_api.py and paddle/amp/debugging.py)."""
import paddle
from paddle.amp.debugging import DebugMode, check_numerics


def test_addmm_and_its_inplace_variant():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    inp = paddle.to_tensor([1.0, -1.0])
    assert paddle.addmm(inp, x, x, beta=0.5, alpha=2.0).tolist() == [[14.5, 19.5], [30.5, 43.5]]
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert y.addmm_(x, x) is y
    assert y.tolist() == [[8.0, 12.0], [18.0, 26.0]]
    try:
        paddle.addmm(inp, x, paddle.zeros([3, 2]))
        raise AssertionError('expected an error')
    except ValueError as e:
        assert "addmm: x's width must equal y's height" in str(e)


def test_renorm_and_renorm_():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype='float64')
    want = [[1.0, 2.0], [3 * 3 / (5 + 1e-6), 4 * 3 / (5 + 1e-6)]]
    got = paddle.renorm(x, 2, 0, 3.0).tolist()
    assert all(abs(g - w) < 1e-12 for gr, wr in zip(got, want) for g, w in zip(gr, wr))
    assert x.renorm_(2.0, 0, 3.0) is x
    assert x.tolist() == got


def test_t_is_a_view_and_t_rebinds():
    m = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    v = m.t()
    assert v.shape == [3, 2] and v.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert paddle.t(paddle.to_tensor([1.0, 2.0])).shape == [2]
    assert paddle.t_(m) is m and m.shape == [3, 2]
    try:
        paddle.t(paddle.zeros([2, 2, 2]))
        raise AssertionError('expected an error')
    except ValueError as e:
        assert 'only support N-D (N<=2) tensor' in str(e)


def test_fill_diagonal_and_its_gradient():
    q = paddle.zeros([5, 3])
    assert q.fill_diagonal_(1.0, wrap=True) is q
    assert q.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [1, 0, 0]]
    w = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    h = w * 1
    h.fill_diagonal_(0.0)
    (h * w).sum().backward()
    assert w.grad.tolist() == [[0.0, 4.0], [6.0, 0.0]]


def test_fill_diagonal_tensor():
    a = paddle.zeros([2, 3, 3])
    b = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    out = a.fill_diagonal_tensor(b, offset=1, dim1=1, dim2=2)
    assert out.tolist()[1] == [[0, 3, 0], [0, 0, 4], [0, 0, 0]]
    assert a.sum().item() == 0
    assert a.fill_diagonal_tensor_(b, offset=1, dim1=1, dim2=2) is a
    assert a.tolist() == out.tolist()


def test_atleast_nd():
    s, v, m = paddle.atleast_3d(paddle.to_tensor(1.0), paddle.to_tensor([1, 2]), paddle.zeros([2, 2]))
    assert (s.shape, v.shape, m.shape) == ([1, 1, 1], [1, 2, 1], [2, 2, 1])
    assert paddle.atleast_2d(paddle.to_tensor([1, 2])).shape == [1, 2]
    assert paddle.atleast_1d(3).shape == [1]
    x = paddle.zeros([3])
    y = paddle.atleast_2d(x)
    y[0, 1] = 5.0   # a view: the write shows in x
    assert x.tolist() == [0.0, 5.0, 0.0]


def test_check_numerics():
    stats, values = check_numerics(paddle.to_tensor([1.0, 0.0, 3.0]), 'pow', 'res')
    assert stats.dtype == paddle.int64 and stats.tolist() == [0, 0, 1]
    assert values.dtype == paddle.float32 and values.tolist()[:2] == [3.0, 0.0]
    stats, _ = check_numerics(paddle.to_tensor([1.0, float('nan'), float('inf')]), 'pow', 'res', DebugMode.CHECK_NAN_INF)
    assert stats.tolist() == [1, 1, 0]
    try:
        paddle.amp.debugging.check_numerics(paddle.to_tensor([float('nan')]), 'pow', 'res')
        raise AssertionError('expected an error')
    except RuntimeError as e:
        assert 'There are NaN or Inf in [operator=pow, tensor=res' in str(e)


def test_multigammaln_inplace():
    x = paddle.to_tensor([2.5, 3.0], dtype='float64')
    want = paddle.multigammaln(x, 2).tolist()
    assert x.multigammaln_(2) is x
    assert x.tolist() == want
    w = paddle.to_tensor([2.5, 3.0], dtype='float64', stop_gradient=False)
    h = w * 1
    paddle.multigammaln_(h, 2)
    h.sum().backward()
    g = w.grad.tolist()
    w2 = paddle.to_tensor([2.5, 3.0], dtype='float64', stop_gradient=False)
    paddle.multigammaln(w2 * 1, 2).sum().backward()
    assert g == w2.grad.tolist()
    try:
        w.multigammaln_(2)
        raise AssertionError('expected an error')
    except ValueError as e:
        assert "can't use inplace strategy" in str(e)
