// Golden files of program autodiff: the printed backward of small programs (FileCheck lines
// of test/pir/filecheck.ts). The output must verify and round-trip through the parser.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProgram, printProgram } from '../../src/pir/index.js';
import { fileCheck } from '../pir/filecheck.js';
import { runGolden } from './golden.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.pir')).sort();

describe('golden autodiff files', () => {
  it('exist', () => expect(files.length).toBeGreaterThanOrEqual(3));
  for (const f of files) {
    it(f, () => {
      const where = `pir_autodiff/golden/${f}`;
      const text = readFileSync(join(dir, f), 'utf8');
      const out = runGolden(text, where);
      expect(printProgram(parseProgram(out))).toBe(out);
      fileCheck(out, text, where);
    });
  }
});
