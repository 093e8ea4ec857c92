"""F.scaled_dot_product_attention, F.rms_norm, paddle.incubate.nn.functional.fused_rms_norm,
F.unfold / F.fold with nn.Unfold / nn.Fold, and F.fractional_max_pool2d / 3d from Python
(src/ops/defs/nn_transformer.ts, nn_im2col.ts, nn_pool_frac.ts; Python glue in
paddle/nn/functional/_transformer.py, _pool_frac.py, paddle/nn/layer/im2col.py, paddle/incubate)."""
import math

import paddle
import paddle.nn.functional as F


def _close(a, b, tol=1e-5):
    return float((a - b).abs().max()) < tol


def _unfused(q, k, v, bias=None):
    t = lambda x: paddle.transpose(x, [0, 2, 1, 3])  # noqa: E731
    s = paddle.matmul(t(q), t(k), transpose_y=True) * (1.0 / math.sqrt(q.shape[3]))
    if bias is not None:
        s = s + bias
    return t(paddle.matmul(F.softmax(s, -1), t(v)))


def test_sdpa_matches_the_unfused_ops_and_takes_masks():
    paddle.seed(3)
    q, k, v = paddle.randn([2, 6, 3, 4]), paddle.randn([2, 6, 3, 4]), paddle.randn([2, 6, 3, 4])
    assert _close(F.scaled_dot_product_attention(q, k, v), _unfused(q, k, v))
    causal = paddle.triu(paddle.full([6, 6], float('-inf')), 1)
    assert _close(F.scaled_dot_product_attention(q, k, v, is_causal=True), _unfused(q, k, v, causal))
    keep = paddle.tril(paddle.ones([6, 6])) > 0
    assert _close(F.scaled_dot_product_attention(q, k, v, keep), _unfused(q, k, v, causal))
    bias = paddle.randn([1, 3, 6, 6])
    assert _close(F.scaled_dot_product_attention(q, k, v, bias), _unfused(q, k, v, bias))


def test_sdpa_gradients_and_dropout_path():
    q = paddle.randn([1, 4, 2, 3])
    q.stop_gradient = False
    F.scaled_dot_product_attention(q, q, q, is_causal=True).sum().backward()
    assert q.grad.shape == [1, 4, 2, 3]
    out = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5, training=True)
    assert out.shape == [1, 4, 2, 3]
    assert _close(F.scaled_dot_product_attention(q, q, q, dropout_p=0.5, training=False), _unfused(q, q, q))
    try:
        F.scaled_dot_product_attention(q, q, paddle.zeros([1, 4, 3, 3]))
        raise AssertionError('expected an error')
    except ValueError as e:
        assert 'scaled_dot_product_attention: shapes do not match' in str(e)


def test_rms_norm_and_fused_rms_norm():
    x = paddle.to_tensor([[3.0, 4.0], [0.0, 2.0]])
    w = paddle.to_tensor([1.0, 2.0])
    y = F.rms_norm(x, [2], w, eps=0.0)
    r = math.sqrt(12.5)
    assert _close(y, paddle.to_tensor([[3 / r, 8 / r], [0.0, 2 * 2 / math.sqrt(2.0)]]))
    res = paddle.ones([2, 2])
    out, summed = paddle.incubate.nn.functional.fused_rms_norm(x, w, paddle.zeros([2]), 1e-6, 1, residual=res)
    assert _close(summed, x + 1) and _close(out, F.rms_norm(x + 1, 2, w))
    try:
        F.rms_norm(x, [3])
        raise AssertionError('expected an error')
    except ValueError as e:
        assert 'rms_norm' in str(e)


def test_unfold_fold_layers():
    img = paddle.arange(2 * 3 * 4 * 4, dtype='float32').reshape([2, 3, 4, 4])
    cols = paddle.nn.Unfold(2, strides=2)(img)
    assert cols.shape == [2, 12, 4]
    assert cols[0, :4, 0].tolist() == [0.0, 1.0, 4.0, 5.0]
    assert _close(paddle.nn.Fold([4, 4], 2, strides=2)(cols), img)
    # overlapping blocks accumulate: fold(unfold(ones)) counts how many windows cover each pixel
    ones = paddle.ones([1, 1, 3, 3])
    cover = F.fold(F.unfold(ones, 2), [3, 3], 2)
    assert cover[0, 0].tolist() == [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]


def test_fractional_max_pool():
    x = paddle.to_tensor([[[[2.0, 4, 3, 1, 5, 2, 3]]]])
    out, mask = F.fractional_max_pool2d(x, [None, 5], random_u=0.3, return_mask=True)
    assert out.tolist() == [[[[2.0, 4.0, 1.0, 5.0, 3.0]]]] and mask.tolist() == [[[[0, 1, 3, 4, 6]]]]
    y = paddle.rand([1, 2, 9, 9])
    paddle.seed(7)
    a = F.fractional_max_pool2d(y, 4)
    paddle.seed(7)
    assert F.fractional_max_pool2d(y, 4).tolist() == a.tolist()
    assert F.fractional_max_pool3d(paddle.rand([1, 1, 4, 5, 6]), [2, 3, None], kernel_size=[2, 2, 1], random_u=0.5).shape == [1, 1, 2, 3, 6]


def test_fractional_max_pool_layers():
    x = paddle.rand([2, 3, 8, 8])
    out, mask = paddle.nn.FractionalMaxPool2D(3, random_u=0.5, return_mask=True)(x)
    assert out.shape == [2, 3, 3, 3] and mask.dtype == paddle.int32
    assert paddle.nn.FractionalMaxPool3D([2, 2, 2], kernel_size=2)(paddle.rand([1, 1, 4, 4, 4])).shape == [1, 1, 2, 2, 2]
