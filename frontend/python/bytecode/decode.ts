// Decodes co_code into instructions using the running interpreter's opcode table:
// EXTENDED_ARG prefixes fold into the next argument, CACHE entries are skipped, and jump
// targets are resolved to instruction indices. Version differences in *meaning* live in
// versions.ts, not here.
import type { InterpreterInfo } from './interp_info.js';

export interface Instruction {
  /** Index in the decoded list. */
  readonly index: number;
  /** Byte offset of the instruction itself (after any EXTENDED_ARG prefixes). */
  readonly offset: number;
  /** Byte offset of its first EXTENDED_ARG prefix (jumps land there). */
  readonly startOffset: number;
  readonly opname: string;
  readonly opcode: number;
  readonly arg: number;
  /** Index of the jump target instruction, or -1. */
  jumpTarget: number;
  /** Source line (from co_positions), or -1. */
  line: number;
}

export class Decoder {
  private readonly names: string[] = [];
  private readonly jumps: Set<number>;
  private readonly absJumps: Set<number>;
  private readonly extendedArg: number;
  private readonly cacheOf: Int32Array;

  constructor(readonly info: InterpreterInfo) {
    for (const [name, num] of Object.entries(info.opmap)) if (num < 256) this.names[num] = name;
    this.jumps = new Set(info.jumpOpcodes);
    this.absJumps = new Set(info.absoluteJumpOpcodes);
    this.extendedArg = info.opmap.EXTENDED_ARG;
    this.cacheOf = new Int32Array(256);
    for (const [name, n] of Object.entries(info.cacheEntries)) {
      const num = info.opmap[name];
      if (num !== undefined && num < 256) this.cacheOf[num] = n;
    }
  }

  opname(op: number): string {
    const n = this.names[op];
    if (n === undefined) throw new Error(`bytecode: unknown opcode ${op}`);
    return n;
  }

  /**
   * @param code co_code bytes (not _co_code_adaptive: specialised opcodes must not appear)
   * @param lines source line per code unit (offset/2), -1 where unknown
   */
  decode(code: Uint8Array, lines?: ArrayLike<number>): Instruction[] {
    const out: Instruction[] = [];
    const byStart = new Map<number, number>();
    const nextOffset: number[] = [];
    let ext = 0;
    let start = -1;
    for (let off = 0; off < code.length;) {
      const op = code[off];
      const rawArg = code[off + 1];
      if (start < 0) start = off;
      if (op === this.extendedArg) {
        ext = (ext | rawArg) << 8;
        off += 2;
        continue;
      }
      const arg = ext | rawArg;
      ext = 0;
      const opname = this.opname(op);
      const index = out.length;
      out.push({ index, offset: off, startOffset: start, opname, opcode: op, arg, jumpTarget: -1, line: lines ? lines[off >> 1] ?? -1 : -1 });
      byStart.set(start, index);
      byStart.set(off, index);
      start = -1;
      off += 2 + 2 * this.cacheOf[op];
      nextOffset.push(off);
    }
    for (const ins of out) {
      if (!this.jumps.has(ins.opcode)) continue;
      const after = nextOffset[ins.index];
      const backward = ins.opname.includes('BACKWARD');
      // 3.10 has absolute jumps in code units (hasjabs); 3.11+ only relative ones.
      const target = this.absJumps.has(ins.opcode) ? ins.arg * 2 : backward ? after - ins.arg * 2 : after + ins.arg * 2;
      const t = byStart.get(target);
      if (t === undefined) throw new Error(`bytecode: ${ins.opname} at offset ${ins.offset} jumps to ${target}, which is not an instruction`);
      ins.jumpTarget = t;
    }
    return out;
  }
}
