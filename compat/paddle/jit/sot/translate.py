"""symbolic_translate's wrapper: Paddle's own entry point to the translator, whose errors name
the simulated call stack in their message.

Paddle raises an error met while simulating with the simulated frames in its text ("In simulate
execution: File ..., line N, in f"), and Paddle's tests read them from str(e). Skiff keeps the
exception's type, arguments, cause/context and traceback as eager has them (to_static changes
nothing); only through symbolic_translate does an exception leaving a translated function get
that summary: appended to its message when the message is its one str argument, else (3.11+) as
a note. The frames are those of the translated code since the last graph break: Paddle
translates each frame resumed after a break as a function of its own, so a break inside an
inlined call leaves the callers out of the summary.
"""
import linecache
import sys

from .runtime import StaticFunction


class SymbolicFunction(StaticFunction):
    """A StaticFunction whose escaping errors carry Paddle's simulated-stack summary."""

    _REGISTER_FLAGS = 2   # the translator then marks the frames to show (runtime.ts failure)

    def __call__(self, *args, **kwargs):
        try:
            return StaticFunction.__call__(self, *args, **kwargs)
        except Exception as e:
            _add_summary(e)
            raise


def summary(frames):
    """Paddle's "In simulate execution" block for frames [(file, line, name)], outermost first."""
    lines = ['In simulate execution:', '']
    for file, line, name in frames:
        lines.append('  File "%s", line %d, in %s' % (file, line, name))
        src = linecache.getline(file, line).strip() if line > 0 else ''
        if src:
            lines.append('    ' + src)
    return '\n'.join(lines)


def _add_summary(e):
    frames = e.__dict__.pop('_skiff_sot_simulated', None) if hasattr(e, '__dict__') else None
    if not frames:
        return
    text = summary(frames)
    args = e.args
    if len(args) == 1 and isinstance(args[0], str) and str(e) == args[0]:
        # (decided by behaviour: NameError and AttributeError have a __str__ of their own that
        # still shows args[0]; KeyError shows its repr)
        e.args = (args[0] + '\n\n' + text,)
        if str(e) == e.args[0]:
            return
        e.args = args
    if sys.version_info >= (3, 11):
        e.add_note(text)
