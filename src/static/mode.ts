// Static mode: paddle.enable_static / disable_static / in_dynamic_mode, program_guard, and the
// recorder that turns public API calls on program values into pd ops.
//
// The rule the recorder follows: an op with at least one program value among its inputs is
// recorded into the current program; any other op (all inputs eager tensors, or none, as for
// creation ops) runs eagerly as usual. Eager tensors a recorded op consumes are captured into
// the program (Program.lift). So code that mixes layers' eager parameters, scalars and
// paddle.static values builds the same program in TypeScript and through the Python bridge,
// and parameters are initialized eagerly when created. One consequence: creation ops without
// program inputs (paddle.zeros, paddle.rand) are computed once, while building.
import { runOpDef, getStaticRecorder, setStaticRecorder, type StaticRecorder, type TensorLike } from '../ops/dispatch.js';
import type { Attrs, OpDef, TensorMeta } from '../ops/types.js';
import { hasListOutput, Value } from '../pir/index.js';
import { Tensor } from '../tensor/tensor.js';
import { Program } from './program.js';

let staticMode = false;
let mainProgram: Program | null = null;
let startupProgram: Program | null = null;
interface Guard { readonly main: Program; readonly startup: Program | null }
const guards: Guard[] = [];

/** The program ops are recorded into outside any program_guard. */
export const default_main_program = (): Program => (mainProgram ??= new Program());
/** Accepted for compatibility: parameters are initialized eagerly, so startup programs stay empty. */
export const default_startup_program = (): Program => (startupProgram ??= new Program());

/** The program being built: the innermost program_guard's, else the default main program. */
export const currentProgram = (): Program => guards[guards.length - 1]?.main ?? default_main_program();

/** Runs fn with no recorder installed: every op runs eagerly. */
export function eagerly<R>(fn: () => R): R {
  const prev = setStaticRecorder(null);
  try {
    return fn();
  } finally {
    setStaticRecorder(prev);
  }
}

class StaticModeRecorder implements StaticRecorder {
  record(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs, _outs: TensorMeta[]): TensorLike[] {
    if (!inputs.some((x) => x instanceof Value)) return eagerly(() => runOpDef(def, inputs, attrs));
    const prog = currentProgram();
    const flat = inputs.map((x, i) => {
      if (x === null) return null;
      if (x instanceof Value) {
        if (!prog.owns(x)) throw new Error(`${def.name}: input ${i} is a value of another program (ops are recorded into the program of the innermost program_guard)`);
        return x;
      }
      if (x instanceof Tensor) return prog.lift(x);
      throw new TypeError(`${def.name}: input ${i} is neither a Tensor nor a value of the program being built`);
    });
    const op = prog.builder.pdFromDef(def, flat, attrs);
    const results = hasListOutput(def) ? prog.builder.split(op.result(0)) : [...op.results];
    const base = prog.uniqueName(def.name);
    results.forEach((r, i) => prog._name(r, `${base}.tmp_${i}`));
    return results;
  }
}

const recorder = new StaticModeRecorder();
let installed = false;
let previous: StaticRecorder | null = null;

/** The recorder is installed while static mode is on or a program_guard is open. */
function sync(): void {
  const want = staticMode || guards.length > 0;
  if (want && !installed) {
    previous = setStaticRecorder(recorder);
    installed = true;
  } else if (!want && installed) {
    if (getStaticRecorder() === recorder) setStaticRecorder(previous);
    previous = null;
    installed = false;
  }
}

/**
 * Turns static mode on: calls on paddle.static values record into the current program.
 * @example paddle.enable_static(); const x = paddle.static.data('x', [null, 4]);
 */
export function enable_static(): void { staticMode = true; sync(); }
/** Back to dynamic (eager) mode. */
export function disable_static(_place?: unknown): void { staticMode = false; sync(); }
export const in_dynamic_mode = (): boolean => !staticMode;
export const in_static_mode = (): boolean => staticMode;

/** An open program_guard; `exit()` closes it (guards close innermost first). */
export class ProgramGuard {
  private open = false;
  constructor(readonly main: Program, readonly startup: Program | null = null) {
    if (!(main instanceof Program)) throw new TypeError('program_guard: main_program must be a paddle.static.Program');
    if (startup !== null && !(startup instanceof Program)) throw new TypeError('program_guard: startup_program must be a paddle.static.Program');
  }
  enter(): this {
    if (this.open) throw new Error('program_guard: already entered');
    guards.push({ main: this.main, startup: this.startup });
    this.open = true;
    sync();
    return this;
  }
  exit(): void {
    if (!this.open) return;
    const top = guards[guards.length - 1];
    if (top?.main !== this.main) throw new Error('program_guard: guards must be exited innermost first');
    guards.pop();
    this.open = false;
    sync();
  }
  [Symbol.dispose](): void { this.exit(); }
}

/**
 * Makes `main` the program ops are recorded into. With a callback, runs it inside the guard and
 * returns its result; without, returns the entered guard (call `exit()` when done).
 * @example
 *   const y = paddle.static.program_guard(main, () => paddle.nn.functional.relu(paddle.static.data('x', [null, 4])));
 *   const g = paddle.static.program_guard(main); try { ... } finally { g.exit(); }
 */
export function program_guard<R>(main: Program, fn: () => R): R;
export function program_guard<R>(main: Program, startup: Program | null, fn: () => R): R;
export function program_guard(main: Program, startup?: Program | null): ProgramGuard;
export function program_guard<R>(main: Program, startupOrFn?: Program | null | (() => R), fn?: () => R): R | ProgramGuard {
  const body = typeof startupOrFn === 'function' ? startupOrFn : fn;
  const startup = typeof startupOrFn === 'function' ? null : startupOrFn ?? null;
  const g = new ProgramGuard(main, startup).enter();
  if (!body) return g;
  try {
    return body();
  } finally {
    g.exit();
  }
}
