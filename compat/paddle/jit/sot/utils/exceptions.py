"""Exceptions of the translator, with Paddle's names."""


class SotErrorBase(Exception):
    pass


class InnerError(SotErrorBase):
    """The translator refused: a psdb check failed (check_no_breakgraph, check_no_fallback,
    assert_true)."""


class HasNoAttributeError(InnerError):
    pass


class FallbackError(SotErrorBase):
    pass


class BreakGraphError(SotErrorBase):
    pass


__all__ = ['SotErrorBase', 'InnerError', 'HasNoAttributeError', 'FallbackError', 'BreakGraphError']
