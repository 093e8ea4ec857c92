// Control-flow capture (Paddle's CallLayer idea on bytecode): a conditional jump on a tensor
// value inside code that asks for it (`@paddle.jit.marker.capture_control_flow`, or a sublayer's
// forward called from translated code) becomes an `if` node of the graph instead of a break.
//
// At the jump, the merge point is the jump's immediate post-dominator in the code's CFG
// (cfg.ts). Each side is simulated from a copy of the frame state until it reaches the merge
// point (or returns from the frame), recording its tensor work into a region; values that differ
// between the sides are merged: tensors become the if node's outputs (same dtype, shape and
// stop_gradient required), everything else must be the very same Python value. A side that
// returns while the other reaches the merge point is continued until it returns too, so an early
// return is a yielded return value. Whatever cannot be captured exactly — a variable bound on
// one side only and read later, a side effect, a break inside a side — raises a refusal code
// (graph_breaks.ts SOT013-SOT016) at the jump, which then breaks as SOT001 always did.
import { runOp } from '../../../src/ops/dispatch.js';
import { type Tensor, untracked } from '../../../src/tensor/tensor.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ifNode } from '../../../sot/control_flow_graph.js';
import type { GraphNode, SymTensor } from '../../../sot/function_graph.js';
import { HostError } from '../../../sot/host.js';
import { isStatic, shapeStr } from '../../../src/tensor/shape.js';
import {
  BoundMethodVar, CellVar, ConstVar, DictVar, IterVar, ListVar, ObjectVar, SetVar, TensorVar, TupleVar, type Variable,
} from '../../../sot/variables.js';
import type { Instruction } from '../bytecode/decode.js';
import { HANDLERS } from '../handlers/index.js';
import { codeFlow } from './cfg.js';
import { captureLoop, enclosingLoop } from './capture_loop.js';
import type { Frame } from './frame.js';
import { recordOp } from './semantics.js';
import { InstanceVar } from './user_objects.js';
import { GeneratorVar } from './generators.js';
import { FrameReturn, type Translator } from './translator.js';

const JUMPS_ON_VALUE = new Set(['POP_JUMP_IF_TRUE', 'POP_JUMP_IF_FALSE']);
const RETURNS = new Set(['RETURN_VALUE', 'RETURN_CONST']);
/** Instructions simulated per side at most (a side is straight-line code plus Python loops). */
const SIDE_STEPS = 50_000;

/** A captured branch inside a side being simulated at the same depth returned: that side returns. */
class SideReturn { constructor(readonly value: Variable) {} }
/** Depths of the frames whose sides are being simulated (innermost last). */
const activeSides: number[] = [];

export const refuse = (code: 'SOT013' | 'SOT014' | 'SOT015' | 'SOT016', detail: string): GraphBreak => new GraphBreak(code, detail);

/** Whether frame `i` of the translator asks for capture: marked code, or a sublayer's forward. */
function frameWants(tx: Translator, i: number): boolean {
  const f = tx.frames[i];
  if (f.code.wire.captureCf) return true;
  const self = f.locals[0];
  return i > 0 && f.code.name === 'forward' && self instanceof ObjectVar && self.info.kind === 'layer';
}

/** Tensor branches in the current frame are captured (a marked or auto frame, or one it called). */
export function captureEnabled(tx: Translator): boolean {
  for (let i = tx.frames.length - 1; i >= 0; i--) if (frameWants(tx, i)) return true;
  return false;
}

/** The instruction after the current one is a jump on the value it pushes (so a tensor may stay). */
export function nextIsValueJump(tx: Translator): boolean {
  const next = tx.code.instructions[tx.frame.ip];
  return next !== undefined && JUMPS_ON_VALUE.has(next.opname);
}

/** The one-element bool condition (shape []) the if op branches on: bool(t) is t != 0. */
export function condition(tx: Translator, t: TensorVar, negate = false): SymTensor {
  const s = t.sym;
  if (!isStatic(s.shape) || s.shape.reduce((a, b) => a * b, 1) !== 1)
    throw refuse('SOT016', `condition tensor of shape ${shapeStr(s.shape)} is not one element`);
  let c: SymTensor = s;
  if (c.dtype !== 'bool') c = recordOp(tx, 'cast', [c], { dtype: 'bool' })[0] as SymTensor;
  if (c.shape.length !== 0) c = recordOp(tx, 'reshape', [c], { shape: [] })[0] as SymTensor;
  if (negate) c = recordOp(tx, 'logical_not', [c])[0] as SymTensor;
  return c;
}

// ---- side effects ----------------------------------------------------------------------------

/**
 * Everything a side could change in place (containers, iterators, cells, tensors, host
 * containers and overlays), to tell that it did not, and to put it back when a side fails.
 */
class Snapshot {
  private readonly entries: [Variable, unknown[]][] = [];
  private readonly marks: number[];
  private readonly overlays: [string, Variable | null][][];
  private readonly mutated: Set<ListVar | DictVar>;
  private readonly hostKeys: Set<number>;

  constructor(private readonly tx: Translator) {
    const seen = new Set<Variable>();
    const visit = (v: Variable | null | undefined): void => {
      if (!v || seen.has(v)) return;
      seen.add(v);
      this.entries.push([v, current(v)]);
      if (v instanceof ListVar || v instanceof SetVar || v instanceof TupleVar || v instanceof IterVar) v.items.forEach(visit);
      else if (v instanceof DictVar) v.values.forEach(visit);
      else if (v instanceof CellVar) visit(v.contents);
      else if (v instanceof BoundMethodVar) visit(v.self);
      else if (v instanceof InstanceVar) v.attrs.forEach(visit);
    };
    for (const f of tx.frames) { f.stack.forEach(visit); f.locals.forEach(visit); }
    for (const c of tx.hostContainers.values()) visit(c);
    for (const c of tx.hostCells.values()) visit(c);
    this.marks = [tx.effects.length, tx.rebinds.length];
    this.overlays = [[...tx.attrOverlay], [...tx.globalOverlay]];
    this.mutated = new Set(tx.mutated);
    this.hostKeys = new Set(tx.hostContainers.keys());
  }

  /** What changed, or null. */
  changed(): string | null {
    const tx = this.tx;
    if (tx.effects.length !== this.marks[0]) return `a side effect (${tx.effects[this.marks[0]]?.step.opname ?? 'write'})`;
    if (tx.mutated.size !== this.mutated.size) return 'a write to a list or dict from outside';
    if (tx.rebinds.length !== this.marks[1]) return 'an inplace write to a tensor';
    const now = [[...tx.attrOverlay], [...tx.globalOverlay]];
    if (now.some((o, k) => o.length !== this.overlays[k].length || o.some(([key, v], i) => this.overlays[k][i][0] !== key || this.overlays[k][i][1] !== v))) return 'an attribute or global write';
    for (const [v, was] of this.entries) {
      const cur = current(v);
      if (cur.length !== was.length || cur.some((x, i) => x !== was[i])) return `a change of a ${v.kind} that lives outside the branch`;
    }
    return null;
  }

  /** Puts back what a failed side changed (the translator's rollback undoes effects and tensor rebinds). */
  restore(): void {
    const tx = this.tx;
    for (const [v, was] of this.entries) {
      if (v instanceof ListVar || v instanceof SetVar) { const a = was[0] as Variable[]; a.length = 0; a.push(...(was.slice(1) as Variable[])); v.items = a; }
      else if (v instanceof DictVar) {
        const n = (was.length - 2) / 2;
        const ks = was[0] as Variable[], vs = was[1] as Variable[];
        ks.length = 0; ks.push(...(was.slice(2, 2 + n) as Variable[]));
        vs.length = 0; vs.push(...(was.slice(2 + n) as Variable[]));
        v.keys = ks; v.values = vs;
      } else if (v instanceof IterVar) v.pos = was[0] as number;
      else if (v instanceof CellVar) v.contents = was[0] as Variable | null;
      else if (v instanceof InstanceVar) { v.attrs.clear(); for (let i = 1; i < was.length; i += 2) v.attrs.set(was[i] as string, was[i + 1] as Variable); }
    }
    for (const c of [...tx.mutated]) if (!this.mutated.has(c)) tx.mutated.delete(c);
    for (const k of [...tx.hostContainers.keys()]) if (!this.hostKeys.has(k)) tx.hostContainers.delete(k);
    [tx.attrOverlay, tx.globalOverlay].forEach((m, k) => { m.clear(); for (const [key, v] of this.overlays[k]) m.set(key, v); });
  }
}

function current(v: Variable): unknown[] {
  if (v instanceof ListVar || v instanceof SetVar) return [v.items, ...v.items];
  if (v instanceof TupleVar) return [];
  if (v instanceof DictVar) return [v.keys, v.values, ...v.keys, ...v.values];
  if (v instanceof IterVar) return [v.pos];
  if (v instanceof CellVar) return [v.contents];
  if (v instanceof TensorVar) return [v.sym];
  if (v instanceof GeneratorVar) return [v.state, v.frame.ip];  // resumed in a side: refused (not restorable)
  if (v instanceof InstanceVar) return [v.attrs, ...[...v.attrs].flat()];
  return [];
}

// ---- simulating one side ---------------------------------------------------------------------

export interface FrameState { stack: Variable[]; locals: (Variable | undefined)[]; kwNames: string[] | null }

export interface SideEnd {
  readonly returned: boolean;
  readonly stack: Variable[];
  readonly locals: (Variable | undefined)[];
  /** The returned value (returned sides). */
  readonly ret: Variable | null;
  readonly nodes: GraphNode[];
}

/**
 * Simulates from `start` in frame `f` (at depth `depth`) until it reaches `merge` (null: only a
 * return ends it) or returns; the graph work it recorded is taken out of the graph.
 */
export function simulateSide(
  tx: Translator, f: Frame, depth: number, base: FrameState, start: number, merge: number | null | ReadonlySet<number>, avoid: number | null = null,
  /** Runs first, its graph work part of the side (a for loop's step of its counter). */
  prologue?: () => void,
  /** Reaching `avoid` ends the side as if at the loop test with this (exit) condition: a `break`. */
  breakCond: Variable | null = null,
): SideEnd {
  tx.frames.length = depth;
  f.ip = start;
  f.stack = base.stack.slice();
  f.locals = base.locals.slice();
  f.kwNames = base.kwNames;
  const mark = tx.graph.nodes.length;
  const snap = new Snapshot(tx);
  let end: SideEnd | null = null;
  activeSides.push(depth);
  try {
    prologue?.();
    for (let steps = 0; ; steps++) {
      if (steps > SIDE_STEPS) throw refuse('SOT016', 'a side runs too long');
      if (tx.frames.length === depth && (merge instanceof Set ? merge.has(f.ip) : f.ip === merge)) { end = { returned: false, stack: f.stack.slice(), locals: f.locals.slice(), ret: null, nodes: [] }; break; }
      if (tx.frames.length === depth && f.ip === avoid) {
        if (!breakCond) throw refuse('SOT016', 'a break out of a loop conditioned on a tensor');
        end = { returned: false, stack: [...f.stack, breakCond], locals: f.locals.slice(), ret: null, nodes: [] };
        break;
      }
      const cur = tx.frame;
      const ins = cur.code.instructions[cur.ip];
      if (!ins) throw refuse('SOT016', `fell off the end of ${cur.code.name}`);
      if (tx.frames.length === depth && RETURNS.has(ins.opname)) {
        const ret = ins.opname === 'RETURN_VALUE' ? f.peek() : returnConst(tx, ins);
        end = { returned: true, stack: [], locals: f.locals.slice(), ret, nodes: [] };
        break;
      }
      const handler = HANDLERS[ins.opname];
      if (!handler) throw refuse('SOT016', `opcode ${ins.opname}`);
      cur.ip++;
      const r = handler(tx, ins);
      if (r instanceof FrameReturn || tx.frames.length < depth) throw refuse('SOT016', 'the frame was left unexpectedly');
    }
  } catch (e) {
    if (e instanceof SideReturn) {
      end = { returned: true, stack: [], locals: f.locals.slice(), ret: e.value, nodes: [] };
    } else {
      tx.graph.nodes.length = mark;
      snap.restore();
      throw sideFailure(e);
    }
  } finally {
    activeSides.pop();
  }
  const changed = snap.changed();
  const nodes = tx.graph.nodes.splice(mark);
  if (changed) { snap.restore(); throw refuse('SOT015', changed); }
  if (nodes.some((n) => n.def.random)) throw refuse('SOT016', 'a random op inside the branch');
  return { ...end, nodes };
}

/** The refusal a failure inside a side becomes (refusals of inner branches pass through). */
function sideFailure(e: unknown): GraphBreak {
  if (e instanceof GraphBreak) {
    if (['SOT013', 'SOT014', 'SOT015', 'SOT016'].includes(e.code)) return e;
    return refuse(e.code === 'SOT004' ? 'SOT015' : 'SOT016', `${e.code} inside the branch: ${e.detail}`);
  }
  if (e instanceof HostError) return refuse('SOT016', `${e.pyType} inside the branch: ${e.message}`);
  return refuse('SOT016', `inside the branch: ${(e as Error).message ?? e}`);
}

function returnConst(tx: Translator, ins: Instruction): Variable {
  const c = tx.code.consts[ins.arg];
  return c.k === 'tensor' ? tx.constTensor(c.t) : tx.fromRt(c, null, false);
}

// ---- merging ---------------------------------------------------------------------------------

export class Merger {
  /** Tensor pairs to yield: [then value, else value] -> the merged variable. */
  readonly pairs: [SymTensor, SymTensor, TensorVar][] = [];
  private readonly memo = new Map<Variable, Map<Variable, Variable>>();

  constructor(private readonly tx: Translator) {}

  merge(a: Variable | undefined, b: Variable | undefined, what: () => string): Variable | undefined {
    if (a === b) return a;
    if (a === undefined || b === undefined) throw refuse('SOT013', `${what()} is bound on one side of the branch only`);
    const hit = this.memo.get(a)?.get(b);
    if (hit) return hit;
    const m = this.mergeNew(a, b, what);
    if (!this.memo.has(a)) this.memo.set(a, new Map());
    this.memo.get(a)!.set(b, m);
    return m;
  }

  private mergeNew(a: Variable, b: Variable, what: () => string): Variable {
    if (a instanceof TensorVar && b instanceof TensorVar) {
      const x = a.sym, y = b.sym;
      if (x === y) return a;
      if (x.dtype !== y.dtype || shapeStr(x.shape) !== shapeStr(y.shape))
        throw refuse('SOT014', `${what()} is ${x.dtype}${shapeStr(x.shape)} on one side and ${y.dtype}${shapeStr(y.shape)} on the other`);
      if (x.stop_gradient !== y.stop_gradient) throw refuse('SOT014', `${what()} wants gradients on one side only`);
      const out = new TensorVar(this.tx.graph.newValue(x.dtype, x.shape, x.stop_gradient));
      this.pairs.push([x, y, out]);
      return out;
    }
    if (a instanceof ConstVar && b instanceof ConstVar) {
      const p = a.value as { k: string; v?: unknown }, q = b.value as { k: string; v?: unknown };
      if (p.k === q.k && Object.is(p.v, q.v)) return a;
    } else if (a instanceof ObjectVar && b instanceof ObjectVar) {
      if (a.ref.id === b.ref.id) return a;
    } else if (a instanceof TupleVar && b instanceof TupleVar && a.items.length === b.items.length) {
      return new TupleVar(a.items.map((x, i) => this.merge(x, b.items[i], () => `${what()}[${i}]`)!));
    }
    throw refuse('SOT013', `${what()} differs between the sides of the branch (${a.kind} vs ${b.kind}) and is not a tensor on both`);
  }
}

// ---- the jump --------------------------------------------------------------------------------

/**
 * Captures the branch of `ins` (a POP_JUMP_IF_TRUE/FALSE whose popped value `t` is a tensor) as
 * an if node; continues after the merge point, or returns from the frame when both sides do.
 * Throws a refusal GraphBreak when it cannot capture exactly (the caller's rollback then breaks).
 */
export function captureBranch(tx: Translator, ins: Instruction, t: TensorVar): FrameReturn | undefined {
  const f = tx.frame;
  const depth = tx.frames.length;
  const flow = codeFlow(f.code);
  const m = flow.ipdom(ins.index);
  if (m === null) throw refuse('SOT016', 'the sides of the branch never meet (no way out of the frame)');
  const merge = m === flow.exit ? null : m;
  const taken = ins.jumpTarget, fall = ins.index + 1;
  const [whenTrue, whenFalse] = ins.opname === 'POP_JUMP_IF_TRUE' ? [taken, fall] : [fall, taken];
  // A side that comes back to this test without passing the merge point: a loop (capture_loop.ts),
  // unless only through the test of the loop being captured around it (a `continue`): then both
  // sides end at that loop's test, where its pass ends.
  const loops = [whenTrue, whenFalse].map((s) => flow.reaches(s, ins.index, merge));
  const around = loops[0] || loops[1] ? enclosingLoop(depth) : null;
  if (around) {
    const stops = new Set([...around.tests, m]);
    if (![whenTrue, whenFalse].some((s) => flow.reaches(s, ins.index, stops))) {
      // A side that leaves by the loop's exit (`break`) ends as a test whose condition says exit.
      const exitCond = around.whileExit === null ? null : tx.constTensor(untracked(() => runOp('full', [], { shape: [], fill_value: around.whileExit ? 1 : 0, dtype: 'bool' })[0] as Tensor));
      return captureBranchTo(tx, ins, t, around.tests, around.at, around.exitIp, exitCond);
    }
  }
  const k = loops[0] ? 0 : 1;
  if ((loops[0] || loops[1]) && !loops[1 - k] && !flow.isLoopTest(ins.index, [whenTrue, whenFalse][k])) {
    // A branch inside a loop that leaves it on one side (`if t: break` before the loop is captured).
    return captureBranchTo(tx, ins, t, merge, m, null);
  }
  if (loops[0] || loops[1]) {
    // (the exit side may differ from the merge point: CPython copies small return blocks)
    if (loops[1 - k]) throw refuse('SOT016', 'a branch on a tensor that jumps back on both sides (continue or break under a tensor condition)');
    return captureLoop(tx, ins, t, [whenTrue, whenFalse][k], [whenTrue, whenFalse][1 - k], k === 1);
  }
  return captureBranchTo(tx, ins, t, merge, m, null);
}

/**
 * The if node of a branch whose sides end at `merge` (an instruction, a set of them, or null:
 * only returns end them); the frame continues at `resume`. `avoid`: an exit no side may take.
 */
function captureBranchTo(
  tx: Translator, ins: Instruction, t: TensorVar, merge: number | null | ReadonlySet<number>, resume: number, avoid: number | null, breakCond: Variable | null = null,
): FrameReturn | undefined {
  const f = tx.frame;
  const depth = tx.frames.length;
  const flow = codeFlow(f.code);
  const taken = ins.jumpTarget, fall = ins.index + 1;
  const [whenTrue, whenFalse] = ins.opname === 'POP_JUMP_IF_TRUE' ? [taken, fall] : [fall, taken];
  const cond = condition(tx, t);
  const base: FrameState = { stack: f.stack.slice(), locals: f.locals.slice(), kwNames: f.kwNames };
  const callerStack = depth > 1 ? tx.frames[depth - 2].stack.slice() : null;

  const frames = tx.frames.slice();
  let sides: SideEnd[];
  try {
    sides = [whenTrue, whenFalse].map((start) => simulateSide(tx, f, depth, base, start, merge, avoid, undefined, breakCond));
    if (sides[0].returned !== sides[1].returned) {
      // An early return on one side: the other continues to its own return, then both are yielded.
      sides = sides.map((s, i) => (s.returned ? s : simulateSide(tx, f, depth, base, [whenTrue, whenFalse][i], null, avoid, undefined, breakCond)));
    }
  } finally {
    // Sides may have pushed (or, failing, left) inlined frames: back to the frames at the jump.
    tx.frames.length = 0;
    tx.frames.push(...frames);
    if (callerStack) tx.frames[depth - 2].stack = callerStack;
  }
  const [a, b] = sides;

  const M = new Merger(tx);
  let stack: Variable[] = [];
  let locals: (Variable | undefined)[] = [];
  let ret: Variable | undefined;
  if (a.returned) {
    ret = M.merge(a.ret!, b.ret!, () => 'the returned value');
  } else {
    if (a.stack.length !== b.stack.length) throw refuse('SOT016', 'the sides leave different stack depths');
    stack = a.stack.map((v, i) => M.merge(v, b.stack[i], () => `stack entry ${i}`)!);
    locals = a.locals.map((v, i) => {
      if (v !== b.locals[i] && !flow.liveAt(i, resume)) return undefined;   // never read again: no need to agree
      return M.merge(v, b.locals[i], () => `variable '${f.localName(i)}'`);
    });
  }
  const outputs = M.pairs.map(([, , out]) => out.sym.id);
  const node = ifNode(cond.id,
    { nodes: a.nodes, args: [], yields: M.pairs.map(([x]) => x.id) },
    { nodes: b.nodes, args: [], yields: M.pairs.map(([, y]) => y.id) },
    outputs);
  tx.graph.nodes.push(node);
  if (ret !== undefined) {
    // Inside a side of an enclosing captured branch of this frame: that side returns this value.
    if (activeSides[activeSides.length - 1] === depth) throw new SideReturn(ret);
    return tx.returnValue(ret);
  }
  f.stack = stack;
  f.locals = locals;
  f.kwNames = base.kwNames;
  f.ip = resume;
  return undefined;
}
