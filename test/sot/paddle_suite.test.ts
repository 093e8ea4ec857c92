// test/sot/paddle_suite.csv (written by scripts/paddle_sot_suite.ts from Paddle's own test/sot
// files, run unchanged under `skiff run`) must be well-formed and cover every file issue 11 lists.
// The Paddle files themselves are not needed here: they are fetched into a scratch folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, PADDLE_SOT_FILES, RESULTS } from '../../scripts/paddle_sot_files.js';
import { parseCsv, parseOutput, toCsv } from '../../scripts/paddle_sot_suite.js';

const CSV_PATH = join(__dirname, 'paddle_suite.csv');

describe('paddle_suite.csv', () => {
  const text = readFileSync(CSV_PATH, 'utf8');
  const rows = parseCsv(text);

  it('starts with the header and lists every file of the issue once, in order', () => {
    expect(text.split('\n')[0]).toBe(CSV_HEADER);
    expect(rows.map((r) => r.file)).toEqual([...PADDLE_SOT_FILES]);
    expect(PADDLE_SOT_FILES.length).toBe(64);
    expect(new Set(PADDLE_SOT_FILES).size).toBe(PADDLE_SOT_FILES.length);
  });

  it('has a known result, consistent counts and a one-line reason per row', () => {
    for (const r of rows) {
      expect(RESULTS, r.file).toContain(r.result);
      expect(Number.isInteger(r.run) && r.run >= 0, r.file).toBe(true);
      expect(Number.isInteger(r.passed) && r.passed >= 0 && r.passed <= r.run, r.file).toBe(true);
      expect(r.reason.includes('\n'), r.file).toBe(false);
      if (r.result === 'pass') expect(r.reason, r.file).toBe('');
      else expect(r.reason.length, `${r.file} needs a reason`).toBeGreaterThan(0);
      if (r.result === 'fail') expect(r.run, r.file).toBeGreaterThan(0);
    }
  });

  it('round-trips through the writer', () => {
    expect(toCsv(rows)).toBe(text);
  });
});

describe('parseOutput (unittest verbose reports)', () => {
  const sep = '-'.repeat(70);
  const eq = '='.repeat(70);
  const cases: [string, string, number | null, Partial<ReturnType<typeof parseOutput>>][] = [
    ['all ok', `test_a (__main__.T.test_a) ... ok\n\n${sep}\nRan 2 tests in 0.1s\n\nOK\n`, 0, { result: 'pass', run: 2, passed: 2, reason: '' }],
    ['ok with skips', `${sep}\nRan 3 tests in 0.1s\n\nOK (skipped=1)\n`, 0, { result: 'pass', run: 3, passed: 2 }],
    ['a failure', `test_a (__main__.T.test_a) ... FAIL\n\n${eq}\nFAIL: test_a (__main__.T.test_a)\n${sep}\nTraceback (most recent call last):\n  File "x.py", line 3, in test_a\n    self.assertEqual(1, 2)\nAssertionError: 1 != 2\n\n${sep}\nRan 4 tests in 0.1s\n\nFAILED (failures=1, errors=1)\n`, 1,
      { result: 'fail', run: 4, passed: 2, reason: 'test_a: AssertionError: 1 != 2' }],
    ['import error', `Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nModuleNotFoundError: No module named 'paddle.foo'\n`, 1,
      { result: 'error', run: 0, passed: 0, reason: "ModuleNotFoundError: No module named 'paddle.foo'" }],
  ];
  it.each(cases)('%s', (_name, out, code, want) => {
    expect(parseOutput('test_x.py', out, code, false, 10)).toMatchObject(want);
  });
  it('reports a timeout as an error', () => {
    expect(parseOutput('test_x.py', '', null, true, 10)).toMatchObject({ result: 'error', reason: 'timed out after 10 s' });
  });
});
