"""Opcode snippets in Python 3.11+ syntax (`except*`), used by test_sot_opcodes.py on 3.11 and
later only: 3.10 cannot parse this file."""
from sot_check import t

X = t([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
SNIPPETS = []   # (fn, argsets, mode, reason code or None, driver), as in test_sot_opcodes.py


def snippet(*argsets, mode='sot', code=None, driver=None):
    def deco(fn):
        SNIPPETS.append((fn, argsets, mode, code, driver))
        return fn
    return deco


@snippet((X,), mode='eager', code='SOT101')
def exc_group(x):
    try:
        raise ExceptionGroup('g', [ValueError(1), TypeError(2)])
    except* ValueError:
        x = x + 1
    except* TypeError:
        x = x * 2
    return x
