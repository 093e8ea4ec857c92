"""Opcode snippets in Python 3.12+ syntax (PEP 695 generics and `type` aliases), used by
test_sot_opcodes.py on 3.12 and later only: 3.10 and 3.11 cannot parse this file."""

SNIPPETS = []   # (fn, argsets, mode, reason code or None, driver), as in test_sot_opcodes.py


def snippet(*argsets, mode='sot', code=None, driver=None):
    def deco(fn):
        SNIPPETS.append((fn, argsets, mode, code, driver))
        return fn
    return deco


@snippet((3,), mode='eager', code='SOT101')
def class_body(n):
    outer = n * 2

    class C:
        a = 1
        b: int = 2
        c = outer
        tmp = 5
        del tmp

        def m[T](self, v: T) -> T:
            return v

        type Alias = list[int]
    return C.a + C.b + C.c + C().m(1)


@snippet((3,))
def generic_function(n):
    def ident[T: int](v: T) -> T:
        return v
    return ident(n)
