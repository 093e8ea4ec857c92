"""numpy.random for Skiff's numpy: the legacy functions (seed, rand, randn, randint, random,
uniform, normal, choice, permutation, shuffle), RandomState and default_rng().

The stream comes from Python's Mersenne Twister (`random.Random`), not numpy's bit generators:
the same seed gives the same numbers in Skiff every run, but not the numbers real numpy gives.
"""
import random as _pyrandom

from . import _dtypes as D
from ._array import asarray, from_python, ndarray


def _size(size):
    if size is None:
        return None
    if isinstance(size, int):
        return (size,)
    return tuple(int(s) for s in size)


def _count(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _build(shape, draw, d):
    if shape is None:
        return draw()
    return from_python([draw() for _ in range(_count(shape))], d).reshape(shape)


class RandomState:
    """numpy.random.RandomState(seed): an independent legacy generator."""

    def __init__(self, seed=None):
        self._r = _pyrandom.Random(seed)

    def seed(self, seed=None):
        self._r.seed(seed)

    def random_sample(self, size=None):
        return _build(_size(size), self._r.random, D.float64)

    random = sample = ranf = random_sample

    def rand(self, *shape):
        return self.random_sample(shape if shape else None)

    def randn(self, *shape):
        return self.standard_normal(shape if shape else None)

    def standard_normal(self, size=None):
        g = self._r.gauss
        return _build(_size(size), lambda: g(0.0, 1.0), D.float64)

    def normal(self, loc=0.0, scale=1.0, size=None):
        if scale < 0:
            raise ValueError('scale < 0')
        g = self._r.gauss
        loc, scale = float(loc), float(scale)
        return _build(_size(size), lambda: loc + scale * g(0.0, 1.0), D.float64)

    def uniform(self, low=0.0, high=1.0, size=None):
        r = self._r.random
        low, high = float(low), float(high)
        return _build(_size(size), lambda: low + (high - low) * r(), D.float64)

    def randint(self, low, high=None, size=None, dtype=int):
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high)
        if low >= high:
            raise ValueError('low >= high')
        d = D._lookup(dtype)
        ri = self._r.randrange
        shape = _size(size)
        if shape is None:
            return d.type(ri(low, high))
        return _build(shape, lambda: ri(low, high), d)

    def choice(self, a, size=None, replace=True, p=None):
        pool = list(range(a)) if isinstance(a, int) else asarray(a).tolist()
        d = D.int64 if isinstance(a, int) else asarray(a).dtype
        if not pool:
            raise ValueError("'a' cannot be empty unless no samples are taken")
        shape = _size(size)
        n = 1 if shape is None else _count(shape)
        weights = None if p is None else [float(x) for x in (p.tolist() if hasattr(p, 'tolist') else p)]
        if weights is not None and (len(weights) != len(pool) or abs(sum(weights) - 1.0) > 1e-8):
            raise ValueError('probabilities do not sum to 1' if len(weights) == len(pool) else "'a' and 'p' must have same size")
        if replace:
            picks = self._r.choices(pool, weights=weights, k=n)
        else:
            if n > len(pool):
                raise ValueError('Cannot take a larger sample than population when replace is False')
            if weights is None:
                picks = self._r.sample(pool, n)
            else:
                picks, w, idx = [], list(weights), list(range(len(pool)))
                for _ in range(n):
                    k = self._r.choices(range(len(idx)), weights=w, k=1)[0]
                    picks.append(pool[idx.pop(k)])
                    w.pop(k)
        if shape is None:
            return d.type(picks[0])
        return from_python(picks, d).reshape(shape)

    def permutation(self, x):
        if isinstance(x, int):
            vals = list(range(x))
            self._r.shuffle(vals)
            return from_python(vals, D.int64) if vals else asarray([], D.int64)
        a = asarray(x).copy()
        self.shuffle(a)
        return a

    def shuffle(self, x):
        """Shuffles along the first axis, in place."""
        if isinstance(x, list):
            self._r.shuffle(x)
            return
        if not isinstance(x, ndarray):
            raise TypeError('shuffle: expected an ndarray or a list')
        order = list(range(len(x)))
        self._r.shuffle(order)
        x[...] = x[from_python(order, D.int64)] if order else x

    def get_state(self):
        return self._r.getstate()

    def set_state(self, state):
        self._r.setstate(state)


class Generator:
    """numpy.random.default_rng(seed): the new-style API over the same Python stream."""

    def __init__(self, seed=None):
        self._s = RandomState(seed)

    def random(self, size=None, dtype=float):
        r = self._s.random_sample(size)
        return r if dtype in (float, 'float64') or not hasattr(r, 'astype') else r.astype(dtype)

    def integers(self, low, high=None, size=None, dtype='int64', endpoint=False):
        if high is None:
            low, high = 0, low
        return self._s.randint(low, high + 1 if endpoint else high, size, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._s.normal(loc, scale, size)

    def standard_normal(self, size=None, dtype=float):
        return self._s.standard_normal(size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._s.uniform(low, high, size)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return self._s.choice(a, size, replace, p)

    def permutation(self, x, axis=0):
        return self._s.permutation(x)

    def shuffle(self, x, axis=0):
        self._s.shuffle(x)


def default_rng(seed=None):
    return seed if isinstance(seed, Generator) else Generator(seed)


_global = RandomState()
seed = _global.seed
rand = _global.rand
randn = _global.randn
randint = _global.randint
random = random_sample = ranf = sample = _global.random_sample
standard_normal = _global.standard_normal
uniform = _global.uniform
normal = _global.normal
choice = _global.choice
permutation = _global.permutation
shuffle = _global.shuffle
get_state = _global.get_state
set_state = _global.set_state


def __getattr__(name):
    raise AttributeError("module 'numpy.random' has no attribute '%s' (Skiff's numpy subset does not implement it)" % name)
