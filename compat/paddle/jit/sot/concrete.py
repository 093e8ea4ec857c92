"""Concrete implementations of CPython instructions on real values.

The translator performs a graph break by running the instruction it cannot capture here, with
real objects rebuilt from the tagged encoding; later calls replay the same step from the
trace tree. Each function takes the instruction's argument, its resolved constant argument and
its stack operands, and returns the list of values it pushes.
"""
import builtins
import operator
import types

_BINARY = {
    '+': operator.add, '&': operator.and_, '//': operator.floordiv, '<<': operator.lshift,
    '@': operator.matmul, '*': operator.mul, '%': operator.mod, '|': operator.or_,
    '**': operator.pow, '>>': operator.rshift, '-': operator.sub, '/': operator.truediv,
    '^': operator.xor,
    '+=': operator.iadd, '&=': operator.iand, '//=': operator.ifloordiv, '<<=': operator.ilshift,
    '@=': operator.imatmul, '*=': operator.imul, '%=': operator.imod, '|=': operator.ior,
    '**=': operator.ipow, '>>=': operator.irshift, '-=': operator.isub, '/=': operator.itruediv,
    '^=': operator.ixor, '[]': operator.getitem,
}
_COMPARE = {'<': operator.lt, '<=': operator.le, '==': operator.eq, '!=': operator.ne, '>': operator.gt, '>=': operator.ge}


def _call(fn, self_or_null, args, kwnames):
    if self_or_null is not _NULL:
        args = (self_or_null,) + tuple(args)
    if kwnames:
        k = len(kwnames)
        return fn(*args[:len(args) - k], **dict(zip(kwnames, args[len(args) - k:])))
    return fn(*args)


from .encoding import NULL as _NULL

NULL = _NULL


def run(opname, arg, argval, ops, info):
    """Runs one instruction; `info` holds interpreter facts (binary op symbols, cmp ops, version)."""
    f = _STEPS.get(opname)
    if f is None:
        raise NotImplementedError('sot: no concrete implementation of %s' % opname)
    return f(arg, argval, ops, info)


def _binary_op(arg, argval, ops, info):
    return [_BINARY[info['binaryOps'][arg]](ops[0], ops[1])]


def _compare_op(arg, argval, ops, info):
    r = _COMPARE[info['cmpOp'][arg >> info['compareShift']]](ops[0], ops[1])
    if info['compareToBool'] and arg & 16:
        r = bool(r)
    return [r]


def _call_op(arg, argval, ops, info):
    # ops: [a, b, *args] in the version's order; argval: kw names tuple or None
    a, b, args = ops[0], ops[1], ops[2:]
    if info['callableFirst']:
        fn, self_ = a, b
    else:
        fn, self_ = (b, _NULL) if a is _NULL else (a, b)
    return [_call(fn, self_, args, argval)]


def _call_kw(arg, argval, ops, info):
    return [_call(ops[0], ops[1], ops[2:-1], ops[-1])]


def _call_ex(arg, argval, ops, info):
    # [callable, NULL, args, kwargs?] (3.13+) / [NULL, callable, args, kwargs?] (3.11, 3.12) / [callable, args, kwargs?] (3.10)
    if not info['callHasNullSlot']:
        ops = [_NULL] + list(ops)
    if info['callableFirst']:
        fn, args = ops[0], ops[2]
    else:
        fn, args = ops[1], ops[2]
    kwargs = ops[3] if len(ops) > 3 and ops[3] is not None and ops[3] is not _NULL else {}
    return [fn(*args, **kwargs)]


def _to_bool(arg, argval, ops, info):
    return [bool(ops[0])]


def _unary(f):
    return lambda arg, argval, ops, info: [f(ops[0])]


def _load_attr(arg, argval, ops, info):
    v = getattr(ops[0], argval)
    if info['attrMethodBit'] and arg & 1:  # method form: callers treat it as [attr, NULL]-like (3.13+) or [NULL, attr] (3.12)
        return [v, _NULL] if info['nullAfterAttr'] else [_NULL, v]
    return [v]


def _binary_subscr(arg, argval, ops, info):
    return [ops[0][ops[1]]]


def _store_subscr(arg, argval, ops, info):
    v, container, key = ops
    container[key] = v
    return []


def _store_attr(arg, argval, ops, info):
    v, obj = ops   # STORE_ATTR: the object on top, the value below it
    setattr(obj, argval, v)
    return []


def _delete_attr(arg, argval, ops, info):
    delattr(ops[0], argval)
    return []


def _contains(arg, argval, ops, info):
    r = ops[0] in ops[1]
    return [(not r) if arg else r]


def _format_simple(arg, argval, ops, info):
    return [format(ops[0])]


def _format_spec(arg, argval, ops, info):
    return [format(ops[0], ops[1])]


def _convert(arg, argval, ops, info):
    return [(str, repr, ascii)[arg - 1](ops[0])]


_UNPACKERS = {}


def _unpacker(before, after, star):
    """A function doing `v0, .., *vk, .., vn = s; return (v0, .., vn)`, so unpacking raises
    exactly CPython's errors. Built as an AST (never from text) and cached per shape."""
    key = (before, after, star)
    f = _UNPACKERS.get(key)
    if f is None:
        import ast
        names = ['v%d' % i for i in range(before + after + (1 if star else 0))]
        targets = [ast.Name(n, ast.Store()) for n in names]
        if star:
            targets[before] = ast.Starred(ast.Name(names[before], ast.Store()), ast.Store())
        body = [ast.Assign(targets=[ast.Tuple(targets, ast.Store())], value=ast.Name('s', ast.Load())),
                ast.Return(ast.Tuple([ast.Name(n, ast.Load()) for n in names], ast.Load()))]
        args = ast.arguments(posonlyargs=[], args=[ast.arg('s')], kwonlyargs=[], kw_defaults=[], defaults=[])
        fn = ast.FunctionDef(name='unpack', args=args, body=body, decorator_list=[], returns=None, type_params=[])
        mod = ast.fix_missing_locations(ast.Module([fn], type_ignores=[]))
        code = next(c for c in compile(mod, __file__, 'exec').co_consts if isinstance(c, types.CodeType))
        f = _UNPACKERS[key] = types.FunctionType(code, {})
    return f


def _unpack_sequence(arg, argval, ops, info):
    return list(_unpacker(arg, 0, False)(ops[0]))[::-1]


def _unpack_ex(arg, argval, ops, info):
    return list(_unpacker(arg & 0xFF, arg >> 8, True)(ops[0]))[::-1]


def _get_iter(arg, argval, ops, info):
    return [tuple(ops[0])]


def _skiff_iter(arg, argval, ops, info):
    return [iter(ops[0])]


def _skiff_for_iter(arg, argval, ops, info):
    it = ops[0]
    try:
        v = next(it)
    except StopIteration:
        return [it, False, None]
    return [it, True, v]


def _raise(arg, argval, ops, info):
    if not ops:
        raise RuntimeError('No active exception to reraise')
    if len(ops) == 2:
        raise ops[0] from ops[1]
    raise ops[0]


def _is_op(arg, argval, ops, info):
    r = ops[0] is ops[1]
    return [(not r) if arg else r]


def _format_value(arg, argval, ops, info):
    # 3.12: arg & 3 = conversion (str, repr, ascii), arg & 4 = a format spec on top
    v = ops[0]
    if arg & 3:
        v = (str, repr, ascii)[(arg & 3) - 1](v)
    return [format(v, ops[1]) if arg & 4 else format(v)]


def _build_string(arg, argval, ops, info):
    return [''.join(ops)]


_INTRINSIC_1 = {'INTRINSIC_UNARY_POSITIVE': operator.pos, 'INTRINSIC_LIST_TO_TUPLE': tuple}


def _intrinsic_1(arg, argval, ops, info):
    return [_INTRINSIC_1[argval](ops[0])]


def _load_super_attr(arg, argval, ops, info):
    glob_super, cls, self_ = ops
    # As CPython: the builtin super gets (cls, self) in both forms; a shadowing global gets
    # them only in the two-argument form (arg & 2).
    if glob_super is builtins.super or arg & 2:
        v = getattr(glob_super(cls, self_), argval)
    else:
        v = getattr(glob_super(), argval)
    if arg & 1:
        return [v, _NULL] if info['nullAfterAttr'] else [_NULL, v]
    return [v]


def _delete_subscr(arg, argval, ops, info):
    del ops[0][ops[1]]
    return []


def _binary_slice(arg, argval, ops, info):
    return [ops[0][ops[1]:ops[2]]]


def _store_slice(arg, argval, ops, info):
    v, container, start, stop = ops
    container[start:stop] = v
    return []


def _build_map(arg, argval, ops, info):
    return [dict(zip(ops[0::2], ops[1::2]))]


def _build_const_key_map(arg, argval, ops, info):
    return [dict(zip(ops[-1], ops[:-1]))]


def _build_set(arg, argval, ops, info):
    return [set(ops)]


def _peek(f):
    """A container instruction on the value `arg` entries down (CPython's PEEK(oparg))."""
    def step(arg, argval, ops, info):
        f(ops[0], ops[-1])
        return ops[:-1]
    return step


def _iterable(v):
    try:
        iter(v)
    except TypeError:
        raise TypeError('Value after * must be an iterable, not %s' % type(v).__name__) from None
    return v


def _map_add(arg, argval, ops, info):
    ops[0][ops[-2]] = ops[-1]
    return ops[:-2]


def _dict_update(d, other):
    try:
        d.update(other)
    except AttributeError:
        raise TypeError("'%s' object is not a mapping" % type(other).__name__) from None


def _function_str(f):
    qual = getattr(f, '__qualname__', None)
    if qual is None:
        return type(f).__name__ + ' object'
    mod = getattr(f, '__module__', None)
    if isinstance(mod, str) and mod != 'builtins':
        return '%s.%s()' % (mod, qual)
    return qual + '()'


def _dict_merge(arg, argval, ops, info):
    # ops: [callable pair (version order), positional args, dict, ..., other]
    if not info['callHasNullSlot']:   # 3.10: [callable, positional args, dict, ..., other]
        ops = [ops[0], _NULL] + list(ops[1:])
        fn = ops[0]
    else:
        fn = ops[0] if info['callableFirst'] else ops[1]
    d, other = ops[3], ops[-1]
    if not hasattr(other, 'keys'):
        raise TypeError('%s argument after ** must be a mapping, not %s' % (_function_str(fn), type(other).__name__))
    for k in other.keys():
        if k in d:
            raise TypeError('%s got multiple values for keyword argument %r' % (_function_str(fn), k))
        d[k] = other[k]
    return ops[:-1]


def _load_global(arg, argval, ops, info):
    g, name = argval
    if name in g:
        v = g[name]
    else:
        b = g.get('__builtins__', builtins)
        b = b if isinstance(b, dict) else b.__dict__
        if name not in b:
            raise NameError("name '%s' is not defined" % name)
        v = b[name]
    if info['globalNullBit'] and arg & 1:
        return [v, _NULL] if info['callableFirst'] else [_NULL, v]
    return [v]


def _delete_global(arg, argval, ops, info):
    g, name = argval
    if name not in g:
        raise NameError("name '%s' is not defined" % name)
    del g[name]
    return []


def _import_name(arg, argval, ops, info):
    g, name = argval
    level, fromlist = ops
    return [builtins.__import__(name, g, None, fromlist, level)]


def _import_from(arg, argval, ops, info):
    mod = ops[0]
    try:
        return [mod, getattr(mod, argval)]
    except AttributeError:
        pass
    import sys
    full = '%s.%s' % (getattr(mod, '__name__', '?'), argval)
    if full in sys.modules:
        return [mod, sys.modules[full]]
    name = getattr(mod, '__name__', '?')
    where = getattr(mod, '__file__', None) or 'unknown location'
    raise ImportError('cannot import name %r from %r (%s)' % (argval, name, where), name=name, path=getattr(mod, '__file__', None))


def _skiff_raise(arg, argval, ops, info):
    kind, message = argval
    raise getattr(builtins, kind, RuntimeError)(message)


_NEW = {
    'range': range, 'slice': slice, 'set': set, 'iter': iter, 'super': super, 'list': list, 'dict': dict,
    'cell': lambda *v: types.CellType(*v),
    'keys': dict.keys, 'values': dict.values, 'items': dict.items,
    # a namedtuple class's generated __new__ is exactly this (checked by the translator)
    'namedtuple': lambda cls, items: tuple.__new__(cls, items),
    # an instance of a plain class made in translated code (queries.plain_class): its __dict__ as simulated
    'object': lambda cls, attrs: _new_object(cls, attrs),
    # a copy per run of a constant tensor the traced code made (frontend/python/sot/to_tensor.ts)
    'clone': lambda t: t.clone(),
}


def _new_object(cls, attrs):
    o = object.__new__(cls)
    o.__dict__.update(attrs)
    return o


def _skiff_new(arg, argval, ops, info):
    return [_NEW[argval](*ops)]


def _make_function(arg, argval, ops, info):
    code, globals_, qualname, defaults, kwdefaults, closure = ops
    f = types.FunctionType(code, globals_, code.co_name, defaults or None, closure or None)
    f.__qualname__ = qualname
    if kwdefaults:
        f.__kwdefaults__ = kwdefaults
    return [f]


def _cell_get(arg, argval, ops, info):
    try:
        return [ops[0].cell_contents]
    except ValueError:
        return [_NULL]


def _cell_del(arg, argval, ops, info):
    del ops[0].cell_contents
    return []


def _delattr(arg, argval, ops, info):
    delattr(ops[0], ops[1])
    return []


def _list_replace(arg, argval, ops, info):
    ops[0][:] = ops[1]
    return []


def _dict_replace(arg, argval, ops, info):
    ops[0].clear()
    ops[0].update(ops[1])
    return []


def _store_global(arg, argval, ops, info):
    globals_, name, v = ops
    globals_[name] = v
    return []


def _delete_global(arg, argval, ops, info):
    del ops[0][ops[1]]
    return []


def _cell_set(arg, argval, ops, info):
    ops[0].cell_contents = ops[1]
    return []


def _setattr(arg, argval, ops, info):
    setattr(ops[0], ops[1], ops[2])
    return []


def _tensor_write(arg, argval, ops, info):
    """A functionalized inplace write reaching a real tensor: its storage takes the graph's
    value (views and bases of it see the change, as after the eager inplace op)."""
    ops[0].set_value(ops[1])
    return []


def _setitem(arg, argval, ops, info):
    ops[0][ops[1]] = ops[2]
    return []


_STEPS = {
    'BINARY_OP': _binary_op,
    'COMPARE_OP': _compare_op,
    'CALL': _call_op,
    'CALL_KW': _call_kw,
    'CALL_FUNCTION_EX': _call_ex,
    'TO_BOOL': _to_bool,
    'POP_JUMP_IF_TRUE': _to_bool,
    'POP_JUMP_IF_FALSE': _to_bool,
    'UNARY_NEGATIVE': _unary(operator.neg),
    'UNARY_INVERT': _unary(operator.invert),
    'UNARY_NOT': _unary(operator.not_),
    'LOAD_ATTR': _load_attr,
    'BINARY_SUBSCR': _binary_subscr,
    'STORE_SUBSCR': _store_subscr,
    'STORE_ATTR': _store_attr,
    'DELETE_ATTR': _delete_attr,
    'CONTAINS_OP': _contains,
    'FORMAT_SIMPLE': _format_simple,
    'FORMAT_WITH_SPEC': _format_spec,
    'CONVERT_VALUE': _convert,
    'UNPACK_SEQUENCE': _unpack_sequence,
    'GET_ITER': _get_iter,
    'SKIFF_ITER': _skiff_iter,
    'SKIFF_FOR_ITER': _skiff_for_iter,
    'RAISE_VARARGS': _raise,
    'SKIFF_LIST_REPLACE': _list_replace,
    'SKIFF_DICT_REPLACE': _dict_replace,
    'SKIFF_STORE_GLOBAL': _store_global,
    'SKIFF_DELETE_GLOBAL': _delete_global,
    'SKIFF_CELL_SET': _cell_set,
    'SKIFF_SETATTR': _setattr,
    'SKIFF_SETITEM': _setitem,
    'SKIFF_TENSOR_WRITE': _tensor_write,
    'SKIFF_DELATTR': _delattr,
    'SKIFF_CELL_DEL': _cell_del,
    'SKIFF_CELL_GET': _cell_get,
    'SKIFF_NEW': _skiff_new,
    'SKIFF_MAKE_FUNCTION': _make_function,
    'SKIFF_RAISE': _skiff_raise,
    'IS_OP': _is_op,
    'FORMAT_VALUE': _format_value,
    'BUILD_STRING': _build_string,
    'CALL_INTRINSIC_1': _intrinsic_1,
    'LOAD_SUPER_ATTR': _load_super_attr,
    'DELETE_SUBSCR': _delete_subscr,
    'BINARY_SLICE': _binary_slice,
    'STORE_SLICE': _store_slice,
    'UNPACK_EX': _unpack_ex,
    'BUILD_MAP': _build_map,
    'BUILD_CONST_KEY_MAP': _build_const_key_map,
    'BUILD_SET': _build_set,
    'LIST_APPEND': _peek(lambda lst, v: lst.append(v)),
    'LIST_EXTEND': _peek(lambda lst, v: lst.extend(_iterable(v))),
    'SET_ADD': _peek(lambda st, v: st.add(v)),
    'SET_UPDATE': _peek(lambda st, v: st.update(v)),
    'MAP_ADD': _map_add,
    'DICT_UPDATE': _peek(_dict_update),
    'DICT_MERGE': _dict_merge,
    'LOAD_GLOBAL': _load_global,
    'DELETE_GLOBAL': _delete_global,
    'IMPORT_NAME': _import_name,
    'IMPORT_FROM': _import_from,
}


# ---- 3.10 / 3.11 opcodes (frontend/python/handlers/legacy.ts) ----
def _call_function(arg, argval, ops, info):
    return [ops[0](*ops[1:])]


def _call_function_kw(arg, argval, ops, info):
    return [_call(ops[0], _NULL, ops[1:-1], ops[-1])]


def _call_method(arg, argval, ops, info):
    # [meth|NULL, self|callable, args...], 3.12's CALL layout
    a, b, args = ops[0], ops[1], ops[2:]
    fn, self_ = (b, _NULL) if a is _NULL else (a, b)
    return [_call(fn, self_, args, None)]


def _load_method(arg, argval, ops, info):
    return [_NULL, getattr(ops[0], argval)]


# 3.10's one opcode per operator: BINARY_ADD is '+', INPLACE_ADD '+='
_LEGACY_OPS = {'ADD': '+', 'AND': '&', 'FLOOR_DIVIDE': '//', 'LSHIFT': '<<', 'MATRIX_MULTIPLY': '@', 'MULTIPLY': '*',
               'MODULO': '%', 'OR': '|', 'POWER': '**', 'RSHIFT': '>>', 'SUBTRACT': '-', 'TRUE_DIVIDE': '/', 'XOR': '^'}


def _legacy_binary(sym):
    f = _BINARY[sym]
    return lambda arg, argval, ops, info: [f(ops[0], ops[1])]


_STEPS.update({
    'CALL_FUNCTION': _call_function,
    'CALL_FUNCTION_KW': _call_function_kw,
    'CALL_METHOD': _call_method,
    'LOAD_METHOD': _load_method,
    'UNARY_POSITIVE': _unary(operator.pos),
    'LIST_TO_TUPLE': _unary(tuple),
})
for _name, _sym in _LEGACY_OPS.items():
    _STEPS['BINARY_' + _name] = _legacy_binary(_sym)
    _STEPS['INPLACE_' + _name] = _legacy_binary(_sym + '=')

from .concrete_exc import STEPS as _EXC_STEPS  # noqa: E402
_STEPS.update(_EXC_STEPS)
