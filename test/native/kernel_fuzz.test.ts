// No input may crash the process: every native kernel, called directly with random tensors,
// views, outputs and attributes, must either run or throw. The calls run in a child process so
// a crash fails this test (naming the kernel and inputs) instead of killing the test worker.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./kernel_fuzz_child.ts', import.meta.url));

describe('native kernels under random input', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: no crash`, () => {
      const caseFile = join(mkdtempSync(join(os.tmpdir(), 'skiff-fuzz-')), 'case.json');
      const r = spawnSync(process.execPath, ['--import', 'tsx', child, String(seed), '40', caseFile], { encoding: 'utf8', timeout: 240_000 });
      const last = existsSync(caseFile) ? readFileSync(caseFile, 'utf8') : '(none)';
      expect(r.signal, `kernel crashed (${r.signal}) on ${last}\n${r.stderr}`).toBeNull();
      expect(r.status, `child failed on ${last}\n${r.stderr}`).toBe(0);
      const lines = r.stdout.trim().split("\n");
      const stats = JSON.parse(lines[lines.length - 3]);
      expect(stats.calls).toBeGreaterThan(1000);
    }, 300_000);
  }
});
