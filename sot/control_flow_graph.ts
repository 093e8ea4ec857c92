// Control flow inside a captured function graph: `if` and `while` nodes whose regions hold
// graph nodes of their own (recorded by the frontend while it simulates each side of a branch on
// a tensor value). They keep the one-graph-per-segment model: the node's inputs are its operands
// (condition, loop inits) followed by the outer values its regions capture, so liveness, the
// training rule (outputs want gradients when an input does) and the graph viewer need nothing
// special. Running: op by op here (interpret), or replayed into a PIR program as pd_op.if /
// pd_op.while (src/pir/dialects/control_flow.ts), which the executor lowers to host-driven
// region runs and PIR autodiff differentiates.
import { runOpDef, setStaticRecorder } from '../src/ops/dispatch.js';
import type { OpDef, TensorMeta } from '../src/ops/types.js';
import { Block, Builder, IF, Program, ProgramRecorder, tensorType, type Value, WHILE } from '../src/pir/index.js';
import { compile, type Executable, fromPir } from '../src/executor/index.js';
import { Tensor, untracked } from '../src/tensor/tensor.js';
import type { CompiledGraph, GraphNode } from './function_graph.js';
import { interpretPyLayer, replayPyLayer } from './pylayer_graph.js';

export interface GraphRegion {
  readonly nodes: readonly GraphNode[];
  /** Block arguments: a while body's loop-carried values as they enter an iteration. */
  readonly args: readonly number[];
  /** if: the op's results; while: the next condition, then the next loop values. */
  readonly yields: readonly number[];
}

// Pseudo definitions: control-flow nodes are not registry ops; only `name` (listings, the graph
// viewer, explain()) and the flags liveness reads are consulted for them.
const pseudo = (name: string): OpDef => ({ name, inputs: [], attrs: [], outputs: [], random: false } as unknown as OpDef);
export const IF_DEF = pseudo('if');
export const WHILE_DEF = pseudo('while');

export const isControlFlow = (n: GraphNode): boolean => n.regions !== undefined;

/** Values the regions use but neither define nor take as block arguments, in first-use order. */
export function regionCaptures(regions: readonly GraphRegion[]): number[] {
  const defined = new Set<number>();
  const out: number[] = [];
  const use = (v: number | null): void => { if (v !== null && !defined.has(v) && !out.includes(v)) out.push(v); };
  const walk = (r: GraphRegion): void => {
    for (const a of r.args) defined.add(a);
    for (const n of r.nodes) {
      n.inputs.forEach(use);
      for (const o of n.outputs) defined.add(o);
    }
    r.yields.forEach(use);
  };
  regions.forEach(walk);
  return out.filter((v) => !defined.has(v));
}

/** A node's regions contain a random op anywhere (RNG state must advance as in eager). */
export function regionsRandom(regions: readonly GraphRegion[]): boolean {
  return regions.some((r) => r.nodes.some((n) => n.def.random || (n.regions ? regionsRandom(n.regions) : false)));
}

/** An if node: inputs [cond, ...captures]; one output per yield of each region (same count). */
export function ifNode(cond: number, then: GraphRegion, other: GraphRegion, outputs: readonly number[]): GraphNode {
  if (then.yields.length !== outputs.length || other.yields.length !== outputs.length) throw new Error('if: both regions must yield one value per output');
  return { def: IF_DEF, inputs: [cond, ...regionCaptures([then, other])], attrs: {}, outputs, regions: [then, other], nOperands: 1 };
}

/** A while node: inputs [cond, ...inits, ...captures]; body yields [next cond, ...next values]. */
export function whileNode(cond: number, inits: readonly number[], body: GraphRegion, outputs: readonly number[]): GraphNode {
  if (body.args.length !== inits.length || body.yields.length !== inits.length + 1 || outputs.length !== inits.length) throw new Error('while: body arguments, yields and outputs must match the loop values');
  return { def: WHILE_DEF, inputs: [cond, ...inits, ...regionCaptures([body])], attrs: {}, outputs, regions: [body], nOperands: 1 + inits.length };
}

const truthy = (t: Tensor): boolean => {
  const v = t.dataSync()[0];
  return typeof v === 'bigint' ? v !== 0n : Boolean(v);
};

/** Runs nodes eagerly, one by one (on the tape when gradients are recorded). */
export function interpretNodes(nodes: readonly GraphNode[], env: Map<number, Tensor>): void {
  for (const n of nodes) {
    if (n.regions) { interpretControlFlow(n, env); continue; }
    if (n.pylayer) { interpretPyLayer(n, env); continue; }
    let outs = runOpDef(n.def, n.inputs.map((x) => (x === null ? null : env.get(x)!)), n.attrs) as Tensor[];
    if (n.detach) outs = outs.map((t) => t.detach() as Tensor);
    n.outputs.forEach((o, i) => env.set(o, outs[i]));
  }
}

function interpretControlFlow(n: GraphNode, env: Map<number, Tensor>): void {
  const regions = n.regions!;
  const go = (): boolean => truthy(env.get(n.inputs[0]!)!);
  if (n.def === IF_DEF) {
    const r = regions[go() ? 0 : 1];
    interpretNodes(r.nodes, env);
    n.outputs.forEach((o, i) => env.set(o, env.get(r.yields[i])!));
    return;
  }
  const body = regions[0];
  let vals = n.inputs.slice(1, n.nOperands).map((x) => env.get(x!)!);
  let more = go();
  while (more) {
    body.args.forEach((a, i) => env.set(a, vals[i]));
    interpretNodes(body.nodes, env);
    more = truthy(env.get(body.yields[0])!);
    vals = body.yields.slice(1).map((y) => env.get(y)!);
  }
  n.outputs.forEach((o, i) => env.set(o, vals[i]));
}

/**
 * Replays nodes into a PIR program at `b` (the caller has a ProgramRecorder on the same builder
 * installed); control-flow nodes become pd_op.if / pd_op.while with their regions.
 */
export function replayNodes(nodes: readonly GraphNode[], values: readonly TensorMeta[], env: Map<number, Value>, b: Builder): void {
  const typeOf = (id: number) => tensorType(values[id].dtype, values[id].shape);
  for (const n of nodes) {
    if (n.pylayer) { replayPyLayer(n, values, env, b); continue; }
    if (!n.regions) {
      const outs = runOpDef(n.def, n.inputs.map((x) => (x === null ? null : env.get(x)!)), n.attrs) as Value[];
      n.outputs.forEach((o, k) => env.set(o, outs[k]));
      continue;
    }
    const outer = b.insertionBlock;
    const operands = n.inputs.slice(0, n.nOperands).map((x) => env.get(x!)!);
    const op = b.create(n.def === IF_DEF ? IF : WHILE, operands, [], n.outputs.map(typeOf), n.regions.length);
    n.regions.forEach((r, i) => {
      const blk = op.regions[i].addBlock(new Block(r.args.map(typeOf)));
      r.args.forEach((a, k) => env.set(a, blk.args[k]));
      b.setInsertionPointToEnd(blk);
      try {
        replayNodes(r.nodes, values, env, b);
        b.yield(r.yields.map((y) => env.get(y)!));
      } finally {
        b.setInsertionPointToEnd(outer);
      }
    });
    n.outputs.forEach((o, k) => env.set(o, op.result(k)));
  }
}

/** A graph as a PIR program: inputs are feeds `in_<i>`, outputs fetches `out_<k>`. */
export function graphProgram(graph: CompiledGraph): { program: Program; builder: Builder; env: Map<number, Value>; inputs: Value[]; outputs: Value[] } {
  const program = new Program();
  const b = new Builder(program);
  const env = new Map<number, Value>();
  const inputs = graph.inputs.map((inp, i) => {
    const m = graph.values[inp.value];
    const v = b.data(`in_${i}`, m.shape, m.dtype);
    env.set(inp.value, v);
    return v;
  });
  const prev = setStaticRecorder(new ProgramRecorder(b));
  try {
    replayNodes(graph.nodes, graph.values, env, b);
  } finally {
    setStaticRecorder(prev);
  }
  return { program, builder: b, env, inputs, outputs: graph.outputs.map((o) => env.get(o)!) };
}

/** A graph with control flow, compiled through PIR for the executor (once per graph). */
export class RegionGraphRunner {
  private readonly exe: Executable;
  private readonly constants: Tensor[];
  private readonly feedInput: number[];
  constructor(graph: CompiledGraph) {
    const { program, builder, outputs } = graphProgram(graph);
    outputs.forEach((v, k) => builder.fetch(v, `out_${k}`, k));
    const g = untracked(() => fromPir(program));
    for (const c of g.constants) c._adoptByGC();
    this.constants = g.constants;
    this.feedInput = g.feeds.map((name) => Number(name.slice(3)));
    this.exe = compile(g.graph, { hostFns: g.hostFns });
  }
  run(inputs: readonly Tensor[]): Tensor[] {
    return this.exe.run(this.feedInput.map((i) => inputs[i]), this.constants);
  }
}

/**
 * Gradients whose existence depends on the branch taken: eager gives a gradient only to inputs
 * the taken side used (None to the others); a backward program gives zeros. Per input wanting
 * gradients: null when every outcome uses it, else the (if node, region) sites that use it —
 * the conditions of those if nodes (and the initial conditions of while nodes, whose body is
 * region 0) are read after each forward run (`conds`, graph value ids). 'unknown' when a use
 * inside a region is not on every path through it (a nested branch or loop body): the caller
 * trains such graphs on the tape instead. null: no such input.
 */
export interface BranchUse { readonly conds: readonly number[]; readonly sites: readonly (readonly (readonly [number, number])[] | null)[] }

export function branchUse(graph: CompiledGraph, inputWants: readonly boolean[]): BranchUse | 'unknown' | null {
  const conds: number[] = [];
  let any = false;
  let unknown = false;
  const sites = graph.inputs.map((inp, i) => {
    if (!inputWants[i]) return null;
    const v = inp.value;
    if (graph.outputs.includes(v) || graph.nodes.some((n) => (n.regions ? n.inputs.slice(0, n.nOperands).includes(v) : n.inputs.includes(v)))) return null;
    const out: [number, number][] = [];
    for (const n of graph.nodes) {
      if (!n.regions || !n.inputs.includes(v)) continue;
      // A while body (region 0) runs at least once exactly when the initial condition holds.
      const used = n.regions.map((r) => usesAnywhere(r, v));
      if (n.def === IF_DEF && used.every(Boolean) && n.regions.every((r) => usedAlways(r, v))) return null;
      let c = conds.indexOf(n.inputs[0]!);
      if (c < 0) { c = conds.length; conds.push(n.inputs[0]!); }
      n.regions.forEach((r, k) => {
        if (!used[k]) return;
        if (!usedAlways(r, v)) unknown = true;
        out.push([c, k]);
      });
    }
    if (!out.length) return null;
    any = true;
    return out;
  });
  if (unknown) return 'unknown';
  return any ? { conds, sites } : null;
}

function usesAnywhere(r: GraphRegion, v: number): boolean {
  return r.yields.includes(v) || r.nodes.some((n) => n.inputs.includes(v));
}

/** v is used on every path through the region (not only inside a nested branch or loop body). */
function usedAlways(r: GraphRegion, v: number): boolean {
  if (r.yields.includes(v)) return true;
  return r.nodes.some((n) => {
    if (!n.regions) return n.inputs.includes(v);
    if (n.inputs.slice(0, n.nOperands).includes(v)) return true;
    return n.def === IF_DEF && n.regions.every((x) => usedAlways(x, v));
  });
}

/** The truth of a fetched one-element condition. */
export const condTruth = (t: Tensor): boolean => truthy(t);

/** Op names of nodes, regions included (depth first), for explain(). */
export function nodeNames(nodes: readonly GraphNode[]): string[] {
  return nodes.flatMap((n) => [n.def.name, ...(n.regions ?? []).flatMap((r) => nodeNames(r.nodes))]);
}
