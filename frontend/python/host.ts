// The Pyodide host: one Python per process, loaded offline from the npm alias of the chosen
// version. It copies compat/ (the pure-Python `paddle` package and the `_skiff` runner) into
// the Emscripten FS, mounts user directories at their own paths so imports, inspect.getsource
// and tracebacks see real files, registers the bridge as the module `_skiff_bridge`, and sends
// stdout/stderr to the terminal in chunks.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PyodideInterface } from 'py313';
import { Bridge, bridgeStats } from './bridge.js';
import { installSot } from './sot/install.js';
import { staticModule } from './static.js';
import { jitModule } from './jit.js';
import { profilerModule } from './profiler.js';
import { type PythonVersion, resolvePythonVersion } from './versions.js';

export type Sink = (chunk: Uint8Array) => void;

export interface HostOptions {
  /** '3.10' | '3.11' | '3.12' | '3.13' | '3.14'; default SKIFF_PYTHON, else 3.13. */
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
const PYCACHE_FS = '/skiff/pycache';
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
    const reserved = RESERVED.some((r) => abs === r || (r !== '/' && r !== '/home' && r !== '/usr' && abs.startsWith(r + '/')));
    let target = reserved ? `${MOUNT_FALLBACK}/${this.mounts.length}` : abs;
    try {
      this.mountAt(target, abs);
    } catch {
      target = `${MOUNT_FALLBACK}/${this.mounts.length}`;
      this.mountAt(target, abs);
    }
    this.mounts.push({ host: abs, fs: target });
    return target;
  }

  /** Mounts the host's bytecode cache at /skiff/pycache; false when caching is off or impossible. */
  mountPycache(): boolean {
    const dir = cachingEnabled() ? join(cacheDir(), 'pycache') : null;
    if (!dir) return false;
    try {
      mkdirSync(dir, { recursive: true });
      this.mountAt(PYCACHE_FS, dir);
      return true;
    } catch {
      return false;
    }
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
  const py = await loadPyodideCached(info);
  const bridge = new Bridge();
  const host = new PythonHost(py, info, bridge, { out: opts.stdout ?? processSink(1), err: opts.stderr ?? processSink(2) });
  py.setStdout({ write: (b: Uint8Array) => host.write(1, b) });
  py.setStderr({ write: (b: Uint8Array) => host.write(2, b) });
  copyTree(py, findCompat(), COMPAT_FS);
  py.registerJsModule('_skiff_bridge', bridge.module());
  py.registerJsModule('_skiff_static', staticModule(bridge));  // compat/paddle/static
  py.registerJsModule('_skiff_jit', jitModule(bridge));  // compat/paddle/jit/_save.py, compat/paddle/inference
  py.registerJsModule('_skiff_profiler', profilerModule());  // compat/paddle/profiler
  host.sot = installSot(py, bridge);  // `_skiff_sot`: the translator behind paddle.jit.to_static
  // Compiled bytecode goes to a host cache (never next to user files): without it every start
  // recompiles compat/ (~0.6 s). Python validates each .pyc against its source's mtime and size.
  const pyc = host.mountPycache();
  py.runPython([
    'import sys',
    `sys.path.insert(0, ${JSON.stringify(COMPAT_FS)})`,
    pyc ? `sys.pycache_prefix = ${JSON.stringify(PYCACHE_FS)}\nsys.dont_write_bytecode = False` : 'sys.dont_write_bytecode = True',
  ].join('\n'));
  return host;
}

type LoadPyodide = (o: object) => Promise<PyodideInterface>;

/**
 * Standard-library modules the runner and `paddle` import, loaded before a memory snapshot is
 * taken so later starts get them for free. Nothing here may touch JS (a snapshot cannot hold
 * JS proxies), which is why `paddle` itself is imported after the snapshot.
 */
const SNAPSHOT_PRELOAD = 'import json, inspect, traceback, runpy, array, types, collections, re, math, linecache, code, argparse, unittest, importlib.util, random, functools, contextlib, copy, operator';
const SNAPSHOT_FORMAT = 1;

/**
 * Loads Pyodide from a memory snapshot when one is cached (~4x faster start), else cold, taking
 * a snapshot on the way for the next start. A snapshot that fails to load is deleted and the
 * load retried cold. SKIFF_CACHE=0 disables the cache; SKIFF_CACHE_DIR moves it (default
 * node_modules/.cache/skiff).
 */
async function loadPyodideCached(info: PythonVersion): Promise<PyodideInterface> {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve(`${info.pkg}/package.json`));
  const { loadPyodide } = require(info.pkg) as { loadPyodide: LoadPyodide };
  const base = { indexURL: pkgDir + sep, env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {} };
  const file = snapshotFile(info, pkgDir);
  if (!file) return loadPyodide(base);
  if (existsSync(file)) {
    try {
      return await loadPyodide({ ...base, _loadSnapshot: readFileSync(file) });
    } catch {
      rmSync(file, { force: true });
    }
  }
  const py = await loadPyodide({ ...base, _makeSnapshot: true });
  // Pyodide 0.22/0.25 (Python 3.10/3.11) cannot snapshot: skip the preload, they always start cold.
  if (typeof (py as unknown as { makeMemorySnapshot?: unknown }).makeMemorySnapshot !== 'function') return py;
  try {
    py.runPython(SNAPSHOT_PRELOAD);
    const snap = (py as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot();
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, snap);
    renameSync(tmp, file);  // atomic: parallel processes never read a partial snapshot
  } catch {
    // no cache this time (read-only install, disk full): the loaded Pyodide is still good
  }
  return py;
}

/** SKIFF_CACHE=0 turns off the start-up caches (memory snapshot and bytecode). */
const cachingEnabled = (): boolean => process.env.SKIFF_CACHE !== '0';

function snapshotFile(info: PythonVersion, pkgDir: string): string | null {
  if (!cachingEnabled()) return null;
  const wasm = join(pkgDir, 'pyodide.asm.wasm');
  if (!existsSync(wasm)) return null;
  const st = statSync(wasm);
  const key = createHash('sha1').update(`${SNAPSHOT_FORMAT}\n${SNAPSHOT_PRELOAD}\n${info.pyodide}\n${st.size}\n${st.mtimeMs}`).digest('hex').slice(0, 12);
  return join(cacheDir(), `${info.pkg}-${info.pyodide}-${key}.snapshot`);
}

function cacheDir(): string {
  if (process.env.SKIFF_CACHE_DIR) return process.env.SKIFF_CACHE_DIR;
  const nm = join(findCompat(), '..', 'node_modules');
  return existsSync(nm) ? join(nm, '.cache', 'skiff') : join(tmpdir(), `skiff-cache-${process.getuid?.() ?? 'user'}`);
}

/** Copies a host directory of Python sources into the in-memory FS (skips caches). */
function copyTree(py: PyodideInterface, from: string, to: string): void {
  const FS = py.FS as any;
  FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name === '__pycache__' || name.startsWith('.')) continue;
    const src = join(from, name);
    const dst = `${to}/${name}`;
    const st = statSync(src);
    if (st.isDirectory()) copyTree(py, src, dst);
    else if (name.endsWith('.py') || name.endsWith('.pyi') || name.endsWith('.json')) {
      FS.writeFile(dst, readFileSync(src));
      FS.utime(dst, st.mtimeMs, st.mtimeMs);  // keeps cached bytecode valid across starts
    }
  }
}
