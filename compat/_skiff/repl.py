"""The line REPL behind `skiff python`: the host sends one line at a time."""
import code
import os
import sys
import types

_console = None


def start(cwd=''):
    global _console
    if cwd:
        try:
            os.chdir(cwd)
        except OSError:
            pass
    main = types.ModuleType('__main__')
    sys.modules['__main__'] = main
    sys.argv = ['']
    if not sys.path or sys.path[0] != '':
        sys.path.insert(0, '')
    _console = code.InteractiveConsole(main.__dict__, filename='<stdin>')
    return 'Python %s on skiff (Pyodide)\nType "help", "copyright", "credits" or "license" for more information.' % sys.version.split()[0]


def push(line):
    """Returns 'more' (continuation line needed), 'ok', or 'exit:N' after SystemExit."""
    try:
        more = _console.push(line)
    except SystemExit as e:
        c = e.code
        return 'exit:%d' % (0 if c is None else c if isinstance(c, int) else 1)
    finally:
        for f in (sys.stdout, sys.stderr):
            f.flush()
    return 'more' if more else 'ok'


def interrupt():
    _console.resetbuffer()
    print('KeyboardInterrupt', file=sys.stderr)
