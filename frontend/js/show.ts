// paddle.jit.sot.show / explain for JavaScript: a to_static'd function's (or layer's) cache
// entries as a graph-viewer document (src/viz), the same page the Python frontend's
// paddle.jit.sot.show writes. JS has no graph splitting at breaks, so each cache entry is one
// root segment: its captured graph, or the break that made it eager.
import { Layer } from '../../src/nn/layer.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { renderViz, VIZ_FORMATS, type VizDoc, type VizFormat, type VizSegment } from '../../src/viz/index.js';
import { BREAKS } from '../../sot/graph_breaks.js';
import { graphToViz } from '../../sot/graph_view.js';
import { parseFunction } from './parse.js';
import { StaticFunction } from './static_function.js';
import { to_static } from './index.js';

/** What show/explain accept: a function, a layer, or the result of to_static on either. */
type Target = Function | Layer;

function staticOf(target: unknown): StaticFunction | null {
  if (target === null || (typeof target !== 'function' && typeof target !== 'object')) return null;
  const sf = Reflect.get(target as object, 'static_function');
  return sf instanceof StaticFunction ? sf : null;
}

/** The to_static'd callable for `target` and how to call it (a layer through `call`). */
function prepare(target: Target): { run: (args: unknown[]) => unknown; sf: StaticFunction } {
  if (typeof target !== 'function' && !(target instanceof Layer)) {
    throw new TypeError(`paddle.jit.sot: expected a function, a paddle.nn.Layer or a to_static result, got ${target === null ? 'null' : typeof target}`);
  }
  const done = staticOf(target);
  if (target instanceof Layer) {
    const s = done ? (target as Layer & { call: (...a: unknown[]) => unknown }) : to_static(target);
    return { run: (args) => s.call(...args), sf: done ?? staticOf(s)! };
  }
  const s = done ? (target as (...a: unknown[]) => unknown) : to_static(target);
  return { run: (args) => s(...args), sf: done ?? staticOf(s)! };
}

/** Parameter names of the translated function, to label graph inputs (s3 = first argument). */
function paramNames(sf: StaticFunction): string[] {
  try {
    return parseFunction(sf.fn).node.params.map((p, i) => (p.type === 'Identifier' ? p.name : p.type === 'AssignmentPattern' && p.left.type === 'Identifier' ? p.left.name : `arg${i}`));
  } catch {
    return [];   // no source (native): inputs keep their slot names
  }
}

/** The viewer document of a StaticFunction's current cache entries. */
export function staticFunctionDoc(sf: StaticFunction, title = sf.name): VizDoc {
  const names = paramNames(sf);
  const paramName = new Map<Tensor, string>(sf.layer ? sf.layer.named_parameters().map(([n, p]) => [p, n]) : []);
  const slotName = (key: string): string => key.replace(/^s(\d+)/, (all, i: string) => {
    const k = Number(i);
    if (k === 0) return sf.layer ? 'self' : 'this';
    return k >= 3 ? (names[k - 3] ?? `arg${k - 3}`) : all;
  });
  const entries = sf.entries;
  const n = entries.length;
  const idOf = new Map(entries.map((e, i) => [e.node, `s${i}`]));
  const segments: VizSegment[] = entries.map((e, i) => {
    const entry = n > 1 ? ` ${i + 1} of ${n}` : '';
    const ev = e.event;
    // A split node links to the children that continue after its step (the trace tree).
    const next = [...e.node.children, ...e.node.excChildren].map((c) => idOf.get(c)).filter((x): x is string => x !== undefined);
    return {
      id: `s${i}`, depth: e.depth, hits: e.node.hits, next,
      title: e.graph ? `graph s${i} (${e.exit === 'split' ? 'split' : 'segment'}${entry}, ${e.graph.opCount} ops)` : `${e.exit === 'eager' ? 'eager' : 'empty'} segment${entry} (${ev?.code ?? 'no ops'})`,
      graph: e.graph ? graphToViz(e.graph, (k, key) => {
        const src = e.graph!.inputs[k].source;
        if (src.k === 'const') { const t = e.bound[src.i]; return (t && paramName.get(t)) ?? `param ${key}`; }
        return slotName(key);
      }) : null,
      breakAfter: ev ? { code: ev.code, meaning: BREAKS.get(ev.code)?.meaning ?? '', file: ev.file, line: ev.line, source: ev.sourceLine ?? '', detail: ev.detail } : null,
    };
  });
  const eager = n && entries.every((e) => e.exit === 'eager') ? 'every call runs eagerly (see the breaks)' : '';
  return { title, functions: [{ name: sf.name, eager, segments }] };
}

/**
 * Calls target(...args) (a function or layer; a to_static result keeps its cache) through the
 * translator and renders its captured graphs as one self-contained HTML page. The text is
 * returned (write it with fs.writeFileSync); `render` gives Graphviz text or SVG.
 */
export function show(target: Target, ...args: unknown[]): string {
  return render('html', target, ...args);
}

export function render(format: VizFormat, target: Target, ...args: unknown[]): string {
  if (!VIZ_FORMATS.includes(format)) throw new Error(`paddle.jit.sot.render: format must be one of ${VIZ_FORMATS.join(', ')}, got '${String(format)}'`);
  const { run, sf } = prepare(target);
  run(args);
  return renderViz(staticFunctionDoc(sf), format);
}

/** Calls target(...args) through the translator and reports graph count, ops, breaks and guards per entry. */
export function explain(target: Target, ...args: unknown[]): ReturnType<StaticFunction['explain']> {
  const { run, sf } = prepare(target);
  run(args);
  return sf.explain();
}
