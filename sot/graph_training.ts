// Training through captured graphs. A CompiledGraph run while some of its inputs want gradients
// (parameters in training) runs its forward on the native executor and becomes ONE node of the
// eager tape; that node's backward is the graph's PIR-autodiff backward program (src/pir/autodiff),
// compiled and run by the executor too. Graphs split by breaks are separate nodes, chained by the
// tape through whatever ran eagerly between them.
//
// Per graph and per set of inputs wanting gradients, a TrainingPlan is built once:
//   1. the graph's nodes are replayed into a PIR program (inputs as pd_op.data);
//   2. backwardProgram() differentiates it; the forward values its gradient ops read become the
//      forward program's extra fetches ("residuals"), kept by the node until backward;
//   3. both programs are lowered with fromPir() and compiled (plans cached per input shapes).
//
// Double backward (paddle.grad(..., create_graph=True) through the node) needs the tape to see
// the gradient ops, which an executor run cannot give: that call recomputes the graph op by op
// on the tape from the saved inputs and differentiates it there (counted as `recomputes`).
import { isGradEnabled } from '../src/autograd/index.js';
import { grad as tapeGrad } from '../src/autograd/api.js';
import { AccumulateNode, edgeOf } from '../src/autograd/node.js';
import { recordPyLayer } from '../src/autograd/pylayer.js';
import { compile, type Executable, fromPir, HOST_CALL } from '../src/executor/index.js';
import { getOp } from '../src/ops/registry.js';
import { backwardProgram, SHAPE_ONLY } from '../src/pir/autodiff/index.js';
import type { Value } from '../src/pir/index.js';
import { isFloating } from '../src/tensor/dtype.js';
import { Tensor, untracked } from '../src/tensor/tensor.js';
import type { CompiledGraph } from './function_graph.js';
import { type BranchUse, branchUse, condTruth, graphProgram } from './control_flow_graph.js';

/** Observable by tests: plans built, forward and backward programs run on the executor, graphs left to the tape. */
export const graphTrainingCounters = { plans: 0, forwardRuns: 0, backwardRuns: 0, recomputes: 0, fallbacks: 0, lastFallback: '' };

interface TrainingPlan {
  readonly fwd: Executable;
  readonly fwdConstants: Tensor[];
  /** Per forward feed (fwd graph input order): the graph input it is. */
  readonly fwdFeedInput: number[];
  /** Forward fetches: the graph outputs first, then residuals that are not graph inputs. */
  readonly nOut: number;
  /** Per graph output: whether it wants gradients (a target of the backward program). */
  readonly wants: boolean[];
  readonly bwd: Executable;
  readonly bwdConstants: Tensor[];
  /** Per backward feed: ['res', k] a residual (k indexes `residuals`), ['grad', i] graph output i's gradient. */
  readonly bwdFeeds: (['res', number] | ['grad', number])[];
  /** Per residual: ['in', i] graph input i, or ['fetch', j] forward fetch j. */
  readonly residuals: (['in', number] | ['fetch', number])[];
  /** Per graph input: index of its gradient among the backward fetches, or -1. */
  readonly gradFetch: number[];
  /** Forward fetches of captured if conditions, and per input the branches that use it (null: always). */
  readonly condFetch: number[];
  readonly branchSites: BranchUse['sites'] | null;
}

const plans = new WeakMap<CompiledGraph, Map<string, TrainingPlan | null | 'tape'>>();

/** Which graph values want gradients, by eager's rule (src/autograd/record.ts). */
function wantsGrad(graph: CompiledGraph, inputWants: readonly boolean[]): Set<number> {
  const want = new Set<number>();
  graph.inputs.forEach((inp, i) => { if (inputWants[i]) want.add(inp.value); });
  for (const n of graph.nodes) {
    if (n.detach || SHAPE_ONLY.has(n.def.name) || !n.inputs.some((x) => x !== null && want.has(x))) continue;
    for (const o of n.outputs) if (isFloating(graph.values[o].dtype)) want.add(o);
  }
  return want;
}

function buildPlan(graph: CompiledGraph, inputWants: readonly boolean[]): TrainingPlan | null {
  const want = wantsGrad(graph, inputWants);
  const wants = graph.outputs.map((o) => want.has(o));
  if (!wants.some(Boolean)) return null;

  // Control-flow nodes become pd_op.if / pd_op.while, differentiated by their PIR rules.
  const { program, builder: b, env, inputs: inputValues } = graphProgram(graph);
  const outValues = graph.outputs.map((o) => env.get(o)!);
  const targets = outValues.filter((_, k) => wants[k]);
  const wrt = inputValues.filter((_, i) => inputWants[i]);
  // Values of detach nodes pass no gradient (Tensor.detach() in the captured code).
  const noGrad = new Set(graph.nodes.filter((n) => n.detach).flatMap((n) => n.outputs.map((o) => env.get(o)!)));
  const bw = backwardProgram(program, targets, wrt, { noGrad });

  // Forward fetches: outputs, then residuals that are computed (residual inputs are fed directly).
  outValues.forEach((v, k) => b.fetch(v, `out_${k}`));
  const fetchOf = new Map<Value, number>(outValues.map((v, k) => [v, k]));
  let nFetch = outValues.length;
  const residuals = bw.forwardFeeds.map(({ forward }): ['in', number] | ['fetch', number] => {
    const i = inputValues.indexOf(forward);
    if (i >= 0) return ['in', i];
    let j = fetchOf.get(forward);
    if (j === undefined) { j = nFetch++; fetchOf.set(forward, j); b.fetch(forward, `res_${j}`); }
    return ['fetch', j];
  });
  // Inputs used by one side of a branch only get a gradient when that side ran (as in eager).
  const bu = branchUse(graph, inputWants);
  if (bu === 'unknown') throw new Error('a gradient depends on a branch nested inside a captured region or loop');
  const condFetch = (bu?.conds ?? []).map((c) => {
    const v = env.get(c)!;
    let j = fetchOf.get(v);
    if (j === undefined) { j = nFetch++; fetchOf.set(v, j); b.fetch(v, `cond_${j}`); }
    return j;
  });
  const fwdG = untracked(() => fromPir(program));
  const bwdG = untracked(() => fromPir(bw.program));
  // Compiled programs refuse data-dependent shapes; a backward that needs one (masked_scatter's
  // rule selects with a mask) leaves the graph to the tape (the caller falls back).
  for (const n of bwdG.graph.nodes) {
    if (n.op !== HOST_CALL && getOp(n.op).dynamicShape) throw new Error(`the backward program needs ${n.op}, whose output shape depends on data`);
  }
  for (const c of [...fwdG.constants, ...bwdG.constants]) c._adoptByGC();
  const resByName = new Map(bw.forwardFeeds.map((f, k) => [f.name, k]));
  const targetOutput = wants.flatMap((w, k) => (w ? [k] : []));
  const bwdFeeds = bwdG.feeds.map((name): ['res', number] | ['grad', number] => {
    const r = resByName.get(name);
    if (r !== undefined) return ['res', r];
    const t = bw.gradFeeds.indexOf(name);
    if (t < 0) throw new Error(`to_static training: backward feed '${name}' is neither a residual nor a target gradient`);
    return ['grad', targetOutput[t]];
  });
  let w = 0;
  const gradFetch = inputWants.map((iw) => {
    if (!iw) return -1;
    const name = bw.fetches[w++];
    return name === null ? -1 : bwdG.fetches.indexOf(name);
  });
  graphTrainingCounters.plans++;
  return {
    fwd: compile(fwdG.graph, { hostFns: fwdG.hostFns }), fwdConstants: fwdG.constants,
    fwdFeedInput: fwdG.feeds.map((name) => Number(name.slice(3))),
    nOut: outValues.length, wants,
    bwd: compile(bwdG.graph, { hostFns: bwdG.hostFns }), bwdConstants: bwdG.constants,
    bwdFeeds, residuals, gradFetch, condFetch, branchSites: bu?.sites ?? null,
  };
}

/** A tensor object on t's storage with its own handle (sharing t's version counter). */
function hold(t: Tensor): Tensor {
  const v = t._alias('to_static');
  v._base = t._base ?? t;
  return v;
}

/**
 * Runs `graph` for training: forward on the executor, one tape node whose backward runs the
 * backward program. Returns null when no output wants gradients (the caller runs it plainly).
 */
export function runForTraining(graph: CompiledGraph, inputs: readonly Tensor[]): Tensor[] | null {
  const inputWants = inputs.map((t) => !t.stop_gradient && isFloating(t.dtype));
  const key = inputWants.map((w) => (w ? '1' : '0')).join('');
  let byKey = plans.get(graph);
  if (!byKey) plans.set(graph, (byKey = new Map()));
  let plan = byKey.get(key);
  if (plan === undefined) {
    try {
      plan = buildPlan(graph, inputWants);
    } catch (e) {
      // Not differentiable as a program (an op without a rule, say): the graph then runs op by
      // op on the tape, where backward raises exactly as eager would, if it is ever called.
      graphTrainingCounters.fallbacks++;
      graphTrainingCounters.lastFallback = String((e as Error).message ?? e);
      plan = 'tape';
    }
    byKey.set(key, plan);
  }
  if (plan === 'tape') return graph.interpret(inputs);
  if (!plan) return null;
  const p = plan;

  const fetched = p.fwd.run(p.fwdFeedInput.map((i) => inputs[i]), p.fwdConstants);
  graphTrainingCounters.forwardRuns++;
  // An output that is an input's storage itself gets a tensor of its own (a node's output cannot be its input).
  const outputs = fetched.slice(0, p.nOut).map((t) => (inputs.includes(t) ? hold(t) : t));
  // Saved for backward: residuals (own handles), the inputs (for double backward), and versions.
  // A residual that is also an output gets its own handle: the caller may dispose the output
  // (Python drops its wrapper) before backward, and release() must not dispose the caller's tensor.
  const saved = untracked(() => p.residuals.map(([kind, k]) => (kind === 'in' ? hold(inputs[k]) : k < p.nOut ? hold(outputs[k]) : fetched[k])));
  const savedInputs = untracked(() => inputs.map((t, i) => {
    const v = hold(t);
    // Gradients flowing into the saved input (double backward) go where the input's would.
    if (inputWants[i]) {
      const e = edgeOf(t)!;
      v.stop_gradient = false;
      if (e.node instanceof AccumulateNode) v._accNode = e.node; else v._gradNode = e;
    }
    return v;
  }));
  const taken = p.condFetch.map((j) => condTruth(fetched[j]));
  const versions = saved.map((t) => t._version);
  for (const t of fetched.slice(p.nOut)) if (!saved.includes(t)) t.dispose();
  const release = (): void => { for (const t of saved) t.dispose(); for (const t of savedInputs) t.dispose(); };

  recordPyLayer({
    name: 'to_static graph',
    inputs,
    outputs,
    nonDifferentiable: new Set(outputs.filter((_, k) => !p.wants[k])),
    materialize: true,
    release,
    backward: (grads) => {
      saved.forEach((t, k) => {
        if (t._version !== versions[k]) throw new Error(`to_static graph: a tensor saved for its backward has been modified by an inplace operation (version ${versions[k]} when recorded, ${t._version} now)`);
      });
      if (isGradEnabled()) return recompute(graph, savedInputs, inputWants, p.wants, grads);
      const feeds = p.bwdFeeds.map(([kind, k]) => (kind === 'res' ? saved[k] : grads[k]!));
      const gs = p.bwd.run(feeds, p.bwdConstants);
      graphTrainingCounters.backwardRuns++;
      const used = new Set<Tensor>();
      const sites = p.branchSites;
      const result = p.gradFetch.map((j, i) => {
        if (j < 0 || (sites?.[i] && !sites[i]!.some(([c, r]) => taken[c] === (r === 0)))) return null;
        used.add(gs[j]);
        return gs[j];
      });
      for (const g of gs) if (!used.has(g)) g.dispose();
      return result;
    },
  });
  return outputs;
}

/** create_graph through a captured graph: the forward again, op by op on the tape, and its grad. */
function recompute(graph: CompiledGraph, inputs: readonly Tensor[], inputWants: readonly boolean[], wants: readonly boolean[], grads: readonly (Tensor | null)[]): (Tensor | null)[] {
  graphTrainingCounters.recomputes++;
  const outs = graph.interpret(inputs);
  const ys = outs.filter((_, k) => wants[k]);
  const gs = grads.filter((_, k) => wants[k]) as Tensor[];
  const xs = inputs.filter((_, i) => inputWants[i]);
  const r = tapeGrad(ys, xs, { grad_outputs: gs, create_graph: true, allow_unused: true }) as (Tensor | null)[];
  let k = 0;
  return inputWants.map((w) => (w ? r[k++] : null));
}
