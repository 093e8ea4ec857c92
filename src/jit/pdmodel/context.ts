// What an op translator sees: one legacy OpDesc (its input/output slots and attributes, decoded
// from the protobuf Attr union) and the values built so far, by variable name. Translators call
// registry ops through runOp; inside the importer's program_guard those record into the PIR
// program (values), and in tests they may run eagerly on tensors.
import { resolveAttrs, runOpDef, type TensorLike } from '../../ops/dispatch.js';
import { getOp } from '../../ops/registry.js';
import type { TensorMeta } from '../../ops/types.js';
import { MAX_VALUE_BYTES } from '../limits.js';
import { type DType, ITEMSIZE } from '../../tensor/dtype.js';
import type { Dim } from '../../tensor/shape.js';
import { PdAttrType, type PdAttr, type PdOpDesc, type PdScalar } from './schema.js';

/** A translation failure: the importer prefixes the file, block, op index and type. */
export class OpTranslateError extends Error {
  override name = 'OpTranslateError';
}

// VarType.Type numbers (framework.proto) for the dtypes Skiff has.
const DTYPE_OF_VARTYPE = new Map<number, DType>([
  [0, 'bool'], [2, 'int32'], [3, 'int64'], [4, 'float16'], [5, 'float32'], [6, 'float64'], [20, 'uint8'], [21, 'int8'], [22, 'bfloat16'],
]);
const UNSUPPORTED_VARTYPE: Record<number, string> = { 1: 'int16', 19: 'size_t', 23: 'complex64', 24: 'complex128' };

/** The dtype of a VarType.Type number, or a message naming the unsupported one. */
export function dtypeOfVarType(t: number): DType | string {
  return DTYPE_OF_VARTYPE.get(t) ?? `data type ${UNSUPPORTED_VARTYPE[t] ?? `#${t}`} is not supported`;
}

const scalarValue = (s: PdScalar | undefined): unknown => {
  if (!s) return undefined;
  switch (s.type) {
    case 1: return s.b ?? false;
    case 2: return s.i ?? 0;
    case 3: return s.r ?? 0;
    default: return undefined;  // COMPLEX128: no complex dtype here; the op using it fails on the missing value
  }
};

/** The value an Attr holds, by its declared AttrType (proto2 defaults for absent fields). */
export function attrValue(a: PdAttr): unknown {
  switch (a.type) {
    case PdAttrType.INT: return a.i ?? 0;
    case PdAttrType.FLOAT: return a.f ?? 0;
    case PdAttrType.STRING: return a.s ?? '';
    case PdAttrType.INTS: return a.ints ?? [];
    case PdAttrType.FLOATS: return a.floats ?? [];
    case PdAttrType.STRINGS: return a.strings ?? [];
    case PdAttrType.BOOLEAN: return a.b ?? false;
    case PdAttrType.BOOLEANS: return a.bools ?? [];
    case PdAttrType.BLOCK: return a.block_idx ?? 0;
    case PdAttrType.LONG: return a.l ?? 0;
    case PdAttrType.BLOCKS: return a.blocks_idx ?? [];
    case PdAttrType.LONGS: return a.longs ?? [];
    case PdAttrType.FLOAT64S: return a.float64s ?? [];
    case PdAttrType.VAR: return a.var_name ?? '';
    case PdAttrType.VARS: return a.vars_name ?? [];
    case PdAttrType.FLOAT64: return a.float64 ?? 0;
    case PdAttrType.SCALAR: return scalarValue(a.scalar);
    case PdAttrType.SCALARS: return (a.scalars ?? []).map(scalarValue);
    default: return undefined;
  }
}

/** One op being translated. */
export class OpCtx {
  readonly attrs = new Map<string, unknown>();
  constructor(readonly op: PdOpDesc, private readonly values: Map<string, TensorLike>) {
    for (const a of op.attrs ?? []) this.attrs.set(a.name, attrValue(a));
  }

  fail(msg: string): never { throw new OpTranslateError(msg); }

  /** Variable names of an input slot (empty if the slot is absent). */
  argNames(slot: string): string[] { return this.op.inputs?.find((v) => v.parameter === slot)?.arguments ?? []; }
  outNames(slot: string): string[] { return this.op.outputs?.find((v) => v.parameter === slot)?.arguments ?? []; }

  private value(name: string, slot: string): TensorLike {
    const v = this.values.get(name);
    if (!v) this.fail(`input ${slot} reads variable '${name}', which no earlier op (nor a feed or parameter) defines`);
    return v;
  }
  /** The single value of a required input slot. */
  in(slot: string): TensorLike {
    const n = this.argNames(slot);
    if (n.length !== 1) this.fail(`expects one variable in input ${slot}, got ${n.length}`);
    return this.value(n[0], slot);
  }
  /** An optional input slot's value, or null. */
  optIn(slot: string): TensorLike | null {
    const n = this.argNames(slot);
    if (n.length > 1) this.fail(`expects at most one variable in input ${slot}, got ${n.length}`);
    return n.length ? this.value(n[0], slot) : null;
  }
  /** All values of a (duplicable) input slot. */
  ins(slot: string): TensorLike[] {
    const n = this.argNames(slot);
    if (!n.length) this.fail(`input ${slot} is empty`);
    return n.map((x) => this.value(x, slot));
  }
  /** Refuses inputs the translation does not implement (tensor-valued attributes such as ShapeTensor). */
  noTensorInputs(...slots: string[]): void {
    for (const s of slots) if (this.argNames(s).length) this.fail(`input ${s} (a tensor-valued attribute) is not supported; only the attribute form is`);
  }

  /**
   * Binds output slot `slot` (its i-th variable) to v. An absent slot is skipped: auxiliary
   * outputs (XShape, Mask, MeanOut) are optional, and an unbound required output is reported
   * by whichever op or fetch reads it.
   */
  set(slot: string, v: TensorLike, i = 0): void {
    const n = this.outNames(slot);
    if (i < n.length) this.values.set(n[i], v);
  }
  /** Binds every variable of output slot `slot`, one value each. */
  setAll(slot: string, vs: readonly TensorLike[]): void {
    const n = this.outNames(slot);
    if (n.length !== vs.length) this.fail(`output ${slot} has ${n.length} variables, the op produces ${vs.length}`);
    n.forEach((name, i) => this.values.set(name, vs[i]));
  }

  has(name: string): boolean { return this.attrs.has(name); }
  int(name: string, def?: number): number {
    const v = this.attrs.get(name) ?? def;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) this.fail(`attribute '${name}' must be an integer, got ${JSON.stringify(v)}`);
    return v;
  }
  float(name: string, def?: number): number {
    const v = this.attrs.get(name) ?? def;
    if (typeof v !== 'number') this.fail(`attribute '${name}' must be a number, got ${JSON.stringify(v)}`);
    return v;
  }
  bool(name: string, def?: boolean): boolean {
    const v = this.attrs.get(name) ?? def;
    if (typeof v === 'number') return v !== 0;
    if (typeof v !== 'boolean') this.fail(`attribute '${name}' must be a boolean, got ${JSON.stringify(v)}`);
    return v;
  }
  str(name: string, def?: string): string {
    const v = this.attrs.get(name) ?? def;
    if (typeof v !== 'string') this.fail(`attribute '${name}' must be a string, got ${JSON.stringify(v)}`);
    return v;
  }
  ints(name: string, def?: number[]): number[] {
    const v = this.attrs.get(name) ?? def;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isSafeInteger(x))) this.fail(`attribute '${name}' must be a list of integers, got ${JSON.stringify(v)}`);
    return v as number[];
  }
  floats(name: string, def?: number[]): number[] {
    const v = this.attrs.get(name) ?? def;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) this.fail(`attribute '${name}' must be a list of numbers, got ${JSON.stringify(v)}`);
    return v as number[];
  }
  /** A VarType.Type attribute (cast's out_dtype, fill_constant's dtype) as a dtype. */
  dtype(name: string, def?: number): DType {
    const d = dtypeOfVarType(this.int(name, def));
    if (!d.includes(' ')) return d as DType;
    return this.fail(`attribute '${name}': ${d}`);
  }

  /**
   * Runs a registry op (recorded into the program when building one). Ops on parameters and
   * constants alone run eagerly while importing, so the inferred output sizes are checked first:
   * a hostile shape attribute must not reach the allocator.
   */
  run(name: string, inputs: readonly (TensorLike | null)[], attrs: Record<string, unknown> = {}): TensorLike[] {
    const def = getOp(name);
    const resolved = resolveAttrs(def, attrs);
    let metas: TensorMeta[];
    try {
      metas = def.infer(inputs as readonly TensorMeta[], resolved);
    } catch (e) {
      const msg = (e as Error).message;
      this.fail(msg.startsWith(name) ? msg : `${name}: ${msg}`);
    }
    for (const m of metas) {
      const n = m.shape.reduce<number>((a, d) => a * (typeof d === 'number' ? d : 1), 1) * (ITEMSIZE[m.dtype] ?? 8);
      if (n > MAX_VALUE_BYTES) this.fail(`${name} would produce ${m.dtype}[${m.shape.map(String).join(', ')}], more than ${MAX_VALUE_BYTES} bytes`);
    }
    return runOpDef(def, inputs, resolved);
  }
  run1(name: string, inputs: readonly (TensorLike | null)[], attrs: Record<string, unknown> = {}): TensorLike {
    return this.run(name, inputs, attrs)[0];
  }
}

/** Static size of dim d, or null when symbolic. */
export const staticDim = (d: Dim): number | null => (typeof d === 'number' ? d : null);

/** A legacy op translator. */
export type Translator = (c: OpCtx) => void;
