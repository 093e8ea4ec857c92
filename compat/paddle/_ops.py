"""The functional API and Tensor methods, generated from the registry's op table at import.

Each op becomes one Python function whose parameters are the op's inputs then its attributes
(Paddle's argument order), binding positional and keyword arguments like a Python signature;
`name=` is accepted and ignored. Calls with only tensors for the leading inputs and defaults
for the rest take a short path (`un` / `bin`); everything else is encoded as one tag string
plus numbers and strings (see frontend/python/bridge.ts `call`).
"""
import inspect
import sys
import types

from . import _bridge, _table
from .dtype import DType, dtype_of
from .tensor import Tensor, _result

_un, _bin, _call, _inplace = _bridge.un, _bridge.bin, _bridge.call, _bridge.inplace


class _Unset:
    __slots__ = ()

    def __repr__(self):
        return '<unset>'


UNSET = _Unset()
_PYTYPE_DTYPES = (float, int, bool)


def _encode(v, tags, vals, who):
    t = type(v)
    if t is Tensor or isinstance(v, Tensor):
        tags.append('t')
        vals.append(v._h)
    elif getattr(t, '_skiff_static', False):
        tags.append('v')   # a paddle.static Variable: the op is recorded into the current program
        vals.append(v._vid)
    elif t is bool:
        tags.append('b')
        vals.append(v)
    elif t is int:
        tags.append('i')
        vals.append(v)
    elif t is float:
        tags.append('f')
        vals.append(v)
    elif v is None:
        tags.append('n')
    elif v is UNSET:
        tags.append('u')
    elif t is str:
        tags.append('s')
        vals.append(v)
    elif t is DType:
        tags.append('s')
        vals.append(v.name)
    elif t is list or t is tuple:
        tags.append('[')
        for x in v:
            _encode(x, tags, vals, who)
        tags.append(']')
    elif v in _PYTYPE_DTYPES:
        tags.append('s')
        vals.append(dtype_of(v).name)
    elif hasattr(v, '__index__'):
        tags.append('i')
        vals.append(v.__index__())
    elif hasattr(v, '__float__'):
        tags.append('f')
        vals.append(float(v))
    else:
        raise TypeError('%s(): unsupported argument of type %s' % (who, t.__name__))


def _signature(entry):
    P = inspect.Parameter
    params = []
    for i in entry['inputs']:
        if i.get('variadic'):
            params.append(P(i['name'], P.POSITIONAL_OR_KEYWORD))
        else:
            params.append(P(i['name'], P.POSITIONAL_OR_KEYWORD, **({'default': None} if i.get('optional') else {})))
    seen_default = any(p.default is not P.empty for p in params)
    for a in entry['attrs']:
        if 'default' in a:
            params.append(P(a['name'], P.POSITIONAL_OR_KEYWORD, default=a['default']))
            seen_default = True
        elif seen_default:
            params.append(P(a['name'], P.KEYWORD_ONLY))
        else:
            params.append(P(a['name'], P.POSITIONAL_OR_KEYWORD))
    params.append(P('name', P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


def make_function(entry, public, inplace=False):
    """A Python function for one op, called `public` in error messages. With `inplace`, the
    op's `<name>_` variant: it writes into input 0 and returns that same object."""
    op = entry['id']
    inputs = entry['inputs']
    attrs = entry['attrs']
    names = [i['name'] for i in inputs] + [a['name'] for a in attrs]
    nparams = len(names)
    index = {n: k for k, n in enumerate(names)}
    aliases = entry.get('aliases') or {}
    required = [k for k, i in enumerate(inputs) if not i.get('optional')]
    required += [len(inputs) + k for k, a in enumerate(attrs) if 'default' not in a]
    multi = entry.get('multi')
    plain = not any(i.get('variadic') for i in inputs)
    # the short paths: leading tensors, everything else optional
    rest_optional = lambda k: all(n not in required for n in range(k, nparams))  # noqa: E731
    fast1 = plain and len(inputs) >= 1 and rest_optional(1)
    fast2 = plain and len(inputs) >= 2 and rest_optional(2)
    pad = [UNSET] * nparams
    written = entry.get('inplace_input', 0)
    rebinds = entry.get('inplace') == 2

    def fn(*args, **kwargs):
        n = len(args)
        if not kwargs and not inplace:
            if n == 1 and fast1:
                x = args[0]
                if isinstance(x, Tensor):
                    return _result(_un(op, x._h), multi)
            elif n == 2 and fast2:
                x, y = args
                if isinstance(x, Tensor) and isinstance(y, Tensor):
                    return _result(_bin(op, x._h, y._h), multi)
        if n > nparams:
            raise TypeError('%s() takes at most %d arguments (%d given)' % (public, nparams, n))
        vals = list(args)
        vals += pad[n:]
        for k, v in kwargs.items():
            if k == 'name':
                continue
            i = index.get(aliases.get(k, k))
            if i is None:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (public, k))
            if i < n:
                raise TypeError("%s() got multiple values for argument '%s'" % (public, names[i]))
            vals[i] = v
        for i in required:
            if vals[i] is UNSET:
                raise TypeError("%s() missing required argument '%s'" % (public, names[i]))
        tags, flat = [], []
        for v in vals:
            _encode(v, tags, flat, public)
        if inplace:
            x = _apply_inplace(public, vals[written], _inplace(op, ''.join(tags), *flat))
            if rebinds:
                x._m = None   # x took over a new shape or dtype (reshape_, equal_)
            return x
        return _result(_call(op, ''.join(tags), *flat), multi)

    fn.__name__ = public.rsplit('.', 1)[-1]
    fn.__qualname__ = fn.__name__
    fn.__module__ = 'paddle'
    fn.__doc__ = "%s(%s)\n\nOp `%s` of Skiff's op registry (generated)." % (fn.__name__, ', '.join(names), entry['name'])
    fn.__signature__ = _signature(entry)
    if inplace:
        # not `_skiff_op`: SOT treats that as a functional op; inplace writes need functionalizing
        fn._skiff_inplace_op = entry['name']
    else:
        fn._skiff_op = entry['name']
    return fn


def _apply_inplace(public, x, r):
    """x after its inplace op: the same object (shape and dtype unchanged, so its cached
    metadata stays valid); a paddle.static Variable is rebound to the recorded value."""
    if r == 1:
        return x
    if not r:
        raise _bridge.error()
    new = _result(r)
    if getattr(type(x), '_skiff_static', False):
        x._vid, new._vid = new._vid, x._vid   # new now holds (and frees) the old id
        x._m = None
        return x
    raise TypeError('%s(): x must be a Tensor, got %s' % (public, type(x).__name__))


def make_method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


FUNCTIONS = {}   # public dotted path below paddle -> function
METHODS = {}     # Tensor method name -> function
BY_OP = {}       # op name -> function
BY_OP_INPLACE = {}   # op name -> its `<name>_` variant (ops flagged inplace)

for _e in _table.OPS:
    _first = (_e['names'] or [_e['name']])[0]
    _fn = make_function(_e, _first)
    BY_OP[_e['name']] = _fn
    for _n in _e['names']:
        FUNCTIONS[_n] = _fn
    for _m in _e['methods']:
        METHODS[_m] = _fn
    if _e.get('inplace'):
        # paddle.add_, paddle.nn.functional.relu_, x.add_(y): as in the TS surface (src/ops/api.ts)
        _fi = make_function(_e, _first + '_', inplace=True)
        BY_OP_INPLACE[_e['name']] = _fi
        for _n in _e['names']:
            FUNCTIONS[_n + '_'] = _fi
        for _m in _e['methods']:
            METHODS[_m + '_'] = _fi


def public(path):
    """The generated function for a public path ('slice', 'nn.functional.relu'), or None."""
    return FUNCTIONS.get(path)


def function(op_name):
    """The generated function of a registry op, or NotImplementedError naming it."""
    f = BY_OP.get(op_name)
    if f is None:
        raise NotImplementedError("Skiff's op registry has no op '%s' yet" % op_name)
    return f


def inplace_function(op_name):
    """The `<name>_` variant of a registry op, or NotImplementedError naming it."""
    f = BY_OP_INPLACE.get(op_name)
    if f is None:
        raise NotImplementedError("Skiff's op registry has no inplace op '%s_' yet" % op_name)
    return f


def provided(path):
    return path in FUNCTIONS


def install(root, protected=()):
    """Puts every generated function into the `paddle` package tree and Tensor methods on Tensor.
    Generated functions replace hand-written fallbacks of the same name (the registry is the one
    definition), except names in `protected`; hand-written Tensor members always win."""
    for path, fn in FUNCTIONS.items():
        parts = path.split('.')
        mod = root
        for k, p in enumerate(parts[:-1]):
            sub = getattr(mod, p, None)
            if sub is None:
                name = '%s.%s' % (root.__name__, '.'.join(parts[:k + 1]))
                sub = sys.modules.get(name) or types.ModuleType(name)
                sys.modules[name] = sub
                setattr(mod, p, sub)
            mod = sub
        if mod is root and parts[-1] in protected:
            continue
        setattr(mod, parts[-1], fn)
    for m, fn in METHODS.items():
        if m not in Tensor.__dict__ and not any(m in c.__dict__ for c in Tensor.__mro__[1:-1]):
            setattr(Tensor, m, make_method(fn))
