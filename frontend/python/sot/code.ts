// Code objects as the translator sees them: decoded once per code object and cached by id.
import type { Decoder, Instruction } from '../bytecode/decode.js';
import { normalizeLegacy } from '../bytecode/legacy.js';
import type { RtValue } from '../../../sot/values.js';

/** What compat/paddle/jit/sot/runtime.py sends for a code object (once). */
export interface CodeWire {
  id: number;
  name: string;
  qualname: string;
  filename: string;
  firstlineno: number;
  argcount: number;
  posonlyargcount: number;
  kwonlyargcount: number;
  flags: number;
  /** co_varnames + cell-only names + co_freevars, in CPython's localsplus order. */
  localsplus: string[];
  /** Per localsplus slot: 'l' plain local, 'c' cell, 'f' free (closure) variable. */
  localkinds: string;
  names: string[];
  /** Encoded constants (sot encoding); nested code objects arrive as objects. */
  consts: string[];
  /** co_code as a latin-1 string (one char per byte). */
  code: string;
  /** Source line per code unit. */
  lines: number[];
  hasExceptionTable: boolean;
  /** Byte offsets of the exception table's handler targets (dis._parse_exception_table). */
  handlers: number[];
  /** Marked by paddle.jit.marker.capture_control_flow: branches on tensors become if ops (capture_cf.ts). */
  captureCf?: boolean;
  /** co_cellvars (3.10 numbers its deref instructions by cellvars + freevars). */
  cellvars?: string[];
  /** Exception table rows [start, end, target, depth, lasti] in byte offsets; null before 3.11. */
  excTable?: [number, number, number, number, number][] | null;
  /** 3.10's block stack as a static table (compat/paddle/jit/sot/block_stack.py): rows [start, end,
   * handler, level, except level] in byte offsets; null on 3.11+ or when the walk failed. */
  blockTable?: [number, number, number, number, number][] | null;
}

/** One exception-table entry resolved to instruction indices (target) for the translator. */
export interface ExcHandler {
  readonly target: number;
  readonly depth: number;
  readonly lasti: boolean;
  /**
   * 3.10's block stack: the handler gets six values, [prev tb, prev value, prev type, tb, value,
   * type] (the translator holds the exception object in every one of the last three and the
   * previously handled one, or None, in the first three); `restoreAt` is the stack level of the
   * EXCEPT_HANDLER block unwound on the way, whose saved exc_info becomes the previous one (-1: none).
   */
  readonly triples?: { readonly restoreAt: number };
}

export const CO_VARARGS = 0x04;
export const CO_VARKEYWORDS = 0x08;
export const CO_GENERATOR = 0x20;
export const CO_COROUTINE = 0x80;
export const CO_ITERABLE_COROUTINE = 0x100;
export const CO_ASYNC_GENERATOR = 0x200;

/**
 * Instructions an exception handler may contain and still be pure cleanup: it only restores
 * locals and re-raises (3.12+ inlined comprehensions restore their shadowed iteration variable
 * this way). Such a handler changes nothing a caller could observe, so code whose handlers are
 * all of this kind translates: an exception from a concrete step simply propagates.
 */
const CLEANUP_OPS = new Set(['SWAP', 'POP_TOP', 'STORE_FAST', 'COPY', 'NOP', 'POP_ITER']);

export class CodeInfo {
  readonly instructions: Instruction[];
  readonly consts: RtValue[];
  readonly byOffset = new Map<number, number>();
  /** Instructions of pure-cleanup exception handlers (never reached by the translator). */
  readonly cleanupHandlerCode = new Set<number>();
  /** The code has an exception handler that does more than clean up (try/except/with). */
  readonly hasRealHandlers: boolean;

  constructor(readonly wire: CodeWire, decoder: Decoder, decodeConst: (s: string) => RtValue) {
    const bytes = new Uint8Array(wire.code.length);
    for (let i = 0; i < bytes.length; i++) bytes[i] = wire.code.charCodeAt(i);
    // 3.10/3.11 layout differences (frame-start cells, deref numbering, JUMP_IF_*_OR_POP) are normalized here
    this.instructions = normalizeLegacy(decoder.decode(bytes, wire.lines), wire, decoder.info.opmap.MAKE_CELL === undefined);
    // (instructions expanded from one share its offset: the first of them is the one at that offset)
    for (const ins of this.instructions) if (!this.byOffset.has(ins.offset)) this.byOffset.set(ins.offset, ins.index);
    this.consts = wire.consts.map(decodeConst);
    // 3.10: any block (a table with rows, or null: the walk failed on code that has blocks)
    const blocks310 = !Array.isArray(wire.excTable) && wire.blockTable !== undefined && (wire.blockTable === null || wire.blockTable.length > 0);
    let real: boolean = (wire.hasExceptionTable && !wire.handlers) || blocks310;
    for (const target of wire.handlers ?? []) {
      const block = this.cleanupBlock(target);
      if (!block) { real = true; break; }
      for (const i of block) this.cleanupHandlerCode.add(i);
    }
    this.hasRealHandlers = real;
  }

  /** Indices of the handler block at `offset` when it is pure cleanup ending in RERAISE, else null. */
  private cleanupBlock(offset: number): number[] | null {
    const start = this.byOffset.get(offset);
    if (start === undefined) return null;
    const out: number[] = [];
    for (let i = start; i < this.instructions.length; i++) {
      const ins = this.instructions[i];
      out.push(i);
      if (ins.opname === 'RERAISE') return out;
      if (!CLEANUP_OPS.has(ins.opname)) return null;
    }
    return null;
  }

  /** The handler covering the instruction at byte `offset` (CPython's exception-table lookup), or null. */
  handlerAt(offset: number): ExcHandler | null {
    if (this.wire.blockTable) return this.blockHandlerAt(offset);
    for (const [start, end, target, depth, lasti] of this.wire.excTable ?? []) {
      if (offset >= start && offset < end) {
        const t = this.byOffset.get(target) ?? this.byStartOffset(target);
        if (t === undefined) throw new Error(`sot: exception handler target ${target} of ${this.name} is not an instruction`);
        return { target: t, depth, lasti: lasti !== 0 };
      }
    }
    return null;
  }

  /** 3.10: the SETUP_FINALLY / SETUP_WITH block an exception at byte `offset` unwinds to. */
  private blockHandlerAt(offset: number): ExcHandler | null {
    for (const [start, end, target, level, restoreAt] of this.wire.blockTable ?? []) {
      if (offset >= start && offset < end) {
        const t = this.byOffset.get(target) ?? this.byStartOffset(target);
        if (t === undefined) throw new Error(`sot: block handler target ${target} of ${this.name} is not an instruction`);
        return { target: t, depth: level, lasti: false, triples: { restoreAt } };
      }
    }
    return null;
  }

  private byStartOffset(offset: number): number | undefined {
    return this.instructions.find((i) => i.startOffset === offset)?.index;
  }

  /** Whether try/except/with can be simulated here: an exception table (3.11+) or 3.10's block stack as one. */
  get simulatesHandlers(): boolean { return Array.isArray(this.wire.excTable) || Array.isArray(this.wire.blockTable); }

  get id(): number { return this.wire.id; }
  get name(): string { return this.wire.name; }
  get isGenerator(): boolean { return (this.wire.flags & (CO_GENERATOR | CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR)) !== 0; }
  get nlocalsplus(): number { return this.wire.localsplus.length; }
  /** Number of parameters including *args / **kwargs slots. */
  get nparams(): number {
    const f = this.wire.flags;
    return this.wire.argcount + this.wire.kwonlyargcount + (f & CO_VARARGS ? 1 : 0) + (f & CO_VARKEYWORDS ? 1 : 0);
  }
}
