// Continuations shared between trace-tree nodes (Paddle's resume-function cache). Two nodes that
// break at the same place leave the same child layout: the same frames at the same instructions
// with the same entry-slot numbering. A child translated after one of them can then serve the
// other, when its guards hold on the new entry and every slot it did not guard (values the first
// parent made, e.g. a constant it saw or a tensor from its graph) is the same for translation
// purposes — except slots only dead locals hold (nothing reads them before they are stored
// again; Paddle's resume functions do not even take them). So `f(x, 1)` and `f(x, 2)` with a
// break after the last use of the second argument share the code after the break.
import { type TreeNode } from '../../../sot/trace_tree.js';
import type { RtValue } from '../../../sot/values.js';
import { codeFlow } from './cfg.js';
import type { CodeInfo } from './code.js';
import type { Layout, LayoutValue } from './segment.js';

interface Shared {
  readonly node: TreeNode;
  /** The entry the node was translated with. */
  readonly entry: readonly RtValue[];
  /** Slots the node did not guard and something live reads: they must match `entry`. */
  readonly compare: readonly number[];
}

export class ResumeCache {
  private readonly byLayout = new Map<string, Shared[]>();
  /** Every parent of each node (a shared node has several): the tree must stay acyclic. */
  private readonly parents = new Map<TreeNode, Set<TreeNode>>();

  /** A node translated after another parent with this layout that serves `entry` too, or null. */
  find(parent: TreeNode, layout: Layout, entry: readonly RtValue[]): TreeNode | null {
    for (const s of this.byLayout.get(JSON.stringify(layout)) ?? []) {
      if (s.node.entryShapes) continue;
      if (!s.compare.every((i) => sameForTranslation(entry[i], s.entry[i]))) continue;
      // (a loop breaking at its test every pass would make a node its own descendant)
      if (s.node.failing(entry) === null && !this.isAncestor(s.node, parent)) {
        this.link(parent, s.node);
        return s.node;
      }
    }
    return null;
  }

  private link(parent: TreeNode, child: TreeNode): void {
    let ps = this.parents.get(child);
    if (!ps) { ps = new Set(); this.parents.set(child, ps); }
    ps.add(parent);
  }

  /** Whether `a` is `b` or one of its ancestors. */
  private isAncestor(a: TreeNode, b: TreeNode): boolean {
    const seen = new Set<TreeNode>();
    const work = [b];
    while (work.length) {
      const n = work.pop()!;
      if (n === a) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const p of this.parents.get(n) ?? []) work.push(p);
    }
    return false;
  }

  /** Offers a child just translated after `parent` (with `entry`, guarding the slots `guarded` says) for sharing. */
  add(parent: TreeNode, layout: Layout, node: TreeNode, entry: readonly RtValue[], guarded: (i: number) => boolean, code: (id: number) => CodeInfo): void {
    this.link(parent, node);
    if (node.entryShapes) return;
    const live = liveSlots(layout, code);
    const compare = [...live].filter((i) => i < entry.length && !guarded(i)).sort((a, b) => a - b);
    const key = JSON.stringify(layout);
    let list = this.byLayout.get(key);
    if (!list) { list = []; this.byLayout.set(key, list); }
    list.push({ node, entry: entry.slice(), compare });
  }

  clear(): void { this.byLayout.clear(); this.parents.clear(); }
}

/**
 * Entry slots something live at the resume points reads: stack entries, handled exceptions,
 * cells, and locals live at each frame's resume instruction (every local when the code has a
 * real exception handler, whose paths the control-flow graph does not follow).
 */
function liveSlots(layout: Layout, code: (id: number) => CodeInfo): Set<number> {
  const out = new Set<number>();
  const mark = (lv: LayoutValue | undefined): void => {
    if (lv === undefined) return;
    if (typeof lv === 'number') { if (lv >= 0) out.add(lv); return; }
    if ('cell' in lv) {
      const c = layout.cells[lv.cell];
      if (c) { if (c.contents >= 0) out.add(c.contents); if (c.host >= 0) out.add(c.host); }
      return;
    }
    out.add(lv.slot);
    if (lv.as === 'function') for (const k of lv.cells) mark({ cell: k });
  };
  for (const fl of layout.frames) {
    const c = code(fl.codeId);
    const flow = codeFlow(c);
    fl.stack.forEach(mark);
    mark(fl.excInfo);
    fl.locals.forEach((lv, i) => {
      if (c.hasRealHandlers || c.wire.localkinds[i] !== 'l' || flow.liveAt(i, fl.ip)) mark(lv);
    });
  }
  return out;
}

/**
 * What a translation may have assumed about an unguarded slot is what its guard would check:
 * constants with their type, tensor dtype/shape/stop_gradient, object identity, container
 * structure and (for real lists and dicts) identity.
 */
function sameForTranslation(a: RtValue | undefined, b: RtValue | undefined): boolean {
  if (!a || !b || a.k !== b.k) return false;
  switch (a.k) {
    case 'none': return true;
    case 'int': case 'float': case 'bool': case 'str': return Object.is(a.v, (b as typeof a).v);
    case 'tensor': {
      const x = a.t, y = (b as typeof a).t;
      return x.dtype === y.dtype && x.stop_gradient === y.stop_gradient && x.shape.length === y.shape.length && x.shape.every((d, i) => d === y.shape[i]);
    }
    case 'obj': return a.ref.id === (b as typeof a).ref.id;
    case 'tuple': { const y = b as typeof a; return a.items.length === y.items.length && a.items.every((x, i) => sameForTranslation(x, y.items[i])); }
    case 'list': {
      const y = b as typeof a;
      return a.ref?.id === y.ref?.id && a.items.length === y.items.length && a.items.every((x, i) => sameForTranslation(x, y.items[i]));
    }
    case 'dict': {
      const y = b as typeof a;
      return a.ref?.id === y.ref?.id && a.keys.length === y.keys.length &&
        a.keys.every((k, i) => sameForTranslation(k, y.keys[i]) && sameForTranslation(a.values[i], y.values[i]));
    }
    default: return false;
  }
}
