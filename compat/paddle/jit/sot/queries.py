"""What the translator asks about Python objects while translating (never on the hot path):
how to treat an object, attributes through super(), imports that would run no code, dtypes,
whether an attribute write is plain storage. Called from TypeScript through paddle.jit.sot.runtime."""
import builtins
import sys
import types

from . import runtime
from .encoding import OBJECTS, decode, encode, remember
from ...tensor import Tensor


def describe(oid):
    """'kind|detail' telling the translator how to treat an object."""
    o = OBJECTS[oid]
    t = type(o)
    special = _special_call(o, t)
    if special is not None:
        return special
    op = getattr(o, '_skiff_op', None)
    if op is not None and callable(o):
        return 'api|' + op
    op = getattr(o, '_skiff_inplace_op', None)
    if op is not None and callable(o):
        return 'api_inplace|' + op
    if t is types.FunctionType:
        return 'function|%d|%s' % (runtime._code_id(o.__code__), o.__qualname__)
    if t is types.MethodType:
        return 'method|%d|%d' % (remember(o.__self__), remember(o.__func__))
    if t is types.BuiltinFunctionType or t is types.BuiltinMethodType:
        if getattr(o, '__self__', None) is builtins or getattr(o, '__module__', None) == 'builtins':
            return 'builtin|' + o.__name__
        mod = getattr(o, '__module__', None)
        if mod in ('_operator', 'math', '_functools') and getattr(sys.modules.get(mod.lstrip('_')), o.__name__, None) is o:
            return 'builtin|%s.%s' % (mod.lstrip('_'), o.__name__)
        if getattr(o, '__self__', None) is dict and o.__name__ == 'fromkeys':
            return 'builtin|dict.fromkeys'   # (a new bound method on every dict.fromkeys read)
        return 'other|' + t.__name__
    if t is types.ModuleType:
        return 'module|' + o.__name__
    if isinstance(o, type):
        if o in (int, float, bool, str, tuple, list, dict, set, range, slice, enumerate, zip, map, filter, reversed, type, object, super, isinstance):
            return 'builtin|' + o.__name__
        import enum
        # calling an Enum class looks a member up: pure, computed at translation time
        return 'class|%d|%s' % (1 if issubclass(o, enum.Enum) else 0, o.__qualname__)
    from ...nn.layer.layers import Layer
    if isinstance(o, Layer):
        return 'layer|' + t.__qualname__
    return 'other|%d|%s' % (_traits(o, t), t.__qualname__)


def _special_call(o, t):
    """psdb helpers, APIs registered with add_break_graph_apis and not_to_static functions are
    modelled builtins of the translator (frontend/python/sot/builtins.ts, 'skiff.*')."""
    from . import psdb
    from .utils.paddle_api_config import BREAK_GRAPH_APIS
    if t is types.FunctionType and o.__module__ == psdb.__name__:
        if o is psdb.breakgraph:
            return 'builtin|skiff.breakgraph'
        if o is psdb.fallback:
            return 'builtin|skiff.fallback'
        if o is psdb.in_sot:
            return 'builtin|skiff.in_sot'
    if BREAK_GRAPH_APIS and BREAK_GRAPH_APIS.get(id(o)) is o:
        return 'builtin|skiff.break_call'
    if (t is types.FunctionType or t is types.MethodType) and getattr(o, '_skiff_not_to_static', False):
        return 'builtin|skiff.break_call'
    if isinstance(o, runtime.StaticFunction):
        # A to_static function called from translated code is its Python function, inlined (as
        # Paddle does): the wrapper's own __call__ is the runtime, never user code to simulate.
        # (runtime.function_parts reads the wrapped function's globals, defaults and closure.)
        if o._eager:
            return 'builtin|skiff.break_call'
        if o._self is not runtime._NO_SELF:
            return 'method|%d|%d' % (remember(o._self), remember(o._target))
        if type(o._target) is types.FunctionType:
            return 'function|%d|%s' % (runtime._code_id(o._target.__code__), o._target.__qualname__)
    return None


def _traits(o, t):
    """Bit flags telling the translator what it may compute about an opaque object at
    translation time: 1 its operators, ==, hash, str and format are pure functions of an
    immutable value (enum members, dtypes, builtin immutables); 2 == is identity; 4 its truth
    value is always True (no __bool__ or __len__); 8 it is an exception (new per call: guarded
    by type, never read at translation time)."""
    import enum
    from ...dtype import DType
    bits = 0
    if isinstance(o, (enum.Enum, DType)) or (t.__module__ == 'builtins' and isinstance(o, _IMMUTABLE_BUILTINS)) \
            or getattr(t, '_skiff_np', 0) == 1 or getattr(t, '_skiff_pure', False):   # numpy scalars (guarded by dtype and value), dtypes
        bits |= 1
    if getattr(t, '__eq__', None) is object.__eq__:
        bits |= 2
    if not hasattr(t, '__bool__') and not hasattr(t, '__len__'):
        bits |= 4
    if isinstance(o, BaseException):
        bits |= 8
    return bits


_IMMUTABLE_BUILTINS = (int, float, complex, str, bytes, bool, tuple, frozenset, range, slice, type(None), type(Ellipsis),
                       type(NotImplemented), type, types.BuiltinFunctionType, types.FunctionType, types.ModuleType, types.CodeType)


def plain_attr(oid, name):
    """Whether obj.name = v just stores v where obj.name reads it back (no property or custom
    __setattr__ other than Layer's registry routing), so the translator may model the write."""
    o = OBJECTS[oid]
    t = type(o)
    from ...nn.layer.layers import Layer
    if t.__setattr__ is not object.__setattr__ and t.__setattr__ is not Layer.__setattr__:
        return False
    for klass in t.__mro__:
        d = klass.__dict__.get(name)
        if d is not None:
            return not hasattr(type(d), '__set__') or type(d).__name__ == 'member_descriptor'
    return True




_HEAPTYPE = 1 << 9


def plain_class(oid):
    """1 when instances of the class are plain Python objects the translator may build itself
    (frontend/python/sot/user_objects.ts): type is the metaclass, object.__new__ allocates, every
    class in the MRO but object is a Python class without __slots__, and attribute access is
    object's own (no __setattr__ / __getattribute__ / __delattr__ override)."""
    c = OBJECTS[oid]
    if type(c) is not type or c.__new__ is not object.__new__:
        return 0
    mro = c.__mro__
    if mro[-1] is not object or any(not (k.__flags__ & _HEAPTYPE) or '__slots__' in k.__dict__ for k in mro[:-1]):
        return 0
    if c.__setattr__ is not object.__setattr__ or c.__getattribute__ is not object.__getattribute__ or c.__delattr__ is not object.__delattr__:
        return 0
    return 1


def instance_attr(oid, name):
    """obj.__dict__[name] encoded, or '' when the instance dict has no such key: what the
    attribute source of a plain entry object (or a super object's binding) reads (frontend/python/sot/fresh_objects.ts),
    re-read on every call to check the node's guards."""
    try:
        o = OBJECTS[oid]
        if type(o) is super:   # an entry super object: what it binds
            return encode(getattr(o, name)) if name in ('__thisclass__', '__self__') else ''
        d = getattr(o, '__dict__', None)
        if type(d) is not dict or name not in d:
            return ''
        return encode(d[name])
    except BaseException as e:  # noqa: BLE001
        return runtime._error(e)


def class_lookup(cls_oid, name, after_oid):
    """'<kind>;<owner id>;<guard id>;<value>' for `name` looked up in the MRO of a plain class
    (after class `after_oid` when non-zero, as super() does). The guard id is getattr(owner, name)
    now, which the translator re-checks with `is`. kind: none (not found; value: whether the class
    has __getattr__), object (found on object itself), function, static (value: the function),
    property (value: (fget, fset or None)), value (a plain class attribute), data (another data descriptor),
    descriptor (another non-data descriptor)."""
    try:
        c = OBJECTS[cls_oid]
        mro = c.__mro__
        if after_oid:
            mro = mro[mro.index(OBJECTS[after_oid]) + 1:]
        for k in mro:
            if name not in k.__dict__:
                continue
            raw = k.__dict__[name]
            guard = remember(getattr(k, name))
            tr = type(raw)
            if k is object:
                kind, v = 'object', None
            elif tr is types.FunctionType:
                kind, v = 'function', raw
            elif tr is staticmethod:
                kind, v = 'static', raw.__func__
            elif tr is property:
                setter = raw.fset if type(raw.fset) is types.FunctionType else None
                kind, v = ('property', (raw.fget, setter)) if type(raw.fget) is types.FunctionType else ('data', None)
            elif hasattr(tr, '__set__') or hasattr(tr, '__delete__'):
                kind, v = 'data', None
            elif hasattr(tr, '__get__'):
                kind, v = 'descriptor', None
            else:
                kind, v = 'value', raw
            return '%s;%d;%d;%s' % (kind, remember(k), guard, encode(v))
        return 'none;0;0;%s' % encode(any('__getattr__' in k.__dict__ for k in c.__mro__))
    except BaseException as e:  # noqa: BLE001
        return runtime._error(e)



def builtin_type_has_attr(type_name, name):
    """Whether instances of a builtin type (int, str, list, dict, ...) have attribute `name`."""
    t = type(None) if type_name == 'NoneType' else getattr(builtins, type_name)
    return hasattr(t, name)


# ---- helpers the translator asks (translation time only) ----------------------------------------
def dtype_name(oid):
    """The dtype name an object stands for (a paddle dtype, 'float32', float, int, bool), or ''."""
    from ...dtype import DType
    o = OBJECTS[oid]
    if isinstance(o, DType):
        return o.name
    return ''


def dtype_object(name):
    from ...dtype import DTYPES
    return remember(DTYPES[name])


def layer_call_target(oid):
    """What calling a layer runs: its bound forward when it has no hooks, else its __call__."""
    layer = OBJECTS[oid]
    hooks = getattr(layer, '_forward_pre_hooks', None) or getattr(layer, '_forward_post_hooks', None)
    if hooks:
        return remember(layer.__call__)
    fwd = layer.forward
    if isinstance(fwd, runtime.StaticFunction):
        fwd = fwd._fn
    return remember(fwd)


def compat_function(module, name):
    import importlib
    return remember(getattr(importlib.import_module(module), name))


def isinstance_(value_enc, cls_enc):
    return isinstance(decode(value_enc), decode(cls_enc))


def sorted_values(enc):
    return encode(sorted(decode(enc)))


def super_attr(pair_enc, name):
    """'<owner id>;<raw id>;<value>' for getattr(super(cls, obj), name): the class in obj's MRO
    after cls that defines the name, and its raw class-dict value (guarded by the translator)."""
    try:
        cls, obj = decode(pair_enc)
        v = getattr(super(cls, obj), name)
        start = obj if isinstance(obj, type) and issubclass(obj, cls) else type(obj)
        mro = start.__mro__
        owner = raw = None
        for klass in mro[mro.index(cls) + 1:]:
            if name in klass.__dict__:
                owner, raw = klass, getattr(klass, name)
                break
        if owner is None:
            raise AttributeError("'super' object has no attribute '%s'" % name)
        return '%d;%d;%s' % (remember(owner), remember(raw), encode(v))
    except BaseException as e:  # noqa: BLE001
        return runtime._error(e)


def import_module(globals_oid, name, fromlist_enc, level):
    """IMPORT_NAME at translation time, only when nothing would run: an absolute import of a
    module already in sys.modules (with its fromlist names already attributes). '' otherwise."""
    if level != 0 or name not in sys.modules:
        return ''
    fromlist = decode(fromlist_enc)
    mod = sys.modules[name]
    if fromlist:
        if any(not isinstance(n, str) or n == '*' or not hasattr(mod, n) for n in fromlist):
            return ''
        return encode(mod)
    top = sys.modules.get(name.partition('.')[0])
    return encode(top) if top is not None else ''


def builtin_object(name):
    return remember(getattr(builtins, name))


class _TensorSample(Tensor):
    """Stands for 'some Tensor' in isinstance checks of symbolic tensors."""
    __slots__ = ()

    def __del__(self):
        pass


TENSOR_SAMPLE = object.__new__(_TensorSample)
