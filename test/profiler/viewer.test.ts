// The graph viewer without Python: a paddle.static program with pd_op.if / pd_op.while drawn as
// nested boxes in HTML, a standalone SVG that is well-formed XML, Graphviz text that parses line
// by line, and a layout whose edges all point down. (LeNet through the translator, the CLI and
// the browser check are in viewer_cli.test.ts.)
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Builder, type Program, type Value } from '../../src/pir/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fromProgram, layoutGraph, showProgram } from '../../src/viz/index.js';
import { checkXml, parseDot } from './xml_check.js';

type T = Tensor;

function controlFlowProgram(): Program {
  const prog = new paddle.static.Program();
  paddle.static.program_guard(prog, () => {
    const x = paddle.static.data('x', [null, 3], 'float32') as T;
    const n = paddle.static.data('n', [1], 'int64') as T;
    const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), paddle.to_tensor(0)) as T,
      () => paddle.exp(x), () => paddle.scale(x, -2, 1)) as T;
    const [, s] = paddle.static.nn.while_loop(
      (i: T) => paddle.less_than(i, n),
      (i: T, s: T) => [paddle.add(i, paddle.to_tensor([1], 'int64')), paddle.add(paddle.multiply(s, paddle.to_tensor(0.5)), y)],
      [paddle.to_tensor([0], 'int64'), paddle.zeros_like(y)]) as Value[];
    new Builder(prog.pir).fetch(paddle.nn.functional.relu(paddle.add(s as unknown as T, x)) as unknown as Value, 'out', 0);
  });
  return prog.pir;
}

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
