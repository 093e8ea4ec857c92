"""paddle.static.Program, program_guard and the default programs."""
from . import _js


class Program:
    """A static program: build it inside `program_guard`, run it with `Executor.run`;
    `print(program)` shows its PIR text."""

    def __init__(self, _id=None):
        self._id = _js.check(_js.program_new()) if _id is None else _id
        self.random_seed = 0

    def __del__(self, _free=_js.program_free):
        if getattr(self, '_id', 0):
            _free(self._id)

    def __str__(self):
        return _js.check(_js.program_text(self._id))

    def __repr__(self):
        return self.__str__()

    def to_string(self, throw_on_error=False, with_details=False):
        return str(self)

    def clone(self, for_test=False):
        """A copy; with for_test=True, dropout is switched to inference as in Paddle."""
        return Program(_js.check(_js.program_clone(self._id, bool(for_test))))

    @property
    def num_ops(self):
        return _js.check(_js.program_num_ops(self._id))

    def global_block(self):
        return self


_defaults = {}


def _default(startup):
    p = _defaults.get(startup)
    if p is None:
        p = _defaults[startup] = Program(_js.check(_js.program_default(startup)))
    return p


def default_main_program():
    """The program static-mode calls record into outside any program_guard."""
    return _default(False)


def default_startup_program():
    """Kept for compatibility: Skiff initializes parameters when they are created, so it stays empty."""
    return _default(True)


class program_guard:
    """`with paddle.static.program_guard(main, startup):` records ops into `main`."""

    def __init__(self, main_program, startup_program=None):
        if not isinstance(main_program, Program):
            raise TypeError('program_guard: main_program must be a paddle.static.Program, got %s' % type(main_program).__name__)
        if startup_program is not None and not isinstance(startup_program, Program):
            raise TypeError('program_guard: startup_program must be a paddle.static.Program, got %s' % type(startup_program).__name__)
        self.main_program = main_program
        self.startup_program = startup_program

    def __enter__(self):
        _js.check(_js.guard_enter(self.main_program._id, self.startup_program._id if self.startup_program is not None else 0))
        return self.main_program

    def __exit__(self, *exc):
        _js.check(_js.guard_exit(self.main_program._id))
        return False
