"""Translator: arithmetic, constants and their types, operators on tensors and Python values."""
import math
import operator

import paddle
from sot_check import breaks, check, count, same, t

X = t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
Y = t([[2.0, 1.0, -1.0], [1.0, 4.0, 2.0]])


def test_tensor_arithmetic():
    def f(x, y):
        return (x + y) * 2 - y / 4 + x ** 2 - (x @ y.T).sum()
    check(f, (X, Y), (Y, X))


def test_reflected_and_scalar_kinds():
    def f(x):
        return 1 - x, 2.0 * x, x / 3, 3 / (x + 10), x // 2, x % 3, -x, +x, abs(x)
    check(f, (X,))


def test_comparisons():
    def f(x, y):
        return x < y, x >= 1.0, 2 < x, x == y, x != 0
    check(f, (X, Y))


def test_int_tensor_true_division_is_float():
    def f(a, b):
        return a / b, a // b, a % b
    check(f, (t([7, -7, 9], 'int64'), t([2, 2, 4], 'int64')))


def test_constant_types_survive():
    def f(x, k):
        return k, k + 1, k * 2, k / 2, type(k).__name__, x * k
    sf = check(f, (X, 2), (X, 2.0), (X, True), (X, 2))
    assert count(sf) == 3   # 2, 2.0 and True are different entries; the second 2 hits


def test_python_values():
    def f(a, b):
        return a + b, a * b, a // b, a % b, -a, a ** 2, a / b, a << 2, a & b, a ^ b, a | b, divmod(a, b)
    check(f, (7, 3), (-7, 2), (10 ** 20, 7))


def test_math_and_operator_modules():
    def f(x, n):
        return x * math.sqrt(n) + math.pi, operator.add(n, 1), math.floor(n / 3)
    check(f, (X, 9), (X, 16))


def test_strings_and_fstrings():
    def f(x, name, n):
        s = f'{name}-{n:03d}-{n!r}'
        return x * len(s), s.upper(), name + '!', '%s/%d' % (name, n)
    check(f, (X, 'ab', 7), (X, 'xyz', 12))


def test_shape_arithmetic_is_static():
    def f(x):
        n, m = x.shape
        return x.reshape([m, n]) * (n * m), x.ndim, x.size
    check(f, (X,), translations=1)


def test_no_breaks_in_pure_tensor_code():
    def f(x, y):
        z = paddle.nn.functional.relu(x) + paddle.exp(y) * 0.5
        return paddle.sum(z, axis=1, keepdim=True)
    sf = check(f, (X, Y))
    assert breaks(sf) == []
