"""paddle.Model and paddle.metric: Accuracy against a hand count, fit lowering the loss,
evaluate / predict shapes, train_batch / eval_batch, save / load round trip, callbacks."""
import os
import tempfile

import paddle
from paddle.io import Dataset, TensorDataset
from paddle.metric import Accuracy


def test_accuracy_matches_hand_count():
    pred = paddle.to_tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.4, 0.35, 0.25]])
    label = paddle.to_tensor([[1], [1], [2], [2]])
    m = Accuracy(topk=(1, 2))
    correct = m.compute(pred, label)
    assert correct.shape == [4, 2]
    assert correct.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
    assert m.update(correct) == [0.5, 0.75]
    m.update(m.compute(paddle.to_tensor([[0.0, 1.0, 0.0]]), paddle.to_tensor([1])))
    assert m.accumulate() == [3 / 5, 4 / 5]
    assert m.name() == ['acc_top1', 'acc_top2']
    m.reset()
    assert m.accumulate() == [0.0, 0.0]
    one = Accuracy()
    one.update(one.compute(pred, label))
    assert one.accumulate() == 0.5 and one.name() == ['acc']
    assert abs(paddle.metric.accuracy(pred, label, k=2).item() - 0.75) < 1e-6


def _blobs(n=64):
    """Two separable classes in 4-D."""
    paddle.seed(0)
    x = paddle.rand([n, 4])
    y = (x.sum(axis=1, keepdim=True) > 2.0).astype('int64')
    return TensorDataset([x * 2 - 1, y])


def _model():
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 2))
    m = paddle.Model(net)
    loss = lambda logits, label: paddle.nn.functional.cross_entropy(logits, label)  # noqa: E731
    m.prepare(paddle.optimizer.Adam(learning_rate=0.02, parameters=net.parameters()), loss, Accuracy())
    return m


def test_fit_reduces_loss_and_evaluate_predict():
    paddle.seed(1)
    ds = _blobs()
    m = _model()
    before = m.evaluate(ds, batch_size=64, verbose=0)
    m.fit(ds, epochs=8, batch_size=16, verbose=0)
    after = m.evaluate(ds, batch_size=16, verbose=0)
    assert set(after) == {'loss', 'acc'}
    assert after['loss'][0] < before['loss'][0] * 0.7, (before, after)
    assert after['acc'] >= 0.8
    out = m.predict(ds, batch_size=10, verbose=0)
    assert len(out) == 1 and len(out[0]) == 7 and out[0][0].shape == [10, 2] and out[0][-1].shape == [4, 2]
    stacked = m.predict(ds, batch_size=10, verbose=0, stack_outputs=True)
    assert stacked[0].shape == [64, 2]


def test_train_and_eval_batch():
    m = _model()
    x, y = paddle.rand([8, 4]), paddle.zeros([8, 1], dtype='int64')
    losses, metrics = m.train_batch([x], [y])
    assert isinstance(losses[0], float) and 0.0 <= metrics[0] <= 1.0
    losses, metrics = m.eval_batch([x], [y])
    assert len(losses) == 1 and len(metrics) == 1
    assert m.predict_batch([x])[0].shape == [8, 2]


def test_fit_logs_lines_and_eval():
    import io
    import contextlib
    ds = _blobs(32)
    m = _model()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.fit(ds, eval_data=ds, epochs=2, batch_size=8, verbose=2, log_freq=2)
    text = buf.getvalue()
    assert 'Epoch 1/2' in text and 'Epoch 2/2' in text and 'Eval begin...' in text
    assert 'step 4/4' in text and 'loss: ' in text and 'acc: ' in text and 'steps/s' in text


def test_save_and_load_round_trip():
    m = _model()
    m.fit(_blobs(16), epochs=1, batch_size=8, verbose=0)
    d = tempfile.mkdtemp()
    m.save(os.path.join(d, 'ckpt', 'm'))
    assert os.path.exists(os.path.join(d, 'ckpt', 'm.pdparams')) and os.path.exists(os.path.join(d, 'ckpt', 'm.pdopt'))
    m2 = _model()
    m2.load(os.path.join(d, 'ckpt', 'm'))
    for (k, a), (k2, b) in zip(m.network.state_dict().items(), m2.network.state_dict().items()):
        assert k == k2 and a.tolist() == b.tolist()
    s1, s2 = m._optimizer.state_dict(), m2._optimizer.state_dict()
    assert s1['@step'] == s2['@step']


def test_callbacks_and_early_stop():
    seen = []

    class Rec(paddle.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen.append(('epoch', epoch, 'loss' in logs))

        def on_train_batch_end(self, step, logs=None):
            if step == 0:
                seen.append(('batch', logs['batch_size']))

    m = _model()
    m.fit(_blobs(16), epochs=2, batch_size=8, verbose=0, callbacks=[Rec()])
    assert seen == [('batch', 8), ('epoch', 0, True), ('batch', 8), ('epoch', 1, True)]

    class Stop(paddle.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            self.model.stop_training = True

    m.fit(_blobs(16), epochs=5, batch_size=8, verbose=0, callbacks=[Stop(), Rec()])
    assert len([s for s in seen if s[0] == 'epoch']) == 3


def test_prepare_checks():
    net = paddle.nn.Linear(2, 2)
    m = paddle.Model(net)
    try:
        m.prepare(paddle.optimizer.SGD(parameters=net.parameters()), loss=3)
        raise AssertionError('expected TypeError')
    except TypeError:
        pass
    try:
        m.train_batch([paddle.rand([1, 2])], [paddle.zeros([1, 1], dtype='int64')])
        raise AssertionError('expected ValueError')
    except ValueError:
        pass


def test_state_file_errors_load_nothing():
    import os
    import tempfile
    m = _model()
    path = os.path.join(tempfile.mkdtemp(), 'ckpt')
    m.save(path)
    with open(path + '.pdparams', 'rb') as f:
        blob = f.read()
    assert blob[:1] == b'\x80'   # Paddle's format: a pickle
    before = [p.tolist() for p in m.network.parameters()]
    for bad in (blob[:len(blob) - 8], blob[:20], b'NOTPADDL' + blob[8:]):
        with open(path + '.pdparams', 'wb') as f:
            f.write(bad)
        try:
            m.load(path)
            raise AssertionError('expected ValueError')
        except ValueError:
            pass
        assert [p.tolist() for p in m.network.parameters()] == before


def test_early_stopping_on_eval_metric():
    m = _model()
    stop = paddle.callbacks.EarlyStopping(monitor='acc', mode='max', patience=0, baseline=1.1, verbose=0, save_best_model=False)
    epochs = []

    class Count(paddle.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            epochs.append(epoch)

    ds = _blobs(16)
    m.fit(ds, eval_data=ds, epochs=5, batch_size=8, verbose=0, callbacks=[stop, Count()])
    assert epochs == [0]
