// The main job: models/mnist/train.py (LeNet on MNIST with paddle.Model.fit, Adam 1e-3, batch
// 64, 3 epochs) timed end to end as a user runs it (`skiff run`, Pyodide start included), its
// test accuracy and training speed, the SKIFF_QUICK=1 (CI) variant, and one epoch of the data
// pipeline alone: the batched MNIST gather against per-item __getitem__ + stack measured in the
// same run. Writes bench/results.md "MNIST main job".
//
//   npx tsx bench/mnist.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, table, writeSection } from './results.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const skiff = join(root, 'bin', 'skiff.js');

function run(args: string[], env: Record<string, string> = {}): { ms: number; out: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [skiff, 'run', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, SKIFF_PROGRESS: '0', ...env } });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`skiff run ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { ms, out: r.stdout };
}

function job(quick: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-bench-mnist-'));
  try {
    const { ms, out } = run(['models/mnist/train.py', dir], quick ? { SKIFF_QUICK: '1' } : {});
    const acc = Number(/test accuracy: ([\d.]+)/.exec(out)?.[1]);
    const speeds = [...out.matchAll(/^train step (\d+)\/\1 .* ([\d.]+) steps\/s$/gm)].map((m) => Number(m[2]));
    const epochs = [...out.matchAll(/^eval step (\d+)\/\1 .*acc: ([\d.]+)/gm)].map((m) => Number(m[2]));
    return { ms, acc, speed: speeds.length ? median(speeds) : NaN, epochs };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

const PIPE = String.raw`
import time, paddle
from paddle.io import DataLoader
from paddle.vision.datasets import MNIST
from paddle.vision.transforms import ToTensor, Compose, RandomHorizontalFlip
t = time.perf_counter(); ds = MNIST(mode='train', transform=ToTensor()); load = time.perf_counter() - t
def epoch(d):
    t = time.perf_counter()
    for x, y in DataLoader(d, batch_size=64, shuffle=True): pass
    return time.perf_counter() - t
fast = min(epoch(ds) for _ in range(3))
slow = min(epoch(MNIST(mode='train', transform=Compose([ToTensor(), RandomHorizontalFlip(0.0)]))) for _ in range(2))
print('PIPE %f %f %f %d' % (load, fast, slow, len(ds)))
`;

const full = job(false);
const quick = job(true);
const pipe = /PIPE ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(run(['-c', PIPE]).out)!;
const [load, fast, slow] = [1, 2, 3].map((i) => Number(pipe[i]) * 1000);
const n = Number(pipe[4]);

const body = [
  '`npx skiff run models/mnist/train.py` (Python 3.13): LeNet, Adam lr 1e-3, batch 64, eager autograd;',
  `MNIST = Skiff's fixed 90/10 split of the \`mnist\` npm package (${n} train images).`,
  '',
  table(['run', 'wall time (s)', 'test accuracy', 'train steps/s (median of epochs)', 'eval accuracy per epoch'], [
    ['full (3 epochs)', (full.ms / 1000).toFixed(1), full.acc.toFixed(4), full.speed.toFixed(1), full.epochs.map((a) => a.toFixed(4)).join(', ')],
    ['SKIFF_QUICK=1 (1 epoch, 1,024 images)', (quick.ms / 1000).toFixed(1), quick.acc.toFixed(4), quick.speed.toFixed(1), quick.epochs.map((a) => a.toFixed(4)).join(', ')],
  ]),
  '',
  'Data pipeline, one shuffled epoch of batches of 64 (no training), same run:',
  '',
  table(['what', 'ms'], [
    ['MNIST(mode=train) first load (JSON read + split in TS, two tensors to Python)', load.toFixed(0)],
    ['DataLoader epoch, batched gather (ToTensor: one index_select per field)', fast.toFixed(1)],
    ['DataLoader epoch, per-item __getitem__ + stack (a transform without a batched form)', slow.toFixed(1)],
  ]),
].join('\n');
writeSection('MNIST main job', body);
console.log(body);
