// The greedy pattern driver (MLIR's applyPatternsGreedily): a worklist of ops; each popped op
// is erased when trivially dead, otherwise its patterns are tried in benefit order. After a
// rewrite, the ops it touched (new ops, users of replaced values, defining ops of the old
// operands, which may have just become dead) go back on the worklist. A sweep ends when the
// worklist is empty; sweeps repeat until one changes nothing (the fixed point). Both the number
// of sweeps and the rewrites within a sweep are capped, so patterns that undo each other end
// with a GreedyRewriteError naming them instead of looping forever.
import type { Operation, Program } from '../pir/core.js';
import { isTriviallyDead, PatternRewriter, type RewritePattern } from './rewriter.js';

export interface GreedyOptions {
  /** Sweeps over the whole program before giving up (default 10). */
  maxIterations?: number;
  /** Rewrites allowed in one sweep (default 1000 + 20 per op). */
  maxRewritesPerIteration?: number;
  /** Erase trivially dead ops met on the worklist (default true). */
  eraseDeadOps?: boolean;
}

export interface GreedyResult {
  /** Successful pattern applications. */
  rewrites: number;
  /** Ops erased because they became dead. */
  erasedDead: number;
  /** Sweeps run (the last one changed nothing). */
  iterations: number;
  /** Applications per pattern name. */
  byPattern: Map<string, number>;
}

export class GreedyRewriteError extends Error {
  override name = 'GreedyRewriteError';
}

/** Patterns grouped by root op name, each list by decreasing benefit; stable for equal benefits. */
export class FrozenPatternSet {
  private readonly byRoot = new Map<string, RewritePattern[]>();
  private readonly any: RewritePattern[];
  constructor(readonly patterns: readonly RewritePattern[]) {
    const sorted = [...patterns].sort((a, b) => (b.benefit ?? 1) - (a.benefit ?? 1));
    for (const p of sorted) for (const n of p.rootNames ?? []) {
      let l = this.byRoot.get(n);
      if (!l) this.byRoot.set(n, (l = []));
      l.push(p);
    }
    this.any = sorted.filter((p) => !p.rootNames);
  }
  forOp(name: string): readonly RewritePattern[] {
    const l = this.byRoot.get(name);
    return l ? (this.any.length ? [...l, ...this.any] : l) : this.any;
  }
}

/** Applies `patterns` to `program` until nothing matches. Throws GreedyRewriteError when it does not converge. */
export function applyPatternsGreedily(program: Program, patterns: readonly RewritePattern[] | FrozenPatternSet, opts: GreedyOptions = {}): GreedyResult {
  const set = patterns instanceof FrozenPatternSet ? patterns : new FrozenPatternSet(patterns);
  const maxIter = opts.maxIterations ?? 10;
  const eraseDead = opts.eraseDeadOps ?? true;
  const result: GreedyResult = { rewrites: 0, erasedDead: 0, iterations: 0, byPattern: new Map() };

  // The worklist is a stack with a membership set (MLIR pops from the back too); ops are pushed
  // in reverse pre-order at the start of a sweep, so they are first visited in program order.
  let work: Operation[] = [];
  const inWork = new Set<Operation>();
  const push = (op: Operation | null): void => {
    if (op && !inWork.has(op) && op.name !== 'builtin.module') { inWork.add(op); work.push(op); }
  };
  const rewriter = new PatternRewriter(program, {
    onInserted: (op) => push(op),
    onModified: (op) => push(op),
    onErased: (op) => {
      // Defining ops of the erased op's operands may now be dead.
      for (const v of op.operandValues()) push(v?.definingOp ?? null);
      inWork.delete(op);
    },
  });

  for (let iter = 1; iter <= maxIter; iter++) {
    result.iterations = iter;
    work = program.allOps().reverse();
    inWork.clear();
    for (const op of work) inWork.add(op);
    const cap = opts.maxRewritesPerIteration ?? 1000 + 20 * work.length;
    let changed = false, rewritesThisSweep = 0;
    const recent: string[] = [];
    while (work.length) {
      const op = work.pop()!;
      if (!inWork.delete(op)) continue;  // erased meanwhile
      if (rewriter.isErased(op) || !op.parent) continue;
      if (eraseDead && isTriviallyDead(op)) {
        rewriter.eraseOp(op);
        result.erasedDead++;
        changed = true;
        continue;
      }
      for (const p of set.forOp(op.name)) {
        rewriter.setInsertionPointBefore(op);
        if (!p.matchAndRewrite(op, rewriter)) continue;
        result.rewrites++;
        result.byPattern.set(p.name, (result.byPattern.get(p.name) ?? 0) + 1);
        changed = true;
        recent.push(p.name);
        if (recent.length > 8) recent.shift();
        if (++rewritesThisSweep > cap) {
          throw new GreedyRewriteError(`pattern rewriting did not converge: more than ${cap} rewrites in sweep ${iter} ` +
            `(last patterns applied: ${recent.join(', ')}); some patterns probably undo each other`);
        }
        // The root may have been changed in place rather than replaced: look at it again.
        if (!rewriter.isErased(op) && op.parent) push(op);
        break;
      }
    }
    if (!changed) return result;
  }
  throw new GreedyRewriteError(`pattern rewriting did not converge within ${maxIter} iterations ` +
    `(${result.rewrites} rewrites; by pattern: ${[...result.byPattern].map(([n, c]) => `${n} x${c}`).join(', ')})`);
}
