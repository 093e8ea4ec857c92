"""Basic indexing: ints, slices, None, Ellipsis (built from slice / strided_slice / squeeze /
unsqueeze), tensor indices; assignment is in test_setitem.py."""
import paddle


def x23():
    return paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def test_int_index_drops_a_dim():
    x = x23()
    assert x[0].tolist() == [1.0, 2.0, 3.0]
    assert x[-1].shape == [3]
    assert x[1, 2].shape == [] and x[1, 2].item() == 6.0
    assert x[0][1].item() == 2.0


def test_slices():
    x = x23()
    assert x[:, 1:].tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert x[:1].shape == [1, 3]
    assert x[:, ::2].tolist() == [[1.0, 3.0], [4.0, 6.0]]
    assert x[:, -2:].tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert x[:, 5:].shape == [2, 0]


def test_negative_steps():
    x = x23()
    assert x[0, ::-1].tolist() == [3.0, 2.0, 1.0]
    assert x[::-1].tolist() == [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]
    assert x[1, 2:0:-1].tolist() == [6.0, 5.0]
    assert x[:, ::-2].tolist() == [[3.0, 1.0], [6.0, 4.0]]


def test_none_and_ellipsis():
    x = x23()
    assert x[None].shape == [1, 2, 3]
    assert x[:, None].shape == [2, 1, 3]
    assert x[..., None].shape == [2, 3, 1]
    assert x[..., 1].tolist() == [2.0, 5.0]
    assert x[None, ..., None].shape == [1, 2, 3, 1]
    assert x[...].tolist() == x.tolist()


def test_index_errors():
    x = x23()
    for idx in (2, (0, 3), (0, 0, 0), (-3,)):
        try:
            x[idx]
        except IndexError:
            pass
        else:
            raise AssertionError('x[%r] should raise IndexError' % (idx,))
    try:
        x['a']
    except TypeError:
        pass
    else:
        raise AssertionError("x['a'] should raise TypeError")


def test_tensor_indices():
    x = x23()
    assert x[paddle.to_tensor(1)].tolist() == [4.0, 5.0, 6.0]
    assert x[paddle.to_tensor([1, 0])].tolist() == [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]
    assert x[[1, 1]].shape == [2, 3]


def test_iteration_uses_indexing():
    assert [r.tolist() for r in paddle.to_tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]
    assert [v.item() for v in paddle.to_tensor([5, 6])] == [5, 6]


def test_setitem_works_now():
    # Assignment is covered by test_setitem.py; this keeps the old documented behaviour's slot.
    x = x23()
    x[0] = 1.0
    assert x.tolist() == [[1.0, 1.0, 1.0], [4.0, 5.0, 6.0]]
