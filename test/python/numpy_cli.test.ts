// Skiff's numpy end to end under `skiff run` (bin/skiff.js in a child process): a script builds
// data with numpy, fits a Paddle layer with numpy-computed gradients, fits it again with Paddle's
// autograd + SGD (first gradient checked against numpy's), checks with np.testing and saves
// .npy/.npz files, which the host's REAL numpy then reads back (when python3 has numpy).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'skiff-numpy-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function skiff(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(root, 'bin', 'skiff.js'), ...args], { cwd, env: process.env });
    let o = '', e = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { o += d; });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { e += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out: o, err: e }));
    p.stdin.end('');
  });
}

const hostNumpy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;

describe('numpy under skiff run', () => {
  // the output directory is the child's cwd: Skiff mounts the cwd, so '.' is the host directory
  let run: Promise<{ code: number | null; out: string; err: string }> | null = null;
  const train = () => (run ??= skiff(['run', join(here, 'fixtures', 'numpy_train.py'), '.'], out));

  it('trains a tiny Paddle model on numpy data and checks it with np.testing', async () => {
    const r = await train();
    expect(r.err).toBe('');
    expect(r.out).toBe('loss decreased: True\nweights [ 2.  -1.   0.5]\nbias [0.3]\nautograd agrees: True\n');
    expect(r.code).toBe(0);
  }, 60_000);

  it.skipIf(!hostNumpy)('writes .npy files that real numpy loads', async () => {
    expect((await train()).code).toBe(0);
    const check = [
      'import numpy as np, sys',
      'd = sys.argv[1]',
      'w = np.load(d + "/skiff_w.npy"); assert w.dtype == np.float32 and w.shape == (3, 1), w',
      'np.testing.assert_allclose(w.ravel(), [2.0, -1.0, 0.5], atol=1e-3)',
      'i = np.load(d + "/skiff_i64.npy"); assert i.dtype == np.int64 and i.tolist() == [[-2, -1, 0], [1, 2, 3]], i',
      'b = np.load(d + "/skiff_bool.npy"); assert b.dtype == np.bool_ and b.shape == (3, 3), b',
      'z = np.load(d + "/skiff_model.npz"); assert sorted(z.files) == ["bias", "weight"] and z["bias"].shape == (1,), z.files',
      'print("ok")',
    ].join('\n');
    const r = spawnSync('python3', ['-c', check, out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok\n');
  }, 60_000);

  it.skipIf(!hostNumpy)('paddle.save writes .pdparams/.pdopt files that real numpy unpickles', async () => {
    const r = await skiff(['run', join(here, 'fixtures', 'pdparams_save.py'), '.'], out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // The values Skiff printed, checked against what real numpy reads back from the files.
    const check = [
      'import pickle, sys, numpy as np',
      'd, printed = sys.argv[1], sys.argv[2]',
      'net = pickle.load(open(d + "/net.pdparams", "rb"))',
      'names = net.pop("StructuredToParameterName@@")',
      'assert set(names) == {"0.weight", "0.bias", "1.weight", "1.bias"}, names',
      'for item in printed.strip().split(","):',
      '    k, vals = item.split("=")',
      '    a = net[k]; assert isinstance(a, np.ndarray) and a.dtype == np.float32, (k, type(a))',
      '    np.testing.assert_allclose(a.reshape(-1), [float(v) for v in vals.split()], rtol=1e-5, atol=1e-6)',
      'assert net["0.weight"].shape == (3, 2)',
      'opt = pickle.load(open(d + "/net.pdopt", "rb"))',
      'assert opt["@step"] == 1 and any(k.endswith("_moment1_0") for k in opt), sorted(opt)',
      'm = pickle.load(open(d + "/misc.pdparams", "rb"))',
      'assert m["ints"].dtype == np.int64 and m["ints"].tolist() == [[1, -2], [3, 4]]',
      'assert m["half"].dtype == np.float16 and m["flag"].dtype == np.bool_',
      'assert m["nested"][1:] == [3, "text"] and m["nested"][0].tolist() == [1.5]',
      'print("ok")',
    ].join('\n');
    const h = spawnSync('python3', ['-c', check, out, r.out], { encoding: 'utf8' });
    expect(h.stderr).toBe('');
    expect(h.stdout).toBe('ok\n');
  }, 60_000);
});
