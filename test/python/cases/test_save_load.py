"""paddle.save / paddle.load in Paddle's .pdparams/.pdopt format: files written by real numpy
(pdparams_fixtures/gen_fixtures.py) load; what Skiff writes loads back (and in real numpy,
test/python/save_load_numpy.test.ts); hostile, truncated and corrupted files raise clear errors."""
import os
import pickle
import tempfile

import numpy as np
import paddle

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pdparams_fixtures')


def _fixture(name):
    return os.path.join(_HERE, name)


def test_layer_state_written_by_numpy_loads_as_tensors():
    for name in ('layer.pdparams', 'layer_protocol2.pdparams'):
        state = paddle.load(_fixture(name))
        assert 'StructuredToParameterName@@' not in state
        assert isinstance(state['fc.weight'], paddle.Tensor)
        assert state['fc.weight'].shape == [4, 3] and state['fc.weight'].dtype == paddle.float32
        assert state['fc.bias'].tolist() == [0.0, 0.25, 0.5]
        assert state['emb.weight'].dtype == paddle.float64
        assert state['steps'].dtype == paddle.int64 and state['steps'].tolist() == [7]
        assert state['mask'].tolist() == [[True, False], [False, True]]
        assert state['half'].dtype == paddle.float16 and state['half'].tolist() == [0.5, -2.0]


def test_return_numpy_and_optimizer_state():
    state = paddle.load(_fixture('layer.pdparams'), return_numpy=True)
    assert isinstance(state['fc.weight'], np.ndarray) and state['fc.weight'].dtype == np.float32
    opt = paddle.load(_fixture('adam.pdopt'))
    assert opt['global_step'] == 3
    assert opt['LR_Scheduler'] == {'last_epoch': 3, 'last_lr': 0.05}
    assert float(opt['scale']) == 0.5
    assert opt['linear_0.w_0_moment1_0'].tolist() == [[0.25] * 3] * 4


def test_split_big_parameters_are_joined():
    state = paddle.load(_fixture('split.pdparams'))
    assert list(state) == ['w']
    assert state['w'].tolist() == [[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0]]


def test_layer_round_trip_and_set_state_dict():
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    d = tempfile.mkdtemp()
    path = os.path.join(d, 'sub', 'net.pdparams')
    paddle.save(net.state_dict(), path)
    raw = pickle.loads(open(path, 'rb').read())
    assert raw['StructuredToParameterName@@']['0.weight'] == net[0].weight.name
    other = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 2))
    other.set_state_dict(paddle.load(path))
    x = paddle.randn([5, 3])
    assert other(x).tolist() == net(x).tolist()


def test_optimizer_state_round_trip():
    net = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.Adam(0.1, parameters=net.parameters())
    net(paddle.ones([1, 2])).sum().backward()
    opt.step()
    path = os.path.join(tempfile.mkdtemp(), 'adam.pdopt')
    paddle.save(opt.state_dict(), path)
    back = paddle.load(path)
    for k, v in opt.state_dict().items():
        if isinstance(v, paddle.Tensor):
            assert back[k].tolist() == v.tolist(), k


def _raises(path, *words):
    try:
        paddle.load(path)
    except (ValueError, pickle.UnpicklingError) as e:
        for w in words:
            assert w in str(e), (w, str(e))
    else:
        raise AssertionError('paddle.load(%s) should raise' % path)


def test_hostile_truncated_and_corrupted_files_raise():
    _raises(_fixture('hostile.pdparams'), "'posix.system'", 'not allowed')
    _raises(_fixture('truncated.pdparams'), 'truncated.pdparams', 'truncated or corrupted')
    bad = os.path.join(tempfile.mkdtemp(), 'bad.pdparams')
    with open(bad, 'wb') as f:
        f.write(b'not a pickle at all')
    _raises(bad, 'bad.pdparams', 'not a Paddle file')
    _raises(os.path.join(tempfile.mkdtemp(), 'missing.pdparams'), 'does not exist')


def test_save_refuses_what_paddle_cannot_store():
    try:
        paddle.save({'f': lambda: 1}, os.path.join(tempfile.mkdtemp(), 'x.pdparams'))
    except TypeError as e:
        assert "obj['f'] is a function" in str(e), e
    else:
        raise AssertionError('saving a function should raise')
    try:
        paddle.save({}, os.path.join(tempfile.mkdtemp(), 'x.pdparams'), protocol=5)
    except ValueError as e:
        assert 'protocol' in str(e)
    else:
        raise AssertionError('protocol 5 should raise')


def test_numpy_arrays_pickle_as_numpy_does():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for protocol in (2, 4):
        data = pickle.dumps({'a': a, 'b': np.array([True, False]), 'dt': np.dtype('int64')}, protocol=protocol)
        assert b'numpy.core.multiarray' in data and b'_reconstruct' in data
        back = pickle.loads(data)
        assert back['a'].dtype == np.float32 and back['a'].tolist() == a.tolist()
        assert back['b'].tolist() == [True, False] and back['dt'] == np.dtype('int64')
