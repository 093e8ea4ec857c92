"""paddle.profiler: Profiler (start/stop/step, `with`, summary(), export()), RecordEvent scopes,
make_scheduler and export_chrome_tracing, as in Paddle 2.6.

Events come from Skiff's TypeScript collector (src/profiler): one per eager op call, one per
captured-graph run (named by the translated function, with its op count), SOT translations and
RecordEvent scopes. The scheduler and on_trace_ready are Python callables, so the state machine
lives here; the collector only records while a step is in a RECORD state.

>>> import paddle
>>> with paddle.profiler.Profiler() as prof:
...     y = paddle.ones([2, 2]) + 1
>>> print(prof.summary())
"""
import datetime
import enum
import json
import os

import _skiff_profiler as _p

__all__ = ['Profiler', 'RecordEvent', 'ProfilerState', 'ProfilerTarget', 'SortedKeys', 'TracerEventType',
           'make_scheduler', 'export_chrome_tracing', 'load_profiler_result']


class ProfilerState(enum.Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(enum.Enum):
    CPU = 0
    GPU = 1
    CUSTOM_DEVICE = 3


class SortedKeys(enum.Enum):
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class TracerEventType(enum.Enum):
    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14


def _count(name, v):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ValueError('make_scheduler: %s must be a non-negative integer, got %r' % (name, v))
    return v


def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """Steps: skip_first CLOSED, then cycles of `closed` CLOSED, `ready` READY and `record`
    RECORD steps (the last RECORD_AND_RETURN), `repeat` times (0: forever)."""
    closed, ready, record = _count('closed', closed), _count('ready', ready), _count('record', record)
    repeat, skip_first = _count('repeat', repeat), _count('skip_first', skip_first)
    if record < 1:
        raise ValueError('make_scheduler: record must be at least 1, got %d' % record)
    period = closed + ready + record

    def scheduler(step):
        if step < skip_first:
            return ProfilerState.CLOSED
        s = step - skip_first
        if repeat > 0 and s // period >= repeat:
            return ProfilerState.CLOSED
        m = s % period
        if m < closed:
            return ProfilerState.CLOSED
        if m < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD_AND_RETURN if m == period - 1 else ProfilerState.RECORD
    return scheduler


def _range_scheduler(start, end):
    if not (isinstance(start, int) and isinstance(end, int)) or start < 0 or end <= start:
        raise ValueError('Profiler: scheduler range must be (start, end) with 0 <= start < end, got (%r, %r)' % (start, end))

    def scheduler(step):
        if step < start or step >= end:
            return ProfilerState.CLOSED
        return ProfilerState.RECORD_AND_RETURN if step == end - 1 else ProfilerState.RECORD
    return scheduler


def export_chrome_tracing(dir_name, worker_name=None):
    """on_trace_ready handler: writes `<dir_name>/<worker>_time_<stamp>.paddle_trace.json`."""
    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or 'host_%d' % os.getpid()
        stamp = datetime.datetime.now().strftime('%Y_%m_%d_%H_%M_%S_%f')
        prof.export(os.path.join(dir_name, '%s_time_%s.paddle_trace.json' % (worker, stamp)), 'json')
    return handler


def _recording(state):
    return state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)


class Profiler:
    """Records eager ops, captured-graph runs, translations and RecordEvent scopes."""

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, timer_only=False, emit_nvtx=False, custom_device_types=None, with_flops=False):
        if scheduler is None:
            self._scheduler = lambda step: ProfilerState.RECORD
        elif callable(scheduler):
            self._scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)) and len(scheduler) == 2:
            self._scheduler = _range_scheduler(*scheduler)
        else:
            raise TypeError('Profiler: scheduler must be a callable or a (start, end) pair, got %r' % (scheduler,))
        self._on_trace_ready = on_trace_ready
        self.step_num = 0
        self._state = ProfilerState.CLOSED
        self._running = False
        self._id = 0           # the current (or last) recording's collector
        self._open = False

    def _state_at(self, step):
        s = self._scheduler(step)
        if not isinstance(s, ProfilerState):
            raise TypeError('Profiler: the scheduler returned %r for step %d, not a ProfilerState' % (s, step))
        return s

    def _enter(self, s):
        self._state = s
        if _recording(s) and not self._open:
            if self._id:
                _p.release(self._id)
            self._id = _p.open()
            self._open = True

    def _finish(self):
        if self._open:
            _p.close(self._id)
            self._open = False
        self._state = ProfilerState.CLOSED
        if self._on_trace_ready is not None:
            self._on_trace_ready(self)

    def start(self):
        if self._running:
            return
        self._running = True
        self._enter(self._state_at(self.step_num))

    def step(self, num_samples=None):
        if not self._running:
            return
        prev = self._state
        if _recording(prev) and self._open:
            _p.mark_step(self._id)
        self.step_num += 1
        nxt = self._state_at(self.step_num)
        if prev == ProfilerState.RECORD_AND_RETURN or (_recording(prev) and not _recording(nxt)):
            self._finish()
        self._enter(nxt)

    def stop(self):
        if not self._running:
            return
        if _recording(self._state):
            self._finish()
        self._state = ProfilerState.CLOSED
        self._running = False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False, time_unit='ms', views=None):
        """The table: eager ops, captured graphs, translation and user events (calls, total ms,
        mean µs, share of recorded time). Returned and printed, like Paddle's."""
        text = _p.summary(self._id) if self._id else 'Profiler summary: (nothing recorded)'
        print(text)
        return text

    def export(self, path='', format='json'):
        if format != 'json':
            raise ValueError("Profiler.export: format %r is not supported (only 'json', the Chrome trace format)" % (format,))
        if not self._id:
            raise RuntimeError('Profiler.export: nothing was recorded')
        with open(path, 'w') as f:
            f.write(_p.trace_json(self._id))

    def _rows(self, kind):
        """Summary rows of one section ('op', 'graph', 'translate', 'user') as dicts (tests read them)."""
        return json.loads(_p.rows(self._id, kind)) if self._id else []

    def _trace(self):
        return json.loads(_p.trace_json(self._id)) if self._id else {'traceEvents': []}


class RecordEvent:
    """A named scope in the summary ("User events") and the trace; `with` or begin()/end()."""

    def __init__(self, name, event_type=TracerEventType.PythonUserDefined):
        if not isinstance(name, str) or not name:
            raise TypeError('RecordEvent: name must be a non-empty string, got %r' % (name,))
        self.name = name
        self.event_type = event_type
        self._t0 = None

    def begin(self):
        self._t0 = _p.now() if _p.recording() else None

    def end(self):
        if self._t0 is not None:
            _p.user_span(self.name, self._t0)
        self._t0 = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, *exc):
        self.end()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with RecordEvent(self.name, self.event_type):
                return fn(*args, **kwargs)
        return wrapper


def load_profiler_result(filename):
    """Reads a trace written by Profiler.export (the JSON object)."""
    with open(filename) as f:
        return json.load(f)
