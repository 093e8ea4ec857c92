"""Translator: Python slicing of lists, tuples, strings and ranges, and tensor indexing (ints,
slices, steps, negative indices, None, Ellipsis), captured into the graph."""
import paddle
from sot_check import assert_no_breaks, check, explain, t

X = t([[1.0, -2.0, 3.0, 4.0], [0.5, 0.0, -1.5, 2.5], [9.0, 8.0, 7.0, 6.0]])


def test_sequence_slices():
    def f(x, xs, s, i, j):
        r = range(10)
        return (xs[1:], xs[:-1], xs[::2], xs[::-1], xs[i:j], xs[-j:], s[1:3], s[::-1], s[i],
                r[2:8:3][1], list(r[i:j]), tuple(xs)[1:2], x * xs[i])
    sf = check(f, (X, [1, 2, 3, 4, 5], 'hello', 1, 3), (X, [9, 8, 7], 'ab', 0, 2))
    assert_no_breaks(sf)


def test_tensor_basic_indexing_is_captured():
    def f(x):
        return (x[0], x[-1], x[:, 1:3], x[..., None], x[1, ::2], x[:, -1], x[::-1], x[None],
                x[1:, :2], x[..., 0], x[0, 1], x[:, ::-2])
    sf = check(f, (X,))
    e = explain(sf)
    assert_no_breaks(sf)
    assert e['graphCount'] == 1, e


def test_tensor_indices_from_python_values():
    def f(x, i, s):
        return x[i], x[:, s:s + 2], x[i:, s]
    check(f, (X, 1, 0), (X, -1, 2))


def test_index_errors_raise_the_same():
    def f(x, i):
        return x[i]
    sf = paddle.jit.to_static(f)
    for i in (5, (0, 0, 0)):
        try:
            f(X, i)
        except (IndexError, NotImplementedError) as e:
            want = (type(e), str(e))
        try:
            sf(X, i)
        except (IndexError, NotImplementedError) as e:
            assert (type(e), str(e)) == want
        else:
            raise AssertionError('no error for %r' % (i,))


def test_list_index_errors_raise_the_same():
    def f(xs, i):
        return xs[i]
    sf = paddle.jit.to_static(f)
    try:
        sf([1, 2], 7)
    except IndexError as e:
        assert str(e) == 'list index out of range'
    else:
        raise AssertionError('no IndexError')


def test_slice_objects_live_across_breaks():
    def f(x, xs):
        s = slice(1, 3)
        r = range(1, 4)
        print('break')
        return x[:, s], xs[s], [v * 2 for v in r], s.start, r.stop
    check(f, (X, [5, 6, 7, 8]))


def test_slice_assignment_of_lists():
    def f(xs, i):
        ys = list(xs)
        ys[1:3] = [0, 0, 0]
        ys[i:i] = ['a']
        ys[::2] = ys[::2]
        del ys[0]
        del ys[-2:]
        return ys
    check(f, ([1, 2, 3, 4, 5], 2), ([1, 2, 3], 0))
