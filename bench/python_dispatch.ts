// Eager op dispatch from Python: `y = x + 1` on a 1-element tensor, 100k times, on each Python
// version (one Pyodide per process, so each version runs in a child process), beside the same
// loop on plain Python floats and the same op from TypeScript. Also start-up: loading Pyodide,
// `import paddle`, and a whole `skiff run -c pass`. Writes bench/results.md "Python dispatch".
//
//   npx tsx bench/python_dispatch.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, table, writeSection } from './results.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const VERSIONS = ['3.12', '3.13', '3.14'];
const N = 100_000;
const REPS = 7;
const WORKERS_PER_VERSION = 2;

// Each loop is timed inside Python; the median of REPS runs is reported (µs per iteration).
const PY_LOOPS = `
import time, json
import paddle
N, REPS = ${N}, ${REPS}
x = paddle.to_tensor([1.0])
w = paddle.to_tensor([2.0])
a = 1.0

def t_tensor_scalar():
    for _ in range(N):
        y = x + 1

def t_tensor_tensor():
    for _ in range(N):
        y = x + w

def t_function():
    add = paddle.add
    for _ in range(N):
        y = add(x, w)

def t_float():
    for _ in range(N):
        y = a + 1

out = {}
for name, f in (('tensor_scalar', t_tensor_scalar), ('tensor_tensor', t_tensor_tensor), ('function', t_function), ('float', t_float)):
    f()
    runs = []
    for _ in range(REPS):
        t = time.perf_counter()
        f()
        runs.append((time.perf_counter() - t) / N * 1e6)
    out[name] = sorted(runs)
print('RESULT ' + json.dumps(out))
`;

interface WorkerResult { version: string; loadMs: number; importMs: number; loops: Record<string, number[]> }

async function worker(version: string): Promise<void> {
  const { loadPython } = await import('../frontend/python/host.js');
  let printed = '';
  const t0 = performance.now();
  const host = await loadPython({ version, stdout: (b) => { printed += Buffer.from(b).toString('utf8'); } });
  const t1 = performance.now();
  host.runCode('import paddle');
  const t2 = performance.now();
  const code = host.runCode(PY_LOOPS);
  if (code !== 0) throw new Error(`python loops failed (${code}): ${printed}`);
  const line = printed.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result from Python: ${printed}`);
  const r: WorkerResult = { version, loadMs: t1 - t0, importMs: t2 - t1, loops: JSON.parse(line.slice(7)) };
  process.stdout.write(`WORKER ${JSON.stringify(r)}\n`);
}

async function tsLoop(): Promise<number[]> {
  const { paddle } = await import('../src/paddle.js');
  const x = paddle.to_tensor([1], 'float32');
  const runs: number[] = [];
  for (let rep = 0; rep <= REPS; rep++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) paddle.add(x, 1).dispose();
    if (rep > 0) runs.push(((performance.now() - t) / N) * 1000);
  }
  return runs.sort((a, b) => a - b);
}

/** Wall time of a whole `skiff run -c pass` (process start to exit), median of 3. */
function cliStartup(version: string): number {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [join(root, 'bin', 'skiff.js'), 'run', '--python', version, '-c', 'import paddle'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`skiff run failed on ${version}: ${r.stderr}`);
    runs.push(performance.now() - t);
  }
  return median(runs);
}

async function main(): Promise<void> {
  const results: WorkerResult[] = [];
  for (const v of VERSIONS) {
    // two worker processes per version, keeping the faster: on a shared 2-core machine a whole
    // process sometimes runs ~1.7x slower (the plain-float loop slows down with it)
    let best: WorkerResult | null = null;
    for (let k = 0; k < WORKERS_PER_VERSION; k++) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker', v], { cwd: root, encoding: 'utf8' });
      const line = out.split('\n').find((l) => l.startsWith('WORKER '));
      if (!line) throw new Error(`worker ${v} printed no result:\n${out}`);
      const r = JSON.parse(line.slice(7)) as WorkerResult;
      if (!best || median(r.loops.tensor_scalar) < median(best.loops.tensor_scalar)) best = r;
    }
    results.push(best!);
    console.log(`Python ${v}: x + 1 ${median(best!.loops.tensor_scalar).toFixed(2)} µs`);
  }
  const ts = await tsLoop();
  const startup = VERSIONS.map(cliStartup);

  const us = (xs: number[]) => `${median(xs).toFixed(2)} (best ${xs[0].toFixed(2)})`;
  const rows = results.map((r) => [
    `Python ${r.version}`, us(r.loops.tensor_scalar), us(r.loops.tensor_tensor), us(r.loops.function), us(r.loops.float),
  ]);
  rows.push(['TypeScript (`paddle.add(x, 1)` + dispose)', us(ts), '', '', '']);
  const start = results.map((r, i) => [`Python ${r.version}`, Math.round(r.loadMs), Math.round(r.importMs), Math.round(startup[i])]);
  const body = [
    `Eager dispatch from Python through the bridge: a 1-element float32 tensor, ${N / 1000}k iterations timed inside Python,`,
    `median of ${REPS} runs (µs per iteration, best in parentheses), from the faster of ${WORKERS_PER_VERSION} worker processes per version.`,
    'Target: ≤ 3 µs for `x + 1` on 3.13. Python scalars reuse a cached 0-dim operand; the TypeScript row builds it per call.',
    '',
    table(['', '`y = x + 1`', '`y = x + w`', '`paddle.add(x, w)`', 'plain float `a + 1`'], rows),
    '',
    'Start-up (ms): loading Pyodide, then `import paddle` (op table, generated API), and a whole',
    '`skiff run --python V -c "import paddle"` from process start to exit (median of 3).',
    '',
    table(['', 'load Pyodide', 'import paddle', '`skiff run` wall'], start),
  ].join('\n');
  writeSection('Python dispatch', body);
  console.log(body);
}

if (process.argv[2] === '--worker') await worker(process.argv[3]);
else await main();
