"""paddle.jit.save / load and paddle.inference from Python: LeNet, an MLP and a Conv+BatchNorm
net round trip with equal outputs; a symbolic batch dim runs at batch 1 and 7; foo(x, x, y);
a forward with a graph break fails listing it and writes nothing; the predictor; bad files."""
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec
from paddle.vision.models import LeNet

_dir = tempfile.mkdtemp()


def _close(a, b, tol=1e-4):
    a, b = np.asarray(a.numpy() if hasattr(a, 'numpy') else a), np.asarray(b.numpy() if hasattr(b, 'numpy') else b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert float(np.max(np.abs(a - b))) <= tol * (1 + float(np.max(np.abs(b)))), float(np.max(np.abs(a - b)))


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class ConvBn(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def test_lenet_round_trip_at_two_batch_sizes():
    paddle.seed(1)
    m = LeNet()
    m.eval()
    path = os.path.join(_dir, 'lenet')
    paddle.jit.save(m, path, input_spec=[InputSpec([None, 1, 28, 28], 'float32', 'img')])
    assert os.path.exists(path + '.pir') and os.path.exists(path + '.pdiparams')
    loaded = paddle.jit.load(path)
    assert loaded.input_names == ['img']
    for n in (1, 7):
        x = paddle.randn([n, 1, 28, 28])
        _close(loaded(x), m(x))
    assert loaded._plan_count() == 2


def test_mlp_and_training_mode_restored():
    m = MLP()
    m.train()
    path = os.path.join(_dir, 'mlp')
    paddle.jit.save(m, path, input_spec=[InputSpec([None, 16], 'float32')])
    assert m.training and m.fc1.training
    assert paddle.in_dynamic_mode()
    loaded = paddle.jit.load(path)
    assert loaded.input_names == ['x']
    x = paddle.randn([3, 16])
    m.eval()
    _close(loaded(x), m(x))
    _close(loaded(x.numpy()), m(x))


def test_conv_bn_eval_folds_and_keeps_no_training_buffers():
    paddle.seed(3)
    net = ConvBn()
    net.train()
    for _ in range(3):
        net(paddle.randn([4, 3, 8, 8]) * 2 + 1)
    net.eval()
    path = os.path.join(_dir, 'convbn')
    paddle.jit.save(net, path, input_spec=[InputSpec([None, 3, 8, 8], 'float32', 'x')])
    text = open(path + '.pir').read()
    assert 'batch_norm' not in text and 'set_parameter' not in text
    x = paddle.randn([2, 3, 8, 8])
    _close(paddle.jit.load(path)(x), net(x))


def test_function_called_with_the_same_tensor_twice():
    w = paddle.randn([4, 4])

    def foo(a, b, c):
        return paddle.matmul(a, w) + b * c

    path = os.path.join(_dir, 'foo')
    paddle.jit.save(foo, path, input_spec=[InputSpec([None, 4], 'float32')] * 3)
    loaded = paddle.jit.load(path)
    assert loaded.input_names == ['a', 'b', 'c']
    x, y = paddle.randn([5, 4]), paddle.randn([5, 4])
    _close(loaded(x, x, y), foo(x, x, y))


def test_to_static_layer_and_several_outputs():
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        @paddle.jit.to_static(input_spec=[InputSpec([None, 4], 'float32', 'x')])
        def forward(self, x):
            h = self.fc(x)
            return h, F.softmax(h)

    m = Two()
    path = os.path.join(_dir, 'two')
    paddle.jit.save(m, path)
    a, b = paddle.jit.load(path)(paddle.ones([2, 4]))
    ea, eb = m(paddle.ones([2, 4]))
    _close(a, ea)
    _close(b, eb)


def test_graph_break_fails_listing_it_and_writes_nothing():
    def broken(x):
        s = float(x.numpy().sum())
        return x * s

    path = os.path.join(_dir, 'broken')
    try:
        paddle.jit.save(broken, path, input_spec=[InputSpec([3], 'float32', 'x')])
    except RuntimeError as e:
        msg = str(e)
    else:
        raise AssertionError('jit.save must fail')
    assert 'paddle.jit.save' in msg and 'no model was written' in msg, msg
    assert 'test_jit_save.py:' in msg, msg
    assert not os.path.exists(path + '.pir') and not os.path.exists(path + '.pdiparams')
    assert paddle.in_dynamic_mode()


def test_predictor():
    paddle.seed(4)
    m = MLP()
    m.eval()
    path = os.path.join(_dir, 'pred')
    paddle.jit.save(m, path, input_spec=[InputSpec([None, 16], 'float32', 'x')])
    config = paddle.inference.Config(path + '.pir', path + '.pdiparams')
    pred = paddle.inference.create_predictor(config)
    assert pred.get_input_names() == ['x']
    out_name = pred.get_output_names()[0]
    for n in (2, 5, 2):
        x = np.random.rand(n, 16).astype('float32')
        pred.get_input_handle('x').copy_from_cpu(x)
        pred.run()
        got = pred.get_output_handle(out_name).copy_to_cpu()
        _close(got, m(paddle.to_tensor(x)))
    assert pred._plan_count() == 2
    try:
        pred.get_input_handle('nope')
    except ValueError as e:
        assert "no input named 'nope'" in str(e)
    else:
        raise AssertionError('unknown input name must fail')


def test_bad_files_name_the_file():
    m = MLP()
    path = os.path.join(_dir, 'good')
    paddle.jit.save(m, path, input_spec=[InputSpec([None, 16], 'float32', 'x')])
    text = open(path + '.pir').read()
    params = open(path + '.pdiparams', 'rb').read()
    cases = [
        (text[: len(text) // 2], params, '.pir', 'invalid program'),
        (text.replace('"version":1', '"version":7'), params, '.pir', 'format version 7'),
        ('garbage', params, '.pir', 'not a Skiff model'),
        (text, params[:-5], '.pdiparams', 'truncated'),
        (text, params + b'xx', '.pdiparams', 'bytes follow'),
    ]
    for i, (t, p, which, want) in enumerate(cases):
        prefix = os.path.join(_dir, 'bad%d' % i)
        open(prefix + '.pir', 'w').write(t)
        open(prefix + '.pdiparams', 'wb').write(p)
        try:
            paddle.jit.load(prefix)
        except Exception as e:  # noqa: BLE001
            assert prefix + which in str(e) and want in str(e), (i, str(e))
        else:
            raise AssertionError('case %d must fail' % i)
    try:
        paddle.jit.load(os.path.join(_dir, 'missing'))
    except Exception as e:  # noqa: BLE001
        assert 'missing.pir' in str(e) and 'cannot read' in str(e), str(e)
