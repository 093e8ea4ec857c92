"""paddle.Tensor basics: creation, metadata, conversion back to Python, printing."""
import array
import copy
import sys
import unittest

import paddle


def test_to_tensor_default_dtypes():
    assert paddle.to_tensor(3).dtype == paddle.int64
    assert paddle.to_tensor(3.0).dtype == paddle.float32
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert paddle.to_tensor([1, 2]).dtype == 'int64'
    assert paddle.to_tensor([1, 2.5]).dtype == 'float32'
    assert paddle.to_tensor([True, 1]).dtype == 'int64'
    assert paddle.to_tensor([[True], [False]]).dtype == 'bool'
    assert paddle.to_tensor([]).shape == [0]


def test_to_tensor_shapes_and_values():
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype='float32')
    assert x.shape == [2, 3]
    assert isinstance(x.shape, list) and all(type(d) is int for d in x.shape)
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert paddle.to_tensor(((1, 2), (3, 4))).tolist() == [[1, 2], [3, 4]]
    s = paddle.to_tensor(2.5)
    assert s.shape == [] and s.ndim == 0 and s.size == 1 and s.tolist() == 2.5


def test_to_tensor_dtype_conversion():
    assert paddle.to_tensor([1.7, -2.7], dtype='int32').tolist() == [1, -2]
    assert paddle.to_tensor([1, 2], dtype=paddle.float64).dtype == paddle.float64
    assert paddle.to_tensor([0.1], dtype='float16').tolist() == [0.0999755859375]
    assert paddle.to_tensor([1, 0, 2], dtype='bool').tolist() == [True, False, True]
    assert paddle.to_tensor([2**40, -3]).tolist() == [2**40, -3]


def test_to_tensor_from_bytes_and_buffers():
    t = paddle.to_tensor(b'\x01\x02\xff')
    assert t.dtype == 'uint8' and t.tolist() == [1, 2, 255]
    f = paddle.to_tensor(array.array('f', [0.5, 1.5]))
    assert f.dtype == 'float32' and f.tolist() == [0.5, 1.5]
    d = paddle.to_tensor(memoryview(array.array('d', [1.0, 2.0, 3.0, 4.0])).cast('B').cast('d', [2, 2]))
    assert d.dtype == 'float64' and d.shape == [2, 2]


def test_to_tensor_from_tensor_copies():
    x = paddle.to_tensor([1.0, 2.0])
    y = paddle.to_tensor(x)
    assert y is not x and y.tolist() == [1.0, 2.0]
    assert paddle.to_tensor(x, dtype='int64').dtype == paddle.int64
    assert paddle.to_tensor([x, x]).shape == [2, 2]


def test_to_tensor_errors():
    for bad, exc in (([[1, 2], [3]], ValueError), ([1, [2]], ValueError), ('abc', TypeError), (1 + 2j, NotImplementedError)):
        try:
            paddle.to_tensor(bad)
        except exc:
            pass
        else:
            raise AssertionError('to_tensor(%r) should raise %s' % (bad, exc.__name__))


def test_dtype_objects():
    assert paddle.float32 == 'float32' and 'float32' == paddle.float32
    assert paddle.float32 == 'paddle.float32'
    assert paddle.float32 != paddle.float64 and paddle.int64 != 'int32'
    assert repr(paddle.float32) == 'paddle.float32' and str(paddle.int64) == 'paddle.int64'
    assert {paddle.float32: 1}['float32'] == 1
    assert paddle.bool == 'bool'
    assert paddle.get_default_dtype() == 'float32'


def test_item_and_scalar_conversions():
    x = paddle.to_tensor([[1.5, 2.0], [3.0, 4.0]])
    assert x.item(0, 1) == 2.0 and type(x.item(0, 1)) is float
    assert x.item(3) == 4.0
    n = paddle.to_tensor(7)
    assert n.item() == 7 and type(n.item()) is int
    assert int(n) == 7 and float(n) == 7.0 and type(float(n)) is float
    assert [10, 20, 30, 40, 50, 60, 70, 80][n] == 80  # __index__
    assert bool(paddle.to_tensor([1])) is True and bool(paddle.to_tensor(0.0)) is False
    assert paddle.to_tensor(True).item() is True
    assert paddle.to_tensor(2**62).item() == 2**62


def test_scalar_conversion_errors():
    x = paddle.to_tensor([1.0, 2.0])
    for f in (bool, float, int):
        try:
            f(x)
        except ValueError as e:
            assert 'one element' in str(e)
        else:
            raise AssertionError('%s() of a 2-element tensor should raise' % f.__name__)
    try:
        [1, 2][paddle.to_tensor(1.0)]
    except TypeError:
        pass
    else:
        raise AssertionError('a float tensor is not an index')


def test_len_iter():
    x = paddle.to_tensor([[1, 2], [3, 4], [5, 6]])
    assert len(x) == 3
    rows = [r.tolist() for r in x]
    assert rows == [[1, 2], [3, 4], [5, 6]]
    try:
        len(paddle.to_tensor(1))
    except TypeError:
        pass
    else:
        raise AssertionError('len() of a 0-D tensor should raise TypeError')


def test_repr_matches_paddle():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert repr(x) == ('Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
                       '       [[1., 2., 3.],\n'
                       '        [4., 5., 6.]])')
    assert str(paddle.to_tensor([1, 2])) == ('Tensor(shape=[2], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
                                            '       [1, 2])')
    assert repr(paddle.to_tensor(0.5)) == ('Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
                                          '       0.50000000)')
    # every element padded to the widest; a sign column only when it is not already the widest
    assert repr(paddle.to_tensor([-1.0, 2.5])).endswith('[-1.       , 2.50000000])')
    assert repr(paddle.to_tensor([-0.5, 0.25])).endswith('[-0.50000000,  0.25000000])')
    assert repr(paddle.to_tensor([True, False])).endswith('[True , False])')


def test_repr_summarizes_large_tensors():
    x = paddle.to_tensor(list(range(2000)))
    r = repr(x)
    assert '...' in r and r.endswith('[0   , 1   , 2   , ..., 1997, 1998, 1999])')


def test_stop_gradient_and_detach():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    assert x.stop_gradient is False
    x.stop_gradient = True
    assert x.stop_gradient is True
    d = x.detach()
    assert d.stop_gradient is True and d.tolist() == [1.0]


def test_clone_copy_astype():
    x = paddle.to_tensor([1.5, 2.5])
    assert x.clone().tolist() == [1.5, 2.5]
    assert copy.deepcopy(x).tolist() == [1.5, 2.5]
    assert x.astype('int32').tolist() == [1, 2] and x.astype(paddle.int32).dtype == 'int32'
    assert x.cast('float64').dtype == paddle.float64


def test_numpy_returns_an_ndarray():
    # Skiff's numpy (compat/numpy); its own tests are test_numpy_*.py
    a = paddle.to_tensor([1]).numpy()
    assert type(a).__name__ == 'ndarray' and a.tolist() == [1] and str(a.dtype) == 'int64'


def test_framework_switches():
    assert paddle.in_dynamic_mode() is True
    assert paddle.get_device() == 'cpu'
    paddle.set_device('cpu')
    try:
        paddle.set_device('gpu:0')
    except ValueError:
        pass
    else:
        raise AssertionError("set_device('gpu:0') should raise")
    assert paddle.is_tensor(paddle.to_tensor(1)) and not paddle.is_tensor([1])
    assert repr(paddle.to_tensor(1).place) == 'Place(cpu)'
    g = paddle.seed(7)
    assert g.initial_seed() == 7


class TestPythonVersion(unittest.TestCase):
    def test_supported_version(self):
        self.assertGreaterEqual(sys.version_info[:2], (3, 10))
        self.assertIn('emscripten', sys.platform)
