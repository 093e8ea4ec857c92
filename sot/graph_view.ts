// Trace trees as viewer documents (src/viz): each tree node becomes a segment holding its
// captured graph (inputs, parameters, ops with dtype and shape, outputs) and the graph break it
// ends with, linked to the segments that continue after the break.
import { attrTitle, isFusedOp, metaStr, type VizFunction, type VizGraph, type VizNode, type VizSegment } from '../src/viz/model.js';
import type { CompiledGraph } from './function_graph.js';
import { BREAKS } from './graph_breaks.js';
import type { Source } from './sources.js';
import type { TreeNode } from './trace_tree.js';

export interface ViewedFunction {
  readonly name: string;
  readonly roots: readonly TreeNode[];
  readonly eagerReason: string;
  /** Names of the entry slots of a root node (slot i+1 = parameter i), to label inputs. */
  readonly paramNames: readonly string[];
}

/** A parameter or other tensor reached through an attribute (self.fc.weight), or bound as a constant. */
function isParamSource(s: Source): boolean {
  if (s.k === 'const') return true;
  if (s.k === 'attr') return true;
  if (s.k === 'item' || s.k === 'closure') return isParamSource(s.base);
  return false;
}

export function graphToViz(g: CompiledGraph, inputLabel: (i: number, key: string) => string = (_i, k) => k): VizGraph {
  const nodes: VizNode[] = [];
  const edges: { from: string; to: string }[] = [];
  const producer = new Map<number, string>();
  for (const [i, inp] of g.inputs.entries()) {
    const id = `v${inp.value}`;
    const m = g.values[inp.value];
    nodes.push({ id, kind: isParamSource(inp.source) ? 'param' : 'input', label: inputLabel(i, inp.source.key), sub: metaStr(m.dtype, m.shape), title: `input ${inp.source.key}` });
    producer.set(inp.value, id);
  }
  g.nodes.forEach((n, i) => {
    const id = `n${i}`;
    const m0 = g.values[n.outputs[0]];
    const outs = n.outputs.map((o, k) => `out ${k}: %${o} ${metaStr(g.values[o].dtype, g.values[o].shape)}`);
    nodes.push({
      id, kind: 'op', label: n.detach ? 'detach' : n.def.name,
      sub: m0 ? metaStr(m0.dtype, m0.shape) + (n.outputs.length > 1 ? ` +${n.outputs.length - 1}` : '') : '',
      title: [n.def.name, ...outs, attrTitle(n.attrs)].filter(Boolean).join('\n'), fused: isFusedOp(n.def.name),
    });
    for (const x of n.inputs) if (x !== null && producer.has(x)) edges.push({ from: producer.get(x)!, to: id });
    for (const o of n.outputs) producer.set(o, id);
  });
  g.outputs.forEach((o, k) => {
    const id = `o${k}`;
    nodes.push({ id, kind: 'output', label: `output ${k}`, sub: metaStr(g.values[o].dtype, g.values[o].shape) });
    if (producer.has(o)) edges.push({ from: producer.get(o)!, to: id });
  });
  return { nodes, edges };
}

export function functionToViz(f: ViewedFunction): VizFunction {
  const segments: VizSegment[] = [];
  let k = 0;
  // Root slots are the call's parameters: s1 -> the first parameter's name (s1.fc.weight -> self.fc.weight).
  const rootName = (key: string) => key.replace(/^s(\d+)/, (all, i: string) => f.paramNames[Number(i) - 1] ?? all);
  const visit = (node: TreeNode, depth: number, entryNo: number): string => {
    const id = `s${k++}`;
    const at = segments.length;
    segments.push(null as unknown as VizSegment);   // keep pre-order; filled below
    // (children at an exception handler, after the step raised, follow the normal ones)
    const next = [...node.children, ...node.excChildren].map((c) => visit(c, depth + 1, entryNo));
    const exit = node.exit;
    const ops = node.graph?.opCount ?? 0;
    const title = depth === 0
      ? `graph ${id} (entry${f.roots.length > 1 ? ` ${entryNo + 1} of ${f.roots.length}` : ''}, ${ops} ops)`
      : `graph ${id} (after a break, ${ops} ops)`;
    segments[at] = {
      id, title, depth, hits: node.hits, next,
      graph: node.graph ? graphToViz(node.graph, (i, key) => {
        // Constants bound into the graph (parameters) are named by the tensor's own name.
        const t = node.graphInputs[i];
        // (TS tensors get generated names; Python parameter names live on the Python side.)
        if (t?.k === 'const' && t.v.k === 'tensor') return t.v.t.name && !t.v.t.name.startsWith('generated_tensor') ? t.v.t.name : `param ${key}`;
        return depth === 0 ? rootName(key) : key;
      }) : null,
      breakAfter: exit.k === 'step'
        ? { code: exit.event.code, meaning: BREAKS.get(exit.event.code)?.meaning ?? '', file: exit.event.file, line: exit.event.line, source: exit.event.sourceLine ?? '', detail: exit.event.detail }
        : null,
    };
    return id;
  };
  f.roots.forEach((r, i) => visit(r, 0, i));
  return { name: f.name, eager: f.eagerReason, segments };
}
