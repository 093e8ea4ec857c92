"""OpcodeExecutorCache: Paddle's handle on the translator's cache, over Skiff's trace trees.

`translate_count` counts translations (an entry translation, and each translation after a graph
break or after a guard miss) since the last clear(); clear() drops every translated tree, so
the next calls translate again.
"""


class OpcodeExecutorCache:
    """A singleton, like Paddle's: every instance sees the same counts."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._base = 0
        return cls._instance

    @property
    def translate_count(self):
        import _skiff_sot
        return _skiff_sot.translate_count(0) - self._base

    def clear(self):
        import _skiff_sot
        from ... import _SYMBOLIC_CACHE
        _skiff_sot.reset_translations()
        _SYMBOLIC_CACHE.clear()
        self._base = _skiff_sot.translate_count(0)


__all__ = ['OpcodeExecutorCache']
