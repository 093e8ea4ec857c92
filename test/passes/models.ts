// Three models for the pass tests, written against the public API so the ProgramRecorder turns
// them into PIR: an MLP, a LeNet-like conv net and a transformer block (also used by
// test/static/models.test.ts and test/pir_autodiff). Parameters are builtin.parameter values; the batch dim is s0.
import { paddle } from '../../src/paddle.js';
import { runOp } from '../../src/ops/index.js';
import { setStaticRecorder } from '../../src/ops/dispatch.js';
import { Builder, Program, ProgramRecorder, tensorType, type Value } from '../../src/pir/index.js';
import { sym } from '../../src/tensor/shape.js';

type T = any;  // PIR values flowing through the public API
const F = paddle.nn.functional;

const linear = (x: T, w: T, b: T): T => paddle.add(paddle.matmul(x, w), b);
const layerNorm = (x: T, g: T, b: T): T => runOp('layer_norm', [x, g, b], { epsilon: 1e-5, begin_norm_axis: x.shape.length - 1 })[0];

function mlp(x: T, p: Record<string, T>): T {
  return F.softmax(linear(F.relu(linear(x, p.w1, p.b1)), p.w2, p.b2));
}

function lenet(x: T, p: Record<string, T>): T {
  let h = F.max_pool2d(F.relu(F.conv2d(x, p.c1w, p.c1b, { padding: 2 })), 2, 2);
  h = F.max_pool2d(F.relu(F.conv2d(h, p.c2w, p.c2b)), 2, 2);
  h = paddle.flatten(h, 1);
  h = F.relu(linear(h, p.f1w, p.f1b));
  h = F.relu(linear(h, p.f2w, p.f2b));
  return linear(h, p.f3w, p.f3b);
}

const SEQ = 6, WIDTH = 16, HEADS = 2, HEAD = WIDTH / HEADS;
function block(x: T, p: Record<string, T>): T {
  const heads = (t: T): T => paddle.transpose(paddle.reshape(t, [0, SEQ, HEADS, HEAD]), [0, 2, 1, 3]);
  const h = layerNorm(x, p.ln1g, p.ln1b);
  const q = heads(linear(h, p.wq, p.bq)), k = heads(linear(h, p.wk, p.bk)), v = heads(linear(h, p.wv, p.bv));
  const att = F.softmax(paddle.scale(paddle.matmul(q, k, false, true), 1 / Math.sqrt(HEAD)));
  const ctx = paddle.reshape(paddle.transpose(paddle.matmul(att, v), [0, 2, 1, 3]), [0, SEQ, WIDTH]);
  const x1 = paddle.add(x, linear(ctx, p.wo, p.bo));
  const m = linear(F.gelu(linear(layerNorm(x1, p.ln2g, p.ln2b), p.m1w, p.m1b)), p.m2w, p.m2b);
  return paddle.add(x1, m);
}

export interface ModelSpec {
  name: string;
  /** Input shape without the batch dim. */
  inTail: number[];
  params: Record<string, number[]>;
  fn: (x: T, p: Record<string, T>) => T;
}

export const MODELS: readonly ModelSpec[] = [
  { name: 'mlp', inTail: [16], params: { w1: [16, 32], b1: [32], w2: [32, 10], b2: [10] }, fn: mlp },
  {
    name: 'lenet', inTail: [1, 28, 28], fn: lenet, params: {
      c1w: [6, 1, 5, 5], c1b: [6], c2w: [16, 6, 5, 5], c2b: [16], f1w: [400, 120], f1b: [120], f2w: [120, 84], f2b: [84], f3w: [84, 10], f3b: [10],
    },
  },
  {
    name: 'transformer_block', inTail: [SEQ, WIDTH], fn: block, params: {
      ln1g: [WIDTH], ln1b: [WIDTH], wq: [WIDTH, WIDTH], bq: [WIDTH], wk: [WIDTH, WIDTH], bk: [WIDTH], wv: [WIDTH, WIDTH], bv: [WIDTH],
      wo: [WIDTH, WIDTH], bo: [WIDTH], ln2g: [WIDTH], ln2b: [WIDTH], m1w: [WIDTH, 4 * WIDTH], m1b: [4 * WIDTH], m2w: [4 * WIDTH, WIDTH], m2b: [WIDTH],
    },
  },
];

/** Records `spec` into a new program with a symbolic batch dim; `extra` may add ops around the model. */
export function buildModel(spec: ModelSpec, extra?: (b: Builder, out: Value) => Value): Program {
  const p = new Program();
  const b = new Builder(p);
  const x = b.data('x', [sym('s0'), ...spec.inTail], 'float32');
  const params: Record<string, Value> = {};
  for (const [n, shape] of Object.entries(spec.params)) params[n] = b.parameter(`${spec.name}.${n}`, tensorType('float32', shape));
  const prev = setStaticRecorder(new ProgramRecorder(b));
  let out: Value;
  try {
    out = spec.fn(x, params) as Value;
    if (extra) out = extra(b, out);
  } finally {
    setStaticRecorder(prev);
  }
  b.fetch(out, 'out');
  return p;
}
