// Graphviz text for a viewer document: one cluster per captured graph, nested clusters for
// control-flow regions, and a break node (octagon) between a graph and the graphs after it.
// One statement per line, so the output is easy to diff and to check line by line.
import type { VizDoc, VizGraph, VizNode } from './model.js';
import { breakText } from './svg.js';

const q = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
const STYLE: Record<string, string> = {
  op: 'shape=box, style="rounded,filled", fillcolor="#e8f0fe"',
  input: 'shape=ellipse, style=filled, fillcolor="#e6f4ea"',
  param: 'shape=note, style=filled, fillcolor="#fef7e0"',
  output: 'shape=ellipse, style=filled, fillcolor="#fce8e6"',
};

export function renderDot(doc: VizDoc): string {
  const out: string[] = [`digraph ${q(doc.title)} {`, '  rankdir=TB;', '  compound=true;', '  node [fontname="monospace", fontsize=10];', '  edge [color="#888888"];'];
  let cluster = 0;
  const graphLines = (g: VizGraph, prefix: string, indent: string): { lines: string[]; first: string | null; last: string | null } => {
    const lines: string[] = [];
    const emitNode = (n: VizNode) => {
      const id = q(prefix + n.id);
      if (n.regions?.length) {
        lines.push(`${indent}subgraph cluster_${cluster++} {`);
        lines.push(`${indent}  label=${q(`${n.label} ${n.sub}`)};`);
        lines.push(`${indent}  style=rounded;`);
        lines.push(`${indent}  ${id} [label=${q(n.label)}, shape=diamond];`);
        for (const r of n.regions) {
          lines.push(`${indent}  subgraph cluster_${cluster++} {`);
          lines.push(`${indent}    label=${q(r.label)};`);
          lines.push(`${indent}    style=dashed;`);
          lines.push(...graphLines(r.graph, prefix, `${indent}    `).lines);
          lines.push(`${indent}  }`);
        }
        lines.push(`${indent}}`);
        return;
      }
      const style = n.fused ? 'shape=box, style="rounded,filled,bold", fillcolor="#f3e5f5", color="#8e44ad"' : STYLE[n.kind];
      lines.push(`${indent}${id} [label=${q(n.sub ? `${n.label}${n.fused ? ' (fused)' : ''}\n${n.sub}` : n.label)}, ${style}];`);
    };
    g.nodes.forEach(emitNode);
    for (const e of g.edges) lines.push(`${indent}${q(prefix + e.from)} -> ${q(prefix + e.to)};`);
    const ops = g.nodes;
    return { lines, first: ops.length ? prefix + ops[0].id : null, last: ops.length ? prefix + ops[ops.length - 1].id : null };
  };
  doc.functions.forEach((f, fi) => {
    const anchors = new Map<string, { first: string | null; last: string | null }>();
    for (const s of f.segments) {
      const prefix = `f${fi}_${s.id}_`;
      out.push(`  subgraph cluster_${cluster++} {`);
      out.push(`    label=${q(`${f.name}: ${s.title}`)};`);
      if (s.graph) {
        const { lines, first, last } = graphLines(s.graph, prefix, '    ');
        out.push(...lines);
        anchors.set(s.id, { first, last });
      } else {
        const id = `${prefix}empty`;
        out.push(`    ${q(id)} [label="(no tensor ops)", shape=plaintext];`);
        anchors.set(s.id, { first: id, last: id });
      }
      out.push('  }');
    }
    for (const s of f.segments) {
      if (!s.breakAfter) continue;
      const b = `f${fi}_${s.id}_break`;
      out.push(`  ${q(b)} [label=${q(breakText(s.breakAfter))}, shape=octagon, style=filled, fillcolor="#fdecea", color="#c0392b"];`);
      const from = anchors.get(s.id)?.last;
      if (from) out.push(`  ${q(from)} -> ${q(b)} [style=dashed, color="#c0392b"];`);
      for (const nx of s.next) {
        const to = anchors.get(nx)?.first;
        if (to) out.push(`  ${q(b)} -> ${q(to)} [style=dashed, color="#c0392b"];`);
      }
    }
  });
  out.push('}');
  return `${out.join('\n')}\n`;
}
