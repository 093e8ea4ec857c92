// The verifier: every op's structure against its kind (operand/attribute shape, registry infer
// re-run and compared with the declared result types), SSA dominance (a use comes after its
// definition in the same block, or inside an op that does), and block terminators.
// Checking mode (SKIFF_PIR_VERIFY=1 or setVerifyMode(true)) verifies each op as the Builder
// makes it and the whole program wherever a pass calls maybeVerify.
import './dialects/index.js';
import { BlockArgument, type Block, type Operation, type Program, type Value } from './core.js';
import { getDialect, InferMetaInterface, Terminator } from './opkind.js';
import { describeOp, Namer } from './printer.js';
import { typeCompatible, type Type } from './types.js';

export interface VerifyIssue {
  /** Pre-order index of the op in the program (module excluded); -1 for the module itself. */
  readonly index: number;
  readonly op: Operation;
  readonly message: string;
  /** The op's printed form (regions elided), with value names as in the printed program. */
  readonly text: string;
}

export class PirVerifyError extends Error {
  override name = 'PirVerifyError';
  constructor(readonly issues: readonly VerifyIssue[], label?: string) {
    super(`${label ? `${label}: ` : ''}PIR verification failed with ${issues.length} error(s):\n` +
      issues.slice(0, 20).map(formatIssue).join('\n') + (issues.length > 20 ? `\n  ... and ${issues.length - 20} more` : ''));
  }
}

export const formatIssue = (i: VerifyIssue): string =>
  `  op #${i.index} "${i.op.name}": ${i.message}\n    at: ${i.text}`;

let checking = process.env.SKIFF_PIR_VERIFY === '1';
/** Turns checking mode on or off; returns the previous setting. */
export function setVerifyMode(on: boolean): boolean { const p = checking; checking = on; return p; }
export const isVerifyMode = (): boolean => checking;

/** Verifies `p` when checking mode is on; passes call it after each transformation. */
export function maybeVerify(p: Program, label: string): void {
  if (checking) verify(p, label);
}

/** Throws PirVerifyError listing every problem in `p`. */
export function verify(p: Program, label?: string): void {
  const issues = verifyProgram(p);
  if (issues.length) throw new PirVerifyError(issues, label);
}

/** Every problem in `p` (empty when it is valid). */
export function verifyProgram(p: Program): VerifyIssue[] {
  const namer = Namer.forProgram(p);
  const issues: VerifyIssue[] = [];
  const position = new Map<Operation, number>();
  const indexOf = new Map<Operation, number>();
  let n = 0;
  p.walk((op) => { indexOf.set(op, n++); });
  const index = (b: Block): void => b.ops.forEach((op, i) => {
    position.set(op, i);
    for (const r of op.regions) for (const blk of r.blocks) index(blk);
  });
  index(p.block);

  const report = (op: Operation, msgs: readonly string[]): void => {
    for (const m of msgs) issues.push({ index: indexOf.get(op) ?? -1, op, message: m, text: describeOp(op, namer) });
  };
  report(p.module, localProblems(p.module));
  p.walk((op) => {
    report(op, localProblems(op));
    report(op, dominanceProblems(op, position, namer));
  });
  return issues;
}

/** Checks one op on its own (no dominance); throws naming it. The Builder calls this in checking mode. */
export function verifyOp(op: Operation): void {
  const msgs = localProblems(op);
  if (msgs.length) {
    const text = describeOp(op);
    throw new PirVerifyError(msgs.map((message) => ({ index: op.index, op, message, text })));
  }
}

/** Problems of `op` seen on its own: kind, counts, attributes, inferred types, terminators. */
function localProblems(op: Operation): string[] {
  const kind = op.kind;
  if (!kind.registered) {
    // Unknown dialects are allowed (parsed generically); unknown ops of a known dialect are not.
    return getDialect(kind.dialect) ? [`unknown op '${op.name}' in dialect '${kind.dialect}'`] : [];
  }
  const out: string[] = [];
  if (kind.numRegions !== undefined && op.regions.length !== kind.numRegions) {
    out.push(`expects ${kind.numRegions} region(s), got ${op.regions.length}`);
  }
  out.push(...(kind.verify?.(op) ?? []));
  if (!out.length) out.push(...inferProblems(op));
  if (op.hasTrait(Terminator) && op.parent && op.parent.lastOp !== op) out.push('a terminator must be the last op of its block');
  if (kind.requiresTerminator) {
    op.regions.forEach((r, ri) => r.blocks.forEach((b, bi) => {
      if (!b.lastOp?.hasTrait(Terminator)) out.push(`block ${bi} of region ${ri} does not end with a terminator`);
    }));
  }
  return out;
}

/** Re-runs the kind's infer-meta on the operand types and compares with the declared results. */
function inferProblems(op: Operation): string[] {
  const im = op.getInterface(InferMetaInterface);
  if (!im) return [];
  let inferred: Type[];
  try {
    inferred = im.inferTypes(op.operands.map((o) => o.value?.type ?? null), op.attributes);
  } catch (e) {
    return [`infer-meta rejects the operands: ${e instanceof Error ? e.message : String(e)}`];
  }
  if (inferred.length !== op.numResults) return [`infer-meta gives ${inferred.length} result(s), the op declares ${op.numResults}`];
  const out: string[] = [];
  // Data-dependent dims (OpDef.dynamicShape) are a fresh symbol per inference, so results never
  // match a re-inference; operands and attributes were still checked above.
  if (op.kind.def?.dynamicShape) return out;
  op.results.forEach((r, i) => {
    if (!typeCompatible(r.type, inferred[i])) out.push(`result ${i} has type ${String(r.type)} but infer-meta gives ${String(inferred[i])}`);
  });
  return out;
}

/** Uses of values that do not dominate `op` (SSA: defined earlier in an enclosing block). */
function dominanceProblems(op: Operation, position: ReadonlyMap<Operation, number>, namer: Namer): string[] {
  const out: string[] = [];
  op.operands.forEach((o, i) => {
    const v = o.value;
    if (!v) return;
    const why = notDominating(v, op, position);
    if (why) out.push(`operand ${i} (${namer.name(v)}) ${why}`);
  });
  return out;
}

function notDominating(v: Value, user: Operation, position: ReadonlyMap<Operation, number>): string | null {
  const home: Block | null = v instanceof BlockArgument ? v.owner : v.definingOp?.parent ?? null;
  if (!home) return v.definingOp ? `is defined by "${v.definingOp.name}", which is not in the program` : 'is not defined in the program';
  // The ancestor of `user` (or `user` itself) that sits directly in the defining block.
  let a: Operation | null = user;
  while (a && a.parent !== home) a = a.parentOp;
  if (!a) return 'is used outside the region that defines it';
  const def = v.definingOp;
  if (!def) return null;  // a block argument dominates its whole block
  if (def === a) return 'is used inside the op that defines it';
  const pd = position.get(def), pa = position.get(a);
  if (pd === undefined || pa === undefined) return 'is defined by an op outside the program';
  return pd < pa ? null : 'is used before its definition';
}
