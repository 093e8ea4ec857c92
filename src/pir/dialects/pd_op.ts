// The pd_op dialect: one op kind per op-registry definition, derived on first lookup (so an op
// added to src/ops/defs is a PIR op with no edit here), its inplace variant `pd_op.<name>_`,
// and the program boundary ops pd_op.data (feed) and pd_op.fetch.
//
// Mapping of an OpDef onto an op (the same as Paddle's PIR):
//   operands   one per declared input, in order; a variadic input is ONE operand of vector type
//              (made by builtin.combine); an absent optional input is a null operand (`none`)
//   attributes one per declared attribute, in declaration order (registry values, see attributes.ts)
//   results    one tensor per inferred output; ops with `numOutputs` (split, unbind) have a single
//              vector result, unpacked by builtin.split
import '../../ops/defs/index.js';
import { getOp, hasOp, allOps } from '../../ops/registry.js';
import type { AttrValue, Attrs, OpDef, TensorMeta } from '../../ops/types.js';
import { attrFits, type AttributeMap, toAttrValue } from '../attributes.js';
import type { Operation, Value } from '../core.js';
import {
  defineOpKind, type Dialect, Inplace, InplaceInterface, type InterfaceKey, InferMetaInterface, type OpKind, Pure, Random, ReadOnly,
  registerDialect, VjpInterface,
} from '../opkind.js';
import { tensorType, type Type, UnknownDims, vectorType } from '../types.js';
import { checkAttr, checkCounts, checkTensors } from './builtin.js';

export const PD = 'pd_op';

/** Whether the op's outputs form one list (a vector result) rather than fixed results. */
export const hasListOutput = (def: OpDef): boolean => def.numOutputs !== undefined && def.outputs.length === 1;

/** Registry metas for the operand types of a pd op (vector operands flattened, like the dispatcher). */
function inputMetas(def: OpDef, operands: readonly (Type | null)[], unk: UnknownDims): (TensorMeta | null)[] {
  const where = `${PD}.${def.name}`;
  if (operands.length !== def.inputs.length) throw new TypeError(`${where}: expects ${def.inputs.length} operand(s), got ${operands.length}`);
  const metas: (TensorMeta | null)[] = [];
  const meta = (t: Type, what: string): TensorMeta => {
    if (t.kind !== 'tensor') throw new TypeError(`${where}: ${what} must be a tensor, got ${String(t)}`);
    return { dtype: t.dtype, shape: unk.lift(t.shape) };
  };
  def.inputs.forEach((spec, i) => {
    const t = operands[i];
    if (!t) {
      if (!spec.optional) throw new TypeError(`${where}: input '${spec.name}' (operand ${i}) is required`);
      metas.push(null);
    } else if (spec.variadic) {
      if (t.kind !== 'vector') throw new TypeError(`${where}: variadic input '${spec.name}' must be a vector (builtin.combine), got ${String(t)}`);
      t.elements.forEach((e, k) => metas.push(meta(e, `element ${k} of '${spec.name}'`)));
    } else metas.push(meta(t, `input '${spec.name}'`));
  });
  return metas;
}

/** Registry attribute values of a pd op's attributes (what OpDef.infer and encode read). */
export function attrValuesOf(def: OpDef, attrs: AttributeMap): Attrs {
  const where = `${PD}.${def.name}`;
  const out: Record<string, AttrValue> = {};
  for (const spec of def.attrs) {
    const a = attrs.get(spec.name);
    if (!a) throw new TypeError(`${where}: missing attribute '${spec.name}'`);
    out[spec.name] = toAttrValue(a, where);
  }
  return out;
}

/** Result types of `def` applied to operand types: the registry's infer over symbolic dims. */
export function inferPdTypes(def: OpDef, operands: readonly (Type | null)[], attrs: AttributeMap): Type[] {
  const unk = new UnknownDims();
  const metas = inputMetas(def, operands, unk);
  const values = attrValuesOf(def, attrs);
  let outs: TensorMeta[];
  try {
    outs = def.infer(metas as TensorMeta[], values);
  } catch (e) {
    if (e instanceof Error && !e.message.startsWith(def.name)) e.message = `${def.name}: ${e.message}`;
    throw e;
  }
  const types = outs.map((m) => tensorType(m.dtype, UnknownDims.lower(m.shape)));
  return hasListOutput(def) ? [vectorType(types)] : types;
}

/** Structural checks of a pd op against its definition (types are checked through infer). */
function verifyPd(def: OpDef, op: Operation): string[] {
  const out: string[] = [];
  if (op.numOperands !== def.inputs.length) {
    out.push(`expects ${def.inputs.length} operand(s) (${def.inputs.map((i) => i.name).join(', ') || 'none'}), got ${op.numOperands}`);
  } else {
    def.inputs.forEach((spec, i) => {
      const v = op.operand(i);
      if (!v && !spec.optional) out.push(`input '${spec.name}' (operand ${i}) is required`);
      if (v && spec.variadic && v.type.kind !== 'vector') out.push(`variadic input '${spec.name}' must be a vector, got ${String(v.type)}`);
      if (v && !spec.variadic && v.type.kind !== 'tensor') out.push(`input '${spec.name}' must be a tensor, got ${String(v.type)}`);
    });
  }
  for (const spec of def.attrs) {
    const a = op.attr(spec.name);
    if (!a) out.push(`missing attribute '${spec.name}'`);
    else if (!attrFits(spec, a)) out.push(`attribute '${spec.name}' (${spec.type}) cannot be ${a.kind}`);
  }
  for (const k of op.attributes.keys()) {
    if (!def.attrs.some((s) => s.name === k)) out.push(`unexpected attribute '${k}' (expected ${def.attrs.map((s) => s.name).join(', ') || 'none'})`);
  }
  return out;
}

function makeKind(def: OpDef, inplace: boolean): OpKind {
  const interfaces: [InterfaceKey<unknown>, unknown][] = [
    [InferMetaInterface, { inferTypes: (ts: readonly (Type | null)[], attrs: AttributeMap) => inferPdTypes(def, ts, attrs) }],
  ];
  if (def.grad && !inplace) interfaces.push([VjpInterface, { def, grad: def.grad }]);
  if (inplace) interfaces.push([InplaceInterface, { functional: `${PD}.${def.name}`, aliases: [[0, 0]] }]);
  return defineOpKind({
    name: `${PD}.${def.name}${inplace ? '_' : ''}`,
    def,
    traits: inplace ? [Inplace] : def.random ? [Random] : [Pure],
    interfaces,
    numRegions: 0,
    verify: (op) => verifyPd(def, op),
  });
}

/** A feed: the program input `name`, with its (possibly symbolic) shape and dtype. */
export const dataOp = defineOpKind({
  name: `${PD}.data`,
  traits: [ReadOnly],
  interfaces: [[InferMetaInterface, {
    inferTypes: (_ts: readonly (Type | null)[], attrs: AttributeMap) => {
      const s = attrs.get('shape'), d = attrs.get('dtype');
      if (s?.kind !== 'shape' && s?.kind !== 'ints') throw new TypeError(`${PD}.data: attribute 'shape' must be a shape`);
      if (d?.kind !== 'dtype') throw new TypeError(`${PD}.data: attribute 'dtype' must be a dtype`);
      return [tensorType(d.value, s.value)];
    },
  }]],
  verify: (op) => [...checkCounts(op, 0, 1), ...checkAttr(op, 'name', ['str']), ...checkAttr(op, 'shape', ['shape', 'ints']),
    ...checkAttr(op, 'dtype', ['dtype']), ...checkTensors(op)],
});

/** A program output: the value is returned as fetch column `col` under `name`. */
export const fetchOp = defineOpKind({
  name: `${PD}.fetch`,
  verify: (op) => [...checkCounts(op, 1, 0), ...checkAttr(op, 'name', ['str']), ...checkAttr(op, 'col', ['int']), ...checkTensors(op)],
});

const SPECIAL = new Map<string, OpKind>([[dataOp.name, dataOp], [fetchOp.name, fetchOp]]);
/** Adds a pd_op kind that has no registry definition (control flow: pd_op.if, pd_op.while). */
export function registerPdKind(kind: OpKind): void { SPECIAL.set(kind.name, kind); }
const kinds = new WeakMap<OpDef, OpKind>();
const inplaceKinds = new WeakMap<OpDef, OpKind>();

/** The pd_op kind of a registry definition (built once per def). */
export function pdKind(def: OpDef, inplace = false): OpKind {
  const cache = inplace ? inplaceKinds : kinds;
  let k = cache.get(def);
  if (!k) { k = makeKind(def, inplace); cache.set(def, k); }
  return k;
}

export const pdDialect: Dialect = registerDialect({
  name: PD,
  lookup(full) {
    const special = SPECIAL.get(full);
    if (special) return special;
    const n = full.slice(PD.length + 1);
    if (hasOp(n)) return pdKind(getOp(n));
    if (n.endsWith('_')) {
      const base = n.slice(0, -1);
      if (hasOp(base) && getOp(base).inplace) return pdKind(getOp(base), true);
    }
    return undefined;
  },
  *ops() {
    yield* SPECIAL.values();
    for (const def of allOps()) {
      yield pdKind(def);
      if (def.inplace && !hasOp(`${def.name}_`)) yield pdKind(def, true);
    }
  },
});

/** The registry attribute values of a pd op (for encodeAttrs and kernels). */
export function pdAttrs(op: Operation): Attrs {
  const def = op.def;
  if (!def) throw new TypeError(`"${op.name}" is not a registry op`);
  return attrValuesOf(def, op.attributes);
}

/**
 * The operands of a pd op flattened the way the eager dispatcher passes inputs: a variadic
 * operand made by builtin.combine becomes its elements; absent optionals stay null.
 */
export function flatInputs(op: Operation): (Value | null)[] {
  const def = op.def;
  if (!def) throw new TypeError(`"${op.name}" is not a registry op`);
  const out: (Value | null)[] = [];
  def.inputs.forEach((spec, i) => {
    const v = op.operand(i);
    if (spec.variadic && v) {
      const src = v.definingOp;
      if (src?.name !== 'builtin.combine') throw new TypeError(`${op.name}: variadic input '${spec.name}' does not come from builtin.combine`);
      out.push(...src.operandValues());
    } else out.push(v);
  });
  return out;
}
