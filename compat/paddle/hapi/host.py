"""The host around Pyodide: directories on its disk for saved weights, and its environment.

Python runs in Pyodide, whose file system is in memory except for the directories Skiff
mounts (the working directory and the script's). host_dir(path) makes `path` a real host
directory visible at the same path: under a mounted directory it is simply created; elsewhere
(for example /tmp/...) it is created on the host through the bridge and mounted. With no path
it makes a new host temp directory.
"""
import os

from .._bridge import _js, error


def _in_memory(p):
    """True when p (an existing path) lives in Pyodide's in-memory file system."""
    return os.stat(p).st_dev == os.stat('/').st_dev


def host_dir(path=None, prefix='skiff-'):
    if path:
        path = os.path.abspath(path)
        p = path
        while not os.path.exists(p):
            p = os.path.dirname(p)
        if os.path.isdir(path) and not _in_memory(path):
            return path
        if not _in_memory(p):               # under a mounted host directory
            os.makedirs(path, exist_ok=True)
            return path
    r = _js.io_host_dir(path or '', prefix)
    if not r:
        raise error()
    import pyodide_js
    if not os.path.isdir(r) or not os.listdir(r):
        _mount_node_dir(pyodide_js, r)
    return r


def _mount_node_dir(pyodide_js, r):
    # Recent Pyodides have mountNodeFS; 0.22 and 0.25 (Python 3.10, 3.11) mount NODEFS through FS.
    if hasattr(pyodide_js, 'mountNodeFS'):
        pyodide_js.mountNodeFS(r, r)
        return
    import js
    from pyodide.ffi import to_js
    fs = pyodide_js.FS
    fs.mkdirTree(r)
    fs.mount(fs.filesystems.NODEFS, to_js({'root': r}, dict_converter=js.Object.fromEntries), r)


def host_env(name, default=None):
    """An environment variable of the Node process (Pyodide's os.environ does not inherit them)."""
    v = _js.io_env(name)
    return default if v is None else v
