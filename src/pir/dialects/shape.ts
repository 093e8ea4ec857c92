// The shape dialect: constraints between the symbolic dims of a program, so one program serves
// every batch size / sequence length that satisfies them (Paddle's pir::shape dialect keeps the
// same facts as shape.tie_product_equal ops). One op kind, at the top level of a program:
//
//   () = "shape.tie_product_equal" () {lhs:shape[s0, s1], rhs:shape[s2]} : () -> ()
//
// says s0*s1 == s2; one dim per side is an equality (`lhs:shape[(s0+s1)], rhs:shape[s3]`).
// src/pir/symbolic_shapes.ts infers them from the ops; the executor checks them when a run
// binds the symbols. The ops have no results and no Pure trait, so DCE and CSE leave them.
import { Attr } from '../attributes.js';
import { type Program, Operation } from '../core.js';
import { defineOpKind, type OpKind, registerDialect, tableDialect } from '../opkind.js';
import type { ShapeConstraint } from '../../tensor/sym_expr.js';
import { symbolsOf } from '../../tensor/sym_expr.js';
import { UNKNOWN_DIM } from '../types.js';
import { checkAttr, checkCounts } from './builtin.js';

export const TIE_PRODUCT_EQUAL = 'shape.tie_product_equal';

export const tieProductEqualOp: OpKind = defineOpKind({
  name: TIE_PRODUCT_EQUAL,
  verify: (op) => {
    const out = [...checkCounts(op, 0, 0), ...checkAttr(op, 'lhs', ['shape']), ...checkAttr(op, 'rhs', ['shape'])];
    if (op.regions.length) out.push('takes no regions');
    if (op.parentOp && op.parentOp.name !== 'builtin.module') out.push('must be at the top level of the program');
    for (const k of ['lhs', 'rhs']) {
      const a = op.attr(k);
      if (a?.kind !== 'shape') continue;
      for (const d of a.value) {
        if (d === UNKNOWN_DIM) out.push(`${k} holds an unknown dim (?); constraints relate named symbols`);
        else if (typeof d === 'number' && (!Number.isInteger(d) || d < 0)) out.push(`${k} holds dim ${d}, not a size`);
        else {
          try { symbolsOf(d); } catch (e) { out.push(`${k}: ${(e as Error).message}`); }
        }
      }
    }
    return out;
  },
});

export const shapeDialect = registerDialect(tableDialect('shape', [tieProductEqualOp]));

/** The constraints a program records, in program order. */
export function shapeConstraintsOf(p: Program): ShapeConstraint[] {
  const out: ShapeConstraint[] = [];
  for (const op of p.block.ops) {
    if (op.name !== TIE_PRODUCT_EQUAL) continue;
    const l = op.attr('lhs'), r = op.attr('rhs');
    if (l?.kind === 'shape' && r?.kind === 'shape') out.push({ lhs: l.value, rhs: r.value });
  }
  return out;
}

/** Replaces the program's constraint ops by `cs`, placed first in the top-level block. */
export function setShapeConstraints(p: Program, cs: readonly ShapeConstraint[]): void {
  for (const op of [...p.block.ops]) if (op.name === TIE_PRODUCT_EQUAL) op.erase();
  const first = p.block.ops[0] ?? null;
  for (const c of cs) {
    p.block.insertBefore(new Operation(TIE_PRODUCT_EQUAL, [], [['lhs', Attr.shape(c.lhs)], ['rhs', Attr.shape(c.rhs)]], []), first);
  }
}
