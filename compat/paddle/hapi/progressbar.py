"""The progress display of paddle.Model: a live bar drawn by cli-progress on the Node side
(frontend/python/bridge_progress.ts) when stdout is a terminal, plain lines otherwise (CI logs,
captured test output). Python computes the text: step counts, loss, metrics and steps/s."""
import sys
import time

from .._bridge import _js


_open = set()   # bars on screen: closed by close_all() if a loop dies (restores the cursor)


def close_all():
    for bar in list(_open):
        bar.close()


def _fmt(v):
    if isinstance(v, (list, tuple)):
        v = v[0] if len(v) == 1 else v
    if isinstance(v, (list, tuple)):
        return '[' + ', '.join(_fmt(x) for x in v) + ']'
    if isinstance(v, float):
        return '%.4f' % v if abs(v) >= 1e-3 or v == 0 else '%.4e' % v
    return str(v)


def format_values(values):
    return ' - '.join('%s: %s' % (k, _fmt(v)) for k, v in values)


class ProgressBar:
    """Progress over `num` steps (None when unknown). update(step, values) where values is a
    list of (name, value); `verbose` 1 draws a bar on a terminal, 2 prints a line per update."""

    def __init__(self, num=None, verbose=1, title='', start=True, file=None):
        self.num, self.verbose, self.title = num, verbose, title
        self.file = file or sys.stdout
        self._bar = 0
        self._start = time.time() if start else None
        self._tty = verbose == 1 and bool(_js.progress_tty())
        self._last_text = ''
        self.last_step = None

    def start(self):
        self._start = time.time()

    def _speed(self, step):
        dt = time.time() - (self._start or time.time())
        return '%.1f steps/s' % (step / dt) if dt > 0 and step else ''

    def _text(self, step, values):
        parts = [format_values(values)] if values else []
        sp = self._speed(step)
        if sp:
            parts.append(sp)
        return ' - '.join(parts)

    def update(self, current_num, values=()):
        text = self._text(current_num, values)
        self._last_text = text
        self.last_step = current_num
        if self._tty:
            if not self._bar:
                self.file.flush()       # Python's buffered output first, then the bar
                self._bar = _js.progress_start(self.title, self.num or 0, text)
                _open.add(self)
            _js.progress_update(self._bar, current_num, text)
        else:
            total = '/%d' % self.num if self.num else ''
            print('%sstep %d%s - %s' % (self.title + ' ' if self.title else '', current_num, total, text), file=self.file)

    def close(self, current_num=-1, values=None):
        """Ends the bar (leaving its last state on screen)."""
        if self._bar:
            text = self._text(current_num, values) if values is not None else self._last_text
            _js.progress_stop(self._bar, current_num, text)
            self._bar = 0
            _open.discard(self)
