// Shared by the program-autodiff suites: running PIR programs (joint or separate backward) and
// comparing their gradients with the eager tape's.
import '../../src/autograd/index.js';
import { compile, fromPir } from '../../src/executor/index.js';
import { backwardProgram } from '../../src/pir/autodiff/index.js';
import type { Program as PirProgram, Value } from '../../src/pir/index.js';
import { paddle } from '../../src/paddle.js';
import { global_scope, type Program } from '../../src/static/index.js';
import { Tensor, untracked } from '../../src/tensor/tensor.js';

/** Runs a PIR program (with pd_op.fetch ops) on named feeds; parameters from `prog`'s captures or the global scope. */
export function runPir(pir: PirProgram, feeds: Readonly<Record<string, Tensor>>, prog: Program | null): Map<string, Tensor> {
  const g = untracked(() => fromPir(pir));
  const exe = compile(g.graph, { hostFns: g.hostFns });
  try {
    const inputs = g.feeds.map((n) => {
      const t = feeds[n];
      if (!t) throw new Error(`runPir: feed '${n}' missing`);
      return t;
    });
    const params = g.params.map((n) => {
      const t = prog?.boundTensor(n) ?? global_scope().get(n);
      if (!t) throw new Error(`runPir: parameter '${n}' missing`);
      return t;
    });
    const outs = exe.run(inputs, [...params, ...g.constants]);
    return new Map(g.fetches.map((n, i) => [n, outs[i]]));
  } finally {
    exe.dispose();
    for (const c of g.constants) c.dispose();
  }
}

/**
 * The gradients of `loss` w.r.t. `wrt` through a separate backward program: the forward program
 * runs first (fetching what the backward reads), then the backward program with ones as the seed.
 */
export function separateGrads(prog: Program, loss: Value, wrt: readonly Value[], feed: Readonly<Record<string, Tensor>>): (Tensor | null)[] {
  const bw = backwardProgram(prog.pir, [loss], wrt);
  const exe = new paddle.static.Executor();
  const fwdVals = bw.forwardFeeds.length ? exe.run(prog, { feed, fetch_list: bw.forwardFeeds.map((f) => f.forward) }) : [];
  const feeds: Record<string, Tensor> = {};
  bw.forwardFeeds.forEach((f, i) => { feeds[f.name] = fwdVals[i]; });
  feeds[bw.gradFeeds[0]] = paddle.ones(loss.shape as number[], loss.dtype) as Tensor;
  const out = runPir(bw.program, feeds, prog);
  return bw.fetches.map((n) => (n ? out.get(n)! : null));
}

/** Max relative error between two tensors (|a-b| / max(|b|, floor)), with NaN/shape checks. */
export function relErr(a: Tensor, b: Tensor, floor = 1e-6): number {
  if (a.shape.join() !== b.shape.join()) return Infinity;
  const x = a.dataSync() as ArrayLike<number>, y = b.dataSync() as ArrayLike<number>;
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(Number(x[i]) - Number(y[i])) / Math.max(Math.abs(Number(y[i])), floor);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : Math.max(m, d);
  }
  return m;
}

export function expectClose(a: Tensor | null, b: Tensor | null, what: string, rtol = 1e-5, floor = 1e-6): void {
  if (!a || !b) throw new Error(`${what}: gradient missing (${a ? 'eager' : 'program'})`);
  const e = relErr(a, b, floor);
  if (!(e <= rtol)) throw new Error(`${what}: relative error ${e}\n program ${JSON.stringify(a.tolist())}\n eager   ${JSON.stringify(b.tolist())}`);
}

export const isTensor = (x: unknown): x is Tensor => x instanceof Tensor;
