// The IR core, MLIR-shaped: an Operation has operands (uses of Values), results (Values it
// defines), named attributes and regions; a Region holds Blocks; a Block holds arguments and an
// ordered list of operations. A Program is a `builtin.module` op whose one region has one block.
// Values keep their use lists up to date, so rewrites (replaceAllUsesWith, erase, move) are local.
import type { OpDef } from '../ops/types.js';
import type { DType } from '../tensor/dtype.js';
import type { Dim } from '../tensor/shape.js';
import type { Attribute } from './attributes.js';
import { type InterfaceKey, kindHasTrait, kindInterface, lookupOpKind, type OpKind, type Trait } from './opkind.js';
import type { Type } from './types.js';

/** Text hooks installed by printer.ts, so `String(op)` works without core importing the printer. */
export const textHooks: { op?: (op: Operation) => string; program?: (p: Program) => string } = {};
const describeOp = (op: Operation): string => (textHooks.op ? textHooks.op(op) : `"${op.name}"`);

let nextValueId = 1;

/** An SSA value: defined once, by an operation (OpResult) or as a block argument. */
export abstract class Value {
  /** Unique per process; handy as a map key in logs. */
  readonly id = nextValueId++;
  private readonly _uses: OpOperand[] = [];
  /** Mutable so passes can refine shapes; keep it consistent with the defining op's infer. */
  constructor(public type: Type) {}

  abstract get definingOp(): Operation | null;
  get uses(): readonly OpOperand[] { return this._uses; }
  get hasUses(): boolean { return this._uses.length > 0; }
  /** Distinct operations using this value, in use order. */
  get users(): Operation[] { return [...new Set(this._uses.map((u) => u.owner))]; }

  /** Points every use at `v` instead. */
  replaceAllUsesWith(v: Value): void { this.replaceUsesWithIf(v, () => true); }
  replaceUsesWithIf(v: Value, pred: (use: OpOperand) => boolean): void {
    if (v === this) return;
    for (const u of [...this._uses]) if (pred(u)) u.set(v);
  }

  // TensorLike, so values of a program being recorded flow through the op dispatcher.
  get dtype(): DType {
    if (this.type.kind === 'tensor' || this.type.kind === 'scalar') return this.type.dtype;
    throw new TypeError(`value of type ${String(this.type)} has no dtype`);
  }
  get shape(): readonly Dim[] {
    if (this.type.kind === 'tensor') return this.type.shape;
    if (this.type.kind === 'scalar') return [];
    throw new TypeError(`value of type ${String(this.type)} has no shape`);
  }

  /** @internal */ _addUse(u: OpOperand): void { this._uses.push(u); }
  /** @internal */ _removeUse(u: OpOperand): void {
    const i = this._uses.indexOf(u);
    if (i >= 0) this._uses.splice(i, 1);
  }
}

export class OpResult extends Value {
  constructor(readonly owner: Operation, readonly index: number, type: Type) { super(type); }
  get definingOp(): Operation { return this.owner; }
}

export class BlockArgument extends Value {
  constructor(readonly owner: Block, public index: number, type: Type) { super(type); }
  get definingOp(): null { return null; }
}

/** One operand slot of an operation. `value` is null for an absent optional input. */
export class OpOperand {
  private _value: Value | null = null;
  constructor(readonly owner: Operation, readonly index: number, value: Value | null) { this.set(value); }
  get value(): Value | null { return this._value; }
  set(v: Value | null): void {
    if (v === this._value) return;
    this._value?._removeUse(this);
    this._value = v;
    v?._addUse(this);
  }
}

export class Operation {
  private _kind: OpKind | undefined;
  private _operands: OpOperand[];
  readonly results: readonly OpResult[];
  /** Attributes in insertion order (the printed order). */
  readonly attributes: Map<string, Attribute>;
  readonly regions: readonly Region[];
  /** The block holding this op; null while detached. */
  parent: Block | null = null;

  /** Makes a detached operation; insert it with Block.insertBefore/append or a Builder. */
  constructor(readonly name: string, operands: readonly (Value | null)[], attributes: Iterable<readonly [string, Attribute]>,
    resultTypes: readonly Type[], numRegions = 0) {
    this._operands = operands.map((v, i) => new OpOperand(this, i, v));
    this.attributes = new Map(attributes);
    this.results = resultTypes.map((t, i) => new OpResult(this, i, t));
    this.regions = Array.from({ length: numRegions }, () => new Region(this));
  }

  /** Dialect metadata (traits, interfaces, registry def); resolved on first use. */
  get kind(): OpKind { return (this._kind ??= lookupOpKind(this.name)); }
  hasTrait(t: Trait): boolean { return kindHasTrait(this.kind, t); }
  getInterface<T>(key: InterfaceKey<T>): T | undefined { return kindInterface(this.kind, key); }
  /** The op-registry definition of a pd_op (undefined for other dialects). */
  get def(): OpDef | undefined { return this.kind.def; }

  get operands(): readonly OpOperand[] { return this._operands; }
  get numOperands(): number { return this._operands.length; }
  operand(i: number): Value | null { return this._operands[i]?.value ?? null; }
  operandValues(): (Value | null)[] { return this._operands.map((o) => o.value); }
  setOperand(i: number, v: Value | null): void {
    if (i < 0 || i >= this._operands.length) throw new RangeError(`${this.name}: no operand ${i} (has ${this._operands.length})`);
    this._operands[i].set(v);
  }
  /** Replaces the whole operand list (its length may change). */
  setOperands(vs: readonly (Value | null)[]): void {
    for (const o of this._operands) o.set(null);
    this._operands = vs.map((v, i) => new OpOperand(this, i, v));
  }

  get numResults(): number { return this.results.length; }
  result(i = 0): OpResult {
    const r = this.results[i];
    if (!r) throw new RangeError(`${this.name}: no result ${i} (has ${this.results.length})`);
    return r;
  }

  attr(name: string): Attribute | undefined { return this.attributes.get(name); }
  setAttr(name: string, a: Attribute): void { this.attributes.set(name, a); }
  removeAttr(name: string): boolean { return this.attributes.delete(name); }

  get parentRegion(): Region | null { return this.parent?.parent ?? null; }
  get parentOp(): Operation | null { return this.parent?.parent?.parent ?? null; }
  /** Position in the parent block (O(n): blocks are arrays). */
  get index(): number { return this.parent ? this.parent.ops.indexOf(this) : -1; }
  get nextOp(): Operation | null { const b = this.parent; return b ? b.ops[b.ops.indexOf(this) + 1] ?? null : null; }
  get prevOp(): Operation | null { const b = this.parent; return b ? b.ops[b.ops.indexOf(this) - 1] ?? null : null; }

  /** Pre-order walk over this op and every op nested in its regions. */
  walk(fn: (op: Operation) => void): void {
    fn(this);
    for (const r of this.regions) for (const b of r.blocks) for (const op of [...b.ops]) op.walk(fn);
  }

  /** Replaces uses of every result by the matching value (or result of `other`). */
  replaceAllUsesWith(values: readonly Value[] | Operation): void {
    const vs = values instanceof Operation ? values.results : values;
    if (vs.length !== this.results.length) throw new Error(`${describeOp(this)}: replacing ${this.results.length} results with ${vs.length} values`);
    this.results.forEach((r, i) => r.replaceAllUsesWith(vs[i]));
  }

  /** Removes the op from its block, keeping it intact (to insert elsewhere). */
  detach(): this {
    if (this.parent) this.parent._remove(this);
    return this;
  }

  /** Destroys the op: its results must be unused (outside the op itself). Drops its operand uses. */
  erase(): void {
    const inner = new Set<Operation>();
    this.walk((o) => inner.add(o));
    for (const o of inner) {
      for (const r of o.results) {
        const outside = r.uses.filter((u) => !inner.has(u.owner));
        if (outside.length) {
          throw new Error(`cannot erase ${describeOp(this)}: result ${o === this ? r.index : `of nested ${o.name}`} still has ${outside.length} use(s), first in "${outside[0].owner.name}"`);
        }
      }
    }
    this.dropAllReferences();
    this.detach();
  }

  /** Clears operands of this op and every nested op (before erasing a group that uses itself). */
  dropAllReferences(): void {
    this.walk((o) => { for (const u of o._operands) u.set(null); });
  }

  moveBefore(anchor: Operation): void {
    if (!anchor.parent) throw new Error(`moveBefore: anchor "${anchor.name}" is not in a block`);
    this.detach();
    anchor.parent.insertBefore(this, anchor);
  }
  moveAfter(anchor: Operation): void {
    if (!anchor.parent) throw new Error(`moveAfter: anchor "${anchor.name}" is not in a block`);
    this.detach();
    anchor.parent.insertBefore(this, anchor.nextOp);
  }
  moveToEnd(block: Block): void { this.detach(); block.append(this); }
  moveToStart(block: Block): void { this.detach(); block.insertBefore(this, block.ops[0] ?? null); }

  /**
   * A detached deep copy (regions included). Operands found in `mapping` are remapped; the
   * mapping gains every result and block argument of the copy, so a sequence of clones keeps SSA.
   */
  clone(mapping: Map<Value, Value> = new Map()): Operation {
    const ops = this._operands.map((o) => (o.value ? mapping.get(o.value) ?? o.value : null));
    const c = new Operation(this.name, ops, this.attributes, this.results.map((r) => r.type), this.regions.length);
    this.results.forEach((r, i) => mapping.set(r, c.results[i]));
    this.regions.forEach((r, i) => {
      for (const b of r.blocks) {
        const nb = c.regions[i].addBlock(new Block());
        for (const a of b.args) mapping.set(a, nb.addArgument(a.type));
        for (const op of b.ops) nb.append(op.clone(mapping));
      }
    });
    return c;
  }

  toString(): string { return describeOp(this); }
}

export class Block {
  private readonly _args: BlockArgument[] = [];
  private readonly _ops: Operation[] = [];
  parent: Region | null = null;

  constructor(argTypes: readonly Type[] = []) { for (const t of argTypes) this.addArgument(t); }

  get args(): readonly BlockArgument[] { return this._args; }
  get ops(): readonly Operation[] { return this._ops; }
  get parentOp(): Operation | null { return this.parent?.parent ?? null; }
  get lastOp(): Operation | null { return this._ops[this._ops.length - 1] ?? null; }

  addArgument(t: Type): BlockArgument {
    const a = new BlockArgument(this, this._args.length, t);
    this._args.push(a);
    return a;
  }
  eraseArgument(i: number): void {
    const a = this._args[i];
    if (!a) throw new RangeError(`block has no argument ${i}`);
    if (a.hasUses) throw new Error(`cannot erase block argument ${i}: it has ${a.uses.length} use(s), first in "${a.uses[0].owner.name}"`);
    this._args.splice(i, 1);
    this._args.forEach((x, k) => { x.index = k; });
  }

  /** Inserts a detached op before `anchor` (null: at the end). */
  insertBefore(op: Operation, anchor: Operation | null): void {
    if (op.parent) throw new Error(`"${op.name}" is already in a block; detach or move it`);
    let i = this._ops.length;
    if (anchor) {
      i = this._ops.indexOf(anchor);
      if (i < 0) throw new Error(`insertBefore: "${anchor.name}" is not in this block`);
    }
    this._ops.splice(i, 0, op);
    op.parent = this;
  }
  append(op: Operation): void { this.insertBefore(op, null); }

  /** @internal */ _remove(op: Operation): void {
    const i = this._ops.indexOf(op);
    if (i >= 0) this._ops.splice(i, 1);
    op.parent = null;
  }
}

export class Region {
  private readonly _blocks: Block[] = [];
  constructor(readonly parent: Operation | null = null) {}
  get blocks(): readonly Block[] { return this._blocks; }
  /** The first block (most regions have one). */
  get block(): Block {
    const b = this._blocks[0];
    if (!b) throw new Error(`region of "${this.parent?.name}" has no block`);
    return b;
  }
  /** Appends a block (a new empty one by default) and returns it. */
  addBlock(b: Block = new Block()): Block {
    if (b.parent) throw new Error('block already belongs to a region');
    b.parent = this;
    this._blocks.push(b);
    return b;
  }
}

export const MODULE_OP = 'builtin.module';

/** A whole program: a builtin.module op with one region holding one block of ops. */
export class Program {
  readonly module: Operation;
  constructor(module?: Operation) {
    if (module) {
      if (module.name !== MODULE_OP) throw new Error(`a program's top op must be ${MODULE_OP}, got "${module.name}"`);
      this.module = module;
    } else {
      this.module = new Operation(MODULE_OP, [], [], [], 1);
      this.module.regions[0].addBlock();
    }
  }
  /** The top-level block. */
  get block(): Block { return this.module.regions[0].block; }
  /** Pre-order walk over every op (the module itself excluded). */
  walk(fn: (op: Operation) => void): void { for (const op of [...this.block.ops]) op.walk(fn); }
  /** Every op in pre-order, module excluded. */
  allOps(): Operation[] { const out: Operation[] = []; this.walk((o) => out.push(o)); return out; }
  /** A deep copy sharing nothing with this program. */
  clone(): Program { return new Program(this.module.clone()); }
  toString(): string { return textHooks.program ? textHooks.program(this) : `<program with ${this.block.ops.length} ops>`; }
}
