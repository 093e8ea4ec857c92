// One Pyodide for a describe block, its stdout and stderr collected: the set-up the Python-side
// export and CLI suites share.
import { beforeAll } from 'vitest';
import { loadPython, type PythonHost } from '../../frontend/python/host.js';

export interface PythonFixture {
  /** The loaded host (set by the describe block's beforeAll). */
  host: PythonHost;
  /** What Python printed since the last `run` (or since `printed.length = 0`). */
  readonly printed: string[];
  /** Runs a script with argv, flushing its output; returns its exit code. */
  run(code: string, args: readonly string[]): number;
}

/** Registers a beforeAll in the calling describe block that loads Python `version`. */
export function usePython(version = '3.12'): PythonFixture {
  const fx: PythonFixture = {
    host: undefined as unknown as PythonHost,
    printed: [],
    run(code, args) {
      fx.printed.length = 0;
      const rc = fx.host.runCode(code, [...args]);
      fx.host.flush();
      return rc;
    },
  };
  beforeAll(async () => {
    const sink = (b: Uint8Array) => { fx.printed.push(Buffer.from(b).toString()); };
    fx.host = await loadPython({ version, stdout: sink, stderr: sink });
  }, 120_000);
  return fx;
}
