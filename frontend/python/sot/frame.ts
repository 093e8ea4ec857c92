// A simulated CPython frame: instruction pointer, value stack and localsplus slots.
import type { HostRef } from '../../../sot/values.js';
import type { Variable } from '../../../sot/variables.js';
import type { CodeInfo } from './code.js';

export class Frame {
  ip = 0;
  stack: Variable[] = [];
  /** localsplus: plain locals, cells (CellVar) and free variables (CellVar), CPython's order. */
  locals: (Variable | undefined)[];
  /** Free variables were bound at inlining (COPY_FREE_VARS is then a no-op). */
  closureBound = false;
  /** Keyword names set by KW_NAMES (3.12) for the next CALL. */
  kwNames: string[] | null = null;
  /** The exception this frame is handling (PUSH_EXC_INFO .. POP_EXCEPT), for a bare `raise`. */
  excInfo: Variable | null = null;

  constructor(readonly code: CodeInfo, readonly globals: HostRef, readonly fnName: string) {
    this.locals = new Array(code.nlocalsplus).fill(undefined);
  }

  push(v: Variable): void { this.stack.push(v); }
  pop(): Variable {
    const v = this.stack.pop();
    if (v === undefined) throw new Error(`sot: stack underflow in ${this.code.name} at instruction ${this.ip}`);
    return v;
  }
  popN(n: number): Variable[] {
    if (n === 0) return [];
    if (n > this.stack.length) throw new Error(`sot: stack underflow in ${this.code.name} at instruction ${this.ip}`);
    return this.stack.splice(this.stack.length - n, n);
  }
  peek(depth = 1): Variable {
    const v = this.stack[this.stack.length - depth];
    if (v === undefined) throw new Error(`sot: stack underflow in ${this.code.name}`);
    return v;
  }

  localName(i: number): string { return this.code.wire.localsplus[i] ?? `<local ${i}>`; }

  get line(): number { return this.code.instructions[Math.min(this.ip, this.code.instructions.length - 1)]?.line ?? -1; }
}
