// A separate small vitest project that loads its spec through the Skiff scope plugin (Vite
// `transform` hook). Run by test/js_plugin/vite.test.ts; not part of the main suite's include.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { skiffScopeVitePlugin } from '../../../frontend/js/plugin/vite.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Only this test folder goes through the plugin (Skiff's own sources are library code).
  plugins: [skiffScopeVitePlugin({ filter: /[\\/]test[\\/]js_plugin[\\/].*\.ts$/ })],
  // One forked worker: the native addon is loaded once per process, as in the main suite.
  test: { include: ['*.spec.ts'], pool: 'forks', maxWorkers: 1, isolate: false },
});
