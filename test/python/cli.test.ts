// The `skiff` command end to end (bin/skiff.js in a child process): scripts run as __main__
// with sys.argv and Python's exit code, tracebacks end at the user's line, -c, the REPL on a
// pipe, and models/mlp_infer.py giving the same output on every Python version.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixtures = join(here, 'fixtures');

interface Run { code: number | null; out: string; err: string }

// At most two processes at a time: each loads a Pyodide, and CI machines have two cores.
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** bin/skiff.js in a child process (async, so concurrent tests overlap their Pyodide loads). */
function skiff(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return slot(() => run(args, opts));
}

function run(args: string[], opts: { input?: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(root, 'bin', 'skiff.js'), ...args], { cwd: root, env: { ...process.env, ...opts.env } });
    let out = '', err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
    p.stdin.end(opts.input ?? '');
  });
}

describe('skiff run', () => {
  it.concurrent('runs a script as __main__ with sys.argv and its exit code', async () => {
    const r = await skiff(['run', join(fixtures, 'argv_exit.py'), '5', '--flag', 'x y']);
    expect(r.err).toBe('');
    expect(r.out).toBe("argv: ['5', '--flag', 'x y']\nmain: __main__ def where():\n");
    expect(r.code).toBe(5);
  });

  it.concurrent('prints the Python traceback ending at the user line and exits 1', async () => {
    const r = await skiff(['run', join(fixtures, 'shape_error.py')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`File "${join(fixtures, 'shape_error.py')}", line 5, in combine`);
    expect(r.err).toContain('    return a + b');
    expect(r.err.trimEnd().split('\n').pop()).toBe('ValueError: add: shapes [2] and [3] cannot be broadcast');
    expect(r.err).not.toContain('/skiff/compat/');
  });

  it.concurrent('runs -c code', async () => {
    const r = await skiff(['run', '-c', 'import sys, paddle; print(sys.argv, sys.version_info[:2], paddle.to_tensor([1, 2]).tolist())', 'a']);
    expect(r.err).toBe('');
    expect(r.out).toBe("['-c', 'a'] (3, 13) [1, 2]\n");
    expect(r.code).toBe(0);
  });

  it.concurrent('rejects an unknown Python version', async () => {
    const r = await skiff(['run', '--python', '3.9', '-c', 'pass']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("Python '3.9' is not available");
  });
});

describe('skiff python', () => {
  it.concurrent('reads statements from a pipe, with continuation lines, errors and exit()', async () => {
    const input = 'import paddle\nfor i in range(2):\n    print(i)\n\nx = paddle.to_tensor([3])\nx * 2\n1 / 0\nprint("still here")\nexit(3)\nprint("not reached")\n';
    const r = await skiff(['python', '--python', '3.12'], { input });
    expect(r.out).toBe('0\n1\nTensor(shape=[1], dtype=int64, place=Place(cpu), stop_gradient=True,\n       [6])\nstill here\n');
    expect(r.err).toContain('ZeroDivisionError: division by zero');
    expect(r.code).toBe(3);
  });
});

describe('models/mlp_infer.py', () => {
  // 3.12 chosen by SKIFF_PYTHON, 3.13 by default, 3.14 by --python
  const ways: [string, string[], Record<string, string>][] = [
    ['3.12', [], { SKIFF_PYTHON: '3.12' }],
    ['3.13', [], {}],
    ['3.14', ['--python', '3.14'], {}],
  ];
  const outs = new Map<string, string>();
  for (const [v, flags, env] of ways) {
    it.concurrent(`runs unchanged on Python ${v}`, async () => {
      const r = await skiff(['run', ...flags, join(root, 'models', 'mlp_infer.py'), '--batch', '4'], { env: { SKIFF_PYTHON: '', ...env } });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/predicted classes: \[\d, \d, \d, \d\]/);
      expect(r.out).toContain('parameters: 484');
      outs.set(v, r.out);
    });
  }
  it('prints the same results on every version', () => {
    expect(outs.size).toBe(3);
    expect(new Set(outs.values()).size).toBe(1);
  });
});
