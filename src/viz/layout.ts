// Layered DAG layout (top to bottom) for the viewer, written for graphs of a few thousand nodes:
//   1. layers: longest path from the sources; a source (input, parameter) is then moved down to
//      just above its first consumer, so weights sit next to the op that reads them;
//   2. order within layers: barycentre sweeps (down by predecessors, up by successors);
//   3. x positions: packed in order, then pulled toward the mean x of their neighbours with the
//      order kept and a minimum gap (a few relaxation rounds);
//   4. control-flow nodes are laid out recursively: their regions side by side inside the box.
// Edges are cubic curves from the bottom of the producer to the top of the consumer.
import type { VizGraph, VizNode } from './model.js';

export const CHAR_W = 7;       // monospace 12px advance, close enough for box widths
const PAD_X = 10, GAP_X = 18, GAP_Y = 34, LINE_H = 15, REGION_PAD = 10, REGION_HEAD = 18;

export interface PlacedNode {
  readonly node: VizNode;
  x: number; y: number; readonly w: number; readonly h: number;
  readonly layer: number;
  /** Laid-out regions, positioned relative to the node's top-left corner. */
  readonly regions: readonly { readonly label: string; readonly x: number; readonly y: number; readonly layout: Layout }[];
}

export interface PlacedEdge { readonly from: string; readonly to: string; readonly path: string }

export interface Layout { readonly nodes: readonly PlacedNode[]; readonly edges: readonly PlacedEdge[]; readonly width: number; readonly height: number }

export function layoutGraph(g: VizGraph): Layout {
  const n = g.nodes.length;
  const index = new Map<string, number>();
  g.nodes.forEach((v, i) => index.set(v.id, i));
  const preds: number[][] = g.nodes.map(() => []), succs: number[][] = g.nodes.map(() => []);
  for (const e of g.edges) {
    const a = index.get(e.from), b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    preds[b].push(a);
    succs[a].push(b);
  }
  const order = topoOrder(n, preds, succs);

  // 1. layers
  const layer = new Array<number>(n).fill(0);
  for (const v of order) for (const u of preds[v]) layer[v] = Math.max(layer[v], layer[u] + 1);
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    if (preds[v].length === 0 && succs[v].length > 0) layer[v] = Math.max(layer[v], Math.min(...succs[v].map((s) => layer[s])) - 1);
  }
  const nLayers = n ? Math.max(...layer) + 1 : 0;
  const rows: number[][] = Array.from({ length: nLayers }, () => []);
  for (const v of order) rows[layer[v]].push(v);

  // sizes (regions first: a control-flow box holds their layouts)
  const sized = g.nodes.map((node) => sizeNode(node));

  // 2. barycentre ordering
  const pos = new Array<number>(n).fill(0);
  const renumber = (row: number[]) => row.forEach((v, i) => { pos[v] = i; });
  rows.forEach(renumber);
  const bary = (v: number, nb: number[][]) => (nb[v].length ? nb[v].reduce((a, u) => a + pos[u], 0) / nb[v].length : pos[v]);
  for (let sweep = 0; sweep < 4; sweep++) {
    for (let l = 1; l < nLayers; l++) { const key = new Map(rows[l].map((v) => [v, bary(v, preds)])); rows[l].sort((a, b) => key.get(a)! - key.get(b)!); renumber(rows[l]); }
    for (let l = nLayers - 2; l >= 0; l--) { const key = new Map(rows[l].map((v) => [v, bary(v, succs)])); rows[l].sort((a, b) => key.get(a)! - key.get(b)!); renumber(rows[l]); }
  }

  // Weights go to the right end of their row (ordered like their consumers): on either side of
  // the data path they would push it sideways, row after row.
  for (const row of rows) {
    const isWeight = (v: number) => preds[v].length === 0 && succs[v].length === 1 && row.some((u) => preds[u].length > 0);
    const weights = row.filter(isWeight).sort((a, b) => pos[succs[a][0]] - pos[succs[b][0]]);
    if (!weights.length) continue;
    const rest = row.filter((v) => !isWeight(v));
    row.splice(0, row.length, ...rest, ...weights);
    renumber(row);
  }

  // 3. coordinates: rows stacked by their tallest node; x packed, then relaxed toward neighbours
  const xs = new Array<number>(n).fill(0), ys = new Array<number>(n).fill(0);
  let y = 0;
  for (const row of rows) {
    let x = 0;
    const h = Math.max(...row.map((v) => sized[v].h));
    for (const v of row) { xs[v] = x; ys[v] = y; x += sized[v].w + GAP_X; }
    y += h + GAP_Y;
  }
  const center = (v: number) => xs[v] + sized[v].w / 2;
  // Going down, a node follows the data it transforms, not its weights: sources (inputs,
  // parameters) do not pull their consumer, or a chain of ops with a weight each would drift
  // sideways by half a box per layer. Going up, sources move next to their consumer.
  const flowPreds = preds.map((p) => { const f = p.filter((u) => preds[u].length > 0); return f.length ? f : p; });
  for (let round = 0; round < 6; round++) {
    const nb = round % 2 === 0 ? flowPreds : succs;
    for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
      const want = row.map((v) => (nb[v].length ? nb[v].reduce((a, u) => a + center(u), 0) / nb[v].length - sized[v].w / 2 : xs[v]));
      // Keep the order: left to right, no closer than GAP_X; then right to left the same way.
      for (let i = 0; i < row.length; i++) xs[row[i]] = i ? Math.max(want[i], xs[row[i - 1]] + sized[row[i - 1]].w + GAP_X) : want[i];
      for (let i = row.length - 2; i >= 0; i--) xs[row[i]] = Math.min(xs[row[i]], xs[row[i + 1]] - sized[row[i]].w - GAP_X);
    }
  }
  const minX = n ? Math.min(...xs) : 0;
  const placed: PlacedNode[] = g.nodes.map((node, v) => ({ node, x: xs[v] - minX, y: ys[v], w: sized[v].w, h: sized[v].h, layer: layer[v], regions: sized[v].regions }));
  const width = n ? Math.max(...placed.map((p) => p.x + p.w)) : 0;
  const height = n ? Math.max(...placed.map((p) => p.y + p.h)) : 0;

  const edges: PlacedEdge[] = [];
  for (const e of g.edges) {
    const a = index.get(e.from), b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    const A = placed[a], B = placed[b];
    const x1 = A.x + A.w / 2, y1 = A.y + A.h, x2 = B.x + B.w / 2, y2 = B.y;
    const dy = Math.max(12, (y2 - y1) / 2);
    edges.push({ from: e.from, to: e.to, path: `M${r(x1)},${r(y1)} C${r(x1)},${r(y1 + dy)} ${r(x2)},${r(y2 - dy)} ${r(x2)},${r(y2)}` });
  }
  return { nodes: placed, edges, width, height };
}

const r = (v: number): string => String(Math.round(v * 10) / 10);

function sizeNode(node: VizNode): { w: number; h: number; regions: PlacedNode['regions'] } {
  const textW = Math.max(node.label.length, node.sub.length) * CHAR_W + 2 * PAD_X;
  const textH = node.sub ? 2 * LINE_H + 8 : LINE_H + 10;
  if (!node.regions?.length) return { w: Math.max(48, textW), h: textH, regions: [] };
  const regions: { label: string; x: number; y: number; layout: Layout }[] = [];
  let x = REGION_PAD, maxH = 0;
  for (const reg of node.regions) {
    const layout = layoutGraph(reg.graph);
    const w = Math.max(layout.width, reg.label.length * CHAR_W) + 2 * REGION_PAD;
    regions.push({ label: reg.label, x, y: textH + REGION_HEAD, layout });
    x += w + REGION_PAD;
    maxH = Math.max(maxH, layout.height);
  }
  return { w: Math.max(textW, x), h: textH + REGION_HEAD + maxH + 2 * REGION_PAD, regions };
}

/** Topological order (Kahn), falling back to index order for anything left in a cycle. */
function topoOrder(n: number, preds: number[][], succs: number[][]): number[] {
  const deg = preds.map((p) => p.length);
  const out: number[] = [];
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (deg[v] === 0) queue.push(v);
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h];
    out.push(v);
    for (const s of succs[v]) if (--deg[s] === 0) queue.push(s);
  }
  if (out.length < n) { const seen = new Set(out); for (let v = 0; v < n; v++) if (!seen.has(v)) out.push(v); }
  return out;
}
