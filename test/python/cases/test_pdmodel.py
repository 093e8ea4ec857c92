"""Paddle 2.x inference models (.pdmodel + .pdiparams) from Python: paddle.jit.load and
paddle.inference read the fixture written by pdmodel_fixtures/gen_fixtures.ts (an MLP in legacy
ops with closed-form weights), outputs equal a numpy computation; a damaged .pdmodel raises an
error naming the file."""
import os
import tempfile

import numpy as np
import paddle

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pdmodel_fixtures')
_MLP = os.path.join(_HERE, 'mlp')


def _w(rows, cols, a, b, f):
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing='ij')
    return f(a * i + b * j).astype('float32')


def _mlp_ref(x):
    h = np.maximum(x @ _w(6, 8, 0.37, 0.11, np.sin) + _w(1, 8, 0, 0.5, np.cos)[0], 0)
    z = h @ _w(8, 3, 0.23, 0.71, np.sin) + _w(1, 3, 0, 0.9, np.cos)[0]
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _x(n):
    return (np.arange(n * 6, dtype='float32').reshape(n, 6) / 7.0 - 1.5).astype('float32')


def test_jit_load_pdmodel_prefix_and_file():
    for path in (_MLP, _MLP + '.pdmodel'):
        m = paddle.jit.load(path)
        for n in (1, 4):
            y = m(paddle.to_tensor(_x(n)))
            np.testing.assert_allclose(y.numpy(), _mlp_ref(_x(n)), rtol=1e-5, atol=1e-6)


def test_predictor_pdmodel():
    config = paddle.inference.Config(_MLP + '.pdmodel', _MLP + '.pdiparams')
    pred = paddle.inference.create_predictor(config)
    assert pred.get_input_names() == ['x']
    assert pred.get_output_names() == ['prob']
    pred.get_input_handle('x').copy_from_cpu(_x(3))
    pred.run()
    np.testing.assert_allclose(pred.get_output_handle('prob').copy_to_cpu(), _mlp_ref(_x(3)), rtol=1e-5, atol=1e-6)
    assert paddle.inference.Config(_MLP).prog_file() == _MLP + '.pdmodel'


def test_damaged_pdmodel_names_the_file():
    d = tempfile.mkdtemp()
    with open(_MLP + '.pdmodel', 'rb') as f:
        data = f.read()
    bad = os.path.join(d, 'bad')
    with open(bad + '.pdmodel', 'wb') as f:
        f.write(data[:len(data) // 2])
    with open(_MLP + '.pdiparams', 'rb') as f, open(bad + '.pdiparams', 'wb') as g:
        g.write(f.read())
    try:
        paddle.jit.load(bad)
    except Exception as e:  # noqa: BLE001 - the message is what is checked
        assert 'bad.pdmodel' in str(e) and 'ProgramDesc' in str(e), str(e)
    else:
        raise AssertionError('a truncated .pdmodel must not load')
