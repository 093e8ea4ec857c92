// Builder: creates operations at an insertion point, inferring result types through the
// InferMeta interface. pd ops are built by registry name with registry attribute values;
// variadic inputs get their builtin.combine and list outputs their builtin.split automatically.
import './dialects/index.js';
import { resolveAttrs } from '../ops/dispatch.js';
import type { Attrs, OpDef } from '../ops/types.js';
import { type DType, isFloating } from '../tensor/dtype.js';
import type { Dim } from '../tensor/shape.js';
import { Attr, type Attribute, toAttribute } from './attributes.js';
import { type Block, Operation, Program, type Value } from './core.js';
import { hasListOutput, PD, pdDialect, pdKind } from './dialects/pd_op.js';
import { InferMetaInterface, kindInterface, lookupOpKind } from './opkind.js';
import { type TensorType, tensorType, type Type } from './types.js';
import { isVerifyMode, verifyOp } from './verify.js';

/** A pd op input as given to the builder: a value, a list of values (variadic), or null (absent optional). */
export type PdInput = Value | readonly Value[] | null;
export type AttrInit = Readonly<Record<string, Attribute>> | Iterable<readonly [string, Attribute]>;

/**
 * Builds ops into a block.
 * @example
 *   const p = new Program();
 *   const b = new Builder(p);
 *   const x = b.data('x', [sym('s0'), 784], 'float32');
 *   const w = b.parameter('linear_0.w_0', tensorType('float32', [784, 10]));
 *   const [y] = b.pd('matmul', [x, w]);
 *   b.fetch(y, 'out');
 *   printProgram(p);
 */
export class Builder {
  private block: Block;
  /** Ops are inserted before this op; null means at the end of `block`. */
  private anchor: Operation | null = null;

  constructor(where: Program | Block) { this.block = where instanceof Program ? where.block : where; }

  get insertionBlock(): Block { return this.block; }
  setInsertionPointToEnd(block: Block): this { this.block = block; this.anchor = null; return this; }
  setInsertionPointToStart(block: Block): this { this.block = block; this.anchor = block.ops[0] ?? null; return this; }
  setInsertionPointBefore(op: Operation): this { this.block = parentOf(op); this.anchor = op; return this; }
  setInsertionPointAfter(op: Operation): this { this.block = parentOf(op); this.anchor = op.nextOp; return this; }

  /**
   * Inserts a detached op at the insertion point. In checking mode the op is verified now,
   * unless it has regions (those are filled after insertion; maybeVerify covers them).
   */
  insert(op: Operation): Operation {
    this.block.insertBefore(op, this.anchor);
    if (isVerifyMode() && op.regions.length === 0) verifyOp(op);
    return op;
  }

  /**
   * Creates any op by full name. Without `resultTypes` the kind's InferMeta computes them.
   * Regions are created empty; add blocks with `op.regions[i].addBlock()`.
   */
  create(name: string, operands: readonly (Value | null)[] = [], attrs: AttrInit = {}, resultTypes?: readonly Type[], numRegions = 0): Operation {
    const entries = Symbol.iterator in attrs ? [...(attrs as Iterable<readonly [string, Attribute]>)] : Object.entries(attrs);
    let types = resultTypes;
    if (!types) {
      const im = kindInterface(lookupOpKind(name), InferMetaInterface);
      if (!im) throw new TypeError(`${name}: result types are required (the op has no infer-meta)`);
      types = im.inferTypes(operands.map((v) => v?.type ?? null), new Map(entries));
    }
    return this.insert(new Operation(name, operands, entries, types, numRegions));
  }

  // ---- pd_op ----

  /** Builds `pd_op.<name>` (`matmul`, `pd_op.matmul`, inplace `add_`) from its registry definition. */
  pdOp(name: string, inputs: readonly PdInput[], attrs: Readonly<Record<string, unknown>> = {}): Operation {
    const full = name.startsWith(`${PD}.`) ? name : `${PD}.${name}`;
    const kind = pdDialect.lookup(full);
    if (!kind?.def) throw new Error(`unknown op '${name}' (no registry definition for ${full})`);
    const def = kind.def;
    if (inputs.length !== def.inputs.length) {
      throw new TypeError(`${def.name}: expects ${def.inputs.length} input(s) (${def.inputs.map((i) => i.name).join(', ')}), got ${inputs.length}`);
    }
    const operands = inputs.map((x, i) => {
      if (Array.isArray(x)) {
        if (!def.inputs[i].variadic) throw new TypeError(`${def.name}: input '${def.inputs[i].name}' takes one tensor, got a list`);
        return this.combine(x);
      }
      return x as Value | null;
    });
    const resolved = resolveAttrs(def, attrs);
    const entries = def.attrs.map((s) => [s.name, toAttribute(s, resolved[s.name], `${PD}.${def.name}`)] as const);
    return this.create(kind.name, operands, entries);
  }

  /** Builds a pd op and returns its tensor results (a list output unpacked through builtin.split). */
  pd(name: string, inputs: readonly PdInput[], attrs: Readonly<Record<string, unknown>> = {}): Value[] {
    const op = this.pdOp(name, inputs, attrs);
    return op.def && hasListOutput(op.def) ? this.split(op.result(0)) : [...op.results];
  }

  /**
   * Builds a pd op from the dispatcher's view: inputs flattened (variadic elements inline, null for
   * absent optionals) and attributes already resolved. Used by the static recorder.
   */
  pdFromDef(def: OpDef, flat: readonly (Value | null)[], attrs: Attrs, inplace = false): Operation {
    const fixed = def.inputs.filter((i) => !i.variadic).length;
    const nVar = flat.length - fixed;
    const inputs: PdInput[] = [];
    let k = 0;
    for (const spec of def.inputs) {
      if (spec.variadic) { inputs.push(flat.slice(k, k + nVar) as Value[]); k += nVar; } else inputs.push(flat[k++]);
    }
    const kind = pdKind(def, inplace);
    const operands = inputs.map((x) => (Array.isArray(x) ? this.combine(x) : (x as Value | null)));
    const entries = def.attrs.map((s) => [s.name, toAttribute(s, attrs[s.name], kind.name)] as const);
    return this.create(kind.name, operands, entries);
  }

  // ---- program boundary and state ----

  /** A feed `name` (pd_op.data); dims may be numbers, -1 or symbols. */
  data(name: string, shape: readonly Dim[], dtype: DType): Value {
    return this.create(`${PD}.data`, [], [['name', Attr.str(name)], ['shape', Attr.shape(shape)], ['dtype', Attr.dtype(dtype)]]).result(0);
  }
  /** Marks `value` as program output `name`, column `col` (default: the next free column). */
  fetch(value: Value, name: string, col?: number): Operation {
    const c = col ?? this.block.ops.filter((o) => o.name === `${PD}.fetch`).length;
    return this.create(`${PD}.fetch`, [value], [['name', Attr.str(name)], ['col', Attr.int(c)]], []);
  }
  /** The persistable tensor `name` (a weight, a batch-norm statistic). */
  parameter(name: string, type: TensorType): Value {
    return this.create('builtin.parameter', [], [['parameter_name', Attr.str(name)]], [type]).result(0);
  }
  /** Stores `value` as the new value of persistable `name`. */
  setParameter(name: string, value: Value): Operation {
    return this.create('builtin.set_parameter', [value], [['parameter_name', Attr.str(name)]], []);
  }
  /** A constant tensor: a scalar fills `type` (splat), an array gives its row-major data. */
  constant(value: number | boolean | readonly number[], type: TensorType): Value {
    let a: Attribute;
    if (typeof value === 'boolean') a = Attr.bool(value);
    else if (typeof value === 'number') a = Number.isSafeInteger(value) && !Object.is(value, -0) ? Attr.int(value) : Attr.float(value);
    else a = !isFloating(type.dtype) && value.every((v) => Number.isSafeInteger(v)) ? Attr.ints(value) : Attr.floats(value);
    return this.create('builtin.constant', [], [['value', a]], [type]).result(0);
  }
  /** Scalar shorthand: a 0-dim constant. */
  scalar(value: number | boolean, dtype: DType): Value { return this.constant(value, tensorType(dtype, [])); }

  // ---- lists and host calls ----

  combine(values: readonly Value[]): Value { return this.create('builtin.combine', values).result(0); }
  split(vec: Value): Value[] { return [...this.create('builtin.split', [vec]).results]; }
  /** A call back into the TypeScript function the executor knows as `callee`, returning `resultTypes`. */
  hostCall(callee: string, operands: readonly Value[], resultTypes: readonly Type[]): Operation {
    return this.create('builtin.host_call', operands, [['callee', Attr.str(callee)]], resultTypes);
  }
  /** Terminates a region block. */
  yield(values: readonly Value[] = []): Operation { return this.create('builtin.yield', values, [], []); }
}

function parentOf(op: Operation): Block {
  if (!op.parent) throw new Error(`"${op.name}" is not in a block`);
  return op.parent;
}
