"""paddle.linalg qr/svd/eigh/eigvalsh/matrix_rank/pinv/lstsq through the generated API, and the
hand-written composites pca_lowrank and cond (compat/paddle/_linalg_decomp_api.py)."""
import math

import paddle


def _vals(t):
    return [float(v) for v in t.numpy().reshape(-1)]


def _close(a, b, tol=1e-4):
    return all(abs(x - y) <= tol * (1 + abs(y)) for x, y in zip(a, b)) and len(a) == len(b)


def test_decompositions_reconstruct():
    x = paddle.to_tensor([[1.0, 3.0], [3.0, 2.0], [5.0, 6.0]])
    q, r = paddle.linalg.qr(x)
    assert q.shape == [3, 2] and r.shape == [2, 2]
    assert _close(_vals(paddle.matmul(q, r)), _vals(x))
    assert paddle.linalg.qr(x, mode='r').shape == [2, 2]
    u, s, vh = paddle.linalg.svd(x)
    assert _close(_vals(s), [9.0345573, 1.5416791])
    assert _close(_vals(paddle.matmul(u * s, vh)), _vals(x))
    a = paddle.to_tensor([[2.0, 1.0], [1.0, 2.0]])
    w, v = paddle.linalg.eigh(a)
    assert _close(_vals(w), [1.0, 3.0]) and _close(_vals(paddle.linalg.eigvalsh(a, UPLO='U')), [1.0, 3.0])


def test_rank_pinv_lstsq():
    x = paddle.to_tensor([[1.0, 3.0], [3.0, 2.0], [5.0, 6.0]])
    assert int(paddle.linalg.matrix_rank(x)) == 2
    assert str(paddle.linalg.matrix_rank(x).dtype).endswith('int64')
    assert _close(_vals(paddle.matmul(paddle.linalg.pinv(x), x)), [1.0, 0.0, 0.0, 1.0])
    y = paddle.to_tensor([[3.0, 4.0, 6.0], [5.0, 3.0, 4.0], [1.0, 2.0, 1.0]])
    sol, res, rank, sv = paddle.linalg.lstsq(x, y, driver='gelsd')
    assert _close(_vals(sol), [0.78350395, -0.22165027, -0.62371236, -0.11340097, 0.78866047, 1.14948535])
    assert _close(_vals(res), [19.81443405, 10.43814468, 30.56185532])
    assert int(rank) == 2 and sv.shape == [2]
    assert paddle.linalg.lstsq(x, y)[3].shape == [0]  # gelsy: no singular values


def test_pca_lowrank_and_cond():
    paddle.seed(7)
    a, b = paddle.randn([30, 2], dtype='float64'), paddle.randn([2, 6], dtype='float64')
    x = paddle.matmul(a, b)
    U, S, V = paddle.linalg.pca_lowrank(x, q=2)
    assert U.shape == [30, 2] and S.shape == [2] and V.shape == [6, 2]
    xc = x - x.mean(axis=0, keepdim=True)
    err = paddle.linalg.norm(paddle.matmul(U * S, V, transpose_y=True) - xc) / paddle.linalg.norm(xc)
    assert float(err) < 1e-8
    m = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert abs(float(paddle.linalg.cond(m)) - 14.933034) < 1e-3
    assert abs(float(paddle.linalg.cond(m, 'fro')) - 15.0) < 1e-3
    assert abs(float(paddle.linalg.cond(m, math.inf)) - 21.0) < 1e-3


def test_svd_gradient_and_errors():
    x = paddle.to_tensor([[2.0, 0.5, 0.1], [0.3, 1.0, 0.2], [0.1, 0.4, 3.0], [1.0, 1.0, 1.0]], dtype='float64')
    x.stop_gradient = False
    s = paddle.linalg.svd(x)[1]
    s.sum().backward()
    assert x.grad.shape == [4, 3]
    try:
        paddle.linalg.eigh(paddle.ones([2, 3]))
    except ValueError as e:
        assert 'eigh: expected square matrices' in str(e)
    else:
        raise AssertionError('eigh of a non-square matrix should raise')
