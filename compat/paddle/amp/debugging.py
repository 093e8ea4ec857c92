"""paddle.amp.debugging: check_numerics and DebugMode (Paddle 2.6). The counts come from the
registry op check_numerics (native/kernels/debugging.cc); the abort modes raise here, where the
op and variable names are at hand (as src/ops/defs/matrix_more_api.ts does for TypeScript)."""
from enum import Enum

from .. import _ops
from ..tensor import Tensor


class DebugMode(Enum):
    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3
    CHECK_ALL_AND_ABORT = 4
    DUMP_ALL = 5


def check_numerics(tensor, op_type, var_name, debug_mode=DebugMode.CHECK_NAN_INF_AND_ABORT):
    """Returns (stats, values): int64 [num_nan, num_inf, num_zero] and float32 [max, min, mean].
    In CHECK_NAN_INF_AND_ABORT and CHECK_ALL_AND_ABORT a NaN or Inf raises."""
    if not isinstance(tensor, Tensor):
        raise TypeError('check_numerics(): tensor must be a Tensor, got %s' % type(tensor).__name__)
    level = debug_mode.value if isinstance(debug_mode, DebugMode) else debug_mode
    stats, values = _ops.function('check_numerics')(tensor, op_type=str(op_type), var_name=str(var_name), check_nan_inf_level=level)
    if level in (DebugMode.CHECK_NAN_INF_AND_ABORT.value, DebugMode.CHECK_ALL_AND_ABORT.value):
        nan, inf, zero = stats.tolist()
        if nan > 0 or inf > 0:
            mx, mn, mean = values.tolist()
            raise RuntimeError('check_numerics: There are NaN or Inf in [operator=%s, tensor=%s, dtype=%s, numel=%d]: '
                               'num_nan=%d, num_inf=%d, num_zero=%d, max=%s, min=%s, mean=%s'
                               % (op_type, var_name, tensor.dtype, int(tensor.numel()), nan, inf, zero, mx, mn, mean))
    return stats, values
