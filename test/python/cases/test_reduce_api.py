"""paddle.linalg.norm / paddle.norm / paddle.quantile (hand-written bindings) and a few of the
issue-6 ops through the generated API."""
import math

import paddle
import paddle.nn.functional as F


def _vals(t):
    return [float(v) for v in t.numpy().reshape(-1)]


def test_norm_picks_the_op_like_paddle():
    x = paddle.to_tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]])
    assert abs(_vals(paddle.linalg.norm(x))[0] - math.sqrt(34)) < 1e-5
    assert _vals(paddle.norm(x, p=2, axis=1)) == [5.0, 3.0]
    assert _vals(x.norm(1, axis=0)) == [4.0, 6.0, 2.0]
    assert _vals(paddle.linalg.norm(x, float('inf'))) == [4.0]
    assert paddle.linalg.norm(x, 2, axis=-1, keepdim=True).shape == [2, 1]
    # matrix norms over two axes (compat/paddle/_linalg_decomp_api.py)
    assert abs(_vals(paddle.linalg.norm(x, 2, axis=[0, 1]))[0] - 5.1413988) < 1e-4
    assert abs(_vals(paddle.linalg.norm(x, 'nuc', axis=[0, 1]))[0] - 7.8920385) < 1e-4
    assert _vals(paddle.linalg.norm(x, float('inf'), axis=[0, 1])) == [7.0]


def test_quantile_number_or_list():
    x = paddle.to_tensor([[1.0, 3.0, 2.0], [0.0, -1.0, 5.0]])
    assert _vals(paddle.quantile(x, 0.5, axis=1)) == [2.0, 0.0]
    assert paddle.quantile(x, [0.25, 0.5], axis=1, keepdim=True).shape == [2, 2, 1]
    assert x.quantile(0.5).shape == []


def test_generated_issue6_ops():
    x = paddle.to_tensor([-1.0, 0.5, 2.0])
    assert abs(_vals(F.elu(x, 0.5))[0] - 0.5 * math.expm1(-1)) < 1e-6
    assert _vals(paddle.reciprocal(x)) == [-1.0, 2.0, 0.5]
    v, i = paddle.cummax(x)
    assert _vals(i) == [0, 1, 2]
    y = paddle.to_tensor([1.0, 2.0, 3.0])
    y.lerp_(paddle.to_tensor([3.0, 3.0, 3.0]), 0.5)
    assert _vals(y) == [2.0, 2.5, 3.0]
    assert bool(paddle.allclose(x, x)) is True
