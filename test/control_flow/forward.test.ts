// pd_op.if / pd_op.while: built by paddle.static.nn.cond / while_loop, verified, printed and
// parsed back identically, and run by the executor (host-driven regions) against eager code.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { runRegionCounters } from '../../src/executor/index.js';
import { parseProgram, printProgram, type Value, verify, verifyProgram } from '../../src/pir/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { expectClose } from '../pir_autodiff/helpers.js';

type T = any;
const t = (d: unknown, dt = 'float32') => paddle.to_tensor(d as number[], dt) as Tensor;
const X = [[0.5, -1, 2], [1.5, 0.25, -0.75]];

function roundTrip(prog: { pir: Parameters<typeof printProgram>[0] }): string {
  verify(prog.pir);
  const text = printProgram(prog.pir);
  expect(printProgram(parseProgram(text))).toBe(text);
  return text;
}

describe('paddle.static.nn.cond', () => {
  it('records pd_op.if with two regions and runs the taken branch', () => scope(() => {
    const prog = new paddle.static.Program();
    const { y, x } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const s = paddle.sum(x) as T;
      const y = paddle.static.nn.cond(paddle.greater_than(s, t(0)) as T, () => paddle.exp(x), () => paddle.scale(x, -2, 1));
      return { y: paddle.add(y as T, x) as Value, x };
    });
    const text = roundTrip(prog);
    expect(text).toContain('"pd_op.if"');
    expect(x).toBeDefined();
    const exe = new paddle.static.Executor();
    for (const data of [X, X.map((r) => r.map((v) => -v - 1))]) {
      const xt = t(data);
      const [got] = exe.run(prog, { feed: { x: xt }, fetch_list: [y] });
      const s = (paddle.sum(xt) as Tensor).item() as number;
      const want = paddle.add(s > 0 ? paddle.exp(xt) : paddle.scale(xt, -2, 1), xt) as Tensor;
      expectClose(got, want, `sum ${s}`);
    }
  }));

  it('returns several values and nests', () => scope(() => {
    const prog = new paddle.static.Program();
    const outs = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      const a = paddle.static.data('a', [1], 'bool');
      const b = paddle.static.data('b', [], 'bool');
      return paddle.static.nn.cond(a, () => [paddle.static.nn.cond(b, () => paddle.tanh(x), () => paddle.sin(x)), x], () => [x, paddle.cos(x)]) as Value[];
    });
    roundTrip(prog);
    const exe = new paddle.static.Executor();
    const xv = [0.1, -0.7, 1.3];
    for (const [a, b] of [[true, true], [true, false], [false, true]]) {
      const got = exe.run(prog, { feed: { x: t(xv), a: t([a], 'bool'), b: t(b, 'bool') }, fetch_list: outs });
      const xt = t(xv);
      const want = a ? [b ? paddle.tanh(xt) : paddle.sin(xt), xt] : [xt, paddle.cos(xt)];
      got.forEach((g: Tensor, i: number) => expectClose(g, want[i] as Tensor, `a=${a} b=${b} out ${i}`));
    }
  }));

  it('rejects branches of different types, naming the output', () => {
    const prog = new paddle.static.Program();
    paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      const c = paddle.static.data('c', [1], 'bool');
      expect(() => paddle.static.nn.cond(c, () => x, () => paddle.sum(x))).toThrow(/output 0 is tensor<3xf32> in true_fn and tensor<f32> in false_fn/);
      // The abandoned branches leave no uses behind on outer values.
      expect(x.uses.length).toBe(0);
      expect(() => paddle.static.nn.while_loop(() => c, (v: T) => [paddle.sum(v)], [x])).toThrow(/body output 0 is tensor<f32> but loop var 0 is tensor<3xf32>/);
      expect(x.uses.length).toBe(0);
    });
  });
});

describe('paddle.static.nn.while_loop', () => {
  it('carries values through pd_op.while and runs the loop on the host', () => scope(() => {
    const prog = new paddle.static.Program();
    const { i, s } = paddle.static.program_guard(prog, () => {
      const n = paddle.static.data('n', [1], 'int64');
      const x = paddle.static.data('x', [2, 3], 'float32');
      const [i, s] = paddle.static.nn.while_loop(
        (i: T) => paddle.less_than(i, n),
        (i: T, s: T) => [paddle.add(i, t([1], 'int64')), paddle.add(paddle.multiply(s, t(0.5)), x)],
        [t([0], 'int64'), paddle.zeros([2, 3])]);
      return { i, s };
    });
    const text = roundTrip(prog);
    expect(text).toContain('"pd_op.while"');
    const exe = new paddle.static.Executor();
    for (const n of [0, 1, 4]) {
      const runs0 = runRegionCounters.runs;
      const [gi, gs] = exe.run(prog, { feed: { n: t([n], 'int64'), x: t(X) }, fetch_list: [i, s] });
      expect(runRegionCounters.runs - runs0).toBe(n);
      expect(Number(gi.dataSync()[0])).toBe(n);
      let want = paddle.zeros([2, 3]) as Tensor;
      for (let k = 0; k < n; k++) want = paddle.add(paddle.multiply(want, t(0.5)), t(X)) as Tensor;
      expectClose(gs, want, `n=${n}`, 1e-6);
    }
  }));
});

describe('verifier rules', () => {
  const bad = (text: string) => verifyProgram(parseProgram(text)).map((i) => i.message).join('\n');
  it('checks conditions, yields and loop types', () => {
    expect(bad(`{
  (%c) = "pd_op.data" () {name:"c", shape:shape[2], dtype:bool} : () -> tensor<2xbool>
  (%x) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%r) = "pd_op.if" (%c) {} ({
    ^bb0:
      () = "builtin.yield" (%x) {} : (tensor<3xf32>) -> ()
  }, {
    ^bb0:
      () = "builtin.yield" () {} : () -> ()
  }) : (tensor<2xbool>) -> tensor<3xf32>
}`)).toMatch(/the condition must hold one element[\s\S]*the else region yields 0 value\(s\), expected 1/);
    expect(bad(`{
  (%c) = "pd_op.data" () {name:"c", shape:shape[], dtype:bool} : () -> tensor<bool>
  (%x) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%r) = "pd_op.while" (%c, %x) {} ({
    ^bb0(%v: tensor<3xf32>):
      (%s) = "pd_op.sum" (%v) {axis:none, dtype:none, keepdim:false} : (tensor<3xf32>) -> tensor<f32>
      () = "builtin.yield" (%c, %s) {} : (tensor<bool>, tensor<f32>) -> ()
  }) : (tensor<bool>, tensor<3xf32>) -> tensor<3xf32>
}`)).toMatch(/the body yields tensor<f32> at 0, expected tensor<3xf32>/);
  });
});
