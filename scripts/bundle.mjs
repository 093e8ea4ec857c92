// Bundles the package entry and the CLI into dist/ with esbuild (run by `npm install`).
// The native addon and Pyodide stay external: they are loaded from disk at run time.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entries = [
  ['frontend/index.ts', 'dist/index.js'],
  ['frontend/cli/main.ts', 'dist/cli.js'],
  // Build plugins for user code (frontend/js/plugin): `skiff/esbuild-plugin`, `skiff/vite-plugin`.
  ['frontend/js/plugin/esbuild.ts', 'dist/esbuild-plugin.js'],
  ['frontend/js/plugin/vite.ts', 'dist/vite-plugin.js'],
].filter(([src]) => existsSync(src));

for (const [src, out] of entries) {
  await build({
    entryPoints: [src],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: ['py310', 'py311', 'py312', 'py313', 'py314', 'pyodide', '*.node', 'onnxruntime-node'],
    banner: { js: "import { createRequire as __skiffCreateRequire } from 'node:module'; const require = __skiffCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}
