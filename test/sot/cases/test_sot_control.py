"""Translator: Python control flow is followed and guarded; tensor-valued control flow breaks."""
import paddle
from sot_check import breaks, check, count, t

X = t([[1.0, -2.0], [3.0, 0.5]])


def test_python_if_is_guarded():
    def f(x, flag):
        if flag:
            return x + 1
        return x - 1
    sf = check(f, (X, True), (X, False), (X, True))
    assert count(sf) == 2


def test_loops_over_python_values_unroll():
    def f(x, n):
        acc = x
        for i in range(n):
            acc = acc * 2 + i
        for k, v in enumerate([1, 2, 3]):
            acc = acc + k * v
        for a, b in zip([1, 2], (3.0, 4.0)):
            acc = acc - a * b
        i = 0
        while i < 3:
            acc = acc + 1
            i += 1
        return acc
    check(f, (X, 3), (X, 0))


def test_branch_on_tensor_value_breaks():
    def f(x):
        y = x * 2
        if y.sum() > 0:
            z = y + 1
        else:
            z = y - 1
        return z * 3
    sf = check(f, (X,), (-X,), (X,))
    assert 'SOT001' in breaks(sf)


def test_item_and_int_break():
    def f(x):
        s = x.sum().item()
        k = int(x.max())
        return x * s + k, s, k
    sf = check(f, (X,))
    assert 'SOT002' in breaks(sf)


def test_print_breaks_and_prints_once(capsys=None):
    out = []

    def f(x):
        y = x + 1
        out.append(1)
        print('value', y.shape)
        return y * 2
    sf = paddle.jit.to_static(f)
    sf(X)
    sf(X)
    assert out == [1, 1]
    assert 'SOT004' in breaks(sf)


def test_break_inside_loop_body():
    def f(x, n):
        for i in range(n):
            x = x + i
            if x.mean() > 100:
                x = x * 0
        return x
    check(f, (X, 3), (X, 3))


def test_while_with_tensor_condition():
    def f(x):
        while x.sum() < 100:
            x = x * 2 + 1
        return x
    check(f, (X,), (X * 10,))


def test_iterating_a_tensor():
    def f(x):
        total = 0
        for row in x:
            total = total + row.sum()
        return total
    check(f, (X,))


def test_unknown_iterator_steps_concretely():
    def gen(n):
        for i in range(n):
            yield i * 2

    def f(x, n):
        for v in gen(n):
            x = x + v
        return x
    check(f, (X, 3), (X, 2))
