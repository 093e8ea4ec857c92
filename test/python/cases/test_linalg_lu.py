"""The LU/Cholesky family through the generated Python API (src/ops/defs/linalg_lu.ts):
paddle.linalg names, Paddle 2.6 result structures (slogdet stacked, lu's tuple with infos,
1-based int32 pivots), gradients, and errors naming the op and the matrix."""
import paddle


def _vals(t):
    return [float(v) for v in t.numpy().reshape(-1)]


def _close(a, b, tol=1e-6):
    return len(a) == len(b) and all(abs(x - y) <= tol * (1 + abs(y)) for x, y in zip(a, b))


A = [[4.0, 3.0, 2.0], [2.0, 5.0, 1.0], [1.0, 2.0, 6.0]]


def test_names_match_paddle():
    for name in ['lu', 'lu_unpack', 'det', 'slogdet', 'inv', 'solve', 'triangular_solve', 'cholesky', 'cholesky_solve', 'matrix_power']:
        assert callable(getattr(paddle.linalg, name)), name
    assert callable(paddle.inverse) and callable(paddle.cholesky) and callable(paddle.matrix_power)
    x = paddle.to_tensor(A, dtype='float64')
    assert x.inverse().shape == [3, 3] and x.matrix_power(2).shape == [3, 3]


def test_det_slogdet_inv():
    x = paddle.to_tensor(A, dtype='float64')
    assert _close(_vals(paddle.linalg.det(x)), [77.0])
    s = paddle.linalg.slogdet(paddle.stack([x, -x]))
    assert s.shape == [2, 2]
    import math
    assert _close(_vals(s), [1.0, -1.0, math.log(77.0), math.log(77.0)])
    prod = paddle.matmul(x, paddle.linalg.inv(x))
    assert _close(_vals(prod), [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0], 1e-9)


def test_lu_and_unpack_like_paddle_example():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype='float64')
    lu, p, info = paddle.linalg.lu(x, get_infos=True)
    assert p.dtype == paddle.int32 and _vals(p) == [3.0, 3.0] and _vals(info) == [0.0]
    assert _close(_vals(lu), [5.0, 6.0, 0.2, 0.8, 0.6, 0.5])
    P, L, U = paddle.linalg.lu_unpack(lu, p)
    assert _vals(P) == [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert _close(_vals(paddle.matmul(P, paddle.matmul(L, U))), _vals(x))
    assert len(paddle.linalg.lu(x)) == 2


def test_solves_and_cholesky():
    x = paddle.to_tensor(A, dtype='float64')
    b = paddle.to_tensor([1.0, 2.0, 3.0], dtype='float64')
    sol = paddle.linalg.solve(x, b)
    assert sol.shape == [3] and _close(_vals(paddle.matmul(x, sol)), [1.0, 2.0, 3.0])
    spd = paddle.matmul(x, x, transpose_y=True)
    L = paddle.linalg.cholesky(spd)
    assert _close(_vals(paddle.matmul(L, L, transpose_y=True)), _vals(spd))
    rhs = paddle.ones([3, 2], dtype='float64')
    y = paddle.linalg.cholesky_solve(rhs, L)
    assert _close(_vals(paddle.matmul(spd, y)), [1.0] * 6)
    t = paddle.linalg.triangular_solve(L, rhs, upper=False)
    assert _close(_vals(paddle.matmul(L, t)), [1.0] * 6)


def test_gradient_of_det():
    x = paddle.to_tensor(A, dtype='float64', stop_gradient=False)
    paddle.linalg.det(x).backward()
    # d det / dx = det * inv(x)^T
    want = _vals(paddle.scale(paddle.transpose(paddle.linalg.inv(x.detach()), [1, 0]), 77.0))
    assert _close(_vals(x.grad), want, 1e-9)


def test_errors_name_the_op_and_matrix():
    try:
        paddle.linalg.inv(paddle.to_tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]))
        raise AssertionError('no error')
    except ValueError as e:
        assert 'inverse: matrix 1 of the batch [2] is singular' in str(e)
    try:
        paddle.linalg.cholesky(paddle.to_tensor([[1.0, 2.0], [2.0, 1.0]]))
        raise AssertionError('no error')
    except ValueError as e:
        assert 'cholesky:' in str(e) and 'not positive definite' in str(e)
