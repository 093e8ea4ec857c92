"""Inplace variants from Python: composed ones (cumsum_, softmax_, where_ writing its x) write
into x; rebinding ones (reshape_, equal_) give x a new shape or dtype that Python sees at once;
gradients flow through them; translated code captures them like eager."""
import paddle

F = paddle.nn.functional


def test_assign_variants_write_x_and_return_it():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.cumsum_(1) is x
    assert x.tolist() == [[1.0, 3.0], [3.0, 7.0]]
    F.softmax_(x)
    assert [round(v, 6) for v in x.sum(axis=-1).tolist()] == [1.0, 1.0]
    a = paddle.to_tensor([1.0, -2.0, 3.0])
    assert paddle.where_(a > 0, a, paddle.to_tensor([9.0, 9.0, 9.0])) is a
    assert a.tolist() == [1.0, 9.0, 3.0]


def test_rebinding_variants_change_shape_and_dtype_in_place():
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    assert x.reshape_([4]) is x and x.shape == [4]
    x.unsqueeze_(0)
    assert x.shape == [1, 4]
    x.equal_(paddle.to_tensor(3.0))
    assert x.dtype == paddle.bool
    assert x.tolist() == [[False, False, True, False]]


def test_gradients_through_inplace_variants():
    w = paddle.to_tensor([0.5, 2.0], stop_gradient=False)
    h = w * 1
    h.pow_(2)
    h.cumsum_(0)
    h.sum().backward()
    # d/dw of (w0^2 + (w0^2 + w1^2)) = [4 w0, 2 w1]
    assert w.grad.tolist() == [2.0, 4.0]


def test_leaf_that_wants_gradients_is_refused():
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    try:
        w.reshape_([2, 1])
    except Exception as e:
        assert "can't use inplace strategy" in str(e), e
    else:
        raise AssertionError('reshape_ on a leaf that wants gradients should raise')


def test_translated_code_matches_eager():
    def f(t):
        t = t * 1
        t.cumsum_(0)
        t.sigmoid_()
        return t

    x = paddle.to_tensor([1.0, 2.0, 3.0])
    assert paddle.jit.to_static(f)(x).tolist() == f(x).tolist()
