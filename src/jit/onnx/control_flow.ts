// Control flow to ONNX: pd_op.if -> If (then/else regions become then_branch/else_branch
// subgraphs), pd_op.while -> Loop (its body region becomes the Loop body; the trip count is
// left empty so only the condition ends it, as in Paddle). Region ops are converted by the same
// converters into the subgraph's node list; values of enclosing blocks (and all initializers)
// are read from the outer scope, which ONNX allows. Every subgraph output is an Identity made
// inside the subgraph, so an output that is an outer value (a branch returning its input
// unchanged) is still produced by the subgraph.
import { type Block, type Operation, type TensorType, type Value, yieldedValues } from '../../pir/index.js';
import type { ConvertCtx } from './export.js';
import { valueInfo } from './graph.js';

function tensorType(v: Value, where: string): TensorType {
  if (v.type.kind !== 'tensor') throw new Error(`onnx export: ${where}: ${String(v.type)} is not a tensor (ONNX control flow carries tensors only)`);
  return v.type;
}

function soleBlock(op: Operation, i: number): Block {
  const blocks = op.regions[i]?.blocks ?? [];
  if (blocks.length !== 1) throw new Error(`onnx export: ${op.name}: region ${i} must hold one block, got ${blocks.length}`);
  return blocks[0];
}

/** The block's ops without its builtin.yield, and the yielded values. */
function bodyOf(op: Operation, block: Block): { ops: Operation[]; ys: Value[] } {
  const ys = yieldedValues(block);
  if (!ys || ys.some((v) => !v)) throw new Error(`onnx export: ${op.name}: a region does not end in a builtin.yield of present values`);
  return { ops: block.ops.filter((o) => o.name !== 'builtin.yield'), ys: ys as Value[] };
}

/** A scalar bool from a one-element condition ([] or [1]), as Loop wants its condition. */
function scalarCond(ctx: ConvertCtx, v: Value, where: string): string {
  const t = tensorType(v, where);
  const name = ctx.g.name(v, where);
  return t.rank === 0 ? ctx.g.op('Identity', [name]) : ctx.g.op('Reshape', [name, ctx.g.ints([])]);
}

export function convertIf(op: Operation, ctx: ConvertCtx): void {
  const { g } = ctx;
  const branches = ['then', 'else'].map((label, i) => {
    const { ops, ys } = bodyOf(op, soleBlock(op, i));
    const outs: string[] = [];
    const node = g.collect(() => {
      ctx.convertOps(ops);
      ys.forEach((y, k) => outs.push(g.op('Identity', [g.name(y, `pd_op.if ${label} output ${k}`)])));
    });
    return {
      name: g.fresh(`if_${label}`),
      node,
      output: outs.map((n, k) => valueInfo(n, tensorType(op.result(k), `pd_op.if result ${k}`))),
    };
  });
  if (!op.numResults) return;  // an if with no results has no effect on the outputs
  const names = g.node('If', [g.name(op.operand(0)!, 'pd_op.if condition')], { then_branch: { graph: branches[0] }, else_branch: { graph: branches[1] } }, op.numResults);
  op.results.forEach((r, k) => g.bind(r, names[k]));
}

export function convertWhile(op: Operation, ctx: ConvertCtx): void {
  const { g } = ctx;
  const block = soleBlock(op, 0);
  const inits = op.operandValues().slice(1) as Value[];
  const { ops, ys } = bodyOf(op, block);
  if (ys.length !== inits.length + 1) throw new Error(`onnx export: pd_op.while: the body yields ${ys.length} values for ${inits.length} loop values and the condition`);
  const iter = g.fresh('loop_iter'), condIn = g.fresh('loop_cond_in');
  const args = block.args.map((a, k) => { const n = g.fresh(`loop_v${k}`); g.bind(a, n); return n; });
  const outs: string[] = [];
  const node = g.collect(() => {
    ctx.convertOps(ops);
    outs.push(scalarCond(ctx, ys[0], 'pd_op.while next condition'));
    ys.slice(1).forEach((y, k) => outs.push(g.op('Identity', [g.name(y, `pd_op.while body output ${k}`)])));
  });
  const types = inits.map((v, k) => tensorType(v, `pd_op.while loop value ${k}`));
  const body = {
    name: g.fresh('loop_body'),
    node,
    input: [valueInfo(iter, { dtype: 'int64', shape: [] }), valueInfo(condIn, { dtype: 'bool', shape: [] }), ...args.map((n, k) => valueInfo(n, types[k]))],
    output: [valueInfo(outs[0], { dtype: 'bool', shape: [] }), ...outs.slice(1).map((n, k) => valueInfo(n, types[k]))],
  };
  const cond0 = scalarCond(ctx, op.operand(0)!, 'pd_op.while condition');
  const names = g.node('Loop', ['', cond0, ...inits.map((v, k) => g.name(v, `pd_op.while loop value ${k}`))], { body: { graph: body } }, op.numResults);
  op.results.forEach((r, k) => g.bind(r, names[k]));
}
