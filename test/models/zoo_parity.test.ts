// The zoo's TypeScript and Python models compute the same thing from the same weights, in both
// directions: TS → Python (TS state saved, loaded by Python) and Python → TS. State moves as a
// directory of .npy files, one per state_dict key (models/npy_state.ts; np.save / np.load in
// Python): no pickle reader in TS, and every file is inspectable. Outputs are compared in eval
// mode (fresh running statistics) and in train mode (batch statistics, dropout off).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPython, type PythonHost } from '../../frontend/python/host.js';
import type { Layer } from '../../src/nn/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { loadStateNpy, saveStateNpy, fromNpy, npyBytes } from '../../models/npy_state.js';
import { VGG, VisionTransformer, makeLayers, mobilenet_v2, resnet18, resnet50 } from '../../models/vision/index.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { PARITY_TEXT_CASES } from './zoo_parity_text.js';
import { dropoutOff, type ParityCase } from './zoo_helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const T = (v: unknown): Tensor => v as Tensor;


const CASES: ParityCase[] = [
  { name: 'resnet18', build: () => resnet18({ num_classes: 10 }), inputs: () => [T(paddle.randn([2, 3, 32, 32]))] },
  { name: 'resnet50', build: () => resnet50({ num_classes: 4 }), inputs: () => [T(paddle.randn([2, 3, 32, 32]))] },
  { name: 'mobilenet_v2', build: () => mobilenet_v2({ scale: 0.35, num_classes: 6 }), inputs: () => [T(paddle.randn([2, 3, 32, 32]))] },
  { name: 'vgg_bn', build: () => new VGG(makeLayers([8, 'M', 16, 'M'], true), { num_classes: 0 }), inputs: () => [T(paddle.randn([2, 3, 16, 16]))] },
  { name: 'vit', build: () => new VisionTransformer({ img_size: 32, patch_size: 8, class_num: 5, embed_dim: 32, depth: 2, num_heads: 4, qkv_bias: true }),
    inputs: () => [T(paddle.randn([2, 3, 32, 32]))] },
  ...PARITY_TEXT_CASES,
];

/** A model's main output: logits when it also returns states (LSTM LM). */
const first = (out: unknown): Tensor => T(Array.isArray(out) ? out[0] : out);

function tsOutputs(model: Layer, inputs: Tensor[]): { evalOut: Tensor; trainOut: Tensor } {
  model.eval();
  const evalOut = first(model.call(...inputs));
  model.train();
  dropoutOff(model);
  return { evalOut, trainOut: first(model.call(...inputs)) };
}

function expectClose(got: Tensor, want: Tensor, tol: number, what: string): void {
  expect(got.shape, what).toEqual(want.shape);
  const a = got.dataSync() as number[], b = want.dataSync() as number[];
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / (1 + Math.abs(b[i])));
  expect(worst, `${what}: worst relative difference`).toBeLessThan(tol);
}

describe('zoo: identical outputs in TypeScript and Python for identical weights', () => {
  let host: PythonHost;
  let root: string;
  const out: string[] = [];
  beforeAll(async () => {
    host = await loadPython({ version: '3.12', stdout: (b) => { out.push(Buffer.from(b).toString()); }, stderr: (b) => { out.push(Buffer.from(b).toString()); } });
    root = mkdtempSync(join(tmpdir(), 'skiff-zoo-parity-'));
    host.fsPathOf(root);
  });
  afterAll(() => { if (root) rmSync(root, { recursive: true, force: true }); });

  const runPy = (name: string, mode: 'load' | 'save', dir: string) => {
    out.length = 0;
    const rc = host.runFile(join(here, 'zoo_parity.py'), [name, mode, host.fsPathOf(dir)]);
    host.flush();
    if (rc !== 0) throw new Error(`zoo_parity.py ${name} ${mode} exited ${rc}:\n${out.join('')}`);
  };

  for (const c of CASES) {
    it(`${c.name}: TS weights → Python`, () => {
      const dir = mkdtempSync(join(root, `${c.name}-ts-`));
      paddle.seed(7);
      const model = c.build();
      const inputs = c.inputs();
      inputs.forEach((x, i) => writeFileSync(join(dir, `x${i}.npy`), npyBytes(x)));
      saveStateNpy(join(dir, 'state'), model.state_dict());
      const { evalOut, trainOut } = tsOutputs(model, inputs);
      runPy(c.name, 'load', dir);
      expectClose(fromNpy(readFileSync(join(dir, 'py_eval.npy'))), evalOut, c.tol ?? 1e-4, 'eval');
      expectClose(fromNpy(readFileSync(join(dir, 'py_train.npy'))), trainOut, c.tol ?? 1e-4, 'train');
    });

    it(`${c.name}: Python weights → TS`, () => {
      const dir = mkdtempSync(join(root, `${c.name}-py-`));
      paddle.seed(8);
      c.inputs().forEach((x, i) => writeFileSync(join(dir, `x${i}.npy`), npyBytes(x)));
      runPy(c.name, 'save', dir);
      const model = c.build();
      const r = model.set_state_dict(loadStateNpy(join(dir, 'state')));
      // nn.LSTM's Python state lists its cells' parameters twice (weight_ih_l0 and 0.cell.weight_ih,
      // one tensor); TypeScript lists a shared tensor once, so only those aliases are unexpected
      expect(r.missing_keys).toEqual([]);
      expect(r.unexpected_keys.filter((k) => !k.includes('.cell.'))).toEqual([]);
      const inputs = c.inputs().map((_, i) => fromNpy(readFileSync(join(dir, `x${i}.npy`))));
      const { evalOut, trainOut } = tsOutputs(model, inputs);
      expectClose(evalOut, fromNpy(readFileSync(join(dir, 'py_eval.npy'))), c.tol ?? 1e-4, 'eval');
      expectClose(trainOut, fromNpy(readFileSync(join(dir, 'py_train.npy'))), c.tol ?? 1e-4, 'train');
    });
  }
});
