// The Vite/vitest plugin: a separate small vitest project (test/js_plugin/vite) whose specs are
// loaded through skiffScopeVitePlugin (accessors, Vite's import renames, and the README example
// of issue 12 captured to one graph with no `scope` option); this runs it and checks it passed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('specs loaded through the Vite plugin see scope accessors; the README example captures', () => {
  const r = spawnSync(join(root, 'node_modules/.bin/vitest'), ['run', '--config', 'test/js_plugin/vite/vitest.config.ts', '--reporter', 'verbose'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  const out = `${r.stdout}\n${r.stderr}`;
  expect(out, out).toMatch(/Tests\s+4 passed/);
  expect(r.status, out).toBe(0);
});
