// Install and test times from a clean clone, as CI sees them: `git clone` of this checkout's
// HEAD into a temporary directory, then README's `npm install` and `npm test`, each timed.
// Budgets (issue 2): install under 5 minutes, tests under 30. Writes "Install and test times".
//   npx tsx bench/ci_times.ts
import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table, writeSection } from './results.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

function timed(cmd: string, cwd: string): { seconds: number; ok: boolean; tail: string } {
  const t = performance.now();
  const r = spawnSync('bash', ['-c', cmd], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  return { seconds: (performance.now() - t) / 1000, ok: r.status === 0, tail: out.split('\n').slice(-15).join('\n') };
}

const dir = mkdtempSync(join(os.tmpdir(), 'skiff-ci-'));
try {
  const head = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
  execSync(`git clone -q ${JSON.stringify(root)} ${JSON.stringify(dir)}`);
  const load0 = os.loadavg()[0];
  const install = timed('npm install --no-audit --no-fund', dir);
  if (!install.ok) throw new Error(`npm install failed:\n${install.tail}`);
  const test = timed('npm test', dir);
  if (!test.ok) throw new Error(`npm test failed:\n${test.tail}`);
  const counts = /Tests\s+.*?(\d+) passed/.exec(test.tail.replace(/\x1b\[[0-9;]*m/g, ''));
  const fmt = (s: number) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  const body = [
    `A clean clone of commit ${head}, then README's two commands, timed end to end (npm's cache warm, as on`,
    `a CI machine that installed before; the native addon is compiled from scratch every time).`,
    `1-minute load average ${load0.toFixed(2)} before / ${os.loadavg()[0].toFixed(2)} after.`,
    '',
    table(['step', 'time', 'budget', 'share of budget'], [
      ['`npm install` (native addon, bundle)', fmt(install.seconds), '5m00s', `${((install.seconds / 300) * 100).toFixed(0)}%`],
      [`\`npm test\` (${counts ? counts[1] : '?'} tests, Python 3.12/3.13/3.14)`, fmt(test.seconds), '30m00s', `${((test.seconds / 1800) * 100).toFixed(0)}%`],
    ]),
  ].join('\n');
  writeSection('Install and test times', body);
  console.log(body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
