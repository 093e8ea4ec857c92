// Every zoo model (docs/models.md) exported with paddle.onnx.export from TypeScript and from
// Python runs in onnxruntime-node with every output within 1e-4 relative / 1e-5 absolute of
// Skiff's eager eval-mode outputs, and passes onnx.checker where python3-onnx is installed.
// Reduced widths/depths keep it fast; the op mix is the full model's. Vision models keep a
// symbolic batch and run at two batch sizes. (ResNet-18 and MobileNetV2 from TS, LeNet and
// ResNet-18 from Python are in onnx.test.ts; ResNet-50, whose 94 MB model takes ~15 s per
// language here, is exported and checked against onnxruntime by bench/export_latency.ts.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { usePython } from '../python/host_fixture.js';
import { decodeModel } from '../../src/jit/onnx/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { mobilenet_v2, VGG, makeLayers, VisionTransformer } from '../../models/vision/index.js';
import { BertForSequenceClassification, BertModel, LSTMLanguageModel, gpt_mini } from '../../models/text/index.js';
import { checkModel, expectClose, runOrt, toOrt } from './ort_helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-onnx-zoo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nn = paddle.nn;
/** paddle.vision.models.LeNet's layers (the TS zoo has no LeNet of its own). */
class LeNet extends nn.Layer {
  features = new nn.Sequential(new nn.Conv2D(1, 6, 3, 1, 1), new nn.ReLU(), new nn.MaxPool2D(2, 2), new nn.Conv2D(6, 16, 5, 1, 0), new nn.ReLU(), new nn.MaxPool2D(2, 2));
  fc = new nn.Sequential(new nn.Linear(400, 120), new nn.Linear(120, 84), new nn.Linear(84, 10));
  forward(x: Tensor) { return this.fc.call(paddle.flatten(this.features.call(x) as Tensor, 1)); }
}

// VGG-11's layer pattern (cfg 'A') at 1/8 width, no classifier (its 25088-wide Linear is a
// matmul like any other); the 7x7 adaptive pool on a 1x1 map is an uneven-window pool.
const VGG11_NARROW: (number | 'M')[] = [8, 'M', 16, 'M', 32, 32, 'M', 64, 64, 'M', 64, 64, 'M'];
const BERT_CFG = { vocab_size: 50, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16, type_vocab_size: 2 };

interface Spec { name: string; dtype: 'float32' | 'int64'; shape: (number | null)[] }
interface Case {
  name: string;
  ts: () => any;
  /** Python expression building the same architecture (text models are imported from models/text). */
  py: string;
  specs: Spec[];
  /** Concrete shapes to run (one list of input shapes per run). */
  runs: number[][][];
  /** int64 inputs are drawn from [0, vocab). */
  vocab?: number;
}

// The text models keep a symbolic batch and sequence length (the LSTM LM's time loop becomes a
// Loop: src/nn/rnn_dynamic.ts), run at two shapes each.
const CASES: Case[] = [
  { name: 'lenet', ts: () => new LeNet(), py: 'paddle.vision.models.LeNet()', specs: [{ name: 'x', dtype: 'float32', shape: [null, 1, 28, 28] }], runs: [[[1, 1, 28, 28]], [[3, 1, 28, 28]]] },
  { name: 'mobilenet_v2', ts: () => mobilenet_v2({ scale: 0.35, num_classes: 6 }), py: 'paddle.vision.models.mobilenet_v2(scale=0.35, num_classes=6)', specs: [{ name: 'x', dtype: 'float32', shape: [null, 3, 32, 32] }], runs: [[[2, 3, 32, 32]]] },
  { name: 'vgg11', ts: () => new VGG(makeLayers(VGG11_NARROW), { num_classes: 0 }), py: `paddle.vision.models.VGG(paddle.vision.models.vgg.make_layers(${JSON.stringify(VGG11_NARROW)}), num_classes=0)`,
    specs: [{ name: 'x', dtype: 'float32', shape: [null, 3, 32, 32] }], runs: [[[1, 3, 32, 32]], [[2, 3, 32, 32]]] },
  { name: 'vit_small', ts: () => new VisionTransformer({ img_size: 32, patch_size: 8, class_num: 5, embed_dim: 48, depth: 2, num_heads: 6, mlp_ratio: 3, qkv_bias: false, qk_scale: null }),
    py: 'paddle.vision.models.VisionTransformer(img_size=32, patch_size=8, class_num=5, embed_dim=48, depth=2, num_heads=6, mlp_ratio=3, qkv_bias=False)',
    specs: [{ name: 'x', dtype: 'float32', shape: [null, 3, 32, 32] }], runs: [[[1, 3, 32, 32]], [[2, 3, 32, 32]]] },
  { name: 'bert_tiny', ts: () => new BertForSequenceClassification(new BertModel(BERT_CFG), 3), py: `BertForSequenceClassification(BertModel(**${JSON.stringify(BERT_CFG)}), 3)`,
    specs: [{ name: 'ids', dtype: 'int64', shape: [null, null] }], runs: [[[2, 6]], [[1, 9]]], vocab: 50 },
  { name: 'gpt_mini', ts: () => gpt_mini({ vocab_size: 40, max_position_embeddings: 16, num_hidden_layers: 2 }), py: 'gpt_mini(vocab_size=40, max_position_embeddings=16, num_hidden_layers=2)',
    specs: [{ name: 'ids', dtype: 'int64', shape: [null, null] }], runs: [[[2, 7]], [[3, 4]]], vocab: 40 },
  { name: 'lstm_lm', ts: () => new LSTMLanguageModel(30, { embed_dim: 12, hidden_size: 12, num_layers: 2, dropout: 0.1 }),
    py: 'LSTMLanguageModel(30, embed_dim=12, hidden_size=12, num_layers=2, dropout=0.1)', specs: [{ name: 'ids', dtype: 'int64', shape: [null, null] }], runs: [[[3, 5]], [[2, 9]]], vocab: 30 },
];

function flat(out: unknown): Tensor[] {
  if (Array.isArray(out)) return out.flatMap(flat);
  return [out as Tensor];
}

function input(s: Spec, shape: number[], vocab = 10): Tensor {
  return (s.dtype === 'int64' ? paddle.randint(0, vocab, shape, 'int64') : paddle.randn(shape)) as Tensor;
}

describe('indexing traced values (Tensor.get on program values)', () => {
  it('basic items keep symbolic dims; sized items on a symbolic dim are refused', () => {
    const prog = new paddle.static.Program();
    paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [null, 4, 5], 'float32') as any;
      expect(x.get(':', 1).shape.map(String)).toEqual(['s0', '5']);
      expect(x.get(0, '1:3').shape).toEqual([2, 5]);
      expect(x.get('...', 2).shape.map(String)).toEqual(['s0', '4']);
      expect(() => x.get('1:')).toThrow(/Tensor.get: axis 0 has a symbolic size; only ':' or a non-negative int can index it/);
      expect(() => x.get(-1)).toThrow(/axis 0 has a symbolic size/);
    });
    prog.dispose();
  });
});

describe('ONNX export of the zoo from TypeScript', () => {
  for (const c of CASES) {
    it(`${c.name}: onnxruntime matches eager at ${c.runs.map((r) => r[0][0]).join(' and ')} (batch)`, async () => {
      paddle.seed(11);
      const m = c.ts();
      m.eval();
      const bytes: Uint8Array = paddle.onnx.export(m, join(dir, `ts_${c.name}`), c.specs.map((s) => new paddle.static.InputSpec(s.shape, s.dtype, s.name)));
      checkModel(dir, bytes, `ts_${c.name}`);
      const graph = decodeModel(bytes).graph;
      // Symbolic dims stay symbolic (dim_param), static ones are values.
      c.specs[0].shape.forEach((d, i) => expect(graph.input[0].type.tensor_type.shape.dim[i], `${c.name} dim ${i}`).toEqual(d === null ? { dim_param: expect.any(String) } : { dim_value: d }));
      for (const shapes of c.runs) {
        const xs = c.specs.map((s, i) => input(s, shapes[i], c.vocab));
        const want = flat(paddle.no_grad(() => m.call(...xs)));
        const got = await runOrt(bytes, Object.fromEntries(c.specs.map((s, i) => [s.name, toOrt(xs[i])])));
        expect(Object.keys(got).length).toBe(want.length);
        want.forEach((w, i) => expectClose(got[`output_${i}`] as ort.Tensor, { shape: w.shape, data: w.rawData() as Float32Array }, `${c.name} output ${i} batch ${shapes[0][0]}`));
      }
    }, 60_000);
  }
});

// The Python side: build, run eagerly on random inputs, export; files in `out` (a manifest
// lists the inputs and outputs, raw little-endian data).
const PY_ZOO = `
import json, sys, paddle
import numpy as np
sys.path.insert(0, sys.argv[3])
from text.bert import BertModel, BertForSequenceClassification
from text.gpt import gpt_mini
from text.lstm_lm import LSTMLanguageModel
case, out = json.loads(sys.argv[1]), sys.argv[2]
paddle.seed(12)
m = eval(case['py'])
m.eval()
def flat(o):
    return [t for x in o for t in flat(x)] if isinstance(o, (list, tuple)) else [o]
runs = []
for r, shapes in enumerate(case['runs']):
    xs = [paddle.randint(0, case.get('vocab', 10), shp, 'int64') if s['dtype'] == 'int64' else paddle.randn(shp)
          for s, shp in zip(case['specs'], shapes)]
    ys = flat(m(*xs))
    files = []
    for k, t in enumerate(xs + ys):
        f = '%s/r%d_%d.bin' % (out, r, k)
        open(f, 'wb').write(t.numpy().tobytes())
        files.append({'file': f, 'shape': list(t.shape), 'dtype': str(t.dtype).replace('paddle.', '')})
    runs.append({'inputs': files[:len(xs)], 'outputs': files[len(xs):]})
json.dump(runs, open(out + '/manifest.json', 'w'))
m.train()
paddle.onnx.export(m, out + '/model', input_spec=[paddle.static.InputSpec(s['shape'], s['dtype'], s['name']) for s in case['specs']])
assert m.training and paddle.in_dynamic_mode()
`;

describe('ONNX export of the zoo from Python', () => {
  const py = usePython();

  for (const c of CASES) {
    it(`${c.name}: onnxruntime matches eager Python`, async () => {
      const out = mkdtempSync(join(dir, `py-${c.name}-`));
      const rc = py.run(PY_ZOO, [JSON.stringify({ py: c.py, specs: c.specs, runs: c.runs, vocab: c.vocab }), py.host.fsPathOf(out), py.host.fsPathOf(join(__dirname, '../../models'))]);
      expect(rc, py.printed.join('')).toBe(0);
      const bytes = new Uint8Array(readFileSync(join(out, 'model.onnx')));
      checkModel(dir, bytes, `py_${c.name}`);
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { inputs: { file: string; shape: number[]; dtype: string }[]; outputs: { file: string; shape: number[] }[] }[];
      const local = (f: string): Buffer => readFileSync(join(out, f.slice(f.lastIndexOf('/') + 1)));
      for (const run of manifest) {
        const feeds = Object.fromEntries(run.inputs.map((x, i) => {
          const b = local(x.file);
          const data = x.dtype === 'int64' ? new BigInt64Array(b.buffer, b.byteOffset, b.byteLength / 8).slice() : new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice();
          return [c.specs[i].name, new ort.Tensor(x.dtype as 'int64' | 'float32', data, x.shape)];
        }));
        const got = await runOrt(bytes, feeds);
        expect(Object.keys(got).length).toBe(run.outputs.length);
        run.outputs.forEach((o, i) => {
          const b = local(o.file);
          expectClose(got[`output_${i}`] as ort.Tensor, { shape: o.shape, data: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) }, `python ${c.name} output ${i} batch ${o.shape[0]}`);
        });
      }
    }, 120_000);
  }
});
