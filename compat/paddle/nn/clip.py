"""paddle.nn.ClipGradByGlobalNorm / ClipGradByNorm / ClipGradByValue: settings the optimizer
hands to the runtime, which clips the gradients of each step before the update."""


class ClipGradByGlobalNorm:
    def __init__(self, clip_norm, group_name='default_group', auto_skip_clip=False):
        if not clip_norm > 0:
            raise ValueError('ClipGradByGlobalNorm: clip_norm must be positive, got %r' % (clip_norm,))
        self.clip_norm = float(clip_norm)
        self._spec = {'kind': 'global_norm', 'clip_norm': self.clip_norm}


class ClipGradByNorm:
    def __init__(self, clip_norm):
        if not clip_norm > 0:
            raise ValueError('ClipGradByNorm: clip_norm must be positive, got %r' % (clip_norm,))
        self.clip_norm = float(clip_norm)
        self._spec = {'kind': 'norm', 'clip_norm': self.clip_norm}


class ClipGradByValue:
    def __init__(self, max, min=None):
        min = -max if min is None else min
        if min > max:
            raise ValueError('ClipGradByValue: min %r must not exceed max %r' % (min, max))
        self.max, self.min = float(max), float(min)
        self._spec = {'kind': 'value', 'max': self.max, 'min': self.min}
