"""paddle.static.Variable: a value of a static program, held by id (the PIR value's id).

Operators and Tensor methods are the registry's generated functions, so `x + y`, `x @ w`,
`x.mean()` on Variables record ops into the current program exactly as paddle.add & co. do;
values only exist once `Executor.run` computes them.
"""
from .. import _ops
from ..dtype import DTYPES, dtype_of
from . import _js

_new = object.__new__


def _wrap(vid):
    v = _new(Variable)
    v._vid = vid
    v._m = None
    return v


def _variables(r, multi=None):
    """Variables for a bridge result 'v<id>,<id>...' (see frontend/python/bridge.ts ret)."""
    outs = [_wrap(int(i)) for i in r[1:].split(',')]
    if len(outs) == 1 and multi in (None, 'unwrap'):   # 'unwrap': max_pool2d without its mask, as for Tensors
        return outs[0]
    return outs if multi == 'list' else tuple(outs)


def _f(name):
    return _ops.function(name)


class Variable:
    """A value of a paddle.static.Program (a feed, a parameter or an op result)."""
    __slots__ = ('_vid', '_m', '__weakref__')
    _skiff_static = True   # paddle._ops encodes Variables by id (tag 'v')

    def __del__(self, _free=_js.value_free):
        if getattr(self, '_vid', 0):
            _free(self._vid)

    def _load(self):
        dt, dims, name = _js.check(_js.value_meta(self._vid)).split(';', 2)
        self._m = ([int(d) for d in dims.split(',')] if dims else [], DTYPES[dt], name)
        return self._m

    @property
    def shape(self):
        """The shape, with -1 for dims only known at run time (a None in paddle.static.data)."""
        return list((self._m or self._load())[0])

    @property
    def dtype(self):
        return (self._m or self._load())[1]

    @property
    def name(self):
        return (self._m or self._load())[2]

    @property
    def ndim(self):
        return len((self._m or self._load())[0])

    def dim(self):
        return self.ndim

    @property
    def stop_gradient(self):
        """Feeds stop gradients unless set False; parameters follow trainable; results follow inputs."""
        return _js.check(_js.value_stop_gradient(self._vid)) == 'T'

    @stop_gradient.setter
    def stop_gradient(self, value):
        _js.check(_js.value_set_stop_gradient(self._vid, 1 if value else 0))

    @property
    def persistable(self):
        return False

    @property
    def place(self):
        from ..framework import CPUPlace
        return CPUPlace()

    def astype(self, dtype):
        return _f('cast')(self, dtype_of(dtype).name)

    cast = astype

    @property
    def T(self):
        return _f('transpose')(self, list(range(self.ndim - 1, -1, -1)))

    def __repr__(self):
        shape, dt, name = self._m or self._load()
        return 'Variable(name=%s, shape=%s, dtype=%s)' % (name, shape, dt)

    __str__ = __repr__

    def __len__(self):
        shape = self.shape
        if not shape or shape[0] < 0:
            raise TypeError('len() of a static Variable needs a known first dim, got shape %s' % shape)
        return shape[0]

    def __getitem__(self, index):
        from .._indexing import getitem
        return getitem(self, index)

    def _no_value(self, what):
        raise TypeError('%s: Variable %s has no value while the program is being built; fetch it with paddle.static.Executor.run' % (what, self.name))

    def numpy(self):
        self._no_value('numpy()')

    def tolist(self):
        self._no_value('tolist()')

    def item(self, *args):
        self._no_value('item()')

    def __bool__(self):
        self._no_value('bool()')

    def __float__(self):
        self._no_value('float()')

    def __int__(self):
        self._no_value('int()')

    def __index__(self):
        self._no_value('index')

    __hash__ = object.__hash__


def _binary(op, reflected=False, true_div=False):
    def f(self, y):
        if true_div:
            if self.dtype.kind != 'f':
                self = self.astype('float32')
            if hasattr(y, 'dtype') and not isinstance(y, (int, float, bool)) and y.dtype.kind != 'f':
                y = y.astype('float32')
        fn = _f(op)
        return fn(y, self) if reflected else fn(self, y)
    return f


for _name, _op in (('add', 'add'), ('sub', 'subtract'), ('mul', 'multiply'), ('truediv', 'divide'), ('floordiv', 'floor_divide'),
                   ('mod', 'remainder'), ('pow', 'elementwise_pow'), ('matmul', 'matmul')):
    setattr(Variable, '__%s__' % _name, _binary(_op, False, _name == 'truediv'))
    setattr(Variable, '__r%s__' % _name, _binary(_op, True, _name == 'truediv'))
for _name, _op in (('eq', 'equal'), ('ne', 'not_equal'), ('lt', 'less_than'), ('le', 'less_equal'), ('gt', 'greater_than'), ('ge', 'greater_equal')):
    setattr(Variable, '__%s__' % _name, _binary(_op))
for _name, _op in (('and', 'logical_and'), ('or', 'logical_or'), ('xor', 'logical_xor')):
    setattr(Variable, '__%s__' % _name, _binary(_op))
    setattr(Variable, '__r%s__' % _name, _binary(_op, True))
Variable.__neg__ = lambda self: _f('neg')(self)
Variable.__abs__ = lambda self: _f('abs')(self)
Variable.__invert__ = lambda self: _f('logical_not')(self)
Variable.__pos__ = lambda self: self
Variable.__hash__ = object.__hash__

# Tensor methods generated from the registry (x.matmul(w), x.sum(-1), ...)
for _m, _fn in _ops.METHODS.items():
    if _m not in Variable.__dict__:
        setattr(Variable, _m, _ops.make_method(_fn))
