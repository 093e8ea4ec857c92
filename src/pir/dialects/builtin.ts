// The builtin dialect: program structure (module, yield), persistable state (parameter,
// set_parameter), compile-time data (constant), lists of values for variadic inputs and
// outputs (combine, split), and calls back into TypeScript (host_call).
import type { Attribute, AttributeMap } from '../attributes.js';
import type { Operation } from '../core.js';
import {
  ConstantLike, defineOpKind, type InferMeta, InferMetaInterface, type OpKind, Pure, ReadOnly, registerDialect, tableDialect, Terminator,
} from '../opkind.js';
import { isFloating } from '../../tensor/dtype.js';
import { type Type, vectorType } from '../types.js';

// ---- small checks shared by the dialects ----

/** Problems with the operand/result counts of `op`. */
export function checkCounts(op: Operation, operands: number | null, results: number | null): string[] {
  const out: string[] = [];
  if (operands !== null && op.numOperands !== operands) out.push(`expects ${operands} operand(s), got ${op.numOperands}`);
  if (results !== null && op.numResults !== results) out.push(`expects ${results} result(s), got ${op.numResults}`);
  return out;
}

/** Problems with attribute `name`: missing, or not one of `kinds`. */
export function checkAttr(op: Operation, name: string, kinds: readonly Attribute['kind'][]): string[] {
  const a = op.attr(name);
  if (!a) return [`missing attribute '${name}'`];
  return kinds.includes(a.kind) ? [] : [`attribute '${name}' must be ${kinds.join(' or ')}, got ${a.kind}`];
}

/** Problems when some operand is absent or the result is not a tensor. */
export function checkTensors(op: Operation): string[] {
  const out: string[] = [];
  op.operands.forEach((o, i) => { if (!o.value) out.push(`operand ${i} is absent`); });
  op.results.forEach((r, i) => { if (r.type.kind !== 'tensor') out.push(`result ${i} must be a tensor, got ${String(r.type)}`); });
  return out;
}

const infer = (f: InferMeta['inferTypes']): readonly [typeof InferMetaInterface, InferMeta] => [InferMetaInterface, { inferTypes: f }];

// ---- op kinds ----

export const moduleOp = defineOpKind({
  name: 'builtin.module',
  numRegions: 1,
  verify: (op) => {
    const out = checkCounts(op, 0, 0);
    if (op.parentOp || op.parent) out.push('must be the top-level op of a program');
    const blocks = op.regions[0]?.blocks ?? [];
    if (blocks.length !== 1) out.push(`its region must hold exactly one block, got ${blocks.length}`);
    else if (blocks[0].args.length) out.push('its block takes no arguments');
    return out;
  },
});

/** A persistable named tensor (weights, batch-norm statistics), loaded from the scope by name. */
export const parameterOp = defineOpKind({
  name: 'builtin.parameter',
  traits: [ReadOnly],
  verify: (op) => [...checkCounts(op, 0, 1), ...checkAttr(op, 'parameter_name', ['str']), ...checkTensors(op)],
});

/** Writes a new value of a persistable (optimizer updates, batch-norm running stats). */
export const setParameterOp = defineOpKind({
  name: 'builtin.set_parameter',
  verify: (op) => [...checkCounts(op, 1, 0), ...checkAttr(op, 'parameter_name', ['str']), ...checkTensors(op)],
});

/** Compile-time tensor: `value` is a scalar (splat) or a flat row-major int/float array. */
export const constantOp = defineOpKind({
  name: 'builtin.constant',
  traits: [Pure, ConstantLike],
  verify: (op) => {
    const out = [...checkCounts(op, 0, 1), ...checkAttr(op, 'value', ['int', 'float', 'bool', 'ints', 'floats']), ...checkTensors(op)];
    const v = op.attr('value');
    const t = op.results[0]?.type;
    if (out.length || !v || t?.kind !== 'tensor') return out;
    if (v.kind === 'ints' || v.kind === 'floats') {
      if (!t.isStatic) out.push(`a dense value needs a static result shape, got ${String(t)}`);
      else {
        const n = (t.shape as number[]).reduce((a, b) => a * b, 1);
        if (v.value.length !== n) out.push(`value holds ${v.value.length} element(s) but ${String(t)} has ${n}`);
      }
      if (v.kind === 'floats' && !isFloating(t.dtype)) out.push(`float values for an ${t.dtype} constant`);
    }
    return out;
  },
});

/** Packs values into one vector value (the operand of a variadic input, like Paddle). */
export const combineOp = defineOpKind({
  name: 'builtin.combine',
  traits: [Pure],
  interfaces: [infer((ts) => {
    ts.forEach((t, i) => { if (!t) throw new TypeError(`builtin.combine: operand ${i} is absent`); });
    return [vectorType(ts as Type[])];
  })],
  verify: (op) => checkCounts(op, null, 1),
});

/** Unpacks a vector value (the list output of split/unbind) into one result per element. */
export const splitOp = defineOpKind({
  name: 'builtin.split',
  traits: [Pure],
  interfaces: [infer(([t]) => {
    if (!t || t.kind !== 'vector') throw new TypeError(`builtin.split: operand must be a vector, got ${String(t)}`);
    return [...t.elements];
  })],
  verify: (op) => checkCounts(op, 1, null),
});

/**
 * Calls back into TypeScript at run time: `callee` names a function the caller hands to the
 * executor (its host functions), applied to the operands; it returns tensors of the result types.
 */
export const hostCallOp = defineOpKind({
  name: 'builtin.host_call',
  verify: (op) => checkAttr(op, 'callee', ['str']),
});

/** Ends a block inside a region; its operands are the region's results (for control-flow ops). */
export const yieldOp = defineOpKind({ name: 'builtin.yield', traits: [Pure, Terminator] });

export const BUILTIN_KINDS: readonly OpKind[] = [moduleOp, parameterOp, setParameterOp, constantOp, combineOp, splitOp, hostCallOp, yieldOp];
export const builtinDialect = registerDialect(tableDialect('builtin', BUILTIN_KINDS));

/** Value of attribute `name` as a string (for ops whose verifier guarantees it). */
export function strAttr(attrs: AttributeMap, name: string): string {
  const a = attrs.get(name);
  if (a?.kind !== 'str') throw new TypeError(`attribute '${name}' must be a string`);
  return a.value;
}
