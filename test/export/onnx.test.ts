// ONNX export (src/jit/onnx): exported models run in onnxruntime-node with outputs within
// 1e-4 relative / 1e-5 absolute of Skiff's, at two batch sizes when the batch dim is symbolic,
// and pass onnx.checker when Debian's python3-onnx is installed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { usePython } from '../python/host_fixture.js';
import { compile, fromPir } from '../../src/executor/index.js';
import { decodeModel, exportOnnx } from '../../src/jit/onnx/index.js';
import { runOp } from '../../src/ops/index.js';
import { setStaticRecorder } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import { Builder, Program, ProgramRecorder, tensorType } from '../../src/pir/index.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { randTensor } from '../executor/helpers.js';
import { buildModel, MODELS } from '../passes/models.js';
import { resnet18, mobilenet_v2 } from '../../models/vision/index.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Debian's python3-onnx lives in the system interpreter, which may not be the first python3 on PATH.
const checkerPython = ['/usr/bin/python3', 'python3'].find((py) => {
  try { execFileSync(py, ['-c', 'import onnx'], { stdio: 'ignore' }); return true; } catch { return false; }
});
if (!checkerPython) console.warn('onnx.checker checks skipped: `python3 -c "import onnx"` fails (install python3-onnx: scripts/system-deps.sh)');

function checkModel(bytes: Uint8Array, name: string): void {
  if (!checkerPython) return;
  const file = join(dir, `${name}.onnx`);
  writeFileSync(file, bytes);
  execFileSync(checkerPython, ['-c', 'import onnx, sys; onnx.checker.check_model(onnx.load(sys.argv[1]), full_check=True)', file], { stdio: 'pipe' });
}

const ORT_TYPE: Record<string, ort.Tensor.Type> = { float32: 'float32', int64: 'int64', int32: 'int32', bool: 'bool', float64: 'float64' };
const toOrt = (t: Tensor): ort.Tensor => new ort.Tensor(ORT_TYPE[t.dtype], t.rawData() as never, [...t.shape]);

async function runOrt(bytes: Uint8Array, feeds: Record<string, Tensor>): Promise<ort.InferenceSession.OnnxValueMapType> {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 });
  try {
    return await s.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, toOrt(v)])));
  } finally {
    await s.release();
  }
}

function expectClose(got: ort.Tensor, want: Tensor, what: string): void {
  expect([...got.dims], `${what}: shape`).toEqual(want.shape);
  const a = got.data as Float32Array, b = Float32Array.from(want.rawData() as Float32Array);
  let worst = 0, at = -1;
  for (let i = 0; i < b.length; i++) {
    const excess = Math.abs(a[i] - b[i]) - (1e-5 + 1e-4 * Math.abs(b[i]));
    if (!(excess <= worst)) { worst = excess; at = i; }
  }
  expect(at, `${what}: element ${at}: onnxruntime ${a[at]} vs skiff ${b[at]}`).toBe(-1);
}

describe('onnx export of PIR programs (test/passes/models.ts)', () => {
  for (const spec of MODELS) {
    it(`${spec.name}: matches the executor at batch 2 and 5`, async () => {
      const p = buildModel(spec);
      const params: Record<string, Tensor> = {};
      let seed = 7;
      for (const [n, shape] of Object.entries(spec.params)) params[`${spec.name}.${n}`] = randTensor(shape, seed++);
      const bytes = exportOnnx(p, { params: (n) => params[n] });
      checkModel(bytes, spec.name);
      const m = decodeModel(bytes);
      expect(m.graph.input[0].type.tensor_type.shape.dim[0]).toEqual({ dim_param: 's0' });
      const inits = new Set(m.graph.initializer.map((t: { name: string }) => t.name));
      for (const n of Object.keys(params)) expect(inits.has(n), `initializer ${n}`).toBe(true);
      const g = fromPir(p);
      const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants] });
      for (const batch of [2, 5]) {
        const x = randTensor([batch, ...spec.inTail], 100 + batch);
        const [want] = exe.run([x]);
        const got = await runOrt(bytes, { x });
        expectClose(got.out as ort.Tensor, want, `${spec.name} batch ${batch}`);
      }
      exe.dispose();
    });
  }

  it('converts shape, reduction, comparison, attention and fused ops (outputs match the executor)', async () => {
    const F = paddle.nn.functional;
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [sym('s0'), 4, 6], 'float32');
    const shapes: Record<string, number[]> = { w: [6, 5], bias: [5], lnw: [24], lnb: [24], cw: [4, 4, 3, 3], dw: [4, 1, 3, 3], cb: [4] };
    const params: Record<string, Tensor> = {};
    const pv: Record<string, any> = {};
    let seed = 40;
    for (const [n, shape] of Object.entries(shapes)) { params[n] = randTensor(shape, seed++); pv[n] = b.parameter(n, tensorType('float32', shape)); }
    params.idx = paddle.to_tensor([3, 0, 3], 'int64');
    pv.idx = b.parameter('idx', tensorType('int64', [3]));
    const prev = setStaticRecorder(new ProgramRecorder(b));
    const outs: Record<string, any> = {};
    try {
      const [a0, a1] = paddle.split(x, [2, 4], 2);
      const c = paddle.concat([a1, a0], 2);
      outs.slice = paddle.slice(c, [2], [1], [5]);
      outs.strided = paddle.squeeze(paddle.unsqueeze(paddle.strided_slice(c, [1], [0], [4], [2]), 1), 1);
      outs.gather = paddle.gather(x, pv.idx, 2);
      outs.reduce = paddle.add(paddle.add(paddle.mean(x, 1), paddle.max(x, 1)), paddle.squeeze(paddle.sum(x, [1], null, true), 1));
      const big = paddle.greater_than(x, paddle.scale(x, 0.5, 0.1));
      outs.where = paddle.where(big, F.silu(x), paddle.pow(paddle.abs(x), paddle.full_like(x, 1.5)));
      outs.cast = paddle.cast(paddle.add(paddle.cast(x, 'float64'), paddle.cast(x, 'float64')), 'float32');
      outs.logsm = F.log_softmax(paddle.tanh(x), 1);
      outs.ln = runOp('layer_norm', [x, pv.lnw, pv.lnb], { epsilon: 1e-5, begin_norm_axis: 1 })[0];
      const q = paddle.reshape(x, [0, 4, 2, 3]);
      outs.sdpa = F.scaled_dot_product_attention(q, q, q, null, 0, true, false);
      outs.gemm = runOp('fused_gemm_epilogue', [paddle.reshape(x, [-1, 6]), pv.w, pv.bias], { activation: 'relu' })[0];
      // randTensor's values are small: scale so relu6 clips at 6 too.
      const img = paddle.scale(paddle.reshape(x, [0, 4, 2, 3]), 40);
      for (const act of ['identity', 'relu', 'relu6', 'hardswish'])
        outs[`conv_${act}`] = runOp('fused_conv2d_add_act', [img, pv.cw, pv.cb], { padding: 1, activation: act })[0];
      outs.dwconv = runOp('fused_conv2d_add_act', [img, pv.dw, null], { padding: 1, groups: 4, stride: 2, activation: 'relu6' })[0];
      // residual_data (a ResNet block's identity): Add before the activation.
      outs.conv_res = runOp('fused_conv2d_add_act', [img, pv.cw, pv.cb, paddle.scale(outs.conv_identity, 0.5, -1)], { padding: 1, activation: 'relu' })[0];
      outs.flat = paddle.flatten(paddle.transpose(x, [0, 2, 1]), 1, 2);
    } finally {
      setStaticRecorder(prev);
    }
    const names = Object.keys(outs);
    for (const n of names) b.fetch(outs[n], n);
    const used = new Set(p.allOps().map((o) => o.name));
    for (const op of ['split', 'concat', 'slice', 'strided_slice', 'gather', 'where', 'cast', 'layer_norm', 'scaled_dot_product_attention', 'fused_gemm_epilogue', 'fused_conv2d_add_act', 'flatten', 'elementwise_pow', 'greater_than', 'full_like', 'log_softmax', 'silu']) {
      expect(used.has(`pd_op.${op}`), op).toBe(true);
    }
    const bytes = exportOnnx(p, { params: (n) => params[n] });
    checkModel(bytes, 'ops');
    const g = fromPir(p);
    const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants] });
    for (const batch of [1, 3]) {
      const xv = randTensor([batch, 4, 6], 60 + batch);
      const want = exe.run([xv]);
      const got = await runOrt(bytes, { x: xv });
      names.forEach((n, i) => expectClose(got[n] as ort.Tensor, want[i], `${n} batch ${batch}`));
    }
    exe.dispose();
  });

  it('names the op that has no converter', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [sym('s0'), 4], 'float32');
    const prev = setStaticRecorder(new ProgramRecorder(b));
    let y;
    try { y = runOp('logcumsumexp', [x as never], { axis: 1 })[0]; } finally { setStaticRecorder(prev); }
    b.fetch(y as never, 'out');
    expect(() => exportOnnx(p)).toThrow(/op 'logcumsumexp' has no ONNX converter/);
  });

  it('rejects a missing parameter and a bad opset with clear errors', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [2, 4], 'float32');
    const w = b.parameter('w_missing', tensorType('float32', [4, 3]));
    const prev = setStaticRecorder(new ProgramRecorder(b));
    let y;
    try { y = paddle.matmul(x, w); } finally { setStaticRecorder(prev); }
    b.fetch(y, 'out');
    expect(() => exportOnnx(p, { params: () => undefined })).toThrow(/parameter 'w_missing' has no tensor/);
    expect(() => exportOnnx(p, { opset: 9 })).toThrow(/opset 9 is not supported/);
  });
});

/** Exports `layer` with paddle.onnx.export and compares ORT with eager eval-mode outputs. */
async function checkLayer(name: string, layer: any, inputs: Tensor[][], specs: any[], pick: (o: any) => Tensor = (o) => o): Promise<void> {
  layer.eval();
  const bytes: Uint8Array = paddle.onnx.export(layer, join(dir, name), specs);
  expect(readFileSync(join(dir, `${name}.onnx`)).length).toBe(bytes.length);
  checkModel(bytes, name);
  const names = decodeModel(bytes).graph.input.map((i: { name: string }) => i.name);
  for (const xs of inputs) {
    const want = pick(paddle.no_grad(() => layer.call(...xs)));
    const got = await runOrt(bytes, Object.fromEntries(names.map((n: string, i: number) => [n, xs[i]])));
    expectClose(got.output_0 as ort.Tensor, want, `${name} batch ${xs[0].shape[0]}`);
  }
}

describe('paddle.onnx.export of layers', () => {
  const nn = paddle.nn;

  it('conv + batch norm net (NCHW and NHWC, groups, SAME/VALID padding)', async () => {
    paddle.seed(1);
    const net = new nn.Sequential(
      new nn.Conv2D(3, 8, 3, 1, 'SAME'), new nn.BatchNorm2D(8), new nn.ReLU(),
      new nn.Conv2D(8, 8, 3, 2, 1, 1, 4), new nn.BatchNorm2D(8), new nn.SiLU(),
      new nn.Conv2D(8, 8, 3, 1, 'VALID'), new nn.MaxPool2D(2, 2), new nn.AvgPool2D(2, 1),
      new nn.AdaptiveAvgPool2D(1), new nn.Flatten(), new nn.Linear(8, 5), new nn.Sigmoid(),
    );
    // Non-trivial running statistics so inference batch norm is really checked.
    const stats: Record<string, Tensor> = {};
    for (const [n, t] of Object.entries(net.state_dict()) as [string, Tensor][]) {
      if (n.endsWith('_mean')) stats[n] = paddle.rand(t.shape).scale(0.2);
      if (n.endsWith('_variance')) stats[n] = paddle.rand(t.shape).scale(0.5, 0.5);
    }
    expect(Object.keys(stats).length).toBe(4);
    net.set_state_dict(stats);
    await checkLayer('convbn', net, [[paddle.randn([2, 3, 17, 17])], [paddle.randn([3, 3, 17, 17])]], [new paddle.static.InputSpec([null, 3, 17, 17], 'float32', 'img')]);

    const nhwc = new nn.Sequential(new nn.Conv2D(3, 4, 3, 1, 1, 1, 1, 'zeros', null, null, 'NHWC'), new nn.ReLU());
    await checkLayer('conv_nhwc', nhwc, [[paddle.randn([2, 9, 9, 3])]], [[null, 9, 9, 3]]);
  });

  it('ResNet-18 and MobileNetV2 (models/vision)', async () => {
    paddle.seed(3);
    await checkLayer('resnet18', resnet18({ num_classes: 10 }), [[paddle.randn([1, 3, 32, 32])], [paddle.randn([2, 3, 32, 32])]], [[null, 3, 32, 32]]);
    await checkLayer('mobilenet_v2', mobilenet_v2({ num_classes: 10, scale: 0.5 }), [[paddle.randn([2, 3, 32, 32])]], [[null, 3, 32, 32]]);
  }, 120_000);

  // Symbolic batch and length: nn.MultiHeadAttention reshapes with 0 ("copy the dim") for them.
  it('embedding + transformer encoder layer (paddle.nn)', async () => {
    paddle.seed(4);
    class Encoder extends nn.Layer {
      emb = new nn.Embedding(50, 16, 0);
      enc = new nn.TransformerEncoderLayer(16, 2, 32, 0.1);
      head = new nn.Linear(16, 3);
      forward(ids: any): any { return this.head.call(paddle.mean(this.enc.call(this.emb.call(ids)), 1)); }
    }
    const ids = (b: number, l = 7) => paddle.randint(0, 50, [b, l], 'int64');
    await checkLayer('encoder', new Encoder(), [[ids(2)], [ids(3, 4)]], [new paddle.static.InputSpec([null, null], 'int64', 'ids')]);
  }, 60_000);
});

// Python: compat/paddle/onnx exports the Python zoo through the same converter.
const PY_EXPORT = `
import sys, paddle
name, out = sys.argv[1], sys.argv[2]
paddle.seed(5)
if name == 'lenet':
    m, shape = paddle.vision.models.LeNet(), [1, 28, 28]
else:
    m, shape = paddle.vision.models.resnet18(num_classes=10), [3, 32, 32]
m.eval()
for b in (2, 3):
    x = paddle.randn([b] + shape)
    open('%s/x%d.bin' % (out, b), 'wb').write(x.numpy().tobytes())
    open('%s/y%d.bin' % (out, b), 'wb').write(m(x).numpy().tobytes())
m.train()
paddle.onnx.export(m, out + '/model', input_spec=[paddle.static.InputSpec([None] + shape, 'float32', 'image')])
assert m.training and paddle.in_dynamic_mode()
`;

const f32 = (b: Buffer): Float32Array => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice();

describe('paddle.onnx.export from Python', () => {
  const py = usePython();

  for (const [name, tail] of [['lenet', [1, 28, 28]], ['resnet18', [3, 32, 32]]] as const) {
    it(`${name} (paddle.vision.models) matches eager Python at batch 2 and 3`, async () => {
      const out = mkdtempSync(join(dir, `py-${name}-`));
      const rc = py.run(PY_EXPORT, [name, py.host.fsPathOf(out)]);
      expect(rc, py.printed.join('')).toBe(0);
      const bytes = new Uint8Array(readFileSync(join(out, 'model.onnx')));
      checkModel(bytes, `py_${name}`);
      for (const b of [2, 3]) {
        const x = paddle.to_tensor(f32(readFileSync(join(out, `x${b}.bin`)))).reshape([b, ...tail]);
        const y = paddle.to_tensor(f32(readFileSync(join(out, `y${b}.bin`)))).reshape([b, 10]);
        const got = await runOrt(bytes, { image: x });
        expectClose(got.output_0 as ort.Tensor, y, `python ${name} batch ${b}`);
      }
    }, 120_000);
  }
});
