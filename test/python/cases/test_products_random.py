"""Issue 6 from Python: dot / outer / kron / cross (generated), einsum and multigammaln
(compat/paddle/_composite_api.py), polygamma, the random samplers, the inplace fills
(compat/paddle/_random_api.py) and nn.initializer.TruncatedNormal."""
import math

import paddle


def _vals(t):
    return [float(v) for v in t.numpy().reshape(-1)]


def test_products():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert paddle.dot(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])).shape == []
    assert _vals(paddle.linalg.dot(x, x)) == [5.0, 25.0]
    assert _vals(paddle.outer(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]))) == [3.0, 4.0, 6.0, 8.0]
    assert paddle.kron(x, x).shape == [4, 4]
    a = paddle.to_tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])
    b = paddle.ones([3, 3])
    assert _vals(paddle.cross(a, b)) == [-1.0, -1.0, -1.0, 2.0, 2.0, 2.0, -1.0, -1.0, -1.0]
    assert _vals(paddle.linalg.cross(a, b, axis=1)) == [0.0] * 9
    assert _vals(a.cross(b, axis=1)) == [0.0] * 9
    try:
        paddle.cross(paddle.ones([2, 2]), paddle.ones([2, 2]))
    except Exception as e:
        assert 'cross' in str(e) and 'size 3' in str(e)
    else:
        raise AssertionError('cross without an axis of size 3 should raise')


def test_einsum():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert _vals(paddle.einsum('ij,jk->ik', x, x)) == [7.0, 10.0, 15.0, 22.0]
    assert _vals(paddle.einsum('ii', x)) == [5.0]
    assert _vals(paddle.einsum('ii->i', x)) == [1.0, 4.0]
    assert paddle.einsum('...ij,...jk', paddle.ones([2, 1, 2, 3]), paddle.ones([4, 3, 5])).shape == [2, 4, 2, 5]
    assert _vals(paddle.einsum('i,j', paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0]))) == [3.0, 6.0]
    w = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    paddle.einsum('ij,jk->', w, w).backward()
    assert _vals(w.grad) == [7.0, 11.0, 9.0, 13.0]
    for eq, err in (('ij,jk->q', 'does not appear'), ('i', 'has 1 labels'), ('i$j', 'invalid character')):
        try:
            paddle.einsum(eq, x, x) if ',' in eq else paddle.einsum(eq, x)
        except Exception as e:
            assert 'einsum' in str(e) and err in str(e), str(e)
        else:
            raise AssertionError('einsum(%r) should raise' % eq)


def test_polygamma_multigammaln():
    x = paddle.to_tensor([1.0, 0.5], dtype='float64')
    assert abs(_vals(paddle.polygamma(x, 1))[0] - math.pi ** 2 / 6) < 1e-12
    assert abs(_vals(x.polygamma(1))[1] - math.pi ** 2 / 2) < 1e-12
    assert abs(_vals(paddle.polygamma(x, 0))[0] + 0.5772156649015329) < 1e-12
    got = _vals(paddle.multigammaln(paddle.to_tensor([2.5], dtype='float64'), 3))[0]
    want = 1.5 * math.log(math.pi) + math.lgamma(2.5) + math.lgamma(2.0) + math.lgamma(1.5)
    assert abs(got - want) < 1e-12


def test_random_samplers():
    paddle.seed(7)
    b = paddle.bernoulli(paddle.full([4000], 0.25))
    assert abs(float(b.mean()) - 0.25) < 0.05
    try:
        paddle.bernoulli(paddle.to_tensor([0.5, 1.5]))
    except Exception as e:
        assert 'bernoulli' in str(e) and '1.5' in str(e)
    else:
        raise AssertionError('bernoulli with p > 1 should raise')
    m = paddle.multinomial(paddle.to_tensor([[0.1, 0.0, 0.9], [1.0, 1.0, 0.0]]), 2)
    assert m.dtype == paddle.int64 and m.shape == [2, 2]
    assert sorted(_vals(m[1])) == [0.0, 1.0]
    p = paddle.randperm(6)
    assert sorted(_vals(p)) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and p.dtype == paddle.int64
    assert paddle.randperm(3, dtype='float32').dtype == paddle.float32
    assert abs(float(paddle.poisson(paddle.full([4000], 6.0)).mean()) - 6.0) < 0.3
    assert paddle.standard_gamma(paddle.full([3], 2.0)).shape == [3]
    paddle.seed(11)
    r1 = _vals(paddle.randperm(20))
    paddle.seed(11)
    assert _vals(paddle.randperm(20)) == r1


def test_inplace_fills():
    x = paddle.zeros([500])
    assert x.exponential_(2.0) is x
    assert min(_vals(x)) >= 0
    x.uniform_(min=-1, max=0)
    assert max(_vals(x)) < 0
    paddle.normal_(x, mean=10.0, std=0.5)
    assert abs(float(x.mean()) - 10.0) < 0.2
    x.bernoulli_(0.5)
    assert set(_vals(x)) <= {0.0, 1.0}
    paddle.uniform_(x, 2.0, 3.0)
    assert min(_vals(x)) >= 2.0


def test_truncated_normal_initializer():
    lin = paddle.nn.Linear(40, 50, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.TruncatedNormal(0.0, 2.0)))
    v = _vals(lin.weight)
    assert max(abs(a) for a in v) <= 4.0
    assert abs(sum(a * a for a in v) / len(v) - 4 * 0.7737) < 0.4
