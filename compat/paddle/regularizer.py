"""paddle.regularizer: weight decay applied through the gradient (the optimizer reads the coefficient)."""


class L2Decay:
    def __init__(self, coeff=0.0):
        self._coeff = float(coeff)

    def __repr__(self):
        return 'L2Decay, coeff=%f' % self._coeff


class L1Decay:
    def __init__(self, coeff=0.0):
        self._coeff = float(coeff)

    def __repr__(self):
        return 'L1Decay, coeff=%f' % self._coeff
