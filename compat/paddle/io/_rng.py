"""A Python random.Random seeded from the runtime's generator.

Samplers shuffle index lists in Python (cheap for lists of indices), but their randomness must
follow `paddle.seed`: each new permutation draws one 31-bit seed from the runtime (one call),
so after paddle.seed(n) the same sequence of shuffles repeats, and without it runs differ as
the runtime's generator does.
"""
import random


def draw_seed():
    import paddle
    return int(paddle.randint(0, 2 ** 31 - 1, [1]).item())


def python_rng():
    return random.Random(draw_seed())
