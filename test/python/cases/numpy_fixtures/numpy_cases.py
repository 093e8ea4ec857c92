"""The differential table for Skiff's numpy: each case is a function of a numpy module.

gen_expected.py runs every case under REAL numpy (host python3) and writes expected.json;
test_numpy_diff.py runs the same cases under Skiff's numpy and compares dtype, shape, values,
scalar types, repr strings and error types. Cases are grouped by the numpy function they test.
"""


def f32(np, *shape):
    n = 1
    for s in shape:
        n *= s
    return (np.arange(n, dtype=np.float32) - n // 3).reshape(shape) * 0.5


def f64(np, *shape):
    n = 1
    for s in shape:
        n *= s
    return (np.arange(n, dtype=np.float64) - n // 2).reshape(shape) / 4


def i64(np, *shape):
    n = 1
    for s in shape:
        n *= s
    return (np.arange(n) - n // 2).reshape(shape)


def i32(np, *shape):
    return i64(np, *shape).astype(np.int32)


def pos(np, *shape):
    return f64(np, *shape) * f64(np, *shape) + 0.5


CASES = {
    # --- creation ---
    'array': [
        lambda np: np.array([1, 2, 3]),
        lambda np: np.array([1.0, 2, 3]),
        lambda np: np.array([[True, False]]),
        lambda np: np.array(3.5),
        lambda np: np.array(7),
        lambda np: np.array([]),
        lambda np: np.array([[1, 2], [3, 4]], dtype=np.float32),
        lambda np: np.array([1.7, -1.7], dtype=np.int32),
        lambda np: np.array([np.float32(1), np.float32(2)]),
        lambda np: np.array([np.array([1, 2]), np.array([3, 4])]),
        lambda np: np.array([1, 2], dtype='u1'),
        lambda np: np.array([1, 2], dtype=np.int8),
        lambda np: np.array([0.5, 1.5], dtype=np.float16),
        lambda np: np.array([[1, 2], [3]]),
        lambda np: np.array([1, 2], ndmin=3),
    ],
    'asarray': [lambda np: np.asarray([1, 2], dtype=np.float64), lambda np: np.asarray((1.5, 2.5)), lambda np: np.array(range(4)),
                lambda np: np.array([range(2), range(2)]), lambda np: np.asarray(range(3), dtype=np.float32), lambda np: np.array([[1, 2], (3, 4)])],
    'zeros': [lambda np: np.zeros((2, 3)), lambda np: np.zeros(3, dtype=np.int32), lambda np: np.zeros((0, 2)), lambda np: np.zeros(())],
    'ones': [lambda np: np.ones((2, 2), dtype=bool), lambda np: np.ones(4, np.uint8)],
    'full': [lambda np: np.full((2, 2), 7), lambda np: np.full(3, 1.5), lambda np: np.full((2,), True),
             lambda np: np.full(2, np.float32(3)), lambda np: np.full((2, 2), 2.9, dtype=np.int64)],
    'empty': [lambda np: np.empty((2, 3)).shape, lambda np: np.empty(3, dtype=np.int32).dtype.name],
    'like': [lambda np: np.zeros_like(i32(np, 2, 2)), lambda np: np.ones_like(f32(np, 3)), lambda np: np.full_like(i64(np, 3), 2.7),
             lambda np: np.empty_like(f64(np, 2)).shape, lambda np: np.zeros_like(f32(np, 2), dtype=np.int64)],
    'arange': [lambda np: np.arange(5), lambda np: np.arange(1, 10, 3), lambda np: np.arange(0.0, 1.0, 0.25),
               lambda np: np.arange(5, dtype=np.float32), lambda np: np.arange(10, 0, -3), lambda np: np.arange(0),
               lambda np: np.arange(2, 1), lambda np: np.arange(0, 1, 0.1)],
    'linspace': [lambda np: np.linspace(0, 1, 5), lambda np: np.linspace(0, 1, 4, endpoint=False),
                 lambda np: np.linspace(-1, 1, 1), lambda np: np.linspace(0, 10, 0), lambda np: np.linspace(0, 1, 3, dtype=np.float32),
                 lambda np: np.linspace(2, 3, 3, retstep=True)],
    'eye': [lambda np: np.eye(3), lambda np: np.eye(2, 3, dtype=np.int32), lambda np: np.eye(3, k=1), lambda np: np.eye(3, k=-1),
            lambda np: np.identity(2, dtype=np.float32)],
    'meshgrid': [lambda np: np.meshgrid(np.arange(3), np.arange(2)), lambda np: np.meshgrid(np.arange(3), np.arange(2), indexing='ij')],
    'concatenate': [lambda np: np.concatenate([i64(np, 2, 2), i64(np, 1, 2)]), lambda np: np.concatenate([f32(np, 2, 1), f64(np, 2, 2)], axis=1),
                    lambda np: np.concatenate([i64(np, 2), f32(np, 3)]), lambda np: np.concatenate([i64(np, 2, 2), i64(np, 2)], axis=None),
                    lambda np: np.concatenate([i64(np, 2, 2), i64(np, 2, 3)]), lambda np: np.concatenate([np.zeros((0, 2)), f64(np, 1, 2)])],
    'stack': [lambda np: np.stack([i64(np, 3), i64(np, 3)]), lambda np: np.stack([f32(np, 2, 2), f32(np, 2, 2)], axis=-1),
              lambda np: np.vstack([i64(np, 3), i64(np, 3)]), lambda np: np.hstack([i64(np, 3), i64(np, 2)]),
              lambda np: np.hstack([i64(np, 2, 1), i64(np, 2, 2)]), lambda np: np.stack([i64(np, 2), i64(np, 3)])],
    'split': [lambda np: np.split(np.arange(6), 3), lambda np: np.split(np.arange(6), [1, 4]), lambda np: np.split(i64(np, 4, 2), 2, axis=0),
              lambda np: np.split(np.arange(5), 2), lambda np: np.array_split(np.arange(5), 2)],
    'where': [lambda np: np.where(i64(np, 4) > 0, i64(np, 4), -1), lambda np: np.where([True, False], f32(np, 2), 1.5),
              lambda np: np.where(i64(np, 2, 2) > 0, 1, 0.5), lambda np: np.where(i64(np, 5) > 0),
              lambda np: np.where(np.array([[True], [False]]), i64(np, 3), f64(np, 2, 3))],
    'tile': [lambda np: np.tile(np.arange(3), 2), lambda np: np.tile(i64(np, 2, 2), (2, 1)), lambda np: np.tile(np.arange(2), (2, 2))],
    'repeat': [lambda np: np.repeat(np.arange(3), 2), lambda np: np.repeat(i64(np, 2, 2), 2, axis=1),
               lambda np: np.repeat(np.arange(3), [1, 0, 2]), lambda np: np.repeat(i64(np, 2, 2), 3)],
    'pad': [lambda np: np.pad(np.arange(3), 2), lambda np: np.pad(i64(np, 2, 2), ((1, 0), (0, 2)), constant_values=9),
            lambda np: np.pad(f32(np, 2, 2), 1, mode='edge'), lambda np: np.pad(np.arange(3.0), (1, 2))],
    # --- arithmetic and promotion ---
    'add': [lambda np: i64(np, 2, 3) + i64(np, 3), lambda np: f32(np, 2, 3) + 1.0, lambda np: f32(np, 3) + 1,
            lambda np: i64(np, 3) + 1.5, lambda np: i32(np, 3) + i64(np, 3), lambda np: i32(np, 3) + f32(np, 3),
            lambda np: np.array([1, 2], np.int8) + np.array([1, 2], np.float16), lambda np: np.array([True, False]) + np.array([True, True]),
            lambda np: np.array([True, False]) + 1, lambda np: np.array(2.0) + 1, lambda np: np.float32(2) + f32(np, 2),
            lambda np: f32(np, 2) + np.float64(1), lambda np: np.zeros((0, 3)) + np.ones(3), lambda np: f32(np, 2, 1) + f32(np, 1, 3),
            lambda np: i64(np, 2) + i64(np, 3), lambda np: np.add(f64(np, 3), 2), lambda np: np.array([250], np.uint8) + np.array([10], np.uint8),
            lambda np: np.array([1], np.uint8) + np.array([1], np.int32), lambda np: 1 + f32(np, 2)],
    'subtract': [lambda np: i64(np, 3) - 1, lambda np: 1 - f32(np, 3), lambda np: np.subtract(f64(np, 2, 2), f64(np, 2)),
                 lambda np: np.array([True]) - np.array([False])],
    'multiply': [lambda np: i64(np, 3) * 2, lambda np: f32(np, 2, 2) * f32(np, 2), lambda np: np.multiply(i32(np, 3), 2.5),
                 lambda np: np.array([True, False]) * np.array([True, True])],
    'divide': [lambda np: i64(np, 4) / 2, lambda np: f32(np, 3) / 2, lambda np: np.divide(i32(np, 3), i32(np, 3) + 10),
               lambda np: np.array([1.0, -1.0, 0.0]) / 0.0, lambda np: np.array([1, 2], np.int8) / np.array([2, 2], np.int8),
               lambda np: np.float32(1) / f32(np, 2)],
    'floor_divide': [lambda np: np.array([-7, 7, -3, 3]) // np.array([2, -2, 2, 2]), lambda np: np.array([-7.5, 7.5]) // 2,
                     lambda np: f32(np, 4) // 0.75],
    'mod': [lambda np: np.array([-7, 7, -3, 3]) % np.array([2, -2, 2, 2]), lambda np: np.mod(np.array([-7.5, 7.5]), 2),
            lambda np: np.remainder(f32(np, 4), -0.75)],
    'power': [lambda np: i64(np, 4) ** 2, lambda np: np.power(f64(np, 3), 3), lambda np: pos(np, 3) ** 0.5, lambda np: 2 ** np.arange(4),
              lambda np: np.power(f32(np, 3), 2)],
    'maximum': [lambda np: np.maximum(i64(np, 4), 0), lambda np: np.maximum(f32(np, 2, 2), f32(np, 2)), lambda np: np.minimum(i64(np, 3), i32(np, 3) * 2),
                lambda np: np.minimum(f64(np, 3), 0.1)],
    'clip': [lambda np: np.clip(i64(np, 6), -1, 1), lambda np: np.clip(f32(np, 5), -0.5, 0.5), lambda np: f64(np, 4).clip(0, None),
             lambda np: np.clip(i64(np, 4), 0.5, 1)],
    'unary_float': [lambda np: np.exp(f64(np, 5)), lambda np: np.exp(f32(np, 2, 2)), lambda np: np.log(pos(np, 4)), lambda np: np.sqrt(pos(np, 4)),
                    lambda np: np.sqrt(np.arange(4)), lambda np: np.sin(f64(np, 4)), lambda np: np.cos(f32(np, 4)), lambda np: np.tanh(f64(np, 5)),
                    lambda np: np.exp(np.array([1, 2], np.int8)), lambda np: np.sqrt(np.array([True, False])), lambda np: np.log(np.float32(2)),
                    lambda np: np.exp(np.array(1.0)), lambda np: np.sqrt(np.zeros((0,)))],
    'abs_sign': [lambda np: np.abs(i64(np, 4)), lambda np: np.abs(f32(np, 4)), lambda np: np.sign(f64(np, 5)), lambda np: np.sign(i32(np, 5)),
                 lambda np: abs(np.array([-1, 1], np.int8)), lambda np: -f32(np, 3), lambda np: -i64(np, 3), lambda np: np.negative(np.array([1, 2], np.uint8)),
                 lambda np: np.square(i32(np, 3)), lambda np: np.abs(np.array([True]))],
    'rounding': [lambda np: np.floor(f64(np, 5)), lambda np: np.ceil(f32(np, 5)), lambda np: np.floor(i64(np, 3)),
                 lambda np: np.round(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 1.35])), lambda np: np.round(np.array([1.25, 1.35, -2.55]), 1),
                 lambda np: np.round(i64(np, 3)), lambda np: np.around(f32(np, 5)), lambda np: np.trunc(np.array([-1.7, 1.7]))],
    'arctan2': [lambda np: np.arctan2(f64(np, 4), np.array([1.0, -1.0, 0.5, 2.0])), lambda np: np.arctan2(i64(np, 3), 2)],
    'compare': [lambda np: i64(np, 4) > 0, lambda np: f32(np, 3) == f32(np, 3), lambda np: i64(np, 3) <= 0.5, lambda np: i32(np, 3) != i64(np, 3),
                lambda np: f64(np, 2, 2) < f64(np, 2), lambda np: np.greater_equal(i64(np, 3), 0), lambda np: np.array(1) == 1],
    'logical': [lambda np: np.logical_and(i64(np, 4) > 0, i64(np, 4) < 2), lambda np: np.logical_not(i64(np, 3)),
                lambda np: (i64(np, 3) > 0) | (i64(np, 3) < 0), lambda np: ~np.array([True, False]), lambda np: np.logical_or(1, np.array([0, 0]))],
    'inplace': [lambda np: _iadd(np), lambda np: _imul_f32(np), lambda np: _iadd_int_float(np), lambda np: _isub_view(np), lambda np: _idiv(np)],
    # --- reductions ---
    'sum': [lambda np: f64(np, 2, 3).sum(), lambda np: np.sum(i64(np, 2, 3), axis=0), lambda np: np.sum(f32(np, 2, 3), axis=1, keepdims=True),
            lambda np: np.sum(i32(np, 4)), lambda np: np.sum(np.array([True, True, False])), lambda np: np.sum(np.zeros((0, 3))),
            lambda np: np.sum(np.zeros((0, 3)), axis=0), lambda np: np.sum(f64(np, 2, 3, 4), axis=(0, 2)), lambda np: np.sum(np.array(3.0)),
            lambda np: np.sum(i64(np, 2, 2), axis=-1), lambda np: np.sum(i64(np, 2), axis=1), lambda np: np.sum(f32(np, 3), dtype=np.float64),
            lambda np: np.sum(np.array([1, 2], np.int8))],
    'mean': [lambda np: f64(np, 2, 3).mean(), lambda np: np.mean(i64(np, 2, 3), axis=0), lambda np: np.mean(f32(np, 4, 2), axis=0, keepdims=True),
             lambda np: np.mean(np.array([True, False, True])), lambda np: np.mean(np.array([1, 2], np.int32))],
    'std_var': [lambda np: np.std(f64(np, 6)), lambda np: np.var(f64(np, 2, 3), axis=1), lambda np: np.std(i64(np, 5)),
                lambda np: np.var(f32(np, 3, 2), axis=0, ddof=1), lambda np: np.std(f64(np, 5), ddof=2), lambda np: np.var(f32(np, 4))],
    'max_min': [lambda np: np.max(i64(np, 2, 3)), lambda np: f32(np, 2, 3).min(axis=0), lambda np: np.max(f64(np, 2, 3), axis=1, keepdims=True),
                lambda np: np.min(np.array([True, False])), lambda np: np.max(np.zeros((0,))), lambda np: np.amax(i32(np, 4)),
                lambda np: np.max(np.array([1.0, np.nan, 3.0])), lambda np: np.min(np.zeros((2, 0)), axis=0)],
    'argmax': [lambda np: np.argmax(np.array([[1, 5], [7, 2]])), lambda np: np.argmax(f32(np, 2, 3), axis=1), lambda np: np.argmin(np.array([3, 1, 1, 2])),
               lambda np: np.argmin(f64(np, 3, 2), axis=0), lambda np: np.argmax(np.array([])), lambda np: np.argmax(np.array([True, False, True]))],
    'prod': [lambda np: np.prod(i64(np, 4) + 3), lambda np: np.prod(f32(np, 2, 2) + 2, axis=0), lambda np: np.prod(np.zeros((0,))),
             lambda np: np.prod(i32(np, 3) + 2)],
    'cumsum': [lambda np: np.cumsum(i64(np, 2, 3)), lambda np: np.cumsum(f32(np, 2, 3), axis=1), lambda np: np.cumsum(np.array([True, True])),
               lambda np: np.cumsum(i32(np, 3), axis=0)],
    'all_any': [lambda np: np.all(i64(np, 3)), lambda np: np.any(i64(np, 2, 2), axis=0), lambda np: np.all(np.zeros((0,))),
                lambda np: np.any(np.zeros((0,))), lambda np: (f64(np, 2, 3) > -0.5).all(axis=1, keepdims=True), lambda np: np.any(np.array([0.0, np.nan]))],
    # --- linear algebra ---
    'matmul': [lambda np: f64(np, 2, 3) @ f64(np, 3, 2), lambda np: np.matmul(f32(np, 3), f32(np, 3)), lambda np: f32(np, 2, 3) @ f32(np, 3),
               lambda np: f32(np, 3) @ f32(np, 3, 2), lambda np: np.matmul(f64(np, 2, 2, 3), f64(np, 3, 2)), lambda np: i64(np, 2, 2) @ i64(np, 2, 2),
               lambda np: f32(np, 2, 3) @ f64(np, 3, 1), lambda np: f64(np, 2, 3) @ f64(np, 2, 3), lambda np: np.matmul(f64(np, 2, 0), f64(np, 0, 3))],
    'dot': [lambda np: np.dot(f64(np, 3), f64(np, 3)), lambda np: np.dot(f64(np, 2, 3), f64(np, 3)), lambda np: np.dot(3, f32(np, 2)),
            lambda np: np.dot(f64(np, 2, 3), f64(np, 3, 2)), lambda np: np.dot(f64(np, 2, 3), f64(np, 2, 3, 4)), lambda np: f64(np, 2, 2).dot(f64(np, 2))],
    'outer': [lambda np: np.outer(np.arange(3), np.arange(2)), lambda np: np.outer(f32(np, 2, 2), f32(np, 2))],
    'transpose': [lambda np: f64(np, 2, 3).T, lambda np: np.transpose(i64(np, 2, 3, 4), (1, 0, 2)), lambda np: np.swapaxes(i64(np, 2, 3, 4), 0, 2),
                  lambda np: np.transpose(i64(np, 3)), lambda np: np.moveaxis(i64(np, 2, 3, 4), 0, -1)],
    'expand_squeeze': [lambda np: np.expand_dims(i64(np, 3), 0), lambda np: np.expand_dims(i64(np, 2, 3), -1), lambda np: np.squeeze(i64(np, 1, 3, 1)),
                       lambda np: np.squeeze(i64(np, 1, 3, 1), axis=0), lambda np: np.squeeze(i64(np, 2, 3), axis=0), lambda np: np.expand_dims(i64(np, 2), 3)],
    'reshape': [lambda np: np.arange(6).reshape(2, 3), lambda np: np.arange(6).reshape((3, -1)), lambda np: np.arange(6).reshape(4, 2),
                lambda np: f64(np, 2, 3).ravel(), lambda np: f64(np, 2, 3).T.flatten(), lambda np: np.reshape(np.arange(4), (2, 2)),
                lambda np: np.arange(1).reshape(()), lambda np: np.zeros((0, 4)).reshape(2, 0, -1)],
    'sort': [lambda np: np.sort(np.array([3, 1, 2])), lambda np: np.sort(np.array([[3.0, 1.0], [0.5, 2.0]]), axis=0),
             lambda np: np.sort(np.array([2.0, np.nan, 1.0])), lambda np: np.argsort(np.array([3, 1, 2])), lambda np: np.argsort(np.array([[3, 1], [0, 2]]), axis=1),
             lambda np: np.sort(np.array([[3, 1], [0, 2]]), axis=None), lambda np: _sort_inplace(np)],
    'unique': [lambda np: np.unique(np.array([3, 1, 3, 2, 1])), lambda np: np.unique(np.array([[1.5, 1.5], [0.5, 2.0]])),
               lambda np: np.unique(np.array([2, 1, 2]), return_counts=True), lambda np: np.unique(np.array([2, 1, 2]), return_index=True, return_inverse=True),
               lambda np: np.unique(np.array([]))],
    'isnan': [lambda np: np.isnan(np.array([1.0, np.nan, np.inf])), lambda np: np.isinf(np.array([1.0, -np.inf, np.nan], np.float32)),
              lambda np: np.isfinite(np.array([1.0, np.nan, -np.inf])), lambda np: np.isnan(i64(np, 2)), lambda np: np.isnan(np.float64(1.0))],
    'allclose': [lambda np: np.allclose(f64(np, 3), f64(np, 3) + 1e-9), lambda np: np.allclose(f64(np, 3), f64(np, 3) + 1e-3),
                 lambda np: np.isclose(np.array([1.0, np.nan, np.inf]), np.array([1.0, np.nan, np.inf])),
                 lambda np: np.isclose(np.array([1.0, np.nan]), np.array([1.0, np.nan]), equal_nan=True), lambda np: np.isclose(1.0, np.inf),
                 lambda np: np.array_equal(i64(np, 3), i64(np, 3)), lambda np: np.array_equal(i64(np, 3), i64(np, 2)),
                 lambda np: np.array_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True)],
    'linalg': [lambda np: np.linalg.norm(np.array([3.0, 4.0])), lambda np: np.linalg.norm(f64(np, 2, 3)), lambda np: np.linalg.norm(f64(np, 2, 3), axis=1),
               lambda np: np.linalg.norm(i64(np, 3), ord=1), lambda np: np.linalg.norm(f64(np, 3), ord=np.inf), lambda np: np.linalg.norm(f32(np, 2, 2), 'fro'),
               lambda np: np.linalg.norm(f64(np, 3, 3), ord=1), lambda np: np.linalg.norm(f64(np, 3, 3), ord=np.inf),
               lambda np: np.linalg.inv(np.array([[4.0, 7.0], [2.0, 6.0]])), lambda np: np.linalg.det(np.array([[1.0, 2.0], [3.0, 4.0]])),
               lambda np: np.linalg.solve(np.array([[3.0, 1.0], [1.0, 2.0]]), np.array([9.0, 8.0])),
               lambda np: np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))],
    # --- indexing ---
    'getitem': [lambda np: i64(np, 3, 4)[1], lambda np: i64(np, 3, 4)[1, 2], lambda np: i64(np, 3, 4)[:, 1], lambda np: i64(np, 3, 4)[::2, ::-1],
                lambda np: i64(np, 3, 4)[..., 0], lambda np: i64(np, 3, 4)[None, 0], lambda np: i64(np, 3, 4)[-1, -2:],
                lambda np: i64(np, 3, 4)[5:], lambda np: f64(np, 3)[1], lambda np: i64(np, 3, 4)[1:, None, 2], lambda np: i64(np, 3)[10],
                lambda np: i64(np, 3, 4)[0, 0, 0], lambda np: np.arange(5)[::-2], lambda np: np.array(5.0)[()]],
    'advanced': [lambda np: i64(np, 3, 4)[[2, 0]], lambda np: i64(np, 3, 4)[:, [3, 0, 3]], lambda np: i64(np, 3, 4)[[0, 2], [1, 3]],
                 lambda np: i64(np, 3, 4)[i64(np, 3, 4) > 0], lambda np: i64(np, 3, 4)[np.array([True, False, True])],
                 lambda np: i64(np, 3, 4)[np.array([[0, 1], [2, 0]])], lambda np: i64(np, 3, 4)[[-1]], lambda np: i64(np, 3, 4)[1, [0, 2]],
                 lambda np: i64(np, 2, 3, 4)[0, :, [1, 2]], lambda np: i64(np, 2, 3, 4)[:, [0, 2], [1, 3]], lambda np: i64(np, 3)[[5]],
                 lambda np: i64(np, 3)[np.array([], dtype=np.int64)]],
    'setitem': [lambda np: _set(np, (1,), 9), lambda np: _set(np, (slice(None), 0), np.array([7, 8, 9])), lambda np: _set(np, (Ellipsis,), 0),
                lambda np: _set(np, (slice(0, 2), slice(1, 3)), np.array([[1, 2], [3, 4]])), lambda np: _set_mask(np),
                lambda np: _set(np, ([0, 2], [1, 3]), -5), lambda np: _set(np, (0,), 2.9), lambda np: _view_write(np), lambda np: _fill(np)],
    'methods': [lambda np: f32(np, 2, 3).astype(np.int64), lambda np: f64(np, 3).astype(np.float32), lambda np: i64(np, 3).astype(bool),
                lambda np: np.array([-1.7, 2.7]).astype(np.int32), lambda np: f64(np, 2, 3).copy(), lambda np: i64(np, 2, 2).tolist(),
                lambda np: f32(np, 2).tolist(), lambda np: np.array(2.5).item(), lambda np: i64(np, 2, 3).item(4), lambda np: len(i64(np, 4, 2)),
                lambda np: [x.tolist() for x in i64(np, 2, 2)], lambda np: _attrs(np, f32(np, 2, 3)), lambda np: _attrs(np, f64(np, 2, 3).T),
                lambda np: _attrs(np, i64(np, 4, 3)[::2, 1:]), lambda np: _attrs(np, np.array(1, np.uint8)), lambda np: bool(np.array([1])),
                lambda np: bool(np.array([1, 2])), lambda np: float(np.array([2.5])), lambda np: int(np.int32(7))],
    # --- scalars and dtypes ---
    'scalars': [lambda np: np.float32(1.5) + 1, lambda np: np.float32(1.5) + 1.0, lambda np: np.float32(1.5) * np.float64(2), lambda np: np.int64(3) / 2,
                lambda np: np.int32(3) + np.int64(1), lambda np: np.uint8(250) + np.uint8(10), lambda np: np.float32(0.1), lambda np: np.float64(2) ** 2,
                lambda np: np.int64(7) // 2, lambda np: np.int64(-7) % 3, lambda np: np.float16(1) / 3, lambda np: np.int8(100) + 100,
                lambda np: repr(np.float32(0.1)), lambda np: repr(np.int64(3)), lambda np: repr(np.True_), lambda np: str(np.float64(1.0)),
                lambda np: repr(np.float64(1e20)), lambda np: repr(np.float32(3.0)), lambda np: np.float32(1.5) > 1, lambda np: -np.float32(2)],
    'dtypes': [lambda np: str(np.dtype('float32')), lambda np: repr(np.dtype(np.int64)), lambda np: np.dtype(float) == np.float64,
               lambda np: np.dtype('f4').itemsize, lambda np: np.dtype('<i8').name, lambda np: np.dtype(bool).name, lambda np: np.dtype('u1').str,
               lambda np: np.result_type(np.int8, np.uint8).name, lambda np: np.promote_types('f2', 'i4').name, lambda np: np.dtype('float32') == 'float32',
               lambda np: np.issubdtype(np.float32, np.floating), lambda np: np.issubdtype(np.int32, np.integer), lambda np: f32(np, 2).dtype.kind,
               lambda np: np.finfo(np.float32).eps, lambda np: np.iinfo(np.int8).max],
    # --- printing ---
    'repr': [lambda np: repr(np.array([1.0, 2.0], dtype=np.float32)), lambda np: repr(np.array([1.5, 2.25])), lambda np: repr(np.array([1e9, 1.0])),
             lambda np: repr(np.array([0.0001, 1.0])), lambda np: repr(np.array([-1.5, 2.0, np.nan, np.inf])), lambda np: repr(np.array(3.0)),
             lambda np: repr(np.array([], dtype=np.float32)), lambda np: repr(np.zeros((0, 3))), lambda np: repr(np.arange(30.0)),
             lambda np: repr(np.arange(12).reshape(3, 4) / 7), lambda np: str(np.arange(12).reshape(3, 4) / 7), lambda np: repr(np.array([True, False])),
             lambda np: repr(np.array([-1, 20])), lambda np: repr(np.array([0.1], dtype=np.float32)), lambda np: repr(np.arange(24).reshape(2, 3, 4)),
             lambda np: str(np.arange(6)), lambda np: repr(np.arange(2000)), lambda np: repr(np.array([1.5e10, -2.25e-3])),
             lambda np: repr(np.array([1, 2], np.uint8)), lambda np: repr(np.array([[1.0, -1.0], [0.5, 100.0]], np.float16)), lambda np: str(np.array(2.5)),
             lambda np: repr(np.arange(100).reshape(10, 10) * 1000), lambda np: repr(np.array([-np.inf, 1.0])), lambda np: repr(np.linspace(0, 1, 7)),
             lambda np: repr(np.array([1e-5, 1.0], np.float32)), lambda np: repr(np.array([123456789.0, 1.0])), lambda np: repr(np.array(np.nan))],
    'nan_inf': [lambda np: np.maximum(np.array([np.nan, 1.0]), np.array([0.0, np.nan])), lambda np: np.minimum(np.array([np.nan, 1.0]), 2.0),
                lambda np: np.fmax(np.array([np.nan, 1.0]), np.array([0.0, np.nan])), lambda np: np.array([np.nan]) == np.array([np.nan]),
                lambda np: np.sum(np.array([1.0, np.inf, -np.inf])), lambda np: np.sqrt(np.array([-1.0, 4.0])), lambda np: np.log(np.array([0.0, -1.0])),
                lambda np: np.array([0.0]) / np.array([0.0]), lambda np: np.argmax(np.array([1.0, np.nan, 3.0])), lambda np: np.clip(np.array([np.nan, 2.0]), 0, 1)],
    'small_dtypes': [lambda np: np.array([100, 50], np.int8) + np.array([100, 100], np.int8), lambda np: np.array([1, 2], np.uint8) * 200,
                     lambda np: np.array([1, 2], np.uint8) - np.array([2, 1], np.uint8), lambda np: np.array([0.1, 0.2], np.float16) + np.array([0.3, 0.4], np.float16),
                     lambda np: np.sum(np.array([0.1, 0.2, 0.3], np.float16)), lambda np: np.mean(np.array([1, 2, 4], np.float16)),
                     lambda np: np.array([1, 2], np.uint8) + 1.5, lambda np: np.array([1, 2], np.int8) * np.int32(2),
                     lambda np: np.exp(np.array([0.5, 1.0], np.float16)), lambda np: np.array([3], np.int32) // np.array([2], np.int32),
                     lambda np: np.array([7], np.uint8) % 3, lambda np: np.array([1, 2], np.float16).astype(np.float32), lambda np: np.array([300.7, -1.2]).astype(np.uint8)],
    'zero_d': [lambda np: np.array(2.0) * np.array(3.0), lambda np: np.array(2) - np.arange(3), lambda np: np.exp(np.array(0.0)), lambda np: np.sum(np.array(4)),
               lambda np: np.array(5)[...], lambda np: np.array(3.5).reshape(1, 1), lambda np: np.array(2.0).T, lambda np: np.mean(np.array(2)),
               lambda np: np.expand_dims(np.array(1), 0), lambda np: np.array(1.0).shape, lambda np: np.array(True) & np.array([True, False]),
               lambda np: np.stack([np.array(1), np.array(2)]), lambda np: np.array(7) > np.arange(9).reshape(3, 3), lambda np: np.where(np.array(True), 1, 2)],
    'empty': [lambda np: np.zeros((0,)) * 2, lambda np: np.exp(np.zeros((2, 0))), lambda np: np.zeros((0, 3)).sum(axis=1), lambda np: np.zeros((0, 3)).mean(axis=0),
              lambda np: np.concatenate([np.zeros((0, 2)), np.zeros((0, 2))]), lambda np: np.zeros((0, 2)).T, lambda np: np.zeros((3, 0))[1],
              lambda np: np.arange(5)[3:1], lambda np: np.zeros((0,), np.int64).tolist(), lambda np: np.zeros((0, 2)).reshape(-1, 2),
              lambda np: np.cumsum(np.zeros((0,))), lambda np: np.sort(np.zeros((0,))), lambda np: np.zeros((2, 0)) @ np.zeros((0, 2)).T if False else np.any(np.zeros((2, 0)), axis=1)],
    'broadcast': [lambda np: np.broadcast_to(np.arange(3), (2, 3)), lambda np: np.broadcast_shapes((2, 1), (1, 3)), lambda np: np.arange(3).reshape(3, 1) * np.arange(4),
                  lambda np: np.ones((2, 1, 3)) + np.ones((4, 1)), lambda np: np.broadcast_to(np.arange(3), (3, 2)),
                  lambda np: [x.shape for x in np.broadcast_arrays(np.arange(2).reshape(2, 1), np.arange(3))], lambda np: np.ones((2, 3)) - np.ones((3, 2))],
    'misc': [lambda np: np.flip(np.arange(4)), lambda np: np.flip(i64(np, 2, 3), axis=1), lambda np: np.roll(np.arange(5), 2), lambda np: np.roll(i64(np, 2, 3), -1, axis=1),
             lambda np: np.diff(np.array([1, 4, 9, 16])), lambda np: np.diff(f64(np, 2, 3), axis=0), lambda np: np.cumprod(np.array([1, 2, 3, 4])),
             lambda np: np.median(np.array([3.0, 1.0, 2.0, 8.0])), lambda np: np.percentile(np.arange(11), 25), lambda np: np.quantile(f64(np, 2, 5), 0.5, axis=1),
             lambda np: np.nonzero(np.array([[0, 1], [2, 0]])), lambda np: np.argwhere(np.array([0, 3, 0, 4])), lambda np: np.count_nonzero(np.array([0, 1, 2])),
             lambda np: np.interp(np.array([0.5, 1.5, 3.0]), np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0, 20.0])), lambda np: np.trace(i64(np, 3, 3)),
             lambda np: np.diag(np.array([1, 2])), lambda np: np.diag(i64(np, 3, 3)), lambda np: np.tril(i64(np, 3, 3)), lambda np: np.triu(f64(np, 2, 3), 1),
             lambda np: np.average(np.array([1.0, 2.0, 4.0]), weights=np.array([1.0, 1.0, 2.0])), lambda np: np.nansum(np.array([1.0, np.nan, 2.0])),
             lambda np: np.nanmax(np.array([1.0, np.nan, 2.0])), lambda np: np.ptp(np.array([4, 9, 2])), lambda np: np.searchsorted(np.array([1, 3, 5]), np.array([0, 3, 6])),
             lambda np: np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0])), lambda np: np.atleast_2d(np.arange(2)), lambda np: np.column_stack([np.arange(2), np.arange(2)]),
             lambda np: np.vdot(f64(np, 3), f64(np, 3)), lambda np: np.inner(f64(np, 2, 3), f64(np, 2, 3)), lambda np: np.logspace(0, 2, 3),
             lambda np: np.isscalar(np.float32(1)), lambda np: np.ndim([[1, 2]]), lambda np: np.shape(np.zeros((2, 3))), lambda np: np.linalg.det(np.eye(3) * 2)],
    'repr2': [lambda np: repr(np.arange(3000.0).reshape(100, 30)), lambda np: str(np.array([[1.5, -2.0], [np.nan, 3.25]])), lambda np: repr(np.array([-0.0, 0.0])),
              lambda np: repr(np.array([1e-10, 1.0])), lambda np: repr(np.array([1.0, 2.0, 3.0]) / 3), lambda np: repr(np.array([100000000.0])),
              lambda np: repr(np.ones((2, 2, 2), np.int8)), lambda np: str(np.array([True, False])), lambda np: repr(np.array([0.5], np.float16)),
              lambda np: repr(np.arange(20.0).reshape(2, 10) * 1.5e5), lambda np: repr(np.array(1.0, np.float32)), lambda np: repr(np.array(2, np.int32)),
              lambda np: repr(np.array([[], []])), lambda np: repr(np.array([1.123456789, 2.0])), lambda np: repr(np.array([10.0, -1e-3]))],
    'views2': [lambda np: _neg_step_set(np), lambda np: _strided_iadd(np), lambda np: _transpose_write(np), lambda np: _adv_iadd(np),
               lambda np: _reshape_view_write(np), lambda np: _swap_rows(np), lambda np: _setitem_broadcast(np), lambda np: _setitem_newaxis(np),
               lambda np: _set_neg_index(np), lambda np: np.arange(10)[-3:], lambda np: np.arange(10)[-1:-4:-1], lambda np: i64(np, 4, 5)[::-2, 1::2],
               lambda np: i64(np, 2, 3, 4)[:, ::-1][1], lambda np: i64(np, 4, 5)[::-1].T[1:3], lambda np: np.arange(6).reshape(2, 3)[:, ::-1].copy().strides],
    'repr3': [lambda np: repr(np.arange(2000).reshape(2, 1000) * 1.5), lambda np: repr(np.ones((3, 400, 2))), lambda np: repr(np.arange(12, dtype=np.float32).reshape(2, 6) / 7),
              lambda np: repr(np.array([1e16, 1.0])), lambda np: repr(np.array([np.nan, np.nan])), lambda np: repr(np.array([-np.inf, np.inf])),
              lambda np: repr(np.array([0.0, 1e-8])), lambda np: repr(np.array([123.456, -0.001])), lambda np: repr(np.arange(-5, 5) * 11111),
              lambda np: repr(np.array([[0.25, 1.0 / 3], [2.0 / 3, 0.75]], np.float32)), lambda np: repr(np.array([1.0 / 3]) * 1e-3),
              lambda np: str(np.arange(40.0) / 3), lambda np: repr(np.array([0.1, 0.2, 0.3]) + 0.1), lambda np: repr(np.array([[1, 2], [3, 4]], np.uint8)),
              lambda np: repr(np.zeros((2, 0, 3))), lambda np: str(np.zeros((2, 0))), lambda np: repr(np.array([[True], [False]]))],
    'extra': [lambda np: np.take(np.arange(10) * 2, [1, 3]), lambda np: np.take(i64(np, 3, 4), [0, 2], axis=1), lambda np: np.take(i64(np, 3, 4), 5),
              lambda np: np.take_along_axis(np.array([[10, 30, 20], [60, 40, 50]]), np.argsort(np.array([[10, 30, 20], [60, 40, 50]]), axis=1), axis=1),
              lambda np: np.take_along_axis(f64(np, 3, 2), np.array([[1], [0], [1]]), axis=1), lambda np: np.bincount(np.array([0, 1, 1, 3])),
              lambda np: np.bincount(np.array([0, 2]), minlength=4), lambda np: np.bincount(np.array([0, 1, 1]), weights=np.array([0.5, 1.0, 2.0])),
              lambda np: np.digitize(np.array([0.2, 6.4, 3.0, 1.6]), np.array([0.0, 1.0, 2.5, 4.0, 10.0])),
              lambda np: np.histogram(np.array([1, 2, 1, 4, 3, 2, 2]), bins=3), lambda np: np.histogram(np.arange(5), bins=[0, 1, 2, 5]),
              lambda np: _savetxt(np, np.arange(6.0).reshape(2, 3) / 4), lambda np: _savetxt(np, np.arange(4), fmt='%d', delimiter=','),
              lambda np: np.loadtxt(_text('1 2 3\n4 5 6\n')), lambda np: np.loadtxt(_text('# c\n1,2\n3,4\n'), delimiter=',', dtype=np.int64),
              lambda np: np.loadtxt(_text('1.5\n2.5\n')), lambda np: np.loadtxt(_text('1 2\n3 4\n'), unpack=True)],
    'kwargs': [lambda np: np.add(i64(np, 3), i64(np, 3), dtype=np.float32), lambda np: np.sqrt(i64(np, 3) + 2, dtype=np.float32),
               lambda np: _out_sum(np), lambda np: np.max(np.zeros((0,)), initial=5.0), lambda np: np.max(f64(np, 4), initial=100.0),
               lambda np: np.min(i64(np, 2, 3), axis=1, initial=-1), lambda np: np.sum(i64(np, 3), initial=10), lambda np: _out_ufunc(np),
               lambda np: np.cumsum(i64(np, 4), out=np.zeros(4, np.int64))],
    'printoptions': [lambda np: _popt(np, np.arange(6) / 7, precision=3), lambda np: _popt(np, np.array([1e-6, 1.0, 123.456]), suppress=True),
                     lambda np: _popt(np, np.array([1e-6, 1.0]), precision=2), lambda np: _popt(np, np.arange(20), threshold=10),
                     lambda np: _popt(np, np.arange(20), threshold=10, edgeitems=2), lambda np: _popt(np, np.arange(30.0), linewidth=40),
                     lambda np: _popt(np, np.array([1.5e-10, 2.0]), suppress=True, precision=4), lambda np: _popt(np, np.array([np.pi]), precision=0),
                     lambda np: _popt(np, np.array([2.5e9, 1.0]), precision=2)],
    'einsum': [lambda np: np.einsum('ij,jk->ik', f64(np, 2, 3), f64(np, 3, 4)), lambda np: np.einsum('bij,bjk->bik', f32(np, 2, 2, 3), f32(np, 2, 3, 2)),
               lambda np: np.einsum('i,i->', f64(np, 4), f64(np, 4)), lambda np: np.einsum('ij->ji', i64(np, 2, 3)), lambda np: np.einsum('ij->', i64(np, 2, 3)),
               lambda np: np.einsum('i,j->ij', f64(np, 2), f64(np, 3)), lambda np: np.einsum('ij,j', f64(np, 2, 3), f64(np, 3)),
               lambda np: np.einsum('ijk,ikl->jl', f64(np, 2, 3, 2), f64(np, 2, 2, 2)), lambda np: np.einsum('ij,jk,kl->il', f64(np, 2, 2), f64(np, 2, 3), f64(np, 3, 2)),
               lambda np: np.einsum('ij,ij->i', i32(np, 2, 3), i32(np, 2, 3)), lambda np: np.einsum('bhqd,bhkd->bhqk', f32(np, 1, 2, 3, 4), f32(np, 1, 2, 2, 4)),
               lambda np: np.einsum('ij,jk->ik', f64(np, 2, 3), f64(np, 2, 4)), lambda np: np.einsum('ij', f64(np, 2, 3)), lambda np: np.einsum('ji', f64(np, 2, 3))],
    'errors': [lambda np: np.zeros((2, 3)) + np.zeros((2, 2)), lambda np: np.sum(np.zeros((2, 2)), axis=2), lambda np: np.zeros(3).reshape(2, 2),
               lambda np: np.zeros((2, 3)) @ np.zeros((2, 3)), lambda np: np.concatenate([np.array(1), np.array(2)]), lambda np: np.dtype('int7'),
               lambda np: np.zeros(-1), lambda np: _iadd_int_float_error(np)],
}


def _iadd(np):
    a = i64(np, 2, 3)
    a += 1
    a -= np.array([1, 2, 3])
    return a


def _imul_f32(np):
    a = f32(np, 3)
    a *= 2.5
    a /= 2
    return a


def _iadd_int_float(np):
    a = f64(np, 3)
    a += i64(np, 3)
    return a


def _iadd_int_float_error(np):
    a = i64(np, 3)
    a += 1.5
    return a


def _idiv(np):
    a = f32(np, 2, 2)
    a **= 2
    a //= 1
    return a


def _isub_view(np):
    a = i64(np, 3, 3)
    v = a[1]
    v -= 100
    a[:, 0] += 1000
    return a


def _set(np, index, value):
    a = i64(np, 3, 4)
    a[index] = value
    return a


def _set_mask(np):
    a = f64(np, 3, 2)
    a[a < 0] = 0
    b = i64(np, 4)
    b[b > 0] = np.array([10, 20])[:int((b > 0).sum())]
    return [a, b]


def _view_write(np):
    a = np.zeros((3, 3))
    v = a[1:, ::2]
    v[...] = 7
    a[0][1] = 3
    return a


def _fill(np):
    a = np.zeros((2, 2), np.int32)
    a.fill(4)
    return a


def _sort_inplace(np):
    a = np.array([[3, 1, 2], [0, 5, 4]])
    a.sort()
    return a


def _attrs(np, a):
    return [a.shape, a.dtype.name, a.ndim, a.size, a.itemsize, a.nbytes, a.strides]


# --- serialising results (shared by the generator and the test) -------------------------------
def _num(v):
    if isinstance(v, float):
        if v != v:
            return 'nan'
        if v in (float('inf'), float('-inf')):
            return 'inf' if v > 0 else '-inf'
    return v


def _flat(x):
    if isinstance(x, list):
        out = []
        for y in x:
            out.extend(_flat(y))
        return out
    return [x]


def encode(np, r):
    """A JSON-able description of a case result."""
    if isinstance(r, np.ndarray):
        return {'t': 'a', 'dtype': r.dtype.name, 'shape': list(r.shape), 'v': [_num(v) for v in _flat(r.tolist())]}
    if isinstance(r, np.generic):
        return {'t': 's', 'dtype': r.dtype.name, 'v': _num(r.item())}
    if isinstance(r, bool):
        return {'t': 'p', 'type': 'bool', 'v': r}
    if isinstance(r, int):
        return {'t': 'p', 'type': 'int', 'v': r}
    if isinstance(r, float):
        return {'t': 'p', 'type': 'float', 'v': _num(r)}
    if isinstance(r, str):
        return {'t': 'str', 'v': r}
    if isinstance(r, (list, tuple)):
        return {'t': 'l', 'items': [encode(np, x) for x in r]}
    if r is None:
        return {'t': 'none'}
    raise TypeError('cannot encode %r' % type(r))


_BUILTIN_ERRORS = ('IndexError', 'ValueError', 'TypeError', 'ZeroDivisionError', 'OverflowError', 'KeyError', 'AttributeError')


def run_case(np, fn):
    try:
        r = fn(np)
    except Exception as e:   # the error's builtin classes are what numpy promises
        return {'t': 'e', 'errors': [c.__name__ for c in type(e).__mro__ if c.__name__ in _BUILTIN_ERRORS]}
    return encode(np, r)


def _neg_step_set(np):
    a = np.arange(6)
    a[::-2] = np.array([10, 20, 30])
    return a


def _strided_iadd(np):
    a = np.zeros((3, 4), np.int32)
    a[::2, 1::2] += 5
    return a


def _transpose_write(np):
    a = np.zeros((2, 3))
    a.T[1] = np.array([1.0, 2.0])
    return a


def _adv_iadd(np):
    a = np.arange(5)
    a[[0, 2, 2]] += 10
    return a


def _reshape_view_write(np):
    a = np.zeros(6)
    a.reshape(2, 3)[1, 1] = 4.0
    return a


def _swap_rows(np):
    a = np.arange(6).reshape(3, 2)
    a[[0, 2]] = a[[2, 0]]
    return a


def _setitem_broadcast(np):
    a = np.zeros((2, 3), np.float32)
    a[:] = np.array([1, 2, 3])
    a[1] = 7.5
    return a


def _setitem_newaxis(np):
    a = np.zeros((2, 2))
    a[0, None] = 3.0
    return a


def _set_neg_index(np):
    a = np.arange(4)
    a[-1] = 100
    a[-2:] *= 2
    return a


def _savetxt(np, a, **kw):
    import io
    buf = io.BytesIO()
    np.savetxt(buf, a, **kw)
    return buf.getvalue().decode()


def _text(s):
    import io
    return io.StringIO(s)


def _out_sum(np):
    o = np.zeros(3)
    r = np.sum(f64(np, 2, 3), axis=0, out=o)
    return [r, o, r is o]


def _out_ufunc(np):
    a = f64(np, 4)
    r = np.exp(a, out=a)
    return [a, r is a]


def _popt(np, a, **kw):
    with np.printoptions(**kw):
        text = repr(a) + '\n' + str(a)
    return [text, repr(a)]


# --- promotion matrices: every pair of stored dtypes, and each dtype with Python scalars ---------
DTYPE_NAMES = ('bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float16', 'float32', 'float64')


def _pair_case(a, b, op):
    def case(np):
        x = np.array([1, 2, 0], dtype=a)
        y = np.array([3, 1, 1], dtype=b)
        return getattr(np, op)(x, y)
    return case


def _scalar_case(a, v, op):
    def case(np):
        return getattr(np, op)(np.array([1, 2, 0], dtype=a), v)
    return case


_PAIRS = [(a, b, op) for a in DTYPE_NAMES for b in DTYPE_NAMES for op in ('add', 'multiply', 'maximum')]
_PAIRS_DIV = [(a, b, op) for a in DTYPE_NAMES for b in DTYPE_NAMES for op in ('divide', 'greater')]
CASES['promotion'] = [_pair_case(*p) for p in _PAIRS]
CASES['promotion_div'] = [_pair_case(*p) for p in _PAIRS_DIV]
CASES['promotion_scalar'] = [_scalar_case(a, v, op) for a in DTYPE_NAMES for v in (True, 2, 2.5) for op in ('add', 'multiply', 'equal')]
CASES['reduce_dtypes'] = [(lambda a, f: lambda np: getattr(np, f)(np.array([1, 2, 3, 0], dtype=a)))(a, f)
                          for a in DTYPE_NAMES for f in ('sum', 'mean', 'max', 'argmin', 'cumsum', 'prod', 'std')]

from numpy_cases_more import MORE  # noqa: E402  (the wrapped dtypes and the native-kernel groups)
CASES.update(MORE)

# Where Skiff differs from numpy on purpose (docs/numpy.md): (group, index) -> the error class or
# result dtype Skiff gives instead. numpy's unsigned sums accumulate in uint64 (no storage in
# Skiff), Skiff's in int64.
KNOWN_DIFFERENCES = {('reduce_dtypes', k): 'int64'
                     for k, (a, f) in enumerate((a, f) for a in DTYPE_NAMES for f in ('sum', 'mean', 'max', 'argmin', 'cumsum', 'prod', 'std'))
                     if a in ('uint8', 'uint16', 'uint32') and f in ('sum', 'cumsum', 'prod')}
# uint64 has no storage (its values exceed int64): an array of one is a TypeError
KNOWN_DIFFERENCES[('uint16_32', len(MORE['uint16_32']) - 1)] = 'TypeError'
# A pure-Python class can serve memoryview() only through __buffer__ (PEP 688, Python 3.12+):
# on 3.10/3.11 memoryview(ndarray) is a TypeError (bytes(a) still works through __bytes__).
import sys as _sys  # noqa: E402
if _sys.version_info < (3, 12):
    KNOWN_DIFFERENCES.update({('buffer', k): 'TypeError' for k in range(len(MORE['buffer'])) if k != 6})
