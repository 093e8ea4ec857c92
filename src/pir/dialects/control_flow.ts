// Control flow in the pd_op dialect (as in Paddle's PIR):
//
//   (%r...) = "pd_op.if" (%cond) {} ({ ^bb0: ... "builtin.yield" (%a...) }, { ^bb0: ... "builtin.yield" (%b...) })
//   (%r...) = "pd_op.while" (%cond, %init...) {} ({ ^bb0(%v...): ... "builtin.yield" (%next_cond, %next...) })
//
// `if` runs its then region (0) when the one-element bool %cond is true, else region 1; each
// yields the op's results. `while` carries values: while %cond holds, the body runs on the
// current values (its block arguments) and yields the next condition and the next values; the
// results are the values when the condition fails (the inits when it never held). Regions may
// use values of enclosing blocks directly (implicit capture, as in MLIR and Paddle); loop-carried
// values must keep their types.
import type { Block, Operation, Value } from '../core.js';
import { defineOpKind, type OpKind } from '../opkind.js';
import { typeCompatible, type Type } from '../types.js';
import { registerPdKind } from './pd_op.js';

export const IF = 'pd_op.if';
export const WHILE = 'pd_op.while';

/** Problems when `t` is not a one-element bool tensor (a branch or loop condition). */
function condProblems(t: Type | null | undefined, what: string): string[] {
  if (!t || t.kind !== 'tensor' || t.dtype !== 'bool') return [`${what} must be a bool tensor, got ${t ? String(t) : 'none'}`];
  if (!(t.rank === 0 || (t.rank === 1 && t.shape[0] === 1))) return [`${what} must hold one element (shape [] or [1]), got ${String(t)}`];
  return [];
}

/** The single block of region `i`, or a problem. */
function soleBlock(op: Operation, i: number, label: string, out: string[]): Block | null {
  const blocks = op.regions[i]?.blocks ?? [];
  if (blocks.length !== 1) { out.push(`the ${label} region must hold exactly one block, got ${blocks.length}`); return null; }
  return blocks[0];
}

/** The operands of a block's terminating builtin.yield (null when it has none). */
export function yieldedValues(block: Block): (Value | null)[] | null {
  const t = block.lastOp;
  return t?.name === 'builtin.yield' ? t.operandValues() : null;
}

function matchTypes(got: readonly (Value | null)[], want: readonly Type[], what: string, out: string[]): void {
  if (got.length !== want.length) { out.push(`${what} yields ${got.length} value(s), expected ${want.length}`); return; }
  got.forEach((v, i) => {
    if (!v) out.push(`${what} yields an absent value at ${i}`);
    else if (!typeCompatible(want[i], v.type) && !typeCompatible(v.type, want[i])) out.push(`${what} yields ${String(v.type)} at ${i}, expected ${String(want[i])}`);
  });
}

export const ifOp: OpKind = defineOpKind({
  name: IF,
  numRegions: 2,
  requiresTerminator: true,
  verify: (op) => {
    const out: string[] = [];
    if (op.numOperands !== 1) out.push(`expects 1 operand (the condition), got ${op.numOperands}`);
    else out.push(...condProblems(op.operand(0)?.type, 'the condition'));
    const types = op.results.map((r) => r.type);
    ['then', 'else'].forEach((label, i) => {
      const b = soleBlock(op, i, label, out);
      if (!b) return;
      if (b.args.length) out.push(`the ${label} block takes no arguments`);
      const ys = yieldedValues(b);
      if (ys) matchTypes(ys, types, `the ${label} region`, out);
    });
    return out;
  },
});

export const whileOp: OpKind = defineOpKind({
  name: WHILE,
  numRegions: 1,
  requiresTerminator: true,
  verify: (op) => {
    const out: string[] = [];
    if (op.numOperands < 1) return ['expects the condition and the initial loop values as operands'];
    out.push(...condProblems(op.operand(0)?.type, 'the condition'));
    const inits = op.operandValues().slice(1);
    const types = inits.map((v) => v?.type ?? null);
    if (types.some((t) => !t)) out.push('an initial loop value is absent');
    if (op.numResults !== inits.length) out.push(`declares ${op.numResults} result(s) for ${inits.length} loop value(s)`);
    else op.results.forEach((r, i) => { if (types[i] && !typeCompatible(r.type, types[i]!)) out.push(`result ${i} has type ${String(r.type)}, loop value ${i} is ${String(types[i])}`); });
    const b = soleBlock(op, 0, 'body', out);
    if (!b || types.some((t) => !t)) return out;
    if (b.args.length !== inits.length) out.push(`the body block takes ${b.args.length} argument(s) for ${inits.length} loop value(s)`);
    else b.args.forEach((a, i) => { if (!typeCompatible(a.type, types[i]!) && !typeCompatible(types[i]!, a.type)) out.push(`body argument ${i} has type ${String(a.type)}, loop value ${i} is ${String(types[i])}`); });
    const ys = yieldedValues(b);
    if (ys) {
      if (ys.length !== inits.length + 1) out.push(`the body yields ${ys.length} value(s), expected the next condition and ${inits.length} loop value(s)`);
      else {
        out.push(...condProblems(ys[0]?.type, 'the next condition'));
        matchTypes(ys.slice(1), types as Type[], 'the body', out);
      }
    }
    return out;
  },
});

registerPdKind(ifOp);
registerPdKind(whileOp);

/**
 * Values that ops inside `op`'s regions use but that are defined outside `op` (implicit
 * captures), in first-use order. They are inputs of the region op for execution and autodiff.
 */
export function capturedValues(op: Operation): Value[] {
  const inside = new Set<Value>();
  const out: Value[] = [];
  const seen = new Set<Value>();
  const visit = (o: Operation): void => {
    for (const r of o.regions) for (const b of r.blocks) {
      for (const a of b.args) inside.add(a);
      for (const x of b.ops) {
        for (const v of x.operandValues()) if (v && !inside.has(v) && !seen.has(v)) { seen.add(v); out.push(v); }
        for (const res of x.results) inside.add(res);
        visit(x);
      }
    }
  };
  visit(op);
  // A value defined later inside the region but used earlier cannot happen in verified IR;
  // filter anything defined inside after all, to be safe with unverified input.
  return out.filter((v) => !inside.has(v));
}
