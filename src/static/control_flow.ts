// paddle.static.nn.cond and paddle.static.nn.while_loop: build pd_op.if / pd_op.while
// (src/pir/dialects/control_flow.ts). The branch and body functions are called once, with the
// program's builder pointed into a fresh block, so the public API records into the region.
// Parameters and constants the functions capture (eager tensors lifted while building) are
// hoisted before the control-flow op: they have no operands, and region programs take every
// outer value as an input.
import { runOp } from '../ops/dispatch.js';
import { Block, IF, Operation, type Type, typeEq, Value, WHILE } from '../pir/index.js';
import { Tensor } from '../tensor/tensor.js';
import { currentProgram } from './mode.js';
import type { Program } from './program.js';

type Out = Value | Tensor | number | boolean | null | undefined | readonly Out[];

/** Runs fn with prog's builder appending to `block`. */
function inBlock<R>(prog: Program, block: Block, fn: () => R): R {
  const outer = prog.builder.insertionBlock;
  prog._openBlocks.add(block);
  prog.builder.setInsertionPointToEnd(block);
  try {
    return fn();
  } finally {
    prog.builder.setInsertionPointToEnd(outer);
    prog._openBlocks.delete(block);
  }
}

/** A branch/body result as a program value (eager tensors and numbers are captured as constants). */
function asValue(prog: Program, x: Out, what: string): Value {
  if (x instanceof Value) return x;
  if (x instanceof Tensor) return prog.lift(x);
  if (typeof x === 'number' || typeof x === 'boolean') return prog.lift(runOp('full', [], { shape: [], fill_value: Number(x), dtype: typeof x === 'boolean' ? 'bool' : 'float32' })[0] as Tensor);
  throw new TypeError(`${what}: returned ${x === null ? 'None' : typeof x}, expected program values`);
}

const flatten = (x: Out): { values: Out[]; single: boolean } =>
  Array.isArray(x) ? { values: [...(x as Out[])], single: false } : x === null || x === undefined ? { values: [], single: false } : { values: [x], single: true };

/** Moves operand-free parameter/constant ops out of `block` to just before `op`. */
function hoist(block: Block, op: Operation): void {
  for (const o of [...block.ops]) if ((o.name === 'builtin.parameter' || o.name === 'builtin.constant') && o.numOperands === 0) o.moveBefore(op);
}

/** Unhooks a region block that will not become part of the program (a branch or body raised). */
function abandon(block: Block): void {
  for (const op of block.ops) op.dropAllReferences();
}

function checkPred(pred: Value, what: string): void {
  const t = pred.type;
  if (t.kind !== 'tensor' || t.dtype !== 'bool' || !(t.rank === 0 || (t.rank === 1 && t.shape[0] === 1)))
    throw new TypeError(`${what}: the condition must be a bool tensor with one element, got ${String(t)}`);
}

function nameResults(prog: Program, op: Operation, base: string): void {
  const n = prog.uniqueName(base);
  op.results.forEach((r, i) => prog._name(r, `${n}.tmp_${i}`));
}

/**
 * Builds a pd_op.if one branch at a time: `enter(i)` points the program's builder into branch i
 * (0 then, 1 else), the caller records the branch, `exit(i, outs)` closes it, `finish()` makes
 * the op. cond() drives it with functions; the Python bridge drives it step by step.
 */
export class CondBuilder {
  private readonly prog: Program;
  private readonly blocks = [new Block(), new Block()];
  private readonly outs: ({ values: Value[]; single: boolean } | null)[] = [null, null];
  private outer: Block | null = null;

  constructor(private readonly pred: Value) {
    checkPred(pred, 'cond');
    this.prog = currentProgram();
    if (!this.prog.owns(pred)) throw new Error('cond: pred is not a value of the program being built (use it inside program_guard)');
  }
  enter(i: number): void {
    if (this.outer) throw new Error('cond: a branch is already open');
    this.outer = this.prog.builder.insertionBlock;
    this.prog._openBlocks.add(this.blocks[i]);
    this.prog.builder.setInsertionPointToEnd(this.blocks[i]);
  }
  /** Closes branch i with its outputs (converted inside the branch), or only restores the builder on failure. */
  exit(i: number, out?: Out): void {
    try {
      if (out !== undefined || arguments.length > 1) {
        const r = flatten(out);
        this.outs[i] = { ...r, values: r.values.map((v) => asValue(this.prog, v, `cond: ${i ? 'false_fn' : 'true_fn'}`)) };
      }
    } finally {
      this.prog._openBlocks.delete(this.blocks[i]);
      if (this.outer) this.prog.builder.setInsertionPointToEnd(this.outer);
      this.outer = null;
    }
  }
  /** Drops what was recorded (after a failure), so outer values keep no uses from it. */
  abandon(): void { this.blocks.forEach(abandon); }
  finish(): Out {
    try {
      return this.make();
    } catch (e) {
      this.abandon();
      throw e;
    }
  }
  private make(): Out {
    const [t, f] = this.outs.map((o) => o ?? { values: [], single: false });
    if (t.values.length !== f.values.length)
      throw new TypeError(`cond: true_fn returns ${t.values.length} value(s) and false_fn ${f.values.length}; both branches must return the same structure`);
    const types: Type[] = t.values.map((v, i) => {
      if (!typeEq(v.type, f.values[i].type))
        throw new TypeError(`cond: output ${i} is ${String(v.type)} in true_fn and ${String(f.values[i].type)} in false_fn; both branches must agree`);
      return v.type;
    });
    const { prog, blocks } = this;
    blocks.forEach((b, i) => inBlock(prog, b, () => prog.builder.yield([t, f][i].values)));
    const op = new Operation(IF, [this.pred], [], types, 2);
    blocks.forEach((b, i) => op.regions[i].addBlock(b));
    prog.builder.insert(op);
    blocks.forEach((b) => hoist(b, op));
    nameResults(prog, op, 'cond');
    if (!types.length) return null;
    return t.single ? op.result(0) : [...op.results];
  }
}

/**
 * Paddle's cond: true_fn() if pred else false_fn(). With a program value as pred it records a
 * pd_op.if whose then/else regions hold what the functions build; both must return the same
 * structure of values with equal types. With an eager pred it simply calls one function.
 * @example const y = paddle.static.nn.cond(paddle.less_than(x.sum(), 0), () => x.neg(), () => x.exp());
 */
export function cond(pred: Value | Tensor, true_fn?: () => Out, false_fn?: () => Out, _name?: string): Out {
  if (pred instanceof Tensor) return (pred.item() ? true_fn?.() : false_fn?.()) ?? null;
  const cb = new CondBuilder(pred);
  [true_fn, false_fn].forEach((fn, i) => {
    cb.enter(i);
    try {
      const out = fn ? fn() : null;
      cb.exit(i, out);
    } catch (e) {
      cb.exit(i);
      cb.abandon();
      throw e;
    }
  });
  return cb.finish();
}

/**
 * Builds a pd_op.while: the constructor takes the loop vars (lifted to values: `inits`) and the
 * condition on them; `enter()` opens the body and returns its block arguments; `exit(next,
 * cond)` closes it with the next values and the condition on them (recorded in the body);
 * `finish()` makes the op. while_loop() drives it; so does the Python bridge.
 */
export class WhileBuilder {
  private readonly prog: Program;
  readonly inits: Value[];
  private readonly block: Block;
  private pre: Value | null = null;
  private outer: Block | null = null;
  private closed = false;

  constructor(loop_vars: readonly Out[]) {
    if (!Array.isArray(loop_vars) || !loop_vars.length) throw new TypeError('while_loop: loop_vars must be a non-empty list');
    this.prog = currentProgram();
    this.inits = loop_vars.map((v, i) => asValue(this.prog, v, `while_loop: loop_vars[${i}]`));
    this.block = new Block(this.inits.map((v) => v.type));
  }
  /** The condition on the initial values (recorded before the op). */
  setPre(c: Out): void {
    this.pre = asValue(this.prog, c, 'while_loop: cond');
    checkPred(this.pre, 'while_loop');
  }
  enter(): Value[] {
    this.outer = this.prog.builder.insertionBlock;
    this.prog._openBlocks.add(this.block);
    this.prog.builder.setInsertionPointToEnd(this.block);
    return [...this.block.args];
  }
  /** Records the condition on the next values inside the body (the caller computes it there). */
  exit(next?: Out, c?: Out): void {
    try {
      if (next === undefined) return;
      const vs = flatten(next).values.map((v, i) => asValue(this.prog, v, `while_loop: body output ${i}`));
      if (vs.length !== this.inits.length) throw new TypeError(`while_loop: body returns ${vs.length} value(s) for ${this.inits.length} loop var(s)`);
      vs.forEach((v, i) => {
        if (!typeEq(v.type, this.inits[i].type)) throw new TypeError(`while_loop: body output ${i} is ${String(v.type)} but loop var ${i} is ${String(this.inits[i].type)}; loop vars must keep their types`);
      });
      const cv = asValue(this.prog, c ?? null, 'while_loop: cond');
      checkPred(cv, 'while_loop');
      this.prog.builder.yield([cv, ...vs]);
      this.closed = true;
    } finally {
      this.prog._openBlocks.delete(this.block);
      if (this.outer) this.prog.builder.setInsertionPointToEnd(this.outer);
      this.outer = null;
    }
  }
  /** Drops what was recorded in the body (after a failure). */
  abandon(): void { abandon(this.block); }
  finish(): Value[] {
    if (!this.pre || !this.closed) { this.abandon(); throw new Error('while_loop: the body was not completed'); }
    const op = new Operation(WHILE, [this.pre, ...this.inits], [], this.inits.map((v) => v.type), 1);
    op.regions[0].addBlock(this.block);
    this.prog.builder.insert(op);
    hoist(this.block, op);
    nameResults(this.prog, op, 'while');
    return [...op.results];
  }
}

/**
 * Paddle's while_loop: while cond(*vars): vars = body(*vars). Records a pd_op.while whose loop
 * values are `loop_vars` (eager tensors and numbers become constants); body must return values
 * of the same types. Returns the final values as a list.
 * @example const [i, s] = paddle.static.nn.while_loop((i, s) => paddle.less_than(i, n), (i, s) => [i + 1, s * 2], [i0, s0]);
 */
export function while_loop(cond_fn: (...vs: Value[]) => Out, body: (...vs: Value[]) => Out, loop_vars: readonly Out[], _is_test = false, _name?: string): Value[] {
  const wb = new WhileBuilder(loop_vars);
  wb.setPre(cond_fn(...wb.inits));
  const args = wb.enter();
  try {
    const next = body(...args);
    const c = cond_fn(...flatten(next).values.map((v, i) => asValue(currentProgram(), v, `while_loop: body output ${i}`)));
    wb.exit(next, c);
  } catch (e) {
    wb.exit();
    wb.abandon();
    throw e;
  }
  return wb.finish();
}

/** The `paddle.static.nn` namespace (control flow). */
export const staticNn = { cond, while_loop };
