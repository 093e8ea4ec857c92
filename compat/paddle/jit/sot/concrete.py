"""Concrete implementations of CPython instructions on real values.

The translator performs a graph break by running the instruction it cannot capture here, with
real objects rebuilt from the tagged encoding; later calls replay the same step from the
trace tree. Each function takes the instruction's argument, its resolved constant argument and
its stack operands, and returns the list of values it pushes.
"""
import operator

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
    # [callable, NULL, args, kwargs?] (3.13+) / [NULL, callable, args, kwargs?] (3.12)
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
    if arg & 1:  # method form: callers treat it as [attr, NULL]-like (3.13+) or [NULL, attr] (3.12)
        return [v, _NULL] if info['nullAfterAttr'] else [_NULL, v]
    return [v]


def _binary_subscr(arg, argval, ops, info):
    return [ops[0][ops[1]]]


def _store_subscr(arg, argval, ops, info):
    v, container, key = ops
    container[key] = v
    return []


def _store_attr(arg, argval, ops, info):
    obj, v = ops
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


def _unpack_sequence(arg, argval, ops, info):
    items = list(ops[0])
    if len(items) != arg:
        if len(items) > arg:
            raise ValueError('too many values to unpack (expected %d)' % arg)
        raise ValueError('not enough values to unpack (expected %d, got %d)' % (arg, len(items)))
    return items[::-1]


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
}
