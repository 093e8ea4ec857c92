"""Tensor operators, promotion with Python scalars, and how runtime errors surface in Python."""
import traceback

import paddle


def t(v, dtype=None):
    return paddle.to_tensor(v, dtype=dtype)


def test_arithmetic():
    x, y = t([1.0, 2.0, 3.0]), t([4.0, 5.0, 6.0])
    assert (x + y).tolist() == [5.0, 7.0, 9.0]
    assert (y - x).tolist() == [3.0, 3.0, 3.0]
    assert (x * y).tolist() == [4.0, 10.0, 18.0]
    assert (y / x).tolist() == [4.0, 2.5, 2.0]
    assert (y // x).tolist() == [4.0, 2.0, 2.0]
    assert (y % x).tolist() == [0.0, 1.0, 0.0]
    assert (x ** 2).tolist() == [1.0, 4.0, 9.0]


def test_reflected_scalars():
    x = t([1.0, 2.0, 4.0])
    assert (1 + x).tolist() == [2.0, 3.0, 5.0]
    assert (10 - x).tolist() == [9.0, 8.0, 6.0]
    assert (2 * x).tolist() == [2.0, 4.0, 8.0]
    assert (8 / x).tolist() == [8.0, 4.0, 2.0]
    assert (2 ** x).tolist() == [2.0, 4.0, 16.0]


def test_broadcasting():
    x = t([[1, 2, 3], [4, 5, 6]])
    assert (x + t([10, 20, 30])).tolist() == [[11, 22, 33], [14, 25, 36]]
    assert (x * t([[2], [3]])).tolist() == [[2, 4, 6], [12, 15, 18]]


def test_scalar_promotion_follows_paddle():
    n = t([1, 2, 3])
    assert (n + 1).dtype == paddle.int64
    assert (n + 1.5).dtype == paddle.float32 and (n + 1.5).tolist() == [2.5, 3.5, 4.5]
    assert (n * 2.0).dtype == paddle.float32   # a float scalar makes it float, even when integral
    assert (t([1, 2], 'int32') + 1).dtype == paddle.int32
    assert (t([1.0], 'float16') + 1.0).dtype == paddle.float16
    assert (t([True, False]) + 1).dtype == paddle.int64


def test_true_division_of_integers():
    r = t([1, 2, 3]) / t([2, 2, 2])
    assert r.dtype == paddle.float32 and r.tolist() == [0.5, 1.0, 1.5]
    assert (t([3]) / 2).tolist() == [1.5]


def test_tensor_tensor_promotion():
    assert (t([1, 2], 'int32') + t([1, 2], 'int64')).dtype == paddle.int64
    assert (t([1, 2]) + t([0.5, 0.5])).dtype == paddle.float32
    assert (t([1.0], 'float32') + t([1.0], 'float64')).dtype == paddle.float64


def test_comparisons_return_bool_tensors():
    x, y = t([1.0, 2.0, 3.0]), t([3.0, 2.0, 1.0])
    assert (x < y).tolist() == [True, False, False]
    assert (x <= y).tolist() == [True, True, False]
    assert (x == y).tolist() == [False, True, False]
    assert (x != y).tolist() == [True, False, True]
    assert (x > 1).dtype == paddle.bool
    assert (2 < x).tolist() == [False, False, True]
    assert (x == None) is False  # noqa: E711  (not a tensor: Python identity)


def test_unary():
    x = t([-1.5, 2.0])
    assert (-x).tolist() == [1.5, -2.0]
    assert abs(x).tolist() == [1.5, 2.0]
    assert (+x) is x
    assert (~t([True, False])).tolist() == [False, True]


def test_logical_operators_on_bool():
    a, b = t([True, True, False]), t([True, False, False])
    assert (a & b).tolist() == [True, False, False]
    assert (a | b).tolist() == [True, True, False]
    assert (a ^ b).tolist() == [False, True, False]


def test_matmul_operator():
    if not hasattr(paddle, 'matmul'):
        import unittest
        raise unittest.SkipTest('registry has no matmul yet')
    a = t([[1.0, 2.0], [3.0, 4.0]])
    assert (a @ a).tolist() == [[7.0, 10.0], [15.0, 22.0]]


def test_unsupported_operand_is_type_error():
    try:
        t([1.0]) + 'a'
    except TypeError:
        pass
    else:
        raise AssertionError("tensor + str should raise TypeError")


def test_shape_mismatch_is_value_error_with_user_line():
    x, y = t([1.0, 2.0]), t([1.0, 2.0, 3.0])
    try:
        x + y  # the user's line
    except ValueError as e:
        msg = str(e)
        assert 'add' in msg and '[2]' in msg and '[3]' in msg, msg
        frames = traceback.extract_tb(e.__traceback__)
        assert any(f.name == 'test_shape_mismatch_is_value_error_with_user_line' and 'x + y' in f.line for f in frames)
    else:
        raise AssertionError('broadcast mismatch should raise ValueError')


def test_generated_function_errors():
    try:
        paddle.reshape(t([1.0, 2.0, 3.0]), [2, 2])
    except ValueError as e:
        assert 'reshape' in str(e)
    else:
        raise AssertionError('bad reshape should raise ValueError')
    try:
        paddle.cast(t([1.0]), 'float128')
    except TypeError as e:
        assert 'float128' in str(e)
    else:
        raise AssertionError('unknown dtype should raise TypeError')


def test_in_place_chains_do_not_leak_python_side():
    x = t([1.0])
    for _ in range(200):
        x = x + 1
    assert x.item() == 201.0
