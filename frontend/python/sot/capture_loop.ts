// `while <tensor>:` in capturing code (capture_cf.ts) becomes a while node of the graph.
//
// The jump that tests the condition is a loop test when one of its sides comes back to it
// without passing the merge point (its immediate post-dominator, the loop exit); the other side
// must be that exit. The body is simulated twice from the state at the test: once on the real
// values, to find what an iteration changes (the loop-carried values: tensors keeping their
// dtype, shape and stop_gradient; anything else that changes refuses), then on fresh block
// arguments for those values, recording the body region up to the test again, whose new
// condition it yields with the next values. `continue` (a jump back to the test) works as is, and
// tensor branches inside the body are captured as if nodes; a `break` or `return` out of the
// loop refuses (SOT016), as does everything capture_cf.ts refuses inside a side.
// `for i in range(n_tensor)` is the same loop with a tensor counter in the iterator's slot.
import { whileNode } from '../../../sot/control_flow_graph.js';
import type { SymTensor } from '../../../sot/function_graph.js';
import { isStatic, shapeStr } from '../../../src/tensor/shape.js';
import { TensorVar, type Variable } from '../../../sot/variables.js';
import type { Instruction } from '../bytecode/decode.js';
import { codeFlow } from './cfg.js';
import { condition, type FrameState, refuse, type SideEnd, simulateSide } from './capture_cf.js';
import type { Frame } from './frame.js';
import { recordOp } from './semantics.js';
import type { Translator } from './translator.js';

/** A loop being captured: its frame depth, test instruction, the tests equivalent to it, its exit. */
interface ActiveLoop {
  readonly depth: number; readonly at: number; readonly tests: ReadonlySet<number>; readonly exitIp: number;
  /** While loops: the raw test value that exits (false; true when negated), for `break`; null for for loops. */
  readonly whileExit: boolean | null;
}
/** Loops being captured, innermost last (a capture reaching one's test again is a break out of it). */
const activeLoops: ActiveLoop[] = [];

/** The innermost loop being captured, when it is in the frame at `depth`. */
export function enclosingLoop(depth: number): ActiveLoop | null {
  const l = activeLoops[activeLoops.length - 1];
  return l && l.depth === depth ? l : null;
}

type Slot = { readonly stack: boolean; readonly i: number };

/** The shape of one captured loop: where its test is, how an iteration starts and ends. */
interface LoopSpec {
  /** The test instruction: a pass over the body ends when it is reached again. */
  readonly at: number;
  readonly bodyStart: number;
  readonly exitIp: number;
  /** The state at the test (for a while: the condition popped; for a for: the counter where the iterator was). */
  readonly base: FrameState;
  readonly cond0: SymTensor;
  /** Values a pass leaves on the stack above the base (a while's next condition). */
  readonly extra: number;
  /** Enters the body from the state at the test (a for pushes the index and steps the counter). */
  readonly enter?: (f: Frame) => void;
  /** The condition at the end of a pass (recorded inside the body). */
  readonly next: (end: SideEnd) => TensorVar;
  /** The frame after the loop, from the state at the test. */
  readonly leave: (f: Frame) => void;
  /** The condition `next` gives is the exit condition (it is negated). */
  readonly negate?: boolean;
  /** Copies of the test a pass may end at instead (a while's top and bottom tests). */
  readonly tests?: ReadonlySet<number>;
}

/**
 * `while <tensor>:` at its test jump `ins` (the condition `t` popped). `negate`: the body runs
 * when the condition is false (`while not t:` compiles to a jump on t's truth to the exit).
 */
export function captureLoop(tx: Translator, ins: Instruction, t: TensorVar, bodyStart: number, exitIp: number, negate: boolean): undefined {
  const f = tx.frame;
  return runLoop(tx, {
    at: ins.index, bodyStart, exitIp, cond0: condition(tx, t, negate), extra: 1, negate,
    tests: loopTests(tx, ins),
    base: { stack: f.stack.slice(), locals: f.locals.slice(), kwNames: f.kwNames },
    next: (end) => {
      const top = end.stack[end.stack.length - 1];
      if (!(top instanceof TensorVar)) throw refuse('SOT016', 'the loop condition is not a tensor after an iteration');
      return top;
    },
    leave: (fr) => { fr.ip = exitIp; },
  });
}

/**
 * `for i in range(n)` with a one-element integer tensor n, from the CALL of range (the next
 * instructions are GET_ITER and FOR_ITER). Returns false when the code has another shape (the
 * caller then converts n as before). The counter is a loop-carried tensor in the iterator's
 * stack slot; the index itself must never be read (it would be a tensor here, an int in eager).
 */
export function captureForRange(tx: Translator, n: TensorVar): boolean {
  const f = tx.frame;
  const code = f.code.instructions;
  const getIter = code[f.ip], forIter = code[f.ip + 1];
  if (getIter?.opname !== 'GET_ITER' || forIter?.opname !== 'FOR_ITER') return false;
  const s = n.sym;
  if (!isStatic(s.shape) || s.shape.reduce((a, b) => a * b, 1) !== 1 || !['int32', 'int64', 'int16', 'int8', 'uint8'].includes(s.dtype))
    throw refuse('SOT016', `range() of a ${s.dtype}${shapeStr(s.shape)} tensor (a one-element integer tensor is captured)`);
  // Eager's index is a Python int: only loops that never read it (`for _ in range(n)`) are exact.
  const store = code[forIter.index + 1];
  if (store?.opname !== 'STORE_FAST' || codeFlow(f.code).liveAt(store.arg, forIter.index + 2))
    throw refuse('SOT016', 'the index of a for loop over range(tensor) is read (eager gives Python ints)');
  const stop = s.shape.length ? recordOp(tx, 'reshape', [s], { shape: [] })[0] as SymTensor : s;
  const zero = new TensorVar(recordOp(tx, 'scale', [stop], { scale: 0, bias: 0 })[0] as SymTensor);
  const cond0 = recordOp(tx, 'less_than', [zero.sym, stop])[0] as SymTensor;
  let exitIp = forIter.jumpTarget;
  for (const name of tx.v.forIterEpilogue) if (code[exitIp]?.opname === name) exitIp++;
  runLoop(tx, {
    at: forIter.index, bodyStart: forIter.index + 1, exitIp, cond0, extra: 0,
    base: { stack: [...f.stack, zero], locals: f.locals.slice(), kwNames: f.kwNames },
    enter: (fr) => {
      const i = fr.pop() as TensorVar;
      fr.push(new TensorVar(recordOp(tx, 'scale', [i.sym], { scale: 1, bias: 1 })[0] as SymTensor));
      fr.push(i);
    },
    next: (end) => {
      const c = end.stack[end.stack.length - 1] as TensorVar;
      return new TensorVar(recordOp(tx, 'less_than', [c.sym, stop])[0] as SymTensor);
    },
    leave: (fr) => { fr.pop(); fr.ip = exitIp; },
  });
  return true;
}

/** The copies of a while test (same body and exit for the same truth value), `ins` included. */
function loopTests(tx: Translator, ins: Instruction): ReadonlySet<number> {
  const taken = ins.jumpTarget, fall = ins.index + 1;
  const [whenTrue, whenFalse] = ins.opname === 'POP_JUMP_IF_TRUE' ? [taken, fall] : [fall, taken];
  const tests = codeFlow(tx.code).equivalentTests(whenTrue, whenFalse);
  tests.add(ins.index);
  return tests;
}

function runLoop(tx: Translator, spec: LoopSpec): undefined {
  const f = tx.frame;
  const depth = tx.frames.length;
  const { at, base } = spec;
  const tests = spec.tests ?? new Set([at]);
  if (activeLoops.some((l) => l.depth === depth && (l.tests.has(at) || l.at === at))) throw refuse('SOT016', 'a break out of a loop conditioned on a tensor');
  const flow = codeFlow(f.code);
  const frames = tx.frames.slice();
  const restoreFrames = (): void => { tx.frames.length = 0; tx.frames.push(...frames); };
  const name = (s: Slot): string => (s.stack ? `stack entry ${s.i}` : `variable '${f.localName(s.i)}'`);
  const valueAt = (st: { stack: Variable[]; locals: (Variable | undefined)[] }, s: Slot): Variable | undefined => (s.stack ? st.stack[s.i] : st.locals[s.i]);
  const slots: Slot[] = [...base.stack.map((_, i) => ({ stack: true, i })), ...base.locals.map((_, i) => ({ stack: false, i }))];
  const pass = (state: FrameState): SideEnd => {
    const end = simulateSide(tx, f, depth, state, spec.bodyStart, tests, spec.exitIp, spec.enter && (() => spec.enter!(f)));
    restoreFrames();
    if (end.returned) throw refuse('SOT016', 'a return inside a loop conditioned on a tensor');
    if (end.stack.length !== state.stack.length + spec.extra) throw refuse('SOT016', 'the loop body changes the stack depth');
    return end;
  };

  activeLoops.push({ depth, at, tests, exitIp: spec.exitIp, whileExit: spec.extra === 1 ? Boolean(spec.negate) : null });
  let carried: Slot[];
  let node;
  const outs: TensorVar[] = [];
  const dead = new Set<number>();
  try {
    // Pass 1: what one iteration changes.
    const p1 = pass(base);
    carried = [];
    for (const s of slots) {
      const a = valueAt(base, s), b = valueAt(p1, s);
      if (a === b) continue;
      if (!s.stack && !flow.liveAt(s.i, at)) { dead.add(s.i); continue; }   // a temporary of the body
      if (!(a instanceof TensorVar) || !(b instanceof TensorVar)) {
        throw refuse('SOT013', `${name(s)} ${a === undefined ? 'is bound only inside the loop' : 'changes in the loop and is not a tensor'}`);
      }
      if (a.sym === b.sym) continue;
      sameMeta(a.sym, b.sym, name(s));
      carried.push(s);
    }

    // Pass 2: the body on block arguments for the carried values.
    const args = carried.map((s) => { const x = (valueAt(base, s) as TensorVar).sym; return tx.graph.newValue(x.dtype, x.shape, x.stop_gradient); });
    const state: FrameState = { stack: base.stack.slice(), locals: base.locals.map((v, i) => (dead.has(i) ? undefined : v)), kwNames: base.kwNames };
    carried.forEach((s, k) => { (s.stack ? state.stack : state.locals)[s.i] = new TensorVar(args[k]); });
    const p2 = pass(state);
    const next = carried.map((s, k) => {
      const v = valueAt(p2, s);
      if (!(v instanceof TensorVar)) throw refuse('SOT013', `${name(s)} is not a tensor after an iteration`);
      sameMeta(args[k], v.sym, name(s));
      return v.sym;
    });
    for (const s of slots) {
      if (carried.includes(s) || (!s.stack && dead.has(s.i))) continue;
      if (valueAt(state, s) !== valueAt(p2, s)) throw refuse('SOT016', `${name(s)} changes in the loop only on block arguments`);
    }
    const mark = tx.graph.nodes.length;
    const cond = condition(tx, spec.next(p2), spec.negate);
    const condNodes = tx.graph.nodes.splice(mark);
    const inits = carried.map((s) => (valueAt(base, s) as TensorVar).sym);
    for (const x of inits) outs.push(new TensorVar(tx.graph.newValue(x.dtype, x.shape, x.stop_gradient)));
    node = whileNode(spec.cond0.id, inits.map((x) => x.id), { nodes: [...p2.nodes, ...condNodes], args: args.map((a) => a.id), yields: [cond.id, ...next.map((x) => x.id)] }, outs.map((o) => o.sym.id));
  } finally {
    activeLoops.pop();
    restoreFrames();
  }
  tx.graph.nodes.push(node);
  f.stack = base.stack.slice();
  f.locals = base.locals.map((v, i) => (dead.has(i) ? undefined : v));
  carried.forEach((s, k) => { (s.stack ? f.stack : f.locals)[s.i] = outs[k]; });
  f.kwNames = base.kwNames;
  spec.leave(f);
  return undefined;
}

function sameMeta(x: SymTensor, y: SymTensor, what: string): void {
  if (x.dtype !== y.dtype || shapeStr(x.shape) !== shapeStr(y.shape))
    throw refuse('SOT014', `${what} is ${x.dtype}${shapeStr(x.shape)} before an iteration and ${y.dtype}${shapeStr(y.shape)} after it`);
  if (x.stop_gradient !== y.stop_gradient) throw refuse('SOT014', `${what} wants gradients only after an iteration`);
}
