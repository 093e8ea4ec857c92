// SVG drawing of laid-out graphs (layout.ts): boxes coloured by kind, fused ops marked, control
// flow regions as nested boxes, edges with arrowheads. The HTML page embeds one drawing per
// captured graph; renderDocSvg stacks a whole document (graphs and the breaks between them)
// into one standalone SVG file.
import { layoutGraph, type Layout, type PlacedNode } from './layout.js';
import type { VizBreak, VizDoc } from './model.js';

export const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Presentation attributes, so the standalone SVG looks like the page without a stylesheet. */
const FILL: Record<string, string> = { op: '#e8f0fe', input: '#e6f4ea', param: '#fef7e0', output: '#fce8e6' };
const STROKE: Record<string, string> = { op: '#4a6fa5', input: '#3c8d50', param: '#b08a1e', output: '#b3473c' };

export const ARROW_DEFS = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
  + '<path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>';

/** The nodes and edges of one layout as a <g> (coordinates relative to (0, 0)). */
export function layoutSvg(l: Layout, prefix: string): string {
  const out: string[] = [];
  out.push('<g class="edges">');
  for (const e of l.edges) out.push(`<path class="edge" data-from="${esc(prefix + e.from)}" data-to="${esc(prefix + e.to)}" d="${e.path}" fill="none" stroke="#888" stroke-width="1.2" marker-end="url(#arrow)"/>`);
  out.push('</g><g class="nodes">');
  for (const p of l.nodes) out.push(nodeSvg(p, prefix));
  out.push('</g>');
  return out.join('');
}

function nodeSvg(p: PlacedNode, prefix: string): string {
  const n = p.node;
  const cls = ['node', n.kind, n.fused ? 'fused' : '', n.regions?.length ? 'region' : ''].filter(Boolean).join(' ');
  const search = `${n.label} ${n.sub}`.toLowerCase();
  const parts = [`<g class="${cls}" id="${esc(prefix + n.id)}" data-search="${esc(search)}" transform="translate(${p.x},${p.y})">`];
  parts.push(`<title>${esc(n.title ?? `${n.label}\n${n.sub}`)}</title>`);
  const dash = n.fused ? ' stroke-dasharray="5,2"' : '';
  parts.push(`<rect width="${p.w}" height="${p.h}" rx="${n.kind === 'op' ? 4 : 10}" fill="${n.regions?.length ? '#f6f8fc' : FILL[n.kind]}" stroke="${n.fused ? '#8e44ad' : STROKE[n.kind]}" stroke-width="${n.fused ? 2 : 1.2}"${dash}/>`);
  parts.push(`<text x="${p.w / 2}" y="16" text-anchor="middle" font-family="monospace" font-size="12" font-weight="bold">${esc(n.label)}${n.fused ? ' ⚡' : ''}</text>`);
  if (n.sub) parts.push(`<text x="${p.w / 2}" y="31" text-anchor="middle" font-family="monospace" font-size="11" fill="#555">${esc(n.sub)}</text>`);
  for (const reg of p.regions) {
    const w = reg.layout.width + 20, h = reg.layout.height + 20;
    parts.push(`<g class="subregion" transform="translate(${reg.x},${reg.y})">`);
    parts.push(`<text x="2" y="-5" font-family="monospace" font-size="11" fill="#555">${esc(reg.label)}</text>`);
    parts.push(`<rect width="${w}" height="${h}" rx="6" fill="#fff" stroke="#aab" stroke-dasharray="3,3"/>`);
    parts.push(`<g transform="translate(10,10)">${layoutSvg(reg.layout, prefix)}</g></g>`);
  }
  parts.push('</g>');
  return parts.join('');
}

export const breakText = (b: VizBreak): string => `graph break ${b.code} at ${b.file}:${b.line}${b.source ? `: ${b.source.trim()}` : ''}`;

/** A whole document as one SVG: per function a heading, its graphs stacked, break bars between them. */
export function renderDocSvg(doc: VizDoc): string {
  const parts: string[] = [];
  let y = 30, width = 400;
  parts.push(`<text x="10" y="20" font-family="sans-serif" font-size="16" font-weight="bold">${esc(doc.title)}</text>`);
  for (const [fi, f] of doc.functions.entries()) {
    y += 16;
    parts.push(`<text x="10" y="${y}" font-family="sans-serif" font-size="15" font-weight="bold">${esc(f.name)}${f.eager ? ` (runs as plain Python: ${esc(f.eager)})` : ''}</text>`);
    y += 10;
    for (const s of f.segments) {
      const indent = 10 + 24 * s.depth;
      y += 18;
      parts.push(`<text x="${indent}" y="${y}" font-family="sans-serif" font-size="13" fill="#333">${esc(s.title)}</text>`);
      y += 8;
      if (s.graph) {
        const l = layoutGraph(s.graph);
        parts.push(`<g class="graph" transform="translate(${indent},${y})">${layoutSvg(l, `f${fi}-${s.id}-`)}</g>`);
        y += l.height + 10;
        width = Math.max(width, indent + l.width + 20);
      }
      if (s.breakAfter) {
        const t = breakText(s.breakAfter);
        parts.push(`<g class="break"><rect x="${indent}" y="${y}" width="${t.length * 7 + 20}" height="22" rx="4" fill="#fdecea" stroke="#c0392b"/>`
          + `<text x="${indent + 10}" y="${y + 15}" font-family="monospace" font-size="12" fill="#c0392b">${esc(t)}</text></g>`);
        width = Math.max(width, indent + t.length * 7 + 40);
        y += 30;
      }
    }
    y += 10;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${Math.ceil(y + 10)}" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(y + 10)}">`
    + `${ARROW_DEFS}<rect width="100%" height="100%" fill="#fff"/>${parts.join('\n')}</svg>\n`;
}
