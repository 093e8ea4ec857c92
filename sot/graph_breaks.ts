// The catalogue of graph breaks and fallbacks. Every break the translator takes has a stable
// code from this table; tests assert on codes, users read the meaning and the hint.
// Codes never change meaning; retired codes stay reserved.
import type { Variable } from './variables.js';

export interface BreakKind {
  readonly code: string;
  readonly meaning: string;
  readonly hint: string;
  /** 'break': the graph is split and translation resumes after the step. 'fallback': the frame runs eagerly. */
  readonly effect: 'break' | 'fallback';
}

const kinds = [
  { code: 'SOT001', effect: 'break', meaning: 'branch on the value of a tensor', hint: 'compare shapes or Python values instead, or use paddle.where / paddle.static.nn.cond' },
  { code: 'SOT002', effect: 'break', meaning: 'tensor converted to a Python value (.item(), .tolist(), int(t), float(t), bool(t))', hint: 'keep the value as a tensor; each distinct value also specialises the graph' },
  { code: 'SOT003', effect: 'break', meaning: '.numpy() on a tensor', hint: 'move NumPy work outside the function passed to to_static' },
  { code: 'SOT004', effect: 'break', meaning: 'print() of values', hint: 'printing runs eagerly between graphs; remove it from hot code' },
  { code: 'SOT005', effect: 'break', meaning: 'call of a function the translator cannot see into (C function, builtin without a model)', hint: 'the call runs concretely; wrap pure tensor code in paddle APIs to keep it in the graph' },
  { code: 'SOT006', effect: 'break', meaning: 'inlined call broke; the whole call runs concretely', hint: 'see the inner break reported after this one' },
  { code: 'SOT007', effect: 'break', meaning: 'unsupported operation on a value (the step runs concretely)', hint: 'the value is opaque to the translator' },
  { code: 'SOT008', effect: 'break', meaning: 'tensor shape used as a data-dependent value', hint: 'use paddle.shape(x) to keep the shape in the graph' },
  { code: 'SOT009', effect: 'break', meaning: 'iteration over a tensor or an unknown iterator', hint: 'iterate over Python ranges or lists' },
  { code: 'SOT010', effect: 'break', meaning: 'random Python API (random.*) is not captured', hint: 'use paddle random ops' },
  { code: 'SOT011', effect: 'break', meaning: 'paddle API without a graph form', hint: 'the API runs eagerly' },
  // Control-flow capture (frontend/python/sot/capture_cf.ts) refused: the branch breaks as SOT001 would.
  { code: 'SOT013', effect: 'break', meaning: 'captured branch: a variable is bound in only one side and used after it, or a Python value differs between the sides', hint: 'bind the variable on both sides to tensors, or keep Python values equal on both sides' },
  { code: 'SOT014', effect: 'break', meaning: 'captured branch or loop: a tensor has a different shape or dtype per side (or across a loop iteration)', hint: 'make both sides produce the same shape and dtype (paddle.where, padding, cast)' },
  { code: 'SOT015', effect: 'break', meaning: 'captured branch or loop: Python side effect inside (attribute/global/container write, inplace write, print)', hint: 'move side effects out of the tensor-conditioned code' },
  { code: 'SOT016', effect: 'break', meaning: 'captured branch or loop: its code cannot be captured (a graph break inside, an exit from it that is not modelled, a condition that is not one element)', hint: 'see the detail; the branch runs concretely' },
  // paddle.jit.sot.psdb and paddle.jit.sot.utils.paddle_api_config (Paddle's debugging helpers)
  { code: 'SOT020', effect: 'break', meaning: 'forced graph break: psdb.breakgraph(), an API registered with add_break_graph_apis, or a not_to_static function', hint: 'the call runs concretely; remove the marker to capture it' },
  { code: 'SOT012', effect: 'break', meaning: 'raise (or __exit__ with an exception) runs as a concrete step', hint: 'a handler in the translated function continues from the exception; keep raising off hot paths' },
  { code: 'SOT120', effect: 'fallback', meaning: 'psdb.fallback(recursive=True) requested plain Python for the function and its callees', hint: 'remove the psdb.fallback() call to translate the function' },
  { code: 'SOT121', effect: 'fallback', meaning: 'psdb.fallback() requested plain Python for the function; the functions it calls through its globals are still translated (non-recursive, as in Paddle)', hint: 'remove the psdb.fallback() call to translate the function' },
  { code: 'SOT030', effect: 'break', meaning: 'NumPy computing on an ndarray (a numpy function, an ndarray method or attribute other than shape/ndim/size/dtype, an operator with the array on the left or a comparison)', hint: 'convert once with paddle.to_tensor(arr) and use paddle ops; `tensor + arr` and to_tensor(arr) are captured' },
  { code: 'SOT025', effect: 'break', meaning: 'PyLayer.apply: forward is captured in the graph, its Python backward is attached by a concrete step after it', hint: 'code after apply continues in a new graph; backward runs the user backward between the two graphs' },
  { code: 'SOT101', effect: 'fallback', meaning: 'code object uses an opcode Skiff does not simulate (try/with/yield/async/...)', hint: 'the function runs as plain Python; move tensor code into a helper function to capture it' },
  { code: 'SOT102', effect: 'fallback', meaning: 'frame introspection (locals(), vars(), sys._getframe, exec, eval)', hint: 'the function runs as plain Python' },
  { code: 'SOT103', effect: 'fallback', meaning: 'trace tree exceeded its node limit', hint: 'too many distinct paths; the function now runs as plain Python' },
  { code: 'SOT104', effect: 'fallback', meaning: 'too many translations of one code object (a guard keeps failing)', hint: 'see the warning naming the guard; mark dynamic values as tensors' },
  { code: 'SOT105', effect: 'fallback', meaning: 'internal translator error', hint: 'please report it with SOT_LOG_LEVEL=3 output; results are still correct (eager)' },
  { code: 'SOT106', effect: 'fallback', meaning: 'generator or coroutine function', hint: 'generators run as plain Python' },
  // JavaScript frontend (frontend/js): a closure's environment has no runtime handle.
  { code: 'SOT107', effect: 'fallback', meaning: 'free variable of a JS function cannot be resolved', hint: 'build with the skiff esbuild/vite plugin, or pass the value with to_static(fn, { scope: { name: value } })' },
] as const satisfies readonly BreakKind[];

export type BreakCode = (typeof kinds)[number]['code'];
export const BREAKS: ReadonlyMap<BreakCode, BreakKind> = new Map(kinds.map((k) => [k.code, k]));

/** A break that happened: its code, where, and a short detail. */
export interface BreakEvent {
  readonly code: BreakCode;
  readonly file: string;
  readonly line: number;
  readonly sourceLine?: string;
  readonly detail: string;
  /** The simulated call stack at the break, outermost first (inlined calls included). */
  readonly frames?: readonly { readonly file: string; readonly line: number; readonly name: string }[];
  /**
   * Index in `frames` of the innermost frame this segment resumed (rebuilt from its entry): the
   * frames from there on are what Paddle, which translates each resumed frame as a function of
   * its own, shows as the simulated stack of an error ("In simulate execution").
   */
  readonly segmentFrom?: number;
}

/**
 * Raised inside the translator to split the graph (or fall back) at the current instruction.
 * With `raise`, the user's code raises that exception at this instruction (an unbound local, a
 * missing name): the concrete step raises it, with the user's line.
 */
export class GraphBreak extends Error {
  constructor(
    readonly code: BreakCode, readonly detail: string, readonly raise?: { readonly type: string; readonly message: string },
    /**
     * The instruction's captured work is kept and only its last part runs concretely: `opname`
     * on `operands` (values the instruction computed), in place of the whole instruction. E.g. a
     * comparison that must become a Python bool: the comparison stays in the graph, bool() is the step.
     */
    readonly then?: { readonly opname: string; readonly operands: readonly Variable[] },
  ) {
    super(`${code}: ${BREAKS.get(code)!.meaning}: ${detail}`);
    this.name = 'GraphBreak';
  }
  get kind(): BreakKind { return BREAKS.get(this.code)!; }
  /**
   * The instruction raises a Python exception of the user's program when it runs (a missing dict
   * key, an index out of range): the step is where the user's exception happens, not a failure to
   * capture (psdb.check_no_breakgraph lets it through).
   */
  pyRaises = false;
}

/** A break whose concrete step raises the user's own exception (see GraphBreak.pyRaises). */
export function userRaise(code: BreakCode, detail: string): GraphBreak {
  const e = new GraphBreak(code, detail);
  e.pyRaises = true;
  return e;
}

export const breakKind = (code: BreakCode): BreakKind => BREAKS.get(code)!;
