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
