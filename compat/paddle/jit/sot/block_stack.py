"""CPython 3.10's block stack as a static handler table (frontend/python/sot/code.ts handlerAt).

3.10 has no exception table: SETUP_FINALLY / SETUP_WITH push a block (handler, stack level) at
run time, POP_BLOCK pops it, and entering a handler pushes an EXCEPT_HANDLER block that
POP_EXCEPT pops. The compiler emits structured code, so the block stack and the stack depth at
each instruction are the same on every path reaching it; this walks the code once (stack
effects from dis.stack_effect, or the table below where the interpreter lacks it) and gives, per instruction, the handler an
exception raised there reaches. That lets the translator unwind 3.10 frames as it does 3.11+'s.
"""
import dis

_SETUP = ('SETUP_FINALLY', 'SETUP_WITH', 'SETUP_ASYNC_WITH')
_UNCONDITIONAL = ('JUMP_FORWARD', 'JUMP_ABSOLUTE')
_EXITS = ('RETURN_VALUE', 'RAISE_VARARGS', 'RERAISE')
# entering a 3.10 handler pushes the previous exc_info (tb, value, type) and the exception's
_HANDLER_PUSHES = 6


# Stack effects of 3.10's opcodes (CPython 3.10 compile.c stack_effect), for interpreters built
# without the _opcode module (Pyodide 0.22 has no dis.stack_effect). Opcodes not named here have
# effect 0.
_EFFECT = {
    -1: ('POP_TOP', 'STORE_NAME', 'DELETE_ATTR', 'STORE_GLOBAL', 'COMPARE_OP', 'IMPORT_NAME', 'IS_OP',
         'CONTAINS_OP', 'STORE_FAST', 'GEN_START', 'STORE_DEREF', 'LIST_APPEND', 'SET_ADD', 'MATCH_CLASS',
         'LIST_EXTEND', 'SET_UPDATE', 'DICT_MERGE', 'DICT_UPDATE', 'RETURN_VALUE', 'IMPORT_STAR', 'PRINT_EXPR',
         'YIELD_FROM', 'BINARY_SUBSCR', 'BINARY_POWER', 'BINARY_MULTIPLY', 'BINARY_MATRIX_MULTIPLY',
         'BINARY_MODULO', 'BINARY_ADD', 'BINARY_SUBTRACT', 'BINARY_FLOOR_DIVIDE', 'BINARY_TRUE_DIVIDE',
         'BINARY_LSHIFT', 'BINARY_RSHIFT', 'BINARY_AND', 'BINARY_XOR', 'BINARY_OR', 'INPLACE_POWER',
         'INPLACE_MULTIPLY', 'INPLACE_MATRIX_MULTIPLY', 'INPLACE_MODULO', 'INPLACE_ADD', 'INPLACE_SUBTRACT',
         'INPLACE_FLOOR_DIVIDE', 'INPLACE_TRUE_DIVIDE', 'INPLACE_LSHIFT', 'INPLACE_RSHIFT', 'INPLACE_AND',
         'INPLACE_XOR', 'INPLACE_OR'),
    1: ('DUP_TOP', 'GET_LEN', 'MATCH_MAPPING', 'MATCH_SEQUENCE', 'WITH_EXCEPT_START', 'GET_ANEXT',
        'BEFORE_ASYNC_WITH', 'LOAD_BUILD_CLASS', 'LOAD_ASSERTION_ERROR', 'LOAD_CONST', 'LOAD_NAME',
        'IMPORT_FROM', 'LOAD_GLOBAL', 'LOAD_FAST', 'LOAD_CLOSURE', 'LOAD_DEREF', 'LOAD_CLASSDEREF', 'LOAD_METHOD'),
    2: ('DUP_TOP_TWO', 'MATCH_KEYS'),
    -2: ('STORE_ATTR', 'DELETE_SUBSCR', 'MAP_ADD'),
    -3: ('STORE_SUBSCR', 'RERAISE', 'POP_EXCEPT'),
    -7: ('END_ASYNC_FOR',),
}
_FIXED = {name: n for n, names in _EFFECT.items() for name in names}
_BY_ARG = {
    'UNPACK_SEQUENCE': lambda a: a - 1,
    'UNPACK_EX': lambda a: (a & 0xff) + (a >> 8),
    'BUILD_TUPLE': lambda a: 1 - a, 'BUILD_LIST': lambda a: 1 - a, 'BUILD_SET': lambda a: 1 - a,
    'BUILD_STRING': lambda a: 1 - a,
    'BUILD_MAP': lambda a: 1 - 2 * a,
    'BUILD_CONST_KEY_MAP': lambda a: -a,
    'RAISE_VARARGS': lambda a: -a,
    'CALL_FUNCTION': lambda a: -a,
    'CALL_FUNCTION_KW': lambda a: -a - 1,
    'CALL_METHOD': lambda a: -a - 1,
    'CALL_FUNCTION_EX': lambda a: -1 - (a & 1),
    'MAKE_FUNCTION': lambda a: -1 - bin(a & 0xf).count('1'),
    'BUILD_SLICE': lambda a: -2 if a == 3 else -1,
    'FORMAT_VALUE': lambda a: -1 if a & 0x04 else 0,
}
# (not jumping, jumping)
_JUMPING = {
    'FOR_ITER': (1, -1), 'JUMP_IF_FALSE_OR_POP': (-1, 0), 'JUMP_IF_TRUE_OR_POP': (-1, 0),
    'POP_JUMP_IF_FALSE': (-1, -1), 'POP_JUMP_IF_TRUE': (-1, -1), 'JUMP_IF_NOT_EXC_MATCH': (-2, -2),
    'SETUP_FINALLY': (0, 6), 'SETUP_WITH': (1, 6), 'SETUP_ASYNC_WITH': (0, 5),
}


def _stack_effect(ins, jump=None):
    own = getattr(dis, 'stack_effect', None)
    arg = ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
    if own is not None:
        return own(ins.opcode, arg) if jump is None else own(ins.opcode, arg, jump=jump)
    name = ins.opname
    if name in _JUMPING:
        return _JUMPING[name][1 if jump else 0]
    if name in _BY_ARG:
        return _BY_ARG[name](arg)
    return _FIXED.get(name, 0)


def block_table(code):
    """Rows [start, end, handler, level, except_level] in byte offsets: an exception raised in
    [start, end) cuts the stack to `level` and enters `handler`; except_level is the stack level
    of the outermost EXCEPT_HANDLER block unwound on the way (its saved exc_info, three values
    from there, is what the handler sees as the previous one), or -1. [] when the code has no
    blocks; None on interpreters with an exception table, or when the walk finds paths that
    disagree (the translator then runs the code as plain Python)."""
    if hasattr(dis, '_parse_exception_table'):
        return None
    ins = list(dis.get_instructions(code))
    if not any(i.opname in _SETUP for i in ins):
        return []
    at = {i.offset: k for k, i in enumerate(ins)}
    states = [None] * len(ins)
    work = [(0, 0, ())]
    while work:
        k, depth, blocks = work.pop()
        if k >= len(ins):
            return None
        if states[k] is not None:
            if states[k] != (depth, blocks):
                return None
            continue
        states[k] = (depth, blocks)
        i = ins[k]
        op = i.opname
        if op in _SETUP:
            target = at.get(i.argval)
            if target is None:
                return None
            # SETUP_WITH replaces the manager by its __exit__ first: the level counts that slot
            work.append((k + 1, depth + _stack_effect(i, jump=False), blocks + (('F', i.argval, depth),)))
            work.append((target, depth + _HANDLER_PUSHES, blocks + (('E', depth),)))
            continue
        if op == 'POP_BLOCK':
            if not blocks or blocks[-1][0] != 'F':
                return None
            work.append((k + 1, depth, blocks[:-1]))
            continue
        if op == 'POP_EXCEPT':
            if not blocks or blocks[-1][0] != 'E':
                return None
            work.append((k + 1, depth - 3, blocks[:-1]))
            continue
        if op in _EXITS:
            continue
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
            target = at.get(i.argval)
            if target is None:
                return None
            work.append((target, depth + _stack_effect(i, jump=True), blocks))
            if op in _UNCONDITIONAL:
                continue
            work.append((k + 1, depth + _stack_effect(i, jump=False), blocks))
            continue
        work.append((k + 1, depth + _stack_effect(i), blocks))
    rows = []
    for k, st in enumerate(states):
        if st is None:
            continue
        blocks = st[1]
        j = max((n for n, b in enumerate(blocks) if b[0] == 'F'), default=-1)
        if j < 0:
            continue
        _, handler, level = blocks[j]
        eh = blocks[j + 1][1] if j + 1 < len(blocks) else -1
        start = ins[k].offset
        if rows and rows[-1][1] == start and rows[-1][2:] == [handler, level, eh]:
            rows[-1][1] = start + 2
        else:
            rows.append([start, start + 2, handler, level, eh])
    return rows
