"""Opcode snippets that need module-wide compiler settings (used by test_sot_opcodes.py).

With `from __future__ import annotations`, class-body annotations are stored eagerly through
SETUP_ANNOTATIONS on 3.14 too (3.14's lazy annotations otherwise never emit it). Template
strings (3.14 t'...') cannot appear in a file 3.12 parses, so they are compiled from text on
3.14 only, in the test, never by Skiff."""
from __future__ import annotations

import sys

SNIPPETS = []   # (fn, argsets, mode, reason code, driver), as in test_sot_opcodes.py


def class_annotations(n):
    class C:
        a: int = 1
        b: str
    return C.a + n + len(C.__annotations__)


SNIPPETS.append((class_annotations, ((2,),), 'eager', 'SOT101', None))

if sys.version_info >= (3, 14):
    _src = (
        'def template_string(n):\n'
        '    name = "v"\n'
        '    tpl = t"{name}={n!r:>4}"\n'
        '    return [type(p).__name__ for p in tpl], tpl.strings\n'
    )
    _ns = {}
    exec(compile(_src, __file__, 'exec'), _ns)
    SNIPPETS.append((_ns['template_string'], ((3,),), 'eager', 'SOT101', None))
