"""paddle.nn losses from Python: the functional ops and the loss layers give the numbers of
Paddle 2.6's formulas written out here in plain Python (the TypeScript op table checks the same
ops against its own reference), reductions are validated, and gradients flow."""
import math
import unittest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

X = [0.3, -1.2, 2.0, 0.7]
Y = [0.1, 0.4, -0.5, 0.7]
P = [0.2, 0.9, 0.5, 0.35]
Q = [0.0, 1.0, 0.3, 0.8]


def t(v, dtype='float64'):
    return paddle.to_tensor(v, dtype=dtype)


def mean(v):
    return sum(v) / len(v)


class TestPointwise(unittest.TestCase):
    def close(self, got, want, tol=1e-9):
        got = got.tolist() if hasattr(got, 'tolist') else got
        if isinstance(want, list):
            self.assertEqual(len(got), len(want))
            for a, b in zip(got, want):
                self.assertAlmostEqual(a, b, delta=tol * max(1.0, abs(b)))
        else:
            self.assertAlmostEqual(float(got), want, delta=tol * max(1.0, abs(want)))

    def test_mse_l1(self):
        self.close(F.mse_loss(t(X), t(Y)), mean([(a - b) ** 2 for a, b in zip(X, Y)]))
        self.close(F.l1_loss(t(X), t(Y), reduction='sum'), sum(abs(a - b) for a, b in zip(X, Y)))
        self.close(nn.MSELoss(reduction='none')(t(X), t(Y)), [(a - b) ** 2 for a, b in zip(X, Y)])
        self.close(nn.L1Loss()(t(X), t(Y)), mean([abs(a - b) for a, b in zip(X, Y)]))

    def test_smooth_l1_is_huber_with_delta(self):
        def h(r, d):
            return 0.5 * r * r if abs(r) < d else d * (abs(r) - 0.5 * d)
        self.close(F.smooth_l1_loss(t(X), t(Y), delta=0.5), mean([h(a - b, 0.5) for a, b in zip(X, Y)]))
        self.close(nn.SmoothL1Loss('sum', 2.0)(t(X), t(Y)), sum(h(a - b, 2.0) for a, b in zip(X, Y)))

    def test_kl_div(self):
        want = [q * (math.log(q) - x) if q > 0 else 0.0 for x, q in zip(X, Q)]
        self.close(F.kl_div(t(X), t(Q), reduction='none'), want)
        self.close(nn.KLDivLoss('batchmean')(t([X, X]), t([Q, Q])), 2 * sum(want) / 2)
        self.close(F.kl_div(t(X), t(Y), 'sum', True), sum(math.exp(y) * (y - x) for x, y in zip(X, Y)))

    def test_bce(self):
        want = [-(q * math.log(p) + (1 - q) * math.log(1 - p)) for p, q in zip(P, Q)]
        self.close(F.binary_cross_entropy(t(P), t(Q)), mean(want))
        w = [0.5, 1.0, 2.0, 1.5]
        self.close(nn.BCELoss(weight=t(w), reduction='sum')(t(P), t(Q)), sum(a * b for a, b in zip(w, want)))
        with self.assertRaisesRegex(Exception, r'binary_cross_entropy: input is expected to be within the interval \[0, 1\]'):
            F.binary_cross_entropy(t([1.5]), t([1.0]))

    def test_bce_with_logits(self):
        def f(x, y, pw=1.0):
            sp = math.log1p(math.exp(-abs(x))) + max(-x, 0.0)
            return (1 - y) * x + (1 + (pw - 1) * y) * sp
        self.close(F.binary_cross_entropy_with_logits(t(X), t(Q)), mean([f(x, q) for x, q in zip(X, Q)]))
        pw = [2.0, 0.5, 1.0, 3.0]
        got = F.binary_cross_entropy_with_logits(t(X), t(Q), None, 'none', t(pw))
        self.close(got, [f(x, q, p) for x, q, p in zip(X, Q, pw)])
        layer = nn.BCEWithLogitsLoss(reduction='sum', pos_weight=t(pw))
        self.close(layer(t(X), t(Q)), sum(f(x, q, p) for x, q, p in zip(X, Q, pw)))
        self.close(F.binary_cross_entropy_with_logits(t([800.0, -800.0]), t([0.0, 1.0]), reduction='sum'), 1600.0)

    def test_ranking_hinge_cosine(self):
        lab = [1.0, -1.0, -1.0, 1.0]
        self.close(F.margin_ranking_loss(t(X), t(Y), t(lab), 0.1, 'none'), [max(0.0, -l * (a - b) + 0.1) for a, b, l in zip(X, Y, lab)])
        self.close(nn.MarginRankingLoss()(t(X), t(Y), t(lab)), mean([max(0.0, -l * (a - b)) for a, b, l in zip(X, Y, lab)]))
        self.close(F.hinge_embedding_loss(t(X), t(lab), margin=1.0, reduction='none'),
                   [x if l == 1 else max(0.0, 1.0 - x) for x, l in zip(X, lab)])
        self.close(nn.HingeEmbeddingLoss(0.5, 'sum')(t(X), t(lab)), sum(x if l == 1 else max(0.0, 0.5 - x) for x, l in zip(X, lab)))
        a, b = [X, Y], [Y, P]

        def cos(u, v):
            return sum(p * q for p, q in zip(u, v)) / math.sqrt((sum(p * p for p in u) + 1e-11) * (sum(q * q for q in v) + 1e-11))
        want = [1 - cos(a[0], b[0]), max(0.0, cos(a[1], b[1]) - 0.2)]
        self.close(F.cosine_embedding_loss(t(a), t(b), paddle.to_tensor([1, -1]), margin=0.2, reduction='none'), want)
        self.close(nn.CosineEmbeddingLoss(0.2)(t(a), t(b), paddle.to_tensor([1, -1])), mean(want))

    def test_reduction_is_validated(self):
        with self.assertRaisesRegex(Exception, "mse_loss: The value of 'reduction'"):
            F.mse_loss(t(X), t(Y), reduction='avg')
        with self.assertRaisesRegex(ValueError, "The value of 'reduction' in NLLLoss"):
            nn.NLLLoss(reduction='avg')
        nn.KLDivLoss('batchmean')


class TestClassification(unittest.TestCase):
    def test_nll_loss(self):
        x = [[-1.0, -2.0, -0.5], [-0.3, -1.5, -2.5], [-0.7, -0.9, -1.1]]
        lab = [2, 0, 1]
        w = [0.5, 2.0, 1.0]
        self.assertAlmostEqual(F.nll_loss(t(x), paddle.to_tensor(lab)).item(), mean([-x[i][lab[i]] for i in range(3)]), places=12)
        want = sum(-w[lab[i]] * x[i][lab[i]] for i in range(3) if lab[i] != 0) / sum(w[lab[i]] for i in range(3) if lab[i] != 0)
        self.assertAlmostEqual(nn.NLLLoss(weight=t(w), ignore_index=0)(t(x), paddle.to_tensor(lab)).item(), want, places=12)
        with self.assertRaisesRegex(Exception, r'nll_loss: label 3 \(at flat index 1\) is out of range \[0, 3\)'):
            F.nll_loss(t(x), paddle.to_tensor([0, 3, 1]))

    def test_cross_entropy_label_smoothing(self):
        x = [[1.0, 2.0, 0.5], [0.1, -0.4, 0.3]]
        lab = [1, 2]
        total = 0.0
        for row, y in zip(x, lab):
            lse = math.log(sum(math.exp(v) for v in row))
            logp = [v - lse for v in row]
            total += -(0.9 * logp[y] + 0.1 / 3 * sum(logp))
        got = F.cross_entropy(t(x), paddle.to_tensor(lab), label_smoothing=0.1)
        self.assertAlmostEqual(got.item(), total / 2, places=12)
        self.assertEqual(nn.CrossEntropyLoss(reduction='none', label_smoothing=0.1)(t(x), paddle.to_tensor(lab)).shape, [2, 1])

    def test_ctc_loss(self):
        # Paddle 2.6's documented example: none [3.9179852, 2.9076521], mean 1.1376063
        lp = [[[4.17021990e-01, 7.20324516e-01, 1.14374816e-04], [3.02332580e-01, 1.46755889e-01, 9.23385918e-02]],
              [[1.86260208e-01, 3.45560730e-01, 3.96767467e-01], [5.38816750e-01, 4.19194520e-01, 6.85219526e-01]],
              [[2.04452246e-01, 8.78117442e-01, 2.73875929e-02], [6.70467496e-01, 4.17304814e-01, 5.58689833e-01]],
              [[1.40386939e-01, 1.98101491e-01, 8.00744593e-01], [9.68261600e-01, 3.13424170e-01, 6.92322612e-01]],
              [[8.76389146e-01, 8.94606650e-01, 8.50442126e-02], [3.90547849e-02, 1.69830427e-01, 8.78142476e-01]]]
        x = paddle.to_tensor(lp, dtype='float32', stop_gradient=False)
        labels = paddle.to_tensor([[1, 2, 2], [1, 2, 2]], dtype='int32')
        il = paddle.to_tensor([5, 5], dtype='int64')
        ll = paddle.to_tensor([3, 3], dtype='int64')
        none = F.ctc_loss(x, labels, il, ll, blank=0, reduction='none').tolist()
        self.assertAlmostEqual(none[0], 3.9179852, places=5)
        self.assertAlmostEqual(none[1], 2.9076521, places=5)
        loss = nn.CTCLoss()(x, labels, il, ll)
        self.assertAlmostEqual(loss.item(), 1.1376063, places=5)
        loss.backward()
        self.assertEqual(x.grad.shape, [5, 2, 3])
        # the scores pass through a softmax: each frame's gradient sums to 0
        for frame in x.grad.tolist():
            for row in frame:
                self.assertAlmostEqual(sum(row), 0.0, places=5)
        with self.assertRaisesRegex(Exception, r'ctc_loss: labels\[0, 1\] = 0 must be a class'):
            F.ctc_loss(x, paddle.to_tensor([[1, 0, 2], [1, 2, 2]], dtype='int32'), il, ll)


class TestGradients(unittest.TestCase):
    def test_mse_grad(self):
        x = paddle.to_tensor(X, dtype='float64', stop_gradient=False)
        F.mse_loss(x, t(Y)).backward()
        for g, a, b in zip(x.grad.tolist(), X, Y):
            self.assertAlmostEqual(g, 2 * (a - b) / len(X), places=12)

    def test_bce_with_logits_grad(self):
        x = paddle.to_tensor(X, dtype='float64', stop_gradient=False)
        F.binary_cross_entropy_with_logits(x, t(Q), reduction='sum').backward()
        for g, a, q in zip(x.grad.tolist(), X, Q):
            self.assertAlmostEqual(g, 1 / (1 + math.exp(-a)) - q, places=12)


if __name__ == '__main__':
    unittest.main()
