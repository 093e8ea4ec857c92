"""The functional API and Tensor methods are generated from the registry's op table."""
import inspect
import json

import paddle
from paddle import _bridge, _ops


def _table():
    return json.loads(_bridge.optable())


def _resolve(path):
    obj = paddle
    for p in path.split('.'):
        obj = getattr(obj, p)
    return obj


def test_every_public_op_name_is_installed():
    missing = []
    for e in _table():
        for name in e['names']:
            try:
                f = _resolve(name)
            except AttributeError:
                missing.append(name)
                continue
            if name not in ('to_tensor', 'seed') and getattr(f, '_skiff_op', None) != e['name']:
                missing.append('%s (is %r)' % (name, f))
    assert not missing, missing


def test_every_method_is_installed():
    missing = [m for e in _table() for m in e['methods'] if not callable(getattr(paddle.Tensor, m, None))]
    assert not missing, missing


def test_signature_follows_the_registry():
    sig = inspect.signature(paddle.sum)
    names = list(sig.parameters)
    assert names[:4] == ['x', 'axis', 'dtype', 'keepdim'] and names[-1] == 'name'
    assert sig.parameters['axis'].default is None
    assert paddle.sum.__name__ == 'sum'


def test_binding_positional_and_keywords():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert paddle.sum(x).item() == 10.0
    assert paddle.sum(x, 0).tolist() == [4.0, 6.0]
    assert paddle.sum(x, axis=1, keepdim=True).shape == [2, 1]
    assert paddle.sum(x=x, axis=[0, 1]).item() == 10.0
    assert paddle.sum(x, name='ignored').item() == 10.0
    assert x.sum(axis=0).tolist() == [4.0, 6.0]
    assert paddle.add(x, y=x).tolist() == [[2.0, 4.0], [6.0, 8.0]]


def test_binding_errors_are_type_errors():
    x = paddle.to_tensor([1.0])
    for call in (lambda: paddle.sum(x, axsi=0), lambda: paddle.sum(), lambda: paddle.sum(x, 0, None, False, 5),
                 lambda: paddle.sum(x, 0, axis=0), lambda: paddle.add(x, object())):
        try:
            call()
        except TypeError:
            pass
        else:
            raise AssertionError('expected TypeError')


def test_tensor_and_dtype_arguments():
    x = paddle.to_tensor([[1.0, 2.0, 3.0, 4.0]])
    assert paddle.reshape(x, [2, 2]).shape == [2, 2]
    assert paddle.reshape(x, (2, 2)).shape == [2, 2]
    assert paddle.reshape(x, paddle.to_tensor([4, 1])).shape == [4, 1]
    assert paddle.reshape(x, [paddle.to_tensor(2), 2]).shape == [2, 2]
    assert paddle.cast(x, paddle.int32).dtype == 'int32'
    assert paddle.zeros([2], dtype='int64').tolist() == [0, 0]
    assert paddle.full([2], 3.5).tolist() == [3.5, 3.5]


def test_multi_output_ops():
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    parts = paddle.split(x, 2)
    assert isinstance(parts, list) and [p.tolist() for p in parts] == [[1.0, 2.0], [3.0, 4.0]]


def test_variadic_inputs():
    a, b = paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])
    assert paddle.concat([a, b]).tolist() == [1, 2, 3, 4]
    assert paddle.stack((a, b), axis=1).tolist() == [[1, 3], [2, 4]]


def test_scalar_inputs_keep_python_kind():
    n = paddle.to_tensor([1, 2])
    assert paddle.add(n, 1).dtype == 'int64'
    assert paddle.add(n, 1.0).dtype == 'float32'
    assert paddle.multiply(2, n).tolist() == [2, 4]


def test_submodules_exist():
    import paddle.nn.functional as F
    assert callable(F.relu) and callable(F.conv2d)
    assert F.relu(paddle.to_tensor([-1.0, 1.0])).tolist() == [0.0, 1.0]
    assert _ops.public('nn.functional.relu') is F.relu


def test_random_ops_and_seed():
    paddle.seed(11)
    a = paddle.rand([4]).tolist()
    paddle.seed(11)
    b = paddle.rand([4]).tolist()
    assert a == b and all(0 <= v < 1 for v in a)
    u = paddle.uniform([1000], min=-2.0, max=-1.0)
    assert -2.0 <= paddle.min(u).item() and paddle.max(u).item() < -1.0
