// The exported-model zoo shared by the predictor benchmarks (export_latency.ts, export_cpu_time.ts,
// predictor_profile.ts): how each model is built, its input, and how a saved model becomes a
// plan the native runner can time instruction by instruction.
import { join } from 'node:path';
import { compile, fromPir, type Executable } from '../src/executor/index.js';
import { readModel } from '../src/jit/load.js';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { mobilenet_v2, resnet18, resnet50 } from '../models/vision/index.js';
import { bert_tiny, gpt_mini } from '../models/text/index.js';

const nn = paddle.nn;

/** paddle.vision.models.LeNet's layers. */
class LeNet extends nn.Layer {
  features = new nn.Sequential(new nn.Conv2D(1, 6, 3, 1, 1), new nn.ReLU(), new nn.MaxPool2D(2, 2), new nn.Conv2D(6, 16, 5, 1, 0), new nn.ReLU(), new nn.MaxPool2D(2, 2));
  fc = new nn.Sequential(new nn.Linear(400, 120), new nn.Linear(120, 84), new nn.Linear(84, 10));
  forward(x: Tensor) { return this.fc.call(paddle.flatten(this.features.call(x) as Tensor, 1)); }
}

/** BERT-tiny's encoder + pooler; the sequence output is the model's output. */
class BertTinyEncoder extends nn.Layer {
  bert = bert_tiny();
  forward(ids: Tensor) { return (this.bert.call(ids) as Tensor[])[0]; }
}

export interface ZooModel {
  name: string;
  label: string;
  build: () => any;
  /** Input shape after the batch dim, dtype, and the int range for ids. */
  tail: number[]; dtype: 'float32' | 'int64'; vocab?: number;
  /** Runs per CPU-time block at batch 1 (export_cpu_time.ts). */
  reps: number;
}

export const ZOO: ZooModel[] = [
  { name: 'lenet', build: () => new LeNet(), tail: [1, 28, 28], dtype: 'float32', label: 'LeNet 1x28x28', reps: 200 },
  { name: 'resnet18', build: () => resnet18(), tail: [3, 224, 224], dtype: 'float32', label: 'ResNet-18 3x224x224', reps: 3 },
  { name: 'resnet50', build: () => resnet50(), tail: [3, 224, 224], dtype: 'float32', label: 'ResNet-50 3x224x224', reps: 2 },
  { name: 'mobilenet_v2', build: () => mobilenet_v2(), tail: [3, 224, 224], dtype: 'float32', label: 'MobileNetV2 3x224x224', reps: 5 },
  { name: 'bert_tiny', build: () => new BertTinyEncoder(), tail: [128], dtype: 'int64', vocab: 30522, label: 'BERT-tiny seq 128', reps: 10 },
  { name: 'gpt_mini', build: () => gpt_mini({ max_position_embeddings: 128 }), tail: [64], dtype: 'int64', vocab: 50257, label: 'GPT-mini seq 64 (logits 50257)', reps: 3 },
];

/** The models named on the command line (all when none), or an error naming the unknown one. */
export function chooseModels(bench: string, asked: string[], from: ZooModel[] = ZOO): ZooModel[] {
  for (const a of asked) if (!from.some((m) => m.name === a)) throw new Error(`${bench}: no model '${a}' (have: ${from.map((m) => m.name).join(', ')})`);
  return asked.length ? from.filter((m) => asked.includes(m.name)) : from;
}

/** Builds the model (seeded, eval mode) and saves it with a symbolic batch; returns the path prefix. */
export function saveModel(m: ZooModel, dir: string, onnx = false): string {
  paddle.seed(1);
  const layer = m.build();
  layer.eval();
  const prefix = join(dir, m.name);
  const spec = [new paddle.static.InputSpec([null, ...m.tail], m.dtype, 'x')];
  paddle.jit.save(layer, prefix, { input_spec: spec });
  if (onnx) paddle.onnx.export(layer, prefix, spec);
  return prefix;
}

/** A random input for the model at this batch size. */
export function randomInput(m: ZooModel, batch: number): Tensor {
  const shape = [batch, ...m.tail];
  return (m.dtype === 'int64' ? paddle.randint(0, m.vocab!, shape, 'int64') : paddle.randn(shape)) as Tensor;
}

/** A saved model compiled as the predictor does (constantParams: weights packed once), and its bound parameters. */
export function savedPlan(prefix: string, constantParams = true): { exe: Executable; bound: Tensor[] } {
  const model = readModel(prefix);
  const g = fromPir(model.program);
  const byName = new Map(model.header.params.map((p, i) => [p.name, model.params[i]]));
  const bound = [...g.params.map((n) => byName.get(n)!), ...g.constants];
  return { exe: compile(g.graph, { hostFns: g.hostFns, constantParams }), bound };
}
