"""paddle.static.Executor and the global scope."""
from ..creation import to_tensor
from ..tensor import Tensor, _wrap
from . import _js
from .program import Program, default_main_program
from .variable import Variable


class Executor:
    """Runs static programs on Skiff's native executor.

    >>> exe = paddle.static.Executor(paddle.CPUPlace())
    >>> out, = exe.run(main, feed={'x': x}, fetch_list=[y])
    """

    def __init__(self, place=None):
        self.place = place

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name='feed', fetch_var_name='fetch', scope=None,
            return_numpy=True, use_program_cache=False, use_prune=False):
        """Feeds are Tensors, nested lists or numbers (converted to the data's dtype); fetches are
        Variables, their names, or Tensors. Returns numpy arrays (Skiff's numpy subset), or Tensors
        with return_numpy=False, as Paddle does."""
        if program is None:
            program = default_main_program()
        if not isinstance(program, Program):
            raise TypeError('Executor.run: program must be a paddle.static.Program, got %s' % type(program).__name__)
        names, handles, keep = [], [], []
        for name, v in (feed or {}).items():
            if not isinstance(v, Tensor):
                v = to_tensor(v, dtype=_js.check(_js.feed_dtype(program._id, name)))
                keep.append(v)
            names.append(name)
            handles.append(v._h)
        spec = []
        if fetch_list is not None and not isinstance(fetch_list, (list, tuple)):
            fetch_list = [fetch_list]
        for i, f in enumerate(fetch_list or []):
            if isinstance(f, Variable):
                spec.append('v%d' % f._vid)
            elif isinstance(f, str):
                spec.append('n' + f)
            elif isinstance(f, Tensor):
                spec.append('t%d' % f._h)
            else:
                raise TypeError('Executor.run: fetch_list[%d] must be a Variable, its name or a Tensor, got %s' % (i, type(f).__name__))
        r = _js.check(_js.run(program._id, '\x01'.join(names), '\x01'.join(spec), *handles))
        outs = [_wrap(int(h)) for h in r.split(',')] if r else []
        return [t.numpy() for t in outs] if return_numpy else outs

    def close(self):
        pass


class _ScopeVar:
    def __init__(self, name):
        self.name = name

    def get_tensor(self):
        return _wrap(_js.check(_js.scope_tensor(self.name)))


class _Scope:
    """paddle.static.global_scope(): parameters by name."""

    def find_var(self, name):
        try:
            _ScopeVar(name).get_tensor()
        except (RuntimeError, ValueError):
            return None
        return _ScopeVar(name)

    def var(self, name):
        return self.find_var(name)


_scope = _Scope()


def global_scope():
    return _scope
