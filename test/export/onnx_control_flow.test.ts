// Control flow to ONNX: programs built with paddle.static.nn.cond (pd_op.if -> If) and
// while_loop (pd_op.while -> Loop), nested both ways and capturing outer values and
// parameters, run in onnxruntime-node with the static Executor's results for inputs that take
// every branch and run the loop zero and several times; onnx.checker where installed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { usePython } from '../python/host_fixture.js';
import { decodeModel, exportOnnx } from '../../src/jit/onnx/index.js';
import { paddle } from '../../src/paddle.js';
import type { Value } from '../../src/pir/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { checkModel, expectClose, runOrt, toOrt } from './ort_helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-onnx-cf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type T = any;
const t = (d: unknown, dt = 'float32') => paddle.to_tensor(d as number[], dt) as Tensor;
const nn = () => paddle.static.nn;

interface Case {
  name: string;
  build: () => Value[];
  /** Feeds to run (each must be valid for the program's data ops). */
  feeds: Record<string, Tensor>[];
  /** ONNX ops the model must contain (checked over every graph, subgraphs included). */
  onnxOps: string[];
}

const W = [[0.5, -1], [1, 0.25], [-0.5, 2]];

const CASES: Case[] = [
  {
    name: 'if: symbolic batch, a branch returning its input',
    build: () => {
      const x = paddle.static.data('x', [null, 3], 'float32');
      const y = nn().cond(paddle.greater_than(paddle.sum(x) as T, t(0)) as T, () => paddle.exp(x), () => x);
      return [paddle.add(y as T, x) as Value];
    },
    feeds: [{ x: t([[0.5, -1, 2], [1, 0, 0]]) }, { x: t([[-0.5, -1, 0.2]]) }],
    onnxOps: ['If'],
  },
  {
    name: 'if: nested, several results, a captured parameter',
    build: () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const a = paddle.static.data('a', [1], 'bool');
      const b = paddle.static.data('b', [], 'bool');
      const w = t(W);
      return nn().cond(a, () => [nn().cond(b, () => paddle.matmul(x, w), () => paddle.matmul(paddle.tanh(x), w)), x],
        () => [paddle.scale(paddle.matmul(x, w), 2), paddle.remainder(paddle.cos(x), t([0.375]))]) as Value[];
    },
    feeds: [[true, true], [true, false], [false, true]].map(([a, b]) => ({ x: t([[0.1, -0.7, 1.3], [2, 0.5, -1]]), a: t([a], 'bool'), b: t(b, 'bool') })),
    onnxOps: ['If'],
  },
  {
    name: 'while: counter and accumulator, zero and several trips',
    build: () => {
      const n = paddle.static.data('n', [1], 'int64');
      const x = paddle.static.data('x', [null, 3], 'float32');
      return nn().while_loop((i: T) => paddle.less_than(i, n), (i: T, s: T) => [paddle.add(i, t([1], 'int64')), paddle.add(paddle.multiply(s, t(0.5)), x)],
        [t([0], 'int64'), paddle.zeros_like(x)]) as Value[];
    },
    feeds: [0, 1, 4].map((k) => ({ n: t([k], 'int64'), x: t([[1, 2, 3], [-1, 0.5, 4]]) })),
    onnxOps: ['Loop'],
  },
  {
    name: 'while with an if in its body',
    build: () => {
      const x = paddle.static.data('x', [3], 'float32');
      const [, y] = nn().while_loop((i: T) => paddle.less_than(i, t([5], 'int64')),
        (i: T, v: T) => [paddle.add(i, t([1], 'int64')),
          nn().cond(paddle.equal(paddle.remainder(i, t([2], 'int64')), t([0], 'int64')) as T, () => paddle.add(v, x), () => paddle.multiply(v, x))],
        [t([0], 'int64'), x]) as Value[];
      return [y];
    },
    feeds: [{ x: t([0.5, -1.5, 1.1]) }],
    onnxOps: ['Loop', 'If'],
  },
];

function opsOf(graph: { node: { op_type: string; attribute?: { g?: unknown }[] }[] }): string[] {
  return graph.node.flatMap((n) => [n.op_type, ...(n.attribute ?? []).flatMap((a) => (a.g ? opsOf(a.g as never) : []))]);
}

describe('ONNX export of pd_op.if / pd_op.while', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const prog = new paddle.static.Program();
      const outs = paddle.static.program_guard(prog, c.build);
      const bytes = exportOnnx(prog, { outputs: outs });
      checkModel(dir, bytes, c.name.replace(/\W+/g, '_'));
      const ops = opsOf(decodeModel(bytes).graph);
      for (const op of c.onnxOps) expect(ops, op).toContain(op);
      const exe = new paddle.static.Executor();
      for (const feed of c.feeds) {
        const want = exe.run(prog, { feed, fetch_list: outs }) as Tensor[];
        const got = await runOrt(bytes, Object.fromEntries(Object.entries(feed).map(([k, v]) => [k, toOrt(v)])));
        want.forEach((w, i) => {
          const g = got[`output_${i}`] as ort.Tensor;
          const what = `${c.name} ${JSON.stringify(Object.fromEntries(Object.entries(feed).map(([k, v]) => [k, v.tolist()])))} output ${i}`;
          if (w.dtype === 'float32') expectClose(g, { shape: w.shape, data: w.rawData() as Float32Array }, what);
          else expect([...(g.data as BigInt64Array)].map(Number), what).toEqual([...(w.rawData() as BigInt64Array)].map(Number));
        });
      }
      prog.dispose();
    });
  }

  it('a region op without a conversion is named', () => {
    const prog = new paddle.static.Program();
    const outs = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      return [nn().cond(paddle.greater_than(paddle.sum(x) as T, t(0)) as T, () => paddle.logcumsumexp(x, 0), () => x) as Value];
    });
    expect(() => exportOnnx(prog, { outputs: outs })).toThrow(/op 'logcumsumexp' has no ONNX converter/);
    prog.dispose();
  });
});

// A Python Layer whose forward uses paddle.static.nn.cond and while_loop: eager in dynamic mode,
// If and Loop in the exported model.
const PY_CF = `
import sys, paddle
class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)
    def forward(self, x, n):
        y = paddle.static.nn.cond(paddle.sum(x) > 0, lambda: paddle.exp(x), lambda: self.fc(x))
        _, y = paddle.static.nn.while_loop(lambda i, v: i < n, lambda i, v: [i + 1, v * 0.5 + x], [paddle.zeros([1], 'int64'), y])
        return y
paddle.seed(3)
m = Net()
out = sys.argv[1]
for k, (x, n) in enumerate([([[1.0, 2.0, -0.5]], 3), ([[-1.0, -2.0, 0.5], [0.25, -3.0, 1.0]], 0), ([[-1.0, 0.0, 0.5]], 2)]):
    y = m(paddle.to_tensor(x), paddle.to_tensor([n], 'int64'))
    open('%s/y%d.bin' % (out, k), 'wb').write(y.numpy().tobytes())
paddle.onnx.export(m, out + '/cf', input_spec=[paddle.static.InputSpec([None, 3], 'float32', 'x'), paddle.static.InputSpec([1], 'int64', 'n')])
`;
const PY_INPUTS: [number[][], number][] = [[[[1, 2, -0.5]], 3], [[[-1, -2, 0.5], [0.25, -3, 1]], 0], [[[-1, 0, 0.5]], 2]];

describe('ONNX control flow from Python (paddle.static.nn in a Layer)', () => {
  const py = usePython();

  it('cond + while_loop export as If + Loop and match eager Python', async () => {
    const out = mkdtempSync(join(dir, 'py-cf-'));
    const rc = py.run(PY_CF, [py.host.fsPathOf(out)]);
    expect(rc, py.printed.join('')).toBe(0);
    const bytes = new Uint8Array(readFileSync(join(out, 'cf.onnx')));
    checkModel(dir, bytes, 'py_cf');
    const ops = opsOf(decodeModel(bytes).graph);
    expect(ops).toContain('If');
    expect(ops).toContain('Loop');
    for (const [k, [x, n]] of PY_INPUTS.entries()) {
      const got = await runOrt(bytes, { x: new ort.Tensor('float32', Float32Array.from(x.flat()), [x.length, 3]), n: new ort.Tensor('int64', BigInt64Array.from([BigInt(n)]), [1]) });
      const b = readFileSync(join(out, `y${k}.bin`));
      expectClose(got.output_0 as ort.Tensor, { shape: [x.length, 3], data: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) }, `python input ${k}`);
    }
  }, 120_000);
});
