// The Pyodide host: one Python per process, loaded offline from the npm alias of the chosen
// version. It copies compat/ (the pure-Python `paddle` package and the `_skiff` runner) into
// the Emscripten FS, mounts user directories at their own paths so imports, inspect.getsource
// and tracebacks see real files, registers the bridge as the module `_skiff_bridge`, and sends
// stdout/stderr to the terminal in chunks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PyodideInterface } from 'py313';
import { Bridge, bridgeStats } from './bridge.js';
import { type PythonVersion, resolvePythonVersion } from './versions.js';
import { installSot } from './sot/install.js';

export type Sink = (chunk: Uint8Array) => void;

export interface HostOptions {
  /** '3.12' | '3.13' | '3.14'; default SKIFF_PYTHON, else 3.13. */
  version?: string | null;
  /** Receives Python's stdout bytes (default: process.stdout). */
  stdout?: Sink;
  stderr?: Sink;
}

/** Where compat/ lives: walk up from this file (works from frontend/python and from dist/). */
function findCompat(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'compat');
    if (existsSync(join(p, 'paddle', '__init__.py'))) return p;
    dir = dirname(dir);
  }
  throw new Error('skiff: compat/paddle not found next to the package');
}

const COMPAT_FS = '/skiff/compat';
const MOUNT_FALLBACK = '/skiff/mnt';
/** Pyodide's own directories: a user directory there is mounted under /skiff/mnt instead. */
const RESERVED = ['/', '/lib', '/dev', '/proc', '/skiff', '/home', '/home/pyodide', '/usr', '/bin', '/etc'];

const processSink = (fd: 1 | 2): Sink => (chunk) => {
  (fd === 1 ? process.stdout : process.stderr).write(Buffer.from(chunk));
};

export class PythonHost {
  private mounts: { host: string; fs: string }[] = [];
  /** The symbolic opcode translator registered with this Python (paddle.jit.to_static). */
  sot: ReturnType<typeof installSot> | null = null;

  constructor(readonly py: PyodideInterface, readonly info: PythonVersion, readonly bridge: Bridge, private sinks: { out: Sink; err: Sink }) {}

  /** Redirects Python's output (tests capture it); returns the previous sinks. */
  setSinks(out: Sink, err: Sink): { out: Sink; err: Sink } {
    const prev = this.sinks;
    this.sinks = { out, err };
    return prev;
  }

  /** Sinks used by the Pyodide write hooks (looked up per write so setSinks takes effect). */
  write(fd: 1 | 2, chunk: Uint8Array): number {
    (fd === 1 ? this.sinks.out : this.sinks.err)(chunk);
    return chunk.length;
  }

  /**
   * Makes a host directory visible to Python and returns its path inside Pyodide: the same
   * path when possible (so tracebacks and __file__ show real paths), else one under /skiff/mnt.
   */
  mount(hostDir: string): string {
    const abs = resolve(hostDir);
    for (const m of this.mounts) {
      if (abs === m.host || abs.startsWith(m.host + sep)) return m.fs + abs.slice(m.host.length);
    }
    const FS = this.py.FS as any;
    const reserved = RESERVED.some((r) => abs === r || (r !== '/' && r !== '/home' && r !== '/usr' && abs.startsWith(r + '/')));
    let target = reserved ? `${MOUNT_FALLBACK}/${this.mounts.length}` : abs;
    try {
      this.mountAt(target, abs);
    } catch {
      target = `${MOUNT_FALLBACK}/${this.mounts.length}`;
      this.mountAt(target, abs);
    }
    void FS;
    this.mounts.push({ host: abs, fs: target });
    return target;
  }

  private mountAt(fsPath: string, hostPath: string): void {
    const py = this.py as any;
    if (typeof py.mountNodeFS === 'function') py.mountNodeFS(fsPath, hostPath);
    else {
      py.FS.mkdirTree(fsPath);
      py.FS.mount(py.FS.filesystems.NODEFS, { root: hostPath }, fsPath);
    }
  }

  /** Path inside Pyodide of a host path (mounting its directory if needed). */
  fsPathOf(hostPath: string): string {
    const abs = resolve(hostPath);
    const st = existsSync(abs) ? statSync(abs) : null;
    if (st?.isDirectory()) return this.mount(abs);
    return `${this.mount(dirname(abs))}/${abs.slice(dirname(abs).length + 1)}`;
  }

  /**
   * Calls `module.fn(*args)` in Python with primitive arguments and a primitive result.
   * Both proxies taken here are destroyed in `finally`.
   */
  call<T = unknown>(module: string, fn: string, ...args: (string | number | boolean)[]): T {
    const mod = this.py.pyimport(module) as any;
    bridgeStats.proxiesTaken++;
    try {
      const f = mod[fn];
      bridgeStats.proxiesTaken++;
      try {
        return f(...args) as T;
      } finally {
        f.destroy();
        bridgeStats.proxiesReleased++;
      }
    } finally {
      mod.destroy();
      bridgeStats.proxiesReleased++;
    }
  }

  /** Runs a script as __main__ with sys.argv = [path, ...argv]; returns Python's exit code. */
  runFile(path: string, argv: readonly string[] = [], cwd = process.cwd()): number {
    const fsCwd = this.mount(cwd);
    const fsPath = this.fsPathOf(path);
    return this.call<number>('_skiff.runner', 'run_path', fsPath, JSON.stringify(argv), fsCwd);
  }

  /** Runs `python -c code`; returns the exit code. */
  runCode(code: string, argv: readonly string[] = [], cwd = process.cwd()): number {
    const fsCwd = this.mount(cwd);
    return this.call<number>('_skiff.runner', 'run_code', code, JSON.stringify(argv), fsCwd);
  }

  /** Flushes Python's sys.stdout/sys.stderr. */
  flush(): void { this.call('_skiff.runner', 'flush'); }
}

let current: { version: string; host: Promise<PythonHost> } | null = null;

/**
 * Loads (once per process) the Pyodide for the chosen Python and prepares it for Skiff.
 * @example const host = await loadPython({ version: '3.13' }); host.runCode('import paddle; print(paddle.to_tensor([1, 2]))');
 */
export function loadPython(opts: HostOptions = {}): Promise<PythonHost> {
  const info = resolvePythonVersion(opts.version);
  if (current) {
    if (current.version !== info.version) {
      return Promise.reject(new Error(`skiff: Python ${current.version} is already loaded in this process; one Pyodide per process (asked for ${info.version})`));
    }
    return current.host;
  }
  const host = createHost(info, opts);
  current = { version: info.version, host };
  return host;
}

async function createHost(info: PythonVersion, opts: HostOptions): Promise<PythonHost> {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve(`${info.pkg}/package.json`));
  const { loadPyodide } = require(info.pkg) as { loadPyodide: (o: object) => Promise<PyodideInterface> };
  const py = await loadPyodide({
    indexURL: pkgDir + sep,
    env: { PYTHONDONTWRITEBYTECODE: '1', HOME: '/home/pyodide' },
    stdout: () => {},  // startup chatter (none expected); replaced below by the byte-level hooks
  });
  const bridge = new Bridge();
  const host = new PythonHost(py, info, bridge, { out: opts.stdout ?? processSink(1), err: opts.stderr ?? processSink(2) });
  py.setStdout({ write: (b: Uint8Array) => host.write(1, b) });
  py.setStderr({ write: (b: Uint8Array) => host.write(2, b) });
  copyTree(py, findCompat(), COMPAT_FS);
  py.registerJsModule('_skiff_bridge', bridge.module());
  host.sot = installSot(py, bridge);
  py.runPython(`import sys\nsys.dont_write_bytecode = True\nsys.path.insert(0, ${JSON.stringify(COMPAT_FS)})`);
  return host;
}

/** Copies a host directory of Python sources into the in-memory FS (skips caches). */
function copyTree(py: PyodideInterface, from: string, to: string): void {
  const FS = py.FS as any;
  FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name === '__pycache__' || name.startsWith('.')) continue;
    const src = join(from, name);
    const dst = `${to}/${name}`;
    if (statSync(src).isDirectory()) copyTree(py, src, dst);
    else if (name.endsWith('.py') || name.endsWith('.pyi') || name.endsWith('.json')) FS.writeFile(dst, readFileSync(src));
  }
}
