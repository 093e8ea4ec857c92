// The graph viewer without Python: a paddle.static program with pd_op.if / pd_op.while drawn as
// nested boxes in HTML, a standalone SVG that is well-formed XML, Graphviz text that parses line
// by line, and a layout whose edges all point down. (LeNet through the translator, the CLI and
// the browser checks are in cli.test.ts and browser_zoo.test.ts.)
import { describe, expect, it } from 'vitest';
import { fromProgram, layoutGraph, showProgram } from '../../src/viz/index.js';
import { checkXml, parseDot } from './xml_check.js';
import { controlFlowProgram } from './programs.js';


describe('graph viewer (PIR programs)', () => {
  const prog = controlFlowProgram();

  it('draws if/while regions as nested graphs', () => {
    const g = fromProgram(prog);
    const iff = g.nodes.find((n) => n.label === 'if')!;
    const wh = g.nodes.find((n) => n.label === 'while')!;
    expect(iff.regions!.map((r) => r.label)).toEqual(['then', 'else']);
    expect(iff.regions![0].graph.nodes.some((n) => n.label === 'exp')).toBe(true);
    expect(wh.regions!.map((r) => r.label)).toEqual(['body']);
    expect(wh.regions![0].graph.nodes.some((n) => n.label === 'multiply')).toBe(true);
    expect(g.nodes.some((n) => n.kind === 'input' && n.label.includes('x'))).toBe(true);
  });

  it('lays out a DAG top to bottom without overlaps in a row', () => {
    const l = layoutGraph(fromProgram(prog));
    const at = new Map(l.nodes.map((p) => [p.node.id, p]));
    for (const e of l.edges) expect(at.get(e.to)!.y).toBeGreaterThan(at.get(e.from)!.y);
    const byRow = new Map<number, typeof l.nodes[number][]>();
    for (const p of l.nodes) byRow.set(p.y, [...(byRow.get(p.y) ?? []), p]);
    for (const row of byRow.values()) {
      const xs = [...row].sort((a, b) => a.x - b.x);
      for (let i = 1; i < xs.length; i++) expect(xs[i].x).toBeGreaterThanOrEqual(xs[i - 1].x + xs[i - 1].w);
    }
    const iff = l.nodes.find((p) => p.node.label === 'if')!;
    expect(iff.regions).toHaveLength(2);
    for (const r of iff.regions) expect(r.x + r.layout.width).toBeLessThanOrEqual(iff.w);
  });

  it('renders HTML with inline SVG, a standalone SVG, and dot', () => {
    const html = showProgram(prog, 'html', 'cf');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);   // self-contained: no network
    const svgs = html.match(/<svg class="viewport"[\s\S]*?<\/svg>/g)!;
    expect(svgs).toHaveLength(1);
    const names = checkXml(svgs[0]);
    expect(names.filter((n) => n === 'rect').length).toBeGreaterThan(10);
    expect(svgs[0]).toContain('class="subregion"');
    const svg = showProgram(prog, 'svg', 'cf');
    expect(checkXml(svg)[0]).toBe('svg');
    const dot = parseDot(showProgram(prog, 'dot', 'cf'));
    expect(dot.nodes.size).toBeGreaterThan(10);
    expect(() => showProgram(prog, 'png' as 'svg')).toThrow(/graph viewer: unknown format 'png'/);
  });
});
