// Backward through pd_op.if (the taken branch's backward, in a backward pd_op.if) and
// pd_op.while (a reverse loop that recomputes each iteration's state), against eager autograd
// on the same computation unrolled; the backward programs verify and round-trip.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { type Operation, parseProgram, printProgram, type Value, verify } from '../../src/pir/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { expectClose, separateGrads } from '../pir_autodiff/helpers.js';

type T = any;
const t = (d: unknown, dt = 'float32') => paddle.to_tensor(d as number[], dt) as Tensor;
const X = [[0.5, -1, 2], [1.5, 0.25, -0.75]];
const W = [0.3, -0.6, 0.9];
const R = [[1, 2, 3], [0.5, -1, 0.25]];

function checkText(pir: Parameters<typeof printProgram>[0]): string {
  verify(pir);
  const text = printProgram(pir);
  expect(printProgram(parseProgram(text))).toBe(text);
  return text;
}

/** Eager gradients of fn(x, w) . R w.r.t. x and w (zeros for an unused one). */
function eagerGrads(fn: (x: Tensor, w: Tensor) => Tensor, xd: number[][]): Tensor[] {
  const x = t(xd), w = t(W);
  x.stop_gradient = false; w.stop_gradient = false;
  const gs = paddle.grad(paddle.sum(paddle.multiply(fn(x, w), t(R))) as Tensor, [x, w], { allow_unused: true } as never) as (Tensor | null)[];
  return gs.map((g, i) => g ?? (paddle.zeros_like([x, w][i]) as Tensor));
}

describe('backward of pd_op.if', () => {
  const thenF = (x: T, w: T): T => paddle.multiply(paddle.exp(x), w);
  const elseF = (x: T, w: T): T => paddle.add(paddle.square(paddle.sin(x)), w);

  it('differentiates the taken branch (both ways), joint and through append_backward', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, loss } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const w = paddle.static.create_parameter([3], 'float32', { name: 'cf_if_w', attr: { initializer: t(W) } });
      const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), t(0)) as T, () => thenF(x, w), () => elseF(x, w));
      return { x, loss: paddle.sum(paddle.multiply(y as T, t(R))) as Value };
    });
    (x as T).stop_gradient = false;
    const pg: [Value, Value][] = paddle.static.append_backward(loss);
    const text = checkText(prog.pir);
    expect(text.match(/"pd_op\.if"/g)!.length).toBe(2);  // the forward if and its backward if
    const exe = new paddle.static.Executor();
    for (const xd of [X, X.map((r) => r.map((v) => -v - 1))]) {
      const [gx, gw] = exe.run(prog, { feed: { x: t(xd) }, fetch_list: ['x@GRAD', pg[0][1]] });
      const pos = xd.flat().reduce((a, b) => a + b, 0) > 0;
      const [wx, ww] = eagerGrads(pos ? thenF : elseF, xd);
      expectClose(gx, wx, `dx (${pos ? 'then' : 'else'})`);
      expectClose(gw, ww, `dw (${pos ? 'then' : 'else'})`);
    }
  }));

  it('handles branches that yield outer values and use only some inputs', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, c, loss } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const c = paddle.static.data('c', [], 'bool');
      const [a, b] = paddle.static.nn.cond(c, () => [x, paddle.tanh(x)], () => [paddle.scale(x, 3), x]) as T[];
      return { x, c, loss: paddle.sum(paddle.multiply(paddle.add(a, paddle.square(b)), t(R))) as Value };
    });
    const [gx] = paddle.static.gradients([loss], [x]);
    checkText(prog.pir);
    for (const cv of [true, false]) {
      const [got] = new paddle.static.Executor().run(prog, { feed: { x: t(X), c: t(cv, 'bool') }, fetch_list: [gx!] });
      const [want] = eagerGrads((xe) => (cv ? paddle.add(xe, paddle.square(paddle.tanh(xe))) : paddle.add(paddle.scale(xe, 3), paddle.square(xe))) as Tensor, X);
      expectClose(got, want, `c=${cv}`);
    }
    expect(c).toBeDefined();
  }));
});

describe('backward of pd_op.while (reverse loop with recomputation)', () => {
  // s <- tanh(s * w + x), n times, from s0 = x * 0.5.
  const step = (s: T, w: T, x: T): T => paddle.tanh(paddle.add(paddle.multiply(s, w), x));

  it('matches eager on the unrolled loop for several trip counts', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, loss, s0 } = paddle.static.program_guard(prog, () => {
      const n = paddle.static.data('n', [1], 'int64');
      const x = paddle.static.data('x', [2, 3], 'float32');
      const w = paddle.static.create_parameter([3], 'float32', { name: 'cf_while_w', attr: { initializer: t(W) } });
      const s0 = paddle.scale(x, 0.5) as Value;
      const [, s] = paddle.static.nn.while_loop((i: T) => paddle.less_than(i, n), (i: T, s: T) => [paddle.add(i, t([1], 'int64')), step(s, w, x)],
        [t([0], 'int64'), s0]);
      return { x, s0, loss: paddle.sum(paddle.multiply(s as T, t(R))) as Value };
    });
    (x as T).stop_gradient = false;
    const pg: [Value, Value][] = paddle.static.append_backward(loss);
    expect(pg.length).toBe(1);
    const text = checkText(prog.pir);
    expect(text.match(/"pd_op\.while"/g)!.length).toBeGreaterThanOrEqual(4);  // forward, count, reverse, state
    expect(s0).toBeDefined();
    const exe = new paddle.static.Executor();
    for (const n of [0, 1, 3]) {
      const [gx, gw] = exe.run(prog, { feed: { n: t([n], 'int64'), x: t(X) }, fetch_list: ['x@GRAD', pg[0][1]] });
      const [wx, ww] = eagerGrads((xe, we) => {
        let s = paddle.scale(xe, 0.5) as Tensor;
        for (let k = 0; k < n; k++) s = step(s, we, xe);
        return s;
      }, X);
      expectClose(gx, wx, `dx, n=${n}`);
      if (n > 0) expectClose(gw, ww, `dw, n=${n}`);
      else expect(Math.max(...Array.from(gw.dataSync() as ArrayLike<number>, (v) => Math.abs(Number(v))))).toBe(0);
    }
  }));

  it('composes with cond inside the body', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, loss } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      const [, s] = paddle.static.nn.while_loop((i: T) => paddle.less_than(i, t([3], 'int64')),
        (i: T, s: T) => [paddle.add(i, t([1], 'int64')),
          paddle.static.nn.cond(paddle.greater_than(paddle.sum(s), t(0)) as T, () => paddle.sin(paddle.multiply(s, x)), () => paddle.add(s, x))],
        [t([0], 'int64'), x]);
      return { x, loss: paddle.sum(s as T) as Value };
    });
    const [gx] = paddle.static.gradients([loss], [x]);
    checkText(prog.pir);
    for (const xd of [[0.3, 0.8, -0.2], [-1.5, -0.4, 0.1]]) {
      const [got] = new paddle.static.Executor().run(prog, { feed: { x: t(xd) }, fetch_list: [gx!] });
      const xe = t(xd); xe.stop_gradient = false;
      let s = xe;
      for (let k = 0; k < 3; k++) s = ((paddle.sum(s) as Tensor).item() as number) > 0 ? paddle.sin(paddle.multiply(s, xe)) as Tensor : paddle.add(s, xe) as Tensor;
      const [want] = paddle.grad(paddle.sum(s) as Tensor, [xe]) as Tensor[];
      expectClose(got, want, `x=${xd}`);
    }
  }));
});

describe('separate backward programs with control flow', () => {
  it('if and while: the backward program fed with forward values matches eager', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, n, loss } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [2, 3], 'float32');
      const n = paddle.static.data('n', [1], 'int64');
      const w = paddle.static.create_parameter([3], 'float32', { name: 'cf_sep_w', attr: { initializer: t(W) } });
      const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), t(0)) as T, () => paddle.multiply(paddle.exp(x), w), () => paddle.add(x, w));
      const [, s] = paddle.static.nn.while_loop((i: T) => paddle.less_than(i, n), (i: T, s: T) => [paddle.add(i, t([1], 'int64')), paddle.sin(paddle.multiply(s, w))],
        [t([0], 'int64'), y as T]);
      return { x, n, loss: paddle.sum(paddle.multiply(s as T, t(R))) as Value };
    });
    const wv = prog.pir.block.ops.find((o: Operation) => o.name === 'builtin.parameter')!.result(0);
    for (const [xd, nv] of [[X, 2], [X.map((r) => r.map((v) => -v)), 1]] as [number[][], number][]) {
      const [gx, gw] = separateGrads(prog, loss, [x, wv], { x: t(xd), n: t([nv], 'int64') });
      const [wx, ww] = eagerGrads((xe, we) => {
        let s = (xd.flat().reduce((a, b) => a + b, 0) > 0 ? paddle.multiply(paddle.exp(xe), we) : paddle.add(xe, we)) as Tensor;
        for (let k = 0; k < nv; k++) s = paddle.sin(paddle.multiply(s, we)) as Tensor;
        return s;
      }, xd);
      expectClose(gx, wx, `dx n=${nv}`);
      expectClose(gw, ww, `dw n=${nv}`);
    }
    expect(n).toBeDefined();
  }));
});

describe('control flow: higher order and passes', () => {
  it('second derivative through pd_op.if (the backward if differentiated again)', () => scope(() => {
    const prog = new paddle.static.Program();
    const v = t([0.5, -1, 2]);
    const { c, h } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      const c = paddle.static.data('c', [], 'bool');
      const y = paddle.static.nn.cond(c, () => paddle.multiply(paddle.multiply(x, x), x), () => paddle.sin(x));
      const [g] = paddle.static.gradients([paddle.sum(y as T) as Value], [x]);
      const [h] = paddle.static.gradients([paddle.sum(paddle.multiply(g as T, v)) as Value], [x]);
      return { c, h: h! };
    });
    checkText(prog.pir);
    const xv = [0.3, -0.7, 1.1];
    for (const cv of [true, false]) {
      const [got] = new paddle.static.Executor().run(prog, { feed: { x: t(xv), c: t(cv, 'bool') }, fetch_list: [h] });
      const vv = [0.5, -1, 2];
      const want = t(xv.map((x, i) => (cv ? 6 * x : -Math.sin(x)) * vv[i]));
      expectClose(got, want, `c=${cv}`, 1e-5, 1e-4);
    }
    expect(c).toBeDefined();
  }));

  it('the training pipeline keeps a joint program with if/while and their backward correct', async () => {
    const { runPipeline } = await import('../../src/passes/index.js');
    const { prune } = await import('../../src/static/index.js');
    const { runPir } = await import('../pir_autodiff/helpers.js');
    scope(() => {
      const prog = new paddle.static.Program();
      const { x, gx } = paddle.static.program_guard(prog, () => {
        const x = paddle.static.data('x', [3], 'float32');
        const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), t(0)) as T, () => paddle.exp(x), () => paddle.scale(x, 2));
        const [, s] = paddle.static.nn.while_loop((i: T) => paddle.less_than(i, t([2], 'int64')), (i: T, s: T) => [paddle.add(i, t([1], 'int64')), paddle.tanh(s)],
          [t([0], 'int64'), y as T]);
        const [gx] = paddle.static.gradients([paddle.sum(s as T) as Value], [x]);
        return { x, gx: gx! };
      });
      const plain = prune(prog.pir, [gx]);
      const opt = plain.clone();
      runPipeline(opt, 'training', { verify: true });
      for (const xv of [[0.2, 0.5, -0.1], [-1, 0.3, -0.4]]) {
        const a = runPir(plain, { x: t(xv) }, prog).get('fetch_0')!;
        const b = runPir(opt, { x: t(xv) }, prog).get('fetch_0')!;
        expectClose(b, a, `x=${xv}`, 1e-6);
      }
      expect(x).toBeDefined();
    });
  });
});

describe('control flow: edge cases', () => {
  it('while with a loop value the body passes through unchanged, and a capture used as init', () => scope(() => {
    const prog = new paddle.static.Program();
    const { x, gx, outs } = paddle.static.program_guard(prog, () => {
      const x = paddle.static.data('x', [3], 'float32');
      const outs = paddle.static.nn.while_loop((i: T) => paddle.less_than(i, t([2], 'int64')),
        (i: T, a: T, b: T) => [paddle.add(i, t([1], 'int64')), a, paddle.multiply(b, x)], [t([0], 'int64'), x, x]);
      const [gx] = paddle.static.gradients([paddle.sum(paddle.add(outs[1] as T, outs[2] as T)) as Value], [x]);
      return { x, gx: gx!, outs };
    });
    checkText(prog.pir);
    const xv = [0.5, -2, 1.5];
    const [a, b, g] = new paddle.static.Executor().run(prog, { feed: { x: t(xv) }, fetch_list: [outs[1], outs[2], gx] });
    expectClose(a, t(xv), 'a unchanged');
    expectClose(b, t(xv.map((v) => v ** 3)), 'b = x^3');
    expectClose(g, t(xv.map((v) => 1 + 3 * v * v)), 'd/dx (x + x^3)');
    expect(x).toBeDefined();
  }));

  it('cond with an eager pred calls one branch; numbers in branches become constants', () => scope(() => {
    expect(paddle.static.nn.cond(t(true, 'bool'), () => 1, () => 2)).toBe(1);
    const prog = new paddle.static.Program();
    const { y } = paddle.static.program_guard(prog, () => {
      const c = paddle.static.data('c', [], 'bool');
      return { y: paddle.static.nn.cond(c, () => 1.5, () => 2.5) as Value };
    });
    checkText(prog.pir);
    for (const [cv, want] of [[true, 1.5], [false, 2.5]] as [boolean, number][]) {
      const [got] = new paddle.static.Executor().run(prog, { feed: { c: t(cv, 'bool') }, fetch_list: [y] });
      expect(got.item()).toBe(want);
    }
  }));
});
