"""Runs user code the way `python script.py` and `python -c` do: as __main__, with sys.argv,
Python's exit codes, and tracebacks that start at the user's code."""
import json
import os
import runpy
import sys
import traceback
import types


def flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:
            pass


def _exit_code(e):
    code = e.code
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _user_tb(tb, first_file):
    """Drops the runner's and runpy's frames so the traceback starts at the user's code."""
    t = tb
    while t is not None and t.tb_frame.f_code.co_filename != first_file:
        t = t.tb_next
    return t


_INTERNAL = ('/skiff/compat/paddle/',)


def _trim_internal_tail(tb):
    """Drops the trailing frames inside Skiff's `paddle` package (where a runtime error was
    turned into a Python exception) so the traceback ends at the user's line.
    SKIFF_FULL_TRACEBACK=1 keeps them."""
    if os.environ.get('SKIFF_FULL_TRACEBACK') == '1':
        return tb
    frames = []
    t = tb
    while t is not None:
        frames.append(t)
        t = t.tb_next
    keep = len(frames)
    while keep > 1 and frames[keep - 1].tb_frame.f_code.co_filename.startswith(_INTERNAL):
        keep -= 1
    if keep == len(frames):
        return tb
    # rebuild the chain without the internal tail (traceback objects are immutable links)
    out = None
    for f in reversed(frames[:keep]):
        out = types.TracebackType(out, f.tb_frame, f.tb_lasti, f.tb_lineno)
    return out


def _report(e, first_file):
    tb = _user_tb(e.__traceback__, first_file)
    if isinstance(e, SyntaxError) and tb is None:
        traceback.print_exception(type(e), e, None)
    else:
        traceback.print_exception(type(e), e, _trim_internal_tail(tb))


def _enter(cwd, path0, argv):
    sys.argv = argv
    if cwd:
        try:
            os.chdir(cwd)
        except OSError:
            pass
    if sys.path and sys.path[0] == path0:
        return
    sys.path.insert(0, path0)


def _finish(code):
    try:
        import atexit
        atexit._run_exitfuncs()
    except BaseException:
        pass
    _release_tensors()
    flush()
    return code


def _release_tensors():
    """Sends batched tensor frees to the runtime (see paddle/_bridge.py)."""
    b = sys.modules.get('paddle._bridge')
    if b is not None:
        b.flush_frees()


def _run(fn, first_file):
    try:
        fn()
        return _finish(0)
    except SystemExit as e:
        return _finish(_exit_code(e))
    except BaseException as e:
        _report(e, first_file)
        return _finish(1)


def run_path(path, argv_json, cwd=''):
    """`python path args...` -> exit code."""
    _enter(cwd, os.path.dirname(path), [path] + json.loads(argv_json))
    return _run(lambda: runpy.run_path(path, run_name='__main__'), path)


def run_code(code, argv_json, cwd=''):
    """`python -c code args...` -> exit code. The program is written to a file of its own in the
    in-memory file system and run from there like a script, so tracebacks show its lines."""
    _enter(cwd, '', ['-c'] + json.loads(argv_json))
    import tempfile
    d = tempfile.mkdtemp(prefix='skiff-c-')
    path = os.path.join(d, '<string>.py')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(code)

    def go():
        import importlib.util
        # the import system loads the file (sys.argv[0] stays '-c', unlike runpy.run_path)
        spec = importlib.util.spec_from_file_location('__main__', path)
        main = importlib.util.module_from_spec(spec)
        sys.modules['__main__'] = main
        spec.loader.exec_module(main)
    return _run(go, path)
