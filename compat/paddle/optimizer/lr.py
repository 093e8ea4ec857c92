"""paddle.optimizer.lr: learning-rate schedules, in Python so users can subclass LRScheduler and
override get_lr() as in Paddle. The optimizer reads `scheduler()` (the current rate) on every
step; `scheduler.step()` advances it. Same closed forms as src/optimizer/lr.ts."""
import math


class LRScheduler:
    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool) or not math.isfinite(learning_rate):
            raise TypeError('%s: learning_rate must be a finite number, got %r' % (type(self).__name__, learning_rate))
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        self.last_lr = self.get_lr()
        if self.verbose:
            print('Epoch %d: %s set learning rate to %s.' % (self.last_epoch, type(self).__name__, self.last_lr))

    def get_lr(self):
        raise NotImplementedError('%s.get_lr is not implemented' % type(self).__name__)

    def state_dict(self):
        return {'last_epoch': self.last_epoch, 'last_lr': self.last_lr}

    def set_state_dict(self, state):
        self.last_epoch = state['last_epoch']
        self.last_lr = state['last_lr']

    set_dict = set_state_dict


def _positive_int(cls, name, v):
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        raise ValueError('%s: %s must be a positive integer, got %r' % (cls, name, v))


class StepDecay(LRScheduler):
    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        _positive_int('StepDecay', 'step_size', step_size)
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class MultiStepDecay(LRScheduler):
    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if any(b <= a for a, b in zip(milestones, milestones[1:])):
            raise ValueError('MultiStepDecay: milestones must be increasing')
        self.milestones, self.gamma = list(milestones), gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** sum(1 for m in self.milestones if m <= self.last_epoch)


class ExponentialDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.gamma ** self.last_epoch


class CosineAnnealingDecay(LRScheduler):
    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        _positive_int('CosineAnnealingDecay', 'T_max', T_max)
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class PolynomialDecay(LRScheduler):
    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False, last_epoch=-1, verbose=False):
        _positive_int('PolynomialDecay', 'decay_steps', decay_steps)
        self.decay_steps, self.end_lr, self.power, self.cycle = decay_steps, end_lr, power, cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            steps = steps * max(1, math.ceil(t / steps))
        else:
            t = min(t, steps)
        return (self.base_lr - self.end_lr) * (1 - t / steps) ** self.power + self.end_lr


class LinearWarmup(LRScheduler):
    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1, verbose=False):
        _positive_int('LinearWarmup', 'warmup_steps', warmup_steps)
        self.learning_rate, self.warmup_steps, self.start_lr, self.end_lr = learning_rate, warmup_steps, start_lr, end_lr
        base = learning_rate.base_lr if isinstance(learning_rate, LRScheduler) else learning_rate
        super().__init__(base, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * self.last_epoch / self.warmup_steps + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return float(self.learning_rate)


class LinearLR(LRScheduler):
    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0, last_epoch=-1, verbose=False):
        _positive_int('LinearLR', 'total_steps', total_steps)
        if not 0 < start_factor <= 1:
            raise ValueError('LinearLR: start_factor must be in (0, 1], got %r' % start_factor)
        self.total_steps, self.start_factor, self.end_factor = total_steps, start_factor, end_factor
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t = min(self.last_epoch, self.total_steps)
        return self.base_lr * (self.start_factor + (self.end_factor - self.start_factor) * t / self.total_steps)


class CosineAnnealingWarmRestarts(LRScheduler):
    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        _positive_int('CosineAnnealingWarmRestarts', 'T_0', T_0)
        _positive_int('CosineAnnealingWarmRestarts', 'T_mult', T_mult)
        self.T_0, self.T_mult, self.eta_min = T_0, T_mult, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        t, period = max(0, self.last_epoch), self.T_0
        if self.T_mult == 1:
            t %= period
        else:
            n = int(math.log(t / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            t -= self.T_0 * (self.T_mult ** n - 1) // (self.T_mult - 1)
            period = self.T_0 * self.T_mult ** n
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * t / period)) / 2


class NaturalExpDecay(LRScheduler):
    """lr = base * exp(-gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if not isinstance(gamma, (int, float)) or isinstance(gamma, bool):
            raise TypeError('NaturalExpDecay: gamma must be a number, got %r' % (gamma,))
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """lr = base / (1 + gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PiecewiseDecay(LRScheduler):
    """values[i] for the first boundary the epoch is below, else the last value."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        boundaries, values = list(boundaries), list(values)
        if not boundaries:
            raise ValueError('PiecewiseDecay: the boundaries cannot be empty.')
        if len(values) != len(boundaries) + 1:
            raise ValueError('PiecewiseDecay: values must have one more element than boundaries, got %d values for %d '
                             'boundaries' % (len(values), len(boundaries)))
        self.boundaries, self.values = boundaries, values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for i, b in enumerate(self.boundaries):
            if self.last_epoch < b:
                return self.values[i]
        return self.values[-1]


class NoamDecay(LRScheduler):
    """lr = base * d_model^-0.5 * min(epoch^-0.5, epoch * warmup_steps^-1.5) (1 for the first term at epoch 0)."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError('NoamDecay: d_model should be grater than 0, got %r' % (d_model,))
        _positive_int('NoamDecay', 'warmup_steps', warmup_steps)
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        a = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        b = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * (self.d_model ** -0.5) * min(a, b)


class LambdaDecay(LRScheduler):
    """lr = base * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError('The type of \'lr_lambda\' in \'LambdaDecay\' must be \'function\', but received %s.'
                            % type(lr_lambda))
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """lr = base * lr_lambda(1) * ... * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError('The type of \'lr_lambda\' in \'MultiplicativeDecay\' must be \'function\', but received %s.'
                            % type(lr_lambda))
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        cur = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            cur = cur * self.lr_lambda(epoch)
        return cur


class OneCycleLR(LRScheduler):
    """Warm up from max/divide_factor to max, then anneal to end_learning_rate ('cos' or 'linear');
    three_phase goes back to the initial rate first. Same phase boundaries as src/optimizer/lr_more.ts."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0, end_learning_rate=0.0001, phase_pct=0.3,
                 anneal_strategy='cos', three_phase=False, last_epoch=-1, verbose=False):
        if not isinstance(max_learning_rate, (int, float)) or max_learning_rate <= 0:
            raise ValueError('OneCycleLR: max_learning_rate should be a positive number, got %r' % (max_learning_rate,))
        _positive_int('OneCycleLR', 'total_steps', total_steps)
        if not isinstance(divide_factor, (int, float)) or divide_factor <= 0:
            raise ValueError('OneCycleLR: divide_factor should be a positive number, got %r' % (divide_factor,))
        if not isinstance(end_learning_rate, (int, float)) or end_learning_rate < 0:
            raise ValueError('OneCycleLR: end_learning_rate should be a non-negative number, got %r' % (end_learning_rate,))
        if not isinstance(phase_pct, float) or not 0 < phase_pct < 1:
            raise ValueError('OneCycleLR: phase_pct should be a float between 0 and 1, got %r' % (phase_pct,))
        if three_phase and phase_pct >= 0.5:
            raise ValueError("OneCycleLR: when three_phase is True, 'phase_pct' must be less than 0.5, got %r" % (phase_pct,))
        if anneal_strategy not in ('cos', 'linear'):
            raise ValueError("OneCycleLR: 'anneal_strategy' must be one of 'cos' or 'linear', got %r" % (anneal_strategy,))
        self.total_steps = total_steps
        self.anneal_strategy = anneal_strategy
        initial = max_learning_rate / float(divide_factor)
        T = total_steps
        if three_phase:
            self._step_config = [0, phase_pct * T - 1, 2 * phase_pct * T - 2, T - 1, T - 1]
            c = self._step_config
            self._steps_size = [c[1] - c[0], c[2] - c[1], c[3] - c[2], c[3] - c[2]]
            self._lr_config = [initial, max_learning_rate, initial, end_learning_rate]
        else:
            self._step_config = [0, phase_pct * T - 1, T - 1, T - 1]
            c = self._step_config
            self._steps_size = [c[1] - c[0], c[2] - c[1], c[2] - c[1]]
            self._lr_config = [initial, max_learning_rate, end_learning_rate]
        if any(d <= 0 for d in self._steps_size):
            raise ValueError('OneCycleLR: total_steps %d is too small for phase_pct %r (a phase would have no steps)'
                             % (total_steps, phase_pct))
        super().__init__(initial, last_epoch, verbose)

    def _anneal(self, start, end, pct):
        if self.anneal_strategy == 'cos':
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self):
        t = self.last_epoch
        if t > self.total_steps:
            raise ValueError('OneCycleLR: tried to step {} times, but the number of total steps is {}'.format(t, self.total_steps))
        last = len(self._lr_config) - 2
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if t <= end_step or i == last:
                return self._anneal(self._lr_config[i], self._lr_config[i + 1], (t - self._step_config[i]) / size)
        return self._lr_config[-1]


class CyclicLR(LRScheduler):
    """Cycles between base_learning_rate and max_learning_rate (up over step_size_up steps, down over
    step_size_down); modes triangular, triangular2 (amplitude halves each cycle) and exp_range
    (exp_gamma ** iterations), or a custom scale_fn of the cycle or of the iterations."""

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None, mode='triangular',
                 exp_gamma=1.0, scale_fn=None, scale_mode='cycle', last_epoch=-1, verbose=False):
        if not isinstance(max_learning_rate, (int, float)) or max_learning_rate < 0:
            raise ValueError('CyclicLR: max_learning_rate should be a non-negative number, got %r' % (max_learning_rate,))
        _positive_int('CyclicLR', 'step_size_up', step_size_up)
        step_size_down = step_size_up if step_size_down is None else step_size_down
        _positive_int('CyclicLR', 'step_size_down', step_size_down)
        if scale_fn is None and mode not in ('triangular', 'triangular2', 'exp_range'):
            raise ValueError("CyclicLR: mode should be 'triangular', 'triangular2' or 'exp_range', got %r" % (mode,))
        if scale_mode not in ('cycle', 'iterations'):
            raise ValueError("CyclicLR: scale_mode should be 'cycle' or 'iterations', got %r" % (scale_mode,))
        self.max_lr = float(max_learning_rate)
        self.cycle_size = step_size_up + step_size_down
        self.step_up_pct = step_size_up / self.cycle_size
        self.mode, self.exp_gamma = mode, exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == 'triangular':
            self.scale_fn, self.scale_mode = (lambda x: 1.0), 'cycle'
        elif mode == 'triangular2':
            self.scale_fn, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), 'cycle'
        else:
            self.scale_fn, self.scale_mode = (lambda x: exp_gamma ** x), 'iterations'
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        it = self.last_epoch
        cycle = 1 + it // self.cycle_size
        pct = 1.0 + it / self.cycle_size - cycle
        f = pct / self.step_up_pct if pct <= self.step_up_pct else (1 - pct) / (1 - self.step_up_pct)
        return self.base_lr + (self.max_lr - self.base_lr) * f * self.scale_fn(cycle if self.scale_mode == 'cycle' else it)


class ReduceOnPlateau(LRScheduler):
    """Multiplies the rate by `factor` once step(metrics) has seen no improvement for more than
    `patience` epochs, then waits `cooldown` epochs; never below min_lr, changes under epsilon ignored."""

    def __init__(self, learning_rate, mode='min', factor=0.1, patience=10, threshold=1e-4, threshold_mode='rel',
                 cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        mode = mode.lower()
        if mode not in ('min', 'max'):
            raise ValueError('mode: ' + mode + ' is unknown!')
        if factor >= 1.0:
            raise ValueError('new_lr = origin_lr * gamma and gamma should be < 1.0.')
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ('rel', 'abs'):
            raise ValueError('threshold mode: ' + threshold_mode + ' is unknown!')
        if not isinstance(learning_rate, (float, int)) or isinstance(learning_rate, bool):
            raise TypeError('The type of \'learning_rate\' in \'ReduceOnPlateau\' must be \'float\', but received %s.'
                            % type(learning_rate))
        self.mode, self.factor, self.patience, self.threshold = mode, factor, patience, threshold
        self.threshold_mode, self.cooldown, self.min_lr, self.epsilon = threshold_mode, cooldown, min_lr, epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        # no first step: the scheduler needs a metric to step (Paddle starts it at epoch 0)
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def get_lr(self):
        return self.last_lr

    def step(self, metrics, epoch=None):
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        from ..tensor import Tensor
        if isinstance(metrics, Tensor) or hasattr(metrics, '_skiff_tensor'):
            size = 1
            for d in metrics.shape:
                size *= d
            if size != 1:
                raise ValueError('ReduceOnPlateau: the metric should be a one-element Tensor, got shape %s' % (list(metrics.shape),))
            metrics = float(metrics.item())
        elif not isinstance(metrics, (int, float)) or isinstance(metrics, bool):
            raise TypeError('ReduceOnPlateau: metrics should be a float or a one-element Tensor, got %s' % type(metrics).__name__)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print('Epoch %d: %s set learning rate to %s.' % (self.last_epoch, type(self).__name__, self.last_lr))

    def _is_better(self, current, best):
        if self.mode == 'min':
            return current < best - best * self.threshold if self.threshold_mode == 'rel' else current < best - self.threshold
        return current > best + best * self.threshold if self.threshold_mode == 'rel' else current > best + self.threshold

    def state_dict(self):
        return {'cooldown_counter': self.cooldown_counter, 'best': self.best, 'num_bad_epochs': self.num_bad_epochs,
                'last_epoch': self.last_epoch, 'last_lr': self.last_lr}

    def set_state_dict(self, state):
        for k in ('cooldown_counter', 'best', 'num_bad_epochs', 'last_epoch', 'last_lr'):
            if k in state:
                setattr(self, k, state[k])

    set_dict = set_state_dict
