// Paddle's CompileSIRCache (paddle.jit.sot.symbolic.compile_cache) over Skiff's trace trees.
// Paddle keeps one compiled program per captured graph ("SIR") and records the train/eval mode
// it was compiled in (partial_program.training). Skiff's captured graphs live in the trace
// trees; this module stamps each graph when a translation makes it (with the train mode
// Layer.train()/eval() last set, as Paddle's tracer does) and lists the graphs of the live trees
// made since the last clear(). Nothing is kept beyond the trees: a dropped tree's graphs are gone.
import type { CompiledGraph } from '../../../sot/function_graph.js';
import type { TreeNode } from '../../../sot/trace_tree.js';

interface Stamp { readonly seq: number; readonly training: boolean }

/** One captured graph, as the Python side shows it (a FallbackWrapper-like entry). */
export interface CompiledEntry {
  /** Unique per translation made graph (the key in CompileSIRCache().cache). */
  readonly key: number;
  /** `qualname#translation` of the function the graph belongs to. */
  readonly name: string;
  readonly ops: number;
  /** The train mode when the graph was captured (Paddle: partial_program.training). */
  readonly training: boolean;
  /** Whether the graph runs on the native executor (false: below MIN_GRAPH_SIZE, op by op). */
  readonly executor: boolean;
  /** The graph's listing (Paddle: the SIR). */
  readonly sir: string;
}

const stamps = new WeakMap<CompiledGraph, Stamp>();
let seq = 0;
let clearedAt = 0;

/** Called by the runtime for every graph a translation makes. */
export function stampGraph(graph: CompiledGraph, training: boolean): void {
  stamps.set(graph, { seq: ++seq, training });
}

/** CompileSIRCache().clear(): graphs made so far are no longer listed (they keep running). */
export function clearCompileCache(): void { clearedAt = seq; }

/** The graphs of `roots` (whole trees) made since the last clear, oldest first. */
export function compileCacheEntries(roots: Iterable<TreeNode>): CompiledEntry[] {
  const out: CompiledEntry[] = [];
  const visit = (n: TreeNode): void => {
    const s = n.graph ? stamps.get(n.graph) : undefined;
    if (n.graph && s && s.seq > clearedAt) {
      out.push({ key: s.seq, name: n.graph.name, ops: n.graph.opCount, training: s.training, executor: !n.graph.opByOp, sir: n.graph.describe() });
    }
    n.children.forEach(visit);
    n.excChildren.forEach(visit);
  };
  for (const r of roots) visit(r);
  return out.sort((a, b) => a.key - b.key);
}
