// Runs the Python test files (test/python/cases/test_*.py) inside Pyodide, one vitest test per
// Python test, plus the eager parity table. Each py31x.test.ts calls definePythonSuite with its
// version; vitest runs every file in its own process, so each gets its own Pyodide.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bridgeStats } from '../../frontend/python/bridge.js';
import { loadPython, type PythonHost } from '../../frontend/python/host.js';
import { hasOp } from '../../src/ops/index.js';
import { PARITY_CASES, type ParityResult, runTsCase } from './parity.js';

const here = dirname(fileURLToPath(import.meta.url));
export const CASES_DIR = join(here, 'cases');

/** Captures Python's output while a test runs (shown when it fails). */
class Capture {
  private chunks: Uint8Array[] = [];
  readonly sink = (b: Uint8Array) => { this.chunks.push(b.slice()); };
  take(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    return s;
  }
}

/** Which Python test files a suite runs: test/python/cases by default; test/sot/cases for the translator. */
export interface SuiteOptions {
  casesDir?: string;
  parity?: boolean;
  title?: string;
  /** Tests this version cannot pass, as 'file.py::test_name' (or 'file.py::*') -> the reason, shown as the skip message. */
  skip?: Readonly<Record<string, string>>;
}

export async function definePythonSuite(version: string, opts: SuiteOptions = {}): Promise<void> {
  const out = new Capture();
  const host = await loadPython({ version, stdout: out.sink, stderr: out.sink });
  const casesDir = opts.casesDir ?? CASES_DIR;
  const files = readdirSync(casesDir).filter((f) => /^test_.*\.py$/.test(f)).sort();

  describe(`${opts.title ?? 'Python'} ${version}`, () => {
    it(`runs CPython ${version}`, () => {
      expect(host.call<string>('_skiff.testing', 'version')).toBe(version);
      expect(host.info.version).toBe(version);
    });

    for (const f of files) {
      const path = host.fsPathOf(join(casesDir, f));
      const listed = JSON.parse(host.call<string>('_skiff.testing', 'collect', path)) as { tests?: string[]; error?: string };
      describe(f, () => {
        if (listed.error) {
          it('imports', () => { throw new Error(`${f} failed to import:\n${listed.error}`); });
          return;
        }
        for (const name of listed.tests ?? []) {
          it(name, (ctx) => {
            const why = opts.skip?.[`${f}::${name}`] ?? opts.skip?.[`${f}::*`];
            if (why) ctx.skip(why);
            out.take();
            const r = JSON.parse(host.call<string>('_skiff.testing', 'run', path, name)) as { status: string; message?: string };
            const printed = out.take();
            if (r.status === 'skip') ctx.skip(r.message);
            if (r.status !== 'pass') throw new Error(`${f}::${name}\n${r.message}${printed ? `\n--- output ---\n${printed}` : ''}`);
          });
        }
      });
    }

    if (opts.parity !== false) describe('eager parity with the TypeScript API', () => {
      const casesPath = host.fsPathOf(join(here, 'parity_cases.py'));
      for (const c of PARITY_CASES) {
        it(c.name, (ctx) => {
          const missing = (c.needs ?? []).filter((op) => !hasOp(op));
          if (missing.length) ctx.skip(`registry lacks ${missing.join(', ')}`);
          const py = JSON.parse(host.call<string>('_skiff.testing', 'parity', casesPath, c.name, JSON.stringify(c.inputs))) as
            { result?: ParityResult; error?: string; traceback?: string };
          if (py.error) throw new Error(`Python: ${py.error}\n${py.traceback}\n${out.take()}`);
          expect(py.result).toEqual(runTsCase(c));
        });
      }
    });

    it('every PyProxy taken by the host was destroyed', () => {
      expect(bridgeStats.proxiesTaken).toBe(bridgeStats.proxiesReleased);
    });

  });
}

export type { PythonHost };
