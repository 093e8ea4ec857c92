// Shared by the js_plugin tests: bundles a fixture entry (with Skiff's own sources, bundled as
// is) through the scope plugin and runs a check script on it in plain Node, returning its JSON.
// The bundle lives under node_modules/.cache so the native addon and the Pyodide packages
// resolve from the repository as they do for dist/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { skiffScopePlugin } from '../../frontend/js/plugin/esbuild.js';

export const here = fileURLToPath(new URL('.', import.meta.url));
export const fixture = join(here, 'fixture');
const root = join(here, '../..');

/** Bundles `entry` (plugin on files matching `filter`), runs `check` on it with `args`, parses its stdout. */
export async function bundleAndRun(entry: string, check: string, filter: RegExp, args: string[] = []): Promise<any> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'skiff-js-plugin-'));
  try {
    const outfile = join(dir, 'bundle.mjs');
    await build({
      entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20',
      external: ['py310', 'py311', 'py312', 'py313', 'py314', 'pyodide', '*.node', 'onnxruntime-node', 'playwright-core'],
      banner: { js: "import { createRequire as __skiffCreateRequire } from 'node:module'; const require = __skiffCreateRequire(import.meta.url);" },
      plugins: [skiffScopePlugin({ filter })], logLevel: 'silent',
    });
    return JSON.parse(execFileSync(process.execPath, [check, pathToFileURL(outfile).href, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
