// A captured PyLayer below the Python frontend: the skiff.pylayer op (src/pir/dialects/pylayer.ts)
// is an alias when the executor runs forward, and its reverse rule puts one builtin.host_call of
// the registered backward into the backward program, which the executor runs by calling it; what
// the backward returns is checked against the inputs with errors naming the PyLayer.
import { describe, expect, it } from 'vitest';
import '../../src/autograd/index.js';
import { compile, executorCounters, fromPir } from '../../src/executor/index.js';
import { backwardProgram } from '../../src/pir/autodiff/index.js';
import { Attr, Builder, Program, PYLAYER_OP, verifyProgram } from '../../src/pir/index.js';
import { paddle } from '../../src/paddle.js';
import { Tensor, untracked } from '../../src/tensor/tensor.js';
import { type PyLayerBackwardCall, pyLayerGraphCounters, registerPyLayerBackward } from '../../sot/pylayer_graph.js';

/** x -> f = x * x (forward's op) -> y = pylayer(f; inputs x; saved x), fetched. */
function build(call: PyLayerBackwardCall, name: string) {
  const spec = registerPyLayerBackward(name, 1, [{ dtype: 'float32', shape: [3] }], call);
  const p = new Program();
  const b = new Builder(p);
  const x = b.data('x', [3], 'float32');
  const f = b.pdOp('multiply', [x, x]).result(0);
  const y = b.create(PYLAYER_OP, [f, x, x], [['callee', Attr.str(spec.callee)], ['n_in', Attr.int(1)]], [f.type]).result(0);
  return { p, b, x, y, spec };
}

function run(program: Program, feeds: Record<string, Tensor>): Map<string, Tensor> {
  const g = untracked(() => fromPir(program));
  const exe = compile(g.graph, { hostFns: g.hostFns });
  try {
    const outs = exe.run(g.feeds.map((n) => feeds[n]), g.constants);
    return new Map(g.fetches.map((n, i) => [n, outs[i]]));
  } finally {
    exe.dispose();
  }
}

/** The backward program of y w.r.t. x, run with a ones seed: x's gradient. */
function gradOf(program: Program, y: ReturnType<typeof build>['y'], x: ReturnType<typeof build>['x'], xv: Tensor): { grad: Tensor; ops: string[] } {
  const bw = backwardProgram(program, [y], [x]);
  const feeds: Record<string, Tensor> = {};
  for (const f of bw.forwardFeeds) {
    if (f.forward !== x) throw new Error(`unexpected residual ${f.name}`);
    feeds[f.name] = xv;
  }
  feeds[bw.gradFeeds[0]] = paddle.ones([3], 'float32') as Tensor;
  const out = run(bw.program, feeds);
  return { grad: out.get(bw.fetches[0]!)!, ops: bw.program.block.ops.map((o) => o.name) };
}

describe('captured PyLayer: skiff.pylayer and its backward host call', () => {
  const xv = paddle.to_tensor([1, -2, 0.5], { dtype: 'float32' }) as Tensor;

  it('runs forward as an alias of forward\'s outputs and verifies', () => {
    const { p, b, y } = build(() => { throw new Error('backward must not run in forward'); }, 'Fwd');
    b.fetch(y, 'y');
    expect(verifyProgram(p)).toEqual([]);
    expect(run(p, { x: xv }).get('y')!.tolist()).toEqual([1, 4, 0.25]);
  });

  it('differentiates through one host call of the registered backward (not autodiff of forward)', () => {
    // backward 3 * x * g: a cube's derivative, while the captured forward op is x * x
    const { p, x, y } = build((saved, grads) => [paddle.multiply(paddle.scale(saved[0], 3), grads[0]) as Tensor], 'Cube');
    const calls = pyLayerGraphCounters.hostCalls, hostCalls = executorCounters.hostCalls;
    const { grad, ops } = gradOf(p, y, x, xv);
    expect(ops.filter((o) => o === 'builtin.host_call')).toHaveLength(1);
    // nothing of forward's x * x is differentiated: the backward is the host call alone
    expect(ops.filter((o) => !['pd_op.data', 'pd_op.fetch', 'builtin.host_call'].includes(o))).toEqual([]);
    expect(grad.tolist()).toEqual([3, -6, 1.5]);
    expect(pyLayerGraphCounters.hostCalls - calls).toBe(1);
    expect(executorCounters.hostCalls - hostCalls).toBe(1);
  });

  it('gives zeros for a None gradient', () => {
    const { p, x, y } = build(() => [null], 'NoneGrad');
    expect(gradOf(p, y, x, xv).grad.tolist()).toEqual([0, 0, 0]);
  });

  it.each([
    ['WrongShape', () => [paddle.ones([2], 'float32') as Tensor], /PyLayer WrongShape: backward returned a gradient of shape \[2\] for input 0 of shape \[3\]/],
    ['WrongDtype', () => [paddle.ones([3], 'float64') as Tensor], /PyLayer WrongDtype: backward returned a float64 gradient for input 0, whose dtype is float32/],
    ['WrongCount', () => [null, null], /PyLayer WrongCount: backward returned 2 gradient\(s\), expected 1/],
  ] as [string, PyLayerBackwardCall, RegExp][])('%s: a clear error naming the PyLayer', (name, call, msg) => {
    const { p, x, y } = build(call, name);
    expect(() => gradOf(p, y, x, xv)).toThrow(msg);
  });
});
