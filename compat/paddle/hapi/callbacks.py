"""paddle.callbacks: hooks paddle.Model calls around epochs and batches."""
import numbers
import os

from ..optimizer.lr import LRScheduler as _Sched
from .progressbar import ProgressBar


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_begin(self, mode, logs=None):
        getattr(self, 'on_%s_begin' % mode)(logs)

    def on_end(self, mode, logs=None):
        getattr(self, 'on_%s_end' % mode)(logs)

    def on_batch_begin(self, mode, step, logs=None):
        getattr(self, 'on_%s_batch_begin' % mode)(step, logs)

    def on_batch_end(self, mode, step, logs=None):
        getattr(self, 'on_%s_batch_end' % mode)(step, logs)

    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_eval_begin(self, logs=None): pass
    def on_eval_end(self, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_train_batch_begin(self, step, logs=None): pass
    def on_train_batch_end(self, step, logs=None): pass
    def on_eval_batch_begin(self, step, logs=None): pass
    def on_eval_batch_end(self, step, logs=None): pass
    def on_predict_batch_begin(self, step, logs=None): pass
    def on_predict_batch_end(self, step, logs=None): pass


class CallbackList:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __getattr__(self, name):
        if not name.startswith(('on_', 'set_')):
            raise AttributeError(name)

        def call(*a):
            for c in self.callbacks:
                getattr(c, name)(*a)
        return call


class ProgBarLogger(Callback):
    """Prints progress: verbose 0 nothing, 1 a live bar (plain lines when stdout is not a
    terminal), 2 one line every log_freq steps. Lines show loss, metrics and steps/s."""

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.log_freq, self.verbose = log_freq, verbose

    def _values(self, logs):
        keys = ['loss'] + list(self.params.get('metrics', []))
        return [(k, logs[k]) for k in keys if logs and k in logs]

    def on_train_begin(self, logs=None):
        self.epochs = self.params.get('epochs')

    def on_epoch_begin(self, epoch, logs=None):
        self.steps = self.params.get('steps')
        self.epoch = epoch
        self.train_step = 0
        if self.verbose and self.epochs:
            print('Epoch %d/%d' % (epoch + 1, self.epochs))
        self.bar = ProgressBar(self.steps, self.verbose, 'train') if self.verbose else None

    def _step(self, bar, step, logs, force=False):
        if bar is None:
            return
        if bar._tty or force or step % self.log_freq == 0 or (bar.num and step == bar.num):
            bar.update(step, self._values(logs))

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._step(self.bar, self.train_step, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.bar is not None:
            if self.bar.last_step != self.train_step and not self.bar._tty:
                self.bar.update(self.train_step, self._values(logs))
            self.bar.close(self.train_step, self._values(logs))

    def on_eval_begin(self, logs=None):
        self.eval_steps = (logs or {}).get('steps')
        self.eval_step = 0
        if self.verbose:
            print('Eval begin...')
        self.eval_bar = ProgressBar(self.eval_steps, self.verbose, 'eval') if self.verbose else None

    def on_eval_batch_end(self, step, logs=None):
        self.eval_step += 1
        self.eval_logs = logs
        self._step(self.eval_bar, self.eval_step, logs)

    def on_eval_end(self, logs=None):
        if self.eval_bar is not None:
            if not self.eval_bar._tty and self.eval_bar.last_step != self.eval_step:
                self.eval_bar.update(self.eval_step, self._values(logs))
            self.eval_bar.close(self.eval_step, self._values(logs))
            print('Eval samples: %d' % (logs or {}).get('samples', 0))

    def on_predict_begin(self, logs=None):
        self.pred_step = 0
        if self.verbose:
            print('Predict begin...')
        self.pred_bar = ProgressBar((logs or {}).get('steps'), self.verbose, 'predict') if self.verbose else None

    def on_predict_batch_end(self, step, logs=None):
        self.pred_step += 1
        self._step(self.pred_bar, self.pred_step, {})

    def on_predict_end(self, logs=None):
        if self.pred_bar is not None:
            self.pred_bar.close(self.pred_step, [])
            print('Predict samples: %d' % (logs or {}).get('samples', 0))


class ModelCheckpoint(Callback):
    """Saves the model to save_dir/<epoch> every save_freq epochs and to save_dir/final at the end."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq, self.save_dir = save_freq, save_dir

    def on_epoch_end(self, epoch, logs=None):
        if self.save_dir and self.model is not None and (epoch + 1) % self.save_freq == 0:
            self.model.save(os.path.join(self.save_dir, str(epoch)))

    def on_train_end(self, logs=None):
        if self.save_dir and self.model is not None:
            self.model.save(os.path.join(self.save_dir, 'final'))


class LRScheduler(Callback):
    """Steps the optimizer's LRScheduler after every batch (by_step) or epoch (by_epoch)."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError('by_step option is mutually exclusive with by_epoch')
        self.by_step, self.by_epoch = by_step, by_epoch

    def _sched(self):
        opt = getattr(self.model, '_optimizer', None)
        lr = getattr(opt, '_learning_rate', None)
        return lr if isinstance(lr, _Sched) else None

    def on_train_batch_end(self, step, logs=None):
        s = self._sched()
        if self.by_step and s is not None:
            s.step()

    def on_epoch_end(self, epoch, logs=None):
        s = self._sched()
        if self.by_epoch and s is not None:
            s.step()


class EarlyStopping(Callback):
    """Stops fit when the monitored eval value stops improving for `patience` evaluations."""

    def __init__(self, monitor='loss', mode='auto', patience=0, verbose=1, min_delta=0, baseline=None, save_best_model=True):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.min_delta, self.baseline, self.save_best_model = abs(min_delta), baseline, save_best_model
        if mode not in ('auto', 'min', 'max'):
            mode = 'auto'
        if mode == 'auto':
            mode = 'max' if 'acc' in monitor else 'min'
        self.better = (lambda a, b: a > b + self.min_delta) if mode == 'max' else (lambda a, b: a < b - self.min_delta)
        self.wait_epoch = 0
        self.best_value = None
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        self.best_value = self.baseline

    def on_eval_end(self, logs=None):
        if not logs or self.monitor not in logs:
            return
        v = logs[self.monitor]
        v = v[0] if isinstance(v, (list, tuple)) else v
        if not isinstance(v, numbers.Number):
            return
        if self.best_value is None or self.better(v, self.best_value):
            self.best_value, self.wait_epoch = v, 0
            save_dir = self.params.get('save_dir')
            if self.save_best_model and save_dir:
                self.model.save(os.path.join(save_dir, 'best_model'))
        else:
            self.wait_epoch += 1
        if self.wait_epoch > self.patience:
            self.model.stop_training = True
            if self.verbose:
                print('Epoch %d: Early stopping.' % (self.stopped_epoch + 1))
        self.stopped_epoch += 1


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None, log_freq=2, verbose=2,
                     save_freq=1, save_dir=None, metrics=None, mode='train'):
    cbks = list(callbacks or [])
    if not any(isinstance(c, ProgBarLogger) for c in cbks) and verbose:
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(c, ModelCheckpoint) for c in cbks) and mode == 'train':
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    if not any(isinstance(c, LRScheduler) for c in cbks) and mode == 'train':
        cbks = cbks + [LRScheduler()]
    lst = CallbackList(cbks)
    lst.set_model(model)
    lst.set_params({'batch_size': batch_size, 'epochs': epochs, 'steps': steps, 'verbose': verbose,
                    'metrics': metrics or [], 'save_dir': save_dir})
    return lst
