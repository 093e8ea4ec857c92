// The control-flow graph of a code object at instruction granularity, for capturing branches on
// tensor values (capture_cf.ts): successors, immediate post-dominators (where the two sides of a
// branch meet again) and liveness of locals (which values the code after the merge still reads).
// Computed once per code object.
import type { Instruction } from '../bytecode/decode.js';
import type { CodeInfo } from './code.js';

const UNCONDITIONAL = new Set(['JUMP_FORWARD', 'JUMP_BACKWARD', 'JUMP_BACKWARD_NO_INTERRUPT', 'JUMP', 'JUMP_NO_INTERRUPT', 'JUMP_ABSOLUTE']);
const EXITS = new Set(['RETURN_VALUE', 'RETURN_CONST', 'RAISE_VARARGS', 'RERAISE']);
/** Instructions that read a local slot (arg) — the pair forms read two (handled below). */
const LOADS = new Set(['LOAD_FAST', 'LOAD_FAST_CHECK', 'LOAD_FAST_AND_CLEAR', 'LOAD_FAST_BORROW', 'DELETE_FAST', 'LOAD_CLOSURE', 'LOAD_DEREF', 'MAKE_CELL']);
const PAIR_LOADS = new Set(['LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW']);
const STORES = new Set(['STORE_FAST']);

export class CodeFlow {
  /** Successor instruction indices; `exit` (= instructions.length) is the virtual exit. */
  readonly succ: number[][];
  readonly exit: number;
  private ipdomCache = new Map<number, number | null>();
  private pdom: Uint32Array[] | null = null;

  constructor(readonly code: CodeInfo) {
    const ins = code.instructions;
    this.exit = ins.length;
    this.succ = ins.map((i) => successors(i, ins.length));
  }

  /** Post-dominator sets (bitsets over instructions + exit), by the iterative dataflow fixpoint. */
  private postDominators(): Uint32Array[] {
    if (this.pdom) return this.pdom;
    const n = this.exit + 1;
    const words = (n + 31) >>> 5;
    const full = new Uint32Array(words).fill(0xffffffff);
    const sets = Array.from({ length: n }, () => full.slice());
    sets[this.exit] = new Uint32Array(words);
    sets[this.exit][this.exit >>> 5] |= 1 << (this.exit & 31);
    let changed = true;
    while (changed) {
      changed = false;
      for (let i = this.exit - 1; i >= 0; i--) {
        const next = full.slice();
        const ss = this.succ[i];
        if (!ss.length) next.fill(0);   // unreachable end (should not happen): post-dominated by nothing
        for (const s of ss) for (let w = 0; w < words; w++) next[w] &= sets[s][w];
        next[i >>> 5] |= 1 << (i & 31);
        for (let w = 0; w < words; w++) if (next[w] !== sets[i][w]) { sets[i] = next; changed = true; break; }
      }
    }
    this.pdom = sets;
    return sets;
  }

  /**
   * Where the paths leaving instruction `i` all meet again: its immediate post-dominator (an
   * instruction index, `exit` when only returning ends them, null when unknown: no way out).
   */
  ipdom(i: number): number | null {
    if (this.ipdomCache.has(i)) return this.ipdomCache.get(i)!;
    const sets = this.postDominators();
    const has = (s: Uint32Array, k: number): boolean => (s[k >>> 5] & (1 << (k & 31))) !== 0;
    const mine = sets[i];
    let best: number | null = null;
    if (has(mine, this.exit)) {
      // Strict post-dominators form a chain; the immediate one is post-dominated by all others.
      const strict: number[] = [];
      for (let k = 0; k <= this.exit; k++) if (k !== i && has(mine, k)) strict.push(k);
      for (const p of strict) if (strict.every((q) => q === p || has(sets[p], q))) { best = p; break; }
    }
    this.ipdomCache.set(i, best);
    return best;
  }

  /** Where control really goes from `i`: through unconditional jumps and no-ops. */
  effective(i: number): number {
    const ins = this.code.instructions;
    for (let k = 0; k < 64 && i < this.exit; k++) {
      const x = ins[i];
      if (UNCONDITIONAL.has(x.opname)) i = x.jumpTarget;
      else if (x.opname === 'NOP' || x.opname === 'NOT_TAKEN') i++;
      else break;
    }
    return i;
  }

  /**
   * The conditional jumps that test the same loop condition as a test whose sides lead (in
   * effect) to `whenTrue` / `whenFalse`: CPython copies a while loop's test to the bottom of the
   * loop, and `continue` jumps to the top copy.
   */
  equivalentTests(whenTrue: number, whenFalse: number): Set<number> {
    const t = this.effective(whenTrue), f = this.effective(whenFalse);
    const out = new Set<number>();
    for (const x of this.code.instructions) {
      if (x.opname !== 'POP_JUMP_IF_TRUE' && x.opname !== 'POP_JUMP_IF_FALSE') continue;
      const taken = this.effective(x.jumpTarget), fall = this.effective(x.index + 1);
      const [a, b] = x.opname === 'POP_JUMP_IF_TRUE' ? [taken, fall] : [fall, taken];
      if (a === t && b === f) out.add(x.index);
    }
    return out;
  }

  /**
   * Whether conditional jump `at`, whose side `bodyStart` comes back to it, is a loop's test
   * rather than a branch inside the loop (an `if t: break`): its looping side enters a loop
   * header (the target of a backward jump; CPython's copy of a while test at the bottom of the
   * loop jumps there), or straight-line code from a header leads to it (the test at the top).
   */
  isLoopTest(at: number, bodyStart: number): boolean {
    const ins = this.code.instructions;
    const headers = new Set<number>();
    // (3.10/3.11 jump back conditionally from the bottom test: any backward jump counts)
    for (const x of ins) if (x.jumpTarget >= 0 && x.jumpTarget <= x.index) headers.add(x.jumpTarget);
    if (headers.has(this.effective(bodyStart))) return true;
    for (const h of headers) {
      let i = h;
      for (let k = 0; k < ins.length && i < this.exit; k++) {
        if (i === at) return true;
        const x = ins[i];
        if (x.opname.startsWith('POP_JUMP_IF') || this.succ[i].length !== 1) break;
        i = this.succ[i][0];
      }
    }
    return false;
  }

  /** Whether instruction `target` is reachable from `from` without passing through `avoid`. */
  reaches(from: number, target: number, avoid: number | null | ReadonlySet<number>): boolean {
    const seen = new Set<number>();
    const work = [from];
    const avoided = (i: number): boolean => (avoid instanceof Set ? avoid.has(i) : i === avoid);
    while (work.length) {
      const i = work.pop()!;
      if (i === target) return true;
      if (avoided(i) || i >= this.exit || seen.has(i)) continue;
      seen.add(i);
      work.push(...this.succ[i]);
    }
    return false;
  }

  /**
   * Whether local slot `slot` may be read on some path from instruction `from` before it is
   * stored again (conservative: any instruction reading the slot counts).
   */
  liveAt(slot: number, from: number): boolean {
    const ins = this.code.instructions;
    const seen = new Set<number>();
    const work = [from];
    while (work.length) {
      const i = work.pop()!;
      if (i >= this.exit || seen.has(i)) continue;
      seen.add(i);
      const x = ins[i];
      if (reads(x, slot)) return true;
      if (STORES.has(x.opname) && x.arg === slot) continue;
      if (x.opname === 'STORE_FAST_STORE_FAST' && ((x.arg >> 4) === slot || (x.arg & 15) === slot)) continue;
      work.push(...this.succ[i]);
    }
    return false;
  }
}

function reads(x: Instruction, slot: number): boolean {
  if (LOADS.has(x.opname)) return x.arg === slot;
  if (PAIR_LOADS.has(x.opname)) return (x.arg >> 4) === slot || (x.arg & 15) === slot;
  // STORE_FAST_LOAD_FAST stores arg>>4 and loads arg&15.
  if (x.opname === 'STORE_FAST_LOAD_FAST') return (x.arg & 15) === slot;
  return false;
}

function successors(i: Instruction, exit: number): number[] {
  if (EXITS.has(i.opname)) return [exit];
  if (UNCONDITIONAL.has(i.opname)) return [i.jumpTarget];
  const next = i.index + 1;
  if (i.jumpTarget >= 0) return next === i.jumpTarget ? [next] : [next, i.jumpTarget];
  return [next];
}

const flows = new WeakMap<CodeInfo, CodeFlow>();
export function codeFlow(code: CodeInfo): CodeFlow {
  let f = flows.get(code);
  if (!f) { f = new CodeFlow(code); flows.set(code, f); }
  return f;
}
