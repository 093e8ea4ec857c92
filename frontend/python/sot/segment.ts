// Where one trace-tree segment ends and the next begins. The live state of the simulated frames
// at a break becomes templates (rebuilt at run time from the node's entry, graph outputs and
// step results) plus a layout telling the child's translation how to rebuild its frames from
// those slots. Values the translator models without a real object (ranges, slices, sets,
// iterators, super objects, functions made by the traced code, closure cells) cross
// structurally while they stay inside the frames, and are made for real ('build' templates)
// when Python code receives them (step operands, side effects, the return value).
import type { SymTensor } from '../../../sot/function_graph.js';
import { isLocalSource, slotSource, type Source } from '../../../sot/sources.js';
import type { Template } from '../../../sot/trace_tree.js';
import type { HostRef, RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, CellVar, ConstVar, DictVar, DictViewVar, FunctionVar, IterVar, ListVar, NULL, NullVar, ObjectVar, RangeVar, SetVar,
  SliceVar, SuperVar, TensorVar, TupleVar, type Variable,
} from '../../../sot/variables.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { Frame } from './frame.js';
import { GradMethodVar, GradModeVar, gradModeHostObject } from './grad_mode.js';
import type { Translator } from './translator.js';
import { symIntTemplate, SymIntVar } from './symint.js';
import { NamedTupleVar } from './namedtuple.js';
import { SiteBoundVar, SiteEscape } from './generators.js';
import { InstanceVar } from './user_objects.js';
import { EntryInstanceVar } from './fresh_objects.js';
import { isNumpyDataSource } from './numpy_values.js';

/** How the child rebuilds one stack entry or local. */
export type LayoutValue =
  /** An entry slot; -1: unbound local, -2: CPython's NULL. */
  | number
  /** A local that is a cell: entry #cell of Layout.cells (cells are shared by identity). */
  | { readonly cell: number }
  /** A modelled value rebuilt from the tuple in `slot` (iter: the remaining items). */
  | { readonly as: 'iter' | 'range' | 'slice' | 'set' | 'super'; readonly slot: number }
  /** An object made by the traced code (user_objects.ts): (class, attribute names, values) in `slot`. */
  | { readonly as: 'instance'; readonly slot: number }
  /** A dict view of the dict in `slot`. */
  | { readonly as: 'keys' | 'values' | 'items'; readonly slot: number }
  /** A function made by the traced code: (defaults, kwdefaults) in `slot`, its closure as cells. */
  | {
      readonly as: 'function'; readonly slot: number; readonly codeId: number; readonly name: string;
      readonly globalsId: number; readonly cells: readonly number[];
    };

export interface FrameLayout {
  readonly codeId: number;
  readonly globalsId: number;
  readonly fnName: string;
  readonly ip: number;
  readonly stack: readonly LayoutValue[];
  /** The child starts after a SKIFF_FOR_ITER step of this FOR_ITER instruction (innermost frame). */
  readonly forIter?: number;
  readonly locals: readonly LayoutValue[];
  /** The exception this frame is handling (sys.exc_info), when it handles one. */
  readonly excInfo?: LayoutValue;
}

/** A closure cell: its contents slot (-1 empty) and, for a real cell, the slot holding it (else -1). */
export interface CellLayout { readonly contents: number; readonly host: number }

export interface Layout {
  readonly frames: readonly FrameLayout[];
  readonly cells: readonly CellLayout[];
  /** Simulated `paddle.no_grad()` blocks open at the break (grad_mode.ts). */
  readonly gradDepth?: number;
}

export const UNBOUND = -1;
export const NULL_SLOT = -2;

/** Values a segment cannot have changed since its entry (so the entry's copy is still right). */
const unchangeable = (v: Variable): boolean =>
  v instanceof ConstVar || v instanceof TensorVar || v instanceof ObjectVar || v instanceof SuperVar || (v instanceof TupleVar && v.items.every(unchangeable));

const nullT = (tx: Translator): Template => ({ k: 'const', v: { k: 'obj', ref: tx.host.nullRef } });
const strT = (v: string): Template => ({ k: 'const', v: { k: 'str', v } });

/** Templates for the values of an ending segment; the same variable always gets the same template. */
export class SegmentTemplates {
  readonly outs: SymTensor[] = [];
  private readonly outIndex = new Map<SymTensor, number>();
  private readonly made = new Map<Variable, Template>();
  /** Simulated cells made real in this run because a function closing over them escaped. */
  readonly realCells = new Map<CellVar, Template>();
  /**
   * Set while making templates of values handed to Python (step operands, side effects): a
   * list, dict, set or iterator the translator made is then created for real, once per run, and
   * the child re-reads that object, since Python code may change it during the step.
   */
  handOff = false;
  /** Containers made real for this run (see handOff). */
  readonly realized = new Set<Variable>();

  constructor(private readonly tx: Translator) {}

  /**
   * Lists and dicts the traced code made that must be one real object in this run (reached
   * twice from a value handed to Python, such as the return value `(a, a)`): built for real
   * wherever they are used. Set before any template of them is made.
   */
  shared: ReadonlySet<Variable> = new Set();

  tpl(v: Variable): Template {
    let t = this.made.get(v);
    if (t) return t;
    // A value reaching itself cannot be built from its parts.
    if (this.building.has(v)) throw new GraphBreak('SOT105', `a ${v instanceof InstanceVar ? 'object' : v.kind} made in translated code refers to itself`);
    this.building.add(v);
    try {
      t = this.make(v);
    } finally {
      this.building.delete(v);
    }
    this.made.set(v, t);
    return t;
  }

  /** Values whose template is being made. */
  private readonly building = new Set<Variable>();

  /** An object made by the traced code, built for real once per run with its simulated __dict__. */
  private instance(v: InstanceVar): Template {
    if (this.handOff) this.realized.add(v);
    const names = [...v.attrs.keys()].map(strT);
    return this.build('object', [this.tpl(v.cls), { k: 'dict', keys: names, values: [...v.attrs.values()].map((x) => this.tpl(x)) }]);
  }

  private build(ctor: string, operands: Template[]): Template {
    return { k: 'build', step: { opname: 'SKIFF_NEW', arg: 0, argval: { k: 'str', v: ctor } }, operands };
  }

  private make(v: Variable): Template {
    const tx = this.tx;
    // Host lists/dicts may change in effects and steps: the child re-reads them after the step.
    if ((v instanceof ListVar || v instanceof DictVar) && v.ref) return { k: 'fresh', inner: tx.containerRef(v) };
    // An entry value is re-read from the entry, unless it is a container the segment may have
    // changed since (lists and dicts without a host object are rebuilt from their items).
    // (an object inside an entry tuple or list is re-read there too: a slot the child does not
    // guard may hold a new object on every run, such as a set or iterator its parent made)
    // (a fresh entry object read from another's attribute is this run's too: fresh_objects.ts)
    const src = unchangeable(v) ? tx.entrySource(v) ?? (v instanceof ObjectVar && v.source && (isLocalSource(v.source) || v instanceof EntryInstanceVar) ? v.source : undefined) : undefined;
    if (src) return { k: 'local', source: src };
    const rec = (x: Variable) => this.tpl(x);
    if (v instanceof ConstVar) return { k: 'const', v: v.value };
    if (v instanceof NamedTupleVar) return this.build('namedtuple', [rec(v.cls), { k: 'tuple', items: v.items.map(rec) }]);
    if (v instanceof InstanceVar) return this.instance(v);
    if (v instanceof TensorVar) {
      // a written entry tensor is the real object (its storage receives the graph's value)
      const written = tx.entryWrites.get(v);
      if (written) return { k: 'local', source: written };
      const inp = tx.graph.inputs.find((i) => i.value === v.sym.id);
      if (inp) {
        if (inp.source.k === 'const') {
          const c: Template = { k: 'const', v: { k: 'tensor', t: tx.constTensorAt(inp.source.i) } };
          // made by the traced code (to_tensor.ts): eager gives a new tensor per call
          return tx.madeConsts.has(inp.source.i) ? this.build('clone', [c]) : c;
        }
        // an ndarray's storage (numpy_values.ts): eager's to_tensor gave a copy
        if (isNumpyDataSource(inp.source)) return this.build('clone', [{ k: 'local', source: inp.source }]);
        return { k: 'local', source: inp.source };
      }
      let i = this.outIndex.get(v.sym);
      if (i === undefined) { i = this.outs.length; this.outs.push(v.sym); this.outIndex.set(v.sym, i); }
      return { k: 'gout', i };
    }
    if ((this.handOff || this.shared.has(v)) && (v instanceof ListVar || v instanceof DictVar || v instanceof SetVar || v instanceof IterVar)) {
      this.realized.add(v);
      if (v instanceof ListVar) return this.build('list', [{ k: 'tuple', items: v.items.map(rec) }]);
      if (v instanceof DictVar) return this.build('dict', [{ k: 'dict', keys: v.keys.map(rec), values: v.values.map(rec) }]);
    }
    if (v instanceof TupleVar) return { k: 'tuple', items: v.items.map(rec) };
    if (v instanceof ListVar) return { k: 'list', items: v.items.map(rec) };
    if (v instanceof DictVar) return { k: 'dict', keys: v.keys.map(rec), values: v.values.map(rec) };
    if (v instanceof ObjectVar) { tx.host.pinForTree(v.ref); return { k: 'const', v: { k: 'obj', ref: v.ref } }; }
    if (v instanceof NullVar) return nullT(tx);
    if (v instanceof BoundMethodVar) return { k: 'attr', obj: rec(v.self), name: v.name };
    if (v instanceof RangeVar) return this.build('range', [v.start, v.stop, v.step].map((n): Template => ({ k: 'const', v: { k: 'int', v: n } })));
    if (v instanceof SliceVar) return this.build('slice', [rec(v.start), rec(v.stop), rec(v.step)]);
    if (v instanceof SetVar) return this.build('set', [{ k: 'tuple', items: v.items.map(rec) }]);
    if (v instanceof IterVar) return this.build('iter', [{ k: 'tuple', items: v.items.slice(v.pos).map(rec) }]);
    if (v instanceof SuperVar) return this.build('super', [rec(v.cls), rec(v.obj)]);
    if (v instanceof DictViewVar) return this.build(v.view, [rec(v.dict)]);
    if (v instanceof CellVar) return this.cell(v);
    if (v instanceof SymIntVar) return symIntTemplate(tx, v, rec);
    if (v instanceof GradModeVar || v instanceof GradMethodVar) {
      const ref = gradModeHostObject(tx, v);
      tx.host.pinForTree(ref);
      return { k: 'const', v: { k: 'obj', ref } };
    }
    if (v instanceof FunctionVar) {
      const code = tx.host.object(v.codeId);
      tx.host.pinForTree(v.globalsRef);
      return {
        k: 'build', step: { opname: 'SKIFF_MAKE_FUNCTION', arg: 0 },
        operands: [
          { k: 'const', v: { k: 'obj', ref: code } }, { k: 'const', v: { k: 'obj', ref: v.globalsRef } }, strT(v.name),
          { k: 'tuple', items: v.defaults.map(rec) }, v.kwdefaults ? rec(v.kwdefaults) : { k: 'const', v: { k: 'none' } },
          { k: 'tuple', items: v.closure.map((c) => this.cell(c)) },
        ],
      };
    }
    // a generator or partial made by the traced code: translated again with it made for real
    if (v instanceof SiteBoundVar) throw new SiteEscape(v.site, `a ${v.kind}`);
    throw new GraphBreak('SOT105', `a ${v.kind} value is live across a graph break`);
  }

  /** The real cell behind a cell variable (made once per run for a simulated one). */
  cell(c: CellVar): Template {
    if (c.ref) { this.tx.host.pinForTree(c.ref); return { k: 'const', v: { k: 'obj', ref: c.ref } }; }
    let t = this.realCells.get(c);
    if (!t) {
      t = this.build('cell', c.contents ? [this.tpl(c.contents)] : []);
      this.realCells.set(c, t);
    }
    return t;
  }
}

/** Builds the child's layout: entry slots (templates) and how frames are rebuilt from them. */
export class LayoutBuilder {
  /** Slot 0 of every child entry: the layer version after the step. */
  readonly resume: Template[] = [{ k: 'result', i: 0 }];
  private readonly slotOf = new Map<Variable, number>();
  private readonly lvOf = new Map<Variable, LayoutValue>();
  private readonly cellKeys = new Map<CellVar, number>();
  private readonly cellOrder: CellVar[] = [];

  /**
   * Objects made by the traced code that are reachable inside other live values (containers,
   * cells, other objects' attributes): those travel as real objects (see make), so that every
   * path to one reaches the same object.
   */
  private readonly nested: Set<Variable>;

  constructor(private readonly tx: Translator, private readonly t: SegmentTemplates) {
    this.nested = nestedInstances(tx);
    // Objects built for real in this run hand their attributes to Python: a list one holds is
    // made for real too (before any other template of it), so a local naming the same list
    // and the object's attribute stay one object in the child.
    t.handOff = true;
    try {
      for (const v of this.nested) if (v instanceof InstanceVar) t.tpl(v);
    } finally {
      t.handOff = false;
    }
  }

  /** A new slot holding `tpl`. */
  slotFor(tpl: Template): number {
    this.resume.push(tpl);
    return this.resume.length - 1;
  }

  private slot(v: Variable): number {
    let i = this.slotOf.get(v);
    if (i === undefined) { i = this.slotFor(this.guarded(v, this.t.tpl(v))); this.slotOf.set(v, i); }
    return i;
  }

  /**
   * A value holding an object made by the traced code becomes a real object in this run: the
   * child must guard the slot (its identity is new on every call), never assume it unguarded.
   */
  private guarded(v: Variable, tpl: Template): Template {
    return holdsInstance(v) ? { k: 'fresh', inner: tpl } : tpl;
  }

  value(v: Variable | undefined): LayoutValue {
    if (v === undefined) return UNBOUND;
    if (v instanceof NullVar) return NULL_SLOT;
    let lv = this.lvOf.get(v);
    if (lv === undefined) { lv = this.make(v); this.lvOf.set(v, lv); }
    return lv;
  }

  private tupleSlot(items: readonly Variable[]): number {
    const tpl: Template = { k: 'tuple', items: items.map((x) => this.t.tpl(x)) };
    return this.slotFor(items.some(holdsInstance) ? { k: 'fresh', inner: tpl } : tpl);
  }

  private make(v: Variable): LayoutValue {
    // Handed to Python in this step: the child re-reads the real object (guarded).
    if (this.t.realized.has(v)) return this.slotFor({ k: 'fresh', inner: this.t.tpl(v) });
    // A set or iterator also reachable inside another live value is made for real there
    // ('build'): this slot holds that same object (not guarded: the parent makes one every run).
    if ((v instanceof SetVar || v instanceof IterVar) && this.nested.has(v)) return this.slot(v);
    if (v instanceof IterVar) return { as: 'iter', slot: this.tupleSlot(v.items.slice(v.pos)) };
    if (v instanceof InstanceVar && !this.nested.has(v) && ![...v.attrs.values()].some(holdsInstance)) {
      // only in frames (not handed to Python, not inside another value): its class and attributes
      return { as: 'instance', slot: this.tupleSlot([v.cls, new TupleVar([...v.attrs.keys()].map((k) => new ConstVar({ k: 'str', v: k }))), new TupleVar([...v.attrs.values()])]) };
    }
    if (v instanceof RangeVar) return { as: 'range', slot: this.tupleSlot([v.start, v.stop, v.step].map((n) => new ConstVar({ k: 'int', v: n }))) };
    if (v instanceof SliceVar) return { as: 'slice', slot: this.tupleSlot([v.start, v.stop, v.step]) };
    if (v instanceof SetVar) return { as: 'set', slot: this.tupleSlot(v.items) };
    if (v instanceof SuperVar) return { as: 'super', slot: this.tupleSlot([v.cls, v.obj]) };
    if (v instanceof DictViewVar) return { as: v.view, slot: this.slot(v.dict) };
    if (v instanceof FunctionVar) {
      const kw: Template = v.kwdefaults ? this.t.tpl(v.kwdefaults) : { k: 'const', v: { k: 'none' } };
      const slot = this.slotFor({ k: 'tuple', items: [{ k: 'tuple', items: v.defaults.map((x) => this.t.tpl(x)) }, kw] });
      return { as: 'function', slot, codeId: v.codeId, name: v.name, globalsId: v.globalsRef.id as number, cells: v.closure.map((c) => this.cellKey(c)) };
    }
    if (v instanceof CellVar) return { cell: this.cellKey(v) };
    return this.slot(v);
  }

  cellKey(c: CellVar): number {
    let k = this.cellKeys.get(c);
    if (k === undefined) { k = this.cellOrder.length; this.cellOrder.push(c); this.cellKeys.set(c, k); }
    return k;
  }

  /**
   * Cell layouts, once every template is made: a cell that is real in this run (a host cell, or
   * one made for an escaping function) is re-read in the child, since Python code may have
   * written it during the step; a simulated one carries its contents.
   */
  cells(): CellLayout[] {
    return this.cellOrder.map((c) => {
      const real = c.ref || this.t.realCells.has(c) ? this.t.cell(c) : null;
      if (real) {
        const contents: Template = { k: 'fresh', inner: { k: 'build', step: { opname: 'SKIFF_CELL_GET', arg: 0 }, operands: [real] } };
        return { host: this.slotFor(real), contents: this.slotFor(contents) };
      }
      return { host: -1, contents: c.contents ? this.slot(c.contents) : -1 };
    });
  }
}

/** Rebuilds the frames of a layout from a node's entry (the child side of LayoutBuilder). */
export function rebuildFrames(tx: Translator, layout: Layout, slotVar: (i: number) => Variable): Frame[] {
  const cells: (CellVar | undefined)[] = [];
  const cellAt = (k: number): CellVar => {
    let c = cells[k];
    if (c) return c;
    const cl = layout.cells[k];
    const contents = cl.contents >= 0 ? slotVar(cl.contents) : null;
    if (cl.host >= 0) {
      const hostCell = slotVar(cl.host);
      if (!(hostCell instanceof ObjectVar)) throw new Error('sot: a real cell slot does not hold an object');
      c = tx.hostCell(hostCell.ref, contents instanceof NullVar ? null : contents);
    } else c = new CellVar(contents);
    cells[k] = c;
    return c;
  };
  const rebuilt = new Map<LayoutValue, Variable | undefined>();
  const items = (slot: number): Variable[] => {
    const t = slotVar(slot);
    return t instanceof TupleVar ? t.items.slice() : [];
  };
  const int = (v: Variable): number => Number((v as ConstVar).value.k === 'int' ? ((v as ConstVar).value as { v: number }).v : NaN);
  const value = (lv: LayoutValue): Variable | undefined => {
    if (rebuilt.has(lv)) return rebuilt.get(lv);
    let v: Variable | undefined;
    if (typeof lv === 'number') v = lv === UNBOUND ? undefined : lv === NULL_SLOT ? NULL : slotVar(lv);
    else if ('cell' in lv) v = cellAt(lv.cell);
    else if (lv.as === 'keys' || lv.as === 'values' || lv.as === 'items') {
      const d = slotVar(lv.slot);
      v = d instanceof DictVar ? new DictViewVar(d, lv.as) : d;
    } else {
      const xs = items(lv.slot);
      switch (lv.as) {
        case 'iter': v = new IterVar(xs); break;
        case 'range': v = new RangeVar(int(xs[0]), int(xs[1]), int(xs[2])); break;
        case 'slice': v = new SliceVar(xs[0], xs[1], xs[2]); break;
        case 'set': v = new SetVar(xs); break;
        case 'super': v = new SuperVar(xs[0], xs[1]); break;
        case 'instance': {
          const names = xs[1] instanceof TupleVar ? xs[1].items : [], vals = xs[2] instanceof TupleVar ? xs[2].items : [];
          if (!(xs[0] instanceof ObjectVar)) throw new Error('sot: an instance layout without its class');
          const str = (n: Variable): string => { const c = (n as ConstVar).value; return c.k === 'str' ? c.v : ''; };
          v = new InstanceVar(xs[0], new Map(names.map((n, i) => [str(n), vals[i]])));
          break;
        }
        case 'function': {
          const defaults = xs[0] instanceof TupleVar ? xs[0].items.slice() : [];
          const kw = xs[1] instanceof DictVar ? xs[1] : null;
          v = new FunctionVar(lv.codeId, lv.name, defaults, kw, lv.cells.map(cellAt), tx.host.objectRef(lv.globalsId));
          break;
        }
      }
    }
    rebuilt.set(lv, v);
    return v;
  };
  return layout.frames.map((fl) => {
    const f = new Frame(tx.host.code(fl.codeId), tx.host.objectRef(fl.globalsId), fl.fnName);
    f.ip = fl.ip;
    f.stack = fl.stack.map((s) => value(s) ?? NULL);
    f.locals = fl.locals.map(value);
    if (fl.excInfo !== undefined) f.excInfo = value(fl.excInfo) ?? null;
    f.closureBound = true;
    return f;
  });
}

export type { HostRef, RtValue, Source };
export { slotSource };

/** Children of a value that the layout carries with it (containers, cells, closures, attributes). */
function parts(v: Variable): readonly (Variable | null | undefined)[] {
  if (v instanceof TupleVar || v instanceof ListVar || v instanceof SetVar || v instanceof IterVar || v instanceof NamedTupleVar) return v.items;
  if (v instanceof DictVar) return [...v.keys, ...v.values];
  if (v instanceof CellVar) return [v.contents];
  if (v instanceof FunctionVar) return [...v.closure, ...v.defaults, v.kwdefaults];
  if (v instanceof BoundMethodVar) return [v.self];
  if (v instanceof SuperVar) return [v.cls, v.obj];
  if (v instanceof DictViewVar) return [v.dict];
  if (v instanceof InstanceVar) return [...v.attrs.values()];
  return [];
}

/** Whether v is, or holds somewhere inside, an object made by the traced code. */
function holdsInstance(v: Variable | null | undefined): boolean {
  const seen = new Set<Variable>();
  const has = (x: Variable | null | undefined): boolean => {
    if (!x || seen.has(x)) return false;
    seen.add(x);
    return x instanceof InstanceVar || parts(x).some(has);
  };
  return has(v);
}

/** Objects, sets and iterators made by the traced code found inside other live values of the frames. */
function nestedInstances(tx: Translator): Set<Variable> {
  const out = new Set<Variable>();
  const seen = new Set<Variable>();
  const inner = (v: Variable | null | undefined): void => {
    if (!v || seen.has(v)) return;
    seen.add(v);
    if (v instanceof InstanceVar || v instanceof SetVar || v instanceof IterVar) out.add(v);
    parts(v).forEach(inner);
  };
  for (const f of tx.frames) {
    for (const v of [...f.stack, ...f.locals, f.excInfo]) if (v) parts(v).forEach(inner);
  }
  return out;
}

/**
 * Lists and dicts made by the traced code (no host object) reached more than once from `roots`
 * (through containers, cells, closures and objects' attributes): each must be one real object.
 */
export function sharedContainers(roots: readonly Variable[]): Set<Variable> {
  const out = new Set<Variable>();
  const seen = new Set<Variable>();
  let budget = 10_000;   // (tuples are walked once per path: a huge DAG of them stops here)
  const visit = (v: Variable | null | undefined): void => {
    if (!v) return;
    const made = (v instanceof ListVar || v instanceof DictVar) && !v.ref;
    // Values that are one object however they are reached are walked once; a tuple is rebuilt
    // per use, so what it holds is reached once per path to it.
    if (made || v instanceof InstanceVar || v instanceof CellVar || v instanceof ListVar || v instanceof DictVar) {
      if (seen.has(v)) { if (made) out.add(v); return; }
      seen.add(v);
    }
    if (--budget < 0) throw new GraphBreak('SOT105', 'a value too large to hand over');
    parts(v).forEach(visit);
  };
  roots.forEach(visit);
  return out;
}
