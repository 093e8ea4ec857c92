// Runs Paddle's own test/sot files (fetched into a scratch folder, never into the repository)
// unchanged under `skiff run`, one process per file with a timeout, and writes
// test/sot/paddle_suite.csv: file, result (pass/fail/error/missing), tests run/passed, and the
// first failing assertion or error as one line.
//
//   npx tsx scripts/paddle_sot_suite.ts /tmp/paddle_sot [--only a.py,b.py] [--timeout 240] [--jobs 1]
//
// --only re-runs some files and keeps the other rows of the existing csv.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSV_HEADER, PADDLE_SOT_FILES, PADDLE_SOT_HELPERS, PADDLE_SOT_SUBDIRS } from './paddle_sot_files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CSV = join(ROOT, 'test/sot/paddle_suite.csv');
const SKIFF = join(ROOT, 'bin/skiff.js');

export interface Row { file: string; result: 'pass' | 'fail' | 'error' | 'missing'; run: number; passed: number; reason: string }

function usage(msg: string): never {
  process.stderr.write(`paddle_sot_suite: ${msg}\nusage: npx tsx scripts/paddle_sot_suite.ts <dir with Paddle's test/sot files> [--only f.py,...] [--timeout seconds] [--jobs n]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): { dir: string; only: string[] | null; timeout: number; jobs: number } {
  let dir = '';
  let only: string[] | null = null;
  let timeout = 240;
  let jobs = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => { if (i + 1 >= argv.length) usage(`${a} needs a value`); return argv[++i]; };
    if (a === '--only') only = value().split(',').map((s) => s.trim()).filter(Boolean).map((s) => (s.endsWith('.py') ? s : `${s}.py`));
    else if (a === '--timeout') timeout = Number(value());
    else if (a === '--jobs') jobs = Number(value());
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (!dir) dir = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!dir) usage('missing the directory');
  if (!existsSync(dir)) usage(`no directory ${dir}`);
  if (!(timeout > 0)) usage('--timeout must be a positive number of seconds');
  if (!Number.isInteger(jobs) || jobs < 1) usage('--jobs must be a positive integer');
  const unknown = (only ?? []).filter((f) => !PADDLE_SOT_FILES.includes(f));
  if (unknown.length) usage(`not in the issue's list: ${unknown.join(', ')}`);
  return { dir: resolve(dir), only, timeout, jobs };
}

function runFile(dir: string, file: string, timeoutS: number): Promise<{ out: string; code: number | null; timedOut: boolean }> {
  return new Promise((done) => {
    // -v: one line per test; unittest.main() reads sys.argv, which `skiff run` passes through
    const child = spawn(process.execPath, [SKIFF, 'run', file, '-v'], { cwd: dir, env: { ...process.env, PYTHONHASHSEED: '0' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutS * 1000);
    child.on('close', (code) => { clearTimeout(timer); done({ out, code, timedOut }); });
  });
}

const oneLine = (s: string, max = 240): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
};

/** The last line of a traceback block (the exception and its message), else its last line. */
function exceptionLine(lines: string[]): string {
  const body = lines.filter((l) => l.trim() !== '');
  for (let i = body.length - 1; i >= 0; i--) {
    if (/^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning|Failure)\b/.test(body[i].trim()) || /^[A-Za-z_][\w.]*: /.test(body[i])) return body[i].trim();
  }
  return body.length ? body[body.length - 1].trim() : '';
}

/** Classifies one file's output (unittest's verbose report). */
export function parseOutput(file: string, out: string, code: number | null, timedOut: boolean, timeoutS: number): Row {
  const ran = /^Ran (\d+) tests? in /m.exec(out);
  if (timedOut) return { file, result: 'error', run: ran ? Number(ran[1]) : 0, passed: 0, reason: `timed out after ${timeoutS} s` };
  if (!ran) {
    const lines = out.split('\n');
    return { file, result: 'error', run: 0, passed: 0, reason: oneLine(exceptionLine(lines) || `exit code ${code} without a unittest report`) };
  }
  const run = Number(ran[1]);
  const failed = /^FAILED \(([^)]*)\)/m.exec(out);
  const count = (what: string): number => {
    const m = new RegExp(`\\b${what}=(\\d+)`).exec(failed?.[1] ?? /^OK \(([^)]*)\)/m.exec(out)?.[1] ?? '');
    return m ? Number(m[1]) : 0;
  };
  const bad = count('failures') + count('errors') + count('unexpected successes');
  const passed = Math.max(0, run - bad - count('skipped') - count('expected failures'));
  if (!failed && code === 0) return { file, result: 'pass', run, passed, reason: '' };
  // first FAIL:/ERROR: block: its header names the test, its traceback ends with the exception
  const lines = out.split('\n');
  const start = lines.findIndex((l) => /^(FAIL|ERROR): /.test(l));
  let reason = `exit code ${code}`;
  if (start >= 0) {
    let end = start + 1;
    while (end < lines.length && !/^(={20,}|-{20,})$/.test(lines[end])) end++;
    // skip the dashed line under the header
    if (end < lines.length && /^-{20,}$/.test(lines[end])) {
      let stop = end + 1;
      while (stop < lines.length && !/^(={20,}|-{20,})$/.test(lines[stop])) stop++;
      reason = `${lines[start].replace(/^(FAIL|ERROR): /, '').replace(/ \(.*\)$/, '')}: ${exceptionLine(lines.slice(end + 1, stop))}`;
    } else reason = lines[start];
  }
  return { file, result: 'fail', run, passed, reason: oneLine(reason) };
}

const csvField = (s: string | number): string => {
  const t = String(s);
  return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};

export function toCsv(rows: readonly Row[]): string {
  return [CSV_HEADER, ...rows.map((r) => [r.file, r.result, r.run, r.passed, r.reason].map(csvField).join(','))].join('\n') + '\n';
}

/** Parses the csv this script writes (quoted fields may hold commas and doubled quotes). */
export function parseCsv(text: string): Row[] {
  const lines = text.split('\n').filter((l) => l.length > 0);
  if (lines[0] !== CSV_HEADER) throw new Error(`paddle_suite.csv: header must be '${CSV_HEADER}', got '${lines[0]}'`);
  return lines.slice(1).map((line, i) => {
    const fields: string[] = [];
    let cur = '';
    let quoted = false;
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (quoted) {
        if (c === '"' && line[j + 1] === '"') { cur += '"'; j++; } else if (c === '"') quoted = false; else cur += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') { fields.push(cur); cur = ''; } else cur += c;
    }
    fields.push(cur);
    if (fields.length !== 5) throw new Error(`paddle_suite.csv line ${i + 2}: expected 5 fields, got ${fields.length}`);
    const [file, result, run, passed, reason] = fields;
    return { file, result: result as Row['result'], run: Number(run), passed: Number(passed), reason };
  });
}

async function main(): Promise<void> {
  const { dir, only, timeout, jobs } = parseArgs(process.argv.slice(2));
  for (const h of PADDLE_SOT_HELPERS) if (!existsSync(join(dir, h))) process.stderr.write(`paddle_sot_suite: warning: ${h} is missing from ${dir}; every file imports it\n`);
  const previous = new Map<string, Row>();
  if (only && existsSync(CSV)) for (const r of parseCsv(readFileSync(CSV, 'utf8'))) previous.set(r.file, r);
  const todo = only ?? [...PADDLE_SOT_FILES];
  const results = new Map<string, Row>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const file = todo[next++];
      const fileDir = PADDLE_SOT_SUBDIRS[file] ? join(dir, PADDLE_SOT_SUBDIRS[file]) : dir;
      let row: Row;
      if (!existsSync(join(fileDir, file))) row = { file, result: 'missing', run: 0, passed: 0, reason: `not fetched into ${fileDir}` };
      else {
        const t0 = Date.now();
        const { out, code, timedOut } = await runFile(fileDir, file, timeout);
        row = parseOutput(file, out, code, timedOut, timeout);
        process.stdout.write(`${file}: ${row.result} ${row.passed}/${row.run} (${((Date.now() - t0) / 1000).toFixed(1)} s)${row.reason ? ` - ${row.reason}` : ''}\n`);
      }
      results.set(file, row);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const rows = PADDLE_SOT_FILES.map((f) => results.get(f) ?? previous.get(f) ?? { file: f, result: 'missing' as const, run: 0, passed: 0, reason: 'not run yet' });
  writeFileSync(CSV, toCsv(rows));
  const pass = rows.filter((r) => r.result === 'pass').length;
  process.stdout.write(`\n${pass}/${rows.length} files pass (${((100 * pass) / rows.length).toFixed(1)}%); wrote ${CSV}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => { process.stderr.write(`${(e as Error).stack ?? e}\n`); process.exit(1); });
}
