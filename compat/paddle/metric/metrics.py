"""Metrics for paddle.Model. Top-k is computed on the host from one copy of the scores
(batch x classes is small): the runtime has no topk op yet, and ties resolve to the lower
class index."""
from ..tensor import Tensor


def _rows(x):
    """A tensor (or nested list) as a list of rows of its last axis."""
    v = x.tolist() if isinstance(x, Tensor) else (x.tolist() if hasattr(x, 'tolist') else x)
    if not isinstance(v, list):
        return [[v]]
    if not v or not isinstance(v[0], list):
        return [v]
    out = []

    def walk(a):
        if a and isinstance(a[0], list):
            for b in a:
                walk(b)
        else:
            out.append(a)
    walk(v)
    return out


def _labels(label, n, classes):
    """Integer labels per sample from [N], [N, 1] or one-hot [N, C]."""
    rows = _rows(label)
    if len(rows) == 1 and n != 1:        # a flat [N] label vector
        rows = [[x] for x in rows[0]]
    if len(rows) != n:
        raise ValueError('Accuracy: %d labels for %d predictions' % (len(rows), n))
    if rows and len(rows[0]) == classes and classes > 1:
        return [max(range(classes), key=lambda j: r[j]) for r in rows]   # one-hot
    return [int(r[0]) for r in rows]


def _topk(row, k):
    return sorted(range(len(row)), key=lambda j: -row[j])[:k]


class Metric:
    """Base class: reset/update/accumulate/name, and an optional compute run on the model's
    outputs and labels before update."""

    def __init__(self):
        pass

    def reset(self):
        raise NotImplementedError("function 'reset' not implemented in {}.".format(self.__class__.__name__))

    def update(self, *args):
        raise NotImplementedError("function 'update' not implemented in {}.".format(self.__class__.__name__))

    def accumulate(self):
        raise NotImplementedError("function 'accumulate' not implemented in {}.".format(self.__class__.__name__))

    def name(self):
        raise NotImplementedError("function 'name' not implemented in {}.".format(self.__class__.__name__))

    def compute(self, *args):
        return args


class Accuracy(Metric):
    """Top-k accuracy. compute(pred [N, C], label [N] / [N, 1] / one-hot) gives `correct`
    [N, max(topk)] (1.0 where the j-th best class is the label); update(correct) adds a batch
    and returns its accuracy; accumulate() the running accuracy (a float, or a list for several k)."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__()
        self.topk = (topk,) if isinstance(topk, int) else tuple(topk)
        self.maxk = max(self.topk)
        self._init_name(name)
        self.reset()

    def _init_name(self, name):
        name = name or 'acc'
        self._name = ['{}_top{}'.format(name, k) for k in self.topk] if self.maxk != 1 else [name]

    def compute(self, pred, label, *args):
        import paddle
        rows = _rows(pred)
        classes = len(rows[0]) if rows else 0
        labels = _labels(label, len(rows), classes)
        correct = [[1.0 if j == lab else 0.0 for j in _topk(r, self.maxk)] for r, lab in zip(rows, labels)]
        return paddle.to_tensor(correct, dtype='float32') if correct else paddle.zeros([0, self.maxk])

    def update(self, correct, *args):
        if isinstance(correct, Tensor) and correct.ndim == 1:
            rows = [[x] for x in correct.tolist()]
        else:
            rows = _rows(correct)
        n = len(rows)
        accs = []
        for i, k in enumerate(self.topk):
            hit = sum(sum(r[:k]) for r in rows)
            self.total[i] += hit
            self.count[i] += n
            accs.append(float(hit) / n if n else 0.0)
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """Top-k accuracy of a batch as a float32 tensor of shape [1]."""
    import paddle
    rows = _rows(input)
    labels = _labels(label, len(rows), len(rows[0]) if rows else 0)
    hit = sum(1 for r, lab in zip(rows, labels) if lab in _topk(r, k))
    return paddle.to_tensor([hit / len(rows) if rows else 0.0], dtype='float32')
