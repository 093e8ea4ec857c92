// `npm start`, README's main job: trains LeNet on MNIST (train.py, which also saves the trained
// network for inference and test digits as .npy), then serves those digits with `skiff infer`.
// Usage: node models/mnist/main_job.mjs [save_dir]  (else $MNIST_SAVE_DIR, else a new temp dir).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const skiff = join(root, 'bin', 'skiff.js');
const arg = process.argv[2] ?? process.env.MNIST_SAVE_DIR;
const dir = arg ? resolve(arg) : mkdtempSync(join(tmpdir(), 'skiff-mnist-'));
mkdirSync(dir, { recursive: true });

function step(args) {
  const r = spawnSync(process.execPath, [skiff, ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

step(['run', join(root, 'models', 'mnist', 'train.py'), dir]);
console.log(`\n$ skiff infer ${join(dir, 'lenet.pir')} --input x=${join(dir, 'digits.npy')}`);
step(['infer', join(dir, 'lenet.pir'), '--input', `x=${join(dir, 'digits.npy')}`]);
