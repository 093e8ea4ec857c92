// Translates one trace-tree segment: simulates frames from a node's entry until a return or a
// graph break, recording tensor work into a FunctionGraph, collecting guards from sources and
// logging side effects. The result is a TreeNode (see sot/trace_tree.ts).
import { FunctionGraph, SymTensor } from '../../../sot/function_graph.js';
import { BREAKS, type BreakEvent, GraphBreak } from '../../../sot/graph_breaks.js';
import type { EntryShapes } from '../../../sot/dynamic_dims.js';
import { aliasingGuard, constGuard, gradModeGuard, GuardSet, identityGuard, kindGuard, lengthGuard, resolveLocal, soleStorageGuard, tensorGuard, typeGuard, unaliasedWrittenGuard } from '../../../sot/guards.js';
import { isStatic, type Shape } from '../../../src/tensor/shape.js';
import { type ConcreteStep, HostError } from '../../../sot/host.js';
import { constSource, isLocalSource, itemSource, slotSource, type Source } from '../../../sot/sources.js';
import { type Effect, type Template, TreeNode } from '../../../sot/trace_tree.js';
import type { HostRef, RtValue } from '../../../sot/values.js';
import {
  BoundMethodVar, CellVar, ConstVar, DictVar, FunctionVar, IterVar, ListVar, NULL, NullVar, ObjectVar, RangeVar, SetVar,
  SliceVar, SuperVar, TensorVar, TRAIT_EXCEPTION, TupleVar, type Variable,
} from '../../../sot/variables.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import type { CodeInfo } from './code.js';
import type { Instruction } from '../bytecode/decode.js';
import type { Frame } from './frame.js';
import { HANDLERS } from '../handlers/index.js';
import { exitLoop } from '../handlers/jumps.js';
import type { SotPythonHost as PythonHost } from './python_host.js';
import type { VersionTable } from './versions.js';
import { type Layout, LayoutBuilder, type LayoutValue, rebuildFrames, SegmentTemplates, sharedContainers } from './segment.js';
import { stepPops, stepPushes } from './steps.js';
import { unwindLayout } from './unwind.js';
import { outerGradMode } from './grad_mode.js';
import { SiteEscape } from './generators.js';
import { numpyEntryVar } from './numpy_values.js';
import { attrGuardCheck, EntryInstanceVar, finishFresh, freshEntryVar, markEffectEscapes, markEscapes, noteOtherName } from './fresh_objects.js';
import { isGradEnabled } from '../../../src/autograd/mode.js';

export type { FrameLayout, Layout } from './segment.js';

/** Thrown by handlers when the frame returns from its outermost frame. */
export class FrameReturn { constructor(readonly value: Variable) {} }

export interface TranslateOptions {
  minGraphSize: number;
  strict: boolean;
  log: (level: number, msg: string) => void;
  logLevel: number;
}

export class Translator {
  readonly frames: Frame[] = [];
  readonly graph = new FunctionGraph();
  readonly guards = new GuardSet();
  readonly effects: Effect[] = [];
  /** Attribute writes already logged, by object id and name: later reads in this segment see them. */
  readonly attrOverlay = new Map<string, Variable | null>();
  /** Globals written (null: deleted) in this segment, by globals-dict id and name. */
  readonly globalOverlay = new Map<string, Variable | null>();
  /** Constant tensors (parameters, globals) bound into this segment's graph, with their templates. */
  private constInputs = new Map<number, Tensor>();
  /** Variables of entry slots (so templates can point back to the entry instead of copying). */
  private entryVars = new Map<Variable, Source>();
  events: BreakEvent[] = [];
  /** Symbolic entry shapes wanted for this translation (null: every entry tensor is concrete). */
  dynamicShapes: EntryShapes | null = null;
  /** Entry tensors given symbolic shapes, by source key (becomes TreeNode.entryShapes). */
  readonly entryShapes = new Map<string, Shape>();
  /** `paddle.no_grad()` blocks the simulation is inside (frontend grad_mode.ts). */
  gradDepth = 0;
  /** gradDepth at the segment's entry (its graph then runs in the mode outside the blocks). */
  entryGradDepth = 0;
  /** Set when the translation read layer attributes: the node then guards the layer version (slot 0). */
  layerDependent = false;
  /** The real grad mode at the segment's entry (translation runs inside a real call): guarded. */
  readonly entryGradEnabled = isGradEnabled();

  constructor(
    readonly host: PythonHost,
    readonly v: VersionTable,
    readonly opts: TranslateOptions,
    readonly entry: readonly RtValue[],
    /** Entry slots whose values are new since the parent (step results, mutable containers): guarded. */
    private readonly guardSlot: (i: number) => boolean,
    /** Host reads are checked by the node (a translation after a step), not by the wrapper. */
    readonly nodeHostGuards = false,
  ) {}

  get frame(): Frame { return this.frames[this.frames.length - 1]; }
  get code(): CodeInfo { return this.frame.code; }

  // ---- entry ------------------------------------------------------------------------------

  /** Builds the frames of `layout` from entry slots, creating sourced variables and guards. */
  enter(layout: Layout): void {
    const vars = new Map<number, Variable>();
    const slotVar = (i: number): Variable => {
      let v = vars.get(i);
      if (!v) { v = this.fromRt(this.entry[i], slotSource(i), this.guardSlot(i)); vars.set(i, v); this.entryVars.set(v, slotSource(i)); }
      return v;
    };
    const frames = rebuildFrames(this, layout, slotVar);
    for (const f of frames) { this.frames.push(f); this.resumedFrames.add(f); }
    this.gradDepth = this.entryGradDepth = layout.gradDepth ?? 0;
    this.graph.noGrad = this.gradDepth > 0;

    const inner = layout.frames[layout.frames.length - 1];
    if (inner.forIter !== undefined) this.resumeForIter(this.frames[this.frames.length - 1], inner.forIter);
  }

  /** Frames rebuilt from the entry layout (the rest were entered by calls inlined in this segment). */
  private readonly resumedFrames = new WeakSet<Frame>();
  /** The innermost resumed frame still on the stack (BreakEvent.segmentFrom). */
  private segmentFrom(): number {
    for (let i = this.frames.length - 1; i > 0; i--) if (this.resumedFrames.has(this.frames[i])) return i;
    return 0;
  }

  /** Variables of real lists and dicts by object id, and every place one was found (aliasing guard). */
  readonly hostContainers = new Map<number, ListVar | DictVar>();
  /** Variables of entry lists/dicts the parent made (no host object), by entry value. */
  private readonly madeContainers = new Map<RtValue, ListVar | DictVar>();
  private readonly aliasMembers: { source: Source | null; id: number | object }[] = [];

  /** The partition of entry containers into same objects, when more than one was seen. */
  private aliasingGuard(): void {
    const m = this.aliasMembers;
    if (m.length < 2 || !m.some((x) => x.source)) return;
    const groupOf = new Map<number | object, number>();
    const groups = m.map((x) => { let g = groupOf.get(x.id); if (g === undefined) { g = groupOf.size; groupOf.set(x.id, g); } return g; });
    this.guards.add(aliasingGuard(m.map((x) => x.source ?? { id: x.id }), groups));
  }

  /** The variable of a real closure cell (one per cell in a translation, so writes are shared). */
  hostCell(ref: HostRef, contents: Variable | null): CellVar {
    let c = this.hostCells.get(ref.id as number);
    if (!c) { c = new CellVar(contents, null, ref); this.hostCells.set(ref.id as number, c); }
    return c;
  }
  readonly hostCells = new Map<number, CellVar>();

  /** Plain entry instances guarded by their type, by the real object's id (fresh_objects.ts). */
  readonly freshByReal = new Map<number, EntryInstanceVar>();
  /** Values read from their instance dicts, by source (one variable per attribute path). */
  readonly freshReads = new Map<Source, Variable>();

  /** Where an entry variable came from, if it is one. */
  entrySource(v: Variable): Source | undefined { return this.entryVars.get(v); }

  /** After a concrete next() of an opaque iterator: [iter, has, value] on the stack. */
  private resumeForIter(f: Frame, at: number): void {
    const value = f.pop();
    const has = f.pop();
    const ins = f.code.instructions[at];
    if (has instanceof ConstVar && has.value.k === 'bool' && has.value.v) { f.push(value); f.ip = at + 1; return; }
    f.ip = at;
    exitLoop(this, ins);
  }

  /** A variable for a real value found at `source`; guards it when asked. */
  fromRt(v: RtValue, source: Source | null, guard: boolean): Variable {
    const g = guard && source !== null;
    switch (v.k) {
      case 'tensor': {
        if (!source) return this.constTensor(v.t);
        // An entry tensor may have symbolic dims (sot/dynamic_dims.ts): its graph input and guard
        // then carry SymDims; one whose shape a dynamic tree cannot trace back is guarded as is.
        const at = this.dynamicShapes && isLocalSource(source) ? resolveLocal(source, this.entry) : undefined;
        const dyn = at?.k === 'tensor' && at.t === v.t ? this.dynamicShapes : null;
        const shape = dyn ? dyn.propose(source, v.t) : undefined;
        const meta = shape ? { dtype: v.t.dtype, shape, stop_gradient: v.t.stop_gradient } : v.t;
        if (shape && !isStatic(shape)) this.entryShapes.set(source.key, shape);
        if (g || (dyn?.strict && !shape)) this.guards.add(tensorGuard(source, meta));
        return new TensorVar(this.graph.input(source, meta), source);
      }
      case 'int': case 'float': case 'bool': case 'none': case 'str':
        if (g) this.guards.add(constGuard(source!, v));
        return new ConstVar(v, source);
      case 'tuple':
        if (g) { this.guards.add(kindGuard(source!, 'tuple')); this.guards.add(lengthGuard(source!, v.items.length)); }
        return new TupleVar(v.items.map((x, i) => this.fromRt(x, source ? itemSource(source, { k: 'int', v: i }) : null, guard)), source);
      case 'list': case 'dict': {
        // One variable per real list/dict: a mutation through one name is seen through every other.
        // A list/dict the parent made (no host object) reached through two slots is one value of
        // the entry too (trace_tree.ts evalTemplate): one variable, and the partition is guarded
        // (a node shared from another parent may see other sharing).
        const seen = v.ref ? this.hostContainers.get(v.ref.id as number) : this.madeContainers.get(v);
        if (v.ref) this.aliasMembers.push({ source: source && isLocalSource(source) ? source : null, id: v.ref.id });
        else if (source && isLocalSource(source)) this.aliasMembers.push({ source, id: v });
        if (seen) return seen;
        let c: ListVar | DictVar;
        if (v.k === 'list') {
          if (g) { this.guards.add(kindGuard(source!, 'list')); this.guards.add(lengthGuard(source!, v.items.length)); }
          c = new ListVar([], source, v.ref ?? null);
          if (v.ref) this.hostContainers.set(v.ref.id as number, c); else this.madeContainers.set(v, c);
          c.items = v.items.map((x, i) => this.fromRt(x, source ? itemSource(source, { k: 'int', v: i }) : null, guard));
        } else {
          if (g) { this.guards.add(kindGuard(source!, 'dict')); this.guards.add(lengthGuard(source!, v.keys.length)); }
          const d = new DictVar([], [], source, v.ref ?? null);
          if (v.ref) this.hostContainers.set(v.ref.id as number, d); else this.madeContainers.set(v, d);
          d.keys = v.keys.map((k) => this.fromRt(k, null, false));
          d.values = v.values.map((x, i) => this.fromRt(x, source ? itemSource(source, v.keys[i]) : null, guard));
          c = d;
        }
        return c;
      }
      case 'obj': {
        if (v.ref.id === 0) { if (g) this.guards.add(identityGuard(source!, 0, 'NULL')); return NULL; }
        const np = v.np ? numpyEntryVar(this, v, source, g) : null;   // guarded by dtype and value/shape
        if (np) return np;
        // (an unguarded slot of a child holds the parent's entry object: read it the same way)
        if (source && (g || source.k === 'slot')) {
          // a plain instance new on every call: its type and what is read of it (fresh_objects.ts)
          const fresh = freshEntryVar(this, v.ref, source);
          if (fresh) return fresh;
        } else noteOtherName(this, v.ref);
        if (g) {
          const info = this.host.describe(v.ref);
          // An exception is new on every call: its type is what the code after it may depend on.
          if (info.kind === 'other' && (info.traits & TRAIT_EXCEPTION)) this.guards.add(typeGuard(source!, v.ref.typeId!, v.ref.typeName));
          else { this.guards.add(identityGuard(source!, v.ref.id, v.ref.typeName)); this.host.pinForTree(v.ref); }
        }
        return this.objectVar(v.ref, source);
      }
    }
  }

  objectVar(ref: HostRef, source: Source | null): ObjectVar {
    noteOtherName(this, ref);
    return new ObjectVar(ref, this.host.describe(ref), source);
  }

  constTensorAt(i: number): Tensor { return this.constInputs.get(i)!; }

  /** Constant inputs made by the traced code (to_tensor.ts): a copy per run stands for them outside the graph. */
  readonly madeConsts = new Set<number>();
  /** A tensor the traced code creates from constants, bound as a constant of the graph. */
  madeConstTensor(t: Tensor): TensorVar {
    const v = this.constTensor(t);
    const i = this.boundTensorOf(v);
    if (i !== null) this.madeConsts.add(i);
    return v;
  }

  /** A real tensor (parameter, global, step-made constant) used inside the graph. */
  constTensor(t: Tensor): TensorVar {
    for (const [i, v] of this.constInputs) if (v === t) return new TensorVar(this.constWrites.get(i) ?? this.graph.input(constSource(i), t), null);
    const i = this.constInputs.size;
    this.constInputs.set(i, t);
    return new TensorVar(this.graph.input(constSource(i), t), null);
  }

  // ---- simulation -------------------------------------------------------------------------

  /** Runs until the outermost frame returns or a break ends the segment; returns the node. */
  run(): TreeNode {
    let steps = 0;
    for (;;) {
      const f = this.frame;
      const ins = f.code.instructions[f.ip];
      if (!ins) throw new Error(`sot: fell off the end of ${f.code.name}`);
      if (this.opts.logLevel >= 3) this.opts.log(3, `  [${f.code.name}:${ins.line}] ${ins.index}: ${ins.opname} ${ins.arg} | stack ${f.stack.map(showVar).join(', ')}`);
      const handler = HANDLERS[ins.opname];
      if (!handler) throw new GraphBreak('SOT101', `opcode ${ins.opname}`);
      const stackBefore = f.stack.slice();
      const localsBefore = f.locals.slice();
      const kwNamesBefore = f.kwNames;
      const nframes = this.frames.length;
      const graphMark = this.graph.nodes.length;
      const effectMark = this.effects.length;
      const rebindMark = this.rebinds.length;
      const gradDepth = this.gradDepth;
      try {
        f.ip++;
        const r = handler(this, ins);
        if (r instanceof FrameReturn) return this.finish({ k: 'return', value: r.value });
      } catch (err) {
        let e = err;
        if (e instanceof StrictModeError || e instanceof SiteEscape) throw e;
        if (e instanceof HostError) {
          // Python raised while the translator evaluated something: the instruction runs
          // concretely instead and raises there, with the user's line.
          e = new GraphBreak('SOT007', `${e.pyType}: ${e.message}`);
        } else if (!(e instanceof GraphBreak)) {
          // A translator bug must not change results: the instruction runs concretely.
          // (the stack is only formatted when logging: formatting it is costly, with source maps even more)
          if (this.opts.logLevel >= 1) this.opts.log(1, `sot: internal error at ${f.code.name}:${ins.line} ${ins.opname}: ${(e as Error).stack ?? e}`);
          e = new GraphBreak('SOT007', `internal: ${(e as Error).message ?? e}`);
        }
        const gb = e as GraphBreak;
        if (BREAKS.get(gb.code)!.effect === 'fallback') throw gb;
        // Roll back to just before the instruction; inlined frames pushed by it are dropped.
        this.frames.length = nframes;
        f.ip = ins.index;
        f.stack = stackBefore;
        f.locals = localsBefore;
        f.kwNames = kwNamesBefore;
        if (!gb.then) this.graph.nodes.length = graphMark;   // (`then` keeps the instruction's graph work)
        this.effects.length = effectMark;
        this.undoRebinds(rebindMark);
        this.gradDepth = gradDepth;
        this.graph.noGrad = gradDepth > 0;
        return this.breakAt(gb, ins.opname, ins.arg, err instanceof HostError);
      }
      if (++steps > 200_000) throw new GraphBreak('SOT103', 'segment too long (unbounded loop?)');
    }
  }

  /** Pops a returning inlined frame, pushing its value on the caller; the outermost returns. */
  returnValue(v: Variable): FrameReturn | undefined {
    this.frames.pop();
    if (this.frames.length === 0) return new FrameReturn(v);
    this.frame.push(v);
    return undefined;
  }

  /** Tensors bound into the graph as constants so far (parameters, global tensors). */
  boundConstants(): Tensor[] { return [...this.constInputs.values()]; }

  /** Entry tensors written by functionalized inplace ops (frontend inplace.ts), with their sources. */
  readonly entryWrites = new Map<TensorVar, Source>();
  /**
   * Bound tensors (layer buffers: batch norm's running statistics) written in place: const input
   * index -> the value they hold now. Later reads in this segment see it; the write reaches the
   * real tensor after the graph, and the node guards that no entry tensor aliases them.
   */
  private readonly constWrites = new Map<number, TensorVar['sym']>();
  /** Rebinds of tensor variables, undone when the instruction that made them rolls back. */
  readonly rebinds: [TensorVar, TensorVar['sym'], boolean, number, TensorVar['sym'] | undefined][] = [];

  /** The bound tensor t reads, if t currently holds one (a const input of the graph or its written value). */
  boundTensorOf(t: TensorVar): number | null {
    for (const [i, sym] of this.constWrites) if (sym === t.sym) return i;
    const inp = this.graph.inputs.find((x) => x.value === t.sym.id);
    return inp && inp.source.k === 'const' ? inp.source.i : null;
  }

  /** t now holds `value`; an entry or bound tensor is written back after the graph (and guarded against aliases). */
  rebindTensor(t: TensorVar, value: TensorVar): void {
    // A tensor read from an attribute of a per-call object (fresh_objects.ts) is not among the
    // entry tensors the sole_storage guard sees: its in-place write runs concretely.
    if (t.source && !isLocalSource(t.source)) throw new GraphBreak('SOT007', `in-place write to ${t.source.key}`);
    const c = t.source ? null : this.boundTensorOf(t);
    this.rebinds.push([t, t.sym, this.entryWrites.has(t), c ?? -1, c === null ? undefined : this.constWrites.get(c)]);
    t.sym = value.sym;
    if (t.source) {
      this.entryWrites.set(t, t.source);
      this.logEffect('SKIFF_TENSOR_WRITE', [t, value]);
    } else if (c !== null) {
      this.constWrites.set(c, value.sym);
      this.effects.push({ step: { opname: 'SKIFF_TENSOR_WRITE', arg: 0 }, operands: [{ k: 'const', v: { k: 'tensor', t: this.constInputs.get(c)! } } as Template, varTemplate(value)] });
    }
  }

  private undoRebinds(mark: number): void {
    while (this.rebinds.length > mark) {
      const [t, sym, wasWritten, c, prevConst] = this.rebinds.pop()!;
      t.sym = sym;
      if (!wasWritten) this.entryWrites.delete(t);
      if (c >= 0) { if (prevConst === undefined) this.constWrites.delete(c); else this.constWrites.set(c, prevConst); }
    }
  }

  /** Bound tensors written in place so far. */
  writtenConstants(): Tensor[] { return [...this.constWrites.keys()].map((i) => this.constInputs.get(i)!); }

  /** Logs a side effect (a concrete step on real objects) replayed after the graph runs. */
  logEffect(opname: string, operands: Variable[]): void {
    this.effects.push({ step: { opname, arg: 0 }, operands: operands.map(varTemplate) });
  }

  pushFrame(f: Frame): void {
    if (this.frames.length > 64) throw new GraphBreak('SOT006', 'inlining depth limit reached');
    this.frames.push(f);
  }

  // ---- ending the segment -----------------------------------------------------------------

  /**
   * A break at the current instruction of the innermost frame: its operands become the step's
   * operands, every other live value becomes an entry slot of the child. A break that says the
   * user's code raises here (e.g. an unbound local) becomes a step raising that exception.
   */
  private breakAt(e: GraphBreak, opname: string, arg: number, pyRaised = false): TreeNode {
    const f = this.frame;
    const ins = f.code.instructions[f.ip];
    const npop = stepPops(ins, this.v, e.raise !== undefined);
    if (npop === null) throw new GraphBreak('SOT105', `no concrete step for ${ins.opname} (${e.code}: ${e.detail})`);
    const operandVars = e.then ? e.then.operands.slice() : f.stack.slice(f.stack.length - npop);
    const event: BreakEvent = {
      code: e.code, file: f.code.wire.filename, line: ins.line,
      sourceLine: this.host.sourceLine(f.code.wire.filename, ins.line), detail: e.detail,
      frames: this.frames.map((fr) => ({ file: fr.code.wire.filename, line: fr.code.instructions[Math.min(fr.ip, fr.code.instructions.length - 1)]?.line ?? -1, name: fr.code.name })),
      segmentFrom: this.segmentFrom(),
    };
    this.events.push(event);
    // psdb.check_no_breakgraph: a break in a marked frame is refused. The user's own exceptions
    // (Python raised evaluating the instruction, a raise statement) are not graph breaks there.
    // As in Paddle, a branch on a tensor is refused only when it leaves a marked frame through
    // a call: the innermost frame's own truth-test break (an `if`/`assert` on a tensor) passes.
    if (!pyRaised && !e.pyRaises && !e.raise && e.code !== 'SOT012') {
      const own = isBranchBreak(e, f.code.instructions, f.ip) ? this.frames.length - 1 : this.frames.length;
      const marked = this.frames.slice(0, own).find((fr) => (this.host.psdbFlags(fr.code.wire.id) & PSDB_NO_BREAKGRAPH) !== 0);
      if (marked) throw new PsdbCheckError(`${marked.code.name} should not break the graph, but got ${e.code} (${e.detail}) at ${event.file}:${event.line}`);
    }
    if (this.opts.strict) throw new StrictModeError(event);
    this.opts.log(1, `sot: graph break ${e.code} at ${event.file}:${event.line}: ${e.detail}`);
    let stepName = opname;
    let resumeIp = ins.index + 1;
    let forIter: number | undefined;
    let iterResult = false;
    let argval = this.host.argval(f, ins);
    if (e.raise) { stepName = 'SKIFF_RAISE'; argval = { k: 'tuple', items: [{ k: 'str', v: e.raise.type }, { k: 'str', v: e.raise.message }] }; }
    else if (e.then) { stepName = e.then.opname; argval = undefined; }
    else if (opname.startsWith('POP_JUMP_IF')) { stepName = 'TO_BOOL'; resumeIp = ins.index; }
    else if (opname === 'GET_ITER') { if (operandVars[0] instanceof TensorVar) iterResult = true; else stepName = 'SKIFF_ITER'; }
    else if (opname === 'FOR_ITER') { stepName = 'SKIFF_FOR_ITER'; forIter = ins.index; resumeIp = ins.index; }
    const step: ConcreteStep = { opname: stepName, arg, argval };
    const nres = stepPushes(step, opname, this.v);
    return this.finish({ k: 'step', step, operandVars, npop, nres, event, resumeIp, forIter, iterResult });
  }

  private finish(exit: { k: 'return'; value: Variable } | {
    k: 'step'; step: ConcreteStep; operandVars: Variable[]; npop: number; nres: number; event: BreakEvent; resumeIp: number; forIter?: number; iterResult: boolean;
  }): TreeNode {
    const T = new SegmentTemplates(this);
    const tpl = (v: Variable): Template => T.tpl(v);
    // Fresh entry objects handed to Python keep their identity guard (fresh_objects.ts).
    if (this.freshByReal.size) {
      markEffectEscapes(this.effects, (o) => (isVarTemplate(o) ? (o as unknown as VarTemplate).v : null));
      if (exit.k === 'return') markEscapes(exit.value); else for (const v of exit.operandVars) markEscapes(v);
      for (const c of this.mutated) markEscapes(c);
    }

    // Effects in program order, then host lists/dicts whose contents changed get them replaced.
    // Values they and the step's operands hand to Python are made for real (T.handOff).
    T.handOff = true;
    const effects: Effect[] = this.effects.map((e) => ({ step: e.step, operands: e.operands.map((o) => (isVarTemplate(o) ? tpl((o as unknown as VarTemplate).v) : o)) }));
    for (const c of this.mutated) {
      const target: Template = this.containerRef(c);
      if (c instanceof ListVar) effects.push({ step: { opname: 'SKIFF_LIST_REPLACE', arg: 0 }, operands: [target, { k: 'list', items: c.items.map(tpl) }] });
      else effects.push({ step: { opname: 'SKIFF_DICT_REPLACE', arg: 0 }, operands: [target, { k: 'dict', keys: c.keys.map(tpl), values: c.values.map(tpl) }] });
    }
    const operands = exit.k === 'step' ? exit.operandVars.map(tpl) : [];
    T.handOff = false;

    let nodeExit: TreeNode['exit'];
    if (exit.k === 'return') {
      // `return a, a`: eager returns one list twice
      T.shared = sharedContainers([exit.value]);
      nodeExit = { k: 'return', value: tpl(exit.value) };
    } else {
      // Child layout: every frame; the innermost frame's stack without the operands, plus the
      // values the step pushes (appended as result slots).
      const L = new LayoutBuilder(this, T);
      const frames = this.frames.map((fr, fi) => {
        const inner = fi === this.frames.length - 1;
        const stack: LayoutValue[] = (inner ? fr.stack.slice(0, fr.stack.length - exit.npop) : fr.stack).map((v) => L.value(v));
        const locals = fr.locals.map((l) => L.value(l));
        if (inner) {
          // Step results come after the layer version (result 0): results 1..n are pushed.
          for (let r = 1; r <= exit.nres; r++) {
            const slot = L.slotFor({ k: 'result', i: r });
            stack.push(exit.iterResult ? { as: 'iter', slot } : slot);
          }
        }
        const excInfo = fr.excInfo ? L.value(fr.excInfo) : undefined;
        return { codeId: fr.code.id, globalsId: fr.globals.id as number, fnName: fr.fnName, ip: inner ? exit.resumeIp : fr.ip, stack, locals, forIter: inner ? exit.forIter : undefined, excInfo };
      });
      const layout: Layout = { frames, cells: L.cells(), gradDepth: this.gradDepth };
      // Where the step's exception goes if a simulated frame's handler catches it.
      const unwind = unwindLayout(this, T, this.frame.ip) ?? undefined;
      nodeExit = { k: 'step', step: exit.step, operands, resume: L.resume, layout, event: exit.event, unwind };
    }

    // Graph: outputs are the tensors the exit needs; inputs from entry slots or constants.
    const outs = T.outs;
    let graph = null;
    let graphInputs: Template[] = [];
    if (outs.length || this.graph.nodes.some((n) => n.def.random)) {
      const compiled = this.graph.compile(outs);
      graph = compiled;
      graphInputs = compiled.inputs.map((inp) => {
        if (inp.source.k === 'const') return { k: 'const', v: { k: 'tensor', t: this.constInputs.get(inp.source.i)! } } as Template;
        return { k: 'local', source: inp.source } as Template;
      });
      if (compiled.opCount < this.opts.minGraphSize) {
        compiled.opByOp = true;
        this.opts.log(1, `sot: subgraph of ${compiled.opCount} ops (< MIN_GRAPH_SIZE ${this.opts.minGraphSize}) runs op by op`);
      }
      this.opts.log(1, `sot: graph with ${compiled.opCount} ops, ${compiled.inputs.length} inputs, ${outs.length} outputs`);
      if (this.opts.logLevel >= 2) this.opts.log(2, compiled.describe());
    }
    if (this.layerDependent) this.guards.add(constGuard(slotSource(0), this.entry[0]));
    this.guards.add(gradModeGuard(slotSource(0), this.entryGradEnabled));
    this.aliasingGuard();
    // A written entry tensor must be alone in its storage on every call (then the write-back
    // changes exactly what eager's inplace op changes).
    for (const src of new Set(this.entryWrites.values())) this.guards.add(soleStorageGuard(src, [...this.constInputs.values()]));
    if (this.constWrites.size) this.guards.add(unaliasedWrittenGuard(slotSource(0), this.writtenConstants()));
    finishFresh(this);
    const node = new TreeNode(this.guards, graph, graphInputs, effects, nodeExit, bothChecks(attrGuardCheck(this, this.guards), this.host.hostCheckFor(this)));
    if (graph && this.entryGradDepth > 0) node.graphMode = outerGradMode(this);
    return node;
  }

  /** The real container behind a variable: this call's object (via its source) or a fixed one. */
  containerRef(c: ListVar | DictVar): Template {
    const src = this.entryVars.get(c) ?? c.source;
    if (src && (src.k === 'slot' || src.k === 'item')) return { k: 'local', source: src };
    return { k: 'const', v: { k: 'obj', ref: c.ref! } };
  }

  /** Host lists/dicts (they have a ref) whose contents changed in this segment. */
  readonly mutated = new Set<ListVar | DictVar>();
}

/** A break on the truth of a tensor that decides a jump: at the jump, or at the TO_BOOL /
 * bool-converting COMPARE_OP (3.13+) right before it. */
function isBranchBreak(e: GraphBreak, code: readonly Instruction[], ip: number): boolean {
  if (e.code !== 'SOT001') return false;
  const jumpAt = (i: number): boolean => code[i]?.opname === 'POP_JUMP_IF_TRUE' || code[i]?.opname === 'POP_JUMP_IF_FALSE';
  const op = code[ip]?.opname;
  return jumpAt(ip) || ((op === 'TO_BOOL' || op === 'COMPARE_OP') && jumpAt(ip + 1));
}

/** A node's host-side check: both must hold (either may be absent). */
function bothChecks(a: ((entry: readonly RtValue[]) => boolean) | null, b: ((entry: readonly RtValue[]) => boolean) | null): ((entry: readonly RtValue[]) => boolean) | null {
  if (!a || !b) return a ?? b;
  return (entry) => a(entry) && b(entry);
}

/** psdb marks (paddle.jit.sot.psdb.code_flags). */
export const PSDB_NO_BREAKGRAPH = 1;
export const PSDB_NO_FALLBACK = 2;

/** A paddle.jit.sot.psdb check failed: the call raises InnerError. */
export class PsdbCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PsdbCheckError';
  }
}

export class StrictModeError extends Error {
  constructor(readonly event: BreakEvent) {
    super(`STRICT_MODE: graph break ${event.code} (${BREAKS.get(event.code)!.meaning}) at ${event.file}:${event.line}: ${event.detail}`);
    this.name = 'StrictModeError';
  }
}

/** An effect operand that still refers to a variable (resolved to a template at finish). */
export interface VarTemplate { readonly k: 'var'; readonly v: Variable }
const isVarTemplate = (t: unknown): t is VarTemplate => (t as VarTemplate).k === 'var';
export const varTemplate = (v: Variable): Template => ({ k: 'var', v } as unknown as Template);

export function showVar(v: Variable): string {
  if (v instanceof ConstVar) return JSON.stringify((v.value as { v?: unknown }).v ?? null);
  if (v instanceof TensorVar) return `T${v.sym.id}`;
  if (v instanceof ObjectVar) return `<${v.ref.typeName}>`;
  return v.kind;
}

export { BoundMethodVar, CellVar, ConstVar, DictVar, FunctionVar, IterVar, ListVar, NULL, NullVar, ObjectVar, RangeVar, SetVar, SliceVar, SuperVar, TensorVar, TupleVar };
