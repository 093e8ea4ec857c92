"""paddle.optimizer: each Python optimizer is a thin handle on the runtime's optimizer
(src/optimizer through frontend/python/bridge_optimizer.ts) — the update math exists once.
Python keeps the learning-rate schedule and passes the current rate to every step."""
import json

from .. import _bridge
from ..tensor import _wrap
from .lr import LRScheduler

_js = _bridge._js
_error = _bridge.error


def _decay_spec(wd):
    if wd is None:
        return None
    if isinstance(wd, (int, float)) and not isinstance(wd, bool):
        return float(wd)
    from ..regularizer import L1Decay, L2Decay
    if isinstance(wd, L2Decay):
        return {'kind': 'l2', 'coeff': wd._coeff}
    if isinstance(wd, L1Decay):
        return {'kind': 'l1', 'coeff': wd._coeff}
    raise TypeError('weight_decay must be a float or a paddle.regularizer.L1Decay/L2Decay, got %r' % (wd,))


def _clip_spec(c):
    if c is None:
        return None
    spec = getattr(c, '_spec', None)
    if spec is None:
        raise TypeError('grad_clip must be a paddle.nn.ClipGradByGlobalNorm, ClipGradByNorm or ClipGradByValue, got %r' % (c,))
    return spec


def _name(p):
    n = getattr(p, 'name', None)
    return n if isinstance(n, str) else ''


class Optimizer:
    _kind = None
    _options = ()

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None, name=None, **options):
        if parameters is None:
            raise AttributeError('parameters argument given to the Optimizer should not be None in dygraph mode.')
        if not isinstance(learning_rate, (int, float, LRScheduler)) or isinstance(learning_rate, bool):
            raise TypeError('learning_rate should be a float or an LRScheduler, got %s' % type(learning_rate).__name__)
        self._learning_rate = learning_rate
        params = list(parameters)
        if params and isinstance(params[0], dict):
            groups = []
            self._parameter_list = []
            for g in params:
                ps = list(g['params'])
                self._parameter_list += ps
                spec = {'params': [p._h for p in ps], 'names': [_name(p) for p in ps]}
                if 'learning_rate' in g:
                    spec['learning_rate'] = float(g['learning_rate'])
                if 'weight_decay' in g:
                    spec['weight_decay'] = _decay_spec(g['weight_decay'])
                # any other numeric setting (beta1, epsilon, ...) applies to this group only, as in Paddle
                extra = {k: float(v) for k, v in g.items() if k not in ('params', 'learning_rate', 'weight_decay')
                         and isinstance(v, (int, float)) and not isinstance(v, bool)}
                if extra:
                    spec['extra'] = extra
                groups.append(spec)
        else:
            self._parameter_list = params
            groups = [{'params': [p._h for p in params], 'names': [_name(p) for p in params]}]
        self._param_groups = params
        config = {k: v for k, v in options.items() if v is not None and not callable(v)}
        # callables cannot cross the bridge: they are evaluated here, once per parameter
        fn = options.get('exclude_from_weight_decay_fn')
        if fn is not None:
            config['exclude_handles'] = [p._h for p in self._parameter_list if fn(p)]
        fn = options.get('apply_decay_param_fun')
        if fn is not None:
            config['decay_names'] = [_name(p) for p in self._parameter_list if fn(_name(p))]
        config['weight_decay'] = _decay_spec(weight_decay)
        config['grad_clip'] = _clip_spec(grad_clip)
        self._id = _js.opt_create(self._kind, json.dumps(config), json.dumps(groups))
        if not self._id:
            raise _error()

    def __del__(self):
        i = getattr(self, '_id', 0)
        if i:
            try:
                _js.opt_free(i)
            except Exception:   # noqa: BLE001 - interpreter shutdown
                pass

    def get_lr(self):
        lr = self._learning_rate
        return float(lr()) if isinstance(lr, LRScheduler) else float(lr)

    def set_lr(self, value):
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError('set_lr_scheduler: expected an LRScheduler, got %s' % type(scheduler).__name__)
        self._learning_rate = scheduler

    def step(self):
        if not _js.opt_step(self._id, self.get_lr()):
            raise _error()

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Dygraph: applies the gradients already computed by loss.backward()."""
        self.step()
        return None, None

    def clear_grad(self, set_to_zero=True):
        if not _js.opt_clear_grad(self._id, bool(set_to_zero)):
            raise _error()

    clear_gradients = clear_grad

    def state_dict(self):
        text = _js.opt_state(self._id)
        if text == 0:
            raise _error()
        out = {}
        for line in text.split('\n') if text else []:
            k, _, v = line.partition('\x01')
            out[k] = int(v) if k == '@step' else _wrap(int(v))
        if isinstance(self._learning_rate, LRScheduler):
            out['LR_Scheduler'] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict):
        lines = []
        for k, v in state_dict.items():
            if k == 'LR_Scheduler':
                if isinstance(self._learning_rate, LRScheduler):
                    self._learning_rate.set_state_dict(v)
            elif k == '@step':
                lines.append('@step\x01%d' % v)
            else:
                lines.append('%s\x01%d' % (k, v._h))
        if not _js.opt_set_state(self._id, '\n'.join(lines)):
            raise _error()


class SGD(Optimizer):
    _kind = 'SGD'

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None, multi_precision=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)


class Momentum(Optimizer):
    _kind = 'Momentum'

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False, weight_decay=None,
                 grad_clip=None, multi_precision=False, rescale_grad=1.0, use_multi_tensor=False, name=None):
        if rescale_grad != 1.0:
            raise NotImplementedError('Momentum: rescale_grad is not supported yet')
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, momentum=momentum, use_nesterov=use_nesterov)


class Adam(Optimizer):
    _kind = 'Adam'

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None, weight_decay=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, use_multi_tensor=False, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, beta1=beta1, beta2=beta2, epsilon=epsilon)


class AdamW(Optimizer):
    _kind = 'AdamW'

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None, weight_decay=0.01,
                 lr_ratio=None, apply_decay_param_fun=None, grad_clip=None, lazy_mode=False, multi_precision=False, name=None):
        if lr_ratio is not None:
            raise NotImplementedError('AdamW: lr_ratio is not supported yet')
        if apply_decay_param_fun is not None and not callable(apply_decay_param_fun):
            raise TypeError('AdamW: apply_decay_param_fun must be callable, got %r' % (apply_decay_param_fun,))
        if not isinstance(weight_decay, (int, float)):
            raise TypeError('AdamW: weight_decay must be a float (the decoupled coefficient)')
        super().__init__(learning_rate, parameters, float(weight_decay), grad_clip, name, beta1=beta1, beta2=beta2, epsilon=epsilon,
                         apply_decay_param_fun=apply_decay_param_fun)


class Adagrad(Optimizer):
    _kind = 'Adagrad'

    def __init__(self, learning_rate, epsilon=1e-06, parameters=None, weight_decay=None, grad_clip=None, name=None,
                 initial_accumulator_value=0.0):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, epsilon=epsilon,
                         initial_accumulator_value=initial_accumulator_value)


class RMSProp(Optimizer):
    _kind = 'RMSProp'

    def __init__(self, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0, centered=False, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, rho=rho, epsilon=epsilon,
                         momentum=momentum, centered=centered)


class Adadelta(Optimizer):
    _kind = 'Adadelta'

    def __init__(self, learning_rate=0.001, epsilon=1.0e-6, rho=0.95, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        if learning_rate is None or epsilon is None or rho is None:
            raise ValueError('learning_rate, epsilon and rho must not be None.')
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, epsilon=epsilon, rho=rho)


class Adamax(Optimizer):
    _kind = 'Adamax'

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, parameters=None, weight_decay=None,
                 grad_clip=None, name=None):
        for k, b in (('beta1', beta1), ('beta2', beta2)):
            if not 0 <= b < 1:
                raise ValueError('Invaild value of %s, expect %s in [0, 1).' % (k, k))
        if not 0 <= epsilon:
            raise ValueError('Invaild value of epsilon, expect epsilon >= 0.')
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name, beta1=beta1, beta2=beta2, epsilon=epsilon)


class Lamb(Optimizer):
    """exclude_from_weight_decay_fn(param) -> True turns lamb_weight_decay off for that parameter
    (evaluated once, when the optimizer is built, as Paddle's static parameter list allows)."""
    _kind = 'Lamb'

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, parameters=None,
                 grad_clip=None, exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False, name=None):
        for k, b in (('beta1', beta1), ('beta2', beta2)):
            if not 0 <= b < 1:
                raise ValueError('Invaild value of %s, expect %s in [0, 1).' % (k, k))
        if not 0 <= epsilon:
            raise ValueError('Invaild value of epsilon, expect epsilon >= 0.')
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise TypeError('Lamb: exclude_from_weight_decay_fn must be callable, got %r' % (exclude_from_weight_decay_fn,))
        super().__init__(learning_rate, parameters, None, grad_clip, name, lamb_weight_decay=lamb_weight_decay, beta1=beta1,
                         beta2=beta2, epsilon=epsilon, always_adapt=bool(always_adapt),
                         exclude_from_weight_decay_fn=exclude_from_weight_decay_fn)
