"""Loss layers: each keeps Paddle 2.6's constructor arguments and calls paddle.nn.functional.

The functions are the registry's ops (src/ops/defs/nn_loss_more.ts, nn_loss.ts, nn_ctc.ts),
so the numbers are the ones TypeScript computes. The reduction is checked at construction, as
Paddle does.
"""
from .. import functional as F
from ._bind import bind_args
from .layers import Layer

_REDUCTIONS = ('none', 'mean', 'sum')


def _check_reduction(cls_name, reduction, extra=()):
    allowed = _REDUCTIONS + tuple(extra)
    if reduction not in allowed:
        raise ValueError("The value of 'reduction' in %s should be 'sum', 'mean'%s or 'none', but received %s, "
                         "which is not allowed." % (cls_name, ", 'batchmean'" if extra else '', reduction))


def _loss(cls_name, fn_name, params, arity, extra_reductions=()):
    """A Layer class: constructor parameters `params` ((name, default), ...), forward takes
    `arity` tensors and calls F.<fn_name>(*tensors, **params)."""
    def __init__(self, *args, name=None, **kwargs):
        Layer.__init__(self)
        vals = bind_args(cls_name, params, args, kwargs)
        if 'reduction' in vals:
            _check_reduction(cls_name, vals['reduction'], extra_reductions)
        self.__dict__['_kw'] = vals

    def forward(self, *inputs):
        if len(inputs) != arity:
            raise TypeError('%s.forward() takes %d tensors, got %d' % (cls_name, arity, len(inputs)))
        return getattr(F, fn_name)(*inputs, **self._kw)

    def extra_repr(self):
        return ', '.join('%s=%s' % (k, v) for k, v in self._kw.items() if not hasattr(v, 'shape'))

    return type(cls_name, (Layer,), {'__init__': __init__, 'forward': forward, 'extra_repr': extra_repr,
                                     '__module__': __name__, '__doc__': 'paddle.nn.%s: F.%s as a layer.' % (cls_name, fn_name)})


_R = ('reduction', 'mean')
CrossEntropyLoss = _loss('CrossEntropyLoss', 'cross_entropy', [('weight', None), ('ignore_index', -100), _R, ('soft_label', False),
                                                               ('axis', -1), ('use_softmax', True), ('label_smoothing', 0.0)], 2)
MSELoss = _loss('MSELoss', 'mse_loss', [_R], 2)
L1Loss = _loss('L1Loss', 'l1_loss', [_R], 2)
SmoothL1Loss = _loss('SmoothL1Loss', 'smooth_l1_loss', [_R, ('delta', 1.0)], 2)
KLDivLoss = _loss('KLDivLoss', 'kl_div', [_R, ('log_target', False)], 2, ('batchmean',))
BCELoss = _loss('BCELoss', 'binary_cross_entropy', [('weight', None), _R], 2)
BCEWithLogitsLoss = _loss('BCEWithLogitsLoss', 'binary_cross_entropy_with_logits', [('weight', None), _R, ('pos_weight', None)], 2)
MarginRankingLoss = _loss('MarginRankingLoss', 'margin_ranking_loss', [('margin', 0.0), _R], 3)
HingeEmbeddingLoss = _loss('HingeEmbeddingLoss', 'hinge_embedding_loss', [('margin', 1.0), _R], 2)
CosineEmbeddingLoss = _loss('CosineEmbeddingLoss', 'cosine_embedding_loss', [('margin', 0), _R], 3)
NLLLoss = _loss('NLLLoss', 'nll_loss', [('weight', None), ('ignore_index', -100), _R], 2)


class CTCLoss(Layer):
    """forward(log_probs, labels, input_lengths, label_lengths, norm_by_times=False), as Paddle's."""

    def __init__(self, blank=0, reduction='mean'):
        super().__init__()
        _check_reduction('CTCLoss', reduction)
        self.blank, self.reduction = blank, reduction

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=self.blank, reduction=self.reduction,
                          norm_by_times=norm_by_times)

    def extra_repr(self):
        return 'blank=%s, reduction=%s' % (self.blank, self.reduction)
