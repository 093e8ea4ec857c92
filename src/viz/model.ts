// The graph viewer's document model: language-neutral data that the layout (layout.ts) and the
// renderers (svg.ts, html.ts, dot.ts) read. SOT trace trees (sot/graph_view.ts) and PIR programs
// (fromProgram below, with pd_op.if / pd_op.while regions as nested graphs) are converted into it.
import type { Block, Operation, Program, Value } from '../pir/index.js';
import { shapeStr, type Shape } from '../tensor/shape.js';

export type NodeKind = 'op' | 'input' | 'param' | 'output';

export interface VizNode {
  readonly id: string;
  readonly kind: NodeKind;
  /** The op name (or the input's name). */
  readonly label: string;
  /** dtype[shape] of the (first) result. */
  readonly sub: string;
  /** Longer text shown on hover (attributes, every result). */
  readonly title?: string;
  /** A fused kernel (fused_* ops, or ops a pass marked). */
  readonly fused?: boolean;
  /** Nested graphs of a control-flow op (if: then/else, while: body), drawn inside its box. */
  readonly regions?: readonly { readonly label: string; readonly graph: VizGraph }[];
}

export interface VizEdge { readonly from: string; readonly to: string }

export interface VizGraph { readonly nodes: readonly VizNode[]; readonly edges: readonly VizEdge[] }

/** Where a captured graph stopped: the instruction that ran concretely, at the user's line. */
export interface VizBreak {
  readonly code: string;
  readonly meaning: string;
  readonly file: string;
  readonly line: number;
  readonly source: string;
  readonly detail: string;
}

/** One trace-tree node: its graph (if any), the break it ends with, and the segments after it. */
export interface VizSegment {
  readonly id: string;
  readonly title: string;
  readonly graph: VizGraph | null;
  readonly hits: number;
  readonly breakAfter: VizBreak | null;
  /** Segment ids continuing after the break (one per guard-distinct path). */
  readonly next: readonly string[];
  /** Nesting depth in the trace tree (0 = an entry). */
  readonly depth: number;
}

export interface VizFunction {
  readonly name: string;
  /** Why the function runs as plain Python, when it does. */
  readonly eager: string;
  readonly segments: readonly VizSegment[];
}

export interface VizDoc { readonly title: string; readonly functions: readonly VizFunction[] }

export const metaStr = (dtype: string, shape: Shape): string => `${dtype}${shapeStr(shape)}`;

/** Fused kernels are marked in the drawing. */
export const isFusedOp = (name: string): boolean => /(^|[._])fused/.test(name) || name.includes('fusion');

function shortAttr(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Hover text for attributes: one `name = value` per line. */
export function attrTitle(attrs: Readonly<Record<string, unknown>> | Iterable<readonly [string, unknown]>): string {
  const entries = Symbol.iterator in Object(attrs) ? [...(attrs as Iterable<readonly [string, unknown]>)] : Object.entries(attrs);
  return entries.map(([k, v]) => `${k} = ${shortAttr(v)}`).join('\n');
}

// ---- PIR programs (paddle.static) ------------------------------------------------------------

/** A PIR program's global block as a graph; control-flow regions become nested graphs. */
export function fromProgram(p: Program): VizGraph {
  let n = 0;
  return blockGraph(p.block, () => `p${n++}`);
}

function blockGraph(block: Block, fresh: () => string): VizGraph {
  const nodes: VizNode[] = [];
  const edges: VizEdge[] = [];
  const producer = new Map<Value, string>();
  block.args.forEach((a, i) => {
    const id = fresh();
    nodes.push({ id, kind: 'input', label: `arg ${i}`, sub: metaStr(a.dtype, a.shape) });
    producer.set(a, id);
  });
  // Values from an enclosing block: one input node per value, named by its id.
  const outer = (v: Value): string => {
    const id = fresh();
    nodes.push({ id, kind: 'input', label: `%${v.id} (outer)`, sub: metaStr(v.dtype, v.shape) });
    producer.set(v, id);
    return id;
  };
  for (const op of block.ops) {
    if (op.name === 'builtin.yield') {
      const id = fresh();
      nodes.push({ id, kind: 'output', label: 'yield', sub: `${op.operands.length} values` });
      for (const o of op.operands) if (o.value) edges.push({ from: producer.get(o.value) ?? outer(o.value), to: id });
      continue;
    }
    const id = fresh();
    nodes.push(opNode(op, id, fresh));
    for (const o of op.operands) if (o.value) edges.push({ from: producer.get(o.value) ?? outer(o.value), to: id });
    for (const r of op.results) producer.set(r, id);
  }
  return { nodes, edges };
}

function opNode(op: Operation, id: string, fresh: () => string): VizNode {
  const kind: NodeKind = op.name === 'pd_op.data' ? 'input' : op.name === 'builtin.parameter' ? 'param' : op.name === 'pd_op.fetch' ? 'output' : 'op';
  const r0 = op.results[0];
  const sub = r0 ? metaStr(r0.dtype, r0.shape) + (op.results.length > 1 ? ` +${op.results.length - 1}` : '') : '';
  const named = op.attr('name');
  const label = kind === 'op' ? op.name.replace(/^pd_op\./, '') : `${op.name.replace(/^(pd_op|builtin)\./, '')} ${named ? shortAttr((named as { value?: unknown }).value ?? named) : ''}`.trim();
  const regionLabels = op.name === 'pd_op.if' ? ['then', 'else'] : op.name === 'pd_op.while' ? ['body'] : [];
  const regions = op.regions.map((r, i) => ({ label: regionLabels[i] ?? `region ${i}`, graph: blockGraph(r.block, fresh) }));
  return {
    id, kind, label, sub, fused: isFusedOp(op.name),
    title: [op.name, ...op.results.map((r, i) => `out ${i}: ${metaStr(r.dtype, r.shape)}`), attrTitle(op.attributes)].filter(Boolean).join('\n'),
    ...(regions.length ? { regions } : {}),
  };
}
