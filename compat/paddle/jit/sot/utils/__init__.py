"""paddle.jit.sot.utils: the translator's flags, guards and exceptions (Paddle's module path)."""
from .envs import (  # noqa: F401
    ENV_CLEAN_CODE, ENV_ENABLE_SOT_STEP_PROFILER, ENV_MIN_GRAPH_SIZE, ENV_SHOW_TRACKERS, ENV_SOT_ALLOW_DYNAMIC_SHAPE,
    ENV_SOT_ENABLE_FASTER_GUARD, ENV_SOT_ENABLE_GUARD_TREE, ENV_SOT_EVENT_LEVEL, ENV_SOT_EXPORT, ENV_SOT_LOG_LEVEL,
    ENV_SOT_WITH_CONTROL_FLOW, ENV_STRICT_MODE, EnvironmentVariableGuard, export_guard, faster_guard_guard,
    guard_tree_guard, min_graph_size_guard, sot_log_level_guard, strict_mode_guard, with_allow_dynamic_shape_guard,
    with_control_flow_guard,
)
from .exceptions import BreakGraphError, FallbackError, HasNoAttributeError, InnerError, SotErrorBase  # noqa: F401
from .paddle_api_config import add_break_graph_apis  # noqa: F401
