// Golden tests of the passes: each test/passes/golden/*.pir file holds an input program and
// CHECK lines (test/pir/filecheck.ts) matched against the program printed after the passes.
// The first line names what to run:
//   // RUN: passes canonicalize,dce     the listed passes, in order
//   // RUN: pipeline inference          a named pipeline
// The input must verify, the passes run in checking mode (verified after each), and the output
// must print, parse and print again identically.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProgram, printProgram, verify } from '../../src/pir/index.js';
import { managerFor } from './golden_manager.js';
import { fileCheck } from '../pir/filecheck.js';
import '../pir/test_dialect.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.pir')).sort();

describe('golden pass files', () => {
  it('exist', () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const f of files) {
    it(f, () => {
      const where = `passes/golden/${f}`;
      const text = readFileSync(join(dir, f), 'utf8');
      const p = parseProgram(text);
      verify(p, `${where} (input)`);
      managerFor(text, where).run(p);
      const out = printProgram(p);
      expect(printProgram(parseProgram(out))).toBe(out);
      fileCheck(out, text, where);
    });
  }
});
