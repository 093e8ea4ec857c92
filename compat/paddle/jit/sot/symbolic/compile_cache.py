"""CompileSIRCache: Paddle's cache of compiled captured graphs ("SIR"), over Skiff's trace trees.

In Skiff a captured graph belongs to the trace-tree node a translation made; it is compiled for
the native executor on its first run (or runs op by op below MIN_GRAPH_SIZE). `cache` lists the
graphs of the live trees captured since the last clear(), keyed by a number unique to each
graph; each value shows `partial_program.training` (the mode Layer.train()/eval() last set when
the graph was captured, as Paddle's compiled program records it), `SIR` (the graph's listing)
and `name`. clear() only forgets: the graphs keep running (OpcodeExecutorCache().clear() drops
the translations themselves).
"""
import json

import _skiff_sot


class PartialProgram:
    """What Paddle's partial_program tells about a compiled graph that Skiff can answer."""
    __slots__ = ('training', 'runs_on_executor', 'op_count')

    def __init__(self, training, runs_on_executor, op_count):
        self.training = training
        self.runs_on_executor = runs_on_executor
        self.op_count = op_count

    def __repr__(self):
        return 'PartialProgram(training=%r, ops=%d, %s)' % (
            self.training, self.op_count, 'executor' if self.runs_on_executor else 'op by op')


class FallbackWrapper:
    """One captured graph (Paddle's name for a cache value)."""
    __slots__ = ('name', 'SIR', 'partial_program')

    def __init__(self, entry):
        self.name = entry['name']
        self.SIR = entry['sir']
        self.partial_program = PartialProgram(bool(entry['training']), bool(entry['executor']), entry['ops'])

    def __repr__(self):
        return 'FallbackWrapper(%s, %r)' % (self.name, self.partial_program)


class CompileSIRCache:
    """A singleton, like Paddle's: every instance sees the same graphs."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    @property
    def cache(self):
        """{key: FallbackWrapper} for the graphs captured since the last clear(), oldest first
        (a fresh dict on every read: it follows the trace trees)."""
        return {e['key']: FallbackWrapper(e) for e in json.loads(_skiff_sot.compiled_graphs())}

    def clear(self):
        _skiff_sot.clear_compiled_graphs()

    def __len__(self):
        return len(self.cache)


__all__ = ['CompileSIRCache', 'FallbackWrapper']
