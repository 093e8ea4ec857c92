// PatternRewriter and RewritePattern (MLIR's pattern rewriting, Paddle PIR's pattern_rewrite):
// a pattern looks at one root op and, when it matches, edits the program ONLY through the
// rewriter. Every edit goes through here so the greedy driver (greedy.ts) learns which ops
// were created, changed or erased and can revisit exactly the ops a rewrite may have affected.
import { Builder } from '../pir/builder.js';
import type { Operation, Program, Value } from '../pir/core.js';
import { Pure, ReadOnly, Terminator } from '../pir/opkind.js';
import type { TensorType } from '../pir/types.js';

/** What the driver wants to hear about edits (all optional). */
export interface RewriteListener {
  onInserted?(op: Operation): void;
  /** Called before the op is detached; its operands are still in place. */
  onErased?(op: Operation): void;
  /** An op whose operands or attributes changed in place, or a user of a replaced value. */
  onModified?(op: Operation): void;
}

/**
 * A Builder whose edits are reported to a listener. Patterns create ops with the Builder API
 * (`pd`, `pdOp`, `create`, `constant`) at the insertion point the driver sets (before the root).
 */
export class PatternRewriter extends Builder {
  /** Ops erased through this rewriter (a pattern must not touch them again). */
  private readonly erased = new WeakSet<Operation>();
  constructor(where: Program, readonly listener: RewriteListener = {}) { super(where); }

  override insert(op: Operation): Operation {
    super.insert(op);
    this.listener.onInserted?.(op);
    return op;
  }

  isErased(op: Operation): boolean { return this.erased.has(op); }

  /** Replaces every use of `from` with `to`; the users are reported as modified. */
  replaceAllUsesWith(from: Value, to: Value): void {
    if (from === to) return;
    const users = from.users;
    from.replaceAllUsesWith(to);
    for (const u of users) this.listener.onModified?.(u);
  }

  /** Replaces op's results (by values, or another op's results) and erases op. */
  replaceOp(op: Operation, values: readonly Value[] | Operation): void {
    const vs = Array.isArray(values) ? values : (values as Operation).results;
    if (vs.length !== op.numResults) throw new Error(`replaceOp: "${op.name}" has ${op.numResults} result(s), got ${vs.length} replacement(s)`);
    op.results.forEach((r, i) => this.replaceAllUsesWith(r, vs[i]));
    this.eraseOp(op);
  }

  /** Erases op (its results must be unused) and everything nested in it. */
  eraseOp(op: Operation): void {
    op.walk((o) => { this.listener.onErased?.(o); this.erased.add(o); });
    op.erase();
  }

  /** Changes an op in place (attributes, operands) inside `fn`, then reports it. */
  modifyOp(op: Operation, fn: () => void): void {
    fn();
    this.listener.onModified?.(op);
  }

  /** A splat constant of `type`, inserted at the insertion point. */
  splat(value: number | boolean, type: TensorType): Value { return this.constant(value, type); }
}

/** A rewrite rooted at one op. Written directly (classes/objects) or generated from DRR rules. */
export interface RewritePattern {
  readonly name: string;
  /** Full op names this pattern may match as root; undefined: any op (tried after the named ones). */
  readonly rootNames?: readonly string[];
  /** Patterns with higher benefit are tried first (default 1). */
  readonly benefit?: number;
  /**
   * Tries the rewrite at `op`. Returns true when it changed the program, false (with NO edits
   * made) when it does not match.
   */
  matchAndRewrite(op: Operation, rewriter: PatternRewriter): boolean;
}

/**
 * Whether `op` may be deleted when its results are unused: no side effects (Pure or ReadOnly),
 * not a terminator, no regions, at least one result, and not a feed (feeds are the program's
 * signature: dropping one would change what the caller must pass).
 */
export function isTriviallyDead(op: Operation): boolean {
  if (op.numResults === 0 || op.regions.length > 0) return false;
  if (op.name === 'pd_op.data' || op.hasTrait(Terminator)) return false;
  if (!op.hasTrait(Pure) && !op.hasTrait(ReadOnly)) return false;
  return op.results.every((r) => !r.hasUses);
}
