"""Guards on host reads, checked in Python: the function-wide ones before each call of a
StaticFunction (globals, attributes, closure cells read while translating the entry), and the
per-node ones (reads made after a concrete step) when a call reaches that node."""
import builtins
import types

from .encoding import OBJECTS, remember

MISSING = object()
_MISSING = MISSING


_VALUE_TYPES = (int, float, str, bool, bytes, complex, type(None))


def _guards_hold(guards):
    """Whether every read still gives what translation saw. `guards` is (dict_reads, others):
    dict_reads are (dict, name, expected) — global and module-attribute reads, the common case,
    checked by the tight first loop (each check costs ~0.4 µs in Pyodide) — and others are
    (container, name, kind, expected)."""
    dict_reads, others = guards
    for d, name, expected in dict_reads:
        got = d.get(name, _MISSING)
        if got is not expected and not _same(got, expected):
            return False
    for container, name, kind, expected in others:
        if kind == 0:
            got = container.get(name, _MISSING)
        elif kind == 1:
            try:
                got = getattr(container, name)
            except (AttributeError, ValueError):   # ValueError: an empty closure cell
                got = _MISSING
        elif kind == 2:   # a builtin read through a globals dict: not shadowed, and still the same
            got = _MISSING if name in container else getattr(builtins, name, _MISSING)
        else:             # contents of a list/dict, by element identity
            got = expected if _same_contents(container, expected) else _MISSING
        if got is not expected and not _same(got, expected):
            return False
    return True


def _contents(o):
    return tuple(o.items()) if isinstance(o, dict) else tuple(o)


def _same_contents(o, snap):
    cur = _contents(o)
    if len(cur) != len(snap):
        return False
    for a, b in zip(cur, snap):
        if type(a) is tuple:   # dict items
            if a[0] is not b[0] and a[0] != b[0]:
                return False
            a, b = a[1], b[1]
        if a is not b:
            return False
    return True


def _same(got, exp):
    """Whether a re-read global/attribute still means what the translation saw: the same object,
    an equal immutable value (some attributes are computed fresh on every read), or a bound
    method of the same function on the same object."""
    t = type(exp)
    if type(got) is not t:
        return False
    if t in _VALUE_TYPES:
        return got == exp
    if t is types.MethodType or t is types.BuiltinMethodType:
        return got.__self__ is exp.__self__ and getattr(got, '__func__', None) is getattr(exp, '__func__', None) and got.__name__ == exp.__name__
    if t is tuple:
        return len(got) == len(exp) and all(a is b or _same(a, b) for a, b in zip(got, exp))
    return False




def snapshot(oid):
    """Element identities of a list/dict now (its contents guard); returns the snapshot's id."""
    return remember(_contents(OBJECTS[oid]))


def _guard_tuple(guards_json):
    import json
    out = []
    for container, name, kind, value_id in json.loads(guards_json):
        c, v = OBJECTS[container], OBJECTS[value_id]
        # A module attribute found in the module's dict is that dict's entry: a dict lookup (no
        # getattr machinery) checks it. A name that leaves the dict fails the guard (re-translates).
        if kind == 1 and type(c) is types.ModuleType and c.__dict__.get(name, MISSING) is v:
            c, kind = c.__dict__, 0
        out.append((c, name, kind, v))
    dict_reads = tuple((c, n, v) for c, n, k, v in out if k == 0)
    return (dict_reads, tuple(g for g in out if g[2] != 0))


def set_wrapper_guards(wrapper_oid, guards_json):
    """Installs the function-wide guards (globals, attributes, closure cells read while
    translating the entry) on a StaticFunction; it re-checks them before every call."""
    OBJECTS[wrapper_oid]._globals = _guard_tuple(guards_json)


_NODE_GUARDS = {}


def register_guards(guards_json):
    """Host reads made while translating a node after a concrete step (which may have changed
    them): checked when a call reaches that node. Returns the guard set's id."""
    g = _guard_tuple(guards_json)
    gid = id(g)
    _NODE_GUARDS[gid] = g
    return gid


def check_guards(gid):
    return _guards_hold(_NODE_GUARDS[gid])


def drop_guards(gid):
    _NODE_GUARDS.pop(gid, None)
