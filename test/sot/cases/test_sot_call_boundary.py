"""Translator: the call boundary. Arguments cross from the Python wrapper to TypeScript in a
numeric form (tensor handles and object ids); tensors of 64 KiB or more have negative handles,
so the form must not tell tensors from objects by sign (a big tensor once became 'object 9' and
the function fell back to eager with SOT105 KeyError in queries.describe)."""
import paddle
from sot_check import count, explain, same

BIG = 512 * 8 * 4          # (4, 512, 8) float32 is exactly 64 KiB: the first negative handle


def reshape_mean(x):
    return (x + 1).reshape([-1, 8]).mean(axis=1)


def _translated(sf):
    e = explain(sf)
    assert not e.get('eager'), 'ran eagerly: %s' % e.get('eagerReason')


def test_big_tensor_arguments_any_order_of_shapes():
    for shapes in ([(2, 16, 8), (4, 512, 8)], [(4, 512, 8)], [(4, 512, 8), (2, 16, 8), (4, 512, 8)],
                   [(1, 8, 8), (4, 512, 8), (3, 16, 8)], [(8, 512, 8), (16, 512, 8)]):
        sf = paddle.jit.to_static(reshape_mean)
        for s in shapes:
            x = paddle.rand(s)
            same(sf(x), reshape_mean(x))
        _translated(sf)
        assert count(sf) <= 3, (shapes, count(sf))


def test_big_tensor_next_to_objects():
    net = paddle.nn.Linear(8, 4)

    def fn(layer, x, y):
        return layer(x).sum(axis=-1) + y.mean()

    sf = paddle.jit.to_static(fn)
    for xs, ys in (((2, 8), (3, 3)), ((BIG // 32, 8), (300, 300)), ((2, 8), (300, 300))):
        x, y = paddle.rand(xs), paddle.rand(ys)
        same(sf(net, x, y), fn(net, x, y))
    _translated(sf)


def test_big_tensor_returned_is_the_same_object():
    def ident(x):
        return x

    sf = paddle.jit.to_static(ident)
    for s in ((2, 3), (4, 512, 8)):
        x = paddle.rand(s)
        assert sf(x) is x
    _translated(sf)


def test_layer_forward_with_big_input():
    net = paddle.nn.Sequential(paddle.nn.Linear(8, 8), paddle.nn.ReLU())
    eager = net.forward
    paddle.jit.to_static(net)          # forward becomes a StaticFunction, self its first argument
    for s in ((4, 8), (4096, 8), (4096, 8)):
        x = paddle.rand(s)
        same(net(x), eager(x))
    _translated(net.forward)


def test_many_arguments_take_the_string_form():
    def many(*xs):
        return xs[0] + xs[-1] * len(xs)

    sf = paddle.jit.to_static(many)
    args = [paddle.rand([4, 512, 8]) for _ in range(3)] + [paddle.rand([2]) for _ in range(29)] + [paddle.rand([4, 512, 8])]
    same(sf(*args), many(*args))
    _translated(sf)


# ---- translated functions calling translated functions ----------------------------------------
@paddle.jit.to_static
def _plus_one(x):
    return x + 1


@paddle.jit.not_to_static
def _eagerly(x):
    return _plus_one(x) * 3    # runs another translated function inside a concrete step


@paddle.jit.not_to_static
def _new_list(x):
    return [x, x * 2]


def calls_a_static_function(x):
    return _plus_one(x) * 2


def nested_call_between_uses(x):
    lst = _new_list(x)         # a list made by a concrete step (known by id for this call)
    y = _eagerly(x)            # a nested translated call ends inside this one
    lst.append(y)              # ... the list is still the same object
    z = _eagerly(y)
    return lst[0] + lst[2] + z, len(lst)


def test_static_function_called_from_translated_code_is_inlined():
    sf = paddle.jit.to_static(calls_a_static_function)
    for _ in range(2):
        x = paddle.rand([3])
        same(sf(x), calls_a_static_function(x))
    e = explain(sf)
    assert not e.get('eager') and not e['breaks'] and e['graphCount'] == 1, e


def test_nested_translated_call_keeps_the_outer_calls_objects():
    sf = paddle.jit.to_static(nested_call_between_uses)
    for _ in range(3):
        x = paddle.rand([3])
        same(sf(x), nested_call_between_uses(x))
    _translated(sf)
