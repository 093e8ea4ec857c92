"""The translator's flags as Paddle's ENV_* objects, and guards that set one for a block.

Flags Skiff's translator reads (STRICT_MODE, MIN_GRAPH_SIZE, SOT_LOG_LEVEL) are set in the running
translator as well as in os.environ; the others only in os.environ (Skiff has no such switch:
see each flag's note).
"""
import functools
import os


def _sot():
    import _skiff_sot
    return _skiff_sot


class EnvironmentVariable:
    """One flag: get() reads it, set(v) changes it (the running translator too, when `runtime` names
    the translator's setting), guards restore the old value after a block."""

    def __init__(self, name, default, kind, runtime=None, note=''):
        self.name = name
        self.default = default
        self.kind = kind
        self.runtime = runtime
        self.note = note

    def _parse(self, text):
        if self.kind is bool:
            return text.strip().lower() in ('1', 'true', 'yes', 'on')
        if self.kind is int:
            return int(text)
        return text

    def get(self):
        if self.runtime is not None:
            v = _sot().get_flag(self.runtime)
            return bool(v) if self.kind is bool else v
        text = os.environ.get(self.name)
        return self.default if text is None or text == '' else self._parse(text)

    def set(self, value):
        if self.kind is bool:
            value = bool(value)
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError('%s: expected an int, got %r' % (self.name, value))
        os.environ[self.name] = ('1' if value else '0') if self.kind is bool else str(value)
        if self.runtime is not None:
            _sot().set_flag(self.runtime, int(value))

    def delete(self):
        os.environ.pop(self.name, None)

    def __repr__(self):
        return '%s(%s=%r)' % (type(self).__name__, self.name, self.get())


class BooleanEnvironmentVariable(EnvironmentVariable):
    def __init__(self, name, default, runtime=None, note=''):
        super().__init__(name, default, bool, runtime, note)


class IntegerEnvironmentVariable(EnvironmentVariable):
    def __init__(self, name, default, runtime=None, note=''):
        super().__init__(name, default, int, runtime, note)


class StringEnvironmentVariable(EnvironmentVariable):
    def __init__(self, name, default, note=''):
        super().__init__(name, default, str, None, note)


ENV_STRICT_MODE = BooleanEnvironmentVariable('STRICT_MODE', False, runtime='strict')
ENV_MIN_GRAPH_SIZE = IntegerEnvironmentVariable('MIN_GRAPH_SIZE', 10, runtime='min_graph_size')
ENV_SOT_LOG_LEVEL = IntegerEnvironmentVariable('SOT_LOG_LEVEL', 0, runtime='log_level')
ENV_SOT_WITH_CONTROL_FLOW = BooleanEnvironmentVariable(
    'SOT_WITH_CONTROL_FLOW', True, note='Skiff always captures the control flow it can (CallLayer) and breaks otherwise')
ENV_SOT_ALLOW_DYNAMIC_SHAPE = BooleanEnvironmentVariable(
    'SOT_ALLOW_DYNAMIC_SHAPE', True, note='Skiff makes dims symbolic by its own rules (docs/sot.md, Dynamic shapes)')
ENV_SOT_ENABLE_FASTER_GUARD = BooleanEnvironmentVariable(
    'SOT_ENABLE_FASTER_GUARD', False, note='Skiff has one guard implementation')
ENV_SOT_ENABLE_GUARD_TREE = BooleanEnvironmentVariable(
    'SOT_ENABLE_GUARD_TREE', False, note='Skiff always keeps a trace tree')
ENV_SHOW_TRACKERS = StringEnvironmentVariable('SHOW_TRACKERS', '', note='not used by Skiff')
ENV_CLEAN_CODE = BooleanEnvironmentVariable('CLEAN_CODE', False, note='not used by Skiff')
ENV_SOT_EXPORT = StringEnvironmentVariable('SOT_EXPORT', '', note='not used by Skiff')
ENV_SOT_EVENT_LEVEL = IntegerEnvironmentVariable('SOT_EVENT_LEVEL', 0, note='not used by Skiff')
ENV_ENABLE_SOT_STEP_PROFILER = BooleanEnvironmentVariable(
    'ENABLE_SOT_STEP_PROFILER', False, note='use skiff run --profile')


class EnvironmentVariableGuard:
    """Sets a flag for a `with` block or a decorated function, restoring the old value after."""

    def __init__(self, var, value):
        self.var = var
        self.value = value
        self._old = []

    def __enter__(self):
        self._old.append(self.var.get())
        self.var.set(self.value)
        return self

    def __exit__(self, *exc):
        self.var.set(self._old.pop())
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with EnvironmentVariableGuard(self.var, self.value):
                return fn(*args, **kwargs)
        return wrapped


def strict_mode_guard(value):
    return EnvironmentVariableGuard(ENV_STRICT_MODE, value)


def min_graph_size_guard(value):
    return EnvironmentVariableGuard(ENV_MIN_GRAPH_SIZE, value)


def sot_log_level_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_LOG_LEVEL, value)


def with_control_flow_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_WITH_CONTROL_FLOW, value)


def with_allow_dynamic_shape_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_ALLOW_DYNAMIC_SHAPE, value)


def faster_guard_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_ENABLE_FASTER_GUARD, value)


def guard_tree_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_ENABLE_GUARD_TREE, value)


def export_guard(value):
    return EnvironmentVariableGuard(ENV_SOT_EXPORT, value)
