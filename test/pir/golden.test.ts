// Golden tests: every test/pir/golden/*.pir file says on its first line what to do with the
// program below it, and its CHECK lines (see filecheck.ts) are matched against the result.
//   // RUN: roundtrip     parse, print; the print must equal the input exactly; CHECKs on the print
//   // RUN: verify        as roundtrip, and the verifier must accept the program
//   // RUN: verify-error  the verifier must reject the program; CHECKs on its error message
//   // RUN: parse-error   parsing must fail; CHECKs on the error message (line:column, op)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProgram, PirParseError, PirVerifyError, printProgram, verify, verifyProgram } from '../../src/pir/index.js';
import { fileCheck, runMode } from './filecheck.js';
import './test_dialect.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.pir')).sort();

/** The program text of a golden file: everything but whole-line comments and blank lines. */
const body = (text: string): string => `${text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//')).join('\n')}\n`;

describe('golden PIR files', () => {
  it('exist', () => expect(files.length).toBeGreaterThan(5));
  for (const f of files) {
    it(f, () => {
      const text = readFileSync(join(dir, f), 'utf8');
      const mode = runMode(text);
      const where = `golden/${f}`;
      switch (mode) {
        case 'roundtrip': case 'verify': {
          const p = parseProgram(text);
          if (mode === 'verify') verify(p, where);
          const out = printProgram(p);
          expect(out).toBe(body(text));
          expect(printProgram(parseProgram(out))).toBe(out);
          fileCheck(out, text, where);
          break;
        }
        case 'verify-error': {
          const issues = verifyProgram(parseProgram(text));
          expect(issues.length, `${where}: the verifier accepted the program`).toBeGreaterThan(0);
          fileCheck(new PirVerifyError(issues).message, text, where);
          break;
        }
        case 'parse-error': {
          let err: unknown = null;
          try { parseProgram(text); } catch (e) { err = e; }
          expect(err, `${where}: parsing succeeded`).toBeInstanceOf(PirParseError);
          fileCheck((err as Error).message, text, where);
          break;
        }
        default: throw new Error(`${where}: first line must be '// RUN: roundtrip|verify|verify-error|parse-error', got ${mode}`);
      }
    });
  }
});
