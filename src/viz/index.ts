// The graph viewer: documents (model.ts) rendered as one self-contained HTML page, Graphviz
// text, or a standalone SVG. `skiff graph` and paddle.jit.sot.show build documents from SOT
// trace trees (sot/graph_view.ts); showProgram draws a paddle.static / PIR program.
import type { Program } from '../pir/index.js';
import { renderDot } from './dot.js';
import { renderHtml } from './html.js';
import { fromProgram, type VizDoc } from './model.js';
import { renderDocSvg } from './svg.js';

export type { VizDoc, VizFunction, VizGraph, VizNode, VizSegment, VizBreak } from './model.js';
export { fromProgram } from './model.js';
export { layoutGraph } from './layout.js';

export type VizFormat = 'html' | 'dot' | 'svg';
export const VIZ_FORMATS: readonly VizFormat[] = ['html', 'dot', 'svg'];

export function renderViz(doc: VizDoc, format: VizFormat = 'html'): string {
  switch (format) {
    case 'html': return renderHtml(doc);
    case 'dot': return renderDot(doc);
    case 'svg': return renderDocSvg(doc);
    default: throw new Error(`graph viewer: unknown format '${String(format)}' (expected ${VIZ_FORMATS.join(', ')})`);
  }
}

/** A PIR program (paddle.static.Program) as a viewer document; if/while regions are nested boxes. */
export function showProgram(p: Program, format: VizFormat = 'html', title = 'program'): string {
  return renderViz({ title, functions: [{ name: title, eager: '', segments: [{ id: 's0', title: 'global block', graph: fromProgram(p), hits: 0, breakAfter: null, next: [], depth: 0 }] }] }, format);
}
