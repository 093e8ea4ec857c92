"""Translator: views, item assignment and in-place changes of tensors inside translated code.
Each row runs eagerly and translated on fresh inputs and compares the result, every input
tensor afterwards (the aliased tensors eager may have changed), object identity of returned
inputs, and any exception (type and message).

Item assignment writes into the tensor's storage (views see it), in-place methods (add_,
relu_, ...) exist, Tensor.set_value replaces a tensor's data (views keep the old data), and
paddle.assign does not exist yet (that row compares the AttributeError). The invariant checked
is the same whatever the registry grows: never a different answer than eager.
"""
import paddle
from sot_check import same, t


def _inputs():
    return [t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]]), t([[2.0, 1.0, -1.0], [1.0, 4.0, 2.0]])]


class Holder:
    pass


def setitem_input(x, y):
    x[0] = 1.0
    return x


def setitem_view(x, y):
    v = x[0:1]
    v[0] = 5.0
    return v, x


def setitem_intermediate(x, y):
    z = x * 2
    z[1] = 0.0
    return z


def setitem_after_work(x, y):
    z = x @ y.T
    print('break before the assignment')
    z[:, 0] = y[:, 0]
    return z


def set_value_input(x, y):
    x.set_value(x * 2)
    return x + 1


def set_value_view(x, y):
    v = x[0:1]
    v.set_value(paddle.zeros_like(v))
    return v * 3, x


def set_value_intermediate(x, y):
    z = x + y
    z.set_value(paddle.ones_like(z))
    return z * 2, x


def set_value_through_attribute(x, y):
    h = Holder()
    h.t = y
    h.t.set_value(x - y)
    return h.t, y


def _swap_in(h, v):
    try:   # a try block: this helper runs as plain Python (a concrete step)
        h.t.set_value(v)
    finally:
        pass


def set_value_inside_a_concrete_call(x, y):
    h = Holder()
    h.t = x
    _swap_in(h, y * 3)
    return x + 1, h.t


def set_value_in_list(x, y):
    lst = [x, y]
    lst[1].set_value(lst[0] * 10)
    return lst, y


def returns_inputs_and_views(x, y):
    return x, x[0], x.reshape([-1]), x.T, y[:, 1:], (x, y)


def rebinding_augmented_assignment(x, y):
    x += 1
    y *= 2
    return x, y


def list_of_tensors_mutated(x, y):
    lst = [x, y]
    lst[0] = lst[0] * 2
    lst.append(lst[1] + lst[0])
    return lst


def stop_gradient_flip(x, y):
    x.stop_gradient = False
    return x * 2, x.stop_gradient


def inplace_method(x, y):
    return x.add_(y)


def inplace_relu(x, y):
    paddle.nn.functional.relu_(x)
    return x


def assign_into(x, y):
    paddle.assign(y, x)
    return x


ROWS = [
    setitem_input, setitem_view, setitem_intermediate, setitem_after_work,
    set_value_input, set_value_view, set_value_intermediate, set_value_through_attribute, set_value_in_list,
    set_value_inside_a_concrete_call,
    returns_inputs_and_views, rebinding_augmented_assignment, list_of_tensors_mutated, stop_gradient_flip,
    inplace_method, inplace_relu, assign_into,
]


def _run(fn, args):
    try:
        return ('ok', fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return ('raised', (type(e), str(e)))


def _identity(result, args):
    """Which positions of the result are the input objects themselves."""
    flat = list(result) if isinstance(result, (tuple, list)) else [result]
    return [[a is r for a in args] for r in flat]


def test_aliasing_table():
    failures = []
    for fn in ROWS:
        sf = paddle.jit.to_static(fn)
        for call in range(2):   # the second call runs the cached translation
            want_args, got_args = _inputs(), _inputs()
            want = _run(fn, want_args)
            got = _run(sf, got_args)
            try:
                assert got[0] == want[0], 'eager %s, translated %s: %r vs %r' % (want[0], got[0], want[1], got[1])
                if want[0] == 'raised':
                    assert got[1] == want[1], '%r vs %r' % (got[1], want[1])
                else:
                    same(got[1], want[1])
                    assert _identity(got[1], got_args) == _identity(want[1], want_args), 'identity of returned inputs'
                same(got_args, want_args, 'inputs after the call')
                for a, b in zip(got_args, want_args):
                    assert a.stop_gradient == b.stop_gradient
            except AssertionError as e:
                failures.append('%s (call %d): %s' % (fn.__name__, call + 1, e))
    assert not failures, '\n'.join(failures)


def test_inplace_rows_run_for_real():
    """The item-assignment and in-place rows compare values, not errors: eager runs them."""
    for fn in (setitem_input, setitem_view, setitem_intermediate, inplace_method, inplace_relu):
        status, value = _run(fn, _inputs())
        assert status == 'ok', '%s raised eagerly: %r' % (fn.__name__, value)


def test_inplace_writes_are_captured():
    """Item assignment and inplace ops on tensors nothing else views are functionalized: no
    break, and the inputs afterwards hold eager's values (the table above checks values)."""
    from sot_check import assert_no_breaks
    for fn in (setitem_input, setitem_intermediate, inplace_method, inplace_relu):
        sf = paddle.jit.to_static(fn)
        sf(*_inputs())
        sf(*_inputs())
        assert_no_breaks(sf)


def _add_into(x, y):
    x.add_(y)
    x[0] = x[0] * 3.0
    return y * 2.0


def test_aliased_arguments_are_not_written_blindly():
    """The same tensor (or a view of it) passed twice: the write must be seen through both, as
    in eager. The translation made for distinct tensors is guarded against such calls."""
    sf = paddle.jit.to_static(_add_into)
    a, b = _inputs()
    ea, eb = _inputs()
    same(sf(a, b), _add_into(ea, eb))
    same([a, b], [ea, eb])
    x, ex = t([[1.0, 2.0], [3.0, 4.0]]), t([[1.0, 2.0], [3.0, 4.0]])
    same(sf(x, x), _add_into(ex, ex))
    same(x, ex)
    base, ebase = t([[1.0, 2.0], [3.0, 4.0]]), t([[1.0, 2.0], [3.0, 4.0]])
    same(sf(base, base[0]), _add_into(ebase, ebase[0]))
    same(base, ebase)
    a, b = _inputs()
    ea, eb = _inputs()
    same(sf(a, b), _add_into(ea, eb))   # distinct again: the first translation still serves
    same([a, b], [ea, eb])
