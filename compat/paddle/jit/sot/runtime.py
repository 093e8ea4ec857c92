"""Python side of the symbolic opcode translator (frontend/python/sot on the TypeScript side).

`StaticFunction` wraps a function: the first call sends its code object once and gets an id;
every call checks the function-wide global guards here (no crossing), encodes the arguments as
one tagged string and calls TypeScript, which walks the trace tree. TypeScript calls back the
functions at the bottom of this module (describe, code_info, step, ...) with ids and strings.
"""
import builtins
import dis
import linecache
import sys
import types

import _skiff_sot as _ts

from . import concrete
from .block_stack import block_table
from .guards import MISSING as _MISSING, _guards_hold, check_guards, drop_guards, register_guards, set_wrapper_guards, snapshot  # noqa: F401
from .encoding import BY_HANDLE, NULL, OBJECTS, PINS, decode, decode_many, encode, encode_many, remember
from ...tensor import Tensor

_call_ts = _ts.call
_register_ts = _ts.register
_NO_SELF = object()

# The global counter of Layer structure changes (setattr, add_sublayer, train/eval, hooks,
# Tensor.set_value); guards on layers compare it instead of re-reading attributes every call.
from ...nn.layer.layers import STRUCTURE_VERSION as LAYER_VERSION, _changed as bump_layer_version  # noqa: E402


class _Disabled:
    enabled = True


CONFIG = _Disabled()


def _interp_info():
    nb = [sym for _, sym in getattr(dis, '_nb_ops', [])]
    if not nb:   # 3.10: the numbering of frontend/python/bytecode/interp_info.ts (BINARY_OP steps are Skiff's)
        nb = '+ & // << @ * % | ** >> - / ^'.split()
        nb += [s + '=' for s in nb]
    v = sys.version_info
    info = {
        'binaryOps': nb,
        'cmpOp': list(dis.cmp_op),
        'compareShift': 0 if v < (3, 12) else 4 if v < (3, 13) else 5,
        'compareToBool': v >= (3, 13),
        'callableFirst': v >= (3, 13),
        'nullAfterAttr': v >= (3, 13),
        # frontend/python/sot/versions.ts: the bit-0 flags of LOAD_ATTR (3.12+) and LOAD_GLOBAL
        # (3.11+), and the NULL slot of CALL_FUNCTION_EX (3.11+)
        'attrMethodBit': v >= (3, 12),
        'globalNullBit': v >= (3, 11),
        'callHasNullSlot': v >= (3, 11),
    }
    return info


INFO = _interp_info()


_DEPTH = [0]   # nesting of translated calls (a concrete step may call another translated function)


class GuardFailure(Exception):
    pass


class StaticFunction:
    """A function (or bound method) translated by the SOT on its calls."""

    # Registration flags besides full_graph (1): 2 for symbolic_translate's errors (translate.py).
    _REGISTER_FLAGS = 0

    def __init__(self, fn, input_spec=None, full_graph=False):
        self._fn = fn
        # A bound method is translated as its function with `self` as the first argument.
        self._self = fn.__self__ if isinstance(fn, types.MethodType) else _NO_SELF
        self._target = fn.__func__ if isinstance(fn, types.MethodType) else fn
        self._input_spec = input_spec
        self._full_graph = full_graph
        self._fid = 0
        # not_to_static / sot.skip_function: never translated
        self._eager = bool(getattr(self._target, '_skiff_not_to_static', False))
        self._globals = ()      # function-wide guards: (dict reads, other reads), see guards._guards_hold
        self.__wrapped__ = fn
        self.__name__ = getattr(fn, '__name__', 'fn')
        self.__qualname__ = getattr(fn, '__qualname__', self.__name__)
        self.__doc__ = getattr(fn, '__doc__', None)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        bound = type(self)(self._fn.__get__(obj, objtype), self._input_spec, self._full_graph)
        # cache per instance so translations are reused across calls
        try:
            obj.__dict__[self.__name__] = bound
        except (AttributeError, TypeError):
            pass
        return bound

    @property
    def dygraph_function(self):
        return self.__wrapped__

    def __call__(self, *args, **kwargs):
        if not CONFIG.enabled or self._eager:
            return self._fn(*args, **kwargs)
        fid = self._fid
        if not fid:
            fid = self._fid = _register_ts(remember(self._target), remember(self), (1 if self._full_graph else 0) | self._REGISTER_FLAGS)
            if fid < 0:
                self._eager = True
                return self._fn(*args, **kwargs)
            if self._input_spec:
                _ts.set_input_spec(fid, _spec_json(self._input_spec), 0 if self._self is _NO_SELF else 1)
        call_args = args if self._self is _NO_SELF else (self._self,) + args
        if self._globals and not _guards_hold(self._globals):
            _ts.invalidate(fid)
            self._globals = ()
        # Numeric fast path: tensors and plain objects (a Layer) cross as numbers, no string:
        # [layer version, bit i set when argument i is an object, then handles and ids]. The
        # sign cannot tell them apart: a tensor of 64 KiB or more has a negative handle.
        codes = None if kwargs or len(call_args) > 30 else [LAYER_VERSION[0], 0]
        if codes is not None:
            bit = 1
            for a in call_args:
                t = type(a)
                if t is Tensor or isinstance(a, Tensor):
                    h = a._h
                    if not h:
                        codes = None
                        break
                    BY_HANDLE[h] = a
                    codes.append(h)
                elif t in _SLOW_TYPES or isinstance(a, (tuple, list, dict)) or getattr(t, '_skiff_np', 0):
                    codes = None
                    break
                else:
                    codes[1] |= bit
                    codes.append(remember(a))
                bit <<= 1
        if codes is not None:
            r, result = _cross(_call_fast_ts, fid, *codes)
        else:
            out = ['i%d;' % LAYER_VERSION[0]]
            for a in call_args:
                _enc(a, out)
            if kwargs:
                out.append('D0;{')
                for k, v in kwargs.items():
                    out.append('s%d:' % len(k))
                    out.append(k)
                    _enc(v, out)
                out.append('}')
            r, result = _cross(_call_ts, fid, ''.join(out), len(call_args))
        if r == 'F':          # the function was marked eager (fallback) during this call
            self._eager = True
            return self._fn(*args, **kwargs)
        if r == 'N':          # psdb.fallback(recursive=False): eager, its callees translated
            self._eager = True
            self._fn = _calls_translated(self._fn)
            return self._fn(*args, **kwargs)
        if r == 'X':          # could not bind the arguments: Python raises the same TypeError
            return self._fn(*args, **kwargs)
        return result


def _calls_translated(fn):
    """psdb.fallback(recursive=False), as in Paddle: fn's own code runs as plain Python while the
    plain Python functions it reads from its globals are translated, each on its own. A copy of
    fn reads its globals through _TranslatingGlobals. When fn's code (or code nested in it)
    writes globals or calls globals(), no copy is faithful: fn itself runs, its callees as plain
    Python too (recursive=True's behaviour; results are eager's either way)."""
    func = fn.__func__ if isinstance(fn, types.MethodType) else fn
    if type(func) is not types.FunctionType or not _reads_globals_only(func.__code__):
        return fn
    called = _callee_only_names(func.__code__)
    if not called:
        return fn
    copy = types.FunctionType(func.__code__, _TranslatingGlobals(func.__globals__, called), func.__name__,
                              func.__defaults__, func.__closure__)
    copy.__kwdefaults__ = func.__kwdefaults__
    copy.__qualname__ = func.__qualname__
    copy.__module__ = func.__module__
    copy.__doc__ = func.__doc__
    copy.__dict__.update(func.__dict__)
    return types.MethodType(copy, fn.__self__) if isinstance(fn, types.MethodType) else copy


def _reads_globals_only(code):
    if 'globals' in code.co_names:
        return False
    for ins in dis.get_instructions(code):
        if ins.opname in ('STORE_GLOBAL', 'DELETE_GLOBAL', 'STORE_NAME', 'DELETE_NAME'):
            return False
    return all(_reads_globals_only(c) for c in code.co_consts if isinstance(c, types.CodeType))


_CALLS = frozenset(('CALL', 'CALL_KW', 'CALL_FUNCTION', 'CALL_FUNCTION_KW', 'CALL_METHOD'))
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, 'hasjump', ()))


def _callee_only_names(code):
    """Global names that code (and code nested in it) reads only to call them right away: at
    each LOAD_GLOBAL, the value is consumed by a call whose result lands where it was pushed
    (it was the callee, not an argument, an operand or a stored value). Only those may be
    handed out translated: anything else could see the wrapper (`f is g`, `d = f`, `map(f, xs)`).
    A jump before the consuming instruction counts as another use (conservative)."""
    from .block_stack import _stack_effect
    good, bad = set(), set()

    def scan(c):
        ins = [i for i in dis.get_instructions(c) if i.opname != 'CACHE']
        for k, x in enumerate(ins):
            if x.opname != 'LOAD_GLOBAL':
                continue
            depth = _stack_effect(x)   # relative to the stack before the load
            called = False
            for y in ins[k + 1:]:
                if y.opcode in _JUMPS:
                    break
                depth += _stack_effect(y)
                if depth <= 1:
                    called = y.opname in _CALLS and depth == 1
                    break
            (good if called else bad).add(x.argval)
        for sub in c.co_consts:
            if isinstance(sub, types.CodeType):
                scan(sub)
    scan(code)
    return frozenset(good - bad)


_OWN_MODULES = ('paddle', 'numpy', '_skiff', '_skiff_sot')


class _TranslatingGlobals(dict):
    """Globals of a non-recursive fallback's copy: every read goes to the real globals (LOAD_GLOBAL
    calls __getitem__ of a dict subclass; a KeyError sends it on to the builtins), and a plain
    Python function read there under a name the code only calls comes back translated (symbolic_translate: one wrapper per
    function, so the cache is shared with other callers). Skiff's own functions stay as they
    are. No code run with these globals writes them (_reads_globals_only)."""
    __slots__ = ('_real', '_called')

    def __init__(self, real, called):
        super().__init__()
        self._real = real
        self._called = called
        # names CPython reads from the mapping itself rather than through __getitem__
        for k in ('__builtins__', '__name__', '__file__', '__package__', '__spec__', '__loader__'):
            if k in real:
                dict.__setitem__(self, k, real[k])

    def __getitem__(self, name):
        v = self._real[name]
        if name in self._called and type(v) is types.FunctionType and (getattr(v, '__module__', None) or '').split('.')[0] not in _OWN_MODULES:
            from . import symbolic_translate
            return symbolic_translate(v)
        return v


def _spec_json(input_spec):
    """The dynamic dims of an input_spec: [[argument index, item path..., [dims]], ...] for each
    InputSpec with None/-1 dims (nested lists/tuples of specs follow the argument's structure)."""
    import json
    out = []

    def walk(spec, path):
        if isinstance(spec, (list, tuple)) and not hasattr(spec, 'shape'):
            for i, x in enumerate(spec):
                walk(x, path + [i])
            return
        shape = getattr(spec, 'shape', None)
        if shape is None:
            return
        dims = [i for i, d in enumerate(shape) if d is None or (isinstance(d, int) and d < 0)]
        if dims:
            out.append(path + [dims])
    for i, spec in enumerate(input_spec):
        walk(spec, [i])
    return json.dumps(out)


def _cross(send, *payload):
    """One call into TypeScript: (its raw answer, the decoded result). A tensor result of the
    numeric form comes back as a bare handle; an exception pending in Python is raised here."""
    _DEPTH[0] += 1
    try:
        r = send(*payload)
        if type(r) is int:
            # the argument that already has this handle, or a new owner
            o = BY_HANDLE.get(r)
            if o is not None and o._h == r:
                _release(r)
                result = o
            else:
                result = _wrap(r)
        else:
            # the result may name per-call objects by id: decode it before they are forgotten
            result = decode(r) if r[0] != 'E' and r != 'F' and r != 'N' and r != 'X' else None
    finally:
        _DEPTH[0] -= 1
        if not _DEPTH[0]:
            BY_HANDLE.clear()
    # Per-call objects are forgotten when the outermost call ends: a translated call nested in a
    # concrete step of another must not drop objects the outer call still refers to by id.
    if not _DEPTH[0] and len(OBJECTS) > len(PINS):
        end_call()
    if type(r) is not int and r[0] == 'E':
        _raise_pending(r)
    return r, result


from .encoding import enc as _enc  # noqa: E402
from ...tensor import _wrap  # noqa: E402
from ..._bridge import release as _release  # noqa: E402

_call_fast_ts = _ts.call_fast
# Argument types that need the tagged string form (their Python type must survive the crossing).
_SLOW_TYPES = frozenset([int, float, bool, str, bytes, complex, type(None), tuple, list, dict, set, frozenset, slice, range])


# ---- errors crossing back to the caller ---------------------------------------------------------
_PENDING = [None]


def _raise_pending(r):
    exc = _PENDING[0]
    _PENDING[0] = None
    if exc is None:
        kind, _, msg = r[1:].partition('\x01')
        if kind == 'InnerError':   # a psdb check failed (paddle.jit.sot.psdb)
            from .utils.exceptions import InnerError as cls
        else:
            cls = getattr(builtins, kind, RuntimeError)
        exc = cls(msg)
    raise exc.with_traceback(exc.__traceback__)


def _user_frame_raiser(filename, lineno, name):
    """A function whose frame reports the user's file and line, so tracebacks show the user's
    source line for errors raised by concrete steps. Built structurally with code.replace."""
    def _raise(e):
        raise e
    more = {'co_qualname': name} if sys.version_info >= (3, 11) else {}   # (3.10 code has no qualname)
    code = _raise.__code__.replace(co_filename=filename, co_name=name, co_firstlineno=max(1, lineno - 1), **more)
    return types.FunctionType(code, {})


# ---- called from TypeScript ---------------------------------------------------------------------
def code_info(oid):
    """JSON-able description of a function's code object (sent once per code object)."""
    import json
    obj = OBJECTS[oid]
    code = obj if isinstance(obj, types.CodeType) else obj.__code__
    remember(code)
    kinds = []
    names = list(code.co_varnames)
    for n in code.co_cellvars:
        if n not in names:
            names.append(n)
    cells = set(code.co_cellvars)
    for n in code.co_varnames:
        kinds.append('c' if n in cells else 'l')
    for n in code.co_cellvars:
        if n not in code.co_varnames:
            kinds.append('c')
    names += list(code.co_freevars)
    kinds += ['f'] * len(code.co_freevars)
    lines = [-1] * (len(code.co_code) // 2)
    if hasattr(code, 'co_positions'):
        for i, pos in enumerate(code.co_positions()):
            if i < len(lines):
                lines[i] = pos[0] if pos[0] is not None else -1
    else:   # 3.10: line ranges by byte offset
        for start, end, line in code.co_lines():
            for i in range(start // 2, min(end // 2, len(lines))):
                lines[i] = line if line is not None else -1
    return json.dumps({
        'id': id(code), 'name': code.co_name, 'qualname': getattr(code, 'co_qualname', code.co_name),
        'filename': code.co_filename, 'firstlineno': code.co_firstlineno,
        'argcount': code.co_argcount, 'posonlyargcount': code.co_posonlyargcount,
        'kwonlyargcount': code.co_kwonlyargcount, 'flags': code.co_flags,
        'localsplus': names, 'localkinds': ''.join(kinds), 'names': list(code.co_names),
        'cellvars': list(code.co_cellvars),   # 3.10's *_DEREF/LOAD_CLOSURE index cellvars + freevars
        'consts': [_const(c) for c in code.co_consts],
        'code': code.co_code.decode('latin-1'), 'lines': lines,
        'hasExceptionTable': len(getattr(code, 'co_exceptiontable', b'')) > 0,
        'handlers': _handler_targets(code),
        'captureCf': _wants_capture(code),
        'excTable': _exception_table(code),
        'blockTable': block_table(code),   # 3.10: the block stack as a static handler table
    })


def _wants_capture(code):
    """Whether paddle.jit.marker.capture_control_flow marked this code object."""
    from .. import marker
    return code in marker._CAPTURE_CODES


def _const(c):
    """A constant of a code object; objects among them (frozensets, slices, code objects, also
    inside tuples) stay pinned as long as the translator caches the code."""
    _pin_objects(c)
    return encode(c)


def _pin_objects(c):
    t = type(c)
    if t is tuple:
        for x in c:
            _pin_objects(x)
    elif t not in (int, float, str, bool, type(None)) and not isinstance(c, Tensor):
        if id(c) not in PINS:
            pin(remember(c))


def _handler_targets(code):
    """Byte offsets of the exception handlers, from the interpreter's own table parser."""
    parse = getattr(dis, '_parse_exception_table', None)
    if parse is None or not getattr(code, 'co_exceptiontable', b''):
        return [] if parse is not None else None
    return sorted({e.target for e in parse(code)})


def _exception_table(code):
    """The exception table as [start, end, target, depth, lasti] rows (byte offsets), from the
    interpreter's own parser; None where there is none to parse (3.10's block stack)."""
    parse = getattr(dis, '_parse_exception_table', None)
    if parse is None:
        return None
    if not getattr(code, 'co_exceptiontable', b''):
        return []
    return [[e.start, e.end, e.target, e.depth, 1 if e.lasti else 0] for e in parse(code)]


def take_exception(frames_json):
    """The exception a failed step left pending, now handled by the translated code's own
    handler: '(layer version, (exc,))' encoded, like a step's result. '' if none. Its traceback
    gets the user's frames at the step (as eager's has them when the handler re-raises it)."""
    e = _PENDING[0]
    _PENDING[0] = None
    if e is None:
        return ''
    import json
    _with_user_frames(e, json.loads(frames_json))
    return encode((LAYER_VERSION[0], (e,)))


def _code_id(code):
    """The id of a code object, kept for good: the translator caches code by id."""
    cid = remember(code)
    if cid not in PINS:
        PINS[cid] = 1
    return cid


def type_id(oid):
    """id() of an object's type, for type guards; the type stays pinned so the id stays its own."""
    t = type(OBJECTS[oid])
    tid = remember(t)
    if tid not in PINS:
        PINS[tid] = 1
    return tid


def type_name(oid):
    return type(OBJECTS[oid]).__qualname__


def get_attr(value_enc, name):
    """getattr on a real value as '<id of the value>;<encoding>'; 'E...' on failure."""
    try:
        v = getattr(decode(value_enc), name)
        return '%d;%s' % (remember(v), encode(v))
    except BaseException as e:  # noqa: BLE001 - every error is reported to the translator
        return _error(e)


def global_lookup(globals_oid, name):
    """LOAD_GLOBAL: the globals dict, then builtins. 'E...' (NameError) when missing."""
    g = OBJECTS[globals_oid]
    v = g.get(name, _MISSING)
    if v is _MISSING:
        b = g.get('__builtins__', builtins)
        v = (b.get(name, _MISSING) if isinstance(b, dict) else getattr(b, name, _MISSING))
        if v is _MISSING:
            return _error(NameError("name '%s' is not defined" % name))
        return 'B%d;%s' % (remember(v), encode(v))
    return 'G%d;%s' % (remember(v), encode(v))


def function_parts(oid):
    """Globals, defaults, kwdefaults and closure cell contents of a function (for inlining)."""
    f = OBJECTS[oid]
    if isinstance(f, StaticFunction):   # a to_static function inlined as its Python function (queries.py)
        f = f._target
    pin(remember(f.__globals__))   # the translator refers to the globals dict by id for good
    cells = f.__closure__ or ()
    contents = []
    for c in cells:
        try:
            contents.append(c.cell_contents)
        except ValueError:   # an empty cell: NULL in the encoding
            contents.append(_MISSING)
    import json
    return json.dumps([
        remember(f.__globals__), encode(f.__defaults__ or ()), encode(dict(f.__kwdefaults__ or {})),
        encode(tuple(c for c in cells)),
        encode(tuple(NULL if x is _MISSING else x for x in contents)),
        [remember(x) for x in contents]])


def step(opname, arg, argval_enc, operands_enc):
    """Runs one instruction concretely; returns the encoded tuple of pushed values, prefixed by
    the layer version (which a step may change). Errors return 'E...' and stay pending."""
    try:
        argval = decode(argval_enc) if argval_enc else None
        ops = decode_many(operands_enc) if operands_enc else []
        out = concrete.run(opname, arg, argval, ops, INFO)
        # Tensor objects of this call whose data the step replaced (Tensor.set_value swaps the
        # handle): the translator substitutes the new tensors for the old ones it still holds.
        moved = [(h, o) for h, o in BY_HANDLE.items() if o._h != h]
        if moved:
            for h, o in moved:
                del BY_HANDLE[h]
                BY_HANDLE[o._h] = o
            return encode((LAYER_VERSION[0], tuple(out), tuple(h for h, _ in moved), tuple(o for _, o in moved)))
        return encode((LAYER_VERSION[0], tuple(out)))
    except BaseException as e:  # noqa: BLE001
        return _error(e)


def _strip_internal(e):
    """Drops the translator's own frames from a traceback, keeping the user's."""
    tb = e.__traceback__
    frames = []
    while tb is not None:
        if '/paddle/jit/sot/' not in tb.tb_frame.f_code.co_filename:
            frames.append(tb)
        tb = tb.tb_next
    head = None
    for t in reversed(frames):
        head = types.TracebackType(head, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return e.with_traceback(head)


def _error(e):
    _PENDING[0] = _strip_internal(e)
    return 'E%s\x01%s' % (type(e).__name__, e)


def set_error_location(frames_json):
    """Prefixes the pending exception's traceback with frames at the user's lines: the
    simulated call stack of the break (the translated function and the calls it inlined)."""
    import json
    e = _PENDING[0]
    if e is None:
        return
    frames = json.loads(frames_json)
    sim = [(fr['file'], fr['line'], fr['name']) for fr in frames if fr.get('sim')]
    if sim:   # the simulated stack Paddle's messages show (symbolic_translate: translate.py)
        try:
            e._skiff_sot_simulated = sim
        except AttributeError:   # an exception class with __slots__
            pass
    _PENDING[0] = _with_user_frames(e, frames)


def _with_user_frames(e, frames):
    """e with frames at the user's lines in front of its traceback (outermost first). Frames
    without a line (a re-raise in compiler-made cleanup code) add nothing: the traceback already
    has the line the exception came from."""
    tb = e.__traceback__
    for fr in reversed(frames):
        if fr['line'] < 1:
            continue
        try:
            _user_frame_raiser(fr['file'], fr['line'], fr['name'])(e.with_traceback(None))
        except BaseException as e2:  # noqa: BLE001
            t = e2.__traceback__
            while t.tb_next is not None:
                t = t.tb_next
            tb = types.TracebackType(tb, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return e.with_traceback(tb)


def pin(oid):
    PINS[oid] = PINS.get(oid, 0) + 1


def unpin(oid):
    n = PINS.get(oid, 0) - 1
    if n <= 0:
        PINS.pop(oid, None)
    else:
        PINS[oid] = n


def end_call():
    """Forgets per-call objects: only pinned ones stay."""
    if len(OBJECTS) > len(PINS):
        for k in [k for k in OBJECTS if k not in PINS]:
            del OBJECTS[k]


def source_line(filename, lineno):
    return linecache.getline(filename, lineno).strip()


def reencode(oid):
    """The current contents of a list/dict TypeScript holds by id."""
    return encode(OBJECTS[oid])




def is_library(oid):
    """2 for a private module (or its globals) of Skiff's own paddle package (a component starting
    with '_', e.g. paddle._ops), 1 for a public one, 0 for anything else."""
    o = OBJECTS[oid]
    name = o.get('__name__', '') if isinstance(o, dict) else getattr(o, '__name__', '') if isinstance(o, types.ModuleType) else ''
    if not (isinstance(name, str) and (name == 'paddle' or name.startswith('paddle.'))):
        return 0
    return 2 if any(part.startswith('_') for part in name.split('.')) else 1


# Translation-time questions (describe, super_attr, import_module, ...) live in queries.py;
# TypeScript reaches every entry point as an attribute of this module.
from .queries import (  # noqa: E402,F401
    TENSOR_SAMPLE, builtin_object, compat_function, describe, dtype_name, dtype_object, import_module, isinstance_,
    layer_call_target, plain_attr, sorted_values, super_attr, builtin_type_has_attr, plain_class, class_lookup,
    instance_attr,
)
from .psdb import code_flags as psdb_flags  # noqa: E402,F401  (check_no_breakgraph / check_no_fallback marks)


def train_mode():
    """The mode the last Layer.train()/eval() set (captured graphs record it)."""
    from ...nn.layer.layers import TRAIN_MODE
    return TRAIN_MODE[0]
