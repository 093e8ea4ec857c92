"""paddle.Model: prepare / fit / evaluate / predict / save / load around an nn.Layer.

Runs eagerly (Skiff's autograd and optimizers); each step is forward, loss, backward and one
optimizer update, with metrics computed from the same outputs. Differences from Paddle, on
purpose: losses come back as Python floats (not numpy arrays), predict returns Tensors, and
evaluate reports the sample-weighted mean loss of the whole pass.
"""
import inspect
import os

from .. import _serialization

from ..io import DataLoader, Dataset
from ..io.dataset import IterableDataset
from ..tensor import Tensor
from .callbacks import config_callbacks
from .progressbar import close_all


def _to_list(x):
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _forward_arity(network):
    """How many leading fields of a batch are inputs when no InputSpec says so: the number of
    positional parameters of network.forward (Paddle derives its default specs the same way)."""
    try:
        sig = inspect.signature(network.forward)
    except (TypeError, ValueError):
        return 1
    n = sum(1 for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    return max(n, 1)


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    import paddle
    f = getattr(x, '_skiff_tensor', None)
    return f() if f is not None else paddle.to_tensor(x)


class Model:
    """High-level training of `network`. `inputs`/`labels` are InputSpecs (or lists of them);
    only their count matters here: it says how a batch splits into inputs and labels."""

    def __init__(self, network, inputs=None, labels=None):
        self.network = network
        self._inputs = _to_list(inputs) if inputs is not None else None
        self._labels = _to_list(labels) if labels is not None else None
        self._n_inputs = len(self._inputs) if self._inputs else _forward_arity(network)
        self._optimizer = None
        self._loss = None
        self._metrics = []
        self.stop_training = False
        self.mode = 'train'

    # --- setup -----------------------------------------------------------------------------
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        if loss is not None and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable function.")
        from ..metric import Metric
        metrics = _to_list(metrics)
        for m in metrics:
            if not isinstance(m, Metric):
                raise AssertionError('{} is not sub class of Metric'.format(m.__class__.__name__))
        self._optimizer, self._loss, self._metrics = optimizer, loss, metrics

    def parameters(self, *args, **kwargs):
        return self.network.parameters(*args, **kwargs)

    def _metric_names(self):
        names = []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    # --- one batch -----------------------------------------------------------------------------
    def _metrics_on(self, outputs, labels):
        results = []
        for m in self._metrics:
            r = m.compute(*(outputs + labels))
            results.append(m.update(*_to_list(r)))
        return results

    def _losses(self, outputs, labels):
        losses = _to_list(self._loss(*(outputs + labels)))
        total = losses[0]
        for l in losses[1:]:
            total = total + l
        return losses, total

    def _train(self, inputs, labels, update=True):
        if self._loss is None:
            raise ValueError('Model: call prepare(optimizer, loss) before training; loss is not set')
        self.network.train()
        self.mode = 'train'
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        labels = [_as_tensor(x) for x in _to_list(labels)]
        outputs = _to_list(self.network(*inputs))
        losses, total = self._losses(outputs, labels)
        total.backward()
        if update:
            if self._optimizer is None:
                raise ValueError('Model: call prepare(optimizer, loss) before training; optimizer is not set')
            self._optimizer.step()
            self._optimizer.clear_grad()
        return [float(l) for l in losses], self._metrics_on(outputs, labels)

    def _eval(self, inputs, labels):
        import paddle
        self.network.eval()
        self.mode = 'eval'
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        labels = [_as_tensor(x) for x in _to_list(labels)]
        with paddle.no_grad():
            outputs = _to_list(self.network(*inputs))
            losses = [float(l) for l in self._losses(outputs, labels)[0]] if self._loss is not None and labels else []
            return losses, self._metrics_on(outputs, labels)

    def train_batch(self, inputs, labels=None, update=True):
        """One update; returns [loss] or ([loss], [metric results]) when metrics are set."""
        losses, metrics = self._train(inputs, labels, update)
        return (losses, metrics) if self._metrics else losses

    def eval_batch(self, inputs, labels=None):
        losses, metrics = self._eval(inputs, labels)
        if self._metrics and losses:
            return losses, metrics
        return metrics if self._metrics else losses

    def predict_batch(self, inputs):
        import paddle
        self.network.eval()
        self.mode = 'test'
        with paddle.no_grad():
            return _to_list(self.network(*[_as_tensor(x) for x in _to_list(inputs)]))

    # --- loops -----------------------------------------------------------------------------
    def _loader(self, data, batch_size, shuffle, drop_last):
        if data is None or isinstance(data, DataLoader):
            return data
        if isinstance(data, (Dataset, IterableDataset)):
            return DataLoader(data, batch_size=batch_size, shuffle=shuffle and not isinstance(data, IterableDataset),
                              drop_last=drop_last)
        raise TypeError('data should be a paddle.io.Dataset or paddle.io.DataLoader, got {}'.format(type(data).__name__))

    @staticmethod
    def _len(loader):
        try:
            return len(loader)
        except (TypeError, ValueError):
            return None

    def _split(self, data):
        data = _to_list(data)
        return data[:self._n_inputs], data[self._n_inputs:]

    def _run(self, loader, cbks, mode, num_iters=None, accumulate=1):
        for m in self._metrics:
            m.reset()
        logs, outputs = {}, []
        samples, loss_sum = 0, None
        steps = self._len(loader)
        for step, data in enumerate(loader):
            cbks.on_batch_begin(mode, step, logs)
            inputs, labels = self._split(data)
            bs = inputs[0].shape[0] if inputs and hasattr(inputs[0], 'shape') and inputs[0].shape else 1
            if mode == 'predict':
                outputs.append(self.predict_batch(inputs))
            else:
                if mode == 'train':
                    last = steps is not None and step + 1 == steps
                    losses, metrics = self._train(inputs, labels, update=(step + 1) % accumulate == 0 or last)
                    logs['loss'] = losses
                else:
                    losses, metrics = self._eval(inputs, labels)
                    if losses:      # running sample-weighted mean over the pass
                        loss_sum = [a + b * bs for a, b in zip(loss_sum, losses)] if loss_sum else [b * bs for b in losses]
                        logs['loss'] = [a / (samples + bs) for a in loss_sum]
                for m in self._metrics:
                    acc = m.accumulate()
                    names = _to_list(m.name())
                    for n, v in zip(names, _to_list(acc) if len(names) > 1 else [acc]):
                        logs[n] = v
            samples += bs
            logs['step'], logs['batch_size'] = step, bs
            cbks.on_batch_end(mode, step, logs)
            if num_iters is not None and step + 1 >= num_iters:
                break
        logs['samples'] = samples
        return logs, outputs

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1, log_freq=10, save_dir=None,
            save_freq=1, verbose=2, drop_last=False, shuffle=True, num_workers=0, callbacks=None,
            accumulate_grad_batches=1, num_iters=None):
        if train_data is None:
            raise AssertionError('train_data must be given!')
        train_loader = self._loader(train_data, batch_size, shuffle, drop_last)
        eval_loader = self._loader(eval_data, batch_size, False, False)
        steps = self._len(train_loader)
        if num_iters is not None and steps is not None:
            steps = min(steps, num_iters)
        cbks = config_callbacks(callbacks, model=self, batch_size=batch_size, epochs=epochs, steps=steps,
                                log_freq=log_freq, verbose=verbose, save_freq=save_freq, save_dir=save_dir,
                                metrics=self._metric_names())
        self.stop_training = False
        cbks.on_begin('train')
        logs = {}
        remaining = num_iters
        try:
            for epoch in range(epochs):
                cbks.on_epoch_begin(epoch)
                logs, _ = self._run(train_loader, cbks, 'train', remaining, accumulate_grad_batches)
                cbks.on_epoch_end(epoch, logs)
                if remaining is not None:
                    remaining -= logs['step'] + 1
                if eval_loader is not None and (epoch + 1) % eval_freq == 0:
                    self._evaluate(eval_loader, cbks)
                if self.stop_training or (remaining is not None and remaining <= 0):
                    break
        finally:
            close_all()     # a failing step must not leave a half-drawn bar and a hidden cursor
        cbks.on_end('train', logs)

    def _evaluate(self, loader, cbks, num_iters=None):
        cbks.on_begin('eval', {'steps': self._len(loader), 'metrics': self._metric_names()})
        logs, _ = self._run(loader, cbks, 'eval', num_iters)
        cbks.on_end('eval', logs)
        out = {}
        if 'loss' in logs:
            out['loss'] = logs['loss']
        for n in self._metric_names():
            out[n] = logs[n]
        return out

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0, callbacks=None, num_iters=None):
        """Returns {'loss': [mean loss], <metric name>: value, ...} over the whole pass."""
        loader = self._loader(eval_data, batch_size, False, False)
        cbks = config_callbacks(callbacks, model=self, batch_size=batch_size, log_freq=log_freq, verbose=verbose,
                                metrics=self._metric_names(), mode='eval')
        return self._evaluate(loader, cbks, num_iters)

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1, callbacks=None):
        """One list per network output: the per-batch output Tensors, or one Tensor
        concatenated over batches when stack_outputs."""
        import paddle
        loader = self._loader(test_data, batch_size, False, False)
        cbks = config_callbacks(callbacks, model=self, batch_size=batch_size, verbose=verbose, mode='predict')
        cbks.on_begin('predict', {'steps': self._len(loader)})
        logs, outputs = self._run(loader, cbks, 'predict')
        cbks.on_end('predict', logs)
        per_output = [list(x) for x in zip(*outputs)] if outputs else []
        if stack_outputs:
            return [paddle.concat(o, axis=0) for o in per_output]
        return per_output

    # --- persistence -----------------------------------------------------------------------
    def save(self, path, training=True):
        """training=True: path.pdparams (network state) and path.pdopt (optimizer state);
        training=False: an inference model through paddle.jit.save. Both files are Paddle's own format (paddle.save)."""
        d = os.path.dirname(path)
        if d:
            from .host import host_dir
            host_dir(d)
        if not training:
            from .. import jit
            return jit.save(self.network, path, input_spec=self._inputs)
        _serialization.save(self.network.state_dict(), path + '.pdparams')
        if self._optimizer is not None:
            _serialization.save(self._optimizer.state_dict(), path + '.pdopt')

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        if path.endswith('.pdparams'):
            path = path[:-len('.pdparams')]
        state = _serialization.load(path + '.pdparams')
        if skip_mismatch:
            own = self.network.state_dict()
            state = {k: v for k, v in state.items() if k in own and list(v.shape) == own[k].shape}
        self.network.set_state_dict(state)
        if self._optimizer is not None and not reset_optimizer and os.path.exists(path + '.pdopt'):
            self._optimizer.set_state_dict(_serialization.load(path + '.pdopt'))

    def summary(self, input_size=None, dtype=None):
        import paddle
        f = getattr(paddle, 'summary', None)
        if f is None:
            total = sum(p.size for p in self.network.parameters())
            trainable = sum(p.size for p in self.network.parameters() if not p.stop_gradient)
            print('Total params: {:,}\nTrainable params: {:,}'.format(total, trainable))
            return {'total_params': total, 'trainable_params': trainable}
        return f(self.network, input_size, dtypes=dtype)
