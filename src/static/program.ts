// paddle.static.Program: a PIR program being built through the public API, plus what building
// needs beyond the IR: Paddle-style names for its values (fetch by name, Variable.name), the
// eager tensors it captured (bound to its own builtin.parameter ops), fresh batch symbols, and
// the Executor's cache of compiled plans.
import { Attr, type Block, BlockArgument, Builder, type Operation, Program as PirProgram, printProgram, tensorType, type Value } from '../pir/index.js';
import { isFloating } from '../tensor/dtype.js';
import { type Dim, sym } from '../tensor/shape.js';
import type { Tensor } from '../tensor/tensor.js';
import { ownedView } from './scope.js';

/** Names of values built through paddle.static (data names, parameter names, `matmul_0.tmp_0`). */
const valueNames = new WeakMap<Value, string>();
export const nameOfValue = (v: Value): string | undefined => valueNames.get(v);

/** The paddle.static Program wrapping a PIR program (append_backward finds a loss's program). */
const wrappers = new WeakMap<Operation, Program>();
/** The Program whose module op is `module`. */
export const programOfModule = (module: Operation): Program | undefined => wrappers.get(module);

/** What the Executor caches per program and fetch list (see executor.ts). */
export interface CachedPlan { dispose(): void }

// Captured 1-element tensors become builtin.constant (their value prints in the program);
// others become parameters bound to a view of their storage.
const CONSTANT_DTYPES = new Set(['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'int8', 'uint8', 'bool']);

/**
 * A static program. Build it inside `paddle.static.program_guard(program, () => ...)` with the
 * same API calls as eager code; run it with `paddle.static.Executor`. `String(program)` is its
 * PIR text.
 * @example
 *   const main = new paddle.static.Program();
 *   paddle.static.program_guard(main, () => { const x = paddle.static.data('x', [null, 4]); y = paddle.nn.functional.relu(x); });
 *   console.log(String(main));
 */
export class Program {
  readonly pir: PirProgram;
  /** Appends at the end of the program's block. */
  readonly builder: Builder;
  private readonly bound = new Map<string, Tensor>();
  private readonly lifted = new WeakMap<Tensor, Value>();
  private readonly byName = new Map<string, Value>();
  private readonly counters = new Map<string, number>();
  private nextSymbol = 0;
  /** @internal compiled plans by fetch list (executor.ts) */
  readonly _plans = new Map<string, CachedPlan>();
  /** Paddle's Program.random_seed, accepted for compatibility. */
  random_seed = 0;

  constructor(pir: PirProgram = new PirProgram()) {
    this.pir = pir;
    this.builder = new Builder(pir);
    wrappers.set(pir.module, this);
  }

  toString(): string { return printProgram(this.pir); }

  /** Number of ops in the program's block. */
  get num_ops(): number { return this.pir.block.ops.length; }

  /** @internal Region blocks being built (paddle.static.nn.cond / while_loop), not yet in an op. */
  readonly _openBlocks = new Set<Block>();

  /** True if v is defined in this program's block, or in a region nested in it (or being built for it). */
  owns(v: Value): boolean {
    let b: Block | null = v instanceof BlockArgument ? v.owner : v.definingOp?.parent ?? null;
    while (b) {
      if (b === this.pir.block || this._openBlocks.has(b)) return true;
      b = b.parentOp?.parent ?? null;
    }
    return false;
  }

  /** The value called `name` here (a data name, a parameter name, or a generated `relu_0.tmp_0`). */
  valueByName(name: string): Value | undefined { return this.byName.get(name); }

  /** Tensors bound to this program's own parameters (captured eager tensors), by parameter name. */
  boundTensor(name: string): Tensor | undefined { return this.bound.get(name); }

  /** @internal Names a value of this program; the first value to take a name keeps it. */
  _name(v: Value, name: string): void {
    valueNames.set(v, name);
    if (!this.byName.has(name)) this.byName.set(name, v);
  }

  /** `prefix_<k>` with k counting per prefix, as Paddle's unique_name does. */
  uniqueName(prefix: string): string {
    const k = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, k + 1);
    return `${prefix}_${k}`;
  }

  /** A batch symbol no other dim of this program uses (s0, s1, ...). */
  newSymbol(): Dim { return sym(`s${this.nextSymbol++}`); }

  /**
   * The value standing for eager tensor `t` captured by a recorded op: a builtin.constant for a
   * one-element tensor, else a builtin.parameter bound to a view of t's storage. One value per tensor.
   */
  lift(t: Tensor): Value {
    const hit = this.lifted.get(t);
    if (hit) return hit;
    let v: Value | null = null;
    if (t.size === 1 && CONSTANT_DTYPES.has(t.dtype)) {
      const x = t.item();
      const type = tensorType(t.dtype, t.shape);
      // A float constant prints as one (2.0), whatever its value.
      if (isFloating(t.dtype)) v = this.builder.create('builtin.constant', [], [['value', Attr.float(x as number)]], [type]).result(0);
      else if (typeof x === 'boolean' || Number.isSafeInteger(x)) v = this.builder.constant(x, type);
    }
    if (!v) {
      let name = t.name;
      while (this.bound.has(name)) name = this.uniqueName(t.name);
      this.bound.set(name, ownedView(t));
      v = this.builder.parameter(name, tensorType(t.dtype, t.shape));
      this._name(v, name);
    }
    this.lifted.set(t, v);
    return v;
  }

  /**
   * A copy of this program (same parameters and captured tensors). With `for_test`, ops that
   * behave differently in training (dropout) are switched to inference, as in Paddle.
   */
  clone(for_test = false): Program {
    const mapping = new Map<Value, Value>();
    const copy = new Program(new PirProgram(this.pir.module.clone(mapping)));
    for (const [name, v] of this.byName) copy.byName.set(name, mapping.get(v) ?? v);
    for (const [from, to] of mapping) { const n = valueNames.get(from); if (n !== undefined) valueNames.set(to, n); }
    for (const [name, t] of this.bound) copy.bound.set(name, ownedView(t));
    for (const [k, n] of this.counters) copy.counters.set(k, n);
    copy.nextSymbol = this.nextSymbol;
    if (for_test) copy.pir.walk((op: Operation) => { if (op.name === 'pd_op.dropout') op.setAttr('training', Attr.bool(false)); });
    return copy;
  }

  /** Frees compiled plans and captured tensors now (otherwise the GC does, with the program). */
  dispose(): void {
    for (const p of this._plans.values()) p.dispose();
    this._plans.clear();
    for (const t of this.bound.values()) t.dispose();
    this.bound.clear();
  }
}
